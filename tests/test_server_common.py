"""Helpers shared by the server tests (no tests here): a real server process and websocket players.

The server runs as `python -m minodice.cli serve` on 127.0.0.1 with a free
port and a SQLite file (or PostgreSQL URL) given by the test; players are
synchronous `websockets` clients that keep every frame they receive, so tests
can drive games and then scan everything a seat was ever sent.
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect


def process_running(pid: int) -> bool:
    """Whether process `pid` runs (Linux /proc; a zombie waiting to be reaped has ended)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerProcess:
    """`minodice serve` in a subprocess; `kill()` is a hard SIGKILL (a crash)."""

    def __init__(self, db: str, log: Path, port: int | None = None, **options: Any) -> None:
        self.db = db
        self.port = port or free_port()
        self.log = log
        # No pauses unless a test asks: a trick's result and a hand's summary hold the bots for a person's eyes.
        self.options = {"bot_delay": 0, "turn_timeout": 60, "trick_pause": 0, "hand_pause": 0, **options}
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> ServerProcess:
        args = [sys.executable, "-m", "minodice.cli", "serve", "--port", str(self.port), "--db", self.db]
        for k, v in self.options.items():
            args += [f"--{k.replace('_', '-')}", str(v)]
        out = self.log.open("ab")
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(self.base + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("server did not start: " + self.log.read_text()[-2000:])

    def kill(self) -> None:
        """Kill -9: no shutdown handlers run."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)

    def api(self) -> httpx.Client:
        return httpx.Client(base_url=self.base, timeout=10)


def server_fixtures(name: str, **options: Any) -> tuple[Any, Any]:
    """A test module's `server` (a real `minodice serve` on a fresh SQLite file, one per module)
    and `http` (a client of its API) fixtures; `options` go to `ServerProcess`.

    Use as `server, http = server_fixtures("api")` at module level.
    """

    @pytest.fixture(scope="module")
    def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
        tmp: Path = tmp_path_factory.mktemp(name)
        srv = ServerProcess(f"sqlite:///{tmp / (name + '.db')}", tmp / "server.log", **options).start()
        yield srv
        srv.stop()

    @pytest.fixture
    def http(server: ServerProcess) -> Iterator[httpx.Client]:
        with server.api() as client:
            yield client

    return server, http


def make_table(
    http: httpx.Client, seats: int, bots: list[str | None], names: list[str], clock: str = "off", **rules: str
) -> dict[str, Any]:
    """Create a table (with a move clock of that speed), seat the named people in its human seats.

    Returns {"code", "host", "tokens": {seat: token}}.
    """
    r = http.post("/api/tables", json={"seats": seats, "bots": bots, "rules": rules, "name": names[0], "clock": clock})
    assert r.status_code == 201, r.text
    body = r.json()
    code, host = body["table"]["code"], body["host_token"]
    tokens = {body["seat"]: body["token"]}
    for name in names[1:]:
        j = http.post(f"/api/tables/{code}/join", json={"name": name})
        assert j.status_code == 200, j.text
        tokens[j.json()["seat"]] = j.json()["token"]
    return {"code": code, "host": host, "tokens": tokens}


def start(http: httpx.Client, code: str, host: str) -> dict[str, Any]:
    r = http.post(f"/api/tables/{code}/start", headers={"Authorization": f"Bearer {host}"})
    assert r.status_code == 200, r.text
    return r.json()


class Player:
    """A websocket client of one seat (token None: a spectator), keeping every frame."""

    def __init__(self, ws_base: str, code: str, token: str | None, rng: random.Random | None = None) -> None:
        self.ws: ClientConnection = connect(f"{ws_base}/ws/{code}", max_size=None, max_queue=None, open_timeout=10, close_timeout=2).__enter__()
        self.received: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.state: dict[str, Any] | None = None
        self.errors: list[dict[str, Any]] = []
        self.rng = rng or random.Random(0)
        self.acted_on: tuple | None = None
        self.sent: list[float] = []
        self.states = 0
        self.send({"type": "hello", "token": token} if token is not None else {"type": "hello", "spectate": True})
        welcome = self.next()
        assert welcome["type"] == "welcome", welcome
        self.seat = welcome["seat"]
        if welcome["table"]["status"] in ("playing", "over"):
            self.wait_for(lambda m: m["type"] == "state")

    def send(self, message: dict[str, Any] | str, throttle: bool = True) -> None:
        """Send a frame (at most 15 a second unless `throttle` is False: the server's flood limit is 20)."""
        if throttle:
            now = time.monotonic()
            self.sent = [t for t in self.sent if now - t < 1.0]
            if len(self.sent) >= 15:
                time.sleep(1.0 - (now - self.sent[0]) + 0.01)
            self.sent.append(time.monotonic())
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def next(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next frame (raises TimeoutError)."""
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        self.raw.append(text)
        msg = json.loads(text)
        self.received.append(msg)
        if msg["type"] == "state":
            self.state = msg
            self.states += 1
        elif msg["type"] == "error":
            self.errors.append(msg)
            self.acted_on = None  # refused: act again on the current state
        return msg

    def pump(self, timeout: float = 0.0) -> int:
        """Read every frame available now (waiting up to `timeout` for the first)."""
        n = 0
        while True:
            try:
                self.next(timeout if n == 0 else 0)
            except TimeoutError:
                return n
            n += 1

    def wait_for(self, pred: Any, timeout: float = 10.0) -> dict[str, Any]:
        """Read until a frame satisfies `pred`."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no matching message")
            msg = self.next(left)
            if pred(msg):
                return msg

    @property
    def over(self) -> bool:
        return self.state is not None and self.state["status"] == "over"

    def must_act(self) -> bool:
        return self.state is not None and self.state["status"] == "playing" and "legal" in self.state["view"]

    def act(self) -> dict[str, Any] | None:
        """Send a random legal choice if this seat must act on a state not yet acted on."""
        if not self.must_act() or self.acted_on == self.progress():
            return None
        view = self.state["view"]  # type: ignore[index]
        choice = self.rng.choice(view["legal"])
        msg = {"type": "bid", "bid": choice} if isinstance(choice, int) else {"type": "roll", "die": choice}
        self.send(msg)
        self.acted_on = self.progress()
        return msg

    def progress(self) -> tuple:
        """How far this seat has got: its action changes this (so it never acts twice on one turn)."""
        view = self.state["view"]  # type: ignore[index]
        rolls = sum(1 for t in view["tricks"] for r in t["rolls"] if r["seat"] == self.seat)
        return (view["hand"], view["bid_placed"][self.seat], rolls)

    def close(self) -> None:
        self.ws.close()


def _where(p: Player) -> str:
    """Where a player's game stands (for a failure's message)."""
    st = p.state
    if st is None:
        return f"seat {p.seat}: no state"
    view = st["view"]
    rolls = [len(t["rolls"]) for t in view["tricks"]]
    return (f"seat {p.seat}: {st['status']} hand {view['hand']} to_act {st['to_act']} bids {view['bid_placed']} "
            f"rolls {rolls} must_act {p.must_act()} acted_on {p.acted_on} errors {p.errors[-2:]} "
            f"last {[m['type'] for m in p.received[-3:]]}")


def play_out(players: list[Player], timeout: float = 40.0, stop: Any = None) -> None:
    """Drive the players (random legal choices) until every one sees the game over (or `stop()`)."""
    deadline = time.monotonic() + timeout
    while not all(p.over for p in players):
        if stop is not None and stop():
            return
        assert time.monotonic() < deadline, "the game did not finish in time: " + "; ".join(map(_where, players))
        for p in players:
            p.act()
        for p in players:
            p.pump(0.02)
    for p in players:
        p.pump(0.05)


def store_cases(url: str) -> None:
    """The store's contract, run against SQLite and PostgreSQL alike."""
    from minodice.server.store import Store, StoredSeat, StoredTable

    store = Store(url)
    Store(url).close()  # migrating again is a no-op
    try:
        code = "T" + os.urandom(3).hex().upper()
        table = StoredTable(
            code=code, status="waiting", seats=3, rules={"scoring": "landlubber"}, seed="12345",
            first_start=1, host_hash="h" * 64, host_seat=0,
            players=[StoredSeat(0, "human", "Ana", None, "a" * 64), StoredSeat(1, "open"),
                     StoredSeat(2, "bot", "Greedy 3", "greedy")],
        )
        store.create(table)
        store.save_seat(code, StoredSeat(1, "human", "Bo", None, "b" * 64))
        store.set_status(code, "playing")
        for n, (seat, kind, value) in enumerate([(0, "bid", "1"), (1, "bid", "0"), (2, "bid", "1"), (1, "roll", "red")]):
            store.append_action(code, n, seat, kind, value)
        got = store.load(code)
        assert got is not None
        assert got.status == "playing" and got.rules == {"scoring": "landlubber"} and got.first_start == 1
        assert [p.name for p in got.players] == ["Ana", "Bo", "Greedy 3"]
        assert got.players[1].token_hash == "b" * 64 and got.players[2].bot == "greedy"
        assert got.actions == [(0, "bid", "1"), (1, "bid", "0"), (2, "bid", "1"), (1, "roll", "red")]
        assert got.created.tzinfo is not None
        assert code in [t.code for t in store.load_status("waiting", "playing")]
        store.set_status(code, "over", totals=[10, -20, 30])
        store.set_rematch(code, "NEWONE")
        done = store.finished(limit=500)
        mine = next(t for t in done if t.code == code)
        assert mine.totals == [10, -20, 30] and mine.finished is not None and mine.rematch == "NEWONE"
        assert store.load("NOSUCH") is None
        try:
            store.append_action(code, 0, 0, "bid", "1")  # the same action number twice
        except Exception:
            pass
        else:
            raise AssertionError("a duplicate action number must be refused")
        assert len(store.load(code).actions) == 4  # type: ignore[union-attr]
    finally:
        store.close()
