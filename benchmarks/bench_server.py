"""Load test of `minodice serve`: many tables of bots plus websocket players at once on 127.0.0.1.

Starts real servers (`--workers N` processes on N ports, one database, one `--secret-file`;
default one process on a SQLite file in a temporary directory, bot delay 0; `--bot-processes N`
is each server's own `--workers`, its bot processes), creates `--tables`
tables of 4 seats — 2 bots (seats 1 and 3) and 2 people (seats 0 and 2) played by websocket
clients here — connects every person and waits until each has its first `state` (a barrier:
latencies are measured under the full load), then plays every game to the end.

Pace (`--pace`): `fast` — a person acts 70 ms after their turn comes; `human` — after a uniform
1–3 s (seeded per person from `--seed`). Reports:
- the latency of an action — a person's bid or roll sent, until that person's first `state`
  carrying it arrives (checked, stored and broadcast) — p50/p99/max;
- errors (refused actions, unexpected closes, games that stall or do not finish; should be 0),
  people and games finished;
- the servers' memory: RSS (VmRSS, summed over every server process and its children; shared pages
  count once per process) when idle after start, once every table is made and every person
  connected, and the peak while playing (sampled every 0.5 s); per table: (connected - idle) /
  tables and (peak - idle) / tables, in KiB; and the peak of the summed PSS (proportional set size:
  each shared page counted once in all, which RSS overstates for bot workers forked from one fork
  server);
- the servers' CPU time over the play phase (utime + stime) and per action: CPU ms / (people's
  actions + bots' actions). Bots' actions are counted exactly from the events people receive
  (seat 0's person counts the bid_placed and rolled events of seats 1 and 3 that arrive after the
  start signal). Also the client processes' own CPU, and the busiest one's share of a core: near
  100 % means the client, not the server, was the bottleneck (then use `--client-procs`).
On this 2-core machine the clients and the servers share the two cores: the client's CPU is taken
from the server's, so compare figures only between runs made the same way.

The servers run with `--turn-timeout 3600`, so that no seat is handed to a stand-in bot while the
other tables are still being made. A person who gets no frame for `--stall` seconds (60) gives up
(an error: the game does not progress). Exit status 1 when there were errors, 2 when the run could
not go on (a server did not start, a lobby request failed: the message says which).

    .venv/bin/python benchmarks/bench_server.py --tables 200                   # target: p99 < 100 ms
    .venv/bin/python benchmarks/bench_server.py --tables 1000 --pace human     # target: p99 < 50 ms
    .venv/bin/python benchmarks/bench_server.py --tables 200 --workers 2       # throwaway PostgreSQL
    .venv/bin/python benchmarks/bench_server.py --tables 200 --postgres        # the same, one process
    .venv/bin/python benchmarks/bench_server.py --tables 50 --db postgresql+psycopg://USER@HOST/DB
    .venv/bin/python benchmarks/bench_server.py --tables 2 --json report.json  # the smoke test's run
    .venv/bin/python benchmarks/bench_server.py --tables 12 --bots montecarlo  # bots that search

`--workers N` (N > 1) needs PostgreSQL: `--db postgresql+psycopg://...`, or without `--db` a
throwaway cluster is made (benchmarks/pg_cluster.py; `--postgres`: also for one process;
`--pg-fast`: with fsync=off; its CPU is reported apart). Lobby requests go round-robin over the
processes, and table i's people connect to process i % N and (i + 1) % N (no sticky sessions).
`--client-procs K` spreads the people over K client processes (results merged).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import json
import multiprocessing as mp
import os
import queue
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

try:
    from orjson import loads
except ImportError:  # the standard library's parser is slower, not different
    from json import loads  # type: ignore[assignment]

BOTS = [None, "greedy", None, "random"]
BOT_SEATS = frozenset(i for i, b in enumerate(BOTS) if b is not None)
CONNECTS_AT_ONCE = 64  # websocket handshakes in flight per client process
LOBBY_AT_ONCE = 16  # tables being made at once
FAST_DELAY = 0.07  # a fast person's pause (and under the 20 messages/s flood limit)


# --- the servers' processes: memory and CPU from /proc ------------------------------------------

CLK_TCK = os.sysconf("SC_CLK_TCK")


class BenchError(Exception):
    """The run cannot go on (a server did not start, a lobby request failed...): the message says why."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _stat_fields(pid: int) -> list[str] | None:
    """/proc/PID/stat after the command name (field 3 onwards), None once the process is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rfind(")") + 2:].split()


def process_tree(roots: list[int]) -> list[int]:
    """The roots and all their descendants that are alive."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            fields = _stat_fields(int(entry.name))
            if fields is not None:
                children.setdefault(int(fields[1]), []).append(int(entry.name))
    out, todo = [], list(roots)
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo += children.get(pid, [])
    return out


def _summed_kib(pids: list[int], file: str, field: str | tuple[str, ...]) -> int:
    """The sum over these processes of the `field` lines of /proc/PID/`file`, in KiB (a process gone: 0)."""
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/{file}").read_text().splitlines():
                if line.startswith(field):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


def rss_kib(pids: list[int]) -> int:
    """Summed VmRSS of these processes, in KiB."""
    return _summed_kib(pids, "status", "VmRSS:")


def pss_kib(pids: list[int]) -> int:
    """Summed proportional set size of these processes, in KiB: each shared page counted once in all
    (RSS counts it in every process that maps it, such as the bot workers forked from one fork server)."""
    return _summed_kib(pids, "smaps_rollup", "Pss:")


def private_kib(pids: list[int]) -> int:
    """Summed private memory (USS) of these processes, in KiB: the pages no other process maps, so
    unlike PSS it does not fall when unrelated programs on the machine load the same libraries."""
    return _summed_kib(pids, "smaps_rollup", ("Private_Clean:", "Private_Dirty:"))


def cpu_seconds(pids: list[int]) -> float:
    """Summed user + system CPU time of these processes, in seconds."""
    ticks = 0
    for pid in pids:
        fields = _stat_fields(pid)
        if fields is not None:
            ticks += int(fields[11]) + int(fields[12])
    return ticks / CLK_TCK


class Fleet:
    """`--workers` server processes on one database and one secret file."""

    def __init__(self, n: int, db: str, secret: Path, bot_delay: float, logdir: Path, db_pid: int | None,
                 bot_processes: int | None = None) -> None:
        self.n, self.db, self.secret, self.bot_delay, self.logdir = n, db, secret, bot_delay, logdir
        self.bot_processes = bot_processes  # each server's `--workers` (None: its default)
        self.db_pid = db_pid  # a throwaway PostgreSQL's postmaster (its CPU is reported apart)
        self.procs: list[subprocess.Popen[bytes]] = []
        self.ports: list[int] = []

    def _spawn(self, i: int) -> None:
        port = free_port()
        log = (self.logdir / f"server-{i}.log").open("wb")
        self.procs.append(subprocess.Popen(
            [sys.executable, "-m", "minodice.cli", "serve", "--port", str(port), "--db", self.db,
             "--bot-delay", str(self.bot_delay), "--turn-timeout", "3600", "--secret-file", str(self.secret),
             *([] if self.bot_processes is None else ["--workers", str(self.bot_processes)])],
            stdout=log, stderr=subprocess.STDOUT,
        ))
        self.ports.append(port)

    def _wait(self, i: int, timeout: float = 90) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.procs[i].poll() is not None:
                raise BenchError(f"server {i} exited with {self.procs[i].returncode}:\n{self.log_tail(i)}")
            try:
                if httpx.get(f"{self.bases[i]}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise BenchError(f"server {i} did not answer /healthz within {timeout:.0f} s:\n{self.log_tail(i)}")

    def start(self) -> Fleet:
        # The first one alone: it migrates the database and writes the secret key the others read.
        self._spawn(0)
        self._wait(0)
        for i in range(1, self.n):
            self._spawn(i)
        for i in range(1, self.n):
            self._wait(i)
        return self

    @property
    def bases(self) -> list[str]:
        return [f"http://127.0.0.1:{p}" for p in self.ports]

    def pids(self) -> list[int]:
        return process_tree([p.pid for p in self.procs])

    def db_cpu(self) -> float | None:
        return None if self.db_pid is None else cpu_seconds(process_tree([self.db_pid]))

    def log_tail(self, i: int, lines: int = 15) -> str:
        text = (self.logdir / f"server-{i}.log").read_text(errors="replace").splitlines()
        return "\n".join(text[-lines:])

    def stop(self) -> None:
        for p in self.procs:
            p.terminate()
        for p in self.procs:
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


# --- the lobby: tables made concurrently, round-robin over the processes ------------------------

@dataclass(frozen=True)
class Job:
    """One person: connect to `url` with `token`; `slot` 0 is the table's seat 0 (it counts bot moves)."""

    url: str
    token: str
    table: int
    slot: int


async def _lobby(clients: list[httpx.AsyncClient], turn: itertools.count[int], method: str, path: str,
                 **kw: Any) -> Any:
    i = next(turn) % len(clients)
    r = await clients[i].request(method, path, **kw)
    if r.status_code >= 300:
        raise BenchError(f"lobby {method} {path} on server {i} failed: HTTP {r.status_code} {r.text[:300]}")
    return r.json()


async def make_tables(bases: list[str], tables: int, bots: list[str | None]) -> list[tuple[str, str, str]]:
    """Create, join and start `tables` tables seating `bots`; (code, seat 0's token, seat 2's token) each."""
    gate = asyncio.Semaphore(LOBBY_AT_ONCE)
    turn = itertools.count()
    limits = httpx.Limits(max_connections=LOBBY_AT_ONCE)
    clients = [httpx.AsyncClient(base_url=b, timeout=60, limits=limits) for b in bases]

    async def one() -> tuple[str, str, str]:
        async with gate:
            body = await _lobby(clients, turn, "POST", "/api/tables", json={"seats": 4, "bots": bots, "name": "Ana"})
            code = body["table"]["code"]
            j = await _lobby(clients, turn, "POST", f"/api/tables/{code}/join", json={"name": "Bo"})
            await _lobby(clients, turn, "POST", f"/api/tables/{code}/start",
                         headers={"Authorization": f"Bearer {body['host_token']}"})
            return code, body["token"], j["token"]

    try:
        return list(await asyncio.gather(*(one() for _ in range(tables))))
    finally:
        for c in clients:
            await c.aclose()


def people(made: list[tuple[str, str, str]], bases: list[str]) -> list[Job]:
    """Table i's seat 0 connects to process i % N, its seat 2 to process (i + 1) % N."""
    ws = [b.replace("http://", "ws://") for b in bases]
    n = len(ws)
    jobs = []
    for i, (code, t0, t2) in enumerate(made):
        jobs.append(Job(f"{ws[i % n]}/ws/{code}", t0, i, 0))
        jobs.append(Job(f"{ws[(i + 1) % n]}/ws/{code}", t2, i, 1))
    return jobs


# --- a person: plays one seat with random legal choices ------------------------------------------

class Stalled(Exception):
    pass


@dataclass
class Tally:
    """One client process's results."""

    latencies: list[float] = field(default_factory=list)
    sent: list[float] = field(default_factory=list)  # when each measured action was sent (perf_counter)
    kinds: list[str] = field(default_factory=list)  # "bid" or "roll", for each measured action
    errors: list[str] = field(default_factory=list)
    finished: list[int] = field(default_factory=list)  # the table of each person who saw the game over
    bot_actions: int = 0


class Person:
    def __init__(self, job: Job, pace: str, seed: int, stall: float, tally: Tally) -> None:
        self.job, self.pace, self.stall, self.tally = job, pace, stall, tally
        self.rng = random.Random(f"{seed}:{job.table}:{job.slot}")
        self.seat: int | None = None
        self.legal: list[Any] | None = None
        self.act_at: float | None = None  # when to act (the turn came, the pause runs)
        self.sent_id: int | None = None  # the action awaiting its ack
        self.sent_at = 0.0
        self.sent_kind = ""
        self.reflected = False  # the action's own event has arrived in a state
        self.next_id = 0
        self.events_seen = 0  # seat 0: bots' moves counted up to this event index
        self.playing = False

    def on_frame(self, raw: bytes) -> bool:
        """Handle one frame; True once the game is over."""
        if raw.startswith((b'{"type":"table"', b'{"type": "table"')):
            return False  # lobby news (connections): nothing a player needs here
        msg = loads(raw)
        kind = msg.get("type")
        if kind == "state":
            return self.on_state(msg)
        if kind == "ack" and msg.get("ref") == self.sent_id:
            if not self.reflected:
                self.tally.errors.append("ack_before_state")
            self.sent_id = None
            self.turn_came()
        elif kind == "error":
            self.tally.errors.append(str(msg.get("code")))
            if msg.get("ref") == self.sent_id:
                self.sent_id = None
                self.turn_came()
        return False

    def on_state(self, msg: dict[str, Any]) -> bool:
        now = time.perf_counter()
        view = msg["view"]
        self.seat = view["seat"]
        events = msg["events"]
        if self.job.slot == 0 and self.playing:
            start = msg["events_from"]
            for k, e in enumerate(events, start):
                if k >= self.events_seen and e["type"] in ("bid_placed", "rolled") and e["seat"] in BOT_SEATS:
                    self.tally.bot_actions += 1
        self.events_seen = max(self.events_seen, msg["events_from"] + len(events))
        if self.sent_id is not None and not self.reflected:
            for e in events:
                if e["type"] in ("bid_placed", "rolled") and e.get("seat") == self.seat:
                    self.tally.latencies.append(now - self.sent_at)
                    self.tally.sent.append(self.sent_at)
                    self.tally.kinds.append(self.sent_kind)
                    self.reflected = True
                    break
        self.legal = view.get("legal")
        if msg["status"] == "over":
            self.tally.finished.append(self.job.table)
            return True
        self.turn_came()
        return False

    def turn_came(self) -> None:
        """Start the pause when it is this seat's turn and nothing is awaiting an answer."""
        if self.playing and self.legal and self.sent_id is None and self.act_at is None:
            pause = FAST_DELAY if self.pace == "fast" else self.rng.uniform(1.0, 3.0)
            self.act_at = time.perf_counter() + pause

    async def act(self, ws: ClientConnection) -> None:
        assert self.legal
        choice = self.rng.choice(self.legal)
        self.next_id += 1
        out = {"type": "bid", "bid": choice} if isinstance(choice, int) else {"type": "roll", "die": choice}
        out["id"] = self.next_id
        self.sent_kind = out["type"]
        self.sent_id, self.sent_at, self.reflected, self.act_at = self.next_id, time.perf_counter(), False, None
        await ws.send(json.dumps(out))

    async def recv(self, ws: ClientConnection, timeout: float) -> bytes | None:
        """The next frame, None when `timeout` passed first (receiving is cancellation-safe)."""
        try:
            async with asyncio.timeout(timeout):
                data = await ws.recv(decode=False)
        except TimeoutError:
            return None
        return data if isinstance(data, bytes) else data.encode()

    async def until_first_state(self, ws: ClientConnection) -> None:
        await ws.send(json.dumps({"type": "hello", "token": self.job.token}))
        while True:
            raw = await self.recv(ws, self.stall)
            if raw is None:
                raise Stalled(f"no first state within {self.stall:.0f} s")
            if self.on_frame(raw) or self.seat is not None:
                return

    async def until_go(self, ws: ClientConnection, go: asyncio.Event) -> bool:
        """Read (and do not act on) frames until the start signal; True if the game ended meanwhile."""
        go_wait = asyncio.ensure_future(go.wait())
        try:
            while not go.is_set():
                recv = asyncio.ensure_future(ws.recv(decode=False))
                await asyncio.wait({recv, go_wait}, return_when=asyncio.FIRST_COMPLETED)
                if not recv.done():
                    recv.cancel()  # receiving is cancellation-safe: no frame is lost
                    await asyncio.gather(recv, return_exceptions=True)
                if recv.done() and not recv.cancelled():
                    data = recv.result()
                    if self.on_frame(data if isinstance(data, bytes) else data.encode()):
                        return True
            return False
        finally:
            go_wait.cancel()

    async def play(self, ws: ClientConnection) -> bool:
        self.playing = True
        self.turn_came()
        while True:
            if self.act_at is not None and self.act_at <= time.perf_counter():
                await self.act(ws)
                continue
            wait = self.stall if self.act_at is None else self.act_at - time.perf_counter()
            raw = await self.recv(ws, wait)
            if raw is None:
                if self.act_at is None:
                    raise Stalled(f"no frame for {self.stall:.0f} s: the game does not progress")
                continue
            if self.on_frame(raw):
                return True


async def person_task(job: Job, opts: dict[str, Any], tally: Tally, gate: asyncio.Semaphore,
                      settled: list[int], all_settled: asyncio.Event, go: asyncio.Event) -> bool:
    p = Person(job, opts["pace"], opts["seed"], opts["stall"], tally)
    ws = None
    try:
        async with gate:
            ws = await connect(job.url, max_size=None, compression=None, open_timeout=120, ping_interval=None)
            await p.until_first_state(ws)
    except Exception as exc:
        tally.errors.append(f"table {job.table} seat {2 * job.slot}: before play: {exc!r}"[:300])
        if ws is not None:
            await ws.close()
        return False
    finally:
        settled[0] += 1
        if settled[0] == opts["people"]:
            all_settled.set()
    try:
        return await p.until_go(ws, go) or await p.play(ws)
    except Exception as exc:
        tally.errors.append(f"table {job.table} seat {2 * job.slot}: {exc!r}"[:300])
        return False
    finally:
        await ws.close()


# --- a client process: its share of the people ---------------------------------------------------

async def client_run(jobs: list[Job], opts: dict[str, Any], ready_q: Any, go_mp: Any) -> dict[str, Any]:
    tally = Tally()
    gate = asyncio.Semaphore(CONNECTS_AT_ONCE)
    settled, all_settled, go = [0], asyncio.Event(), asyncio.Event()
    opts = {**opts, "people": len(jobs)}
    tasks = [asyncio.create_task(person_task(j, opts, tally, gate, settled, all_settled, go)) for j in jobs]
    if jobs:
        await all_settled.wait()
    ready_q.put(len(jobs))
    await asyncio.get_running_loop().run_in_executor(None, go_mp.wait)
    # This process holds thousands of sockets and frames: keep its own collector's full passes (pauses
    # of a good part of a second) out of the latencies it measures for the server.
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 50, 1_000)
    go.set()
    cpu0, t0 = time.process_time(), time.perf_counter()
    await asyncio.gather(*tasks)
    return {"latencies": tally.latencies, "sent": tally.sent, "kinds": tally.kinds, "errors": tally.errors, "finished": tally.finished,
            "bot_actions": tally.bot_actions, "cpu_s": time.process_time() - cpu0,
            "wall_s": time.perf_counter() - t0}


def client_process(jobs: list[Job], opts: dict[str, Any], ready_q: Any, go_mp: Any, result_q: Any) -> None:
    try:
        import uvloop

        factory: Any = uvloop.new_event_loop
    except ImportError:
        factory = None
    try:
        with asyncio.Runner(loop_factory=factory) as runner:
            result_q.put(runner.run(client_run(jobs, opts, ready_q, go_mp)))
    except BaseException as exc:
        ready_q.put(0)
        result_q.put({"crash": repr(exc)})
        raise


# --- the run ---------------------------------------------------------------------------------------

class Sampler:
    """The servers' summed RSS now and the peak seen, and the peaks of their summed PSS and USS."""

    def __init__(self, fleet: Fleet) -> None:
        self.fleet = fleet
        self.peak = 0
        self.pss_peak = 0
        self.private_peak = 0

    def sample(self) -> int:
        pids = self.fleet.pids()
        kib = rss_kib(pids)
        self.peak = max(self.peak, kib)
        self.pss_peak = max(self.pss_peak, pss_kib(pids))
        self.private_peak = max(self.private_peak, private_kib(pids))
        return kib


def wait_ready(procs: list[Any], ready_q: Any, timeout: float) -> None:
    deadline, got = time.monotonic() + timeout, 0
    while got < len(procs):
        try:
            ready_q.get(timeout=0.5)
            got += 1
        except queue.Empty:
            if time.monotonic() > deadline:
                raise BenchError(f"the people did not all connect within {timeout:.0f} s") from None
            if any(p.exitcode not in (None, 0) for p in procs):
                raise BenchError("a client process died while connecting") from None


def collect(procs: list[Any], result_q: Any, sampler: Sampler) -> list[dict[str, Any]]:
    """Every client process's results, sampling the servers' memory every 0.5 s meanwhile."""
    results: list[dict[str, Any]] = []
    while len(results) < len(procs):
        sampler.sample()
        try:
            results.append(result_q.get(timeout=0.5))
        except queue.Empty:
            if all(p.exitcode is not None for p in procs):
                try:
                    results.append(result_q.get(timeout=5))
                except queue.Empty:
                    results += [{"crash": "a client process ended without results"}] * (len(procs) - len(results))
    return results


def play(args: argparse.Namespace, fleet: Fleet, jobs: list[Job]) -> dict[str, Any]:
    """Start the client processes, wait for the barrier, play; the merged raw figures."""
    ctx = mp.get_context("spawn")
    ready_q, result_q, go = ctx.Queue(), ctx.Queue(), ctx.Event()
    opts = {"pace": args.pace, "seed": args.seed, "stall": args.stall}
    k = max(1, min(args.client_procs, len(jobs)))
    shares = [jobs[i::k] for i in range(k)]
    procs = [ctx.Process(target=client_process, args=(s, opts, ready_q, go, result_q), daemon=True) for s in shares]
    t0 = time.perf_counter()
    for p in procs:
        p.start()
    sampler = Sampler(fleet)
    try:
        wait_ready(procs, ready_q, timeout=max(120.0, len(jobs) * 0.2))
        connect_s = time.perf_counter() - t0
        connected = sampler.sample()
        cpu0, db0, began = cpu_seconds(fleet.pids()), fleet.db_cpu(), time.perf_counter()
        go.set()
        results = collect(procs, result_q, sampler)
        server_cpu, wall = cpu_seconds(fleet.pids()) - cpu0, time.perf_counter() - began
        db1 = fleet.db_cpu()
        db_cpu = None if db0 is None or db1 is None else db1 - db0
    finally:
        for p in procs:
            p.join(10)
            if p.is_alive():
                p.terminate()
    return {"results": results, "connect_s": connect_s, "rss_connected": connected, "rss_peak": sampler.peak,
            "pss_peak": sampler.pss_peak,
            "private_peak": sampler.private_peak,
            "server_cpu_s": server_cpu, "db_cpu_s": db_cpu, "wall_s": wall}


def _q(latencies: list[float]) -> tuple[float, float, float]:
    if not latencies:
        return 0.0, 0.0, 0.0
    if len(latencies) == 1:
        return latencies[0], latencies[0], latencies[0]
    q = statistics.quantiles(latencies, n=100)
    return q[49], q[98], max(latencies)


def summarise(args: argparse.Namespace, raw: dict[str, Any], setup_s: float, idle: int, db_kind: str) -> dict[str, Any]:
    results = raw["results"]
    latencies = [x for r in results for x in r.get("latencies", [])]
    errors = [e for r in results for e in r.get("errors", [])] + [r["crash"] for r in results if "crash" in r]
    finished = [t for r in results for t in r.get("finished", [])]
    bot_actions = sum(r.get("bot_actions", 0) for r in results)
    games = sum(1 for n in Counter(finished).values() if n == 2)
    unfinished = args.tables - games
    if unfinished:
        errors.append(f"{unfinished} games not finished")
    p50, p99, top = _q(latencies)
    actions = len(latencies) + bot_actions
    # When the slow actions happened: p99 and max per 30-second window of play (perf_counter is one
    # clock for every process of the machine).
    sent = [t for r in results for t in r.get("sent", [])]
    windows: dict[int, list[float]] = {}
    if sent and len(sent) == len(latencies):
        first = min(sent)
        for t, lat in zip(sent, latencies, strict=True):
            windows.setdefault(int((t - first) // 30), []).append(lat)
    kinds = [k for r in results for k in r.get("kinds", [])]
    by_kind = {}
    if len(kinds) == len(latencies):
        for kind in ("bid", "roll"):
            q = _q([lat for k, lat in zip(kinds, latencies, strict=True) if k == kind])
            by_kind[kind] = f"{q[0] * 1000:.1f}/{q[1] * 1000:.1f}/{q[2] * 1000:.1f}"
    by_window = [f"{30 * k}s: {round(_q(v)[1] * 1000)}/{round(_q(v)[2] * 1000)}" for k, v in sorted(windows.items())]
    wall = raw["wall_s"]
    client_cpu = [r.get("cpu_s", 0.0) for r in results]
    client_wall = [r.get("wall_s", 0.0) or 1e-9 for r in results]
    return {
        "tables": args.tables, "pace": args.pace, "workers": args.workers, "db": db_kind, "bot_delay": args.bot_delay,
        "bots": args.bots or "greedy, random",
        "bot_processes": args.bot_processes or "default", "client_procs": len(results), "clients": 2 * args.tables, "clients_finished": len(finished),
        "games_finished": games, "setup_s": round(setup_s, 1), "connect_s": round(raw["connect_s"], 1),
        "wall_s": round(wall, 1), "actions": len(latencies), "bot_actions": bot_actions,
        "p50_ms": round(p50 * 1000, 1), "p99_ms": round(p99 * 1000, 1), "max_ms": round(top * 1000, 1),
        "errors": len(errors), "error_samples": errors[:5],
        "rss_idle_kib": idle, "rss_connected_kib": raw["rss_connected"], "rss_peak_kib": raw["rss_peak"],
        "pss_peak_kib": raw["pss_peak"],
        "private_peak_kib": raw["private_peak"],
        "mem_per_table_kib": round((raw["rss_connected"] - idle) / args.tables, 1),
        "peak_per_table_kib": round((raw["rss_peak"] - idle) / args.tables, 1),
        "server_cpu_s": round(raw["server_cpu_s"], 2),
        "server_cpu_pct": round(100 * raw["server_cpu_s"] / wall, 1) if wall else 0.0,
        "cpu_ms_per_action": round(1000 * raw["server_cpu_s"] / actions, 3) if actions else None,
        "db_cpu_s": None if raw["db_cpu_s"] is None else round(raw["db_cpu_s"], 2),
        "client_cpu_s": round(sum(client_cpu), 2),
        "client_cpu_busiest_pct": round(100 * max(c / w for c, w in zip(client_cpu, client_wall)), 1),
        "p99_max_by_30s": by_window,
        "bids_ms": by_kind.get("bid"), "rolls_ms": by_kind.get("roll"),
    }


LABELS = {
    "tables": "tables", "pace": "pace", "workers": "server processes", "db": "database",
    "bot_delay": "bot delay (s)", "bots": "bots (seats 1, 3)", "bot_processes": "bot processes", "client_procs": "client processes", "clients": "people",
    "clients_finished": "people finished", "games_finished": "games finished",
    "setup_s": "tables made in (s)", "connect_s": "people connected in (s)", "wall_s": "play (s)",
    "actions": "people's actions", "bot_actions": "bots' actions", "p50_ms": "latency p50 (ms)",
    "p99_ms": "latency p99 (ms)", "max_ms": "latency max (ms)", "errors": "errors",
    "error_samples": "error samples", "rss_idle_kib": "server RSS idle (KiB)",
    "rss_connected_kib": "RSS connected (KiB)", "rss_peak_kib": "RSS peak (KiB)",
    "pss_peak_kib": "PSS peak (KiB, shared pages once)",
    "private_peak_kib": "private peak (KiB, USS)",
    "mem_per_table_kib": "memory/table (KiB)", "peak_per_table_kib": "peak/table (KiB)",
    "server_cpu_s": "server CPU (s)", "server_cpu_pct": "server CPU (% core)",
    "cpu_ms_per_action": "CPU ms / action", "db_cpu_s": "PostgreSQL CPU (s)", "client_cpu_s": "client CPU (s)",
    "client_cpu_busiest_pct": "busiest client (%)", "p99_max_by_30s": "p99/max by 30 s (ms)",
    "bids_ms": "bids p50/p99/max (ms)", "rolls_ms": "rolls p50/p99/max (ms)",
    "logs": "server logs",
}


def print_report(report: dict[str, Any]) -> None:
    width = max(len(v) for v in LABELS.values())
    for k, v in report.items():
        if (k == "error_samples" and not v) or v is None:
            continue
        print(f"{LABELS.get(k, k):>{width}}: {v}")


def seated_bots(spec: str | None) -> list[str | None]:
    """The `bots` of a table: the default pair, or `spec` (a bot or a level) in both bot seats."""
    return BOTS if spec is None else [spec if b is not None else None for b in BOTS]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--pace", choices=["fast", "human"], default="fast",
                    help="fast: act 70 ms after the turn comes; human: after a uniform 1-3 s")
    ap.add_argument("--seed", type=int, default=1, help="seeds each person's choices and pauses")
    ap.add_argument("--bots", default=None, metavar="SPEC",
                    help="the bot or level in seats 1 and 3 of every table (default: greedy and random); "
                         "e.g. montecarlo or expert, to see what thinking bots cost the people's latency")
    ap.add_argument("--bot-delay", type=float, default=0.0, help="the servers' --bot-delay (s)")
    ap.add_argument("--workers", type=int, default=1, help="server processes (more than 1 needs PostgreSQL)")
    ap.add_argument("--bot-processes", type=int, default=None, metavar="N",
                    help="each server's bot processes (its --workers; default: one per core, at most 4)")
    ap.add_argument("--db", default=None, help="database URL (default: SQLite in a temporary directory; "
                    "with --workers > 1 a throwaway PostgreSQL)")
    ap.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL also with one process")
    ap.add_argument("--pg-fast", action="store_true", help="the throwaway PostgreSQL runs with fsync=off")
    ap.add_argument("--client-procs", type=int, default=1, help="processes the people are spread over")
    ap.add_argument("--stall", type=float, default=60.0, help="seconds without a frame before a person gives up")
    ap.add_argument("--json", type=Path, default=None, help="also write the report as JSON here")
    ap.add_argument("--raw", type=Path, default=None,
                    help="also write every measured action here as JSON lines: sent (s after the first), at (perf_counter: one clock for every process), latency (ms), kind")
    args = ap.parse_args(argv)
    if min(args.tables, args.workers, args.client_procs, 1 if args.bot_processes is None else args.bot_processes) < 1:
        ap.error("--tables, --workers, --bot-processes and --client-procs must be at least 1")
    if args.workers > 1 and args.db is not None and not args.db.startswith("postgresql"):
        ap.error("--workers > 1 needs PostgreSQL: give --db postgresql+psycopg://... or no --db")
    if args.postgres and args.db is not None:
        ap.error("--postgres makes its own database: give it or --db, not both")
    return args


def raise_file_limit() -> None:
    """Thousands of sockets: the servers and clients inherit the raised soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else 65536
    if soft != resource.RLIM_INFINITY and soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def write_raw(path: Path, results: list[dict[str, Any]]) -> None:
    """Every measured action as a JSON line, in the order sent: to look at where the slow ones fall."""
    rows = sorted((t, lat, k) for r in results
                  for t, lat, k in zip(r.get("sent", []), r.get("latencies", []), r.get("kinds", []), strict=False))
    first = rows[0][0] if rows else 0.0
    with path.open("w") as out:
        for t, lat, k in rows:
            out.write(json.dumps({"sent": round(t - first, 4), "at": round(t, 4), "ms": round(lat * 1000, 2), "kind": k}) + "\n")


def bench(args: argparse.Namespace, tmp: Path, db: str, db_kind: str, db_pid: int | None) -> dict[str, Any]:
    fleet = Fleet(args.workers, db, tmp / "secret.key", args.bot_delay, tmp, db_pid, args.bot_processes)
    try:
        fleet.start()
        idle = rss_kib(fleet.pids())
        t0 = time.perf_counter()
        made = asyncio.run(make_tables(fleet.bases, args.tables, seated_bots(args.bots)))
        setup_s = time.perf_counter() - t0
        raw = play(args, fleet, people(made, fleet.bases))
        report = summarise(args, raw, setup_s, idle, db_kind)
        if args.raw is not None:
            write_raw(args.raw, raw["results"])
        if report["errors"] and args.workers > 1:
            report["error_samples"].append("several processes: is multi-process serving there yet?")
        return report
    finally:
        fleet.stop()


def main() -> None:
    args = parse_args()
    raise_file_limit()
    tmp = Path(tempfile.mkdtemp(prefix="minodice-bench-"))
    cluster = None
    try:
        db, kind = args.db, "postgresql" if (args.db or "").startswith("postgresql") else "sqlite"
        if db is None and (args.workers > 1 or args.postgres):
            from pg_cluster import PgCluster, PgClusterError

            try:
                cluster = PgCluster(fast=args.pg_fast).start()
            except PgClusterError as exc:
                raise BenchError(f"no throwaway PostgreSQL: {exc}") from None
            db, kind = cluster.url, "postgresql (throwaway" + (", fsync=off)" if args.pg_fast else ")")
        elif db is None:
            db = f"sqlite:///{tmp / 'bench.db'}"
        report = bench(args, tmp, db, kind, None if cluster is None else cluster.postmaster_pid())
    except BenchError as exc:
        print(f"bench_server: {exc}\nlogs: {tmp}", file=sys.stderr)
        sys.exit(2)
    finally:
        if cluster is not None:
            cluster.stop()
    report["logs"] = str(tmp)
    print_report(report)
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    if report["errors"]:
        sys.exit(1)
    for f in tmp.glob("bench.db*"):
        f.unlink()


if __name__ == "__main__":
    main()
