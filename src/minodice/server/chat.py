"""Table chat and quick reactions: what a seat may say, how often, who is muted, and the history.

The room is plain logic (no web framework): `ChatRoom.prepare` checks a text or
a reaction and numbers it, `ChatRoom.add` keeps it in the history. `post` and
`set_muted` run a room at a live table: they store the message (or the mute)
and then tell everyone at the table. A chat frame carries the message and
nothing else, and never touches the game (its own lock, not the table's).

>>> clean_text("  hello  ")
'hello'
>>> for text in ("a\\nb", "\\u200b \\u200b", "x" * 201):
...     try:
...         clean_text(text)
...     except ChatRefused as exc:
...         print(exc.code, exc.params)
chat_control {}
chat_empty {}
chat_too_long {'limit': 200, 'length': 201}
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import datetime as dt
import time
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from ..codes import render

__all__ = [
    "HISTORY",
    "REACTIONS",
    "TEXT_MAX",
    "ChatMessage",
    "ChatRefused",
    "ChatRoom",
    "RateLimit",
    "clean_text",
    "post",
    "refuse",
    "set_muted",
]

#: The quick reactions, in the order the client shows them: emoji → its name (the client's
#: translation key `chat.reaction.<name>`). Served by `GET /api/options`; nothing else is accepted.
REACTIONS: dict[str, str] = {
    "👍": "thumbs_up",
    "👏": "applause",
    "😮": "wow",
    "😂": "laugh",
    "😬": "oops",
    "🎲": "dice",
}
TEXT_MAX = 200  # characters (code points) of a message, after trimming
HISTORY = 50  # messages kept for a (re)connecting client
TEXT_LIMIT = (5, 10.0)  # per seat: at most 5 messages in any 10 seconds
REACTION_LIMIT = (10, 10.0)  # and at most 10 reactions in any 10 seconds

#: Characters refused anywhere in a message: they would break or reorder the line "Name: text"
#: (line breaks, bidirectional overrides) or are not text at all (controls, lone surrogates).
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_CONTROL_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})
#: Letters that draw nothing (Hangul fillers, the braille blank, the Mongolian vowel separator).
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")


class ChatRefused(Exception):
    """A chat message or a mute turned down: a registry `code` (`codes.SERVER_ERRORS`), its English
    `message`, `params` and an HTTP `status` (for the mute route). Made by `refuse`."""

    def __init__(self, message: str, code: str, params: dict[str, Any], status: int) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.params = params
        self.status = status


def refuse(code: str, status: int = 409, **params: Any) -> ChatRefused:
    """The refusal `code` with its registry words filled from `params`."""
    return ChatRefused(render(code, params), code, params, status)


def clean_text(text: str) -> str:
    """A message as shown: trimmed, 1 to TEXT_MAX characters, no control characters; else ChatRefused."""
    if any(ch in _BIDI or unicodedata.category(ch) in _CONTROL_CATEGORIES for ch in text):
        raise refuse("chat_control", 400)
    text = text.strip()
    if not text or all(_invisible(ch) for ch in text):
        raise refuse("chat_empty", 400)
    if len(text) > TEXT_MAX:
        raise refuse("chat_too_long", 400, limit=TEXT_MAX, length=len(text))
    return text


def _invisible(ch: str) -> bool:
    """Whether a character draws nothing by itself (spaces, format characters, lone marks, blanks)."""
    return ch.isspace() or ch in _BLANK_LETTERS or unicodedata.category(ch) in ("Cf", "Mn", "Me")


@dataclass(frozen=True)
class ChatMessage:
    """One line of a table's chat: number `n` (from 1, in order), who said it, a text or a reaction, when."""

    n: int
    seat: int
    name: str
    kind: str  # "text" | "reaction"
    text: str
    at: dt.datetime

    def to_dict(self) -> dict[str, Any]:
        """The message as sent: {n, seat, name, kind, text, at (ISO 8601 UTC)}."""
        at = self.at.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        return {
            "n": self.n,
            "seat": self.seat,
            "name": self.name,
            "kind": self.kind,
            "text": self.text,
            "at": at,
        }


class RateLimit:
    """At most `limit` events per key in any `window` seconds (a sliding window on a monotonic clock)."""

    def __init__(self, limit: int, window: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self.times: dict[int, collections.deque[float]] = {}

    def wait(self, key: int) -> float:
        """Seconds until `key` may act again (0: now)."""
        times = self.times.get(key)
        if times is None:
            return 0.0
        now = self.clock()
        while times and now - times[0] >= self.window:
            times.popleft()
        return 0.0 if len(times) < self.limit else self.window - (now - times[0])

    def take(self, key: int) -> None:
        """Count one event of `key` now."""
        self.times.setdefault(key, collections.deque()).append(self.clock())


class ChatRoom:
    """A table's chat: the last HISTORY messages, the next number and each seat's rate limits.

    Whether a seat is muted is the seat's own flag (`StoredSeat.muted`), passed to `prepare`.
    """

    def __init__(
        self, messages: Iterable[ChatMessage] = (), clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.history: collections.deque[ChatMessage] = collections.deque(messages, maxlen=HISTORY)
        self.next_n = self.history[-1].n + 1 if self.history else 1
        self.limits = {"text": RateLimit(*TEXT_LIMIT, clock), "reaction": RateLimit(*REACTION_LIMIT, clock)}
        self.lock = asyncio.Lock()  # one message at a time: numbered, stored and sent in order

    def prepare(
        self, seat: int | None, name: str, kind: str, body: str, at: dt.datetime, muted: bool = False
    ) -> ChatMessage:
        """The next message of `seat` (None: a spectator; `muted`: by the host) if it may be said now;
        else ChatRefused. Counts it against the seat's rate limit; `add` it once it is stored.
        """
        if seat is None:
            raise refuse("chat_spectator", 403)
        if muted:
            raise refuse("chat_muted", 403)
        if kind == "reaction":
            if body not in REACTIONS:
                raise refuse("chat_bad_reaction", 400)
            text = body
        else:
            text = clean_text(body)
        limit = self.limits[kind]
        wait = limit.wait(seat)
        if wait > 0:
            code = "chat_too_fast" if kind == "text" else "chat_reactions_too_fast"
            raise refuse(code, 429, limit=limit.limit, seconds=round(limit.window), wait=max(1, round(wait)))
        limit.take(seat)
        message = ChatMessage(self.next_n, seat, name, kind, text, at)
        self.next_n += 1
        return message

    def add(self, message: ChatMessage) -> None:
        """Keep a stored message in the history (the oldest drop out past HISTORY)."""
        self.history.append(message)

    def history_frame(self) -> dict[str, Any]:
        """The `chat_history` frame: the last messages, oldest first."""
        return {"type": "chat_history", "messages": [m.to_dict() for m in self.history]}


# --- at a live table -------------------------------------------------------------------------


class Table(Protocol):
    """What the chat needs of a live table (`tables.Table` is one): its code, seats and status, its chat
    room and players, its host, the store (through `hub`) and who hears what. A protocol, so that a table
    may own a chat room without an import loop."""

    code: str
    seats: int
    status: str
    host_seat: int | None
    chat: ChatRoom
    players: list[Any]
    hub: Any

    def note(self, kind: str) -> str | None: ...

    def broadcast(self, message: dict[str, Any]) -> None: ...

    def broadcast_table(self) -> None: ...


async def post(table: Table, seat: int | None, kind: str, body: str) -> ChatMessage:
    """Say a text or a reaction at `table` for `seat`: checked, stored, then sent to everyone there."""
    room = table.chat
    async with room.lock:
        player = table.players[seat] if seat is not None else None
        name, muted = (player.name or "", player.muted) if player is not None else ("", False)
        message = room.prepare(seat, name, kind, body, dt.datetime.now(dt.UTC), muted)
        # Another server process may have numbered a message the same: show its, renumber ours.
        while not await table.hub.db(table.hub.store.add_chat, table.code, message, table.note("c")):
            for other in await table.hub.db(table.hub.store.chat_after, table.code, message.n - 1):
                room.add(other)
                room.next_n = max(room.next_n, other.n + 1)
                table.broadcast({"type": "chat", "message": other.to_dict()})
            message = dataclasses.replace(message, n=room.next_n)
            room.next_n += 1
        # No await between keeping and sending: a client connecting meanwhile gets it exactly once.
        room.add(message)
        table.broadcast({"type": "chat", "message": message.to_dict()})
    return message


async def set_muted(table: Table, seat: int, muted: bool) -> None:
    """The host (checked by the caller) mutes or unmutes the person in `seat`; everyone sees the flag."""
    if not 0 <= seat < table.seats:
        raise refuse("bad_seat", 400, seat=seat)
    if table.status == "expired":
        raise refuse("expired")
    if table.players[seat].token_hash is None:  # an open seat, or a bot nobody ever held
        raise refuse("chat_mute_no_player", seat=seat)
    if seat == table.host_seat:
        raise refuse("chat_mute_self", seat=seat)
    async with table.chat.lock:
        table.players[seat].muted = muted
        await table.hub.db(table.hub.store.set_muted, table.code, seat, muted, table.note("t"))
    table.broadcast_table()
