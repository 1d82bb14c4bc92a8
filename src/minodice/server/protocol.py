"""The messages of `docs/server-protocol.md` as pydantic models: HTTP bodies and websocket frames.

Every model forbids unknown fields, so a misspelt or extra field is refused
with a clear message instead of being silently ignored.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from ..codes import render
from ..dice import MAX_SEATS, MIN_SEATS, Die, Face
from ..events import Event, HandScored, Rolled, TrickWon
from ..rules import Rules, TrickState, hand_score, roller
from ..view import View

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


class SeatMute(Strict):
    """`POST /api/tables/{code}/seats/{seat}/mute`: the host mutes (or unmutes) a seat's chat."""

    muted: bool = Field(strict=True)


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


class ChatMsg(Strict):
    """A line of table chat (checked by `chat.clean_text`: the frame size bounds it here)."""

    type: Literal["chat"]
    text: str = Field(strict=True)
    id: MessageId | None = None


class ReactMsg(Strict):
    """A quick reaction: one of `chat.REACTIONS`."""

    type: Literal["react"]
    reaction: str = Field(max_length=16, strict=True)
    id: MessageId | None = None


ClientMessage = Hello | BidMsg | RollMsg | SyncMsg | PingMsg | ChatMsg | ReactMsg
_BY_TYPE: dict[str, type[ClientMessage]] = {
    "hello": Hello, "bid": BidMsg, "roll": RollMsg, "sync": SyncMsg, "ping": PingMsg,
    "chat": ChatMsg, "react": ReactMsg,
}
_ADAPTERS = {k: TypeAdapter(v) for k, v in _BY_TYPE.items()}


class BadMessage(ValueError):
    """A frame that is not a valid client message: `code` and an English `message` (default: the registry's)."""

    def __init__(self, code: str, message: str | None = None, ref: Any = None) -> None:
        if message is None:
            message = render(code)
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref


def parse_client(text: str) -> ClientMessage:
    """Parse one websocket text frame, or raise BadMessage saying what is wrong."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise BadMessage("bad_json") from None
    if not isinstance(data, dict):
        raise BadMessage("bad_json")
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


def error(
    code: str, message: str | None = None, params: dict[str, Any] | None = None, ref: Any = None
) -> dict[str, Any]:
    """An `error` frame (`message` defaults to the registry's English words for `code` and `params`)."""
    if message is None:
        message = render(code, params)
    out: dict[str, Any] = {"type": "error", "code": code, "message": message, "params": params or {}}
    if ref is not None:
        out["ref"] = ref
    return out


def http_error(code: str, message: str, **params: Any) -> dict[str, Any]:
    """The `detail` of an HTTP error response."""
    return {"code": code, "message": message, "params": params}


# --- a seat's view and the events, as sent ------------------------------------------------------


def view_on_wire(view: View) -> dict[str, Any]:
    """A seat's VIEW as sent: `View.to_dict()` and the rules' answers about its tricks.

    Added: `trick` (the trick in progress: `TrickState.to_dict()` — lead, leading,
    reason, bonus, bonus_why — and `order`, the seats in rolling order; None
    before its first roll), `refusals` (each die this seat holds but may not
    roll now → its reason; empty unless it is this seat's roll) and, on each
    finished trick, its `lead` and why its winner won (`reason`, `bonus_why`).
    """
    out = view.to_dict()
    state = view.trick_state
    out["trick"] = None
    if state is not None:
        order = [roller(view.leader, k, view.seats) for k in range(view.seats)]
        out["trick"] = {**state.to_dict(), "order": order}
    out["refusals"] = {die.value: why.to_dict() for die, why in view.refusals().items()}
    for trick, sent in zip(view.tricks, out["tricks"], strict=True):
        if trick.winner is not None:
            sent.update(finished_trick([(r.die, r.face) for r in trick.rolls], view.rules))
    return out


def finished_trick(rolls: Sequence[tuple[Die, Face]], rules: Rules) -> dict[str, Any]:
    """A finished trick's lead colour, why its winner won it (`reason`) and earns a bonus (`bonus_why`, or None)."""
    state = TrickState.of(rolls, rules)
    assert state.reason is not None, "a finished trick has rolls"
    return {
        "lead": state.lead.value if state.lead is not None else None,
        "reason": state.reason.to_dict(),
        "bonus_why": state.bonus_why.to_dict() if state.bonus_why is not None else None,
    }


class WireEvents:
    """The events of one game as sent, with the rules' answers the client must not work out itself.

    Each `trick_won` also carries its trick's `lead`, `reason` and `bonus_why`;
    each `hand_scored` carries `bonus_counted` (per seat, the bonus points its
    score includes: none unless a non-zero bid was made exactly, none under
    landlubber scoring). Rolls and scores are public, so these are the same for
    every viewer: worked out once per event as the game's (append-only) log grows.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.seen = 0
        self.rolls: list[tuple[Die, Face]] = []
        self.extra: dict[int, dict[str, Any]] = {}

    def update(self, log: Sequence[Event]) -> None:
        """Read the events added to the game's log since the last call."""
        for index in range(self.seen, len(log)):
            event = log[index]
            if isinstance(event, Rolled):
                self.rolls.append((event.die, event.face))
            elif isinstance(event, TrickWon):
                self.extra[index] = finished_trick(self.rolls, self.rules)
                self.rolls = []
            elif isinstance(event, HandScored):
                self.extra[index] = {"bonus_counted": self._counted(event)}
        self.seen = len(log)

    def _counted(self, event: HandScored) -> list[int]:
        """The bonus points each seat's score for the hand includes."""
        dice, rules = event.hand, self.rules
        return [
            hand_score(bid, won, dice, bonus, rules) - hand_score(bid, won, dice, 0, rules)
            for bid, won, bonus in zip(event.bids, event.won, event.bonus, strict=True)
        ]

    def on_wire(self, events: Sequence[Event], start: int) -> list[dict[str, Any]]:
        """`events` (a viewer's copies of the log from index `start`) as JSON, with the answers added."""
        out = []
        for index, event in enumerate(events, start):
            sent = event.to_dict()
            sent.update(self.extra.get(index, {}))
            out.append(sent)
        return out
