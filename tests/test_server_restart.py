"""A server killed (SIGKILL) mid-hand and started again on the same database resumes every table."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from minodice import record
from test_server_common import (
    Player,
    ServerProcess,
    free_port,
    make_table,
    play_out,
    process_running,
    start,
    store_cases,
)


def test_kill_mid_hand_and_resume(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'restart.db'}"
    log = tmp_path / "server.log"
    srv = ServerProcess(db, log).start()
    try:
        with srv.api() as http:
            t = make_table(http, 4, [None, "greedy", None, "random"], ["Ana", "Bo"])
            code = t["code"]
            start(http, code, t["host"])
            waiting = make_table(http, 3, [None, None, "greedy"], ["Cy"])  # a table still in the lobby
            ana = Player(srv.ws_base, code, t["tokens"][0])
            bo = Player(srv.ws_base, code, t["tokens"][2])
            # mid-hand 3, some rolls made, Ana to roll: everyone waits for her
            play_out(
                [ana, bo],
                stop=lambda: ana.state["view"]["hand"] >= 3
                and ana.state["to_act"] == [0]
                and ana.acted_on != ana.progress()  # her answer is not on its way
                and any(tr["rolls"] for tr in ana.state["view"]["tricks"]),
            )
            ana.pump(0.2)
            bo.pump(0.2)
            before = {0: ana.state["view"], 2: bo.state["view"]}
            own_before = http.get(
                f"/api/tables/{code}/record", headers={"Authorization": f"Bearer {t['tokens'][0]}"}
            ).json()
        srv.kill()
        ana.close()
        bo.close()

        srv = ServerProcess(db, log, port=srv.port).start()
        with srv.api() as http:
            assert http.get(f"/api/tables/{code}").json()["status"] == "playing"
            ana = Player(srv.ws_base, code, t["tokens"][0])
            bo = Player(srv.ws_base, code, t["tokens"][2])
            assert ana.state["view"] == before[0]
            assert bo.state["view"] == before[2]
            own_after = http.get(
                f"/api/tables/{code}/record", headers={"Authorization": f"Bearer {t['tokens'][0]}"}
            ).json()
            assert own_after == own_before
            # the lobby table is still there and can fill up and start
            assert http.post(f"/api/tables/{waiting['code']}/join", json={"name": "Di"}).status_code == 200
            start(http, waiting["code"], waiting["host"])
            play_out([ana, bo])
            rec = http.get(f"/api/tables/{code}/record").json()
            assert record.check(rec) is None
            assert len(rec["hands"]) == 8 and all("scores" in h for h in rec["hands"])
            # nothing lost: the first hands are those played before the kill
            assert rec["hands"][:2] == own_before["hands"][:2]
            assert rec["totals"] == ana.state["view"]["totals"]
            ana.close()
            bo.close()
    finally:
        srv.stop()


def _bots_play_to_hand_two(srv: ServerProcess, bots: list[str]) -> str:
    """Make and start a table of `bots` alone; its code once its second hand has begun."""
    with srv.api() as http:
        r = http.post("/api/tables", json={"seats": len(bots), "bots": bots})
        code, host = r.json()["table"]["code"], r.json()["host_token"]
        start(http, code, host)
        watcher = Player(srv.ws_base, code, None)
        watcher.wait_for(lambda m: m["type"] == "state" and m["view"]["hand"] >= 2, timeout=60)
        watcher.close()
    return code


def _restarted_and_finished(db: str, log: Path, port: int, code: str, timeout: float) -> ServerProcess:
    """Start the server again on `db`; check table `code` finishes by itself with a whole record."""
    srv = ServerProcess(db, log, port=port).start()
    watcher = Player(srv.ws_base, code, None)
    if not watcher.over:
        watcher.wait_for(lambda m: m["type"] == "state" and m["status"] == "over", timeout=timeout)
    with srv.api() as http:
        rec = http.get(f"/api/tables/{code}/record").json()
        assert record.check(rec) is None and len(rec["hands"]) == 8
    watcher.close()
    return srv


def test_kill_while_bots_play_alone(tmp_path: Path) -> None:
    """A bots-only table killed mid-game finishes after the restart by itself."""
    db = f"sqlite:///{tmp_path / 'bots.db'}"
    srv = ServerProcess(db, tmp_path / "server.log", bot_delay=0.02).start()
    try:
        code = _bots_play_to_hand_two(srv, ["random", "greedy", "random"])
        srv.kill()
        srv = _restarted_and_finished(db, tmp_path / "server.log", srv.port, code, timeout=30)
    finally:
        srv.stop()


def _children(pid: int) -> list[int]:
    return [int(c) for task in Path(f"/proc/{pid}/task").iterdir() for c in (task / "children").read_text().split()]


def _bot_processes(pid: int) -> tuple[list[int], list[int]]:
    """The bot processes of server `pid`, and the fork servers they were forked from (spawned by the
    server where the platform has no fork server)."""
    workers, servers = [], []
    for child in _children(pid):
        with contextlib.suppress(FileNotFoundError):
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
            if b"multiprocessing.forkserver" in cmdline:
                servers.append(child)
                workers += _children(child)
            elif b"multiprocessing.spawn" in cmdline:
                workers.append(child)
    return workers, servers


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")
def test_kill_while_searching_bots_play_alone(tmp_path: Path) -> None:
    """Bots that search think in worker processes: killed with their server, made again after the restart
    (from their seeds), and the game finishes."""
    db = f"sqlite:///{tmp_path / 'search.db'}"
    srv = ServerProcess(db, tmp_path / "server.log", bot_delay=0.02).start()
    try:
        code = _bots_play_to_hand_two(srv, ["hard", "easy", "hard"])
        assert srv.proc is not None
        workers, fork_servers = _bot_processes(srv.proc.pid)
        assert len(workers) == 1  # one table: one process holds its bots
        srv.kill()
        for _ in range(100):
            if not any(process_running(w) for w in workers + fork_servers):
                break
            time.sleep(0.05)
        assert not any(process_running(w) for w in workers), "a bot process outlived its killed server"
        assert not any(process_running(f) for f in fork_servers), "the fork server outlived its killed server"
        srv = _restarted_and_finished(db, tmp_path / "server.log", srv.port, code, timeout=60)
    finally:
        srv.stop()


def test_store_on_sqlite(tmp_path: Path) -> None:
    store_cases(f"sqlite:///{tmp_path / 'store.db'}")


def test_a_second_server_on_one_sqlite_file_is_refused(tmp_path: Path) -> None:
    """Two processes on one SQLite file would each keep their own copy of a game: the second stops."""
    db = f"sqlite:///{tmp_path / 'one.db'}"
    first = ServerProcess(db, tmp_path / "first.log").start()
    try:
        second = subprocess.run(
            [sys.executable, "-m", "minodice.cli", "serve", "--port", str(free_port()), "--db", db],
            capture_output=True, text=True, timeout=60,
        )
        assert second.returncode == 2
        assert "another server process already serves" in second.stderr and "PostgreSQL" in second.stderr
        with first.api() as http:  # the first one goes on serving
            assert http.get("/healthz").status_code == 200
    finally:
        first.stop()
    # Once it has stopped, the file is free again.
    again = ServerProcess(db, tmp_path / "again.log").start()
    again.stop()


def test_a_bare_path_is_a_sqlite_file(tmp_path: Path) -> None:
    """`--db club.db` serves from that SQLite file, as `--db sqlite:///club.db` would (its key beside it)."""
    db = tmp_path / "club.db"
    srv = ServerProcess(str(db), tmp_path / "bare.log").start()
    try:
        with srv.api() as http:
            assert http.get("/healthz").status_code == 200
    finally:
        srv.stop()
    assert db.exists() and db.with_name("club.db.key").exists()


@pytest.mark.parametrize(
    ("db", "says"),
    [
        ("", "--db is empty"),
        ("   ", "--db is empty"),
        ("http://example.org/db", "not a kind of database this server knows"),
        ("mysql://user@127.0.0.1/db", "its driver is not installed"),
        ("postgresql+psycopg://user:hunter2@127.0.0.1:{port}/db", "Connection refused"),
        ("{tmp}", "Is a directory"),
    ],
)
def test_a_database_that_will_not_open_is_one_line_and_exit_2(tmp_path: Path, db: str, says: str) -> None:
    """No traceback: the reason in a line (a password never shown), and nothing starts."""
    db = db.format(port=free_port(), tmp=tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "minodice.cli", "serve", "--port", str(free_port()), "--db", db,
         "--secret-file", str(tmp_path / "key")],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2, done.stderr[-500:]
    assert says in done.stderr and "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert "hunter2" not in done.stderr + done.stdout


def test_a_port_in_use_is_one_line_and_exit_2_before_the_database_is_touched(tmp_path: Path) -> None:
    """Another program on the port: the reason and what to do, no traceback, and no database file made."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "minodice.cli", "serve", "--port", str(port), "--db", str(tmp_path / "x.db")],
            capture_output=True, text=True, timeout=60,
        )
    assert done.returncode == 2, done.stderr[-500:]
    assert f"127.0.0.1:{port}" in done.stderr and "give --port" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and not (tmp_path / "x.db").exists()
