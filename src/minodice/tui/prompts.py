"""Reading what the player types: commands, bids and dice, forgiving of any text.

These functions only turn text into a wish (a bid, a die, a command) or a
`Problem` with words for the player; whether the wish is legal is the game's
to say (`Game.apply` raises `IllegalAction` with the rule's own message).

>>> parse_bid("2"), parse_bid(" help ")
(2, Command(name='help'))
>>> parse_die("re", held=(Die.RED, Die.GRAY), menu=(Die.RED,))
<Die.RED: 'red'>
>>> parse_die("2", held=(Die.RED,), menu=(Die.RED,))
Problem(message="there is no choice 2: type 1, or a die's name")
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from ..dice import Die, dice_called

__all__ = ["COMMANDS", "Command", "Problem", "clean", "parse_bid", "parse_die"]

#: Words accepted at every prompt, and the command each one means.
COMMANDS: dict[str, str] = {
    "help": "help",
    "?": "help",
    "sheet": "sheet",
    "hint": "hint",
    "h": "hint",
    "advice": "hint",
    "advise": "hint",
    "score": "sheet",
    "scores": "sheet",
    "quit": "quit",
    "exit": "quit",
    "q": "quit",
}

#: Longest input echoed back in a message.
_ECHO = 24


@dataclass(frozen=True)
class Command:
    """A command typed at a prompt: "help", "sheet", "hint" or "quit"."""

    name: str


@dataclass(frozen=True)
class Problem:
    """Input that means nothing here, with the words that tell the player why."""

    message: str


def clean(text: str) -> str:
    """`text` made safe to match and to echo: one line, printable, lower case, trimmed.

    Undecodable bytes (surrogate escapes) and control characters are dropped.
    """
    text = text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    text = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C" or ch == " ")
    return " ".join(text.split()).casefold()


def echo(text: str) -> str:
    """A short quotation of what the player typed, for messages."""
    return repr(text if len(text) <= _ECHO else text[: _ECHO - 1] + "…")


def _command(text: str) -> Command | None:
    name = COMMANDS.get(text)
    return Command(name) if name else None


def parse_bid(raw: str) -> int | Die | Command | Problem:
    """A bid (any whole number: the game checks the range), a command, or a Problem.

    A die's name is returned as the Die, so the game can say it is not time to roll.
    """
    text = clean(raw)
    if not text:
        return Problem("type your bid as a number (or help)")
    command = _command(text)
    if command is not None:
        return command
    number = _integer(text)
    if number is not None:
        return number
    die = _die_by_name(text, held=())
    if isinstance(die, Die):
        return die
    return Problem(f"{echo(text)} is not a bid: type a whole number (or help)")


def parse_die(raw: str, held: Sequence[Die], menu: Sequence[Die]) -> Die | Command | Problem:
    """The die chosen by name, by prefix or by its number in `menu`, a command, or a Problem.

    A prefix shared by two dice ("gr": griffin, gray) picks the one among
    `held` if only one of them is held.
    """
    text = clean(raw)
    if not text:
        return Problem(_menu_hint(menu, "type the number or name of the die to roll (or help)"))
    command = _command(text)
    if command is not None:
        return command
    number = _integer(text)
    if number is not None:
        if 1 <= number <= len(menu):
            return menu[number - 1]
        return Problem(_menu_hint(menu, f"there is no choice {_short_number(number)}"))
    return _die_by_name(text, held)


def _menu_hint(menu: Sequence[Die], lead: str) -> str:
    if len(menu) == 1:
        return f"{lead}: type 1, or a die's name"
    if not menu:
        return lead
    return f"{lead}: type 1 to {len(menu)}, or a die's name"


def _short_number(number: int) -> str:
    text = str(number)
    return text if len(text) <= 12 else text[:11] + "…"


def _integer(text: str) -> int | None:
    """The whole number `text` spells (sign allowed), or None; never raises."""
    body = text[1:] if text[:1] in "+-" else text
    if not body or not body.isdigit():
        return None
    if len(body) > 4000:  # beyond int()'s digit limit: surely out of any range
        return -1 if text.startswith("-") else 10**4000
    try:
        return int(text)
    except ValueError:  # e.g. digits int() does not take
        return None


def _die_by_name(text: str, held: Sequence[Die]) -> Die | Problem:
    matches = dice_called(text)  # the table tools read dice with the same parser
    if len(matches) > 1:
        mine = [d for d in matches if d in held]
        if len(mine) == 1:
            return mine[0]
        names = " or ".join(d.value for d in matches)
        return Problem(f"{echo(text)} could be {names}: type more of the name")
    if matches:
        return matches[0]
    known = ", ".join(d.value for d in Die)
    return Problem(f"{echo(text)} is not a die: the dice are {known} (or type help)")
