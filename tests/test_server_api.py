"""The lobby's HTTP API against a real `minodice serve` on 127.0.0.1 (SQLite file in tmp_path)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx
import pytest

from minodice import record
from test_server_common import Player, ServerProcess, make_table, play_out, server_fixtures, start

server, http = server_fixtures("api")


def test_options_and_docs(http: httpx.Client) -> None:
    opts = http.get("/api/options").json()
    assert opts["seats"] == {"min": 3, "max": 6}
    assert {b["name"] for b in opts["bots"]} >= {"random", "greedy"}
    assert "scoring" in opts["rules"]
    # the dice table, in table order, exactly as minodice.dice has it (the web pages draw from it)
    from minodice.dice import BAG_COUNTS, Die, Face

    assert opts["dice"] == [
        {"die": d.value, "faces": [f.value for f in d.faces], "special": d.special, "bag": BAG_COUNTS[d]}
        for d in Die
    ]
    assert opts["dice"][3] == {"die": "red", "faces": ["5", "5", "6", "6", "7", "7"], "special": False, "bag": 7}
    assert opts["faces"] == [f.value for f in Face]
    assert http.get("/docs").status_code == 200
    assert "/api/tables" in http.get("/openapi.json").json()["paths"]


def test_create_join_start(http: httpx.Client) -> None:
    r = http.post("/api/tables", json={"seats": 4, "bots": [None, None, "greedy", "random"], "name": "Ana"})
    assert r.status_code == 201
    body = r.json()
    code = body["table"]["code"]
    assert body["seat"] == 0 and len(body["token"]) >= 24 and body["host_token"] != body["token"]
    assert len(code) == 6
    table = http.get(f"/api/tables/{code.lower()}").json()
    assert [p["kind"] for p in table["players"]] == ["human", "open", "bot", "bot"]
    assert "seed" not in str(table) and body["token"] not in str(table)
    # not full yet: cannot start
    r = http.post(f"/api/tables/{code}/start", headers={"Authorization": f"Bearer {body['host_token']}"})
    assert r.status_code == 409 and r.json()["detail"]["code"] == "not_full"
    j = http.post(f"/api/tables/{code}/join", json={"name": "Ana"})
    assert j.status_code == 200 and j.json()["seat"] == 1
    assert j.json()["table"]["players"][1]["name"] == "Ana (2)"
    full = http.post(f"/api/tables/{code}/join", json={"name": "Cy"})
    assert full.status_code == 409 and full.json()["detail"]["code"] == "table_full"
    # only the host starts
    r = http.post(f"/api/tables/{code}/start", headers={"Authorization": f"Bearer {j.json()['token']}"})
    assert r.status_code == 403
    r = http.post(f"/api/tables/{code}/start", headers={"Authorization": f"Bearer {body['token']}"})
    assert r.status_code == 200 and r.json()["status"] == "playing"
    assert r.json()["hand"] == 1 and {0, 1} <= set(r.json()["to_act"])
    late = http.post(f"/api/tables/{code}/join", json={"name": "Late"})
    assert late.status_code == 409 and late.json()["detail"]["code"] == "already_started"


@pytest.mark.parametrize(
    "body",
    [
        {"seats": 2},
        {"seats": 7},
        {"seats": 3, "bots": [None, None]},
        {"seats": 3, "bots": [None, "cmd:python3 -c 'import os'", None]},
        {"seats": 3, "bots": [None, "greedy:sims=99999", None]},
        {"seats": 3, "bots": [None, "nonesuch", None]},
        {"seats": 3, "rules": {"scoring": "golf"}},
        {"seats": 3, "rules": {"colour": "blue"}},
        {"seats": 3, "name": "   "},
        {"seats": 3, "surprise": True},
        {"seats": 3, "bots": ["greedy", "greedy", "greedy"], "name": "Ana"},
    ],
)
def test_create_refused(http: httpx.Client, body: dict) -> None:
    r = http.post("/api/tables", json=body)
    assert r.status_code in (400, 422), r.text
    if r.status_code == 400:
        assert r.json()["detail"]["message"]


def test_unknown_table_and_bad_join(http: httpx.Client) -> None:
    assert http.get("/api/tables/ZZZZZZ").json()["detail"]["code"] == "no_table"
    assert http.get("/api/tables/ZZZZZZ").status_code == 404
    code = http.post("/api/tables", json={"seats": 3}).json()["table"]["code"]
    assert http.post(f"/api/tables/{code}/join", json={"name": "x" * 200}).status_code == 422
    assert http.post(f"/api/tables/{code}/join", json={"name": "Bo", "seat": 9}).status_code == 422
    assert http.post(f"/api/tables/{code}/join", json={"name": "Bo", "seat": 2}).json()["seat"] == 2
    taken = http.post(f"/api/tables/{code}/join", json={"name": "Cy", "seat": 2})
    assert taken.json()["detail"]["code"] == "seat_taken"


def test_host_hands_seat_to_bot_and_record(http: httpx.Client, server: ServerProcess) -> None:
    t = make_table(http, 3, [None, None, None], ["Ana"])
    code, host = t["code"], t["host"]
    auth = {"Authorization": f"Bearer {host}"}
    refused = http.post(f"/api/tables/{code}/seats/1/bot", json={"bot": "cmd:rm -rf /"}, headers=auth)
    assert refused.status_code == 400 and refused.json()["detail"]["code"] == "bad_bot"
    assert http.post(f"/api/tables/{code}/seats/1/bot", json={"bot": "greedy"}).status_code == 403
    for seat in (1, 2):
        assert http.post(f"/api/tables/{code}/seats/{seat}/bot", json={"bot": "random"}, headers=auth).status_code == 200
    assert http.get(f"/api/tables/{code}/record").status_code == 409  # not started
    start(http, code, host)
    # in progress: only the seat's own record, only with its token
    assert http.get(f"/api/tables/{code}/record").status_code == 403
    own = http.get(f"/api/tables/{code}/record", headers={"Authorization": f"Bearer {t['tokens'][0]}"})
    assert own.status_code == 200 and own.json()["format"] == "minodice/1"
    hand = own.json()["hands"][-1]
    assert all(d is None for d in hand["dice"][1]) and None not in hand["dice"][0]
    # via the cookie too
    http.cookies.set(f"md_{code}", t["tokens"][0])
    assert http.get(f"/api/tables/{code}/record").status_code == 200
    http.cookies.clear()
    # the human hands their own seat to a bot via the host: the bots finish the game
    p = Player(server.ws_base, code, None)
    assert http.post(f"/api/tables/{code}/seats/0/bot", json={"bot": "greedy"}, headers=auth).status_code == 200
    p.wait_for(lambda m: m["type"] == "state" and m["status"] == "over", timeout=30)
    p.close()
    full = http.get(f"/api/tables/{code}/record").json()
    assert record.check(full) is None and len(full["hands"]) == 8
    assert full["seats"][1]["bot"] == "random"
    games = http.get("/api/games").json()["games"]
    assert code in [g["code"] for g in games]
    g = next(g for g in games if g["code"] == code)
    assert g["totals"] == full["totals"] and len(g["places"]) == 3


def test_rematch_keeps_seats_and_tokens(http: httpx.Client, server: ServerProcess) -> None:
    t = make_table(http, 3, [None, "random", "random"], ["Ana"])
    code = t["code"]
    token = t["tokens"][0]
    start(http, code, t["host"])
    ana = Player(server.ws_base, code, token)
    assert http.post(f"/api/tables/{code}/rematch", headers={"Authorization": f"Bearer {token}"}).status_code == 409
    play_out([ana])
    assert http.post(f"/api/tables/{code}/rematch").status_code == 403
    r = http.post(f"/api/tables/{code}/rematch", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200
    new = r.json()["table"]
    assert new["status"] == "playing" and new["rematch_of"] == code
    assert [p["name"] for p in new["players"]] == ["Ana", "Random 2", "Random 3"]
    again = http.post(f"/api/tables/{code}/rematch", headers={"Authorization": f"Bearer {t['host']}"})
    assert again.json()["table"]["code"] == new["code"]  # once only
    ana.wait_for(lambda m: m["type"] == "rematch" and m["code"] == new["code"])
    ana.close()
    # the same token sits in the same seat of the rematch
    ana2 = Player(server.ws_base, new["code"], token)
    assert ana2.seat == 0
    play_out([ana2])
    ana2.close()


def test_idle_tables_expire(tmp_path: Path) -> None:
    """A table idle past `idle_minutes` with nobody connected expires (in-process manager)."""

    from minodice.server.manager import TableManager
    from minodice.server.settings import Settings
    from minodice.server.tables import Refused

    async def scenario() -> None:
        m = TableManager(Settings(db=f"sqlite:///{tmp_path / 'idle.db'}", idle_minutes=0, sweep_seconds=3600))
        await m.startup()
        try:
            table, _host, _seat, _token = await m.create(3, [None, "greedy", "random"], {}, "Ana")
            assert await m.expire_idle() == [table.code]
            again = await m.get(table.code)
            assert again.status == "expired"
            try:
                await again.join("Bo", None)
            except Refused as exc:
                assert exc.code == "already_started" or exc.code == "expired"
        finally:
            await m.shutdown()

    asyncio.run(scenario())


def test_hint_advises_only_your_own_bid_or_roll_and_can_be_switched_off(server: ServerProcess, http: httpx.Client) -> None:
    t = make_table(http, 3, [None, None, "greedy"], ["Ana", "Ben"])
    code, tokens = t["code"], t["tokens"]
    assert http.get(f"/api/tables/{code}").json()["hints"] is True
    before = http.get(f"/api/tables/{code}/hint", headers={"Authorization": f"Bearer {tokens[0]}"})
    assert before.status_code == 409 and before.json()["detail"]["code"] == "not_playing"
    start(http, code, t["host"])
    answers = {}
    for seat, token in tokens.items():
        r = http.get(f"/api/tables/{code}/hint", headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200, r.text
        answers[seat] = r.json()
        assert answers[seat]["best_bid"] in (0, 1) and len(answers[seat]["bids"]) == 2
    # Each seat is advised on its own die (read from its own seat record), nobody else's.
    for seat, token in tokens.items():
        rec = http.get(f"/api/tables/{code}/record", headers={"Authorization": f"Bearer {token}"}).json()
        own = rec["hands"][0]["dice"][seat]
        assert answers[seat]["dice"] == own
    r = http.get(f"/api/tables/{code}/hint")
    assert r.status_code == 403 and r.json()["detail"]["code"] == "not_seated"
    # Out of turn: once Ana has bid, the hint is refused (her bid is placed) and the game goes on.
    ana = Player(server.ws_base, code, tokens[0])
    ana.send({"type": "bid", "bid": 0})
    deadline = time.monotonic() + 10
    while not ana.state["view"]["bid_placed"][0]:
        assert time.monotonic() < deadline
        ana.pump(0.1)
    r = http.get(f"/api/tables/{code}/hint", headers={"Authorization": f"Bearer {tokens[0]}"})
    assert r.status_code == 409 and r.json()["detail"]["code"] == "no_decision"
    assert "ask when it is your turn" in r.json()["detail"]["message"]
    # When Ben has bid too, Ana (the start player) rolls first: the hint weighs her one die (forced:
    # nothing to weigh), and asked again it gives the very same answer; Ben, not on turn, gets none.
    ben = Player(server.ws_base, code, tokens[1])
    ben.send({"type": "bid", "bid": 0})
    while not isinstance((ana.state["view"].get("legal") or [0])[0], str):  # her dice to roll
        assert time.monotonic() < deadline + 10
        ana.pump(0.1)
    r = http.get(f"/api/tables/{code}/hint", headers={"Authorization": f"Bearer {tokens[0]}"})
    assert r.status_code == 200, r.text
    roll = r.json()
    assert roll["kind"] == "roll" and roll["seat"] == 0 and roll["bot"] == "montecarlo"
    assert roll["chosen"] == answers[0]["dice"][0]
    assert roll["choices"] == [{"choice": answers[0]["dice"][0], "expected_score": None, "ci95": None, "samples": 0}]
    assert http.get(f"/api/tables/{code}/hint", headers={"Authorization": f"Bearer {tokens[0]}"}).json() == roll
    r = http.get(f"/api/tables/{code}/hint", headers={"Authorization": f"Bearer {tokens[1]}"})
    assert r.status_code == 409 and r.json()["detail"]["code"] == "no_decision"
    ana.close()
    ben.close()
    off = http.post("/api/tables", json={"seats": 3, "bots": [None, "greedy", "greedy"], "name": "Cy", "hints": False})
    assert off.status_code == 201 and off.json()["table"]["hints"] is False
    code2, token2 = off.json()["table"]["code"], off.json()["token"]
    start(http, code2, off.json()["host_token"])
    r = http.get(f"/api/tables/{code2}/hint", headers={"Authorization": f"Bearer {token2}"})
    assert r.status_code == 403 and r.json()["detail"]["code"] == "no_hints"
    bad = http.post("/api/tables", json={"seats": 3, "hints": "yes"})
    assert bad.status_code == 422
