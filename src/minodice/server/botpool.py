"""The processes the server's bots think in: each table's bots live in one worker process.

A searching bot spends its decision in Python and in simulator kernels that hold the GIL; in the
server's own threads it made the event loop, and so every person at every table, wait for the GIL
(measured with `benchmarks/bench_server.py --bots montecarlo`: people's actions p99 around 230 ms
with the bots in threads, against 6 ms with instant bots). In worker processes the operating
system shares the cores instead, and the bots of different tables think side by side.

A table always goes to the same process (by its code), which keeps its bots between decisions and
makes one the first time it is asked (from its spec and seed, told the game's setup): a process
that dies is replaced and its bots made again, and a process whose decision runs past `DEADLINE`
(120 s) ends itself, so a table never stops. Instant bots (`greedy`, `random`) answer on the event
loop, cheaper than a trip to a process. A worker sees only the view of the seat it decides for, as
the bot did in a thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
import time
import zlib
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..bots import BUILTIN, Bot, make_bot, parse_spec
from ..bots.levels import level_spec
from ..view import View

__all__ = ["BotPool", "decide", "is_instant", "made", "worker_process"]

log = logging.getLogger("minodice.server")

#: A bot's key: (table code, seat, spec) — a seat's bot changes when its spec does (a stand-in).
Key = tuple[str, int, str]

#: Seconds a bot may think about one decision, making it included (the levels take milliseconds; the
#: first decision of a fresh install compiles the simulator, 4 s here; a budget in seconds or a bug
#: could take longer). Past it the worker process ends itself: it is replaced and asked once more,
#: and if that runs late too the seat plays its first legal choice.
DEADLINE = 120.0


def made(spec: str, seed: str, setup: View | None) -> Bot:
    """The bot `spec` names (a level: its bot and budget), seeded, told the game starts."""
    bot = make_bot(level_spec(spec), seed=seed)
    if setup is not None:
        with contextlib.suppress(Exception):
            bot.start_game(setup)
    return bot


def decide(bot: Bot, view: View, what: str) -> Any:
    """Ask a bot for its bid or roll; its first legal choice if it fails, errs or answers what is not legal."""
    legal = view.legal or ()
    try:
        answer = bot.bid(view) if what == "bid" else bot.roll(view)
    except Exception as exc:
        log.warning("bot %s failed: %s", bot.name, type(exc).__name__)
        return legal[0]
    if answer not in legal or isinstance(answer, bool):
        return legal[0]
    return answer


def is_instant(spec: str) -> bool:
    """Whether the bot `spec` names (a level too) decides without search (`BotInfo.instant`)."""
    name = parse_spec(level_spec(spec))[0]
    return name in BUILTIN and BUILTIN.info(name).instant


def worker_process() -> ProcessPoolExecutor:
    """One worker process for the server's thinking (the bots, the reviews of finished games): spawned,
    not forked (forking a process with threads is unsafe), and set up by `_start_worker`."""
    return ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_start_worker)


# --- inside a worker process ------------------------------------------------------------------

_held: dict[Key, Bot] = {}
_started: float | None = None  # when the decision under way began (time.monotonic), None: idle
_deadline = DEADLINE
_watching = False


def _watch() -> None:
    """End this process when a decision runs past its deadline. Only a new process is sure to be sound:
    a bot stopped halfway by an exception could be stopped anywhere (even in the simulator's loading)."""
    while True:
        time.sleep(min(1.0, _deadline / 4))
        started = _started
        if started is not None and time.monotonic() - started > _deadline:
            os._exit(3)


def _start_worker() -> None:
    """A worker's set-up: one thread for numpy's matrix products (the processes share the cores, and
    each one's BLAS threads on top of them made the learned bots wait); Ctrl-C is the server's to
    handle; and the worker ends with the server, however the server ends (even killed)."""
    import numpy  # noqa: F401 - loads the BLAS library, so that the limit applies to it
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1, user_api="blas")
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent.sentinel,), daemon=True, name="minodice-parent").start()


def _end_with(sentinel: int) -> None:
    """Wait until the server process is gone, then end this worker at once."""
    multiprocessing.connection.wait([sentinel])
    os._exit(0)


def _decide_here(key: Key, seed: str, setup: View | None, view: View, what: str, deadline: float) -> Any:
    """The answer of the bot `key`, made if new; the watchdog ends the process if it is late."""
    global _started, _deadline, _watching
    _deadline = deadline
    if not _watching:
        _watching = True
        threading.Thread(target=_watch, daemon=True, name="minodice-deadline").start()
    _started = time.monotonic()
    try:
        bot = _held.get(key)
        if bot is None:
            bot = _held[key] = made(key[2], seed, setup)
        return decide(bot, view, what)
    finally:
        _started = None


def _forget_here(table: str) -> None:
    for key in [k for k in _held if k[0] == table]:
        with contextlib.suppress(Exception):
            _held.pop(key).close()


def _count_here() -> int:
    return len(_held)


# --- in the server ------------------------------------------------------------------------------


class BotPool:
    """`processes` worker processes (started when first needed) holding the tables' thinking bots, each
    decision stopped after `deadline` seconds."""

    def __init__(self, processes: int, deadline: float = DEADLINE) -> None:
        if processes < 1:
            raise ValueError(f"the bots need at least one process, not {processes}")
        self.deadline = deadline
        self._workers: list[ProcessPoolExecutor | None] = [None] * processes
        self._instant: dict[Key, Bot] = {}
        self._closed = False

    def _slot(self, table: str) -> int:
        return zlib.crc32(table.encode()) % len(self._workers)

    def _worker(self, slot: int) -> ProcessPoolExecutor:
        worker = self._workers[slot]
        if worker is None:
            worker = self._workers[slot] = worker_process()
        return worker

    def _replace(self, slot: int, broken: ProcessPoolExecutor) -> None:
        if self._workers[slot] is broken:
            self._workers[slot] = None
            broken.shutdown(wait=False, cancel_futures=True)

    async def decide(self, table: str, seat: int, spec: str, seed: str, setup: View | None, view: View,
                     what: str) -> Any:
        """The bid or roll (`what`) of the bot `spec` in `seat` of `table`, made the first time from `seed`
        and `setup`. A worker that dies (or thinks past `deadline` seconds: it ends itself) is replaced
        and asked once more; a bot that cannot be made or asked, and a worker that dies twice, give the
        first legal choice."""
        key = (table, seat, spec)
        if is_instant(spec):
            bot = self._instant.get(key)
            if bot is None:
                bot = self._instant[key] = made(spec, seed, setup)
            return decide(bot, view, what)
        if self._closed:
            raise RuntimeError("the bot pool is closed")
        loop = asyncio.get_running_loop()
        slot = self._slot(table)
        for attempt in range(2):
            worker = self._worker(slot)
            try:
                return await loop.run_in_executor(worker, _decide_here, key, seed, setup, view, what,
                                                  self.deadline)
            except BrokenProcessPool:
                log.warning("table %s: the bots' process %d ended (it crashed, or bot %s thought past %g s); "
                            "starting another (attempt %d)", table, slot, spec, self.deadline, attempt + 1)
                self._replace(slot, worker)
            except Exception as exc:  # e.g. a bot that cannot be made: the table must go on all the same
                log.warning("table %s: bot %s could not decide: %s", table, spec, type(exc).__name__)
                break
        return (view.legal or ())[0]

    def forget(self, table: str) -> None:
        """Let go of `table`'s bots (it stopped, or another server process drives it now)."""
        for key in [k for k in self._instant if k[0] == table]:
            del self._instant[key]
        worker = self._workers[self._slot(table)]
        if worker is not None:
            with contextlib.suppress(BrokenProcessPool, RuntimeError):
                worker.submit(_forget_here, table)

    async def held(self) -> int:
        """How many bots the pool holds (instant ones and those in the worker processes)."""
        loop = asyncio.get_running_loop()
        counts = [await loop.run_in_executor(w, _count_here) for w in self._workers if w is not None]
        return len(self._instant) + sum(counts)

    async def pids(self) -> list[int]:
        """The process ids of the workers running now (for tests and monitoring)."""
        loop = asyncio.get_running_loop()
        return [await loop.run_in_executor(w, os.getpid) for w in self._workers if w is not None]

    def close(self) -> None:
        """Stop the worker processes: each ends its decision under way, if any (a second at most), and exits."""
        self._closed = True
        for slot, worker in enumerate(self._workers):
            if worker is not None:
                worker.shutdown(wait=True, cancel_futures=True)  # not waiting leaves their queues to leak
                self._workers[slot] = None
        self._instant.clear()
