"""The pace of a table (issue 56): a trick's result and a hand's summary hold the bots (never a person),
the bots bid at once, move clocks run out into the table's level bot while the person keeps the seat,
the stand-in for an away person plays at the table's level, a clock's bank survives a restart, and a
rematch waits until each person says ready or leaves.

Real servers on 127.0.0.1, one per kind: `paced` with short pauses, `clocked` with no pauses, clocks
50 times faster (`--clock-scale 0.02`: a `normal` decision has 0.6 s free and a bank of 1.8 s) and a
turn timeout of 1 s.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from test_server_common import Player, ServerProcess, make_table, play_out, server_fixtures, start

TRICK_PAUSE, HAND_PAUSE = 0.5, 0.7
SCALE = 0.02
MOVE, BANK = 30 * SCALE, 90 * SCALE  # the `normal` clock at this scale
SLACK = 0.05  # timers and frames on a busy machine

paced, _paced_http = server_fixtures("paced", trick_pause=TRICK_PAUSE, hand_pause=HAND_PAUSE)
clocked, _clocked_http = server_fixtures("clocked", clock_scale=SCALE, turn_timeout=1)


class Timed(Player):
    """A player that notes when each frame arrived (`at`, beside `received`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.at: list[float] = []
        super().__init__(*args, **kwargs)

    def next(self, timeout: float = 10.0) -> dict[str, Any]:
        msg = super().next(timeout)
        self.at.append(time.monotonic())
        return msg

    def events(self) -> list[tuple[float, dict[str, Any]]]:
        """Every event received, with the time its frame arrived."""
        return [(t, e) for t, m in zip(self.at, self.received, strict=True) if m["type"] == "state" and not m["full"]
                for e in m["events"]]

    def tables(self) -> list[tuple[float, dict[str, Any]]]:
        """Every TABLE received (in `table`, `state` and `welcome` frames), with its time."""
        return [(t, m["table"]) for t, m in zip(self.at, self.received, strict=True) if "table" in m]


@pytest.fixture
def http_paced(paced: ServerProcess) -> Iterator[httpx.Client]:
    with paced.api() as client:
        yield client


@pytest.fixture
def http_clocked(clocked: ServerProcess) -> Iterator[httpx.Client]:
    with clocked.api() as client:
        yield client


def test_a_trick_result_and_a_hand_summary_hold_the_bots_not_the_person(paced: ServerProcess,
                                                                         http_paced: httpx.Client) -> None:
    t = make_table(http_paced, 3, [None, "random", "random"], ["Ana"])
    ana = Timed(paced.ws_base, t["code"], t["tokens"][0])
    start(http_paced, t["code"], t["host"])
    play_out([ana], timeout=30, stop=lambda: ana.state is not None and ana.state["view"]["hand"] >= 3)
    events = ana.events()
    trick_holds, hand_holds, own_bids, bot_bids = [], [], [], []
    for k, (at, e) in enumerate(events):
        if e["type"] == "trick_won":
            roll = next(((t2, e2) for t2, e2 in events[k + 1:] if e2["type"] == "rolled"), None)
            if roll is not None and roll[1]["seat"] != 0:  # a bot leads the next trick
                trick_holds.append(roll[0] - at)
        if e["type"] == "hand_scored":
            hand = [(t2, e2) for t2, e2 in events[k + 1:] if e2["type"] == "bid_placed"][:3]
            if len(hand) < 3:  # the last hand seen: not all its bids came yet
                continue
            own_bids += [t2 - at for t2, e2 in hand if e2["seat"] == 0]
            bots = [t2 - at for t2, e2 in hand if e2["seat"] != 0]
            bot_bids.append(bots)
            hand_holds.append(min(bots))
    assert trick_holds and hand_holds, events
    # Every bot waits out the trick's result, and the hand's summary after the hand's last trick...
    assert min(trick_holds) >= TRICK_PAUSE - SLACK, trick_holds
    assert min(hand_holds) >= TRICK_PAUSE + HAND_PAUSE - SLACK, hand_holds
    # ... the bots bid together (their bids stay hidden until all are in) ...
    assert all(len(b) == 2 and max(b) - min(b) < 0.25 for b in bot_bids), bot_bids
    # ... and a person is never held: Ana's bid goes through at once.
    assert own_bids and max(own_bids) < TRICK_PAUSE, own_bids
    ana.close()


def test_options_and_the_table_say_the_pace_and_the_clock(paced: ServerProcess, http_clocked: httpx.Client) -> None:
    with paced.api() as http:
        options = http.get("/api/options").json()
    assert (options["trick_pause"], options["hand_pause"]) == (TRICK_PAUSE, HAND_PAUSE)
    assert [c["speed"] for c in options["clocks"]] == ["off", "relaxed", "normal", "fast"]
    assert options["clocks"][0] == {"speed": "off", "move": None, "bank": None}
    assert options["clocks"][2] == {"speed": "normal", "move": 30.0, "bank": 90.0}
    scaled = http_clocked.get("/api/options").json()["clocks"][3]
    assert scaled == {"speed": "fast", "move": pytest.approx(15 * SCALE), "bank": pytest.approx(45 * SCALE)}

    r = http_clocked.post("/api/tables", json={"seats": 3, "bots": [None, "hard", "random"], "name": "Ana", "clock": "normal"})
    table = r.json()["table"]
    assert table["clock"] == {"speed": "normal", "move": pytest.approx(MOVE), "bank": pytest.approx(BANK)}
    assert table["level"] == "hard"  # the first level among the seats' bots
    assert table["players"][0]["bank"] == pytest.approx(BANK) and table["players"][0]["clock_in"] is None
    assert table["players"][1]["bank"] is None  # a bot has no clock
    plain = http_clocked.post("/api/tables", json={"seats": 3, "name": "Bo"}).json()["table"]
    assert plain["clock"] is None and plain["level"] == "medium" and plain["players"][0]["bank"] is None
    for body, code in (({"clock": "slow"}, "bad_clock"), ({"level": "greedy"}, "bad_level")):
        r = http_clocked.post("/api/tables", json={"seats": 3, "name": "Cy", **body})
        assert r.status_code == 400 and r.json()["detail"]["code"] == code, r.text


def test_a_clock_that_runs_out_lets_the_level_bot_decide_and_the_person_keeps_the_seat(
    clocked: ServerProcess, http_clocked: httpx.Client
) -> None:
    r = http_clocked.post("/api/tables", json={
        "seats": 3, "bots": [None, "random", "random"], "name": "Ana", "clock": "normal", "level": "easy"})
    code, host, token = r.json()["table"]["code"], r.json()["host_token"], r.json()["token"]
    ana = Timed(clocked.ws_base, code, token)
    start(http_clocked, code, host)
    began = time.monotonic()
    # Ana does not bid: her free time and her bank run out, and the easy bot bids for her.
    ana.wait_for(lambda m: m["type"] == "state" and any(e["type"] == "bid_placed" and e["seat"] == 0
                                                        for e in m["events"]), timeout=15)
    assert time.monotonic() - began >= MOVE + BANK - SLACK
    seen = [tb["players"][0] for _, tb in ana.tables()]
    assert any(p["out_of_time"] for p in seen), seen
    first = next(p["clock_in"] for p in seen if p["clock_in"] is not None)
    assert first == pytest.approx(MOVE + BANK, abs=0.2)
    me = ana.state["table"]["players"][0]  # type: ignore[index]
    assert (me["kind"], me["autoplay"], me["connected"], me["bank"]) == ("human", False, True, 0.0)
    # With the bank empty, a decision she lets pass goes to the bot after its free time alone...
    ana.wait_for(lambda m: m["type"] == "state" and m["to_act"] == [0] and "legal" in m["view"]
                 and not m["view"]["bid_placed"].count(False), timeout=15)
    turn = time.monotonic()
    rolled = ana.wait_for(lambda m: m["type"] == "state" and any(
        e["type"] == "rolled" and e["seat"] == 0 for e in m["events"]), timeout=15)
    assert MOVE - SLACK <= time.monotonic() - turn < MOVE + BANK, rolled
    # ... and she plays on herself: her seat was never handed over.
    play_out([ana], timeout=30, stop=lambda: ana.state["view"]["hand"] >= 2 and ana.must_act())
    assert ana.act() is not None
    ana.pump(0.3)
    assert not [e for e in ana.errors if e["code"] not in ("not_your_turn", "wrong_phase", "already_bid")]
    assert ana.state["table"]["players"][0]["kind"] == "human"  # type: ignore[index]
    ana.close()


def test_the_stand_in_for_an_away_person_plays_at_the_table_level(clocked: ServerProcess,
                                                                  http_clocked: httpx.Client) -> None:
    t = make_table(http_clocked, 3, [None, None, "random"], ["Ana", "Bo"])  # level: medium
    r = http_clocked.post("/api/tables", json={"seats": 3, "bots": [None, None, "random"], "name": "Ana",
                                               "level": "easy"})
    code, host, token = r.json()["table"]["code"], r.json()["host_token"], r.json()["token"]
    # The host gives an open seat to "a bot": the table's level sits down.
    given = http_clocked.post(f"/api/tables/{code}/seats/1/bot", json={},
                              headers={"Authorization": f"Bearer {host}"}).json()
    assert given["players"][1]["bot"] == "easy"
    # Bo joined another table and is away when it starts: after the turn timeout its level stands in.
    start(http_clocked, t["code"], t["host"])
    ana = Player(clocked.ws_base, t["code"], t["tokens"][0])
    play_out([ana], timeout=30, stop=lambda: ana.state["view"]["hand"] >= 2)
    assert ana.state["table"]["players"][1]["autoplay"] is True  # type: ignore[index]
    assert ana.state["table"]["level"] == "medium"  # type: ignore[index]
    ana.close()
    del token


def test_a_person_s_decision_goes_to_the_table_level_bot() -> None:
    """Whoever makes a person's decision — the stand-in for an absent person, the bot deciding for one
    out of time — is the table's level; a bot seat plays its own bot."""
    from minodice.server.settings import Settings
    from minodice.server.store import StoredSeat, StoredTable
    from minodice.server.tables import Hub, Table

    seats = [StoredSeat(0, "human", "Ana", None, "a" * 64), StoredSeat(1, "bot", "Greedy 2", "greedy"),
             StoredSeat(2, "human", "Bo", None, "b" * 64)]
    stored = StoredTable(code="LEVELS", status="waiting", seats=3, rules={}, seed="7", first_start=0,
                         host_hash="h" * 64, host_seat=0, players=seats, clock="fast", level="hard")
    table = Table(stored, Hub(Settings(), None, None))  # type: ignore[arg-type]
    assert [table._bot_spec(s) for s in range(3)] == ["hard", "greedy", "hard"]
    table.overtime.add(2)
    assert table.bot_played(2) and not table.bot_played(0)
    stored.level = None  # a table stored before levels: the medium level, as before (the greedy bot)
    assert Table(stored, Hub(Settings(), None, None))._bot_spec(0) == "medium"  # type: ignore[arg-type]


def test_a_bank_survives_a_restart(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'bank.db'}"
    srv = ServerProcess(db, tmp_path / "server.log", clock_scale=SCALE).start()
    try:
        with srv.api() as http:
            r = http.post("/api/tables", json={"seats": 3, "bots": [None, "random", "random"], "name": "Ana",
                                               "clock": "normal"})
            code, host, token = r.json()["table"]["code"], r.json()["host_token"], r.json()["token"]
            ana = Player(srv.ws_base, code, token)
            start(http, code, host)
            time.sleep(MOVE + 0.5)  # 0.5 s past her free time: out of her bank
            ana.send({"type": "bid", "bid": 0})
            ana.wait_for(lambda m: m["type"] == "state" and m["view"]["bid_placed"][0])
            bank = ana.state["table"]["players"][0]["bank"]  # type: ignore[index]
            assert BANK - 0.5 - 0.3 < bank < BANK - 0.5 + SLACK, bank
            time.sleep(0.3)  # stored on the database thread
        srv.kill()
        ana.close()
        srv = ServerProcess(db, tmp_path / "server.log", port=srv.port, clock_scale=SCALE).start()
        with srv.api() as http:
            after = http.get(f"/api/tables/{code}").json()["players"][0]["bank"]
        assert after == pytest.approx(bank, abs=0.05)
    finally:
        srv.stop()


def _finished(server: ServerProcess, http: httpx.Client) -> tuple[dict[str, Any], Timed, Timed]:
    t = make_table(http, 3, [None, None, "random"], ["Ana", "Bo"])
    start(http, t["code"], t["host"])
    ana = Timed(server.ws_base, t["code"], t["tokens"][0], )
    bo = Timed(server.ws_base, t["code"], t["tokens"][1])
    play_out([ana, bo], timeout=30)
    return t, ana, bo


def _ask(http: httpx.Client, code: str, token: str) -> dict[str, Any]:
    r = http.post(f"/api/tables/{code}/rematch", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    return r.json()["table"]


def test_a_rematch_waits_until_each_person_is_ready(clocked: ServerProcess, http_clocked: httpx.Client) -> None:
    t, ana, bo = _finished(clocked, http_clocked)
    new = _ask(http_clocked, t["code"], t["tokens"][0])
    assert new["status"] == "waiting" and new["rematch_of"] == t["code"]
    # Bo still looks at the podium: he is told Ana is ready, and nothing starts.
    told = bo.wait_for(lambda m: m["type"] == "table" and m["table"]["players"][0]["ready"])
    assert told["table"]["rematch"] == new["code"] and told["table"]["rematch_started"] is False
    assert told["table"]["players"][1]["ready"] is False
    bo.pump(0.3)
    assert not [m for m in bo.received if m["type"] == "rematch"]
    assert http_clocked.get(f"/api/tables/{new['code']}").json()["status"] == "waiting"
    # Bo says ready too: it starts, and both are told to come.
    assert _ask(http_clocked, t["code"], t["tokens"][1])["status"] == "playing"
    for p in (ana, bo):
        p.wait_for(lambda m: m["type"] == "rematch" and m["code"] == new["code"])
    assert http_clocked.get(f"/api/tables/{t['code']}").json()["rematch_started"] is True
    ana.close()
    bo.close()


def test_a_rematch_starts_when_the_others_have_left(clocked: ServerProcess, http_clocked: httpx.Client) -> None:
    t, ana, bo = _finished(clocked, http_clocked)
    assert _ask(http_clocked, t["code"], t["tokens"][0])["status"] == "waiting"
    bo.close()  # Bo leaves the podium without a word
    started = ana.wait_for(lambda m: m["type"] == "rematch")
    new = http_clocked.get(f"/api/tables/{started['code']}").json()
    assert new["status"] == "playing" and [p["kind"] for p in new["players"]] == ["human", "human", "bot"]
    ana.close()
