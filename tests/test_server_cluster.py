"""Two server processes on one real PostgreSQL: one table, a player on each, no sticky sessions.

Each process commits actions under the table's row lock and hears the other's
through LISTEN/NOTIFY; exactly one drives the bots (it holds the table's
advisory lock), and when it is killed with -9 the other takes over.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

import postgres_cluster
from minodice import record
from test_server_common import Player, ServerProcess, play_out, start

pg_url = postgres_cluster.pg_url  # the fixture


@pytest.fixture(scope="module")
def key(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The secret key file every process on the module's database shares."""
    return tmp_path_factory.mktemp("cluster-key") / "secret.key"


def _pair(pg_url: str, tmp_path: Path, key: Path, **options: Any) -> tuple[ServerProcess, ServerProcess]:
    a = ServerProcess(pg_url, tmp_path / "a.log", secret_file=key, **options).start()
    b = ServerProcess(pg_url, tmp_path / "b.log", secret_file=key, **options).start()
    return a, b


def _until(pred: Any, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, "not within the time"
        time.sleep(0.05)


def _started(a: ServerProcess, b: ServerProcess) -> tuple[str, str, str, ServerProcess, ServerProcess]:
    """A started 3-seat table (Ana, a greedy bot, Bo) made on `a`: its code, Ana's and Bo's tokens, the
    process driving it and the other one."""
    with a.api() as http:
        body = http.post("/api/tables", json={"seats": 3, "bots": [None, "greedy", None], "name": "Ana"}).json()
        code = body["table"]["code"]
        bo_token = http.post(f"/api/tables/{code}/join", json={"name": "Bo"}).json()["token"]
        start(http, code, body["host_token"])
    driver = _driver([a, b], code)
    return code, body["token"], bo_token, driver, b if driver is a else a


def _seat(srv: ServerProcess, code: str, seat: int) -> dict[str, Any]:
    """A seat of a table as one process shows it (its TABLE object)."""
    return httpx.get(f"{srv.base}/api/tables/{code}", timeout=5).json()["players"][seat]


def _driver(servers: list[ServerProcess], code: str, timeout: float = 10.0) -> ServerProcess:
    """The process that drives the table's bots (holds its lock), waiting for one to claim it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for srv in servers:
            health = httpx.get(srv.base + "/healthz", timeout=5).json()
            if code in health["drives"]:
                return srv
        time.sleep(0.1)
    raise AssertionError("no process drives the table")


class Notes:
    """Every note the server processes send each other, heard on their PostgreSQL channel."""

    def __init__(self, pg_url: str) -> None:
        import psycopg

        from minodice.server.cluster import libpq_url

        self.conn = psycopg.connect(libpq_url(pg_url), autocommit=True)
        self.conn.execute("LISTEN minodice")
        self.heard: list[str] = []

    def drain(self) -> list[str]:
        # A group commit of actions sends its notes in one notification, one a line.
        self.heard += [line for n in self.conn.notifies(timeout=0.5) for line in n.payload.split("\n")]
        return self.heard


def test_two_processes_play_one_table_in_one_order(pg_url: str, tmp_path: Path, key: Path) -> None:
    a, b = _pair(pg_url, tmp_path, key)
    notes = Notes(pg_url)
    try:
        with a.api() as http_a, b.api() as http_b:
            r = http_a.post("/api/tables", json={"seats": 4, "bots": [None, "greedy", None, "random"], "name": "Ana"})
            body = r.json()
            code, host = body["table"]["code"], body["host_token"]
            # Bo joins through the other process, which reads the table from the database.
            bo_token = http_b.post(f"/api/tables/{code}/join", json={"name": "Bo"}).json()["token"]
            # A hears of it through PostgreSQL (a NOTIFY) within moments.
            _until(lambda: http_a.get(f"/api/tables/{code}").json()["players"][2]["name"] == "Bo")
            watch_a = Player(a.ws_base, code, None)
            watch_b = Player(b.ws_base, code, None)
            start(http_b, code, host)  # started on B: A's players hear it
            ana = Player(a.ws_base, code, body["token"])
            bo = Player(b.ws_base, code, bo_token)
            assert _driver([a, b], code) in (a, b)
            play_out([ana, bo, watch_a, watch_b], timeout=90)
            for p in (ana, bo, watch_a, watch_b):
                p.pump(0.3)
            # Both processes sent their spectator the same events in the same order.
            events_a = [e for m in watch_a.received if m["type"] == "state" for e in m["events"]]
            events_b = [e for m in watch_b.received if m["type"] == "state" for e in m["events"]]
            assert events_a and events_a == events_b
            assert ana.state["view"]["totals"] == bo.state["view"]["totals"]  # type: ignore[index]
            rec_a = http_a.get(f"/api/tables/{code}/record").json()
            rec_b = http_b.get(f"/api/tables/{code}/record").json()
            assert rec_a == rec_b and record.check(rec_a) is None and len(rec_a["hands"]) == 8
            # Each person's socket counted on the other process too.
            seats = http_b.get(f"/api/tables/{code}").json()["players"]
            assert [s["connected"] for s in seats] == [True, True, True, True]
            for p in (ana, bo, watch_a, watch_b):
                p.close()
        # The notes name what changed and where, never what: no die, bid or token travels in them.
        heard = notes.drain()
        assert {n.split()[0] for n in heard} >= {"a", "t", "p"}
        assert all(re.fullmatch(r"[atcpx] [0-9a-f]{16} (-|[A-Z0-9]{6})", n) for n in heard), heard[:5]
    finally:
        notes.conn.close()
        a.stop()
        b.stop()


def test_kill_the_driving_process_and_the_other_takes_over(pg_url: str, tmp_path: Path, key: Path) -> None:
    a, b = _pair(pg_url, tmp_path, key)
    servers = {a.port: a, b.port: b}
    try:
        code, ana_token, bo_token, driver, other = _started(a, b)
        # Ana plays on the driving process, Bo on the other.
        ana = Player(driver.ws_base, code, ana_token)
        bo = Player(other.ws_base, code, bo_token)
        play_out([ana, bo], timeout=60,
                 stop=lambda: bo.state is not None and bo.state["view"]["hand"] >= 2
                 and any(t["rolls"] for t in bo.state["view"]["tricks"]))
        killed_at = time.monotonic()
        driver.kill()
        ana.close()
        assert _driver([other], code, timeout=15) is other
        took_over = time.monotonic() - killed_at
        assert took_over < 10, took_over
        # Ana's browser reconnects; the load balancer sends her to the process still up.
        ana = Player(other.ws_base, code, ana_token)
        play_out([ana, bo], timeout=90)
        with other.api() as http:
            rec = http.get(f"/api/tables/{code}/record").json()
        assert record.check(rec) is None and len(rec["hands"]) == 8
        ana.close()
        bo.close()
    finally:
        for srv in servers.values():
            srv.stop()


def test_turn_timers_count_sockets_on_every_process(pg_url: str, tmp_path: Path, key: Path) -> None:
    """The driving process starts an absent player's timer only when no process has their socket,
    and stops standing in for them when they come back through another process."""
    a, b = _pair(pg_url, tmp_path, key, turn_timeout=2)
    try:
        code, ana_token, bo_token, driver, other = _started(a, b)
        ana = Player(other.ws_base, code, ana_token)  # Ana's socket is not on the driving process
        bo = Player(driver.ws_base, code, bo_token)
        # The driver counts her socket on the other process (before she connected, her timer may have run).
        _until(lambda: _seat(driver, code, 0)["connected"] and _seat(driver, code, 0)["autoplay_in"] is None
               and not _seat(driver, code, 0)["autoplay"])
        bo.pump(0.5)  # the frames sent before that (her timer running then) are not what is judged below
        seen = len(bo.received)
        # Ana connected elsewhere: the driver never stands in for her (she acts well within the timeout).
        play_out([ana, bo], timeout=60, stop=lambda: bo.state is not None and bo.state["view"]["hand"] >= 2)
        timed = [m for m in bo.received[seen:] if m.get("table") and (
            m["table"]["players"][0]["autoplay"] or m["table"]["players"][0]["autoplay_in"] is not None)]
        assert timed == []  # her turn timer never started while she was connected
        ana.close()
        # Gone from every process: her timer runs out and a bot plays for her; Bo sees it.
        deadline = time.monotonic() + 30
        while not (bo.state and bo.state["table"]["players"][0]["autoplay"]):
            assert time.monotonic() < deadline, "no stand-in for the absent player"
            bo.act()
            bo.pump(0.05)
        # Back, through the other process: the driver hears it and she plays again herself.
        ana = Player(other.ws_base, code, ana_token)
        _until(lambda: not _seat(driver, code, 0)["autoplay"])
        play_out([ana, bo], timeout=90, stop=lambda: ana.must_act())
        assert ana.must_act() or ana.over
        play_out([ana, bo], timeout=90)
        ana.close()
        bo.close()
    finally:
        a.stop()
        b.stop()
