"""Typer choices for the rule options, derived from `rules.RULE_OPTIONS` (never typed again here)."""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer

from ..rules import RULE_OPTIONS, Rules

__all__ = ["DEFAULTS", "DEFAULT_VALUES", "AllFlags", "AllFlagsOption", "AllSpecials", "AllSpecialsOption", "HandStart", "HandStartOption", "Scoring", "ScoringOption", "choice_help", "choices", "default", "help_for", "rules_from"]


def choices(option: str) -> type[Enum]:
    """An Enum of `option`'s allowed values (Typer shows them as the option's choices)."""
    name = "".join(part.title() for part in option.split("_"))
    return Enum(name, {v: v for v in RULE_OPTIONS[option][0]}, type=str)  # type: ignore[return-value]


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
ScoringOption = Annotated[Scoring, typer.Option(help=help_for("scoring"))]  # type: ignore[valid-type]
AllSpecialsOption = Annotated[AllSpecials, typer.Option(help=help_for("all_specials"))]  # type: ignore[valid-type]
AllFlagsOption = Annotated[AllFlags, typer.Option(help=help_for("all_flags"))]  # type: ignore[valid-type]
HandStartOption = Annotated[HandStart, typer.Option(help=help_for("hand_start"))]  # type: ignore[valid-type]


def rules_from(*values: Enum | str) -> Rules:
    """`Rules` from the chosen values, in `RULE_OPTIONS` order (scoring, all_specials, all_flags, hand_start)."""
    return Rules(**{k: getattr(v, "value", v) for k, v in zip(RULE_OPTIONS, values)})
