"""A real, throwaway PostgreSQL for the tests that need one: the module fixture `pg_url`.

A cluster is made with `initdb` and started with `pg_ctl` from
/usr/lib/postgresql/*/bin on a free port, in a temporary directory (under /tmp,
owned by the `postgres` user when the tests run as root, because PostgreSQL
refuses to run as root). Skipped, with the reason, where those binaries are
missing — failed instead where CI sets MINODICE_REQUIRE_POSTGRES.
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

from test_server_common import free_port


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
