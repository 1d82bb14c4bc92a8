"""Bid advice for a hand of real dice: the chance of each trick count and the expected score of each bid.

The unseen dice are dealt at random from the rest of the bag, many times;
each deal is played to the end of the hand in the numba batch simulator
(`minodice.sim.kernel`) once for every bid the player could make (the same
deal and random numbers for every bid, so bids are compared fairly). The
player plays greedily towards its bid; the other seats bid and play by the
chosen opponent policy (`greedy`: as the `greedy` bot, `random`: uniformly).
Sampling continues until every bid's expected score is known to within
`precision` points (95 % interval) or the time budget is spent; a bid that
is known well enough stops being simulated, so the time goes to the others.

>>> from minodice.dice import Die
>>> advice = advise([Die("red"), Die("griffin")], players=4, seed=1)
>>> advice.best in range(3)
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..dice import BAG, BAG_COUNTS, Die, dice_called, hands_for, over_bag
from ..jit import njit
from ..rules import Rules
from ..sim import kernel as K
from ..sim.kernel import S_BIDS
from ..sim.playout import hand_start_state, policy_array, strength_array
from ..view import View
from . import OPPONENT_POLICIES

__all__ = ["OPPONENT_POLICIES", "Advice", "BidEstimate", "advise", "bid_hint", "parse_dice"]

#: Deals drawn between precision checks, and playouts per deal and bid.
_BATCH, _PER = 64, 2


@dataclass(frozen=True)
class BidEstimate:
    """One bid: its expected hand score with a 95 % half-width, and P(tricks = t) for t = 0..n."""

    bid: int
    expected: float
    half_width: float
    tricks: tuple[float, ...]
    playouts: int = 0

    @property
    def made(self) -> float:
        """Chance of making the bid exactly."""
        return self.tricks[self.bid]


@dataclass(frozen=True)
class Advice:
    """The advisor's answer for one hand."""

    dice: tuple[Die, ...]
    players: int
    position: int  # rolling position in the first trick: 0 = the start player
    opponents: str
    rules: Rules
    bids: tuple[BidEstimate, ...]
    deals: int  # deals of the unseen dice drawn
    playouts: int  # playouts of the most simulated bid
    seconds: float
    precise: bool  # every bid's half-width reached the precision asked for

    @property
    def best(self) -> int:
        """The bid with the highest expected score."""
        return max(self.bids, key=lambda e: e.expected).bid

    def to_dict(self) -> dict:
        """The advice as plain JSON-ready data (`minodice advise --json`, the server's hint)."""
        return {
            "dice": [d.value for d in self.dice], "players": self.players, "position": self.position,
            "opponents": self.opponents, "rules": self.rules.to_dict(), "best_bid": self.best,
            "bids": [{"bid": e.bid, "expected_score": round(e.expected, 3), "ci95": round(e.half_width, 3),
                      "made": round(e.made, 5), "tricks": [round(p, 5) for p in e.tricks]} for e in self.bids],
            "deals": self.deals, "playouts_per_bid": [e.playouts for e in self.bids], "seconds": round(self.seconds, 3),
            "precise": self.precise,
        }


def parse_dice(names: Sequence[str]) -> list[Die]:
    """Dice from their names as people type them (`red`, `grey`, `mino`: `dice.dice_called`); ValueError
    naming a bad or ambiguous one and the choices."""
    out = []
    for raw in names:
        found = dice_called(raw)
        if len(found) > 1:
            raise ValueError(f"{raw!r} could be {' or '.join(d.value for d in found)}: type more of the name")
        if not found:
            raise ValueError(f"{raw!r} is not a die: the dice are {', '.join(d.value for d in Die)}")
        out.append(found[0])
    return out


def _check(dice: Sequence[Die], players: int, position: int, opponents: str) -> None:
    if players not in range(3, 7):
        raise ValueError(f"Mino Dice is played by 3 to 6 players, not {players}")
    hands = hands_for(players)
    if not 1 <= len(dice) <= hands:
        raise ValueError(
            f"with {players} players a hand has 1 to {hands} dice; {len(dice)} were given"
        )
    extra = over_bag(dice)
    if extra is not None:
        raise ValueError(f"the bag holds only {BAG_COUNTS[extra]} {extra.value} dice; {dice.count(extra)} were given")
    if not 0 <= position < players:
        raise ValueError(f"the position must be 0 (start player) to {players - 1}, not {position}")
    if opponents not in OPPONENT_POLICIES:
        raise ValueError(f"opponents play {' or '.join(OPPONENT_POLICIES)}, not {opponents!r}")


@njit(cache=True, nogil=True)  # the server's event loop keeps running while a hint is computed
def _batch(deals, state, slots, rest, seat, active, per, rules, pol, strength, seed, s1, s2, k, counts):
    """Play `deals` random deals of the unseen dice, each once per active bid with the same random numbers."""
    np.random.seed(seed)
    pool = rest.copy()
    m = pool.shape[0]
    take = slots.shape[0]
    seats = state[0]
    scores = np.empty((per, seats), dtype=np.int64)
    won = np.empty((per, seats), dtype=np.int64)
    stream = np.empty(0, dtype=np.float64)
    for _ in range(deals):
        for i in range(take):  # partial Fisher-Yates: the first `take` dice are the deal
            j = i + np.random.randint(0, m - i)
            x = pool[i]
            pool[i] = pool[j]
            pool[j] = x
            state[slots[i]] = pool[i]
        deal_seed = np.uint64(np.random.randint(0, 1 << 62))
        for b in range(active.shape[0]):
            if not active[b]:
                continue
            state[S_BIDS + seat] = b
            k[b] += 1
            K.finish_kernel(per, state, rules, pol, strength, deal_seed, stream, -1, scores, won)
            total = 0.0
            for p in range(per):
                total += scores[p, seat]
                counts[b, won[p, seat]] += 1
            mean = total / per
            s1[b] += mean
            s2[b] += mean * mean


def advise(
    dice: Sequence[Die],
    players: int = 4,
    *,
    position: int = 0,
    opponents: str = "greedy",
    rules: Rules | None = None,
    precision: float = 1.0,
    seconds: float = 0.8,
    max_deals: int = 200_000,
    seed: int = 0,
) -> Advice:
    """Estimate every bid's expected score for `dice` (see the module docstring).

    `position` is the player's place in the first trick's rolling order (0: it
    starts). Stops when every bid's 95 % half-width is at most `precision`,
    after `max_deals` deals, or when `seconds` are spent (at least one batch;
    loading the compiled kernel, about a second in a new process, comes first
    and is not counted).
    """
    dice = list(dice)
    _check(dice, players, position, opponents)
    rules = rules or Rules()
    n = len(dice)
    rest = list(BAG)
    for d in dice:
        rest.remove(d)
    rest_idx = np.array([d.index for d in rest], dtype=np.int64)
    names = [opponents] * players
    names[position] = "greedy"
    pol = policy_array(names, players)
    strength = strength_array(players, rules)
    rules_arr = K.encode_rules(rules)
    state, slots = hand_start_state(players, n, {position: dice}, start=0)
    bids = n + 1
    # Per bid: sums over its deals of the deal's mean score and its square, the deals, trick counts.
    # A bid whose interval is narrow enough stops being simulated: the budget goes to the others.
    s1 = np.zeros(bids)
    s2 = np.zeros(bids)
    k = np.zeros(bids, dtype=np.int64)
    counts = np.zeros((bids, n + 1), dtype=np.int64)
    active = np.ones(bids, dtype=np.int64)
    deals = 0
    # Zero deals: loads (or compiles) the kernel, which is not part of the time budget.
    _batch(0, state, slots, rest_idx, position, active, _PER, rules_arr, pol, strength, 0, s1, s2, k, counts)
    began = time.perf_counter()
    deadline = began + seconds
    while True:
        batch = min(_BATCH, max_deals - deals)
        _batch(batch, state, slots, rest_idx, position, active, _PER, rules_arr, pol, strength,
               (seed * 1_000_003 + deals) % (1 << 62), s1, s2, k, counts)
        deals += batch
        half = _half_widths(s1, s2, k)
        active[:] = half > precision
        if not active.any() or deals >= max_deals or time.perf_counter() >= deadline:
            break
    total = counts.sum(axis=1, keepdims=True)
    estimates = tuple(
        BidEstimate(b, float(s1[b] / k[b]), float(half[b]), tuple(float(x) for x in counts[b] / total[b]),
                    int(k[b]) * _PER)
        for b in range(bids)
    )
    return Advice(
        dice=tuple(dice), players=players, position=position, opponents=opponents, rules=rules,
        bids=estimates, deals=deals, playouts=int(k.max()) * _PER, seconds=time.perf_counter() - began,
        precise=bool(half.max() <= precision),
    )


def bid_hint(view: View) -> Advice:
    """The players' bid hint (the terminal's `hint` while bidding, the web game's Hint button): `advise`
    for the dice of the seat of `view`, at its place in the first trick's order, under the table's rules."""
    if view.seat is None or not view.bidding:
        raise ValueError("a bid hint needs the view of a seat that is bidding")
    return advise(view.dice, view.seats, position=(view.seat - view.start) % view.seats, rules=view.rules,
                  seed=view.hand)


def _half_widths(s1: np.ndarray, s2: np.ndarray, k: np.ndarray) -> np.ndarray:
    """95 % half-widths of the means over each bid's `k` deals (normal approximation; deals are independent)."""
    kf = np.maximum(k, 2).astype(np.float64)
    var = np.maximum(0.0, (s2 - s1 * s1 / kf) / (kf - 1))
    half = 1.96 * np.sqrt(var / kf)
    half[k < 2] = math.inf
    return half
