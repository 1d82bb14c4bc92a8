"""minodice: the Mino Dice engine, records, bots and games.

>>> from minodice import Game, Bid
>>> game = Game(3, seed=1)
>>> game.hand, game.phase.value
(1, 'bid')
"""

from .dice import BAG, BAG_COUNTS, Die, Face
from .errors import IllegalAction
from .game import EXTERNAL, Bid, Deal, Game, Land, Phase, Roll, SeededChance
from .rules import Rules
from .view import View

__version__ = "0.1.0"

__all__ = [
    "BAG",
    "BAG_COUNTS",
    "EXTERNAL",
    "Bid",
    "Deal",
    "Die",
    "Face",
    "Game",
    "IllegalAction",
    "Land",
    "Phase",
    "Roll",
    "Rules",
    "SeededChance",
    "View",
]
