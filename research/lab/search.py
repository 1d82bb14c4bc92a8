"""`neural+search-lab`: neural+search with the lab's options `replies`, `judge` and `trust`.

It is the product's `NeuralSearchBot` with its two hooks filled: `_estimates` lends the other seats of the
network playouts to the `replies` network and their leaves to the `judge` network's value head
(`minodice.bots.network_playouts.playout_estimates`, the parts the product's policies are made of), and
`_pick` weighs the network's logit for each move in by `trust` (as Gumbel MuZero adds logits to scaled
values). What each was worth is in `research/learned-bot.md`: none was kept.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from minodice.bots import BUILTIN
from minodice.bots.montecarlo import Estimate, seat_of
from minodice.bots.network import load_network
from minodice.bots.network_playouts import likeliest_moves, playout_estimates, value_leaf
from minodice.bots.neural import NeuralSearchBot
from minodice.game import Game
from minodice.view import View

from .bots import JUDGE_POLICIES, LAB_SEARCH, REPLY_POLICIES

__all__ = ["LabSearchBot"]

_TRUST_NOTE = "; chosen by that plus {:g} x the network's logit for the move (trust)"


class LabSearchBot(NeuralSearchBot):
    """neural+search, with `replies` (a network file: its likeliest moves play the other seats in the playouts
    of policy network or value), `judge` (a network file: its value head judges the leaves of policy value)
    and `trust` (points a move's estimate gains per unit of the network's logit for it)."""

    name = LAB_SEARCH

    def __init__(self, rng: random.Random | None = None, *, replies: str | None = None, judge: str | None = None,
                 trust: float | None = None, **options: Any) -> None:
        # every option, and the options together, checked by the lab's declaration before anything is made
        spec = BUILTIN.spec(self.name, replies=replies, judge=judge, trust=trust, **options)
        super().__init__(rng, **options)
        #: The spec that makes this bot again (`minodice.bots.spec`).
        self.spec = spec
        #: Points a move's estimate gains per unit of the network's logit for it: the search overrides the
        #: network's likeliest move only by a margin.
        self.trust = float(spec.get("trust") or 0.0)
        #: The network whose likeliest moves play the other seats in the network playouts (None: greedy).
        self.replies = None if replies is None else load_network(replies)
        #: The network whose value head judges the leaves of policy value (None: the search's own network).
        self.judge = None if judge is None else load_network(judge)

    def _estimates(self, view: View, actions: list[int], dets: list[Game], per: int, policy: str,
                   rivals: float) -> list[Estimate]:
        """The product's estimates, with the `replies` network in the other seats and the `judge` network's
        value head at the leaves where `policy` lets them play."""
        replies = self.replies if policy in REPLY_POLICIES else None
        judge = self.judge if policy in JUDGE_POLICIES else None
        if replies is None and judge is None:
            return super()._estimates(view, actions, dets, per, policy, rivals)
        seats = view.seats
        net = self.network.network(seats)
        others = "greedy" if replies is None else likeliest_moves(replies, seats)
        leaf = value_leaf(net if judge is None else judge, seats) if policy == "value" else None
        return playout_estimates(dets, seat_of(view), actions, likeliest_moves(net, seats), others, leaf, per,
                                 self.rng, rivals)

    def _pick(self, view: View, accs: list[tuple[Any, Estimate]], actions: list[int]) -> tuple[Any, str]:
        """With `trust`, the move whose estimate plus `trust` x the network's logit for it is highest (the first
        of equals: the differences of logits are those of log-probabilities, whatever moves were left out)."""
        if not self.trust:
            return super()._pick(view, accs, actions)
        _, logits, _ = self.network.scores(view)
        scores = [est.mean + self.trust * float(logits[a]) for (_, est), a in zip(accs, actions)]
        return accs[int(np.argmax(scores))][0], _TRUST_NOTE.format(self.trust)
