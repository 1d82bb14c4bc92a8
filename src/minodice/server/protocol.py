"""The messages of `docs/server-protocol.md` as pydantic models: HTTP bodies and websocket frames.

Every model forbids unknown fields, so a misspelt or extra field is refused
with a clear message instead of being silently ignored.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter, ValidationError

from ..bots import BUILTIN
from ..bots.levels import level_names
from ..codes import render
from ..dice import MAX_SEATS, MIN_SEATS, Die, Face
from ..events import Event, HandScored, Rolled, TrickWon
from ..rules import Rules, TrickState, bid_made, hand_score, roller
from ..view import TrickView, View

NAME_MAX = 24
#: The most combining marks (accents, vowel signs) a name may stack on one letter, counted decomposed
#: (Vietnamese ệ is e and 2): real names need up to 3 (Tibetan stacks such as སྒྲོ in Drolma, pointed
#: Hebrew), "zalgo" text piles dozens.
NAME_MARKS = 3
#: Characters that show nothing and are read as spaces in a name (so alone they are no name): the
#: Hangul fillers, the blank Braille pattern, the combining grapheme joiner, the Khmer inherent vowels.
_BLANKS = dict.fromkeys(map(ord, "\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5"), " ")
#: The default-ignorable code points (Unicode's DerivedCoreProperties.txt), left out when names are compared.
_IGNORABLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f"
    "\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)
_I18N = Path(__file__).with_name("static") / "i18n"


class Strict(BaseModel):
    """Base: unknown fields are an error."""

    model_config = ConfigDict(extra="forbid")


def clean_name(value: object) -> object:
    """A player's name: NFC, blanks read as spaces, spaces collapsed and trimmed; 1 to 24 characters
    with a visible letter, digit or sign, no control or formatting character, at most 3 marks on a
    letter, and not a bot seat's name ("Greedy 2", in any language of the web client). Else BadName.

    Not a string: returned as it is, for the field's own type check to refuse.
    """
    if not isinstance(value, str):
        return value
    name = " ".join(unicodedata.normalize("NFC", value).translate(_BLANKS).split())
    if not name.isprintable():
        raise BadName("name_control")
    if not any(unicodedata.category(ch)[0] in "LNPS" for ch in name):
        raise BadName("name_empty")
    if _most_marks(name) > NAME_MARKS:
        raise BadName("name_marks", limit=NAME_MARKS)
    if len(name) > NAME_MAX:
        raise BadName("name_too_long", limit=NAME_MAX)
    if _bot_names().fullmatch(name_key(name)):
        raise BadName("name_bot")
    return name


def name_key(name: str) -> str:
    """What names are compared by: NFKC, case-folded, default-ignorable characters left out, spaces collapsed."""
    return " ".join(_IGNORABLE.sub("", unicodedata.normalize("NFKC", name)).casefold().split())


def _most_marks(name: str) -> int:
    """The longest run of combining marks (on one base character) in `name`, decomposed (NFD: "ệ" is e and 2)."""
    most = run = 0
    for ch in unicodedata.normalize("NFD", name):
        run = run + 1 if unicodedata.category(ch) in ("Mn", "Me") else 0
        most = max(most, run)
    return most


@functools.cache
def _bot_names() -> re.Pattern[str]:
    """A bot seat's name as `name_key` has it, in English ("greedy 3", as the server names bots) and
    as the web client says it in each of its languages ("codicioso 3"), with an optional " (2)"."""
    bots = (*BUILTIN, *level_names())  # a level plays a seat under its own name ("Expert 2")
    words = {name_key(b) for b in bots}
    forms = {"{bot} {n}"}
    for path in sorted(_I18N.glob("*.json")):
        try:
            words_of = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        forms.add(str(words_of.get("bot.seat_name", "{bot} {n}")))
        words |= {name_key(str(words_of[f"bot.{b}.short"])) for b in bots if f"bot.{b}.short" in words_of}
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True) if w)
    shapes = [
        re.escape(name_key(form)).replace(r"\{bot\}", f"(?:{alternatives})").replace(r"\{n\}", r"\d+") for form in forms
    ]
    return re.compile(f"(?:{'|'.join(sorted(shapes))})(?: \\(\\d+\\))?")


#: A player's name in a body: `clean_name` runs first, so the length is counted on the cleaned name.
Name = Annotated[str, BeforeValidator(clean_name), Field(max_length=NAME_MAX)]


# --- HTTP bodies --------------------------------------------------------------------------


class CreateTable(Strict):
    """`POST /api/tables`."""

    seats: int = Field(4, ge=MIN_SEATS, le=MAX_SEATS)
    bots: list[Annotated[str, Field(max_length=80)] | None] | None = Field(None, max_length=MAX_SEATS)
    rules: dict[Annotated[str, Field(max_length=40)], Annotated[str, Field(max_length=40)]] = Field(
        default_factory=dict, max_length=8
    )
    name: Name | None = None
    hints: bool = Field(True, strict=True)  # may players ask the bid advisor?
    clock: str = Field("off", max_length=40)  # the move clock's speed (`clocks.CLOCKS`)
    level: str | None = Field(None, max_length=40)  # the level standing in for people (`bots.levels`)


class JoinTable(Strict):
    """`POST /api/tables/{code}/join`."""

    name: Name
    seat: int | None = Field(None, ge=0, lt=MAX_SEATS)


class SeatBot(Strict):
    """`POST /api/tables/{code}/seats/{seat}/bot`."""

    bot: str | None = Field(None, max_length=80)  # None: the table's level


class SeatMute(Strict):
    """`POST /api/tables/{code}/seats/{seat}/mute`: the host mutes (or unmutes) a seat's chat."""

    muted: bool = Field(strict=True)


# --- websocket: client to server ------------------------------------------------------------

#: A message id: an integer JavaScript holds exactly (|id| <= 2^53 - 1), or a string of at most 64 characters.
ID_MAX_INT = 2**53 - 1
ID_MAX_LEN = 64
MessageId = Annotated[
    Annotated[int, Field(strict=True, ge=-ID_MAX_INT, le=ID_MAX_INT)]
    | Annotated[str, Field(strict=True, max_length=ID_MAX_LEN)],
    Field(union_mode="left_to_right"),
]


def valid_id(value: object) -> bool:
    """Whether `value` is a message id the server accepts (and may echo as `ref`)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return -ID_MAX_INT <= value <= ID_MAX_INT
    return isinstance(value, str) and len(value) <= ID_MAX_LEN


class Hello(Strict):
    """The first frame: a seat's `token` to play, or `spectate: true` to watch (exactly one of them)."""

    type: Literal["hello"]
    token: str | None = Field(None, max_length=128)
    spectate: bool = Field(False, strict=True)
    id: MessageId | None = None

    def asks_one(self) -> bool:
        """Whether it asks for exactly one of a seat and watching (else: `bad_hello`). An empty
        token is still a token: the table refuses it with `bad_token`."""
        return self.spectate != (self.token is not None)


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


class BadName(BadMessage):
    """A name `clean_name` refuses: a `name_*` code of the registry and its params (a ValueError, so a
    body holding it is a validation error; the API answers it with the code, see `api.validation_handler`)."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code, render(code, params))
        self.params = params


def parse_client(text: str) -> ClientMessage:
    """Parse one websocket text frame, or raise BadMessage saying what is wrong."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # ValueError: bad JSON, or an integer past Python's digit limit
        raise BadMessage("bad_json") from None
    if not isinstance(data, dict):
        raise BadMessage("bad_json")
    if data.get("id") is not None and not valid_id(data["id"]):
        raise BadMessage("bad_id")  # never echoed: it may be anything up to the frame's size
    ref = data.get("id")
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


def dumps(value: Any) -> str:
    """`value` as the compact JSON text of a websocket frame (every frame the server sends is made here).

    orjson (UTF-8, keys in order); what it refuses — a lone surrogate echoed from a refused input,
    an integer past 64 bits — goes through the standard library's encoder, which escapes it.
    """
    try:
        return orjson.dumps(value).decode()
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(value, separators=(",", ":"))


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


def ack(ref: str | int) -> dict[str, Any]:
    """The answer to an accepted message that carried an `id` (sent after what it caused)."""
    return {"type": "ack", "ref": ref}


def fingerprint(msg: BaseModel) -> bytes:
    """What identifies a frame's content, whatever its key order or spacing (its `id` left out).

    Canonical JSON (keys sorted) by orjson, on every action's path; what orjson refuses (a lone
    surrogate in a chat text) by the standard library, whose text then holds a `\\udXXX` escape that
    no orjson text holds: the two never collide.
    """
    content = msg.model_dump(mode="json", exclude={"id"})
    try:
        text = orjson.dumps(content, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # orjson.JSONEncodeError
        text = json.dumps(content, sort_keys=True).encode()
    return hashlib.sha256(text).digest()


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
    The server sends the same as text, made faster: `WireEvents.view_text`.
    """
    out = view.to_dict()
    out["trick"], out["refusals"] = _trick_answers(view)
    for trick, sent in zip(view.tricks, out["tricks"], strict=True):
        if trick.winner is not None:
            sent.update(finished_trick([(r.die, r.face) for r in trick.rolls], view.rules))
    return out


def _trick_answers(view: View) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """A view's `trick` (the trick in progress, with `order`; None) and `refusals`."""
    current = view.current_trick
    trick = None
    if current is not None:
        order = [roller(view.leader, k, view.seats) for k in range(view.seats)]
        trick = {**_trick_now(_codes([(r.die, r.face) for r in current.rolls]), view.rules), "order": order}
    return trick, {die._value_: why.to_dict() for die, why in view.refusals().items()}


def finished_trick(rolls: Sequence[tuple[Die, Face]], rules: Rules) -> dict[str, Any]:
    """A finished trick's lead colour, why its winner won it (`reason`) and earns a bonus (`bonus_why`, or None).

    Worked out once per trick and rules (a finished trick never changes, and every view of the
    hand carries it again); the answer is shared: do not change it.
    """
    return _finished_trick(_codes(rolls), rules)


def _codes(rolls: Sequence[tuple[Die, Face]]) -> tuple[int, ...]:
    """A trick's rolls as numbers (die index << 4 | face index): a key far cheaper to hash than the enums."""
    return tuple([d.index << 4 | f.index for d, f in rolls])


def _rolls(codes: tuple[int, ...]) -> list[tuple[Die, Face]]:
    return [(_DICE[c >> 4], _FACES[c & 15]) for c in codes]


_DICE, _FACES = tuple(Die), tuple(Face)


@functools.lru_cache(maxsize=2048)
def _finished_trick(codes: tuple[int, ...], rules: Rules) -> dict[str, Any]:
    state = TrickState.of(_rolls(codes), rules)
    assert state.reason is not None, "a finished trick has rolls"
    return {
        "lead": state.lead.value if state.lead is not None else None,
        "reason": state.reason.to_dict(),
        "bonus_why": state.bonus_why.to_dict() if state.bonus_why is not None else None,
    }


# Small: what repeats is one trick's state for every seat of a table after a roll (a bigger cache
# would keep thousands of objects alive for the garbage collector to walk).
@functools.lru_cache(maxsize=256)
def _trick_now(codes: tuple[int, ...], rules: Rules) -> dict[str, Any]:
    """`TrickState.to_dict()` of a trick in progress, worked out once per rolls and rules (every seat is
    sent it after every roll): shared, do not change it."""
    return TrickState.of(_rolls(codes), rules).to_dict()


class WireEvents:
    """The events of one game as sent, with the rules' answers the client must not work out itself.

    Each `trick_won` also carries its trick's `lead`, `reason` and `bonus_why`;
    each `hand_scored` carries `bonus_counted` (per seat, the bonus points its
    score includes: none unless a non-zero bid was made exactly, none under
    landlubber scoring) and `made` (per seat, whether its bid was made: `rules.bid_made`). Rolls and scores are public, so these are the same for
    every viewer: worked out once per event as the game's (append-only) log grows.

    It also makes the JSON text the server sends: of the events (`on_wire_text`) and of each
    seat's view (`view_text`), each public piece made once rather than once per seat and move.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.seen = 0
        self.rolls: list[tuple[Die, Face]] = []
        self.extra: dict[int, dict[str, Any]] = {}
        self.log: Sequence[Event] = ()
        #: The JSON text of the log's events (by index) as sent to a viewer whose copy is the event itself.
        self.texts: dict[int, str] = {}
        #: The finished tricks of hand `hand` as sent (by index): each trick and its JSON text.
        self.hand = -1
        self.tricks: dict[int, tuple[TrickView, str]] = {}

    def update(self, log: Sequence[Event]) -> None:
        """Read the events added to the game's log since the last call."""
        self.log = log
        for index in range(self.seen, len(log)):
            event = log[index]
            if isinstance(event, Rolled):
                self.rolls.append((event.die, event.face))
            elif isinstance(event, TrickWon):
                self.extra[index] = finished_trick(self.rolls, self.rules)
                self.rolls = []
            elif isinstance(event, HandScored):
                made = [bid_made(bid, won) for bid, won in zip(event.bids, event.won, strict=True)]
                self.extra[index] = {"bonus_counted": self._counted(event), "made": made}
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

    def on_wire_text(self, events: Sequence[Event], start: int) -> str:
        """`on_wire(events, start)` as the JSON text of a frame (`dumps` of it).

        A viewer's copy that is the log's event itself (`Event.for_viewer` gives every public event
        as it is) is the same for every viewer: its text is made once and kept. A copy made for this
        viewer (its own dice, its own bid; hidden parts left out) is made afresh every time, so what
        one seat may see is never kept for another. Call `update` with the game's log first.
        """
        log, texts, extra = self.log, self.texts, self.extra
        parts = []
        for index, event in enumerate(events, start):
            shared = index < self.seen and event is log[index]
            text = texts.get(index) if shared else None
            if text is None:
                sent = event.to_dict()
                sent.update(extra.get(index, {}))
                text = dumps(sent)
                if shared:
                    texts[index] = text
            parts.append(text)
        return "[" + ",".join(parts) + "]"

    def view_text(self, view: View) -> str:
        """`view_on_wire(view)` as JSON text (`dumps` of it; "tricks" comes last).

        A finished trick never changes and every view of its hand carries it again: its text is made
        once and kept, and sent for any view whose trick is equal to it (same rolls, same winner).
        """
        out = view.to_dict(tricks=False)
        out["trick"], out["refusals"] = _trick_answers(view)
        if view.hand != self.hand:
            self.hand, self.tricks = view.hand, {}
        kept, rules = self.tricks, view.rules
        parts = []
        for index, trick in enumerate(view.tricks):
            if trick.winner is None:  # the trick in progress
                parts.append(dumps(trick.to_dict()))
                continue
            known = kept.get(index)
            if known is None or known[0] != trick:
                sent = trick.to_dict()
                sent.update(finished_trick([(r.die, r.face) for r in trick.rolls], rules))
                known = kept[index] = (trick, dumps(sent))
            parts.append(known[1])
        return f'{dumps(out)[:-1]},"tricks":[{",".join(parts)}]}}'
