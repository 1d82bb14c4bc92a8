"""A live table: its seats and tokens, the game, the connected clients, bots and turn timers.

The table is the only place that changes a game. Every change runs under the
table's lock: the engine checks the action, the store commits it, and then
each client is sent the view and the events of its own seat (spectators: the
public ones). Bots — seat bots and stand-ins for absent players — are asked by
a per-table driver task and think in worker processes (`botpool.py`), off the
event loop and its GIL.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime as dt
import functools
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from ..bots import BUILTIN, bot_seed
from ..bots.levels import find_level, level_names
from ..codes import render
from ..dice import die_named, hands_for
from ..errors import IllegalAction
from ..events import Event, HandScored, TrickWon
from ..game import Action, Bid, Game, Phase, Roll
from ..rules import Rules
from .botpool import BotPool
from .chat import ChatRoom
from .clocks import DEFAULT_LEVEL, find_clock
from .protocol import WireEvents, dumps, name_key
from .settings import Settings
from .store import Store, StoredSeat, StoredTable, utcnow

if TYPE_CHECKING:

    from .cluster import Cluster

log = logging.getLogger("minodice.server")

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no look-alikes (0/O, 1/I/L)


class Refused(Exception):
    """A request the server turns down: a stable `code` (in `codes.SERVER_ERRORS`), its `params`, HTTP `status`.

    The English `message` is the registry's words for the code unless a more
    specific one is given.
    """

    def __init__(self, code: str, message: str | None = None, status: int = 409, **params: Any) -> None:
        if message is None:
            message = render(code, params)
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.params = params


def new_code() -> str:
    """A fresh 6-character table code."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))


def new_token() -> str:
    """A fresh secret token (32 URL-safe characters)."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """What the store keeps of a token: its SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


def check_bot(spec: object) -> str:
    """A bot name the web may choose (an honest built-in bot without options, or a level), or Refused.

    `cmd:` bots would run a program on the host and options could make a bot
    think for hours, so the web gets the plain built-in names only, and the
    levels (`bots.levels`: each a bot with the budget the server chose); a bot
    that cheats is refused with `cheating_bot`.
    """
    name = spec.strip() if isinstance(spec, str) else ""
    if name in BUILTIN and BUILTIN.info(name).cheats:
        raise Refused("cheating_bot", status=400, bot=name)
    if name not in BUILTIN and find_level(name) is None:
        shown = str(spec)[:40]
        known = ", ".join((*BUILTIN.honest(), *level_names()))
        raise Refused("bad_bot", f"unknown bot {shown!r}: choose one of {known}", 400, bot=shown)
    return name


class Client:
    """One websocket connection: its seat (None: a spectator) and its outbox."""

    MAX_QUEUE = 512

    def __init__(self) -> None:
        self.seat: int | None = None
        self.outbox: asyncio.Queue[dict[str, Any] | str | None] = asyncio.Queue()
        self.events_sent = 0
        self.closed = False

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue a message, or its JSON text already made (a client too slow to drain its queue is dropped)."""
        if self.closed:
            return
        if self.outbox.qsize() >= self.MAX_QUEUE:
            self.close()
            return
        self.outbox.put_nowait(message)

    def close(self) -> None:
        """Stop sending: the writer task ends and the socket closes."""
        if not self.closed:
            self.closed = True
            self.outbox.put_nowait(None)


class Hub:
    """What tables share: settings, the store, the bots' processes (`bots`) and `db` (runs a store call on
    the database thread)."""

    def __init__(
        self,
        settings: Settings,
        store: Store,
        db: Callable[..., Awaitable[Any]],
        append_action: Any = None,
        cluster: Cluster | None = None,
        bots: BotPool | None = None,
    ) -> None:
        self.settings = settings
        self.bots = bots if bots is not None else BotPool(settings.workers)
        #: Other server processes share the database (PostgreSQL): news goes through it (cluster.py).
        self.cluster = cluster
        self.store = store
        self.db = db
        #: `save_action(code, n, seat, kind, value, totals, notes)`: queues an action to store at once (with
        #: the final totals if it ended the game; `notes` for the other processes) and returns what to await
        #: for its commit: whether it was stored (False: another process stored action `n` first). The
        #: manager's group commit; else one transaction per action, in order.
        self.save_action: Callable[..., Awaitable[bool]] = (
            append_action.enqueue if append_action is not None else self._save_one
        )

    def _save_one(self, code: str, n: int, seat: int, kind: str, value: str,
                  totals: list[int] | None, notes: tuple[str, ...] = ()) -> Awaitable[bool]:
        async def save() -> bool:
            if self.store.shared:
                return not await self.db(self.store.commit_actions, [(code, n, seat, kind, value, totals, notes)])
            await self.db(self.store.append_action, code, n, seat, kind, value, totals)
            return True

        return asyncio.ensure_future(save())


class Table:
    """A table in memory, built from (and written through to) its stored form."""

    def __init__(self, stored: StoredTable, hub: Hub) -> None:
        self.code = stored.code
        self.status = stored.status
        self.seats = stored.seats
        self.rules = Rules.from_dict(stored.rules)
        self.seed = stored.seed
        self.first_start = stored.first_start
        self.host_hash = stored.host_hash
        self.host_seat = stored.host_seat
        self.players = stored.players
        self.rematch = stored.rematch
        self.rematch_of = stored.rematch_of
        self.hints = stored.hints
        #: The move clock (None: off) and the level whose bot plays a person's decision when their clock
        #: runs out, and stands in for an absent person (clocks.py).
        self.clock_speed = stored.clock
        self.clock = find_clock(stored.clock, hub.settings.clock_scale)
        self.level = stored.level or DEFAULT_LEVEL
        #: Per seat: the bank's seconds left (None: all of it); when its decision became visible (monotonic;
        #: None: it has none); the seats whose decision the level's bot makes (their clock ran out).
        self.bank: list[float | None] = [p.bank for p in stored.players]
        self.since: list[float | None] = [None] * stored.seats
        self.overtime: set[int] = set()
        #: No bot moves and no move clock runs before this (monotonic): a trick's result, a hand's summary.
        self.hold_until = 0.0
        self._saving: set[asyncio.Task[None]] = set()  # banks being stored
        #: The rematch (`rematch`) has started; False while it waits for its people to say they are ready.
        self.rematch_started = stored.rematch is not None
        self.created = stored.created
        self.updated = stored.updated
        self.hub = hub
        self.clients: set[Client] = set()
        self.conns = [0] * self.seats
        self.autoplay = [False] * self.seats
        self.waiting: list[float | None] = [None] * self.seats
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        self.driver: asyncio.Task[None] | None = None
        self.last_activity = time.monotonic()
        self.game: Game | None = None
        self.wire_events = WireEvents(self.rules)  # the events of `game` as sent (with why)
        self.n_actions = 0
        self.chat = ChatRoom(stored.chat)  # the table's chat and reactions (chat.py)
        # Shared with other processes (cluster.py): their sockets per seat, their spectators, whether
        # this process drives the bots and timers, the notes heard and not yet acted on.
        self.remote = [0] * self.seats
        self.remote_watchers = 0
        self.drives = False
        self._flags_changed = False
        # Actions applied and queued but not yet committed; set when there are none (`_apply`).
        self._unsaved = 0
        self._over_stored = False  # the action that ended the game also stored the table as over
        self.all_saved = asyncio.Event()
        self.all_saved.set()
        self._shown_upto = 0  # actions everyone has been sent (`_shown_to`)
        self._shown = asyncio.Event()
        self._news: set[str] = set()
        self._listening: asyncio.Task[None] | None = None
        self._share_flags(stored.players)
        if self.status in ("playing", "over"):
            self.game = self._replay(stored.actions)
            self._clock_turns()

    # --- building ---------------------------------------------------------------------

    def _new_game(self) -> Game:
        names = [p.name or f"Seat {p.seat + 1}" for p in self.players]
        self.wire_events = WireEvents(self.rules)
        return Game(self.seats, names=names, rules=self.rules, seed=int(self.seed), first_start=self.first_start)

    def _replay(self, actions: list[tuple[int, str, str]]) -> Game:
        """The game after replaying the stored actions (same seed: the same dice)."""
        game = self._new_game()
        for seat, kind, value in actions:
            game.apply(_action(seat, kind, value))
        self.n_actions = len(actions)
        return game

    # --- shared with other server processes (cluster.py) ----------------------------------

    def _share_flags(self, players: list[StoredSeat]) -> None:
        """Take the stored turn timers and stand-ins (only other processes store them)."""
        if self.hub.cluster is None:
            return
        now, wall = time.monotonic(), utcnow()
        for p in players:
            self.autoplay[p.seat] = p.autoplay
            self.bank[p.seat] = p.bank
            since = p.waiting_since
            self.waiting[p.seat] = None if since is None else now - (wall - since).total_seconds()

    def _flagged(self, p: StoredSeat) -> StoredSeat:
        """Seat `p` with this process's turn timer and stand-in flag, to store."""
        waiting = self.waiting[p.seat]
        since = None if waiting is None else utcnow() - dt.timedelta(seconds=time.monotonic() - waiting)
        return dataclasses.replace(p, autoplay=self.autoplay[p.seat], waiting_since=since)

    async def _share_presence(self, seat: int | None) -> None:
        """Tell the other processes how many sockets this one has at `seat` (None: spectators)."""
        cluster = self.hub.cluster
        if cluster is None:
            return
        n = sum(1 for c in self.clients if c.seat == seat)
        await self.hub.db(self.hub.store.set_presence, cluster.id, self.code, -1 if seat is None else seat, n,
                          self.note("p"))

    def heard(self, kind: str) -> None:
        """Another process changed this table (`a` actions, `t` lobby, `c` chat, `p` presence): catch up."""
        self._news.add(kind)
        if self._listening is None or self._listening.done():
            self._listening = asyncio.get_running_loop().create_task(self._catch_up_news(), name=f"news-{self.code}")

    async def _catch_up_news(self) -> None:
        while self._news:
            kinds, self._news = self._news, set()
            try:
                # Actions first: a game's end comes after its last action (and a start's replay reads all).
                if "a" in kinds:
                    await self.catch_up()
                if "t" in kinds:
                    async with self.lock:
                        await self._reload_lobby()
                if "c" in kinds:
                    await self._reload_chat()
                if "p" in kinds:
                    await self.reload_presence()
            except Exception:
                log.exception("table %s: catching up with another server process failed", self.code)

    async def catch_up(self) -> None:
        """Apply the actions other processes stored since this copy's last one, and show them."""
        if self.hub.cluster is None:
            return
        async with self.lock:
            if self.game is None:
                return
            if not await self._take_newer():
                return
            self._touch()
            self._ended()
            self.broadcast_state()
            self.wake.set()

    async def _take_newer(self) -> int:
        """Apply the actions other processes stored after this copy's last one (call with the lock held,
        a game on); how many."""
        assert self.game is not None
        newer = await self.hub.db(self.hub.store.actions_from, self.code, self.n_actions)
        for seat, kind, value in newer:
            before = len(self.game.events)
            self.game.apply(_action(seat, kind, value))
            self._after_action(seat, self.game.events[before:], charge=False)  # its process charged its clock
        self.n_actions += len(newer)
        return len(newer)

    def _rebuild(self, actions: list[tuple[int, str, str]]) -> None:
        """Replace the game by the replay of the whole stored log (another process stored actions first).

        What clients were sent stays a prefix of the new game's events: the action tried here
        was never sent to anyone.
        """
        self.game = self._replay(actions)
        self._clock_turns()

    def _ended(self) -> None:
        if self.game is not None and self.game.over and self.status == "playing":
            self.status = "over"

    async def _reload_lobby(self) -> None:
        """Read back what other processes changed in the lobby (call with the lock held)."""
        stored = await self.hub.db(self.hub.store.lobby, self.code)
        if stored is None:
            return
        was, had_rematch = self.status, self.rematch
        self.players, self.host_seat, self.rematch = stored.players, stored.host_seat, stored.rematch
        self._share_flags(stored.players)
        if was == "waiting" and stored.status == "playing":
            self.game = self._replay(await self.hub.db(self.hub.store.actions_from, self.code, 0))
            self.status = "playing"
            self._clock_turns()
            for c in self.clients:
                self._send_state(c, full=True)
            self.run()
        elif stored.status != was and stored.status in ("over", "expired"):
            newer = 0
            if stored.status == "over" and self.game is not None and not self.game.over:
                newer = await self._take_newer()
            self.status = stored.status
            if newer:
                self.broadcast_state()
        self._touch()
        if stored.rematch and not had_rematch:
            self.broadcast({"type": "rematch", "code": stored.rematch})
        self.broadcast_table()
        self.wake.set()

    async def reload_presence(self) -> None:
        """Read how many sockets the other live processes have here; a change shows, and wakes the timers."""
        cluster = self.hub.cluster
        if cluster is None:
            return
        from .cluster import ALIVE

        self.take_presence(await self.hub.db(self.hub.store.presence, self.code, cluster.id, ALIVE))

    def take_presence(self, counts: dict[int, int]) -> None:
        """The other live processes' sockets per seat here (-1: spectators): a change shows, and wakes the
        timers."""
        remote = [counts.get(s, 0) for s in range(self.seats)]
        watchers = counts.get(-1, 0)
        if remote != self.remote or watchers != self.remote_watchers:
            self.remote, self.remote_watchers = remote, watchers
            self.broadcast_table()
            self.wake.set()

    async def _reload_chat(self) -> None:
        """Show the chat messages other processes stored."""
        room = self.chat
        async with room.lock:
            last = room.history[-1].n if room.history else 0
            for message in await self.hub.db(self.hub.store.chat_after, self.code, last):
                room.add(message)
                room.next_n = max(room.next_n, message.n + 1)
                self.broadcast({"type": "chat", "message": message.to_dict()})

    def drive(self) -> None:
        """This process now holds the table's lock: drive its bots and timers."""
        self.drives = True
        self.run()

    async def stop_driving(self) -> None:
        """The lock is lost (its connection broke): stop the driver; another process takes over."""
        self.drives = False
        if self.driver is not None:
            self.driver.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.driver
        self.hub.bots.forget(self.code)

    # --- questions ---------------------------------------------------------------------

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token belongs to, or None."""
        if not token:
            return None
        digest = token_hash(token)
        for p in self.players:
            if p.token_hash and hmac.compare_digest(p.token_hash, digest):
                return p.seat
        return None

    def is_host(self, token: str | None) -> bool:
        """Whether a token carries the host's rights (the host token or the host's seat token)."""
        if not token:
            return False
        if hmac.compare_digest(self.host_hash, token_hash(token)):
            return True
        seat = self.seat_of(token)
        return seat is not None and seat == self.host_seat

    def bot_played(self, seat: int) -> bool:
        """Whether a bot plays `seat` now (a bot seat, a stand-in for an absent player, or the level's bot
        making the decision of a person whose clock ran out)."""
        return self.players[seat].kind == "bot" or self.autoplay[seat] or seat in self.overtime

    def connected(self, seat: int) -> bool:
        """Whether the person of `seat` has a socket open (here or on another server process)."""
        return self.conns[seat] + self.remote[seat] > 0

    def watched_elsewhere(self) -> bool:
        """Whether another server process has a socket open at this table."""
        return self.remote_watchers > 0 or any(self.remote)

    def driven_here(self) -> bool:
        """Whether this process drives the table's bots and timers (always, unless other processes share it)."""
        return self.hub.cluster is None or self.drives

    def note(self, kind: str) -> str | None:
        """The note telling other server processes this table's `kind` of news changed (None: no others)."""
        return self.hub.cluster.note(kind, self.code) if self.hub.cluster is not None else None

    def to_act(self) -> list[int]:
        """The seats the game waits for."""
        return self.game.to_act() if self.game is not None and self.status == "playing" else []

    def info(self) -> dict[str, Any]:
        """The public TABLE object of the protocol (no token, no seed, no hidden dice)."""
        now = time.monotonic()
        timeout = self.hub.settings.turn_timeout
        players = []
        for p in self.players:
            waiting = self.waiting[p.seat]
            bank, clock_in = self._clock_of(p.seat, now)
            players.append({
                "seat": p.seat,
                "name": p.name,
                "kind": p.kind,
                "bot": p.bot if p.kind == "bot" else None,
                # A person holds this seat's token: a bot plays it for them (handed over by
                # the host) until they take it back, and a rematch seats them again.
                "person": p.token_hash is not None,
                # The name is the one the server gave the bot ("Greedy 3"): clients may say it
                # in the reader's language.
                "auto_name": p.kind == "bot" and p.bot is not None and p.name == bot_name(p.bot, p.seat),
                "connected": p.kind == "bot" or self.connected(p.seat),
                "autoplay": self.autoplay[p.seat],
                "muted": p.muted,  # the host muted this seat's chat (chat.py)
                "autoplay_in": None if waiting is None or self.autoplay[p.seat]
                else round(max(0.0, waiting + timeout - now), 1),
                # The move clock (clocks.py): the bank's seconds left, and the seconds before the level's
                # bot makes the seat's decision (None: no clock runs for it now).
                "bank": bank,
                "clock_in": clock_in,
                "out_of_time": p.seat in self.overtime,
                "ready": p.ready,  # its person asked for the rematch (a finished table)
            })
        return {
            "code": self.code,
            "status": self.status,
            "seats": self.seats,
            "rules": self.rules.to_dict(),
            "hints": self.hints,
            "clock": self.clock.to_dict() if self.clock is not None else None,
            "level": self.level,
            "players": players,
            "host_seat": self.host_seat,
            "hand": self.game.hand if self.game is not None else 0,
            "hands": hands_for(self.seats),
            "to_act": self.to_act(),
            "rematch": self.rematch,
            "rematch_started": self.rematch_started if self.rematch is not None else False,
            "rematch_of": self.rematch_of,
            "created": _iso(self.created),
            "updated": _iso(self.updated),
        }

    # --- lobby ------------------------------------------------------------------------

    async def join(self, name: str, seat: int | None) -> tuple[int, str]:
        """Sit a person in an open seat; their secret token."""
        async with self.lock:
            if self.status != "waiting":
                raise Refused("already_started", status=409)
            open_seats = self._open_seats()
            if seat is None:
                if not open_seats:
                    raise Refused("table_full", status=409)
                seat = open_seats[0]
            elif not 0 <= seat < self.seats:
                raise Refused("bad_seat", f"this table has seats 0 to {self.seats - 1}", 400, seat=seat)
            elif seat not in open_seats:
                raise Refused("seat_taken", f"seat {seat} is taken", 409, seat=seat)
            token = new_token()
            p = self.players[seat]
            taken = StoredSeat(seat, "human", self._unique(name), None, token_hash(token))
            # `was`: another server process may have seated someone there meanwhile.
            if not await self.hub.db(self.hub.store.save_seat, self.code, taken, was="open", note=self.note("t")):
                await self._reload_lobby()
                raise Refused("seat_taken", f"seat {seat} is taken", 409, seat=seat)
            p.kind, p.name, p.bot, p.token_hash = taken.kind, taken.name, None, taken.token_hash
            self._touch()
            self.broadcast_table()
            return seat, token

    def _unique(self, name: str) -> str:
        """`name`, or `name (2)`, `name (3)`...: no two seats' names compare equal (`name_key`: "ana" is "Ana")."""
        taken = {name_key(p.name) for p in self.players if p.kind != "open" and p.name is not None}
        if name_key(name) not in taken:
            return name
        k = 2
        while name_key(f"{name} ({k})") in taken:
            k += 1
        return f"{name} ({k})"

    async def seat_to_bot(self, seat: int, bot: str | None) -> None:
        """The host hands a seat to a bot (an open seat, or a person's seat at any time); None: the
        table's level."""
        bot = check_bot(self.level if bot is None else bot)
        async with self.lock:
            if self.status not in ("waiting", "playing"):
                raise Refused("not_open", status=409)
            if not 0 <= seat < self.seats:
                raise Refused("bad_seat", f"this table has seats 0 to {self.seats - 1}", 400, seat=seat)
            p = self.players[seat]
            if p.kind == "bot":
                raise Refused("already_bot", f"a bot already plays seat {seat}", 409, seat=seat)
            p.kind, p.bot = "bot", bot
            if p.name is None:
                p.name = self._unique(bot_name(bot, seat))
            self.autoplay[seat] = False
            self.waiting[seat] = None
            self.overtime.discard(seat)
            await self.hub.db(self.hub.store.save_seat, self.code, self._flagged(p), note=self.note("t"))
            self._touch()
            self.broadcast_table()
            self.wake.set()

    async def reclaim(self, seat: int) -> None:
        """A person takes back the seat the host handed to a bot while they were away."""
        async with self.lock:
            if self.status not in ("waiting", "playing"):
                raise Refused("not_open", status=409)
            p = self.players[seat]
            if p.kind != "bot" or p.token_hash is None:
                raise Refused("not_handed_over", status=409)
            p.kind, p.bot = "human", None
            self.autoplay[seat] = False
            self.waiting[seat] = None
            if self.since[seat] is not None:  # the decision waiting for them: its clock starts now
                self.since[seat] = max(time.monotonic(), self.hold_until)
            await self.hub.db(self.hub.store.save_seat, self.code, self._flagged(p), note=self.note("t"))
            await self.all_saved.wait()
            self._touch()
            self.broadcast_table()
            for c in self.clients:
                if c.seat == seat and self.game is not None:
                    self._send_state(c, full=True)  # its legal moves are back
            self.wake.set()

    def _open_seats(self) -> list[int]:
        """The seats nobody has taken yet."""
        return [p.seat for p in self.players if p.kind == "open"]

    async def start(self) -> None:
        """Start the game (every seat must be taken; in a cluster, as the database says, not as the news
        that has reached this process so far)."""
        async with self.lock:
            if self.status == "waiting" and self.hub.cluster is not None and self._open_seats():
                await self._reload_lobby()  # a join on another process: its news may still be on its way
            if self.status != "waiting":
                raise Refused("already_started", status=409)
            open_seats = self._open_seats()
            if open_seats:
                raise Refused(
                    "not_full", f"seats {open_seats} are still open: wait for players or give them to bots",
                    409, open=open_seats,
                )
            # `was`: another server process may have started it meanwhile.
            if not await self.hub.db(self.hub.store.set_status, self.code, "playing", was="waiting", note=self.note("t")):
                await self._reload_lobby()
                raise Refused("already_started", status=409)
            self.game = self._new_game()
            self.n_actions = 0
            self.status = "playing"
            self._clock_turns()
            self._touch()
            self.broadcast_table()
            for c in self.clients:
                self._send_state(c, full=True)
            self.run()

    # --- clients ----------------------------------------------------------------------

    async def connect(self, client: Client, token: str | None, ref: str | int | None = None) -> None:
        """Seat a new connection (a token's seat; None: a spectator) and send it everything.

        Any token that is not a seat's, the empty one included, is Refused (`bad_token`); the
        `welcome` carries `ref`, the id of the `hello`, when it had one.
        """
        async with self.lock:
            seat = None
            if token is not None:
                seat = self.seat_of(token)
                if seat is None:
                    raise Refused("bad_token", status=401)
            await self.all_saved.wait()  # show no action before it is committed
            client.seat = seat
            self.clients.add(client)
            back = False
            if seat is not None:
                self.conns[seat] += 1
                back = self.autoplay[seat] or self.waiting[seat] is not None
                self.autoplay[seat] = False
                self.waiting[seat] = None
            self._touch()
            welcome = {"type": "welcome", "seat": seat, "spectator": seat is None, "table": self.info()}
            client.send(welcome | ({"ref": ref} if ref is not None else {}))
            if self.game is not None:
                self._send_state(client, full=True)
            client.send(self.chat.history_frame())
            self.broadcast_table(skip=client)
            self.wake.set()
            if self.hub.cluster is not None:  # the other processes (and the one driving) hear it
                if seat is not None and back:
                    await self.hub.db(self.hub.store.save_flags, self.code, [self._flagged(self.players[seat])],
                                      self.note("t"))
                await self._share_presence(seat)

    async def disconnect(self, client: Client) -> None:
        """Forget a connection (its seat's turn timer may start)."""
        async with self.lock:
            if client not in self.clients:
                return
            self.clients.discard(client)
            if client.seat is not None:
                self.conns[client.seat] -= 1
            await self._share_presence(client.seat)
            self._touch()
            self.broadcast_table()
            self.wake.set()

    async def sync(self, client: Client) -> None:
        """Send a client the full state again."""
        async with self.lock:
            await self.all_saved.wait()
            if self.game is None:
                client.send({"type": "table", "table": self.info()})
            else:
                self._send_state(client, full=True)
            client.send(self.chat.history_frame())

    # --- acting -----------------------------------------------------------------------

    async def act(self, seat: int | None, kind: str, value: Any, claimed: int | None = None) -> None:
        """A person's bid or roll, checked by the engine; raises Refused or IllegalAction."""
        if seat is None:
            raise Refused("spectator", status=403)
        if claimed is not None and claimed != seat:
            raise Refused(
                "not_your_seat", f"you sit in seat {seat}; you cannot act for seat {claimed}", 403,
                seat=seat, claimed=claimed,
            )
        if self.status == "waiting":
            raise Refused("not_started", status=409)
        if self.players[seat].kind == "bot":
            raise Refused("bot_seat", status=409, seat=seat)
        if kind == "roll":
            die = die_named(value)
            if die is None:
                raise IllegalAction("unknown_die", f"{value!r} is not a die", die=str(value))
            action: Bid | Roll = Roll(seat, die)
        else:
            action = Bid(seat, value)
        await self._apply(action)

    async def _apply(self, action: Bid | Roll, marker: tuple[Any, ...] | None = None) -> bool:
        """Apply, store, broadcast. With `marker` (a bot's), skip if the game moved meanwhile.

        The table's lock is held while the engine applies the action and the action joins the
        write queue, not while it commits: the next action (another seat's bid, a bot's move) may
        be applied meanwhile and commit in the same transaction. Nothing is shown before everything
        applied so far is committed (`_show_saved`), so nobody sees an action the database might not
        have. Sharing the database with other processes, the lock is held through the commit.
        """
        async with self.lock:
            game = self.game
            if game is None or self.status != "playing":
                if marker is not None:
                    return False
                raise IllegalAction("game_over", "the game is over")
            if marker is not None and (marker != self._marker() or not self.bot_played(action.seat)):
                return False
            before = len(game.events)
            game.apply(action)
            self._after_action(action.seat, game.events[before:])
            if self.hub.cluster is not None:
                return await self._commit_shared(action, marker)
            n = self.n_actions
            self.n_actions += 1
            kind, value = _stored(action)
            # The action that ends the game marks the table over in its own transaction.
            totals = list(game.totals) if game.over else None
            self._over_stored = self._over_stored or totals is not None
            saved = self.hub.save_action(self.code, n, action.seat, kind, value, totals)
            self._unsaved += 1
            self.all_saved.clear()
        try:
            await saved
        except BaseException:
            self._unsaved -= 1
            if self._unsaved == 0:
                self.all_saved.set()
                self._shown_to(self.n_actions)  # nobody waits for a broadcast that will not come
            raise
        self._unsaved -= 1
        self._touch()
        if self._unsaved == 0:
            self.all_saved.set()
            await self._show_saved()
        # The sender's answer (`ack`) comes after the state showing its action, as the protocol says.
        while self._shown_upto <= n:
            await self._shown.wait()
        return True

    def _shown_to(self, n_actions: int) -> None:
        """Everyone has been sent the game up to `n_actions` actions: wake the `_apply`s waiting for it."""
        self._shown_upto = n_actions
        shown, self._shown = self._shown, asyncio.Event()
        shown.set()

    async def _show_saved(self) -> None:
        """Everything applied is committed: end the game if it is over and send everyone what is new."""
        game = self.game
        assert game is not None
        if game.over and self.status == "playing":
            self.status = "over"
            self.hub.bots.forget(self.code)
            if not self._over_stored:
                await self.hub.db(self.hub.store.set_status, self.code, "over", totals=list(game.totals),
                                  note=self.note("t"))
        self.broadcast_state()
        self._shown_to(self.n_actions)
        self.wake.set()

    async def _commit_shared(self, action: Bid | Roll, marker: tuple[Any, ...] | None) -> bool:
        """Commit an applied action through PostgreSQL (call with the table's lock held: one action of a
        table waits at a time), in the group commit with the other tables' (`Store.commit_actions`): if
        another process stored this action's number first, rebuild, show its actions, and try again."""
        kind, value = _stored(action)
        while True:
            game = self.game
            assert game is not None
            # The action that ends the game marks the table over in its own transaction.
            totals = list(game.totals) if game.over else None
            notes = tuple(n for n in (self.note("a"), self.note("t") if totals is not None else None) if n)
            if await self.hub.save_action(self.code, self.n_actions, action.seat, kind, value, totals, notes):
                self._over_stored = self._over_stored or totals is not None
                break
            # The action may no longer be legal: its sender hears why.
            self._rebuild(await self.hub.db(self.hub.store.actions_from, self.code, 0))
            self.broadcast_state()
            game = self.game
            assert game is not None
            self._ended()
            if marker is not None and (game.over or marker != self._marker() or not self.bot_played(action.seat)):
                return False
            if game.over:
                raise IllegalAction("game_over", "the game is over")
            before = len(game.events)
            game.apply(action)
            self._after_action(action.seat, game.events[before:])
        self.n_actions += 1
        self._touch()
        await self._show_saved()
        return True

    def _marker(self) -> tuple[Any, ...]:
        """What a bot's decision depends on (bids of others do not change its choices)."""
        g = self.game
        assert g is not None
        rolls = sum(len(t.rolls) for t in g.current.tricks) if g.current is not None else 0
        return (g.hand, g.phase, rolls)

    # --- sending ----------------------------------------------------------------------

    def _state(self, client: Client, full: bool, views: dict[int | None, str], table: str, to_act: str) -> str:
        """`client`'s `state` frame as JSON text: its seat's view and the events it has not seen (all when
        `full`), joined from pieces serialised once per audience — `views` (by seat, filled as needed), the
        TABLE and `to_act`. Call `wire_events.update` first."""
        game = self.game
        assert game is not None
        seat = client.seat
        start = 0 if full else client.events_sent
        view = views.get(seat)
        if view is None:
            view = views[seat] = self.wire_events.view_text(game.observe(seat))
        events = self.wire_events.on_wire_text(game.events_for(seat, start), start)
        client.events_sent = len(game.events)
        return (
            f'{{"type":"state","full":{_json(full)},"status":{_json(self.status)},"view":{view},'
            f'"events":{events},"events_from":{start},"to_act":{to_act},"table":{table}}}'
        )

    def _send_state(self, client: Client, full: bool) -> None:
        game = self.game
        assert game is not None
        self.wire_events.update(game.events)
        client.send(self._state(client, full, {}, _json(self.info()), _json(self.to_act())))

    def broadcast_state(self) -> None:
        """Send every client its own seat's view and the events it has not seen.

        Serialised once per audience: the TABLE once, each seat's view once, each event the seats
        share once per game, each (seat, first event) frame once.
        """
        game = self.game
        assert game is not None
        self.wire_events.update(game.events)
        table = _json(self.info())
        to_act = _json(self.to_act())
        views: dict[int | None, str] = {}
        frames: dict[tuple[int | None, int], str] = {}
        for c in list(self.clients):
            key = (c.seat, c.events_sent)
            frame = frames.get(key)
            if frame is None:
                frame = frames[key] = self._state(c, False, views, table, to_act)
            c.events_sent = len(game.events)
            c.send(frame)

    def broadcast_table(self, skip: Client | None = None) -> None:
        """Tell every client the lobby changed."""
        if self.clients:
            self.broadcast({"type": "table", "table": self.info()}, skip)

    def broadcast(self, message: dict[str, Any], skip: Client | None = None) -> None:
        """Send one public message to every client (but `skip`), serialised once."""
        text = _json(message)
        for c in list(self.clients):
            if c is not skip:
                c.send(text)

    def _touch(self) -> None:
        self.last_activity = time.monotonic()
        self.updated = utcnow()

    # --- bots and timers --------------------------------------------------------------

    def run(self) -> None:
        """Start the driver task (bots and turn timers) if the game is on — and, with other server
        processes on the database, if this one holds the table's lock (else it asks to look for one)."""
        if self.hub.cluster is not None and not self.drives:
            self.hub.cluster.wake()
            return
        if self.status == "playing" and (self.driver is None or self.driver.done()):
            self.driver = asyncio.get_running_loop().create_task(self._drive(), name=f"table-{self.code}")

    async def stop(self) -> None:
        """Cancel the driver, let go of the bots and close every client."""
        if self.driver is not None:
            self.driver.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.driver
        self.hub.bots.forget(self.code)
        for c in list(self.clients):
            c.close()

    def _bot_turns(self) -> list[int]:
        """The bot-played seats the game waits for: all the bots still to bid (they bid at once: the bids
        stay hidden until all are in), or the one bot to roll."""
        seats = [seat for seat in self.to_act() if self.bot_played(seat)]
        game = self.game
        return seats if game is not None and game.phase is Phase.BID else seats[:1]

    # --- pauses and move clocks (clocks.py) -------------------------------------------

    def _after_action(self, seat: int, new: list[Event], charge: bool = True) -> None:
        """An action of `seat` was applied (its `new` events): hold the bots (and the clocks) while its
        trick's result and its hand's summary are shown, charge `seat`'s clock (unless another server
        process took the action: it did), start the clocks of the decisions that are now waited for."""
        settings = self.hub.settings
        game = self.game
        now = time.monotonic()
        pause = 0.0
        for event in new:
            if isinstance(event, TrickWon):
                pause = max(pause, settings.trick_pause)
            elif isinstance(event, HandScored) and game is not None and not game.over:
                pause = max(pause, settings.trick_pause + settings.hand_pause)
        if pause > 0:
            self.hold_until = max(self.hold_until, now + pause)
        if charge:
            self._charge(seat, now)
        else:
            self.since[seat] = None
            self.overtime.discard(seat)
        self._clock_turns(now)

    def _bank_left(self, seat: int) -> float:
        """The seconds in `seat`'s bank (before the decision under way); 0 without a clock."""
        if self.clock is None:
            return 0.0
        bank = self.bank[seat]
        return self.clock.bank if bank is None else bank

    def _charge(self, seat: int, now: float) -> None:
        """`seat` made its decision (or the level's bot did): its time past the free seconds comes out of
        its bank (all of it when the clock ran out); a changed bank is stored."""
        since, self.since[seat] = self.since[seat], None
        timed_out = seat in self.overtime
        self.overtime.discard(seat)
        if self.clock is None or since is None or self.players[seat].kind != "human":
            return
        over = now - since - self.clock.move
        left = self._bank_left(seat)
        bank = 0.0 if timed_out else max(0.0, left - over) if over > 0 else left
        if bank != left:
            self.bank[seat] = round(bank, 3)
            self._save_bank(seat)

    def _save_bank(self, seat: int) -> None:
        """Store `seat`'s bank (on the database thread, in order with the rest; a failure is logged)."""
        bank = self.bank[seat]

        async def save() -> None:
            try:
                await self.hub.db(self.hub.store.save_bank, self.code, seat, bank, self.note("t"))
            except Exception:
                log.exception("table %s: storing the clock of seat %d failed", self.code, seat)

        task = asyncio.get_running_loop().create_task(save())
        self._saving.add(task)
        task.add_done_callback(self._saving.discard)

    def _clock_turns(self, now: float | None = None) -> None:
        """Start the clock of each decision now waited for (once the pause is over); forget the others."""
        now = time.monotonic() if now is None else now
        acting = set(self.to_act())
        for seat in range(self.seats):
            if seat not in acting:
                self.since[seat] = None
                self.overtime.discard(seat)
            elif self.since[seat] is None:
                self.since[seat] = max(now, self.hold_until)

    def _clock_of(self, seat: int, now: float) -> tuple[float | None, float | None]:
        """A person's clock as the TABLE shows it: the bank's seconds left and the seconds before the
        level's bot makes the seat's decision (None when no clock runs for it); (None, None) without a clock."""
        if self.clock is None or self.players[seat].kind != "human":
            return None, None
        bank = self._bank_left(seat)
        since = self.since[seat]
        if since is None or self.autoplay[seat] or seat in self.overtime:
            return round(bank, 1), None
        used = max(0.0, now - since - self.clock.move)
        return round(max(0.0, bank - used), 1), round(max(0.0, since + self.clock.move + bank - now), 1)

    def _timers(self) -> float | None:
        """Start/stop absent players' turn timers; hand timed-out seats to stand-ins.

        Returns the seconds until the next timer runs out (None: no timer runs).
        """
        now = time.monotonic()
        timeout = self.hub.settings.turn_timeout
        acting = set(self.to_act())
        changed = False
        nearest: float | None = None
        for p in self.players:
            s = p.seat
            if p.kind != "human" or self.autoplay[s]:
                continue
            if not self.connected(s) and s in acting:
                since = self.waiting[s]
                if since is None:
                    since = self.waiting[s] = now
                    changed = True
                left = since + timeout - now
                if left <= 0:
                    self.autoplay[s] = True
                    self.waiting[s] = None
                    changed = True
                    log.info("table %s: the %s bot stands in for seat %d", self.code, self.level, s)
                else:
                    nearest = left if nearest is None else min(nearest, left)
            elif self.waiting[s] is not None:
                self.waiting[s] = None
                changed = True
        if self.clock is not None:
            for s in acting:
                since = self.since[s]
                if self.players[s].kind != "human" or self.autoplay[s] or s in self.overtime or since is None:
                    continue
                left = since + self.clock.move + self._bank_left(s) - now
                if left <= 0:
                    self.overtime.add(s)  # the level's bot makes this one decision; the person stays
                    changed = True
                    log.info("table %s: seat %d ran out of time: the %s bot decides", self.code, s, self.level)
                else:
                    nearest = left if nearest is None else min(nearest, left)
        if changed:
            self.broadcast_table()
            if self.hub.cluster is not None:
                self._flags_changed = True
        return nearest

    def _bot_spec(self, seat: int) -> str:
        """The bot (or level) playing `seat` now: its own, or the table's level for a person (absent, or out
        of time)."""
        spec = self.players[seat].bot if self.players[seat].kind == "bot" else self.level
        return spec or self.hub.settings.stand_in

    async def _drive(self) -> None:
        """Let bots act whenever the game waits for a bot-played seat; run the turn timers and move clocks."""
        delay = self.hub.settings.bot_delay
        try:
            while self.status == "playing":
                self.wake.clear()
                wait = self._timers()
                if self._flags_changed:  # the other processes show the timers and stand-ins too
                    self._flags_changed = False
                    flags = [self._flagged(p) for p in self.players]
                    await self.hub.db(self.hub.store.save_flags, self.code, flags, self.note("t"))
                seats = self._bot_turns()
                if not seats:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self.wake.wait(), wait)
                    continue
                # The move comes `delay` after the bot was asked, however long it thought (unless
                # longer): a forced roll and a searched one take the same time, so the clock tells
                # nobody whether the bot had a choice. Never before the pause that shows a trick's
                # result (and a hand's summary) is over.
                due = max(time.monotonic() + delay, self.hold_until)
                game = self.game
                assert game is not None
                marker = self._marker()
                what = "bid" if game.phase is Phase.BID else "roll"
                specs = [self._bot_spec(seat) for seat in seats]
                answers = await asyncio.gather(*(
                    self.hub.bots.decide(self.code, seat, spec, bot_seed(self.seed, seat) + f":{spec}",
                                         game.setup_view(seat), game.observe(seat), what)
                    for seat, spec in zip(seats, specs, strict=True)
                ))
                if due > time.monotonic():
                    await asyncio.sleep(due - time.monotonic())
                for seat, answer in zip(seats, answers, strict=True):
                    if self.status != "playing" or seat not in self.to_act() or not self.bot_played(seat):
                        continue
                    action: Bid | Roll = Bid(seat, answer) if what == "bid" else Roll(seat, answer)
                    try:
                        await self._apply(action, marker)
                    except IllegalAction as exc:  # cannot happen for a legal answer; never stop the table
                        log.warning("table %s: bot action refused: %s", self.code, exc.code)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the driver failed", self.code)


def _json(value: Any) -> str:
    """`value` as the compact JSON the websocket sends (`protocol.dumps`)."""
    return dumps(value)


def bot_name(bot: str, seat: int) -> str:
    """The name a bot seat gets at the table."""
    return f"{bot.capitalize()} {seat + 1}"


def _stored(action: Bid | Roll) -> tuple[str, str]:
    """How the store keeps an action: its kind and value (`_action` reads them back)."""
    return ("bid", str(action.bid)) if isinstance(action, Bid) else ("roll", action.die.value)


def _action(seat: int, kind: str, value: str) -> Action:
    """A stored action back as an engine action."""
    if kind == "bid":
        return Bid(seat, int(value))
    die = die_named(value)
    if die is None:
        raise ValueError(f"stored roll of an unknown die {value!r}")
    return Roll(seat, die)


def _iso(value: dt.datetime | None) -> str | None:
    """A timestamp as ISO 8601 UTC (`2025-01-01T12:00:00Z`), cut to the second.

    Every frame carries two (`created`, `updated`): formatted once per second of time.
    """
    return _iso_second(int(value.timestamp() // 1)) if value else None


@functools.lru_cache(maxsize=1024)
def _iso_second(second: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(second))


def seat_template(seats: int, bots: list[str | None] | None) -> list[StoredSeat]:
    """The seats of a new table: open seats and bots (names given to bots at once)."""
    bots = list(bots) if bots is not None else [None] * seats
    if len(bots) != seats:
        raise Refused("bad_bots", status=400, seats=seats, got=len(bots))
    out = []
    for s, b in enumerate(bots):
        if b is None:
            out.append(StoredSeat(s, "open"))
        else:
            name = check_bot(b)
            out.append(StoredSeat(s, "bot", bot_name(name, s), name))
    return out
