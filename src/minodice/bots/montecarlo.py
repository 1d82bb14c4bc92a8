"""`montecarlo`: bids and rolls by the expected score of this hand, estimated by simulation.

The objective is the seat's score for the hand in play (later hands do not
depend on how this one is played, but for who starts them). Every estimate
starts from *determinizations*: games consistent with everything the seat
knows, the other seats' hidden dice dealt at random from the dice it has not
seen (`Game.from_view`). From each, the rest of the hand is played out many
times with fresh faces by a fast greedy-like policy for every seat
(`minodice.sim.playout.finish_hand`, the numba batch simulator; a pure-Python
fallback plays through the engine when the simulator cannot be imported).

- Bid: for each determinization, every legal bid is played out with the same
  playout seed (common random numbers, so the bids are compared on the same
  deals and, mostly, the same faces); the other seats' bids come from the
  policy's bid heuristic on their sampled dice. The bid with the highest mean
  score wins.
- Roll: for each determinization, each legal die is rolled in a copy of it —
  all copies give the die the same random number, so its face differs only by
  the die — and the hand is finished from there. The die with the highest mean
  score wins.

Budget (options in the spec, e.g. `montecarlo:sims=200,seconds=0.2`):

- `sims` (default 96 for bids, the same for rolls): playouts per alternative,
  in determinizations of `per` playouts each (`per`, default 8 with the
  simulator, 1 without). Same seed, same decisions.
- `seconds` (default none): a time budget per decision instead; determinizations
  are added in batches until it is spent (at least one batch; `sims` then caps
  the work only if also given). Timed decisions are not reproducible.
- `policy` (default `greedy`): the playout policy, `greedy` or `random`.

With the defaults a decision takes about 0.05 s on average (0.15 s at most, for
the bid of the last hand) on the reference two-core machine; see
`benchmarks/bench_bots.py`.

Every decision leaves its evidence in `last_explanation` (see `bots.explain`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from .. import rules as R
from ..dice import Die
from ..game import Bid, Game, Phase, Roll, SeededChance
from ..rules import Rules
from ..view import View
from .base import Bot
from .explain import ChoiceStat, Explanation
from .greedy import _trick_distribution, die_strength

__all__ = [
    "DEFAULT_SIMS",
    "MonteCarloBot",
    "evaluate_bids",
    "evaluate_rolls",
    "parse_budget",
    "rollout_scores",
    "simulator_available",
]

#: Playouts per alternative (bid or die) when no budget is given.
DEFAULT_SIMS = 96
#: Strength of the inference from revealed bids (0: none; see `bid_weight`).
DEFAULT_INFER = 1.0
#: Determinizations drawn at a time (when inferring, resampled from three times as many).
_BATCH = 16

# --- playouts: the simulator, or the engine as a fallback -----------------------------------

try:  # the numba batch simulator (another part of the package; optional at import time)
    from ..sim.playout import finish_hand as _sim_finish_hand
    from ..sim.playout import playout_values as _sim_playout_values
except Exception:  # pragma: no cover - depends on the simulator being present and compiling
    _sim_finish_hand = _sim_playout_values = None


def simulator_available() -> bool:
    """True when playouts run in the numba simulator rather than the pure-Python fallback."""
    return _sim_finish_hand is not None


def rollout_scores(
    game: Game,
    n: int,
    seed: int,
    bids: Sequence[int | None] | None = None,
    policy: str = "greedy",
) -> np.ndarray:
    """Play the rest of `game`'s current hand `n` times; int array [n, seats] of hand scores.

    `game` is fully known (a determinization) and in phase BID or ROLL; `bids`
    fills the bids not yet placed (None: the policy's bid heuristic).
    """
    if _sim_finish_hand is not None:
        return _sim_finish_hand(game, n, seed, bids=bids, policy=policy)
    return _finish_hand_py(game, n, seed, bids=bids, policy=policy)


@lru_cache(maxsize=1 << 14)
def heuristic_bid(dice: tuple[Die, ...], seats: int, rules: Rules) -> int:
    """The greedy bot's bid for `dice` (the expected-score bid, each die winning independently)."""
    strength = die_strength(seats, rules)
    dist = _trick_distribution([strength[d] for d in dice])
    n = len(dice)
    best, best_value = 0, float("-inf")
    for b in range(n + 1):
        value = sum(p * R.hand_score(b, t, n, 0, rules) for t, p in enumerate(dist))
        if value > best_value + 1e-9:
            best, best_value = b, value
    return best


def _finish_hand_py(
    game: Game,
    n: int,
    seed: int,
    *,
    bids: Sequence[int | None] | None = None,
    policy: str = "greedy",
) -> np.ndarray:
    """The fallback of `rollout_scores`: clone and play through the engine (slow but exact)."""
    rng = random.Random(seed)
    seats = game.seats
    h = len(game.log) - 1
    out = np.empty((n, seats), dtype=np.int64)
    strength = die_strength(seats, game.rules)
    rnd = policy == "random"
    for i in range(n):
        g = game.clone(chance=SeededChance(rng.getrandbits(64)))
        hand = g.log[h]
        if g.phase is Phase.BID:
            for s in range(seats):
                if hand.bids[s] is None:
                    b = bids[s] if bids is not None else None
                    if b is None:
                        held = g.held(s)
                        b = rng.randint(0, len(held)) if rnd else heuristic_bid(held, seats, g.rules)
                    g.apply(Bid(s, b))
        while hand.scores is None:
            s = g.turn
            legal = g.legal_actions(s)
            if len(legal) == 1:
                g.apply(legal[0])
                continue
            if rnd:
                g.apply(legal[int(rng.random() * len(legal))])
                continue
            need = hand.bids[s] - sum(1 for t in hand.tricks if t.winner == s)  # type: ignore[operator]
            if need > 0:
                g.apply(max(legal, key=lambda a: strength[a.die]))  # type: ignore[union-attr]
            else:
                g.apply(min(legal, key=lambda a: strength[a.die]))  # type: ignore[union-attr]
        out[i] = hand.scores
    return out


# --- estimates ---------------------------------------------------------------------------------


class _Acc:
    """Per-determinization means of one alternative (for the mean and its standard error)."""

    __slots__ = ("k", "n", "s", "s2")

    def __init__(self) -> None:
        self.n = 0  # playouts
        self.k = 0  # determinizations
        self.s = 0.0
        self.s2 = 0.0

    def add(self, det_mean: float, playouts: int) -> None:
        self.k += 1
        self.n += playouts
        self.s += det_mean
        self.s2 += det_mean * det_mean

    @property
    def mean(self) -> float:
        return self.s / self.k if self.k else 0.0

    @property
    def stderr(self) -> float:
        if self.k < 2:
            return float("nan")
        var = max(0.0, (self.s2 - self.s * self.s / self.k) / (self.k - 1))
        return math.sqrt(var / self.k)


def _batches(sims: int | None, per: int, seconds: float | None) -> tuple[int, float | None]:
    """How many determinizations at most, and the deadline (perf_counter) if timed."""
    if seconds is not None:
        limit = math.ceil(sims / per) if sims is not None else 1 << 30
        return max(1, limit), time.perf_counter() + seconds
    return max(1, math.ceil((sims if sims is not None else DEFAULT_SIMS) / per)), None


def _dice_key(dice: Sequence[Die]) -> tuple[Die, ...]:
    return tuple(sorted(dice, key=_die_index))


def _die_index(d: Die) -> int:
    return d.index


def bid_weight(det: Game, view: View, infer: float) -> float:
    """How likely the other seats' revealed bids are, were their dice those of `det`.

    Each seat is taken to bid about what the greedy heuristic bids for its dice:
    a bid `k` away from it has likelihood exp(-infer * k).
    """
    if infer <= 0:
        return 1.0
    hand = det.log[-1]
    seat, seats, rules = view.seat, view.seats, view.rules
    misses = 0
    for s in range(seats):
        b = view.bids[s]
        if s == seat or b is None:
            continue
        misses += abs(b - heuristic_bid(_dice_key(hand.dice[s]), seats, rules))
    return math.exp(-infer * misses)


def sample_determinizations(
    view: View, rng: random.Random, k: int, *, infer: float = 0.0, pool: int = 3, distinct: bool = False
) -> list[Game]:
    """`k` determinizations of `view` (its own bid kept), others' dice weighted by their revealed bids.

    With `infer` > 0 and the bids revealed, `pool * k` candidates are drawn and
    `k` of them resampled (systematic resampling) in proportion to `bid_weight`;
    a candidate may then appear more than once (the same object, unless
    `distinct`: then repeats are copies). Otherwise `k` independent draws.
    """
    seat = _seat(view)
    own_bid = view.bids[seat]
    revealed = not view.bidding
    if infer <= 0 or not revealed or pool <= 1:
        return [Game.from_view(view, rng, own_bid=own_bid) for _ in range(k)]
    cands = [Game.from_view(view, rng, own_bid=own_bid) for _ in range(pool * k)]
    weights = [bid_weight(g, view, infer) for g in cands]
    total = sum(weights)
    step = total / k
    u = rng.random() * step
    out: list[Game] = []
    acc = 0.0
    i = -1
    last = -1
    for j in range(k):
        target = u + j * step
        while acc <= target and i < len(cands) - 1:
            i += 1
            acc += weights[i]
        out.append(cands[i].clone() if distinct and i == last else cands[i])
        last = i
    return out


def _seat(view: View) -> int:
    if view.seat is None:
        raise ValueError("a spectator's view has no seat to decide for")
    return view.seat


def evaluate_bids(
    view: View,
    rng: random.Random,
    *,
    sims: int | None = None,
    per: int = 8,
    seconds: float | None = None,
    policy: str = "greedy",
) -> list[tuple[int, _Acc]]:
    """Each legal bid of `view`'s seat with the statistics of its simulated hand score."""
    seat = _seat(view)
    legal = [b for b in view.legal or () if isinstance(b, int)]
    accs = [(b, _Acc()) for b in legal]
    dets, deadline = _batches(sims, per, seconds)
    bids: list[int | None] = [None] * view.seats
    for k in range(dets):
        if deadline is not None and k and time.perf_counter() >= deadline:
            break
        det = Game.from_view(view, rng)
        seed = rng.getrandbits(62)
        for b, acc in accs:
            bids[seat] = b
            scores = rollout_scores(det, per, seed, bids, policy)
            acc.add(float(scores[:, seat].mean()), per)
    return accs


def evaluate_rolls(
    view: View,
    rng: random.Random,
    *,
    sims: int | None = None,
    per: int = 8,
    seconds: float | None = None,
    policy: str = "greedy",
    infer: float = 0.0,
) -> list[tuple[Die, _Acc]]:
    """Each legal die of `view`'s seat with the statistics of its simulated hand score.

    `infer` > 0 weights the determinizations by the other seats' revealed bids (`bid_weight`).
    """
    seat = _seat(view)
    legal = [d for d in view.legal or () if isinstance(d, Die)]
    accs = [(d, _Acc()) for d in legal]
    dets, deadline = _batches(sims, per, seconds)
    batch = min(dets, _BATCH)
    pending: list[Game] = []
    for k in range(dets):
        if deadline is not None and k and time.perf_counter() >= deadline:
            break
        if not pending:
            pending = sample_determinizations(view, rng, min(batch, dets - k), infer=infer)
            pending.reverse()
        det = pending.pop()
        seed = rng.getrandbits(62)
        if _sim_playout_values is not None:
            # Each playout rolls the die with a fresh face; the same seed for every die.
            values = _sim_playout_values(det, seat, legal, per, seed, policy=policy)
            for (_d, acc), v in zip(accs, values):
                acc.add(float(v), per)
            continue
        h = len(det.log) - 1
        for d, acc in accs:
            g = det.clone()  # the same chance state: the die gets the same random number
            g.apply(Roll(seat, d))
            hand = g.log[h]
            if hand.scores is not None:  # that roll ended the hand
                acc.add(float(hand.scores[seat]), per)
            else:
                scores = rollout_scores(g, per, seed, None, policy)
                acc.add(float(scores[:, seat].mean()), per)
    return accs


def _explanation(
    kind: str, seat: int, bot: str, accs: Sequence[tuple[int | Die, _Acc]], chosen: int | Die,
    began: float, note: str,
) -> Explanation:
    choices = tuple(ChoiceStat(c, a.mean, a.stderr, a.n) for c, a in accs)
    return Explanation(
        kind=kind, seat=seat, bot=bot, choices=choices, chosen=chosen,
        samples=sum(a.n for _, a in accs), seconds=time.perf_counter() - began, note=note,
    )


def argmax_mean(accs: Sequence[tuple[int | Die, _Acc]]) -> int | Die:
    """The alternative with the highest mean (the first of equals)."""
    best, best_mean = accs[0][0], float("-inf")
    for c, a in accs:
        if a.mean > best_mean + 1e-9:
            best, best_mean = c, a.mean
    return best


# --- options -----------------------------------------------------------------------------------


def parse_budget(
    name: str, options: dict[str, str], allowed: Sequence[str]
) -> dict[str, int | float | str]:
    """Check and convert a searching bot's options (ValueError naming the bad one)."""
    out: dict[str, int | float | str] = {}
    for key, raw in options.items():
        if key not in allowed:
            raise ValueError(
                f"the {name} bot has no option {key!r}: its options are {', '.join(allowed)}"
            )
        if key == "policy":
            if raw not in ("greedy", "random"):
                raise ValueError(f"{name}: policy must be greedy or random, not {raw!r}")
            out[key] = raw
            continue
        try:
            value: int | float = float(raw) if key in ("seconds", "c", "infer") else int(raw)
        except ValueError:
            raise ValueError(f"{name}: option {key} must be a number, not {raw!r}") from None
        if key == "infer" and value == 0:
            out[key] = value
            continue
        if not value > 0 or (isinstance(value, float) and not math.isfinite(value)):
            raise ValueError(f"{name}: option {key} must be positive, not {raw!r}")
        out[key] = value
    return out


def _spec(name: str, options: dict[str, int | float | str]) -> str:
    if not options:
        return name
    return name + ":" + ",".join(f"{k}={v}" for k, v in options.items())


class MonteCarloBot(Bot):
    """Flat Monte Carlo over determinizations: the bid or die with the best simulated hand score."""

    name = "montecarlo"

    def __init__(
        self,
        rng: random.Random | None = None,
        *,
        sims: int | None = None,
        per: int | None = None,
        seconds: float | None = None,
        policy: str = "greedy",
        infer: float | None = None,
    ) -> None:
        super().__init__(rng)
        self.infer = infer if infer is not None else DEFAULT_INFER
        self.sims = sims if sims is not None or seconds is not None else DEFAULT_SIMS
        self.per = per if per is not None else (8 if simulator_available() else 1)
        self.seconds = seconds
        self.policy = policy
        self._options: dict[str, int | float | str] = {}
        if sims is not None:
            self._options["sims"] = sims
        if per is not None:
            self._options["per"] = per
        if seconds is not None:
            self._options["seconds"] = seconds
        if policy != "greedy":
            self._options["policy"] = policy
        if infer is not None:
            self._options["infer"] = infer
        #: The evidence for the last decision (see `bots.explain`).
        self.last_explanation: Explanation | None = None

    def describe(self) -> str:
        return _spec(self.name, self._options)

    def _budget(self) -> dict:
        return {"sims": self.sims, "per": min(self.per, self.sims or self.per),
                "seconds": self.seconds, "policy": self.policy}

    def bid(self, view: View) -> int:
        began = time.perf_counter()
        accs = evaluate_bids(view, self.rng, **self._budget())
        chosen = argmax_mean(accs)
        self.last_explanation = _explanation(
            "bid", _seat(view), self.describe(), accs, chosen, began,
            "expected score of this hand per bid (others' bids by the greedy heuristic)",
        )
        return chosen  # type: ignore[return-value]

    def roll(self, view: View) -> Die:
        began = time.perf_counter()
        legal = [d for d in view.legal or () if isinstance(d, Die)]
        if len(legal) == 1:
            self.last_explanation = Explanation(
                "roll", _seat(view), self.describe(), (ChoiceStat(legal[0], float("nan"), float("nan"), 0),),
                legal[0], note="the only legal die",
            )
            return legal[0]
        accs = evaluate_rolls(view, self.rng, infer=self.infer, **self._budget())
        chosen = argmax_mean(accs)
        self.last_explanation = _explanation(
            "roll", _seat(view), self.describe(), accs, chosen, began,
            "expected score of this hand per die rolled now",
        )
        return chosen  # type: ignore[return-value]
