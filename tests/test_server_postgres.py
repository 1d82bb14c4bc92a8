"""The store and a whole server game (with a kill and a restart) on a real, throwaway PostgreSQL
(the `pg_url` fixture of postgres_cluster.py)."""

from __future__ import annotations

from pathlib import Path

import postgres_cluster
from minodice import record
from test_server_common import Player, ServerProcess, play_out, start, store_cases

pg_url = postgres_cluster.pg_url  # the fixture


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
            # Hand 2 and Ana must act on a state she has not acted on yet: nothing moves until she does.
            # (A state can still ask her to act while her answer is on its way; stopping there would let
            # the game move on after `before` is taken.)
            play_out([ana], stop=lambda: ana.state["view"]["hand"] >= 2 and ana.state["to_act"] == [0]
                     and ana.must_act() and ana.acted_on != ana.progress())
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


def test_the_group_commit_refuses_what_another_process_stored_first(pg_url: str) -> None:
    """`Store.commit_actions` (the group commit of processes sharing PostgreSQL): an action whose number is
    taken is refused, and so is the next of its table (it would follow another process's action); the
    other tables' actions in the batch are stored, a finished one marked over; the stored actions' notes
    arrive together, one a line, 200 a notification."""
    import os

    import psycopg

    from minodice.server.cluster import libpq_url
    from minodice.server.store import CHANNEL, Store, StoredSeat, StoredTable

    store = Store(pg_url)
    t, u = ("G" + os.urandom(3).hex().upper() for _ in range(2))
    for code in (t, u):
        store.create(StoredTable(code=code, status="playing", seats=3, rules={}, seed="1", first_start=0,
                                 host_hash="h" * 64, host_seat=0,
                                 players=[StoredSeat(s, "bot", f"Bot {s}", "greedy") for s in range(3)]))
    try:
        with psycopg.connect(libpq_url(pg_url), autocommit=True) as listener:
            listener.execute(f"LISTEN {CHANNEL}")
            first = [(t, 0, 0, "roll", "red", None, (f"a p1 {t}",)), (t, 1, 1, "bid", "2", None, (f"a p1 {t}",))]
            assert store.commit_actions(first) == set()
            behind = [(t, 1, 1, "roll", "green", None, (f"a p2 {t}",)), (t, 2, 2, "roll", "green", None, (f"a p2 {t}",)),
                      (u, 0, 0, "roll", "red", [1, 2, 3], (f"a p2 {u}", f"t p2 {u}"))]
            assert store.commit_actions(behind) == {(t, 1), (t, 2)}
            many = tuple(f"a p3 {i}" for i in range(450))  # more than one notification holds
            assert store.commit_actions([(t, 2, 2, "roll", "blue", None, many)]) == set()
            notes = [n.payload for n in listener.notifies(timeout=2.0, stop_after=6)]
        # A table's second action of a batch commits after its first: two notifications.
        assert notes[:3] == [f"a p1 {t}", f"a p1 {t}", f"a p2 {u}\nt p2 {u}"]
        assert [len(n.split("\n")) for n in notes[3:]] == [200, 200, 50]
        assert [line for n in notes[3:] for line in n.split("\n")] == list(many)
        assert store.actions_from(t) == [(0, "roll", "red"), (1, "bid", "2"), (2, "roll", "blue")]
        done = store.load(u)
        assert done is not None and done.status == "over" and done.totals == [1, 2, 3] and done.finished is not None
        assert done.actions == [(0, "roll", "red")]
        assert store.commit_action(t, 2, 2, "roll", "green") == [(2, "roll", "blue")]  # one action: the same rule
        assert store.commit_action(t, 3, 0, "roll", "green") == []
    finally:
        store.close()
