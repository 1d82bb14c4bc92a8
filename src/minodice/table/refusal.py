"""Refusals of the table tools (score sheet, trick referee) as values: a code, its params, English words.

The codes and their English templates are `codes.SHEET_REFUSALS`; params are
plain JSON values (dice and faces by name, names and dice as lists), so an
interface can send them as they are and translate from the code.

>>> e = Refusal("player_count", {"low": 3, "high": 6, "count": 2})
>>> e.code, e.params["count"], str(e)
('player_count', 2, 'Mino Dice is played by 3 to 6 players, not 2')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..codes import render
from ..dice import jsonable
from ..rules import RuleError, Rules

__all__ = ["Refusal", "english_list", "rules_or_refusal"]


def english_list(items: list[Any]) -> str:
    """`a`, `a and b`, `a, b and c`: a list param in the English words."""
    words = [str(x) for x in items]
    if len(words) < 2:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


class Refusal(ValueError):
    """A refusal with a stable `code` (in `codes.SHEET_REFUSALS`, or an engine code passed on), `params`
    and the English `message` (the registry's template, unless the refusal brings its own words)."""

    def __init__(self, code: str, params: Mapping[str, Any] | None = None, *, message: str | None = None) -> None:
        self.code = code
        self.params: dict[str, Any] = {k: jsonable(v) for k, v in (params or {}).items()}
        if message is None:
            message = render(code, {k: english_list(v) if isinstance(v, list) else v for k, v in self.params.items()})
        self.message = message
        super().__init__(message)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: {"code", "message", "params"}."""
        return {"code": self.code, "message": self.message, "params": dict(self.params)}


def rules_or_refusal(error: type[Refusal], **options: str) -> Rules:
    """`Rules(**options)`, or `error("bad_rule_value", {rule, value, choices})` for an option value the rules do not know."""
    try:
        return Rules(**options)
    except RuleError as exc:
        raise error("bad_rule_value", {"rule": exc.option, "value": exc.value, "choices": ", ".join(exc.choices)}) from None
