"""What the commands share: Typer choices for the rule options, derived from `rules.RULE_OPTIONS` (never
typed again here), and `need`, the one way a command asks for an optional part of the install."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, cast

import typer

from ..codes import printable
from ..extras import MissingExtra, require
from ..rules import RULE_OPTIONS, Rules

__all__ = ["DEFAULTS", "DEFAULT_VALUES", "AllFlags", "AllFlagsOption", "AllSpecials", "AllSpecialsOption", "HandStart", "HandStartOption", "Scoring", "ScoringOption", "choice_help", "choices", "default", "fail", "help_for", "need", "rules_from", "split_list"]


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


def fail(command: str | None, message: str, code: int = 2) -> NoReturn:
    """Print `minodice COMMAND: message` on stderr, in one line with control characters escaped, and exit
    with `code` (2: refused input or wrong use; 1: a bad file or a failure while running)."""
    prefix = f"minodice {command}" if command else "minodice"
    typer.echo(f"{prefix}: {printable(message)}", err=True)
    raise typer.Exit(code)


def need(extra: str, *modules: str) -> None:
    """Exit with status 2 and one line naming the pip extra to install unless `modules` are installed."""
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
    """A record file read and checked for a command, or the command stops with one line on stderr:
    exit 2 when the file is unreadable (not JSON, not minodice/1), 1 when the record is invalid."""
    from .. import record as records

    try:
        rec = records.load(file)
    except records.RecordError as exc:
        typer.echo(printable(f"{file}: {exc}"), err=True)
        raise typer.Exit(2) from None
    fault = records.check(rec)
    if fault is not None:
        typer.echo(printable(f"{file}: {fault}"), err=True)
        raise typer.Exit(1)
    return rec
