"""Positions the learned bots' tests share (they are not tests themselves): for the product's tests and the lab's."""

from __future__ import annotations

import random

from minodice.bots.greedy import GreedyBot
from minodice.bots.neural import NeuralSearchBot
from minodice.game import Bid, Game, Roll


def roll_the_network_narrows(seed: int = 3) -> tuple[Game, list]:
    """A game (greedy everywhere) stopped where seat 0 must roll and the network rules out some legal dice."""
    narrowing = NeuralSearchBot(random.Random(0), prior=0.1)
    greedy = GreedyBot(random.Random(seed))
    game = Game(4, seed=seed)
    while not game.over:
        seat = game.to_act()[0]
        view = game.observe(seat)
        if seat == 0 and len(view.legal_dice) > 2:
            allowed = narrowing.plausible(view).legal or ()
            if len(allowed) < len(view.legal_dice):
                return game, list(allowed)
        game.apply(Bid(seat, greedy.bid(view)) if view.legal_bids else Roll(seat, greedy.roll(view)))
    raise AssertionError("no roll position where the network narrows the dice")
