"""`montecarlo`: bids and rolls by the expected score of this hand, estimated by simulation.

The objective is the seat's score for the hand in play (later hands do not
depend on how this one is played, but for who starts them). Every estimate
starts from *determinizations*: games consistent with everything the seat
knows, the other seats' hidden dice dealt at random from the dice it has not
seen (`Game.from_view`). From each, the rest of the hand is played out many
times with fresh faces by a fast greedy-like policy for every seat
(`minodice.sim.playout.finish_hand`, the numba batch simulator).

- Bid: for each determinization, every legal bid is played out with the same
  playout seed (common random numbers, so the bids are compared on the same
  deals and, mostly, the same faces); the other seats' bids come from the
  policy's bid heuristic on their sampled dice. Bids that trail the best by
  more than three standard errors stop being simulated. Each bid's estimate
  then gets `play_correction`: the playouts play the bot's own dice as greedily
  as everyone else's, while the bot itself plays them better, which is worth
  more to some bids than to others. The bid with the highest estimate wins.
- Roll: the determinizations are drawn in proportion to how well they explain
  the other seats' revealed bids and earlier rolls (`bots.inference`: every
  other seat modelled as about greedy). For each, each legal die is rolled in a
  copy of it — all copies give the die the same random number, so its face
  differs only by the die — and the hand is finished from there. The die with
  the highest mean score wins.

Budget and model (options in the spec, e.g. `montecarlo:sims=1600,seconds=0.2`):

- `sims` (default 800): playouts per legal die, in determinizations of `per`
  playouts each (`per`, default 8); `bid_sims` (default 1600) and `bid_per`
  (default 8) the same for each legal bid. Same seed, same decisions.
- `seconds` (default none): a time budget per decision instead; determinizations
  are added in batches until it is spent (at least one batch; `sims` then caps
  the work only if also given). Timed decisions are not reproducible.
- `infer` (default 1): how much the other seats' bids and rolls are trusted
  as evidence of their dice (0: not at all; see `bots.inference`);
  `roll_infer` (default: as `infer`) trusts their rolls apart, and `bid_beta`
  (default: off) models a bid as taken with odds ``exp(bid_beta * its
  expected score)`` instead of by its distance from greedy's bid;
  `roll_net` (default: none) names a network file whose policy models their
  rolls instead of the greedy bot (`bots.network.PolicyRolls`), each roll then
  weighing its surprise times `roll_infer`.
- `ambition` (default 5): the points per bid of `play_correction` (0: off).
- `rivals` (default 0): how much the other seats' mean hand score counts against its own
  (`sim.playout.seat_objective`; 1: its lead over them, so it also breaks their bids when that costs it
  nothing).
- `policy` (default `greedy`): the playout policy, `greedy` or `random`.

With the defaults a decision takes about 0.02 s on average on the reference
two-core machine (the compiled simulator is loaded when the first bot of a
process is made, not in a decision); see `benchmarks/bench_bots.py`.

Every decision leaves its evidence in `last_explanation` (see `bots.explain`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Protocol, TypeVar

import numpy as np

from ..dice import Die
from ..game import Bid, Game
from ..sim.playout import finish_hand, playout_values, seat_objective
from ..view import View
from . import BUILTIN
from .base import Bot
from .defaults import (  # the defaults live where the CLI's help can read them without numba
    DEFAULT_AMBITION,
    DEFAULT_BID_PER,
    DEFAULT_BID_SIMS,
    DEFAULT_INFER,
    DEFAULT_PER,
    DEFAULT_POLICY,
    DEFAULT_RIVALS,
    DEFAULT_SIMS,
)
from .explain import ChoiceStat, Explanation
from .inference import PosteriorSampler, Trust, trust
from .network import PolicyRolls

__all__ = [
    "BATCH",
    "DEFAULT_SIMS",
    "Estimate",
    "MonteCarloBot",
    "evaluate_bids",
    "evaluate_rolls",
    "evidence_model",
    "explain_choice",
    "rollout_scores",
    "search_budget",
    "seat_of",
]

#: Bids trailing the best by more than this many standard errors are dropped (see `evaluate_bids`).
PRUNE_Z = 3.0
#: Determinizations drawn at a time (and, in `evaluate_bids`, between two pruning checks).
BATCH = 16

# --- playouts ------------------------------------------------------------------------------------

_warm = False


def warm_simulator() -> None:
    """Load the compiled simulator now (about half a second, once per process) rather than in a decision."""
    global _warm
    if _warm:
        return
    game = Game(3, seed=0)
    finish_hand(game, 1, 0)
    game.apply(Bid(0, 0))
    game.apply(Bid(1, 0))
    game.apply(Bid(2, 0))
    die = game.legal_rolls()[0].die
    playout_values(game, game.turn, [die], 1, 0)
    _warm = True


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
    return finish_hand(game, n, seed, bids=bids, policy=policy)


# --- estimates ---------------------------------------------------------------------------------


class Estimate:
    """One alternative's simulated score: its per-determinization means, for the mean and its standard error."""

    __slots__ = ("k", "n", "offset", "s", "s2")

    def __init__(self, offset: float = 0.0) -> None:
        self.offset = offset  # already included in the values added
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


def sample_determinizations(
    view: View, rng: random.Random, k: int, *, infer: float | Trust = 0.0, cache: dict | None = None
) -> list[Game]:
    """`k` determinizations of `view` (its own bid kept), weighted by the evidence when `infer` > 0.

    A fresh `PosteriorSampler` (see `bots.inference`); a search keeps one sampler
    for all its determinizations instead, so the chain is not restarted.
    """
    return PosteriorSampler(view, infer, rng, cache).games(k)


def play_correction(view: View, ambition: float = DEFAULT_AMBITION) -> list[float]:
    """Points added to each bid's playout estimate: the bot plays its own dice better than the
    greedy playouts do, and that is worth more for some bids than for others.

    Measured on 4-seat positions (the searching bot's real play against the playout
    estimate of the same bid): about +ambition for a zero bid and +ambition per bid
    up to 2 (bids of 3 or more gain no more than a bid of 2). Without it the
    bot bids too timidly for its own play. `ambition` 0 turns it off.
    """
    legal = [b for b in view.legal or () if isinstance(b, int)]
    top = max(legal, default=0)
    return [ambition if b == 0 else ambition * min(b, 2) for b in range(top + 1)]


def seat_of(view: View) -> int:
    """The seat `view` decides for (ValueError for a spectator's view, which has none)."""
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
    prune: float = PRUNE_Z,
    offsets: Sequence[float] | None = None,
    rivals: float = DEFAULT_RIVALS,
) -> list[tuple[int, Estimate]]:
    """Each legal bid of `view`'s seat with the statistics of its simulated hand score.

    All bids are played out on the same determinizations with the same seeds.
    After every batch of determinizations, a bid whose mean trails the best by
    more than `prune` standard errors of the paired difference stops being
    simulated (0: never), so the budget goes to the close contenders; its
    statistics then rest on fewer samples. `offsets[b]`, if given, is added to
    bid b's playout mean (see `play_correction`), pruning included. `rivals` > 0 scores each playout
    by `sim.playout.seat_objective` (the seat's score less that share of the others' mean).
    """
    seat = seat_of(view)
    legal = [b for b in view.legal or () if isinstance(b, int)]
    accs = [(b, Estimate(offsets[b] if offsets is not None else 0.0)) for b in legal]
    values: list[list[float]] = [[] for _ in legal]
    active = list(range(len(legal)))
    dets, deadline = _batches(sims, per, seconds)
    bids: list[int | None] = [None] * view.seats
    for k in range(dets):
        if deadline is not None and k and time.perf_counter() >= deadline:
            break
        det = Game.from_view(view, rng)
        seed = rng.getrandbits(62)
        for i in active:
            b, acc = accs[i]
            bids[seat] = b
            v = float(seat_objective(rollout_scores(det, per, seed, bids, policy), seat, rivals).mean()) + acc.offset
            acc.add(v, per)
            values[i].append(v)
        if prune > 0 and (k + 1) % BATCH == 0 and len(active) > 1:
            active = _survivors(active, accs, values, prune)
    return accs


def _survivors(active: list[int], accs: Sequence[tuple[object, Estimate]], values: list[list[float]],
               z: float) -> list[int]:
    """The alternatives not clearly behind the best (paired differences over shared samples)."""
    best = max(active, key=lambda i: accs[i][1].mean)
    top = values[best]
    keep = []
    for i in active:
        if i == best:
            keep.append(i)
            continue
        diffs = [a - b for a, b in zip(top, values[i])]
        m = len(diffs)
        mean = sum(diffs) / m
        var = sum((d - mean) ** 2 for d in diffs) / (m - 1)
        if mean <= z * math.sqrt(var / m):
            keep.append(i)
    return keep


def evaluate_rolls(
    view: View,
    rng: random.Random,
    *,
    sims: int | None = None,
    per: int = 8,
    seconds: float | None = None,
    policy: str = "greedy",
    infer: float | Trust = 0.0,
    cache: dict | None = None,
    rivals: float = DEFAULT_RIVALS,
) -> list[tuple[Die, Estimate]]:
    """Each legal die of `view`'s seat with the statistics of its simulated hand score.

    `infer` > 0 draws the determinizations in proportion to how well they explain
    the other seats' revealed bids and earlier rolls (`bots.inference`; `cache`
    keeps the greedy model's choices between calls); `rivals` as in `evaluate_bids`.
    """
    seat = seat_of(view)
    legal = [d for d in view.legal or () if isinstance(d, Die)]
    accs = [(d, Estimate()) for d in legal]
    dets, deadline = _batches(sims, per, seconds)
    batch = min(dets, BATCH)
    pending: list[Game] = []
    sampler = PosteriorSampler(view, infer, rng, cache)
    for k in range(dets):
        if deadline is not None and k and time.perf_counter() >= deadline:
            break
        if not pending:
            pending = sampler.games(min(batch, dets - k))
            pending.reverse()
        det = pending.pop()
        seed = rng.getrandbits(62)
        # Each playout rolls the die with a fresh face; the same seed for every die.
        values = playout_values(det, seat, legal, per, seed, policy=policy, rivals=rivals)
        for (_d, acc), v in zip(accs, values):
            acc.add(float(v), per)
    return accs


def explain_choice(
    kind: str, seat: int, bot: str, accs: Sequence[tuple[int | Die, Estimate]], chosen: int | Die,
    began: float, note: str,
) -> Explanation:
    """The explanation of a searching bot's choice among `accs` (their estimates), begun at perf_counter `began`."""
    choices = tuple(ChoiceStat(c, a.mean, a.stderr, a.n) for c, a in accs)
    return Explanation(
        kind=kind, seat=seat, bot=bot, choices=choices, chosen=chosen,
        samples=sum(a.n for _, a in accs), seconds=time.perf_counter() - began, note=note,
    )


_BID_NOTE = (
    "{} per bid: greedy playouts (others' bids by the greedy heuristic) "
    "+{:g} per bid up to 2 (zero: +{:g} once) for the bot's better play"
)


def objective_words(rivals: float) -> str:
    """What a searching bot's estimates measure, for its explanations (`rivals` as in `evaluate_bids`).

    >>> objective_words(1.0)
    "expected score of this hand less 1 x the other seats' mean"
    """
    words = "expected score of this hand"
    return f"{words} less {rivals:g} x the other seats' mean" if rivals else words


_Choice = TypeVar("_Choice", int, Die)


class SearchingBot(Protocol):
    """What `choose_bid` and `only_legal_roll` use of a searching bot (`MonteCarloBot`, `IsmctsBot`)."""

    rng: random.Random
    seconds: float | None
    policy: str
    ambition: float
    last_explanation: Explanation | None

    def describe(self) -> str: ...


def argmax_mean(accs: Sequence[tuple[_Choice, Estimate]]) -> _Choice:
    """The alternative with the highest mean (the first of equals)."""
    best, best_mean = accs[0][0], float("-inf")
    for c, a in accs:
        if a.mean > best_mean + 1e-9:
            best, best_mean = c, a.mean
    return best


def choose_bid(bot: SearchingBot, view: View, *, bid_sims: int | None, bid_per: int,
               rivals: float = DEFAULT_RIVALS, policy: str | None = None) -> int:
    """A searching bot's bid: the best `evaluate_bids` estimate (by `rivals`, as there) with the bot's
    `play_correction`.

    `bot` supplies rng, seconds, the playout policy (unless `policy` is given) and ambition, and gets the
    explanation.
    """
    began = time.perf_counter()
    ambition = bot.ambition
    accs = evaluate_bids(
        view, bot.rng, sims=bid_sims, per=min(bid_per, bid_sims or bid_per),
        seconds=bot.seconds, policy=bot.policy if policy is None else policy,
        offsets=play_correction(view, ambition), rivals=rivals,
    )
    chosen = argmax_mean(accs)
    bot.last_explanation = explain_choice(
        "bid", seat_of(view), bot.describe(), accs, chosen, began, _BID_NOTE.format(objective_words(rivals), ambition, ambition),
    )
    return chosen


def only_legal_roll(bot: SearchingBot, view: View, die: Die) -> Die:
    """Roll the only legal die without searching, and say so in the bot's explanation."""
    bot.last_explanation = Explanation(
        "roll", seat_of(view), bot.describe(), (ChoiceStat(die, float("nan"), float("nan"), 0),),
        die, note="the only legal die",
    )
    return die


# --- options -----------------------------------------------------------------------------------


def evidence_model(
    infer: float, roll_infer: float | None, bid_beta: float | None, roll_net: str | None
) -> float | Trust:
    """A searching bot's evidence model (`bots.inference.trust`) from its options; `roll_net` names the
    network whose policy models the other seats' rolls (ValueError if it cannot be read)."""
    return trust(infer, roll_infer, bid_beta, None if roll_net is None else PolicyRolls.from_file(roll_net))


def search_budget(
    sims: int | None, per: int | None, bid_sims: int | None, bid_per: int | None, seconds: float | None
) -> tuple[int | None, int, int | None, int]:
    """A searching bot's (sims, per, bid_sims, bid_per): each value given, else its default; under a time
    budget (`seconds`) a playout count left out stays None (the clock decides)."""
    timed = seconds is not None
    return (
        sims if sims is not None or timed else DEFAULT_SIMS,
        per if per is not None else DEFAULT_PER,
        bid_sims if bid_sims is not None or timed else DEFAULT_BID_SIMS,
        bid_per if bid_per is not None else DEFAULT_BID_PER,
    )


class MonteCarloBot(Bot):
    """Flat Monte Carlo over determinizations: the bid or die with the best simulated hand score.

    Options as in the module docstring; every one may be left out for its default.
    """

    name = "montecarlo"

    def __init__(
        self,
        rng: random.Random | None = None,
        *,
        sims: int | None = None,
        per: int | None = None,
        bid_sims: int | None = None,
        bid_per: int | None = None,
        seconds: float | None = None,
        policy: str | None = None,
        infer: float | None = None,
        ambition: float | None = None,
        roll_infer: float | None = None,
        bid_beta: float | None = None,
        roll_net: str | None = None,
        rivals: float | None = None,
    ) -> None:
        super().__init__(rng)
        #: The spec that makes this bot again, its options checked by their declaration (`bots.spec`).
        self.spec = BUILTIN.spec("montecarlo", sims=sims, per=per, bid_sims=bid_sims, bid_per=bid_per,
                                 seconds=seconds, policy=policy, infer=infer, ambition=ambition,
                                 roll_infer=roll_infer, bid_beta=bid_beta, roll_net=roll_net, rivals=rivals)
        warm_simulator()
        #: How much the other seats' mean score counts against its own (`sim.playout.seat_objective`).
        self.rivals = rivals if rivals is not None else DEFAULT_RIVALS
        self.sims, self.per, self.bid_sims, self.bid_per = search_budget(sims, per, bid_sims, bid_per, seconds)
        self.seconds = seconds
        self.policy = policy if policy is not None else DEFAULT_POLICY
        self.infer = infer if infer is not None else DEFAULT_INFER
        self.roll_infer, self.bid_beta, self.roll_net = roll_infer, bid_beta, roll_net
        #: The evidence model (`evidence_model`): a number, or a `Trust` when rolls or bids are weighed apart.
        self.evidence = evidence_model(self.infer, roll_infer, bid_beta, roll_net)
        self.ambition = ambition if ambition is not None else DEFAULT_AMBITION
        #: The evidence for the last decision (see `bots.explain`).
        self.last_explanation: Explanation | None = None
        self._cache: dict = {}  # each roll's miss under the evidence model, for inference within a hand

    def describe(self) -> str:
        return str(self.spec)

    def bid(self, view: View) -> int:
        return choose_bid(self, view, bid_sims=self.bid_sims, bid_per=self.bid_per, rivals=self.rivals)

    def roll(self, view: View) -> Die:
        began = time.perf_counter()
        legal = view.legal_dice
        if len(legal) == 1:
            return only_legal_roll(self, view, legal[0])
        accs = evaluate_rolls(
            view, self.rng, sims=self.sims, per=min(self.per, self.sims or self.per), seconds=self.seconds,
            policy=self.policy, infer=self.evidence, cache=self._cache, rivals=self.rivals,
        )
        chosen = argmax_mean(accs)
        self.last_explanation = explain_choice(
            "roll", seat_of(view), self.describe(), accs, chosen, began,
            f"{objective_words(self.rivals)} per die rolled now",
        )
        return chosen
