"""`neural` and `neural+search`: the learned bot, alone and as the prior of a search.

`neural` plays the most likely legal action of a network trained by self-play.
`neural+search` is `montecarlo` searching only the moves the network finds
plausible (probability at least `prior`): the network prunes, the playouts
decide among what is left (as a policy network prunes a game-tree search);
when one move is left it is played without searching.

The network (`bots.network`) reads the seat's own observation
(`minodice.encoding`, so it sees only what the seat may see) and was trained
by `minodice train` (`minodice.learn`). The package ships one network per
table size, each trained at that size (`weights/neural-4.npz` for four
players; `shipped_weights`), and the bot plays the one for the table it sits
at; `weights=PATH` plays one file at every size. Playing is a few small
matrix products in numpy: well under a millisecond a decision.

>>> from minodice.game import Game
>>> view = Game(4, seed=3).observe(0)
>>> NeuralBot().bid(view) in view.legal
True
"""

from __future__ import annotations

import dataclasses
import random
import time
from typing import Any, TypeVar

import numpy as np

from ..dice import Die
from ..encoding import DICE, NUM_BIDS, action_mask, roll_action
from ..game import Game
from ..view import View
from . import BUILTIN
from .base import Bot
from .defaults import (
    DEFAULT_NETWORK_PER,
    DEFAULT_NETWORK_SIMS,
    DEFAULT_NEURAL_GUIDE,
    DEFAULT_NEURAL_PRIOR,
    NETWORK_POLICIES,
    ROLLOUT_POLICIES,
)
from .explain import ChoiceStat, Explanation
from .inference import PosteriorSampler
from .montecarlo import (
    Estimate,
    MonteCarloBot,
    argmax_mean,
    choose_bid,
    explain_choice,
    objective_words,
    only_legal_roll,
    seat_of,
)
from .network import (
    MAX_NETWORK_BYTES,
    PolicyValueNet,
    load_network,
    masked_softmax,
    shipped_weights,
    view_features,
)
from .network_playouts import network_estimates

_Move = TypeVar("_Move", int, Die)

__all__ = ["MAX_NETWORK_BYTES", "NeuralBot", "NeuralSearchBot", "load_network", "shipped_weights"]

class NeuralBot(Bot):
    """Plays the network's most likely legal action (deterministic: the same view, the same choice).

    Without `weights`, the network shipped for the table's size (loaded at its first decision there).
    """

    name = "neural"

    def __init__(self, rng: random.Random | None = None, *, weights: str | None = None, nets: str | None = None) -> None:
        super().__init__(rng)
        #: The spec that makes this bot again (`bots.spec`).
        self.spec = BUILTIN.spec(self.name, weights=weights, nets=nets)
        self.weights = weights
        #: Which family of shipped networks it plays, one per table size (`network.SHIPPED_FAMILIES`).
        self.nets = str(self.spec.get("nets"))
        #: The network of file `weights` (None: the shipped ones, by table size).
        self.net = None if weights is None else load_network(weights)

    def network(self, seats: int) -> PolicyValueNet:
        """The network this bot plays at a table of `seats`."""
        return self.net if self.net is not None else load_network(seats=seats, family=self.nets)

    def describe(self) -> str:
        return str(self.spec)

    def scores(self, view: View) -> tuple[np.ndarray, np.ndarray, float]:
        """The legal-action mask, the network's logits and its value (points) for `view`."""
        logits, value = self.network(view.seats).forward(view_features(view))
        return action_mask(view).astype(bool), logits[0], float(value[0])

    def _choose(self, view: View) -> int:
        mask, logits, _ = self.scores(view)
        return int(np.where(mask, logits, -np.inf).argmax())

    def bid(self, view: View) -> int:
        return self._choose(view)

    def roll(self, view: View) -> Die:
        return DICE[self._choose(view) - NUM_BIDS]


class NeuralSearchBot(MonteCarloBot):
    """`montecarlo` over the moves the network gives at least `prior` probability (its budget options as
    montecarlo's); with `policy` one of `NETWORK_POLICIES`, the network also plays the playouts
    (`bots.network_playouts`; budget defaults `DEFAULT_NETWORK_SIMS` and `DEFAULT_NETWORK_PER`).

    `bid_policy` judges the bids by another playout policy than the rolls (default: `policy`), so that what
    each kind of decision owes to its judge can be measured apart: `policy=value,bid_policy=greedy` bids as
    montecarlo does (over the plausible bids) and rolls as the value search."""

    name = "neural+search"

    def __init__(self, rng: random.Random | None = None, *, weights: str | None = None, nets: str | None = None,
                 prior: float | None = None, guide: str | None = None, policy: str | None = None,
                 bid_policy: str | None = None, **budget: Any) -> None:
        # every option, and the options together, checked by the declaration before anything is made
        spec = BUILTIN.spec(self.name, weights=weights, nets=nets, prior=prior, guide=guide, policy=policy,
                            bid_policy=bid_policy, **budget)
        policy = str(spec.get("policy"))
        judges = (policy, policy if bid_policy is None else bid_policy)
        super().__init__(rng, policy="greedy" if policy in NETWORK_POLICIES else policy, **budget)
        #: The spec that makes this bot again (`bots.spec`).
        self.spec = spec
        self.network = NeuralBot(self.rng, weights=weights, nets=nets)
        self.weights, self.nets = weights, self.network.nets
        self.prior = DEFAULT_NEURAL_PRIOR if prior is None else float(prior)
        #: Which decisions the network narrows ("both", "bids" or "rolls"); the others search every move.
        self.guide = DEFAULT_NEURAL_GUIDE if guide is None else guide
        #: The playout policy that judges the rolls; `bid_policy` the bids' as given (None: `policy`'s).
        self.policy, self.bid_policy = policy, bid_policy
        self._bid_judge = judges[1]
        #: How much the other seats' scores count at the rolls and at the bids: `rivals` where that decision's
        #: judge plays the hand out, 0 where a value head judges it (it knows the seat's own points only).
        self._rivals = tuple(self.rivals if p in ROLLOUT_POLICIES else 0.0 for p in judges)
        # network playouts cost more than greedy ones: smaller defaults, for the decisions they judge
        if self.policy in NETWORK_POLICIES:
            self.sims = budget.get("sims") or DEFAULT_NETWORK_SIMS
            self.per = budget.get("per") or DEFAULT_NETWORK_PER
        if self._bid_judge in NETWORK_POLICIES:
            self.bid_sims = budget.get("bid_sims") or DEFAULT_NETWORK_SIMS
            self.bid_per = budget.get("bid_per") or DEFAULT_NETWORK_PER
        #: With a network policy: determinizations per roll and per bid.
        self._dets = (max(1, (self.sims or 1) // self.per), max(1, (self.bid_sims or 1) // self.bid_per))

    def describe(self) -> str:
        return str(self.spec)

    def plausible(self, view: View) -> View:
        """`view` with its legal moves cut to those the network finds plausible (the likeliest always kept)."""
        mask, logits, _ = self.network.scores(view)
        p = masked_softmax(logits[None, :], mask[None, :])[0]
        keep = {int(a) for a in np.flatnonzero((p >= self.prior) & mask)} | {int(p.argmax())}
        legal: tuple[int, ...] | tuple[Die, ...] = (
            tuple(b for b in view.legal_bids if b in keep) if view.legal_bids
            else tuple(d for d in view.legal_dice if NUM_BIDS + d.index in keep)
        )
        return dataclasses.replace(view, legal=legal)

    def _only_plausible(self, view: View, move: int | Die) -> None:
        """Say why a move was played without searching: the network found nothing else plausible."""
        self.last_explanation = Explanation(
            "bid" if isinstance(move, int) else "roll", seat_of(view), self.describe(),
            (ChoiceStat(move, float("nan"), float("nan"), 0),), move,
            note=f"the only move the network gives {self.prior:g} or more",
        )

    def bid(self, view: View) -> int:
        if self.guide == "rolls":
            narrowed = view
        else:
            narrowed = self.plausible(view)
            if len(narrowed.legal_bids) == 1:
                self._only_plausible(view, narrowed.legal_bids[0])
                return narrowed.legal_bids[0]
        if self._bid_judge in NETWORK_POLICIES:
            return self._network_bid(narrowed)
        return choose_bid(self, narrowed, bid_sims=self.bid_sims, bid_per=self.bid_per, rivals=self._rivals[1],
                          policy=self._bid_judge)

    def roll(self, view: View) -> Die:
        if self.guide == "bids" or len(view.legal_dice) == 1:
            narrowed = view
        else:
            narrowed = self.plausible(view)
            if len(narrowed.legal_dice) == 1:
                self._only_plausible(view, narrowed.legal_dice[0])
                return narrowed.legal_dice[0]
        if self.policy in NETWORK_POLICIES:
            return self._network_roll(narrowed)
        return super().roll(narrowed)

    def _network_bid(self, view: View) -> int:
        """The bid among `view`'s legal ones with the best network-playout estimate (`bots.network_playouts`)."""
        began = time.perf_counter()
        dets = [Game.from_view(view, self.rng) for _ in range(self._dets[1])]
        bids = list(view.legal_bids)
        return self._best(view, bids, bids, dets, self.bid_per, self._bid_judge, self._rivals[1], began)

    def _network_roll(self, view: View) -> Die:
        """The die among `view`'s legal ones with the best network-playout estimate, the determinizations drawn
        by the evidence as montecarlo's."""
        began = time.perf_counter()
        dice = list(view.legal_dice)
        if len(dice) == 1:
            return only_legal_roll(self, view, dice[0])
        dets = PosteriorSampler(view, self.evidence, self.rng, self._cache).games(self._dets[0])
        return self._best(view, dice, [roll_action(d) for d in dice], dets, self.per, self.policy, self._rivals[0],
                          began)

    def _best(self, view: View, choices: list[_Move], actions: list[int], dets: list[Game], per: int,
              policy: str, rivals: float, began: float) -> _Move:
        """The choice (with its flat action id) whose estimate by network playouts of `policy` (by `rivals`, as
        montecarlo's) is best (`_pick`), explained."""
        accs = list(zip(choices, self._estimates(view, actions, dets, per, policy, rivals)))
        chosen, how = self._pick(view, accs, actions)
        kind, what = ("roll", "die rolled now") if isinstance(chosen, Die) else ("bid", "bid")
        self.last_explanation = explain_choice(kind, seat_of(view), self.describe(), accs, chosen, began,
                                               _NETWORK_NOTE.format(objective=objective_words(rivals), what=what,
                                                                    policy=policy) + how)
        return chosen

    def _estimates(self, view: View, actions: list[int], dets: list[Game], per: int, policy: str,
                   rivals: float) -> list[Estimate]:
        """Each action's estimate by `per` network playouts of `policy` from each of `dets` (a hook: the lab's
        variants of this bot lend parts of the playouts to other networks, `research/lab`)."""
        return network_estimates(dets, seat_of(view), actions, self.network.network(view.seats), policy, per,
                                 self.rng, rivals)

    def _pick(self, view: View, accs: list[tuple[_Move, Estimate]], actions: list[int]) -> tuple[_Move, str]:
        """The move played among the estimated ones, and what its explanation adds on how it was chosen: here
        the best estimate, nothing added (a hook: the lab's variants weigh the network's choice in)."""
        return argmax_mean(accs), ""


_NETWORK_NOTE = "{objective} per {what}: playouts by the network (policy={policy})"
