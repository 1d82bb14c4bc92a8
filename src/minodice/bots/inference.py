"""What the other seats' bids and rolls say about their hidden dice, and deals sampled accordingly.

A search bot must guess the dice it cannot see. Dealing them uniformly at random
from the unseen dice ignores the evidence on the table: a seat that bid 3 holds
strong dice, and a seat that rolled a grey die when it could have rolled its
minotaur probably has no minotaur left. This module weighs that evidence:

- `Evidence` models every other seat as playing about as the greedy bot would.
  A deal in which a seat's revealed bid is `k` away from the greedy bid for its
  dice, and in which `m` of its rolls this hand (those with a choice) differ
  from what the greedy bot would have rolled holding those dice, has likelihood
  ``exp(-infer * (k + m))``: `infer` 0 ignores the evidence, a large `infer`
  trusts the model completely. A `Trust` weighs bids and rolls apart
  (``exp(-(bids * k + rolls * m))``; players who search roll as greedy would
  far less often than they bid as it would), and with `beta` > 0 models a bid
  as chosen with probability proportional to ``exp(beta * its expected
  score)`` (a Boltzmann-rational bidder), `k` then the bid's surprise, minus
  its log-probability. A `RollModel` in the `Trust` replaces the greedy bot as
  the model of their rolls: a roll then counts its surprise under the model
  (minus its log-probability) instead of 1 when unlike greedy's, e.g. under a
  network trained on the moves of the players at the table
  (`bots.network.PolicyRolls`).
- `PosteriorSampler` draws deals of the hidden dice in proportion to that
  likelihood with a Metropolis chain over deals: a step swaps two hidden dice
  between two holders (two seats, or a seat and the dice left in the bag),
  never giving a seat a colour it has shown it lacks, and is accepted with
  probability ``min(1, likelihood ratio)``. Only the two seats touched are
  re-scored, a seat's energy is remembered by the dice it holds (the chain
  proposes the same holdings again and again), and each roll's miss is cached
  for the hand, so a step costs a few microseconds; deals are taken once per
  sweep (one step per hidden die).

>>> import random
>>> from minodice.game import Game
>>> view = Game(4, seed=1).observe(0)
>>> len(PosteriorSampler(view, 1.0, random.Random(2)).games(3))
3
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Protocol

from .. import rules as R
from ..analysis.strength import die_strength, trick_distribution
from ..dice import BAG, Die
from ..game import Game, sample_hidden
from ..rules import Rules
from ..view import TrickView, View
from .greedy import GreedyBot

__all__ = [
    "Evidence", "PosteriorSampler", "RollModel", "Trust", "bid_surprise", "heuristic_bid", "heuristic_bid_values", "trust",
]

_GREEDY = GreedyBot()


@lru_cache(maxsize=1 << 16)
def heuristic_bid_values(dice: tuple[Die, ...], seats: int, rules: Rules) -> tuple[float, ...]:
    """Each bid's expected hand score for `dice` (0 to len(dice)), each die winning independently
    with its `die_strength`: what the greedy bot's bid maximises."""
    strength = die_strength(seats, rules)
    dist = trick_distribution([strength[d] for d in dice])
    n = len(dice)
    return tuple(sum(p * R.hand_score(b, t, n, 0, rules) for t, p in enumerate(dist)) for b in range(n + 1))


@lru_cache(maxsize=1 << 16)
def heuristic_bid(dice: tuple[Die, ...], seats: int, rules: Rules) -> int:
    """The greedy bot's bid for `dice` (the expected-score bid, each die winning independently)."""
    best, best_value = 0, float("-inf")
    for b, value in enumerate(heuristic_bid_values(dice, seats, rules)):
        if value > best_value + 1e-9:
            best, best_value = b, value
    return best


class RollModel(Protocol):
    """How another seat chooses its rolls, as the inference reads them (see the module)."""

    def at(self, position: View) -> Callable[[tuple[Die, ...], tuple[Die, ...], Die], float]:
        """The model at `position` (a seat's turn to roll, its dice left out): given the dice the seat may
        hold, the legal ones among them and a die, minus the log-probability that it rolls that die.
        Asked once per roll and hand, then for every holding the sampler proposes."""
        ...


@dataclass(frozen=True)
class Trust:
    """How much the other seats' bids and rolls are believed as evidence of their dice (see the module).

    `bids` and `rolls` weigh a bid's and a roll's miss; `beta` > 0 measures a bid's miss as its
    surprise under a Boltzmann-rational bidder instead of its distance from greedy's bid.
    """

    bids: float = 1.0
    rolls: float = 1.0
    beta: float = 0.0
    #: The other seats' roll model (None: the greedy bot's choice, a roll unlike it missing by 1).
    roll_model: RollModel | None = None

    @classmethod
    def of(cls, infer: float | Trust) -> Trust:
        """`infer` as a `Trust` (a number weighs bids and rolls alike, by distance)."""
        return infer if isinstance(infer, Trust) else cls(float(infer), float(infer))

    @property
    def active(self) -> bool:
        """Whether any evidence is weighed at all."""
        return max(self.bids, self.rolls) > 0


def trust(
    infer: float, rolls: float | None = None, beta: float | None = None, roll_model: RollModel | None = None
) -> float | Trust:
    """A searching bot's evidence model from its options: `infer` alone stays a number (the classic model).

    >>> trust(1.0), trust(2.0, rolls=0.2)
    (1.0, Trust(bids=2.0, rolls=0.2, beta=0.0, roll_model=None))
    """
    if rolls is None and beta is None and roll_model is None:
        return infer
    return Trust(infer, infer if rolls is None else rolls, beta or 0.0, roll_model)


@lru_cache(maxsize=1 << 16)
def bid_surprise(dice: tuple[Die, ...], bid: int, beta: float, seats: int, rules: Rules) -> float:
    """Minus the log-probability that a Boltzmann-rational bidder (`beta` per point of expected
    hand score) holding `dice` bids `bid`."""
    values = heuristic_bid_values(dice, seats, rules)
    top = max(values)
    log_total = math.log(sum(math.exp(beta * (v - top)) for v in values))
    return log_total - beta * (values[bid] - top)


def dice_key(dice: Sequence[Die]) -> tuple[Die, ...]:
    """`dice` in table order: the canonical form of a multiset of dice (a cache key)."""
    return tuple(sorted(dice, key=_die_index))


def _die_index(d: Die) -> int:
    return d.index


def _seat(view: View) -> int:
    if view.seat is None:
        raise ValueError("a spectator's view has no seat to infer for")
    return view.seat


class Evidence:
    """The other seats' revealed bids and earlier rolls this hand, as a likelihood of their dice.

    See the module docstring for the model. `cache` (a dict a bot keeps across
    the decisions of one hand) remembers each roll's miss; it is
    cleared when the hand changes.
    """

    def __init__(self, view: View, infer: float | Trust, cache: dict | None = None, *, rolls: bool = True) -> None:
        self.view = view
        #: The weights of the evidence.
        self.trust = Trust.of(infer)
        seat = _seat(view)
        self.cache: dict = cache if cache is not None else {}
        # Each seat's energy by the dice it holds: the sampler proposes the same holdings again and again.
        self._energies: dict[tuple[int, tuple[Die, ...]], float] = {}
        key = (view.hand, view.start, view.totals, view.bids)
        if self.cache.get("hand") != key:
            self.cache.clear()
            self.cache["hand"] = key
        #: Each other seat's dice rolled this hand, in order.
        self.rolled: dict[int, tuple[Die, ...]] = {}
        #: Per seat: (roll number in the hand, die rolled, lead colour, the seat's public
        #: view then, the dice it rolled from then on).
        self.events: dict[int, list[tuple[int, Die, Die | None, View, tuple[Die, ...]]]] = {
            s: [] for s in range(view.seats) if s != seat
        }
        flat = [r for t in view.tricks for r in t.rolls]
        for s in self.events:
            self.rolled[s] = tuple(r.die for r in flat if r.seat == s)
        if not rolls or self.trust.rolls <= 0 or view.bidding:
            return
        won = [0] * view.seats
        done: list[TrickView] = []
        index = 0
        for t in view.tricks:
            lead: Die | None = None
            for j, r in enumerate(t.rolls):
                if r.seat != seat:
                    partial = (TrickView(t.rolls[:j], None),) if j else ()
                    after = tuple(x.die for x in flat[index:] if x.seat == r.seat)
                    prefix = replace(
                        view, seat=r.seat, dice=(), won=tuple(won), tricks=(*done, *partial),
                        leader=t.rolls[0].seat, legal=None,
                    )
                    self.events[r.seat].append((index, r.die, lead, prefix, after))
                lead = R.lead_after(lead, r.die)
                index += 1
            if t.winner is not None:
                won[t.winner] += 1
                done.append(t)

    def seat_misses(self, s: int, held: Sequence[Die]) -> float:
        """How far seat `s` holding `held` now is from explaining its bid and rolls (see the module)."""
        return sum(self._seat_parts(s, held))

    def seat_energy(self, s: int, held: Sequence[Die]) -> float:
        """Minus the log-likelihood of seat `s` holding `held` now (up to a constant): its misses, weighted."""
        key = (s, dice_key(held))
        energy = self._energies.get(key)
        if energy is None:
            bid, rolls = self._seat_parts(s, key[1])
            energy = self._energies[key] = self.trust.bids * bid + self.trust.rolls * rolls
        return energy

    def _seat_parts(self, s: int, held: Sequence[Die]) -> tuple[float, float]:
        """Seat `s`'s bid miss (distance from greedy's bid, or surprise) and roll misses (rolls unlike
        greedy's, or their surprise under the roll model)."""
        view = self.view
        bid_miss: float = 0
        roll_misses: float = 0
        bid = view.bids[s]
        if bid is not None and not view.bidding:
            start = dice_key((*held, *self.rolled[s]))
            if self.trust.beta > 0:
                bid_miss = bid_surprise(start, bid, self.trust.beta, view.seats, view.rules)
            else:
                bid_miss = abs(bid - heuristic_bid(start, view.seats, view.rules))
        cache, model = self.cache, self.trust.roll_model
        for index, die, lead, prefix, after in self.events[s]:
            holding = dice_key((*held, *after))
            key = (index, holding)
            miss = cache.get(key)
            if miss is None:
                legal = R.legal_dice(holding, lead)
                if len(legal) == 1:
                    miss = 0
                elif model is None:
                    miss = int(_GREEDY.roll(replace(prefix, dice=holding, legal=tuple(legal))) is not die)
                else:
                    at = cache.get(("at", index))
                    if at is None:
                        at = cache[("at", index)] = model.at(prefix)
                    miss = at(holding, tuple(legal), die)
                cache[key] = miss
            roll_misses += miss
        return bid_miss, roll_misses

    def misses(self, det: Game) -> float:
        """`seat_misses` summed over the other seats of the determinization `det`."""
        return sum(self.seat_misses(s, det.held(s)) for s in self.events)

    def weight(self, det: Game) -> float:
        """The likelihood of `det` given the evidence, up to a constant (1 when there is none to weigh)."""
        if not self.trust.active:
            return 1.0
        return math.exp(-sum(self.seat_energy(s, det.held(s)) for s in self.events))


class PosteriorSampler:
    """Deals of the dice `view`'s seat cannot see, drawn in proportion to `Evidence`'s likelihood.

    `games(k)` gives `k` determinizations (own bid kept, fresh chance each).
    With `infer` 0 or nothing revealed yet, the deals are independent and
    uniform (as `Game.from_view`); otherwise they come from one Metropolis
    chain (see the module), `burn` sweeps after a uniform start, one deal
    every `thin` sweeps.
    """

    def __init__(
        self,
        view: View,
        infer: float | Trust,
        rng: random.Random,
        cache: dict | None = None,
        *,
        burn: int = 3,
        thin: int = 1,
    ) -> None:
        self.view = view
        self.rng = rng
        self.seat = seat = _seat(view)
        self.own_bid = view.bids[seat]
        self.evidence = Evidence(view, infer, cache)
        self.active = self.evidence.trust.active and not view.bidding
        self.thin = thin
        pool = list(BAG)
        self.voids = view.shown_voids()
        for t in view.tricks:
            for r in t.rolls:
                pool.remove(r.die)
        for d in view.dice:
            pool.remove(d)
        self.pool = pool
        self.need = {s: view.hand - len(self.evidence.rolled[s]) for s in self.evidence.events}
        self.state: list[list[Die]] | None = None  # holders: the other seats, then the bag's rest
        self.holders: list[int] = [s for s in self.need if self.need[s] > 0]
        self.energy: dict[int, float] = {}
        self.steps = self.accepted = 0
        self._burn = burn

    def _start(self) -> None:
        dealt = sample_hidden(self.pool, self.need, self.voids, self.rng)
        rest = list(self.pool)
        for dice in dealt.values():
            for d in dice:
                rest.remove(d)
        self.state = [list(dealt[s]) for s in self.holders] + [rest]
        self.energy = {i: self.evidence.seat_energy(s, self.state[i]) for i, s in enumerate(self.holders)}
        self.sweep(self._burn)

    def sweep(self, n: int = 1) -> None:
        """Advance the chain by `n` sweeps (one proposed swap per hidden die each)."""
        state = self.state
        assert state is not None
        holders, voids, energy, rng = self.holders, self.voids, self.energy, self.rng
        seat_energy = self.evidence.seat_energy
        h = len(holders)
        boxes = [i for i in range(len(state)) if state[i]]
        if h == 0 or len(boxes) < 2:
            return
        size = sum(len(state[i]) for i in range(h))
        rnd = rng.random
        for _ in range(n * size):
            self.steps += 1
            i = int(rnd() * len(boxes))
            j = int(rnd() * (len(boxes) - 1))
            if j >= i:
                j += 1
            a, b = (boxes[i], boxes[j]) if i < j else (boxes[j], boxes[i])
            la, lb = state[a], state[b]
            ia, ib = int(rnd() * len(la)), int(rnd() * len(lb))
            da, db = la[ia], lb[ib]
            if da is db:
                continue
            # a < b, so a is a seat; b is a seat unless it is the bag's rest (index h).
            if db in voids[holders[a]] or (b < h and da in voids[holders[b]]):
                continue
            la[ia], lb[ib] = db, da
            ea = seat_energy(holders[a], la)
            eb = seat_energy(holders[b], lb) if b < h else 0.0
            delta = ea + eb - energy[a] - (energy[b] if b < h else 0)
            if delta <= 0 or rnd() < math.exp(-delta):
                energy[a] = ea
                if b < h:
                    energy[b] = eb
                self.accepted += 1
            else:
                la[ia], lb[ib] = da, db

    def deals(self, k: int) -> list[dict[int, list[Die]]]:
        """`k` deals of the hidden dice: seat -> the dice it holds now."""
        if not self.active:
            return [sample_hidden(self.pool, self.need, self.voids, self.rng) for _ in range(k)]
        if self.state is None:
            self._start()
        out = []
        for _ in range(k):
            self.sweep(self.thin)
            assert self.state is not None
            out.append({s: list(self.state[i]) for i, s in enumerate(self.holders)})
        return out

    def games(self, k: int) -> list[Game]:
        """`k` determinizations of the view, the hidden dice from `deals`."""
        view, rng, own = self.view, self.rng, self.own_bid
        return [Game.from_view(view, rng, own_bid=own, hidden=d) for d in self.deals(k)]
