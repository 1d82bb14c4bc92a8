"""How a cheating bot sees every seat's dice: `DiceInSight`, given only to a `ClairvoyantBot`.

The `Bot` interface hands a bot its own seat's `View` and nothing else. A
clairvoyant reference bot (`oracle`, which shows what hidden information costs)
also sees the other seats' dice: `runner.Match` shows them to the bots of this
class — and only to them — through `watch`, as a `DiceInSight`, which reads
the dice each seat still holds and nothing else of the game (not its chance
source, so not future faces; not unrevealed bids). An honest bot is never a
`ClairvoyantBot`, so no path hands it the game by accident; a clairvoyant bot
asked to decide without the dice (the web server, the review judge, an
environment) raises `ClairvoyanceError` instead of playing blind.

>>> from minodice.game import Game
>>> game = Game(3, seed=1)
>>> sight = DiceInSight(game)
>>> sight.held(1) == game.held(1)
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Final

from ..dice import Die
from ..game import Game
from ..view import View
from .base import Bot

__all__ = ["ClairvoyanceError", "ClairvoyantBot", "DiceInSight", "show_dice"]


class ClairvoyanceError(ValueError):
    """A clairvoyant bot was asked to decide without the other seats' dice in sight.

    A ValueError: the bot is the wrong one for that path (commands that take a bot spec,
    such as `minodice explain` and `minodice review`, say so in one line).
    """


class DiceInSight:
    """Every seat's unrolled dice of one live game, read-only: all a clairvoyant bot may see of it.

    It keeps the game in a private slot and answers only `hand` and `held`.
    """

    __slots__ = ("__game",)

    def __init__(self, game: Game) -> None:
        self.__game: Final = game

    @property
    def hand(self) -> int:
        """The hand being played (0: nothing dealt yet)."""
        return self.__game.hand

    def held(self, seat: int) -> tuple[Die, ...]:
        """The dice `seat` still holds (none rolled yet this hand)."""
        return self.__game.held(seat)

    def others(self, view: View) -> dict[int, tuple[Die, ...]]:
        """The dice every seat but `view`'s still holds (ClairvoyanceError: `view` is not of this moment)."""
        seat = view.seat
        if seat is None or view.hand != self.hand or view.dice != self.held(seat):
            raise ClairvoyanceError("the dice in sight are not of the game this view is of")
        return {s: self.held(s) for s in range(view.seats) if s != seat}


class ClairvoyantBot(Bot):
    """A bot that cheats: besides its seat's view it sees every seat's dice, once shown them (`watch`).

    Each registered subclass has `cheats=True` in `bots.BUILTIN` (tests check
    the two agree); web tables refuse such bots.
    """

    def __init__(self, rng: random.Random | None = None) -> None:
        super().__init__(rng)
        self._sight: DiceInSight | None = None

    def watch(self, sight: DiceInSight) -> None:
        """See the dice of this game (what `runner.Match` calls before the game starts)."""
        self._sight = sight

    def others_dice(self, view: View) -> Mapping[int, tuple[Die, ...]]:
        """The dice the other seats of `view` hold now; ClairvoyanceError if none were shown."""
        if self._sight is None:
            raise ClairvoyanceError(
                f"the {self.name} bot cheats: it sees every seat's dice, so it plays only where a "
                "bots.runner.Match shows them (terminal play, tournaments, bot-check), not here"
            )
        return self._sight.others(view)


def show_dice(bots: Iterable[Bot], game: Game) -> None:
    """Show `game`'s dice to the clairvoyant bots among `bots` (the others are left alone)."""
    for bot in bots:
        if isinstance(bot, ClairvoyantBot):
            bot.watch(DiceInSight(game))
