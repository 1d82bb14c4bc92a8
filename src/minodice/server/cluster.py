"""Several server processes on one PostgreSQL database: the news they tell each other, and who drives which table.

Any process serves any table, so a load balancer needs no sticky sessions:

- **Actions** commit through PostgreSQL in a group commit, every table's
  waiting action in one transaction (`Store.commit_actions`); the primary key
  `(table, n)` refuses an action whose number another process stored first:
  a process whose copy of the game is behind stores nothing of that table,
  catches up and tries again, so every process sees one order.
- **News** travels by `NOTIFY` on the channel `store.CHANNEL`, sent in the
  transaction that made it (so it arrives only once committed); a group commit
  of actions sends its notes in one notification, one a line. A note is
  `"<kind> <process> <table>"` — it names what changed, never what it holds
  (no dice, no bid, no token): `a` actions, `t` the lobby (seats, status,
  rematch, mutes, turn timers), `c` chat, `p` who is connected, `x` a process
  left. Every process `LISTEN`s in a thread of its own and brings its copy of
  each table it holds up to date from the database.
- **Bots and turn timers** of a table are driven by exactly one process: the
  one holding the table's PostgreSQL advisory lock. Locks are held by a
  connection of their own; when a process dies its connection closes, its
  locks go, and another process claims them within `CLAIM` seconds.
- **Who is connected** (a seat's player may sit on any process) is the
  `presence` table; each process says it is alive every `HEARTBEAT` seconds
  and the sockets of one silent for `ALIVE` seconds stop counting.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

from .store import CHANNEL, libpq_url

log = logging.getLogger("minodice.server")


class TableManager(Protocol):
    """What a cluster needs of its process's table manager (`manager.TableManager` is one): the settings,
    the store and the live tables; a store call run off the event loop; a table taken over to drive. A
    protocol, so that the manager may own a cluster without an import loop."""

    settings: Any
    store: Any
    tables: dict[str, Any]

    async def db(self, fn: Any, *args: Any, **kwargs: Any) -> Any: ...

    async def load_to_drive(self, code: str) -> Any: ...

HEARTBEAT = 2.0  # seconds between a process's "I am alive"
ALIVE = 8.0  # a process silent this long is gone: its sockets stop counting
FORGET = 60.0  # and its rows are deleted after this long
CLAIM = 1.0  # seconds between looks for tables nobody drives

#: The advisory lock key of a table (from its code, in SQL so every process computes the same).
_KEY = "('x' || substr(md5('minodice:' || {code}), 1, 16))::bit(64)::bigint"
_CLAIM = (
    "SELECT code FROM (SELECT code FROM tables WHERE status = 'playing' AND NOT (code = ANY(%s)) OFFSET 0) AS t "
    f"WHERE pg_try_advisory_lock({_KEY.format(code='code')})"
)
_RELEASE = f"SELECT pg_advisory_unlock({_KEY.format(code='%s')})"


class Cluster:
    """This process's part in a group of server processes on one PostgreSQL database."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager
        self.id = secrets.token_hex(8)  # this process, in notes and in `presence`
        self.url = libpq_url(manager.settings.db)
        self.held: set[str] = set()  # codes of the tables this process drives (their locks are ours)
        self._locks: Any = None  # the psycopg connection holding the advisory locks
        self._lock_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="minodice-locks")
        self._stop = threading.Event()
        self._listener: threading.Thread | None = None
        self._task: asyncio.Task[None] | None = None
        self._wake: asyncio.Event | None = None
        self.loop: asyncio.AbstractEventLoop | None = None

    def note(self, kind: str, code: str) -> str:
        """The text of a note from this process about table `code`."""
        return f"{kind} {self.id} {code}"

    # --- life cycle -------------------------------------------------------------------------

    async def start(self) -> None:
        """Say this process is alive, start listening and start claiming tables nobody drives."""
        self.loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        await self.manager.db(self.manager.store.heartbeat, self.id, FORGET)
        listening = threading.Event()
        self._listener = threading.Thread(target=self._listen, args=(listening,), name="minodice-listen", daemon=True)
        self._listener.start()
        await self.loop.run_in_executor(None, listening.wait, 10.0)
        self._task = self.loop.create_task(self._run(), name="minodice-cluster")
        log.info("process %s shares its database with other server processes", self.id)

    async def stop(self) -> None:
        """Stop claiming and listening; free this process's locks and forget its sockets."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._stop.set()
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._lock_thread, self._close_locks)
        self._lock_thread.shutdown(wait=True)
        if self._listener is not None:
            await loop.run_in_executor(None, self._listener.join, 5.0)
        with contextlib.suppress(Exception):
            await self.manager.db(self.manager.store.drop_process, self.id, self.note("x", "-"))

    def wake(self) -> None:
        """Look for tables to drive now (a table just started) instead of at the next round."""
        if self._wake is not None and self.loop is not None:
            self.loop.call_soon_threadsafe(self._wake.set)

    # --- news from the other processes ------------------------------------------------------

    def _listen(self, listening: threading.Event) -> None:
        """The listener thread: hand every note from another process to the event loop; reconnect if need be."""
        import psycopg

        assert self.loop is not None
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    listening.set()
                    # Notes sent while nobody listened are lost: catch up on every table held.
                    self.loop.call_soon_threadsafe(self._heard, "* - *")
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            self._hand_over(note.payload)
            except Exception as exc:
                if self._stop.is_set():
                    break
                log.warning("listening for other server processes failed (%s); again in 1 s", type(exc).__name__)
                self._stop.wait(1.0)

    def _hand_over(self, payload: str) -> None:
        """(The listener thread.) A notification holds one note or a group commit's, one a line: pass the
        other processes' to the event loop (this one's own, most of them with one process, stay here)."""
        mine = f" {self.id} "
        news = [note for note in payload.split("\n") if mine not in note]
        if news and self.loop is not None:
            self.loop.call_soon_threadsafe(self._heard_all, news)

    def _heard_all(self, notes: list[str]) -> None:
        for note in notes:
            self._heard(note)

    def _heard(self, payload: str) -> None:
        """A note (on the event loop): bring the table it names up to date, if this process holds it."""
        kind, _, rest = payload.partition(" ")
        origin, _, code = rest.partition(" ")
        if origin == self.id:
            return
        tables = self.manager.tables
        if kind == "*":  # listening again: every table held may have missed news
            for table in list(tables.values()):
                for k in "atcp":
                    table.heard(k)
            return
        if kind == "x":  # a process left: its tables need a driver now
            if self._wake is not None:
                self._wake.set()
            for table in list(tables.values()):
                table.heard("p")
            return
        named = tables.get(code)
        if named is not None:
            named.heard(kind)

    # --- driving tables ---------------------------------------------------------------------

    async def _run(self) -> None:
        """Every `CLAIM` seconds: say we are alive (every `HEARTBEAT`), refresh who is connected at the
        tables we drive, claim the tables nobody drives, let go of the finished ones."""
        assert self.loop is not None and self._wake is not None
        beat = self.loop.time()
        while True:
            try:
                if self.loop.time() - beat >= HEARTBEAT:
                    beat = self.loop.time()
                    await self.manager.db(self.manager.store.heartbeat, self.id, FORGET)
                    await self._refresh_presence()
                await self._claim()
                await self._release()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("driving tables with the other server processes failed; trying again")
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), CLAIM)

    async def _refresh_presence(self) -> None:
        """Who is connected at the tables this process drives (a process gone silent stops counting), in one
        query for them all."""
        codes = sorted(self.held)
        if not codes:
            return
        counts = await self.manager.db(self.manager.store.presence_at, codes, self.id, ALIVE)
        for code in codes:
            table = self.manager.tables.get(code)
            if table is not None:
                table.take_presence(counts.get(code, {}))

    async def _claim(self) -> None:
        assert self.loop is not None
        try:
            codes = await self.loop.run_in_executor(self._lock_thread, self._try_claim, sorted(self.held))
        except Exception as exc:  # the lock connection is gone, and our locks with it
            log.warning("lost the connection holding the table locks (%s): driving none until it is back",
                        type(exc).__name__)
            await self.loop.run_in_executor(self._lock_thread, self._close_locks)
            for code in list(self.held):
                self.held.discard(code)
                lost = self.manager.tables.get(code)
                if lost is not None:
                    await lost.stop_driving()
            return
        for code in codes:
            self.held.add(code)
            table = await self.manager.load_to_drive(code)
            if table is None:
                await self._unlock(code)
            else:
                log.info("process %s drives table %s", self.id, code)
                table.drive()

    async def _release(self) -> None:
        for code in list(self.held):
            table = self.manager.tables.get(code)
            if table is None or table.status != "playing":
                await self._unlock(code)

    async def _unlock(self, code: str) -> None:
        assert self.loop is not None
        self.held.discard(code)
        with contextlib.suppress(Exception):
            await self.loop.run_in_executor(self._lock_thread, self._run_lock_sql, _RELEASE, code)

    # The lock thread's side (one connection, used from that thread only).

    def _lock_conn(self) -> Any:
        import psycopg

        if self._locks is None or self._locks.closed:
            self._locks = psycopg.connect(self.url, autocommit=True)
        return self._locks

    def _try_claim(self, held: list[str]) -> list[str]:
        with self._lock_conn().cursor() as cur:
            cur.execute(_CLAIM, (held,))
            return [row[0] for row in cur.fetchall()]

    def _run_lock_sql(self, sql: str, code: str) -> None:
        with self._lock_conn().cursor() as cur:
            cur.execute(sql, (code,))

    def _close_locks(self) -> None:
        if self._locks is not None:
            with contextlib.suppress(Exception):
                self._locks.close()
            self._locks = None
