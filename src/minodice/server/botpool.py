"""The processes the server's bots think in: each table's bots live in one worker process.

A searching bot spends its decision in Python and in simulator kernels that hold the GIL; in the
server's own threads it made the event loop, and so every person at every table, wait for the GIL
(measured with `benchmarks/bench_server.py --bots montecarlo`: people's actions p99 around 230 ms
with the bots in threads, against 6 ms with instant bots). In worker processes the operating
system shares the cores instead, and the bots of different tables think side by side.

A table goes to the process holding the fewest searching bots when it first needs one, and stays there
until its bots are let go: that process keeps its bots between decisions and makes one the first time it
is asked (from its spec and seed, told the game's setup): a process
that dies is replaced and its bots made again, and a process whose decision runs past `DEADLINE`
(120 s) ends itself, so a table never stops. Instant bots (`greedy`, `random`) answer on the event
loop, cheaper than a trip to a process. A worker sees only the view of the seat it decides for, as
the bot did in a thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import multiprocessing
import multiprocessing.context
import os
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from ..bots import BUILTIN, Bot, BotSpec, BotSpecError, make_bot, parse_spec
from ..bots.explain import Explanation, roll_hint
from ..view import View
from ..workers import start_worker

__all__ = ["BotPool", "WorkerProcess", "decide", "is_instant", "made"]

log = logging.getLogger("minodice.server")

T = TypeVar("T")

#: A bot's key: (table code, seat, spec) — a seat's bot changes when its spec does (a stand-in).
Key = tuple[str, int, str]

#: Seconds a bot may think about one decision, making it included (the levels take milliseconds; the
#: first decision of a fresh install compiles the simulator, 4 s here; a budget in seconds or a bug
#: could take longer). Past it the worker process ends itself: it is replaced and asked once more,
#: and if that runs late too the seat plays its first legal choice.
DEADLINE = 120.0


def made(spec: str, seed: str, setup: View | None) -> Bot:
    """The bot `spec` names (a level: its bot and budget), seeded, told the game starts."""
    bot = make_bot(spec, seed=seed)
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


def _kept(held: dict[Key, Bot], key: Key, seed: str, setup: View | None) -> Bot:
    """The bot `key` from `held`, made (and kept there) the first time it is asked for."""
    bot = held.get(key)
    if bot is None:
        bot = held[key] = made(key[2], seed, setup)
    return bot


@functools.lru_cache(maxsize=256)
def is_instant(spec: str) -> bool:
    """Whether the bot `spec` names (a level too) decides without search (`BotType.instant`)."""
    try:
        parsed = parse_spec(spec)
    except BotSpecError:  # not a bot: its process says so when it cannot make it
        return False
    return isinstance(parsed, BotSpec) and BUILTIN.info(parsed.name).instant


def _context() -> multiprocessing.context.BaseContext:
    """How worker processes start: forked from a fork server, a process of its own that has loaded the
    bots (`botwarm`), so that each worker starts with them and shares their memory (about 25 MB of its
    own after some play, against 70 MB spawned fresh); spawned where the platform has no fork server. Never forked from the
    server itself: forking a process that runs threads is unsafe."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([f"{__package__}.botwarm"])
    return context


def _submit_quietly(executor: ProcessPoolExecutor, fn: Callable[..., Any], *args: Any) -> None:
    with contextlib.suppress(BrokenProcessPool, RuntimeError):  # ended or closed: nothing left to tell it
        executor.submit(fn, *args)


class WorkerProcess:
    """One worker process for the server's thinking (the bots, the reviews of finished games): started
    when first needed (see `_context`), set up by `_start_worker`, and started anew after it dies."""

    def __init__(self) -> None:
        self._executor: ProcessPoolExecutor | None = None
        self._running = False  # the process has answered once: handing it work no longer waits for its start

    @property
    def started(self) -> bool:
        """Whether the process runs (or is starting)."""
        return self._executor is not None

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in the process. BrokenProcessPool: the process died on the way (the next call
        starts another)."""
        executor = self._executor
        if executor is None:
            executor = self._executor = ProcessPoolExecutor(max_workers=1, mp_context=_context(),
                                                            initializer=_start_worker)
            self._running = False
        try:
            if self._running:
                future = executor.submit(fn, *args)
            else:  # the first hand-over starts the process and waits for the fork server (its first start
                # loads the bots: seconds): in a thread, so that the event loop goes on meanwhile
                future = await asyncio.to_thread(executor.submit, fn, *args)
            result = await asyncio.wrap_future(future)
            self._running = self._executor is executor
            return result
        except BrokenProcessPool:
            if self._executor is executor:
                self._executor = None
                executor.shutdown(wait=False, cancel_futures=True)
            raise

    async def run_retried(self, fn: Callable[..., T], *args: Any) -> T:
        """`run`, asked once more in a new process if the process died during the call; a second death
        raises `BrokenProcessPool` (the server answers 503 `worker_failed`)."""
        try:
            return await self.run(fn, *args)
        except BrokenProcessPool:
            log.warning("a worker process ended during %s; starting another", getattr(fn, "__name__", fn))
            return await self.run(fn, *args)

    def send(self, fn: Callable[..., Any], *args: Any) -> None:
        """Queue `fn(*args)` in the process if it runs (or is starting), without waiting for it."""
        executor = self._executor
        if executor is None:
            return
        if self._running:
            _submit_quietly(executor, fn, *args)
        else:  # handing over waits for the start to finish: from a thread
            threading.Thread(target=_submit_quietly, args=(executor, fn, *args), daemon=True).start()

    def close(self, *, wait: bool) -> None:
        """End the process (`wait`: after the call under way, so that its queues are closed cleanly)."""
        if self._executor is not None:
            self._executor.shutdown(wait=wait, cancel_futures=True)
            self._executor = None


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
    """A worker's set-up: one thread for numpy's matrix products, an end with the server however the
    server ends (even killed), and Ctrl-C left to the server to handle."""
    start_worker()
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _watched(deadline: float, work: Callable[[], T]) -> T:
    """`work()`, which the watchdog ends this process for if it runs past `deadline` seconds."""
    global _started, _deadline, _watching
    _deadline = deadline
    if not _watching:
        _watching = True
        threading.Thread(target=_watch, daemon=True, name="minodice-deadline").start()
    _started = time.monotonic()
    try:
        return work()
    finally:
        _started = None


def _decide_here(key: Key, seed: str, setup: View | None, view: View, what: str, deadline: float) -> Any:
    """The answer of the bot `key`, made if new."""
    return _watched(deadline, lambda: decide(_kept(_held, key, seed, setup), view, what))


def _roll_hint_here(view: View, seed: str, deadline: float) -> Explanation:
    """The roll hint for `view` (`bots.explain.roll_hint`)."""
    return _watched(deadline, lambda: roll_hint(view, seed))


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
        self._workers = [WorkerProcess() for _ in range(processes)]
        self._tables: dict[str, int] = {}  # table code -> the slot of the worker holding its bots
        self._seated: dict[str, set[Key]] = {}  # table code -> its searching bots asked so far
        self._instant: dict[Key, Bot] = {}
        self._closed = False

    def _slot(self, table: str) -> int:
        """The worker holding `table`'s bots: the one holding the fewest searching bots when the table first
        needed one (then the fewest tables, then the lowest slot), so that busy tables do not share a
        process while another idles, and a table of three searching bots weighs more than a table of one."""
        slot = self._tables.get(table)
        if slot is None:
            tables, bots = Counter(self._tables.values()), Counter[int]()
            for code, keys in self._seated.items():
                bots[self._tables[code]] += len(keys)
            slot = self._tables[table] = min(range(len(self._workers)), key=lambda s: (bots[s], tables[s]))
        return slot

    async def decide(self, table: str, seat: int, spec: str, seed: str, setup: View | None, view: View,
                     what: str) -> Any:
        """The bid or roll (`what`) of the bot `spec` in `seat` of `table`, made the first time from `seed`
        and `setup`. A worker that dies (or thinks past `deadline` seconds: it ends itself) is replaced
        and asked once more; a bot that cannot be made or asked, and a worker that dies twice, give the
        first legal choice."""
        key = (table, seat, spec)
        if is_instant(spec):
            return decide(_kept(self._instant, key, seed, setup), view, what)
        if self._closed:
            raise RuntimeError("the bot pool is closed")
        slot = self._slot(table)
        self._seated.setdefault(table, set()).add(key)
        for attempt in range(2):
            try:
                return await self._workers[slot].run(_decide_here, key, seed, setup, view, what, self.deadline)
            except BrokenProcessPool:
                log.warning("table %s: the bots' process %d ended (it crashed, or bot %s thought past %g s); "
                            "starting another (attempt %d)", table, slot, spec, self.deadline, attempt + 1)
            except Exception as exc:  # e.g. a bot that cannot be made: the table must go on all the same
                log.warning("table %s: bot %s could not decide: %s", table, spec, type(exc).__name__)
                break
        return (view.legal or ())[0]

    async def roll_hint(self, table: str, view: View, seed: str) -> Explanation:
        """A player's roll hint at `table` (`bots.explain.roll_hint` for their `view`), worked out in the
        process holding the table's bots (so that it never holds the event loop); a process that dies
        is replaced and asked once more."""
        if self._closed:
            raise RuntimeError("the bot pool is closed")
        return await self._workers[self._slot(table)].run_retried(_roll_hint_here, view, seed, self.deadline)

    def forget(self, table: str) -> None:
        """Let go of `table`'s bots (it stopped, or another server process drives it now)."""
        for key in [k for k in self._instant if k[0] == table]:
            del self._instant[key]
        self._seated.pop(table, None)
        slot = self._tables.pop(table, None)
        if slot is not None:
            self._workers[slot].send(_forget_here, table)

    @property
    def placement(self) -> dict[str, int]:
        """Which worker (by its slot, 0 to processes - 1) holds each table's bots (for tests and monitoring)."""
        return dict(self._tables)

    async def held(self) -> int:
        """How many bots the pool holds (instant ones and those in the worker processes)."""
        counts = [await w.run(_count_here) for w in self._workers if w.started]
        return len(self._instant) + sum(counts)

    async def pids(self) -> list[int]:
        """The process ids of the workers running now (for tests and monitoring)."""
        return [await w.run(os.getpid) for w in self._workers if w.started]

    def close(self) -> None:
        """Stop the worker processes: each ends its decision under way, if any (a second at most), and exits."""
        self._closed = True
        for worker in self._workers:
            worker.close(wait=True)  # not waiting leaves their queues to leak (a warning in the host's log)
        self._instant.clear()
