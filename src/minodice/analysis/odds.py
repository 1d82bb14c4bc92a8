"""The odds players ask about, as pure computations (no printing: `odds_cli` shows them).

- `win_chances` (exact): each die kind's chance to take a trick against k opponents
  who each roll one die drawn at random from the rest of the bag, by rolling position;
- `simulate_hands` + `bid_odds` (sampled): the bid greedy play makes in each hand
  size and how often it is made, from the batch simulator with every seat greedy;
- `die_values` (sampled): the tricks a die of each kind is worth in a hand of n dice.

Every result says whether it is exact or sampled, and the sample size.

>>> table = win_chances(2)
>>> round(sum(BAG_COUNTS[d] * table.chance[d] for d in Die) / 36, 12)
0.333333333333
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations_with_replacement

import numpy as np
from numba import njit

from ..dice import BAG_COUNTS, MAX_SEATS, MIN_SEATS, Die, Face, hands_for
from ..rules import Rules, trick_winner
from ..sim import kernel as K
from ..sim import simulate_from_stream
from ..sim.batch import stream_size

__all__ = [
    "MAX_OPPONENTS",
    "MIN_OPPONENTS",
    "BidOdds",
    "DieValues",
    "HandSample",
    "WinChances",
    "bid_odds",
    "die_values",
    "simulate_hands",
    "win_chances",
]

#: Opponents a die can face: one per other player (3 to 6 players).
MIN_OPPONENTS, MAX_OPPONENTS = MIN_SEATS - 1, MAX_SEATS - 1

_DIES: tuple[Die, ...] = tuple(Die)
_FACES: tuple[Face, ...] = tuple(Face)
_BAG_SIZE = sum(BAG_COUNTS.values())
#: Each kind's distinct faces (face index) with their probabilities.
_FACE_ODDS: tuple[tuple[tuple[int, float], ...], ...] = tuple(
    tuple((f.index, d.faces.count(f) / 6) for f in dict.fromkeys(d.faces)) for d in _DIES
)


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


def _check_opponents(opponents: int) -> None:
    if not MIN_OPPONENTS <= opponents <= MAX_OPPONENTS:
        raise ValueError(f"opponents go from {MIN_OPPONENTS} to {MAX_OPPONENTS}, not {opponents}")


def win_chances(opponents: int, rules: Rules | None = None) -> WinChances:
    """Each die kind's exact chance to win a trick against `opponents` dice drawn from the other 35.

    The opponents' dice are an ordered random draw, so their faces are exchangeable: the
    chance at position p sums, over the face multisets rolled before and after the player,
    their joint probability times whether `trick_winner` gives the trick to the player.
    """
    _check_opponents(opponents)
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
    return sum(q * float((joint * _win_matrix(p, k - p, f, rules)).sum()) for f, q in _FACE_ODDS[die.index])


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
                    for f, q in _FACE_ODDS[d]:
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


# --- sampled: greedy bids and die values -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandSample:
    """Hands played by the batch simulator with every seat greedy: one hand of each size per game.

    Arrays are indexed [game, hand size - 1, seat]; `held` adds the die kind (table order).
    """

    players: int
    games: int
    seed: int
    rules: Rules
    bids: np.ndarray
    won: np.ndarray
    held: np.ndarray

    @property
    def hands(self) -> int:
        return int(self.bids.shape[1])


@dataclass(frozen=True, slots=True)
class BidOdds:
    """Greedy bids in hands of `hand` dice (sampled): share of each bid, and share of those bids made.

    `samples` counts seat-hands (games × players); standard errors treat each game as one cluster.
    """

    hand: int
    games: int
    samples: int
    share: dict[int, float]
    share_se: dict[int, float]
    made: dict[int, float]
    made_se: dict[int, float]
    made_all: float
    made_all_se: float
    exact: bool = False

    def to_dict(self) -> dict[str, object]:
        """Plain data for JSON (bids never made by greedy play are left out of `made`)."""
        return {
            "hand": self.hand,
            "sampled": True,
            "games": self.games,
            "samples": self.samples,
            "share": {str(b): v for b, v in self.share.items()},
            "share_se": {str(b): v for b, v in self.share_se.items()},
            "made": {str(b): v for b, v in self.made.items()},
            "made_se": {str(b): v for b, v in self.made_se.items()},
            "made_all": self.made_all,
            "made_all_se": self.made_all_se,
        }


@dataclass(frozen=True, slots=True)
class DieValues:
    """Tricks one die of each kind is worth in a hand of `hand` dice under greedy play (sampled).

    Least squares of tricks won on the kinds held (no intercept): a hand is expected to win the sum
    of its dice's values. Standard errors are cluster-robust by game; a kind never held is left out.
    """

    hand: int
    games: int
    samples: int
    value: dict[Die, float]
    se: dict[Die, float]
    mean_tricks: float
    exact: bool = False

    def to_dict(self) -> dict[str, object]:
        """Plain data for JSON."""
        return {
            "hand": self.hand,
            "sampled": True,
            "games": self.games,
            "samples": self.samples,
            "value": {d.value: v for d, v in self.value.items()},
            "se": {d.value: v for d, v in self.se.items()},
            "mean_tricks": self.mean_tricks,
        }


#: Games per batch-simulator call (bounds the memory of the uniform stream).
_CHUNK = 5000


def simulate_hands(players: int = 4, games: int = 200_000, seed: int = 0, rules: Rules | None = None) -> HandSample:
    """Play `games` whole games, every seat greedy, with the batch simulator; keep each hand's dice, bids, tricks.

    The games draw their randomness from a seeded uniform stream (`simulate_from_stream`), so
    each hand's deal is replayed from the same stream with the kernel's own `deal`.
    """
    hands = hands_for(players)
    if games < 1:
        raise ValueError("games must be at least 1")
    rules = rules or Rules()
    rng = np.random.default_rng(seed)
    bids = np.empty((games, hands, players), dtype=np.int8)
    won = np.empty((games, hands, players), dtype=np.int8)
    held = np.empty((games, hands, players, 7), dtype=np.int8)
    per_game = 2 * players * hands * (hands + 1) // 2  # all greedy: one uniform per die dealt and per roll
    for start in range(0, games, _CHUNK):
        n = min(_CHUNK, games - start)
        stream = rng.random(stream_size(n, players))
        result, used = simulate_from_stream(stream, n, players, rules, "greedy")
        if used != n * per_game:
            raise RuntimeError(f"the simulator drew {used} uniforms, not {n * per_game}: deals cannot be replayed")
        bids[start : start + n] = result.bids
        won[start : start + n] = result.won
        _replay_deals(stream, n, players, hands, per_game, held[start : start + n])
    return HandSample(players, games, seed, rules, bids, won, held)


_DEAL = K.deal
_H_COUNTS = K.H_COUNTS
_H_SIZE = K.H_SIZE


@njit(cache=True)
def _replay_deals(stream, games, seats, hands, per_game, out):  # pragma: no cover - numba
    """Fill out[g, h, s, d] with the dice each seat was dealt, re-running the kernel's deal on the stream."""
    hs = np.zeros(_H_SIZE, dtype=np.int64)
    zero = np.uint64(0)
    for g in range(games):
        pos = g * per_game
        for h in range(hands):
            n = h + 1
            _DEAL(hs, stream, (zero, zero, zero, zero, np.int64(pos)), seats, n)
            for s in range(seats):
                for d in range(7):
                    out[g, h, s, d] = hs[_H_COUNTS + 7 * s + d]
            pos += 2 * seats * n


def _mean_se(per_game: np.ndarray) -> tuple[float, float]:
    """Mean of one number per game and its standard error."""
    g = per_game.shape[0]
    mean = float(per_game.mean())
    return mean, (float(per_game.std(ddof=1) / math.sqrt(g)) if g > 1 else math.nan)


def _ratio_se(y: np.ndarray, x: np.ndarray) -> tuple[float, float]:
    """Ratio Σy/Σx of per-game sums and its standard error (games as clusters)."""
    sx = float(x.sum())
    if sx == 0:
        return math.nan, math.nan
    r = float(y.sum()) / sx
    g = y.shape[0]
    if g < 2:
        return r, math.nan
    resid = y - r * x
    return r, float(math.sqrt((resid**2).sum() / (g * (g - 1))) / (sx / g))


def bid_odds(sample: HandSample) -> list[BidOdds]:
    """For each hand size, the share of each greedy bid and the share of those bids made."""
    out = []
    for h in range(sample.hands):
        n = h + 1
        bids = sample.bids[:, h, :].astype(np.int64)
        made = sample.won[:, h, :] == sample.bids[:, h, :]
        share, share_se, made_b, made_se = {}, {}, {}, {}
        for b in range(n + 1):
            has = bids == b
            share[b], share_se[b] = _mean_se(has.mean(axis=1))
            if has.any():
                made_b[b], made_se[b] = _ratio_se((has & made).sum(axis=1), has.sum(axis=1))
        m, m_se = _mean_se(made.mean(axis=1))
        out.append(BidOdds(n, sample.games, bids.size, share, share_se, made_b, made_se, m, m_se))
    return out


def die_values(sample: HandSample) -> list[DieValues]:
    """For each hand size, the tricks one die of each kind is worth (see `DieValues`)."""
    return [_die_values_for(sample, h) for h in range(sample.hands)]


def _die_values_for(sample: HandSample, h: int) -> DieValues:
    g, s = sample.games, sample.players
    x = sample.held[:, h, :, :].reshape(g * s, 7).astype(np.float64)
    y = sample.won[:, h, :].reshape(g * s).astype(np.float64)
    cols = np.flatnonzero(x.sum(axis=0) > 0)
    xc = x[:, cols]
    xtx = xc.T @ xc
    beta = np.linalg.solve(xtx, xc.T @ y)
    resid = y - xc @ beta
    scores = (xc * resid[:, None]).reshape(g, s, len(cols)).sum(axis=1)
    bread = np.linalg.inv(xtx)
    cov = bread @ (scores.T @ scores) @ bread * (g / (g - 1) if g > 1 else math.nan)
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    value = {_DIES[c]: float(beta[i]) for i, c in enumerate(cols)}
    errors = {_DIES[c]: float(se[i]) for i, c in enumerate(cols)}
    return DieValues(h + 1, g, g * s, value, errors, float(y.mean()))
