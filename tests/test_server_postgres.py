"""The store and a whole server game (with a kill and a restart) on a real, throwaway PostgreSQL.

A cluster is made with `initdb` and started with `pg_ctl` from
/usr/lib/postgresql/*/bin on a free port, in a temporary directory (under /tmp,
owned by the `postgres` user when the tests run as root, because PostgreSQL
refuses to run as root). Skipped, with the reason, where those binaries are missing.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from minodice import record
from test_server_common import Player, ServerProcess, free_port, play_out, start, store_cases


def _skip(reason: str) -> None:
    """Skip, or fail where PostgreSQL is required (CI sets MINODICE_REQUIRE_POSTGRES)."""
    if os.environ.get("MINODICE_REQUIRE_POSTGRES"):
        pytest.fail(reason)
    pytest.skip(reason)


def _pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return Path(found[-1]).parent if found else None


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    bindir = _pg_bin()
    if bindir is None or not (bindir / "initdb").exists():
        _skip("no PostgreSQL server binaries in /usr/lib/postgresql/*/bin")
    pytest.importorskip("psycopg", reason="psycopg is not installed (pip install 'psycopg[binary]')")
    prefix: list[str] = []
    owner = None
    if os.geteuid() == 0:
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            _skip("running as root and there is no 'postgres' user to run PostgreSQL as")
        prefix = ["runuser", "-u", "postgres", "--"]
    root = Path(tempfile.mkdtemp(prefix="minodice-pg-"))
    data = root / "data"
    if owner is not None:
        os.chown(root, owner.pw_uid, owner.pw_gid)
    port = free_port()
    try:
        subprocess.run([*prefix, str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
                        "-E", "UTF8", "--no-sync"], check=True, capture_output=True, timeout=60)
        subprocess.run(
            [*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-l", str(root / "pg.log"), "-w", "-t", "30",
             "-o", f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off", "start"],
            check=True, capture_output=True, timeout=60,
        )
    except (subprocess.SubprocessError, OSError) as exc:
        shutil.rmtree(root, ignore_errors=True)
        _skip(f"could not start a throwaway PostgreSQL: {exc}")
    try:
        subprocess.run([*prefix, str(bindir / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres",
                        "minodice"], check=True, capture_output=True, timeout=30)
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/minodice"
    finally:
        subprocess.run([*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                       capture_output=True, timeout=60)
        shutil.rmtree(root, ignore_errors=True)


def test_store_on_postgres(pg_url: str) -> None:
    store_cases(pg_url)


def test_server_game_on_postgres_survives_a_kill(pg_url: str, tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    srv = ServerProcess(pg_url, log, secret_file=tmp_path / "secret.key").start()
    try:
        with srv.api() as http:
            r = http.post("/api/tables", json={"seats": 3, "bots": [None, "greedy", "random"], "name": "Ana"})
            body = r.json()
            code, token = body["table"]["code"], body["token"]
            start(http, code, body["host_token"])
            ana = Player(srv.ws_base, code, token)
            # Hand 2 and Ana's own view says she must act: nothing moves until she does.
            play_out([ana], stop=lambda: ana.state["view"]["hand"] >= 2 and ana.state["to_act"] == [0]
                     and bool(ana.state["view"].get("legal")))
            ana.pump(0.2)
            before = ana.state["view"]
        srv.kill()
        ana.close()
        srv = ServerProcess(pg_url, log, port=srv.port, secret_file=tmp_path / "secret.key").start()
        with srv.api() as http:
            ana = Player(srv.ws_base, code, token)
            assert ana.state["view"] == before
            play_out([ana])
            rec = http.get(f"/api/tables/{code}/record").json()
            assert record.check(rec) is None and len(rec["hands"]) == 8
            assert code in [g["code"] for g in http.get("/api/games").json()["games"]]
            ana.close()
    finally:
        srv.stop()
