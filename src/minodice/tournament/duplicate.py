"""Duplicate play: the same deal — dice and faces — for every rotation of the entrants.

Luck in Mino Dice is in two places: the dice a seat draws and the faces they
land on. `DuplicateChance` fixes both from a per-deal seed, by *seat position*:
in every game of a deal, seat position s draws the same dice in hand h, and the
i-th die of a kind that seat position rolls in hand h lands on the same face,
whichever entrant sits there and whenever it chooses to roll that die. Playing
the deal once per rotation of the entrants over the seats then gives each
entrant every seat's luck once, and the luck cancels out of the comparison.

>>> from minodice.game import Game
>>> a = Game(3, chance=DuplicateChance("deal-1", 3))
>>> b = Game(3, chance=DuplicateChance("deal-1", 3))
>>> a.log[0].dice == b.log[0].dice
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..dice import BAG, Die, Face, hands_for
from ..game import Game

__all__ = ["DuplicateChance"]


class DuplicateChance:
    """A `minodice.game.Chance` that replays one deal: same dice per seat, same i-th face per die kind.

    Everything is drawn up front from `seed`: for each hand, a shuffle of the
    bag dealt to the seat positions, then one face for every die each seat
    position holds (its i-th die of a kind gets the i-th face drawn for that kind).
    The only state is how many dice of each kind each seat has rolled this hand.
    """

    __slots__ = ("_deals", "_faces", "_rolled", "seats", "seed")

    def __init__(self, seed: str | int, seats: int) -> None:
        self.seed = seed
        self.seats = seats
        rng = random.Random(f"duplicate:{seed}")
        deals: list[tuple[tuple[Die, ...], ...]] = []
        faces: list[list[dict[Die, list[Face]]]] = []
        for each in range(1, hands_for(seats) + 1):
            bag = list(BAG)
            rng.shuffle(bag)
            rows = tuple(tuple(bag[s * each : (s + 1) * each]) for s in range(seats))
            deals.append(rows)
            per_seat: list[dict[Die, list[Face]]] = []
            for row in rows:
                kinds: dict[Die, list[Face]] = {}
                for die in row:
                    kinds.setdefault(die, []).append(die.faces[rng.randrange(6)])
                per_seat.append(kinds)
            faces.append(per_seat)
        self._deals = deals
        self._faces = faces
        self._rolled: dict[tuple[int, int, Die], int] = {}

    def deal(self, game: Game, hand: int, each: int) -> Sequence[Sequence[Die]]:
        """The dice every seat position draws in `hand` (the same in every game of the deal)."""
        if game.seats != self.seats:
            raise ValueError(f"this deal is for {self.seats} seats, the game has {game.seats}")
        return self._deals[hand - 1]

    def land(self, game: Game, seat: int, die: Die) -> Face:
        """The face of the i-th `die` that `seat` rolls in this hand (i counted from the hand's start)."""
        key = (game.hand, seat, die)
        i = self._rolled.get(key, 0)
        self._rolled[key] = i + 1
        return self._faces[game.hand - 1][seat][die][i]

    def copy(self) -> DuplicateChance:
        """An independent copy that continues with the same outcomes."""
        twin = DuplicateChance.__new__(DuplicateChance)
        twin.seed, twin.seats = self.seed, self.seats
        twin._deals, twin._faces = self._deals, self._faces  # never changed: shared
        twin._rolled = dict(self._rolled)
        return twin

    def faces(self, hand: int, seat: int, die: Die) -> tuple[Face, ...]:
        """The faces seat position `seat`'s dice of kind `die` show in `hand`, in rolling order."""
        return tuple(self._faces[hand - 1][seat].get(die, ()))
