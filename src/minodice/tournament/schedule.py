"""Which games a tournament plays: who sits where, and every game's seeds.

The schedule is a pure function of the configuration, so any worker can play
any game and get the same result: game `index` of deal `deal` is played in
rotation `rotation`, with entrant `seating[s]` in seat s, dice from the deal
seed (duplicate mode) or the game seed, and bot seeds
`minodice.bots.bot_seed(seed, seat)`.

>>> from minodice.tournament.config import Entrant, TournamentConfig
>>> config = TournamentConfig(tuple(Entrant(n, "random") for n in "abc"), games=6, seed=1)
>>> [(g.deal, g.rotation, g.seating) for g in schedule(config)][:4]
[(0, 0, (0, 1, 2)), (0, 1, (1, 2, 0)), (0, 2, (2, 0, 1)), (1, 0, (0, 1, 2))]
"""

from __future__ import annotations

from dataclasses import dataclass

from .config import TournamentConfig

__all__ = ["GameSpec", "schedule"]


@dataclass(frozen=True)
class GameSpec:
    """One game of the tournament: where everyone sits and where its luck comes from."""

    index: int
    deal: int
    rotation: int
    #: The entrant (index into `config.entrants`) in each seat.
    seating: tuple[int, ...]
    #: The game's seed: its dice without duplicate play, and its bots' seeds in every mode.
    seed: str
    #: Duplicate mode: the deal's seed, shared by every rotation of the deal.
    deal_seed: str | None

    @property
    def record_name(self) -> str:
        """The file name of this game's record (deal and rotation in it)."""
        if self.deal_seed is not None:
            return f"deal{self.deal:05d}-rot{self.rotation}.json"
        return f"game{self.index:05d}-rot{self.rotation}.json"


def schedule(config: TournamentConfig) -> list[GameSpec]:
    """Every game of the tournament, in game order.

    Duplicate mode: deal d is played in rotations 0 … n-1, entrant (s + r) mod n
    sitting in seat s in rotation r. Otherwise each game is its own deal, the
    seating rotating from game to game so every entrant plays every seat.
    """
    n = config.seats
    out: list[GameSpec] = []
    for index in range(config.games):
        if config.duplicate:
            deal, rotation = divmod(index, n)
            deal_seed: str | None = f"{config.seed}:deal:{deal}"
            seed = f"{deal_seed}:rotation:{rotation}"
        else:
            deal, rotation = index, index % n
            deal_seed = None
            seed = f"{config.seed}:game:{index}"
        seating = tuple((s + rotation) % n for s in range(n))
        out.append(GameSpec(index, deal, rotation, seating, seed, deal_seed))
    return out
