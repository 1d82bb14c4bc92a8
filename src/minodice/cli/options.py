"""What the commands share: Typer choices for the rule options, derived from `rules.RULE_OPTIONS` (never
typed again here), and `need`, the one way a command asks for an optional part of the install."""

from __future__ import annotations

import math
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, cast

import typer

from ..extras import MissingExtra, require
from ..rules import RULE_OPTIONS, Rules
from .errors import EXIT_FAULT, click_part, fail

__all__ = ["DEFAULTS", "DEFAULT_VALUES", "AllFlags", "AllFlagsOption", "AllSpecials", "AllSpecialsOption", "Finite", "HandStart", "HandStartOption", "Scoring", "ScoringOption", "choice_help", "choices", "default", "fail", "help_for", "need", "rules_from", "split_list"]


def choices(option: str) -> type[Enum]:
    """An Enum of `option`'s allowed values (Typer shows them as the option's choices)."""
    name = "".join(part.title() for part in option.split("_"))
    # The functional API makes a class; typeshed types the call as returning a member.
    return cast("type[Enum]", Enum(name, {v: v for v in RULE_OPTIONS[option][0]}, type=str))


def default(choice: type[Enum]) -> Enum:
    """The rules' default value of a choice Enum (the first value in `RULE_OPTIONS`)."""
    return next(iter(choice))


def help_for(option: str) -> str:
    """The option's one-line meaning, as `RULE_OPTIONS` states it."""
    text = RULE_OPTIONS[option][1]
    return text[0].upper() + text[1:] + "."


def choice_help(option: str) -> str:
    """The option's meaning and its allowed values, for options taken as plain text (checked by `Rules`)."""
    return f"{help_for(option)} One of: {', '.join(RULE_OPTIONS[option][0])}."


#: Each rule option's default value as text.
DEFAULT_VALUES: dict[str, str] = {option: values[0] for option, (values, _help) in RULE_OPTIONS.items()}

if TYPE_CHECKING:  # built at run time: to a type checker, each choice is just an Enum
    Scoring = Enum
    AllSpecials = Enum
    AllFlags = Enum
    HandStart = Enum
else:
    Scoring = choices("scoring")
    AllSpecials = choices("all_specials")
    AllFlags = choices("all_flags")
    HandStart = choices("hand_start")
#: Each rule option's default, as a member of its choice Enum.
DEFAULTS: dict[str, Enum] = {
    option: default(choice)
    for option, choice in zip(RULE_OPTIONS, (Scoring, AllSpecials, AllFlags, HandStart))
}

#: Typer options for the four rule options, with the rules' own help (use with `DEFAULTS[...]`).
ScoringOption = Annotated[Scoring, typer.Option(help=help_for("scoring"))]
AllSpecialsOption = Annotated[AllSpecials, typer.Option(help=help_for("all_specials"))]
AllFlagsOption = Annotated[AllFlags, typer.Option(help=help_for("all_flags"))]
HandStartOption = Annotated[HandStart, typer.Option(help=help_for("hand_start"))]


def rules_from(*values: Enum | str) -> Rules:
    """`Rules` from the chosen values, in `RULE_OPTIONS` order (scoring, all_specials, all_flags, hand_start)."""
    return Rules(**{k: v.value if isinstance(v, Enum) else v for k, v in zip(RULE_OPTIONS, values)})


def need(extra: str, *modules: str) -> None:
    """Exit with status 2 and one line (`minodice COMMAND: ...`) naming the pip extra to install unless
    `modules` are installed."""
    try:
        require(extra, *modules)
    except MissingExtra as exc:
        fail(None, str(exc))


def split_list(values: list[str] | None) -> list[str] | None:
    """A repeatable option taken both ways, `-p Ana,Ben -p Cy`: the items, trimmed (None if none given)."""
    if not values:
        return None
    return [item.strip() for value in values for item in value.split(",")]


def load_valid_record(file: Path) -> dict[str, Any]:
    """A record file read and checked for a command, or the command stops with one line on stderr,
    `minodice COMMAND: FILE: what is wrong`: exit 2 when the file is unreadable (not JSON, not minodice/1),
    1 when the record is invalid."""
    from .. import record as records

    try:
        rec = records.load(file)
    except records.RecordError as exc:
        fail(None, f"{file}: {exc}")
    fault = records.check(rec)
    if fault is not None:
        fail(None, f"{file}: {fault}", EXIT_FAULT)
    return rec


#: The parameter type class of the Click that Typer runs on (its own copy in Typer 0.2x: `errors.click_part`).
_ParamType: Any = click_part("types").ParamType


class Finite(_ParamType):
    """A real number option that refuses NaN, the infinities and values out of its range before any work
    starts (Click's FloatRange lets NaN through, since NaN is neither below nor above a bound).

    >>> Finite(0.05).convert("1.5", None, None), Finite(0.05).accepts
    (1.5, 'a number of at least 0.05')
    """

    name = "number"

    def __init__(self, low: float | None = None, high: float | None = None) -> None:
        self.low, self.high = low, high

    @property
    def accepts(self) -> str:
        """What it takes, in words."""
        if self.low is not None and self.high is not None:
            return f"a number from {self.low:g} to {self.high:g}"
        if self.low is not None:
            return f"a number of at least {self.low:g}"
        return f"a number of at most {self.high:g}" if self.high is not None else "a number"

    def get_metavar(self, param: Any, ctx: Any = None) -> str:
        return "<number>"

    def convert(self, value: Any, param: Any, ctx: Any) -> float:
        if isinstance(value, float) and math.isfinite(value) and self._inside(value):
            return value
        text = str(value).strip()
        try:
            number = float(text) if len(text) <= 40 else math.nan
        except ValueError:
            self.fail(f"{cut(text)} is not a number: give {self.accepts}", param, ctx)
        if not math.isfinite(number) or not self._inside(number):
            self.fail(f"{cut(text)} is not {self.accepts}", param, ctx)
        return number

    def _inside(self, number: float) -> bool:
        return (self.low is None or number >= self.low) and (self.high is None or number <= self.high)


def cut(text: str, most: int = 40, *, quote: bool = True) -> str:
    """`text` as an error echoes it (quoted, or bare with `quote` false): cut after `most` characters, with its
    length, so that a pasted paragraph makes a one-line error."""
    shown = repr if quote else str
    return shown(text) if len(text) <= most else f"{shown(text[:most])}… ({len(text):,} characters)"
