"""The websocket of a table: authenticate, then relay checked intentions to the table.

Every frame is size-checked, rate-limited and validated before it reaches the
table; a bad frame gets an `error` (or, past the limits, a closed socket) and
never touches the game.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import time
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketState

from ..dice import jsonable
from ..errors import IllegalAction
from . import chat
from . import protocol as P
from .manager import TableManager
from .tables import Client, Refused, Table

log = logging.getLogger("minodice.server")


class Closed(Exception):
    """The connection must end: the close code and reason to send."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


class Answers:
    """The ids a connection used last and what each got, so a frame sent again is not carried out again.

    Up to `size` ids (the oldest forgotten first); per id, its frame's `protocol.fingerprint` and
    the answer it got (an `ack`, a `pong` or an `error`).
    """

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self.seen: collections.OrderedDict[str | int, tuple[bytes, dict[str, Any]]] = collections.OrderedDict()

    def get(self, ref: str | int) -> tuple[bytes, dict[str, Any]] | None:
        """The fingerprint and answer of the frame that used `ref`, if it is remembered."""
        return self.seen.get(ref)

    def remember(self, ref: str | int, fingerprint: bytes, answer: dict[str, Any]) -> None:
        self.seen[ref] = (fingerprint, answer)
        while len(self.seen) > self.size:
            self.seen.popitem(last=False)


class Connection:
    """One socket's reading side: frame limits, flood control, bad-message count and the ids used."""

    def __init__(self, ws: WebSocket, manager: TableManager) -> None:
        self.ws = ws
        self.settings = manager.settings
        self.times: collections.deque[float] = collections.deque()
        self.bad = 0
        self.warned = 0.0
        self.answers = Answers()

    async def receive(self, client: Client | None) -> str | None:
        """The next acceptable text frame (None: the peer left); Closed past a limit."""
        while True:
            msg = await self.ws.receive()
            if msg["type"] == "websocket.disconnect":
                return None
            text = msg.get("text")
            data = msg.get("bytes")
            size = len(text.encode()) if text is not None else len(data or b"")
            limit = self.settings.max_message
            if size > limit:
                raise Closed(1009, f"message too big (limit {limit} bytes)")
            now = time.monotonic()
            self.times.append(now)
            while self.times and now - self.times[0] > 1.0:
                self.times.popleft()
            if len(self.times) > self.settings.flood_close:
                raise Closed(4429, "too many messages")
            if len(self.times) > self.settings.flood_warn:
                if now - self.warned > 1.0:
                    self.warned = now
                    self._reply(client, P.error("flood", params={"limit": self.settings.flood_warn}))
                continue
            if text is None:
                self.strike()
                self._reply(client, P.error("not_text"))
                continue
            return text

    def strike(self) -> None:
        """Count a bad message; Closed past the limit."""
        self.bad += 1
        if self.bad > self.settings.max_bad:
            raise Closed(4400, "too many bad messages")

    def _reply(self, client: Client | None, message: dict[str, Any]) -> None:
        if client is not None:
            client.send(message)
        else:
            asyncio.get_running_loop().create_task(self._send_now(message))

    async def _send_now(self, message: dict[str, Any]) -> None:
        with contextlib.suppress(Exception):
            await self.ws.send_text(json.dumps(message))


async def _writer(ws: WebSocket, client: Client) -> None:
    """Send a client's queued messages in order until it is closed."""
    try:
        while True:
            msg = await client.outbox.get()
            if msg is None:
                break
            await ws.send_text(msg if isinstance(msg, str) else P.dumps(msg))
    except Exception:
        client.closed = True


async def serve_socket(ws: WebSocket, code: str, manager: TableManager) -> None:
    """Run one websocket connection of table `code` to its end."""
    await ws.accept()
    conn = Connection(ws, manager)
    client = Client()
    writer: asyncio.Task[None] | None = None
    table: Table | None = None
    try:
        try:
            table = await manager.get(code)
        except Refused:
            table = None
        if table is None or table.status == "expired":
            raise Closed(4404, "no such table")
        hello = await _hello(conn, client)
        if hello is None:
            return
        writer = asyncio.get_running_loop().create_task(_writer(ws, client))
        try:
            await table.connect(client, hello.token, hello.id)
        except Refused as exc:
            await _send_direct(ws, P.error(exc.code, exc.message, ref=hello.id))
            raise Closed(4401, "bad token") from None
        if hello.id is not None:  # its id is used: the same hello again is `already_hello`
            conn.answers.remember(hello.id, P.fingerprint(hello), P.error("already_hello", ref=hello.id))
        while not client.closed:
            text = await conn.receive(client)
            if text is None:
                break
            await _handle(conn, client, table, text)
    except Closed as exc:
        client.close()
        if writer is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 2)
        if ws.application_state is WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await ws.close(exc.code, exc.reason)
    except WebSocketDisconnect:
        pass
    finally:
        client.close()
        if table is not None:
            await table.disconnect(client)
            if table.rematch is not None and not table.rematch_started:  # a person left: the rematch may start
                try:
                    await manager.rematch_check(table)
                except Exception:
                    log.exception("table %s: starting its rematch failed", table.code)
        if writer is not None:
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer
        if ws.application_state is WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await ws.close(1000)


async def _send_direct(ws: WebSocket, message: dict[str, Any]) -> None:
    with contextlib.suppress(Exception):
        await ws.send_text(json.dumps(message))


async def _hello(conn: Connection, client: Client) -> P.Hello | None:
    """Wait for a valid `hello` (None: the peer left); other frames get `need_hello`."""
    deadline = time.monotonic() + conn.settings.hello_timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise Closed(4408, "no hello")
        try:
            text = await asyncio.wait_for(conn.receive(None), left)
        except TimeoutError:
            raise Closed(4408, "no hello") from None
        if text is None:
            return None
        try:
            msg = P.parse_client(text)
        except P.BadMessage as exc:
            conn.strike()
            await _send_direct(conn.ws, P.error(exc.code, exc.message, ref=exc.ref))
            continue
        if isinstance(msg, P.Hello):
            if msg.asks_one():
                return msg
            conn.strike()
            await _send_direct(conn.ws, P.error("bad_hello", ref=msg.id))
            continue
        conn.strike()
        await _send_direct(conn.ws, P.error("need_hello", ref=msg.id))


async def _handle(conn: Connection, client: Client, table: Table, text: str) -> None:
    """Parse one frame and carry it out; every answer goes to this client only.

    A frame whose `id` this connection used already is not carried out again: the same frame
    gets the answer it got the first time, another frame `duplicate_id`.
    """
    try:
        msg = P.parse_client(text)
    except P.BadMessage as exc:
        conn.strike()
        client.send(P.error(exc.code, exc.message, ref=exc.ref))
        return
    if msg.id is None:
        answer = await _carry_out(conn, client, table, msg)
        if answer is not None:
            client.send(answer)
        return
    fingerprint = P.fingerprint(msg)
    seen = conn.answers.get(msg.id)
    if seen is not None:
        if seen[0] == fingerprint:
            client.send(seen[1])
        else:
            conn.strike()
            client.send(P.error("duplicate_id", ref=msg.id))
        return
    answer = await _carry_out(conn, client, table, msg)
    assert answer is not None, "a message with an id always gets an answer"
    conn.answers.remember(msg.id, fingerprint, answer)
    client.send(answer)


async def _carry_out(conn: Connection, client: Client, table: Table, msg: P.ClientMessage) -> dict[str, Any] | None:
    """Carry out one message; the answer for its sender: an `error` if refused, else `pong` for a
    ping and `ack` for the rest when it has an `id` (None: nothing to answer).

    The answer is sent after what the message caused (the `state`, the `chat`, the `chat_history`).
    """
    ref = msg.id
    try:
        if isinstance(msg, P.BidMsg):
            await table.act(client.seat, "bid", msg.bid, msg.seat)
        elif isinstance(msg, P.RollMsg):
            await table.act(client.seat, "roll", msg.die, msg.seat)
        elif isinstance(msg, P.SyncMsg):
            await table.sync(client)
        elif isinstance(msg, P.PingMsg):
            return {"type": "pong"} | ({"ref": ref} if ref is not None else {})
        elif isinstance(msg, P.ChatMsg):
            await chat.post(table, client.seat, "text", msg.text)
        elif isinstance(msg, P.ReactMsg):
            await chat.post(table, client.seat, "reaction", msg.reaction)
        elif isinstance(msg, P.Hello):
            conn.strike()
            return P.error("already_hello", ref=ref)
    except IllegalAction as exc:
        d = exc.to_dict()
        return P.error(d["code"], d["message"], d["params"], ref=ref)
    except Refused as exc:
        return P.error(exc.code, exc.message, {k: jsonable(v) for k, v in exc.params.items()}, ref=ref)
    except chat.ChatRefused as exc:
        return P.error(exc.code, exc.message, exc.params, ref=ref)
    return P.ack(ref) if ref is not None else None
