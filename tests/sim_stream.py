"""A `Chance` that draws from an explicit list of uniforms, in the order the numba kernels do.

`tests/test_sim.py` (the batch simulator and playouts) and `tests/test_envs_vector.py` (the vector
environment) feed the same uniforms to the kernels and, through `StreamChance`, to the engine,
and demand the same games.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from minodice.dice import BAG, Die, Face
from minodice.game import Game


class StreamChance:
    """A `Chance` drawing from a shared list of uniforms, as the kernels do (see `sim.kernel`)."""

    def __init__(self, uniforms: Sequence[float], *, deal_from_stream: bool = True) -> None:
        self.u = uniforms
        self.pos = 0
        self.deal_from_stream = deal_from_stream
        self._deal_rng = random.Random(0)

    def next(self) -> float:
        u = self.u[self.pos]
        self.pos += 1
        return u

    def deal(self, game: Game, hand: int, each: int) -> list[list[Die]]:
        draw = self.next if self.deal_from_stream else self._deal_rng.random
        bag = list(BAG)
        for i in range(game.seats * each):
            j = i + int(draw() * (36 - i))
            bag[i], bag[j] = bag[j], bag[i]
        return [bag[s * each : (s + 1) * each] for s in range(game.seats)]

    def land(self, game: Game, seat: int, die: Die) -> Face:
        return die.faces[int(self.next() * 6)]

    def copy(self) -> StreamChance:
        twin = StreamChance(self.u, deal_from_stream=self.deal_from_stream)
        twin.pos = self.pos
        return twin
