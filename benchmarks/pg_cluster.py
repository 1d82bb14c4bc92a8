"""A throwaway PostgreSQL cluster for benchmarks: initdb + pg_ctl on a free port in a temporary directory.

Uses the server binaries in /usr/lib/postgresql/*/bin (the newest version there). PostgreSQL refuses
to run as root, so when we are root the cluster belongs to the `postgres` user and every command runs
through `runuser -u postgres --`. `fast=True` adds `-c fsync=off` (quicker, not crash-safe: say so
beside any figure measured with it).

    with PgCluster() as pg:
        url = pg.url          # postgresql+psycopg://postgres@127.0.0.1:PORT/minodice
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from types import TracebackType


class PgClusterError(RuntimeError):
    """The cluster could not be made or started (the message says why)."""


def pg_bindir() -> Path | None:
    """The newest /usr/lib/postgresql/*/bin that has initdb and pg_ctl (None: PostgreSQL is not installed)."""
    for ctl in sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=_version, reverse=True):
        bindir = Path(ctl).parent
        if (bindir / "initdb").exists():
            return bindir
    return None


def _version(path: str) -> int:
    part = Path(path).parent.parent.name
    return int(part) if part.isdigit() else 0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgCluster:
    """Start with `start()` (or `with`), stop and delete everything with `stop()`."""

    def __init__(self, fast: bool = False, db: str = "minodice") -> None:
        self.fast = fast
        self.db = db
        self.port = 0
        self.root: Path | None = None
        self.bindir = pg_bindir()
        self.prefix: list[str] = []

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{self.db}"

    @property
    def data(self) -> Path:
        assert self.root is not None
        return self.root / "data"

    def _run(self, *args: str, timeout: float = 60) -> None:
        assert self.bindir is not None
        cmd = [*self.prefix, str(self.bindir / args[0]), *args[1:]]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:
            raise PgClusterError(f"{args[0]} failed ({done.returncode}): {(done.stderr or done.stdout).strip()[-800:]}")

    def start(self) -> PgCluster:
        if self.bindir is None:
            raise PgClusterError("no PostgreSQL server binaries in /usr/lib/postgresql/*/bin (initdb, pg_ctl)")
        self.root = Path(tempfile.mkdtemp(prefix="minodice-bench-pg-"))
        if os.geteuid() == 0:
            try:
                owner = pwd.getpwnam("postgres")
            except KeyError:
                self.stop()
                raise PgClusterError("running as root and there is no 'postgres' user to run PostgreSQL as") from None
            os.chown(self.root, owner.pw_uid, owner.pw_gid)
            self.prefix = ["runuser", "-u", "postgres", "--"]
        self.port = _free_port()
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c max_connections=200"
        if self.fast:
            options += " -c fsync=off"
        try:
            self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
            self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "pg.log"), "-w", "-t", "30",
                      "-o", options, "start")
            self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", self.db, timeout=30)
        except (PgClusterError, subprocess.SubprocessError, OSError) as exc:
            self.stop()
            raise PgClusterError(f"could not start a throwaway PostgreSQL: {exc}") from exc
        return self

    def postmaster_pid(self) -> int | None:
        """The server's process id (its backends are its children), None when it is not running."""
        try:
            return int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def stop(self) -> None:
        if self.root is None:
            return
        if (self.data / "postmaster.pid").exists():
            with contextlib.suppress(PgClusterError, subprocess.SubprocessError, OSError):
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "stop")
        shutil.rmtree(self.root, ignore_errors=True)
        self.root = None

    def __enter__(self) -> PgCluster:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()
