"""Two server processes on one PostgreSQL behind a round-robin proxy: a start right after a join on the
other process. In a module (and database) of its own: its eighty started tables are resumed by every server
that opens the database after it, which would burden the timing of the other cluster tests."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import postgres_cluster
from test_server_common import ServerProcess

pg_url = postgres_cluster.pg_url  # the fixture


def test_the_host_starts_on_one_process_right_after_a_join_on_the_other(pg_url: str, tmp_path: Path) -> None:
    """A round-robin proxy may send the join to one process and the start to the other at once: the start
    goes by the database, not by whether the join's news has reached its process yet (it once did: 409)."""
    a = ServerProcess(pg_url, tmp_path / "a.log", secret_file=tmp_path / "secret.key").start()
    b = ServerProcess(pg_url, tmp_path / "b.log", secret_file=tmp_path / "secret.key").start()

    def hosts(_: int) -> list[str]:
        """Tables made on a, joined on b, started on a at once: the refusals."""
        refused = []
        with a.api() as on_a, b.api() as on_b:
            for _ in range(20):
                body = on_a.post("/api/tables", json={"seats": 3, "bots": [None, "greedy", None], "name": "Ana"}).json()
                code = body["table"]["code"]
                assert on_b.post(f"/api/tables/{code}/join", json={"name": "Bo"}).status_code == 200
                r = on_a.post(f"/api/tables/{code}/start", headers={"Authorization": f"Bearer {body['host_token']}"})
                if r.status_code != 200:
                    refused.append(r.text)
        return refused

    try:
        with ThreadPoolExecutor(4) as pool:  # several hosts at once, as a busy server sees them
            assert [t for refused in pool.map(hosts, range(4)) for t in refused] == []
    finally:
        a.stop()
        b.stop()
