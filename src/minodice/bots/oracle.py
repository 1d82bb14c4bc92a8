"""`oracle`: `montecarlo` on the true deal — a cheating reference that shows what hidden dice cost.

It plays as `montecarlo` does (`bots.montecarlo`), but where montecarlo samples
determinizations of the dice it cannot see, the oracle sees every seat's dice
(`bots.clairvoyance`: shown by `runner.Match`) and plays every playout on the
one true deal: `sims` playouts per legal die (in batches of `per`, each batch
with its own seed, the same for every die) and `bid_sims` per legal bid (in
batches of `bid_per`), the other seats' bids by the playout policy on their
true dice, its own bids with montecarlo's `play_correction`. It does not see
future faces (the playouts roll fresh ones) nor unrevealed bids.

Its lead over montecarlo at the same budget is the headroom of the hidden
information: what a bot that reasoned perfectly about the unseen dice could
gain at most by search of this kind. It cheats, so web tables refuse it
(`bots.BUILTIN` marks it), and it raises `ClairvoyanceError` where no Match
shows it the dice.

Options as montecarlo's: `sims`, `per`, `bid_sims`, `bid_per`, `ambition`,
`policy`, `seconds` (`infer` has nothing to infer); and `sees`: `both` (the
default) cheats in every decision, `bids` only when bidding and `rolls` only
when rolling, the other decisions made by a `montecarlo` of the same budget
on the seat's own view. Their leads split the headroom between the two kinds
of decision.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

import numpy as np

from ..dice import Die
from ..game import Game
from ..sim.playout import playout_values
from ..view import View
from . import BUILTIN
from .clairvoyance import ClairvoyantBot
from .defaults import DEFAULT_AMBITION, DEFAULT_POLICY, DEFAULT_SIMS, ORACLE_SIGHTS
from .explain import ChoiceStat, Explanation
from .montecarlo import (
    MonteCarloBot,
    only_legal_roll,
    play_correction,
    search_budget,
    seat_of,
    warm_simulator,
)

__all__ = ["OracleBot", "true_deal"]

_Choice = TypeVar("_Choice", int, Die)


def true_deal(view: View, others: dict[int, tuple[Die, ...]], rng: random.Random) -> Game:
    """The game `view` is a view of, with the other seats' dice as they truly are (fresh chance from `rng`)."""
    return Game.from_view(view, rng, hidden=others)


def _chunks(sims: int | None, per: int, seconds: float | None) -> tuple[int, float | None]:
    """How many batches of `per` playouts at most, and the deadline (perf_counter) if timed."""
    if seconds is not None:
        limit = math.ceil(sims / per) if sims is not None else 1 << 30
        return max(1, limit), time.perf_counter() + seconds
    return max(1, math.ceil((sims if sims is not None else DEFAULT_SIMS) / per)), None


def evaluate_on_deal(
    deal: Game,
    seat: int,
    candidates: Sequence[int | Die],
    rng: random.Random,
    *,
    sims: int | None,
    per: int,
    seconds: float | None = None,
    policy: str = "greedy",
) -> list[ChoiceStat]:
    """Each candidate (bids or dice of `seat`) with its mean hand score over playouts of `deal`.

    Batches of `per` playouts, one seed per batch shared by every candidate
    (common random numbers); the standard error is over the batches' means.
    """
    batches, deadline = _chunks(sims, per, seconds)
    means: list[np.ndarray] = []
    for k in range(batches):
        if deadline is not None and k and time.perf_counter() >= deadline:
            break
        means.append(playout_values(deal, seat, list(candidates), per, rng.getrandbits(62), policy=policy))
    table = np.array(means)
    mean = table.mean(axis=0)
    err = table.std(axis=0, ddof=1) / math.sqrt(len(means)) if len(means) > 1 else np.full(len(candidates), np.nan)
    n = per * len(means)
    return [ChoiceStat(c, float(m), float(e), n) for c, m, e in zip(candidates, mean, err)]


class OracleBot(ClairvoyantBot):
    """Flat Monte Carlo on the true deal (it cheats: see the module docstring)."""

    name = "oracle"

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
        ambition: float | None = None,
        sees: str | None = None,
    ) -> None:
        super().__init__(rng)
        #: The spec that makes this bot again, its options checked by their declaration (`bots.spec`).
        self.spec = BUILTIN.spec(self.name, sims=sims, per=per, bid_sims=bid_sims, bid_per=bid_per,
                                 seconds=seconds, policy=policy, ambition=ambition, sees=sees)
        warm_simulator()
        self.sims, self.per, self.bid_sims, self.bid_per = search_budget(sims, per, bid_sims, bid_per, seconds)
        self.seconds = seconds
        self.policy = policy if policy is not None else DEFAULT_POLICY
        self.ambition = ambition if ambition is not None else DEFAULT_AMBITION
        self.sees = ORACLE_SIGHTS[0] if sees is None else sees
        #: The honest half of a part-time oracle (`sees` bids or rolls only): montecarlo at the same budget.
        self._honest = None if self.sees == "both" else MonteCarloBot(
            random.Random(self.rng.getrandbits(64)), sims=sims, per=per, bid_sims=bid_sims, bid_per=bid_per,
            seconds=seconds, policy=policy, ambition=ambition,
        )
        #: The evidence for the last decision (see `bots.explain`).
        self.last_explanation: Explanation | None = None

    def describe(self) -> str:
        return str(self.spec)

    def bid(self, view: View) -> int:
        if self._honest is not None and self.sees == "rolls":
            return self._honestly(view, self._honest.bid)
        began = time.perf_counter()
        deal = true_deal(view, dict(self.others_dice(view)), self.rng)
        legal = view.legal_bids
        stats = evaluate_on_deal(
            deal, seat_of(view), legal, self.rng, sims=self.bid_sims,
            per=min(self.bid_per, self.bid_sims or self.bid_per), seconds=self.seconds, policy=self.policy,
        )
        offsets = play_correction(view, self.ambition)
        stats = [s._replace(mean=s.mean + offsets[int(s.choice)]) for s in stats]
        return int(self._choose("bid", view, stats, began, "expected score of this hand per bid, on the true deal "
                                f"(+{self.ambition:g} per bid up to 2 for the bot's better play)"))

    def roll(self, view: View) -> Die:
        if self._honest is not None and self.sees == "bids":
            return self._honestly(view, self._honest.roll)
        began = time.perf_counter()
        legal = view.legal_dice
        deal = true_deal(view, dict(self.others_dice(view)), self.rng)
        if len(legal) == 1:
            return only_legal_roll(self, view, legal[0])
        stats = evaluate_on_deal(
            deal, seat_of(view), legal, self.rng, sims=self.sims,
            per=min(self.per, self.sims or self.per), seconds=self.seconds, policy=self.policy,
        )
        chosen = self._choose("roll", view, stats, began, "expected score of this hand per die, on the true deal")
        assert isinstance(chosen, Die)
        return chosen

    def _honestly(self, view: View, decide: Callable[[View], _Choice]) -> _Choice:
        """A decision left to the honest montecarlo, explained as it explains it.

        The oracle still asks for the dice (and raises without them): a cheat plays only where a Match shows them.
        """
        self.others_dice(view)
        choice = decide(view)
        assert self._honest is not None
        self.last_explanation = self._honest.last_explanation
        return choice

    def _choose(self, kind: str, view: View, stats: list[ChoiceStat], began: float, note: str) -> int | Die:
        """The choice with the highest mean (the first of equals), explained in `last_explanation`."""
        chosen = stats[int(np.argmax([s.mean for s in stats]))].choice
        self.last_explanation = Explanation(
            kind, seat_of(view), self.describe(), tuple(stats), chosen,
            samples=sum(s.n for s in stats), seconds=time.perf_counter() - began, note=note,
        )
        return chosen
