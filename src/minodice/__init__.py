"""minodice: the Mino Dice engine, records, bots and games.

>>> from minodice import Game, Bid
>>> game = Game(3, seed=1)
>>> game.hand, game.phase.value
(1, 'bid')
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .dice import BAG, BAG_COUNTS, Die, Face
    from .errors import IllegalAction
    from .game import EXTERNAL, Bid, Deal, Game, Land, Phase, Roll, SeededChance
    from .rules import Rules
    from .view import View

__version__ = "0.1.0"

#: Where each public name lives. They load on first use (PEP 562), so `minodice --version` and the
#: command line's help need not load the engine.
_HOMES = {
    "BAG": "dice", "BAG_COUNTS": "dice", "Die": "dice", "Face": "dice",
    "IllegalAction": "errors",
    "EXTERNAL": "game", "Bid": "game", "Deal": "game", "Game": "game", "Land": "game", "Phase": "game",
    "Roll": "game", "SeededChance": "game",
    "Rules": "rules",
    "View": "view",
}


def __getattr__(name: str) -> Any:
    """The public name `name`, imported from its module on first use."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'minodice' has no attribute {name!r}")
    value = getattr(import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOMES])

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
