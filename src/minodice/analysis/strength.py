"""A die's strength: its chance to win a trick, and the tricks a hand of dice should take.

The one home of these numbers (below `sim` and the bots, above the rules): every
answer comes from `rules.trick_winner`, no rule is restated here.

- `win_chances` (exact): each die kind's chance to win a trick against k opponents who
  each roll one die drawn at random from the rest of the bag, by rolling position;
- `die_strength` (sampled, seeded): the same chance with the position random, as the
  greedy bot and the simulator's greedy policy use it (a fixed Monte Carlo table, so
  their play stays what it has always been; it agrees with `win_chances` within its
  sampling error, which `tests/test_odds.py` checks);
- `trick_distribution`: the chance of each number of tricks for dice winning
  independently with given chances (the greedy bid);
- `FACE_ODDS`: each die's distinct faces with their probabilities.

>>> from minodice.dice import BAG_COUNTS, Die
>>> table = win_chances(2)
>>> round(sum(BAG_COUNTS[d] * table.chance[d] for d in Die) / 36, 12)
0.333333333333
>>> abs(die_strength(3)[Die.RED] - table.chance[Die.RED]) < 0.03
True
>>> [round(p, 2) for p in trick_distribution([0.5, 0.5])]
[0.25, 0.5, 0.25]
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations_with_replacement

import numpy as np

from ..dice import BAG, BAG_COUNTS, Die, Face
from ..rules import Rules, trick_winner
from . import MAX_OPPONENTS, MIN_OPPONENTS

__all__ = [
    "FACE_ODDS",
    "MAX_OPPONENTS",
    "MIN_OPPONENTS",
    "SAMPLES",
    "TABLE_SEED",
    "WinChances",
    "die_strength",
    "trick_distribution",
    "win_chances",
]

#: Monte Carlo samples per die kind in `die_strength` (std. error about 0.005).
SAMPLES = 4000
#: Seed of the `die_strength` table (the greedy bot is deterministic: same views, same answers).
TABLE_SEED = 20240611

_DIES: tuple[Die, ...] = tuple(Die)
_FACES: tuple[Face, ...] = tuple(Face)
_BAG_SIZE = len(BAG)

#: Each die's distinct faces with their probabilities (in the order of its faces).
FACE_ODDS: dict[Die, tuple[tuple[Face, float], ...]] = {
    d: tuple((f, d.faces.count(f) / 6) for f in dict.fromkeys(d.faces)) for d in Die
}
#: FACE_ODDS by die index, with face indices (for the array code below).
_FACE_ODDS_IDX: tuple[tuple[tuple[int, float], ...], ...] = tuple(
    tuple((f.index, p) for f, p in FACE_ODDS[d]) for d in _DIES
)


# --- sampled: the greedy bot's table ------------------------------------------------------------

_STRENGTH: dict[tuple[int, str, str], dict[Die, float]] = {}


def die_strength(seats: int, rules: Rules | None = None) -> dict[Die, float]:
    """Chance that each kind of die wins a trick against `seats - 1` random dice from the bag.

    Rolling position is random too. Averaged over the bag the chances are
    1/seats, so their sum over a hand estimates the tricks it takes. A seeded
    Monte Carlo table (`SAMPLES` per kind), computed once per seat count and
    rule set: the numbers the greedy bot and the simulator's greedy policy bid and
    roll by (`win_chances` gives the exact chances).
    """
    rules = rules or Rules()
    key = (seats, rules.all_specials, rules.all_flags)
    table = _STRENGTH.get(key)
    if table is None:
        table = _STRENGTH[key] = _estimate_strength(seats, rules)
    return table


def _estimate_strength(seats: int, rules: Rules) -> dict[Die, float]:
    """Sample `SAMPLES` tricks per kind: the die against `seats - 1` others, at a random position."""
    rng = random.Random(f"{TABLE_SEED}:{seats}:{rules.all_specials}:{rules.all_flags}")
    rnd = rng.random
    table: dict[Die, float] = {}
    others = seats - 1
    for die in Die:
        pool = list(BAG)
        pool.remove(die)
        wins = 0
        for _ in range(SAMPLES):
            opponents = rng.sample(pool, others)
            faces = [d.faces[int(rnd() * 6)] for d in opponents]
            pos = int(rnd() * seats)
            faces.insert(pos, die.faces[int(rnd() * 6)])
            if trick_winner(faces, rules) == pos:
                wins += 1
        table[die] = wins / SAMPLES
    return table


def trick_distribution(chances: Sequence[float]) -> list[float]:
    """P(t tricks) for t = 0..len(chances), if each die wins its trick independently with its chance.

    >>> trick_distribution([1.0, 0.0])
    [0.0, 1.0, 0.0]
    """
    dist = [1.0]
    for p in chances:
        nxt = [0.0] * (len(dist) + 1)
        for k, q in enumerate(dist):
            nxt[k] += q * (1 - p)
            nxt[k + 1] += q * p
        dist = nxt
    return dist


# --- exact trick-win chances ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WinChances:
    """Exact chance that one die of each kind wins a trick against `opponents` random dice from the bag.

    `chance` has the rolling position random; `by_position[d][i]` is the chance when rolling
    (i+1)-th of `opponents + 1`.
    """

    opponents: int
    rules: Rules
    chance: dict[Die, float]
    by_position: dict[Die, tuple[float, ...]]
    exact: bool = True
    method: str = "exact enumeration of the opponents' dice and faces"

    def to_dict(self) -> dict[str, object]:
        """Plain data for JSON."""
        return {
            "opponents": self.opponents,
            "exact": self.exact,
            "method": self.method,
            "chance": {d.value: p for d, p in self.chance.items()},
            "by_position": {d.value: list(ps) for d, ps in self.by_position.items()},
        }


def win_chances(opponents: int, rules: Rules | None = None) -> WinChances:
    """Each die kind's exact chance to win a trick against `opponents` dice drawn from the other 35.

    The opponents' dice are an ordered random draw, so their faces are exchangeable: the
    chance at position p sums, over the face multisets rolled before and after the player,
    their joint probability times whether `trick_winner` gives the trick to the player.
    """
    if not MIN_OPPONENTS <= opponents <= MAX_OPPONENTS:
        raise ValueError(f"opponents go from {MIN_OPPONENTS} to {MAX_OPPONENTS}, not {opponents}")
    return _win_chances(opponents, rules or Rules())


@lru_cache(maxsize=64)
def _win_chances(k: int, rules: Rules) -> WinChances:
    chance: dict[Die, float] = {}
    by_position: dict[Die, tuple[float, ...]] = {}
    for die in _DIES:
        positions = tuple(_position_chance(die, k, p, rules) for p in range(k + 1))
        by_position[die] = positions
        chance[die] = sum(positions) / (k + 1)
    return WinChances(k, rules, chance, by_position)


def _position_chance(die: Die, k: int, p: int, rules: Rules) -> float:
    """Chance that `die`, rolled (p+1)-th of k+1, wins: sum over its faces and the others' face multisets."""
    joint = _joint_faces(die, k, p)
    return sum(
        q * float((joint * _win_matrix(p, k - p, f, rules)).sum()) for f, q in _FACE_ODDS_IDX[die.index]
    )


def _joint_faces(die: Die, k: int, p: int) -> np.ndarray:
    """P(face multiset of the p dice rolled before, face multiset of the k-p after) when holding `die`."""
    q = k - p
    weights = _kind_weights(die.index, p, q)
    return _face_matrix(p).T @ weights @ _face_matrix(q)


def _kind_weights(held: int, p: int, q: int) -> np.ndarray:
    """P(kinds before = multiset B, kinds after = multiset A) for the draws from the bag less one `held` die.

    Each ordered draw of kinds with n_d dice of kind d has probability prod_d ff(avail_d, n_d) / ff(35, k)
    (ff: falling factorial); B and A stand for their multinomial numbers of orderings.
    """
    avail = [BAG_COUNTS[d] - (d.index == held) for d in _DIES]
    total = _falling(_BAG_SIZE - 1, p + q)
    before, after = _kind_multisets(p), _kind_multisets(q)
    w = np.zeros((len(before), len(after)))
    for i, b in enumerate(before):
        for j, a in enumerate(after):
            draws = 1
            for d in range(7):
                draws *= _falling(avail[d], b[d] + a[d])
            if draws:
                w[i, j] = _orderings(b) * _orderings(a) * draws / total
    return w


def _falling(n: int, m: int) -> int:
    """n (n-1) ... (n-m+1); 0 when m > n."""
    return math.perm(n, m) if m <= n else 0


def _orderings(counts: tuple[int, ...]) -> int:
    """Distinct orders of a multiset with these counts (multinomial coefficient)."""
    out = math.factorial(sum(counts))
    for c in counts:
        out //= math.factorial(c)
    return out


@cache
def _kind_multisets(m: int) -> tuple[tuple[int, ...], ...]:
    """Every multiset of m die kinds, as per-kind counts."""
    out = []
    for combo in combinations_with_replacement(range(7), m):
        counts = [0] * 7
        for d in combo:
            counts[d] += 1
        out.append(tuple(counts))
    return tuple(out)


@cache
def _face_multisets(m: int) -> tuple[tuple[int, ...], ...]:
    """Every multiset of m faces, as sorted tuples of face indices."""
    return tuple(combinations_with_replacement(range(len(_FACES)), m))


@cache
def _face_matrix(m: int) -> np.ndarray:
    """[kind multiset, face multiset]: chance that m dice of those kinds roll those faces."""
    faces = {fm: j for j, fm in enumerate(_face_multisets(m))}
    kinds = _kind_multisets(m)
    out = np.zeros((len(kinds), len(faces)))
    for i, counts in enumerate(kinds):
        dist: dict[tuple[int, ...], float] = {(): 1.0}
        for d, c in enumerate(counts):
            for _ in range(c):
                nxt: dict[tuple[int, ...], float] = {}
                for fm, pr in dist.items():
                    for f, q in _FACE_ODDS_IDX[d]:
                        key = tuple(sorted((*fm, f)))
                        nxt[key] = nxt.get(key, 0.0) + pr * q
                dist = nxt
        for fm, pr in dist.items():
            out[i, faces[fm]] = pr
    return out


@lru_cache(maxsize=512)
def _win_matrix(p: int, q: int, face: int, rules: Rules) -> np.ndarray:
    """[faces before, faces after]: 1 where the player's `face`, rolled after p faces and before q, wins.

    Reordering the faces before (or after) the player never changes whether the player wins
    (ties go by later roll; an all-flag trick to the first or last roller), so sorted ones stand
    for all orders; tests check this against a brute force over ordered draws.
    """
    me = _FACES[face]
    before, after = _face_multisets(p), _face_multisets(q)
    out = np.zeros((len(before), len(after)))
    for i, fb in enumerate(before):
        head = [_FACES[f] for f in fb]
        head.append(me)
        for j, fa in enumerate(after):
            if trick_winner(head + [_FACES[f] for f in fa], rules) == p:
                out[i, j] = 1.0
    return out
