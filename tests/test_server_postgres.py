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
