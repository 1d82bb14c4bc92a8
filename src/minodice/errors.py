"""The one exception type for an action the rules do not allow."""

from __future__ import annotations

from typing import Any

from .dice import jsonable


class IllegalAction(ValueError):
    """An action the game refuses, with a stable `code`, its `params` and an English message.

    Interfaces show `str(error)` (or translate from `code` and `params`); they
    never invent their own wording for a rule.

    >>> e = IllegalAction("bid_out_of_range", "bids go from 0 to 3", low=0, high=3)
    >>> e.code, e.params["high"], str(e)
    ('bid_out_of_range', 3, 'bids go from 0 to 3')
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params

    def to_dict(self) -> dict[str, Any]:
        """JSON form: {"code", "message", "params"} (params made JSON-safe)."""
        return {
            "code": self.code,
            "message": self.message,
            "params": {k: jsonable(v) for k, v in self.params.items()},
        }
