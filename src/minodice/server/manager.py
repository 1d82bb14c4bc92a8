"""The lobby: every table in memory, created, found, resumed, rematched and expired.

At start-up the manager rebuilds every waiting or playing table from the store
(replaying its actions through the engine), so a server killed mid-game and
started again on the same database resumes each table where it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..bots.levels import find_level, level_names
from ..rules import RuleError, Rules
from .botpool import BotPool
from .clocks import CLOCKS, DEFAULT_LEVEL
from .cluster import Cluster
from .hints import Hints
from .reviews import Reviews
from .settings import Settings
from .store import SeedKeyError, SharedAction, Store, StoredSeat, StoredTable
from .tables import Hub, Refused, Table, new_code, new_token, seat_template, token_hash

log = logging.getLogger("minodice.server")


class ActionWriter:
    """Group commit: the actions that arrive while the database thread writes go in its next transaction.

    An action's future is done once the transaction holding it is committed: an action is
    *acknowledged* (its result sent to anyone, its `ack` to its sender) only after that, so a
    server killed at any moment has lost no acknowledged action. Actions are written in the
    order they were queued, so each table's order is kept.

    On a database shared by several processes (PostgreSQL, `Store.shared`) the batch goes through
    `Store.commit_actions`: an action whose number another process stored first is refused, and its
    future says False (the table catches up and tries again); its notes go out in one notification.
    """

    def __init__(self, store: Store, db: Callable[..., Awaitable[Any]]) -> None:
        self.store, self.db = store, db
        self.shared = store.shared
        self.pending: list[tuple[SharedAction, asyncio.Future[bool]]] = []
        self.writing = False

    def enqueue(self, code: str, n: int, seat: int, kind: str, value: str,
                totals: list[int] | None = None, notes: tuple[str, ...] = ()) -> asyncio.Future[bool]:
        """Queue one action (in the order of the calls) — with the final `totals` if it ended the game:
        the table is marked over in the same transaction; `notes` go to the other processes if it is
        stored. The future is done when it is committed: True, or False if another process stored an
        action `n` of the table first (shared databases only); or it holds what the commit raised."""
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.pending.append(((code, n, seat, kind, value, totals, notes), done))
        if not self.writing:
            self.writing = True
            asyncio.get_running_loop().create_task(self._write())
        return done

    async def append(self, code: str, n: int, seat: int, kind: str, value: str,
                     totals: list[int] | None = None) -> bool:
        """Store one action; returns when it is committed (raises what the commit raised): whether it was."""
        return await self.enqueue(code, n, seat, kind, value, totals)

    async def _write(self) -> None:
        try:
            while self.pending:
                batch, self.pending = self.pending, []
                rows = [row for row, _ in batch]
                try:
                    if self.shared:
                        refused = await self.db(self.store.commit_actions, rows)
                    else:
                        refused = set()
                        await self.db(self.store.append_actions, [row[:5] for row in rows],
                                      [(row[0], row[5]) for row in rows if row[5] is not None])
                except Exception as exc:  # each waiting action's table hears it
                    for _, done in batch:
                        done.set_exception(exc)
                else:
                    for row, done in batch:
                        done.set_result((row[0], row[1]) not in refused)
        finally:
            self.writing = False


class TableManager:
    """Owns the tables, the store, the bot pool and the database thread."""

    def __init__(self, settings: Settings, store: Store | None = None) -> None:
        self.settings = settings
        self.store = store if store is not None else Store(settings.db, settings.secret_file, need_key=True)
        #: With PostgreSQL, other server processes may share the database (cluster.py).
        self.cluster = Cluster(self) if self.store.shared else None
        # One thread keeps a SQLite file's writes in order; PostgreSQL's row locks order each table's.
        threads = 4 if self.cluster is not None else 1
        self._db_thread = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="minodice-db")
        self._hint_threads = ThreadPoolExecutor(max_workers=max(1, settings.workers), thread_name_prefix="minodice-hint")
        self.bots = BotPool(settings.workers)
        self.hub = Hub(settings, self.store, self.db, ActionWriter(self.store, self.db), self.cluster,
                       self.bots)
        self.tables: dict[str, Table] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._checkpoints: asyncio.Task[None] | None = None
        self._checkpoint_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="minodice-checkpoint")
        #: Analyses of finished games (the replay page), in a worker process.
        self.reviews = Reviews(settings.review_bot)
        #: Seated players' hints: the bid advisor in threads of its own, the roll hint in `bots`.
        self.hints = Hints(self._hint_threads, self.bots)

    async def db(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        """Run a store call on the database thread (in order, off the event loop)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db_thread, functools.partial(fn, *args, **kwargs))

    # --- life cycle -------------------------------------------------------------------

    async def startup(self) -> None:
        """Resume every waiting and playing table from the store; start the expiry sweeper.

        Sharing the database with other processes, resume none: each process claims the tables
        nobody drives (`cluster.py`) and loads the others when someone asks for them.
        """
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep(), name="minodice-sweeper")
        if self.store.url.startswith("sqlite"):
            self.store.checkpoint_apart()
            self._checkpoints = asyncio.get_running_loop().create_task(self._checkpoint(), name="minodice-checkpoint")
        if self.cluster is not None:
            await self.cluster.start()
            return
        stored = await self.db(self.store.load_status, "waiting", "playing")
        for st in stored:
            try:
                table = Table(st, self.hub)
            except Exception:
                log.exception("table %s cannot be rebuilt; skipped", st.code)
                continue
            self.tables[st.code] = table
            table.run()
        if stored:
            log.info("resumed %d tables", len(self.tables))

    async def shutdown(self) -> None:
        """Stop drivers and sweeper, close clients, release the pools and the store."""
        for task in (self._sweeper, self._checkpoints):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        if self.cluster is not None:
            await self.cluster.stop()
        for table in list(self.tables.values()):
            await table.stop()
        self._hint_threads.shutdown(wait=False, cancel_futures=True)
        self.bots.close()
        self.reviews.close()
        self._db_thread.shutdown(wait=True)
        self._checkpoint_thread.shutdown(wait=True)
        with contextlib.suppress(Exception):
            self.store.checkpoint()
        self.store.close()

    # --- lobby ------------------------------------------------------------------------

    async def create(
        self, seats: int, bots: list[str | None] | None, rules: dict[str, str], name: str | None,
        hints: bool = True, clock: str = "off", level: str | None = None, seed: int | None = None,
    ) -> tuple[Table, str, int | None, str | None]:
        """A new table: (table, host token, the creator's seat, the creator's seat token).

        `seed`: the dice's seed, secret and random (None) for every table but the tutorial's (tutorial.py),
        whose seed is public and fixed so that its first hands show the lessons.

        `clock`: the move clock's speed (`clocks.CLOCKS`); `level`: the level whose bot decides for a
        person out of time or away (None: the level of the first seat a level's bot plays, else medium).
        """
        if clock not in CLOCKS:
            shown = str(clock)[:40]
            raise Refused("bad_clock", f"unknown clock {shown!r}: choose one of {', '.join(CLOCKS)}", 400, clock=shown)
        if level is not None and find_level(level) is None:
            shown = str(level)[:40]
            raise Refused("bad_level", f"unknown level {shown!r}: choose one of {', '.join(level_names())}", 400,
                          level=shown)
        players = seat_template(seats, bots)
        if level is None:
            level = next((p.bot for p in players if p.bot is not None and find_level(p.bot) is not None), DEFAULT_LEVEL)
        try:
            chosen = Rules.from_dict(rules)
        except (RuleError, TypeError) as exc:
            raise Refused("bad_rules", str(exc), 400) from None
        unknown = sorted(set(rules) - set(chosen.to_dict()))
        if unknown:
            raise Refused("bad_rules", f"unknown rule options: {', '.join(unknown)}", 400)
        host = new_token()
        seat: int | None = None
        token: str | None = None
        if name is not None:
            open_seats = [p.seat for p in players if p.kind == "open"]
            if not open_seats:
                raise Refused("table_full", "every seat is a bot: leave out 'name' to only watch", 400)
            seat, token = open_seats[0], new_token()
            players[seat] = StoredSeat(seat, "human", name, None, token_hash(token))
        stored = StoredTable(
            code=await self._free_code(), status="waiting", seats=seats, rules=chosen.to_dict(),
            seed=str(secrets.randbits(63) if seed is None else seed), first_start=0, host_hash=token_hash(host),
            host_seat=seat, players=players, hints=hints, clock=clock, level=level,
        )
        await self.db(self.store.create, stored)
        table = Table(stored, self.hub)
        self.tables[table.code] = table
        return table, host, seat, token

    async def _free_code(self) -> str:
        for _ in range(20):
            code = new_code()
            if code not in self.tables and await self.db(self.store.load, code) is None:
                return code
        raise Refused("busy", status=503)

    async def get(self, code: str) -> Table:
        """The table with this code (loaded from the store if need be), or Refused 404."""
        code = code.strip().upper()
        table = self.tables.get(code)
        if table is not None:
            return table
        if not code.isalnum() or len(code) > 12:
            raise Refused("no_table", status=404, table=code[:12])
        try:
            stored = await self.db(self.store.load, code)
        except SeedKeyError as exc:  # sealed with a key this server does not have: never deal other dice
            log.error("table %s cannot be opened: %s", code, exc)
            raise Refused("table_locked", status=503, table=code) from None
        if stored is None:
            raise Refused("no_table", status=404, table=code)
        table = self.tables.get(code)  # loaded meanwhile by another request
        if table is not None:
            return table
        table = Table(stored, self.hub)
        if table.rematch is not None:  # a rematch may still wait for its people (`rematch`)
            rematch = await self.db(self.store.lobby, table.rematch)
            table.rematch_started = rematch is None or rematch.status != "waiting"
        if table.status != "expired":
            self.tables[code] = table
            table.run()
            await table.reload_presence()
        return table

    async def rematch(self, table: Table, seat: int | None) -> Table:
        """The rematch of a finished table: same seats, names, bots, rules, clock, level and tokens.

        Made (once) by the first to ask; it starts when each person of the table has asked (`seat` asks
        now; None: the host without a seat) or has left it (no socket open here): `rematch_check`.
        """
        async with table.lock:
            if table.status != "over":
                raise Refused("not_over", status=409)
            if table.rematch is None:
                # A person's seat handed to a bot goes back to its person: the bot only stood in.
                players = [
                    StoredSeat(p.seat, "human", p.name, None, p.token_hash, muted=p.muted) if p.token_hash is not None
                    else StoredSeat(p.seat, p.kind, p.name, p.bot, p.token_hash, muted=p.muted)
                    for p in table.players
                ]
                stored = StoredTable(
                    code=await self._free_code(), status="waiting", seats=table.seats,
                    rules=table.rules.to_dict(), seed=str(secrets.randbits(63)),
                    first_start=(table.first_start + 1) % table.seats, host_hash=table.host_hash,
                    host_seat=table.host_seat, players=players, rematch_of=table.code, hints=table.hints,
                    clock=table.clock_speed, level=table.level,
                )
                await self.db(self.store.create, stored)
                await self.db(self.store.set_rematch, table.code, stored.code, table.note("t"))
                new = Table(stored, self.hub)
                self.tables[new.code] = new
                table.rematch = new.code
                table.rematch_started = False
            if seat is not None and not table.players[seat].ready:
                table.players[seat].ready = True
                await self.db(self.store.set_ready, table.code, seat, table.note("t"))
        table.broadcast_table()
        await self.rematch_check(table)
        return await self.get(table.rematch)

    async def rematch_check(self, table: Table) -> None:
        """Start the rematch of a finished table once each of its people has asked for it or left (no
        socket open at the old table): then tell the old table's clients to come (`rematch`)."""
        if table.status != "over" or table.rematch is None or table.rematch_started:
            return
        waiting = [p.seat for p in table.players
                   if p.token_hash is not None and not p.ready and table.connected(p.seat)]
        if waiting:
            return
        new = await self.get(table.rematch)
        with contextlib.suppress(Refused):  # already started (the host started it from its lobby)
            await new.start()
        if table.rematch_started:
            return
        table.rematch_started = True
        table.broadcast({"type": "rematch", "code": new.code})
        table.broadcast_table()

    async def started(self, table: Table) -> None:
        """`table` started (its host pressed start): if it is a rematch whose people were still asked,
        the finished table's clients are told to come."""
        old = self.tables.get(table.rematch_of) if table.rematch_of is not None else None
        if old is None or old.rematch != table.code or old.rematch_started:
            return
        old.rematch_started = True
        old.broadcast({"type": "rematch", "code": table.code})
        old.broadcast_table()

    async def load_to_drive(self, code: str) -> Table | None:
        """A table this process now drives (its lock is ours): held or loaded, brought up to date; None if
        it is no longer played."""
        table = self.tables.get(code)
        if table is None:
            try:
                stored = await self.db(self.store.load, code)
            except SeedKeyError as exc:
                log.error("table %s cannot be opened: %s", code, exc)
                return None
            if stored is None or stored.status != "playing":
                return None
            table = self.tables.get(code)  # loaded meanwhile by a request
            if table is None:
                table = self.tables[code] = Table(stored, self.hub)
        await table.catch_up()
        await table.reload_presence()  # whose sockets are on other processes: their turn timers must not run
        return table if table.status == "playing" else None

    async def finished(self, limit: int, offset: int) -> list[StoredTable]:
        """Finished games, newest first."""
        return await self.db(self.store.finished, limit, offset)

    # --- expiry -----------------------------------------------------------------------

    async def _checkpoint(self) -> None:
        """SQLite: copy the write-ahead log into the database every second, in a thread of its own, off
        the path of the commits (`Store.checkpoint_apart`)."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(1.0)
            try:
                await loop.run_in_executor(self._checkpoint_thread, self.store.checkpoint)
            except Exception:
                log.exception("the database checkpoint failed")

    async def _sweep(self) -> None:
        """Every little while: expire idle tables nobody watches (and drop finished ones from memory)."""
        while True:
            await asyncio.sleep(self.settings.sweep_seconds)
            try:
                await self.expire_idle()
            except Exception:
                log.exception("the expiry sweep failed")

    async def expire_idle(self) -> list[str]:
        """Expire the tables idle past `idle_minutes` with nobody connected; their codes."""
        limit = self.settings.idle_minutes * 60
        now = time.monotonic()
        gone = []
        for code, table in list(self.tables.items()):
            if table.clients or table.watched_elsewhere() or now - table.last_activity < limit:
                continue
            # Shared with other processes, a game is expired by the process driving it only; another
            # just lets go of its copy.
            if table.status == "waiting" or (table.status == "playing" and table.driven_here()):
                table.status = "expired"
                await self.db(self.store.set_status, code, "expired", note=table.note("t"))
            await table.stop()
            self.tables.pop(code, None)
            gone.append(code)
        if gone:
            log.info("expired %d idle tables", len(gone))
        return gone
