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

from ..codes import quoted
from ..dice import Die
from ..encoding import DICE, NUM_BIDS, action_mask, roll_action
from ..game import Game
from ..view import View
from .base import Bot
from .defaults import (
    DEFAULT_NETWORK_PER,
    DEFAULT_NETWORK_SIMS,
    DEFAULT_NEURAL_GUIDE,
    DEFAULT_NEURAL_PRIOR,
    DEFAULT_NEURAL_TRUST,
    JUDGE_POLICIES,
    MAX_NETWORK_SIMS,
    NETWORK_POLICIES,
    NEURAL_GUIDES,
    REPLY_POLICIES,
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
    format_spec,
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

    def __init__(self, rng: random.Random | None = None, *, weights: str | None = None) -> None:
        super().__init__(rng)
        self.weights = weights
        #: The network of file `weights` (None: the shipped ones, by table size).
        self.net = None if weights is None else load_network(weights)

    def network(self, seats: int) -> PolicyValueNet:
        """The network this bot plays at a table of `seats`."""
        return self.net if self.net is not None else load_network(seats=seats)

    def describe(self) -> str:
        return self.name if self.weights is None else f"{self.name}:weights={self.weights}"

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

    def __init__(self, rng: random.Random | None = None, *, weights: str | None = None, prior: float | None = None,
                 guide: str | None = None, policy: str = "greedy", bid_policy: str | None = None,
                 replies: str | None = None, judge: str | None = None, trust: float | None = None,
                 **budget: Any) -> None:
        judges = (policy, policy if bid_policy is None else bid_policy)
        keys = ("policy", "policy" if bid_policy is None else "bid_policy")  # the option that set each judge
        networked = [f"{key}={p}" for key, p in zip(keys, judges) if p in NETWORK_POLICIES]
        if networked and budget.get("seconds") is not None:
            raise ValueError(f"{networked[0]} takes a playout budget (sims, per), not seconds")
        if budget.get("rivals") and not any(p in ROLLOUT_POLICIES for p in judges):
            raise ValueError(f"{'policy=value ends' if bid_policy is None else 'policy and bid_policy=value end'} in the value "
                             "head, which estimates the seat's own points only: rivals needs a judge that plays the "
                             f"hand out ({', '.join(ROLLOUT_POLICIES[:-1])} or {ROLLOUT_POLICIES[-1]})")
        super().__init__(rng, policy="greedy" if policy in NETWORK_POLICIES else policy, **budget)
        if guide is not None and guide not in NEURAL_GUIDES:
            raise ValueError(f"guide must be {', '.join(NEURAL_GUIDES[:-1])} or {NEURAL_GUIDES[-1]}, not {quoted(guide)}")
        self.network = NeuralBot(self.rng, weights=weights)
        self.weights = weights
        self.prior = DEFAULT_NEURAL_PRIOR if prior is None else float(prior)
        #: Which decisions the network narrows ("both", "bids" or "rolls"); the others search every move.
        self.guide = DEFAULT_NEURAL_GUIDE if guide is None else guide
        #: The playout policy that judges the rolls; `bid_policy` the bids' as given (None: `policy`'s).
        self.policy, self.bid_policy = policy, bid_policy
        self._bid_judge = judges[1]
        #: How much the other seats' scores count at the rolls and at the bids: `rivals` where that decision's
        #: judge plays the hand out, 0 where a value head judges it (it knows the seat's own points only).
        self._rivals = tuple(self.rivals if p in ROLLOUT_POLICIES else 0.0 for p in judges)
        if replies is not None and not any(p in REPLY_POLICIES for p in judges):
            raise ValueError(f"replies needs policy (or bid_policy) {' or '.join(REPLY_POLICIES)}: the network playouts "
                             "where the kernel plays the other seats")
        if judge is not None and not any(p in JUDGE_POLICIES for p in judges):
            raise ValueError(f"judge needs policy (or bid_policy) {' or '.join(JUDGE_POLICIES)}: the network playouts "
                             "that end in a value head")
        if trust is not None and trust != DEFAULT_NEURAL_TRUST and not networked:
            raise ValueError(f"trust needs policy (or bid_policy) {', '.join(NETWORK_POLICIES[:-1])} or "
                             f"{NETWORK_POLICIES[-1]}: "
                             "it weighs the network's choice against the network playouts' estimates")
        #: Points a move's estimate gains per unit of the network's logit for it (Gumbel MuZero's mix of logits
        #: and values): the search overrides the network's likeliest move only by a margin.
        self.trust = DEFAULT_NEURAL_TRUST if trust is None else float(trust)
        #: The network whose likeliest moves play the other seats in the network playouts (None: greedy).
        self.replies = None if replies is None else load_network(replies)
        #: The network whose value head judges the leaves of policy value (None: the search's own network).
        self.judge = None if judge is None else load_network(judge)
        # network playouts cost more than greedy ones: smaller defaults, for the decisions they judge
        if self.policy in NETWORK_POLICIES:
            self.sims = budget.get("sims") or DEFAULT_NETWORK_SIMS
            self.per = budget.get("per") or DEFAULT_NETWORK_PER
        if self._bid_judge in NETWORK_POLICIES:
            self.bid_sims = budget.get("bid_sims") or DEFAULT_NETWORK_SIMS
            self.bid_per = budget.get("bid_per") or DEFAULT_NETWORK_PER
        for key, kind, sims in zip(keys, judges, (self.sims, self.bid_sims)):
            if kind in NETWORK_POLICIES and (sims or 0) > MAX_NETWORK_SIMS:
                raise ValueError(f"{key}={kind} plays at most {MAX_NETWORK_SIMS:,} playouts a move (sims and "
                                 f"bid_sims), all at once in memory, not {sims:,}")
        #: With a network policy: determinizations per roll and per bid.
        self._dets = (max(1, (self.sims or 1) // self.per), max(1, (self.bid_sims or 1) // self.bid_per))
        extra = {"weights": weights, "prior": prior, "guide": guide,
                 "policy": policy if policy in NETWORK_POLICIES else None, "bid_policy": bid_policy,
                 "replies": replies, "judge": judge, "trust": trust}
        self._options = {**self._options, **{k: v for k, v in extra.items() if v is not None}}

    def describe(self) -> str:
        return format_spec(self.name, self._options)

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
        montecarlo's) is highest (with `trust`, plus its share of the network's logit), explained."""
        net = self.network.network(view.seats)
        replies = self.replies if policy in REPLY_POLICIES else None
        judge = self.judge if policy in JUDGE_POLICIES else None
        accs = list(zip(choices, network_estimates(dets, seat_of(view), actions, net, policy, per, self.rng,
                                                   replies, judge, rivals)))
        chosen = argmax_mean(accs) if not self.trust else self._trusted(view, accs, actions)
        kind, what = ("roll", "die rolled now") if isinstance(chosen, Die) else ("bid", "bid")
        self.last_explanation = explain_choice(kind, seat_of(view), self.describe(), accs, chosen, began,
                                               _NETWORK_NOTE.format(objective=objective_words(rivals), what=what,
                                                                    policy=policy)
                                               + (_TRUST_NOTE.format(self.trust) if self.trust else ""))
        return chosen

    def _trusted(self, view: View, accs: list[tuple[_Move, Estimate]], actions: list[int]) -> _Move:
        """The choice whose estimate plus `trust` x the network's logit for it is highest (the first of equals):
        the differences of logits are those of log-probabilities, whatever moves were left out."""
        _, logits, _ = self.network.scores(view)
        scores = [est.mean + self.trust * float(logits[a]) for (_, est), a in zip(accs, actions)]
        return accs[int(np.argmax(scores))][0]


_NETWORK_NOTE = "{objective} per {what}: playouts by the network (policy={policy})"
_TRUST_NOTE = "; chosen by that plus {:g} x the network's logit for the move (trust)"
