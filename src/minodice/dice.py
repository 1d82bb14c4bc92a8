"""The dice table as data: die kinds, faces, and the bag of 36 dice.

Everything here is plain data so that another edition (for instance the Skull
King dice game) is a new table, not new code.

>>> Die.RED.faces
(<Face.FIVE: '5'>, <Face.FIVE: '5'>, <Face.SIX: '6'>, <Face.SIX: '6'>, <Face.SEVEN: '7'>, <Face.SEVEN: '7'>)
>>> BAG_COUNTS[Die.GRIFFIN]
3
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from enum import Enum
from typing import TypeVar


class Face(str, Enum):
    """A face a die can show. Its value is the name used in records."""

    FLAG = "flag"
    ONE = "1"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    MINOTAUR = "minotaur"
    GRIFFIN = "griffin"
    MERMAID = "mermaid"

    def __init__(self, value: str) -> None:
        # An attribute over the method `str.index`, on purpose (`face.index` is read everywhere): mypy refuses it.
        self.index: int = -1  # type: ignore[assignment]  # table order, filled in below
        #: Numeric value: 0 for a flag, 1..7 for numbers, -1 for special faces.
        self.number = 0 if value == "flag" else (int(value) if value.isdigit() else -1)
        #: True for the minotaur, griffin and mermaid faces.
        self.special = self.number < 0

    def __str__(self) -> str:
        return self.value


class Die(str, Enum):
    """A kind of die. Its value is the name used in records and the bot protocol."""

    MINOTAUR = "minotaur"
    GRIFFIN = "griffin"
    MERMAID = "mermaid"
    RED = "red"
    YELLOW = "yellow"
    PURPLE = "purple"
    GRAY = "gray"

    def __init__(self, value: str) -> None:
        #: True for the minotaur, griffin and mermaid dice (they set no lead colour).
        self.special = value in ("minotaur", "griffin", "mermaid")
        #: The die's colour for the follow rule, or None for a special die.
        self.colour: Die | None = None if self.special else self
        self.faces: tuple[Face, ...] = ()  # filled in from FACES below
        # An attribute over the method `str.index`, on purpose (`die.index` is read everywhere): mypy refuses it.
        self.index: int = -1  # type: ignore[assignment]  # table order, filled in below
        self.bit: int = 0  # 1 << index, filled in below

    def __str__(self) -> str:
        return self.value


for _i, _d in enumerate(Die):
    #: Small stable integer (table order), handy for arrays and encodings.
    _d.index = _i
    #: 1 << index, for sets of die kinds as bitmasks.
    _d.bit = 1 << _i
for _i, _f in enumerate(Face):
    _f.index = _i

_F = Face
#: The six faces of each die kind (docs/rules.md, "Components").
FACES: dict[Die, tuple[Face, ...]] = {
    Die.MINOTAUR: (_F.MINOTAUR,) * 4 + (_F.FLAG,) * 2,
    Die.GRIFFIN: (_F.GRIFFIN,) * 4 + (_F.FLAG,) * 2,
    Die.MERMAID: (_F.MERMAID,) * 4 + (_F.FLAG,) * 2,
    Die.RED: (_F.FIVE, _F.FIVE, _F.SIX, _F.SIX, _F.SEVEN, _F.SEVEN),
    Die.YELLOW: (_F.THREE, _F.THREE, _F.FOUR, _F.FOUR, _F.FIVE, _F.FIVE),
    Die.PURPLE: (_F.ONE, _F.ONE, _F.TWO, _F.TWO, _F.THREE, _F.THREE),
    Die.GRAY: (_F.FLAG, _F.FLAG, _F.FLAG, _F.ONE, _F.ONE, _F.SEVEN),
}

for _d in Die:
    #: The six faces of this kind of die.
    _d.faces = FACES[_d]

#: How many dice of each kind the bag holds (36 in all).
BAG_COUNTS: dict[Die, int] = {
    Die.MINOTAUR: 1,
    Die.GRIFFIN: 3,
    Die.MERMAID: 2,
    Die.RED: 7,
    Die.YELLOW: 7,
    Die.PURPLE: 8,
    Die.GRAY: 8,
}

#: The full bag as a tuple of dice, in table order.
BAG: tuple[Die, ...] = tuple(d for d, n in BAG_COUNTS.items() for _ in range(n))

#: The dice that set no colour.
SPECIAL_DICE: tuple[Die, ...] = (Die.MINOTAUR, Die.GRIFFIN, Die.MERMAID)
#: The number dice, whose name is their colour.
NUMBER_DICE: tuple[Die, ...] = (Die.RED, Die.YELLOW, Die.PURPLE, Die.GRAY)

#: Hands in a game (= dice drawn in the last hand) by number of seats.
HANDS_BY_SEATS: dict[int, int] = {3: 8, 4: 8, 5: 7, 6: 6}
MIN_SEATS, MAX_SEATS = 3, 6

_DIE_BY_NAME = {d.value: d for d in Die}
_FACE_BY_NAME = {f.value: f for f in Face}
_E = TypeVar("_E", Die, Face)


def die_named(name: object) -> Die | None:
    """The die kind called `name` (as in records), or None if there is none."""
    return _DIE_BY_NAME.get(name) if isinstance(name, str) else None


def face_named(name: object) -> Face | None:
    """The face called `name` (as in records), or None if there is none."""
    return _FACE_BY_NAME.get(name) if isinstance(name, str) else None


#: Other names people type for the dice, beside the names used in records.
DIE_ALIASES: dict[str, Die] = {"grey": Die.GRAY, "violet": Die.PURPLE}


def dice_called(text: str) -> tuple[Die, ...]:
    """The die kinds `text` may mean, as people type it (case and spaces aside): a die's name or
    another name for it (`grey`) means that die; otherwise every die whose name begins with `text`.

    One die is an answer, several a prefix to lengthen, none not a die (one parser for every prompt).

    >>> dice_called("Grey"), dice_called("mino"), dice_called("r")
    ((<Die.GRAY: 'gray'>,), (<Die.MINOTAUR: 'minotaur'>,), (<Die.RED: 'red'>,))
    >>> dice_called("gr"), dice_called("blue")
    ((<Die.GRIFFIN: 'griffin'>, <Die.GRAY: 'gray'>), ())
    """
    return _called(text, _DIE_BY_NAME | DIE_ALIASES)


def faces_called(text: str, among: Iterable[Face] = tuple(Face)) -> tuple[Face, ...]:
    """The faces among `among` (say, one die's faces) that `text` may mean: the face's name, or every
    face whose name begins with `text` (`f`: flag), as `dice_called` does for dice.

    >>> faces_called("F", Die.GRAY.faces), faces_called("mino", Die.MINOTAUR.faces), faces_called("3", Die.RED.faces)
    ((<Face.FLAG: 'flag'>,), (<Face.MINOTAUR: 'minotaur'>,), ())
    """
    faces = set(among)
    return _called(text, {f.value: f for f in Face if f in faces})


def _called(text: str, names: dict[str, _E]) -> tuple[_E, ...]:
    """The values of `names` that `text` names exactly, or else those whose name begins with it (table order)."""
    word = text.strip().casefold()
    if not word:
        return ()
    if word in names:
        return (names[word],)
    found = {value for name, value in names.items() if name.startswith(word)}
    return tuple(sorted(found, key=lambda value: value.index))


def hands_for(seats: int) -> int:
    """Number of hands in a game of `seats` players (8, 8, 7 or 6)."""
    try:
        return HANDS_BY_SEATS[seats]
    except KeyError:
        raise ValueError(
            f"Mino Dice is played by {MIN_SEATS} to {MAX_SEATS} players, not {seats}"
        ) from None


def jsonable(value: object) -> object:
    """`value` as plain JSON data: dice and faces by name, tuples and lists as lists, other objects as text.

    >>> jsonable((Die.RED, [Face.FLAG, 3], None))
    ['red', ['flag', 3], None]
    """
    if isinstance(value, (Die, Face)):
        return value.value
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def over_bag(dice: Iterable[Die | None]) -> Die | None:
    """The first die kind that `dice` uses more often than the bag holds, if any."""
    counts = Counter(d for d in dice if d is not None)
    for die, n in counts.items():
        if n > BAG_COUNTS[die]:
            return die
    return None
