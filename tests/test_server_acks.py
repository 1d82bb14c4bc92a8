"""An acknowledged action survives a crash: kill -9 the server under load, start it again, count.

An action is *acknowledged* once its sender is sent anything that shows it — its
`ack`, or a `state` with it — and the server sends neither before the
transaction holding the action is committed (SQLite: a group commit in WAL
mode; `manager.ActionWriter`). So after a crash every acknowledged action must
be in the database.
"""

from __future__ import annotations

import contextlib
import random
import time
from pathlib import Path
from typing import Any

from test_server_common import Player, ServerProcess, start


def _own_actions(record: dict[str, Any], seat: int) -> int:
    """How many bids and rolls of `seat` a record holds."""
    n = 0
    for hand in record["hands"]:
        bids = hand.get("bids") or []
        n += seat < len(bids) and bids[seat] is not None
        n += sum(1 for trick in hand.get("tricks", []) for r in trick["rolls"] if r["seat"] == seat)
    return n


def test_every_acknowledged_action_survives_kill_9(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'acks.db'}"
    srv = ServerProcess(db, tmp_path / "server.log").start()
    people: list[tuple[str, str, int]] = []  # (code, token, seat)
    acked: dict[tuple[str, int], int] = {}
    players: list[tuple[Player, str, str]] = []
    try:
        with srv.api() as http:
            for _ in range(12):
                body = http.post("/api/tables", json={"seats": 4, "bots": [None, "greedy", None, "random"],
                                                      "name": "Ana"}).json()
                code = body["table"]["code"]
                bo = http.post(f"/api/tables/{code}/join", json={"name": "Bo"}).json()["token"]
                start(http, code, body["host_token"])
                people += [(code, body["token"], 0), (code, bo, 2)]
        for i, (code, token, seat) in enumerate(people):
            players.append((Player(srv.ws_base, code, token, random.Random(i)), code, token))
            acked[(code, seat)] = 0
        ids = 0
        acting: dict[int, tuple] = {}
        deadline = time.monotonic() + 2.5  # play at full speed, then crash in the middle of it
        while time.monotonic() < deadline:
            for k, (p, _code, _) in enumerate(players):
                if p.must_act() and acting.get(k) != p.progress():
                    choice = p.rng.choice(p.state["view"]["legal"])  # type: ignore[index]
                    ids += 1
                    msg = {"type": "bid", "bid": choice} if isinstance(choice, int) else {"type": "roll", "die": choice}
                    p.send(msg | {"id": ids})
                    acting[k] = p.progress()
            for p, _code, _ in players:
                p.pump(0.005)
        srv.kill()
        for p, code, _ in players:
            with contextlib.suppress(Exception):
                p.pump(0.2)  # what was sent before the crash
            acked[(code, p.seat)] = sum(1 for m in p.received if m["type"] == "ack")
            p.close()
        assert sum(acked.values()) > 50, acked  # enough load to mean something
        srv = ServerProcess(db, tmp_path / "server.log", port=srv.port).start()
        with srv.api() as http:
            for code, token, seat in people:
                rec = http.get(f"/api/tables/{code}/record", headers={"Authorization": f"Bearer {token}"}).json()
                assert _own_actions(rec, seat) >= acked[(code, seat)], (code, seat)
    finally:
        srv.stop()


def test_checkpoints_apart_from_the_commits(tmp_path: Path) -> None:
    """A server's commits do not copy the write-ahead log into the database (that copy and its fsync
    held up every waiting action); `checkpoint`, run from a thread of its own, does."""
    import sqlite3

    from minodice.server.store import Store, StoredSeat, StoredTable

    store = Store(f"sqlite:///{tmp_path / 'wal.db'}", tmp_path / "wal.key")
    try:
        store.create(StoredTable(code="AAAAAA", status="playing", seats=3, rules={}, seed="1", first_start=0,
                                 host_hash="h" * 64, host_seat=0,
                                 players=[StoredSeat(0, "human", "Ana", None, "a" * 64),
                                          StoredSeat(1, "bot", "Greedy 2", "greedy"),
                                          StoredSeat(2, "bot", "Random 3", "random")]))
        store.checkpoint_apart()
        for n in range(3000):  # well past the 1,000 pages at which a commit would checkpoint
            store.append_actions([("AAAAAA", n, n % 3, "bid", str(n % 3))])  # sealed: 51 characters each
        wal = tmp_path / "wal.db-wal"
        grown = wal.stat().st_size
        assert grown > 2000 * 4096, grown  # no commit checkpointed (one would have kept it near 1,000 pages)
        with contextlib.closing(sqlite3.connect(tmp_path / "wal.db")) as conn:
            assert conn.execute("SELECT count(*) FROM actions").fetchone()[0] == 3000  # all committed
        store.checkpoint()
        with contextlib.closing(sqlite3.connect(tmp_path / "wal.db")) as conn:
            busy, log, done = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        assert busy == 0 and log == done  # everything is in the database file
    finally:
        store.close()
