"""Websocket play against a real server: full games, refusals, reconnects, turn timers, bad input."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from minodice import record
from test_server_common import Player, ServerProcess, make_table, play_out, server_fixtures, start

server, http = server_fixtures("ws", turn_timeout=1.5)


def table_2h2b(http: httpx.Client) -> dict:
    t = make_table(http, 4, [None, "greedy", None, "random"], ["Ana", "Bo"])
    start(http, t["code"], t["host"])
    return t


def closed(player: Player, timeout: float = 5.0) -> tuple[int, str]:
    """Read until the server closes the socket; its close code and reason."""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            player.next(deadline - time.monotonic())
    except ConnectionClosed as exc:
        assert exc.rcvd is not None
        return exc.rcvd.code, exc.rcvd.reason
    raise AssertionError("the server did not close the socket")


def test_full_game_two_humans_two_bots(http: httpx.Client, server: ServerProcess) -> None:
    t = table_2h2b(http)
    ana = Player(server.ws_base, t["code"], t["tokens"][0])
    bo = Player(server.ws_base, t["code"], t["tokens"][2])
    watcher = Player(server.ws_base, t["code"], None)
    assert (ana.seat, bo.seat, watcher.seat) == (0, 2, None)
    play_out([ana, bo])
    if not watcher.over:
        watcher.wait_for(lambda m: m["type"] == "state" and m["status"] == "over")
    for p in (ana, bo, watcher):
        assert p.over
        events = [e["type"] for m in p.received if m["type"] == "state" for e in m["events"]]
        assert events.count("hand_scored") == 8 and events[-1] == "game_over"
    assert ana.state["view"]["totals"] == bo.state["view"]["totals"] == watcher.state["view"]["totals"]
    assert watcher.state["view"]["seat"] is None and watcher.state["view"]["dice"] == []
    rec = http.get(f"/api/tables/{t['code']}/record").json()
    assert record.check(rec) is None
    assert rec["totals"] == ana.state["view"]["totals"]
    for p in (ana, bo, watcher):
        p.close()


def _bid_phase(p: Player) -> bool:
    return p.state is not None and p.state["status"] == "playing" and not all(p.state["view"]["bid_placed"])


def test_out_of_turn_and_wrong_seat_are_refused(http: httpx.Client, server: ServerProcess) -> None:
    t = table_2h2b(http)
    ana = Player(server.ws_base, t["code"], t["tokens"][0])
    bo = Player(server.ws_base, t["code"], t["tokens"][2])
    spy = Player(server.ws_base, t["code"], None)
    assert _bid_phase(ana)
    # another seat: refused by the server, nothing happens
    ana.send({"type": "bid", "bid": 0, "seat": 2, "id": 1})
    err = ana.wait_for(lambda m: m["type"] == "error")
    assert err["code"] == "not_your_seat" and err["ref"] == 1
    # a spectator cannot act
    spy.send({"type": "bid", "bid": 0})
    assert spy.wait_for(lambda m: m["type"] == "error")["code"] == "spectator"
    # rolling while bids are open: the engine's words
    ana.send({"type": "roll", "die": "red"})
    err = ana.wait_for(lambda m: m["type"] == "error")
    assert err["code"] == "wrong_phase" and "time to bid" in err["message"]
    ana.send({"type": "bid", "bid": 1})  # hand 1: bids 0..1
    ana.wait_for(lambda m: m["type"] == "state")
    ana.send({"type": "bid", "bid": 0})
    err = ana.wait_for(lambda m: m["type"] == "error")
    assert err["code"] == "already_bid" and err["message"] == "Ana has already bid"
    bo.pump(0.2)
    bo.send({"type": "bid", "bid": 5})
    err = bo.wait_for(lambda m: m["type"] == "error")
    assert err["code"] == "bid_out_of_range" and err["message"] == "bids go from 0 to 1"
    bo.send({"type": "bid", "bid": 0})
    # now rolling: whoever is not on turn is refused with the engine's words
    deadline = time.monotonic() + 10
    while True:
        for p in (ana, bo):
            p.pump(0.05)
        to_act = ana.state["to_act"]
        if ana.state["view"]["bids"][0] is not None and to_act and to_act[0] in (0, 2):
            break
        assert time.monotonic() < deadline
    turn = to_act[0]
    other = bo if turn == 0 else ana
    other.send({"type": "roll", "die": "red"})
    err = other.wait_for(lambda m: m["type"] == "error")
    assert err["code"] == "not_your_turn" and err["message"].startswith("it is ")
    assert err["message"] == f"it is {'Ana' if turn == 0 else 'Bo'}'s turn"
    # rolling a die the seat does not hold: refused (and the game goes on)
    mover = ana if turn == 0 else bo
    held = set(mover.state["view"]["dice"])
    missing = next(d for d in ["red", "yellow", "purple", "gray", "minotaur", "griffin", "mermaid"] if d not in held)
    mover.send({"type": "roll", "die": missing})
    assert mover.wait_for(lambda m: m["type"] == "error")["code"] in ("die_not_held", "must_follow")
    mover.send({"type": "roll", "die": "tartan"})
    assert mover.wait_for(lambda m: m["type"] == "error")["code"] == "unknown_die"
    play_out([ana, bo])
    rec = http.get(f"/api/tables/{t['code']}/record").json()
    assert record.check(rec) is None
    for p in (ana, bo, spy):
        p.close()


def test_reconnect_finds_the_game_where_it_was(http: httpx.Client, server: ServerProcess) -> None:
    t = table_2h2b(http)
    ana = Player(server.ws_base, t["code"], t["tokens"][0])
    bo = Player(server.ws_base, t["code"], t["tokens"][2])
    # stop where only the two people can move (the bots wait for them): nothing changes meanwhile
    play_out([ana, bo], stop=lambda: ana.state["view"]["hand"] >= 3 and ana.state["to_act"] == [0]
             and ana.acted_on != ana.progress())  # and her answer is not on its way
    ana.pump(0.2)
    assert ana.state["to_act"] == [0]
    before = ana.state["view"]
    ana.close()
    again = Player(server.ws_base, t["code"], t["tokens"][0])  # a refresh, or another device
    state = again.state
    assert state is not None and state["full"] and state["events_from"] == 0
    assert state["view"] == before
    # two connections of one seat both get the seat's state
    twin = Player(server.ws_base, t["code"], t["tokens"][0])
    assert twin.state is not None and twin.state["view"] == before
    twin.close()
    play_out([again, bo])
    again.close()
    bo.close()


def test_absent_player_is_played_by_a_bot_until_back(http: httpx.Client, server: ServerProcess) -> None:
    t = table_2h2b(http)
    bo = Player(server.ws_base, t["code"], t["tokens"][2])
    # Ana never connects: after the turn timer (1.5 s) a stand-in bot bids for her
    t0 = time.monotonic()
    bo.act()
    bo.wait_for(lambda m: m["type"] == "table" and m["table"]["players"][0]["autoplay"], timeout=8)
    assert time.monotonic() - t0 >= 1.0
    bo.wait_for(lambda m: m["type"] == "state" and m["view"]["bid_placed"][0], timeout=8)
    ana = Player(server.ws_base, t["code"], t["tokens"][0])
    info = ana.received[0]["table"]
    assert info["players"][0]["autoplay"] is False and info["players"][0]["connected"] is True
    play_out([ana, bo])
    ana.close()
    bo.close()


# --- bad input: a clear error or a closed socket, and the game is never disturbed ---------


def settle(p: Player, seats: set[int], timeout: float = 10.0) -> None:
    """Read until the game waits for exactly `seats` (the bots have moved)."""
    if p.state is None or set(p.state["to_act"]) != seats:
        p.wait_for(lambda m: m["type"] == "state" and set(m["to_act"]) == seats, timeout)
    p.pump(0.05)


@pytest.fixture
def game(http: httpx.Client, server: ServerProcess) -> Iterator[tuple[dict, Player, Player]]:
    t = table_2h2b(http)
    ana = Player(server.ws_base, t["code"], t["tokens"][0])
    bo = Player(server.ws_base, t["code"], t["tokens"][2])
    settle(ana, {0, 2})
    before = ana.state["view"]
    yield t, ana, bo
    # whatever happened, the game is where it was, and the people play on
    ana.send({"type": "sync"})
    assert ana.wait_for(lambda m: m["type"] == "state")["view"] == before
    ana.send({"type": "bid", "bid": 1})
    bo.send({"type": "bid", "bid": 0})
    ana.wait_for(lambda m: m["type"] == "state" and all(m["view"]["bid_placed"]))
    own = http.get(f"/api/tables/{t['code']}/record", headers={"Authorization": f"Bearer {t['tokens'][0]}"})
    assert own.status_code == 200 and own.json()["hands"][0]["bids"][0] == 1
    ana.close()
    bo.close()


@pytest.mark.parametrize(
    ("frame", "code", "words"),
    [
        ({"type": "shout", "text": "hi"}, "bad_message", "unknown message type"),
        ({"bid": 1}, "bad_message", "unknown message type"),
        ({"type": "bid"}, "bad_message", "bid: Field required"),
        ({"type": "bid", "bid": "1"}, "bad_message", "bid"),
        ({"type": "bid", "bid": True}, "bad_message", "bid"),
        ({"type": "bid", "bid": 1, "dice": ["red"]}, "bad_message", "dice: unknown field"),
        ({"type": "roll", "die": ["red"]}, "bad_message", "die"),
        ({"type": "hello", "token": "x"}, "already_hello", "already"),
        ("not json {", "bad_json", "JSON"),
        ([1, 2, 3], "bad_json", "JSON object"),
    ],
)
def test_bad_messages_get_clear_errors(game: tuple, frame: object, code: str, words: str) -> None:
    _t, ana, _bo = game
    before = ana.state["view"]
    ana.send(frame if isinstance(frame, str) else json.dumps(frame))
    err = ana.wait_for(lambda m: m["type"] == "error")
    assert err["code"] == code and words in err["message"], err
    ana.send({"type": "sync"})
    assert ana.wait_for(lambda m: m["type"] == "state")["view"] == before


def test_binary_frame(game: tuple) -> None:
    _t, ana, _bo = game
    ana.ws.send(b"\x00\x01")
    assert ana.wait_for(lambda m: m["type"] == "error")["code"] == "not_text"


def send_oversized(player: Player, text: str) -> tuple[int, str]:
    """Send a frame past the size limit; the close code and reason the server answers with.

    The server may close the socket while a large frame is still being written, so the
    close can surface from the send itself rather than from the next read.
    """
    try:
        player.send(text, throttle=False)
    except ConnectionClosed as exc:
        assert exc.rcvd is not None, "the socket closed without the server's close frame"
        return exc.rcvd.code, exc.rcvd.reason
    return closed(player)


def test_huge_message_closes_the_socket(game: tuple, server: ServerProcess) -> None:
    t, ana, _bo = game
    intruder = Player(server.ws_base, t["code"], t["tokens"][0])
    code, reason = send_oversized(intruder, json.dumps({"type": "ping", "id": "x" * 10_000}))
    assert code == 1009 and "too big" in reason
    intruder2 = Player(server.ws_base, t["code"], None)
    assert send_oversized(intruder2, "x" * 1_000_000)[0] == 1009
    ana.send({"type": "ping"})
    assert ana.wait_for(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"


def test_flood_gets_an_error_then_a_closed_socket(game: tuple, server: ServerProcess) -> None:
    t, _ana, _bo = game
    flooder = Player(server.ws_base, t["code"], t["tokens"][0])
    try:
        for _ in range(100):
            flooder.send({"type": "ping"}, throttle=False)
    except ConnectionClosed:
        pass
    code, reason = closed(flooder)
    assert code == 4429 and reason == "too many messages"
    assert any(e["code"] == "flood" for e in flooder.errors)


def test_many_bad_messages_close_the_socket(game: tuple, server: ServerProcess) -> None:
    t, _ana, _bo = game
    pest = Player(server.ws_base, t["code"], None)
    for i in range(25):
        try:
            pest.send({"type": "nope", "i": i})
        except ConnectionClosed:
            break
    assert closed(pest)[0] == 4400


def test_bad_token_unknown_table_and_no_hello(game: tuple, server: ServerProcess) -> None:
    t, _ana, _bo = game
    with connect(f"{server.ws_base}/ws/{t['code']}") as ws:
        ws.send(json.dumps({"type": "hello", "token": "not-a-token"}))
        err = json.loads(ws.recv(5))
        assert err["type"] == "error" and err["code"] == "bad_token"
        with pytest.raises(ConnectionClosed) as info:
            ws.recv(5)
        assert info.value.rcvd.code == 4401
    with connect(f"{server.ws_base}/ws/NOSUCH") as ws, pytest.raises(ConnectionClosed) as info:
        ws.recv(5)
    assert info.value.rcvd.code == 4404
    with connect(f"{server.ws_base}/ws/{t['code']}") as ws:
        ws.send(json.dumps({"type": "bid", "bid": 0}))
        err = json.loads(ws.recv(5))
        assert err["code"] == "need_hello"
        ws.send(json.dumps({"type": "hello", "spectate": True}))  # watching is asked for
        assert json.loads(ws.recv(5))["type"] == "welcome"
