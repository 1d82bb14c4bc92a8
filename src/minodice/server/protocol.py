"""The messages of `docs/server-protocol.md` as pydantic models: HTTP bodies and websocket frames.

Every model forbids unknown fields, so a misspelt or extra field is refused
with a clear message instead of being silently ignored.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from ..dice import MAX_SEATS, MIN_SEATS

NAME_MAX = 24


class Strict(BaseModel):
    """Base: unknown fields are an error."""

    model_config = ConfigDict(extra="forbid")


def clean_name(value: str) -> str:
    """A player's name: trimmed, 1 to 24 printable characters."""
    value = " ".join(value.split())
    if not value:
        raise ValueError("a name needs at least one letter")
    if len(value) > NAME_MAX:
        raise ValueError(f"a name has at most {NAME_MAX} characters")
    if any(not ch.isprintable() for ch in value):
        raise ValueError("a name cannot hold control characters")
    return value


# --- HTTP bodies --------------------------------------------------------------------------


class CreateTable(Strict):
    """`POST /api/tables`."""

    seats: int = Field(4, ge=MIN_SEATS, le=MAX_SEATS)
    bots: list[str | None] | None = Field(None, max_length=MAX_SEATS)
    rules: dict[str, str] = Field(default_factory=dict, max_length=8)
    name: str | None = Field(None, max_length=80)
    hints: bool = Field(True, strict=True)  # may players ask the bid advisor?

    _name = field_validator("name")(lambda v: None if v is None else clean_name(v))


class JoinTable(Strict):
    """`POST /api/tables/{code}/join`."""

    name: str = Field(max_length=80)
    seat: int | None = Field(None, ge=0, lt=MAX_SEATS)

    _name = field_validator("name")(clean_name)


class SeatBot(Strict):
    """`POST /api/tables/{code}/seats/{seat}/bot`."""

    bot: str = Field("greedy", max_length=80)


# --- websocket: client to server ------------------------------------------------------------

MessageId = Annotated[int | Annotated[str, Field(max_length=64)], Field(union_mode="left_to_right")]


class Hello(Strict):
    type: Literal["hello"]
    token: str | None = Field(None, max_length=128)
    id: MessageId | None = None


class BidMsg(Strict):
    type: Literal["bid"]
    bid: int = Field(ge=0, le=99, strict=True)
    seat: int | None = Field(None, strict=True)
    id: MessageId | None = None


class RollMsg(Strict):
    type: Literal["roll"]
    die: str = Field(max_length=16)
    seat: int | None = Field(None, strict=True)
    id: MessageId | None = None


class SyncMsg(Strict):
    type: Literal["sync"]
    id: MessageId | None = None


class PingMsg(Strict):
    type: Literal["ping"]
    id: MessageId | None = None


ClientMessage = Hello | BidMsg | RollMsg | SyncMsg | PingMsg
_BY_TYPE: dict[str, type[Strict]] = {
    "hello": Hello, "bid": BidMsg, "roll": RollMsg, "sync": SyncMsg, "ping": PingMsg,
}
_ADAPTERS = {k: TypeAdapter(v) for k, v in _BY_TYPE.items()}


class BadMessage(ValueError):
    """A frame that is not a valid client message: `code` and an English `message`."""

    def __init__(self, code: str, message: str, ref: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref


def parse_client(text: str) -> ClientMessage:
    """Parse one websocket text frame, or raise BadMessage saying what is wrong."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise BadMessage("bad_json", "a message must be one JSON object") from None
    if not isinstance(data, dict):
        raise BadMessage("bad_json", "a message must be one JSON object")
    ref = data.get("id") if isinstance(data.get("id"), (int, str)) else None
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _BY_TYPE:
        shown = json.dumps(kind)[:40]
        raise BadMessage(
            "bad_message",
            f"unknown message type {shown}: expected one of {', '.join(_BY_TYPE)}",
            ref,
        )
    try:
        return _ADAPTERS[kind].validate_python(data)
    except ValidationError as exc:
        raise BadMessage("bad_message", f"bad {kind} message: {describe(exc)}", ref) from None


def describe(exc: ValidationError) -> str:
    """A short English summary of a validation error (field: problem; ...)."""
    parts = []
    for err in exc.errors()[:4]:
        loc = ".".join(str(x) for x in err["loc"]) or "message"
        msg = "unknown field" if err["type"] == "extra_forbidden" else err["msg"]
        parts.append(f"{loc}: {msg}")
    return "; ".join(parts)


# --- websocket: server to client --------------------------------------------------------------


def error(code: str, message: str, params: dict[str, Any] | None = None, ref: Any = None) -> dict[str, Any]:
    """An `error` frame."""
    out: dict[str, Any] = {"type": "error", "code": code, "message": message, "params": params or {}}
    if ref is not None:
        out["ref"] = ref
    return out


def http_error(code: str, message: str, **params: Any) -> dict[str, Any]:
    """The `detail` of an HTTP error response."""
    return {"code": code, "message": message, "params": params}
