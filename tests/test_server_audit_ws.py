"""The websocket protocol's audit findings (issue 14), against a real `minodice serve` on SQLite.

- message ids are capped (integers JavaScript holds exactly, strings of 64
  characters) and a bad id is refused without being echoed;
- every message with an id gets one answer carrying its `ref` (`ack` when it
  was carried out), after what it caused;
- ids are idempotent per connection: the same frame sent again — in the next
  hand too — is not carried out again and gets the same answer; another
  frame with a used id is refused with `duplicate_id`;
- `hello` asks for a seat (a token) or for watching (`"spectate": true`),
  exactly one of them; an empty token is a bad token, not a spectator.
"""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from minodice import codes
from minodice.server.protocol import BadMessage, fingerprint, parse_client
from minodice.server.ws import Answers
from test_server_common import Player, ServerProcess, make_table, server_fixtures, start

server, http = server_fixtures("audit_ws")

SAFE = 2**53 - 1


def solo_table(http: httpx.Client) -> dict[str, Any]:
    """A started 3-seat table: Ana and two bots (no bot delay, so the game waits only for Ana)."""
    t = make_table(http, 3, [None, "greedy", "random"], ["Ana"])
    start(http, t["code"], t["host"])
    return t


def answers_to(p: Player, ref: Any) -> list[dict[str, Any]]:
    """Every frame `p` was sent that carries `ref` (compared with its type: 1 is not "1")."""
    return [m for m in p.received if "ref" in m and type(m["ref"]) is type(ref) and m["ref"] == ref]


def answer(p: Player, ref: Any, count: int = 1, timeout: float = 10.0) -> dict[str, Any]:
    """The `count`-th frame carrying `ref` (reading until it comes)."""
    deadline = time.monotonic() + timeout
    while len(answers_to(p, ref)) < count:
        p.next(max(0.01, deadline - time.monotonic()))
    return answers_to(p, ref)[count - 1]


def my_turn(p: Player, timeout: float = 10.0) -> dict[str, Any]:
    """Read until the game waits for `p` alone; the view."""
    if p.state is None or p.state["to_act"] != [p.seat]:
        p.wait_for(lambda m: m["type"] == "state" and m["to_act"] == [p.seat], timeout)
    p.pump(0.1)
    assert p.state is not None and p.state["to_act"] == [p.seat]
    return p.state["view"]


def quiet(p: Player, seconds: float = 0.4) -> list[dict[str, Any]]:
    """The frames `p` is sent within `seconds`."""
    before = len(p.received)
    p.pump(seconds)
    return p.received[before:]


# --- 1. ids are capped -------------------------------------------------------------------------


def test_ids_javascript_holds_are_echoed(http: httpx.Client, server: ServerProcess) -> None:
    t = solo_table(http)
    ana = Player(server.ws_base, t["code"], t["tokens"][0])
    for ref in (SAFE, -SAFE, 0, "x" * 64, "7", ""):
        ana.send({"type": "ping", "id": ref})
        assert answer(ana, ref) == {"type": "pong", "ref": ref}
    ana.close()


@pytest.mark.parametrize(
    "bad_id",
    [SAFE + 1, -SAFE - 1, int("9" * 4000), 1.5, 2.0, True, [1], {"n": 1}, "x" * 65],
    ids=["2^53", "-2^53", "4000-digits", "fraction", "float", "bool", "list", "object", "65-chars"],
)
def test_other_ids_are_refused_and_never_echoed(http: httpx.Client, server: ServerProcess, bad_id: Any) -> None:
    t = solo_table(http)
    ana = Player(server.ws_base, t["code"], t["tokens"][0])
    view = my_turn(ana)
    ana.send({"type": "bid", "bid": view["legal"][0], "id": bad_id})
    err = ana.wait_for(lambda m: m["type"] == "error")
    assert err == {"type": "error", "code": "bad_id", "message": codes.SERVER_ERRORS["bad_id"], "params": {}}
    raw = ana.raw[-1]
    assert len(raw) < 300 and json.dumps(bad_id)[:20] not in raw.replace(codes.SERVER_ERRORS["bad_id"], "")
    # the bid was not carried out: the game still waits for Ana's bid
    assert quiet(ana) == []
    ana.send({"type": "sync"})
    assert ana.wait_for(lambda m: m["type"] == "state")["view"] == view
    ana.close()


def test_a_bad_id_before_hello_is_not_echoed(http: httpx.Client, server: ServerProcess) -> None:
    t = solo_table(http)
    with connect(f"{server.ws_base}/ws/{t['code']}") as ws:
        ws.send('{"type": "hello", "spectate": true, "id": ' + "9" * 4000 + "}")
        raw = ws.recv(5)
        assert isinstance(raw, str) and len(raw) < 300 and "9999" not in raw
        assert json.loads(raw)["code"] == "bad_id"
        ws.send(json.dumps({"type": "hello", "spectate": True}))
        assert json.loads(ws.recv(5))["type"] == "welcome"


def test_the_parser_checks_the_id_first() -> None:
    with pytest.raises(BadMessage) as info:
        parse_client('{"type": "shout", "id": ' + "1" * 4000 + "}")
    assert (info.value.code, info.value.ref) == ("bad_id", None)
    with pytest.raises(BadMessage) as info:
        parse_client('{"type": "ping", "id": 1' + "0" * 4290 + "}")  # past Python's digit limit
    assert info.value.code in ("bad_json", "bad_id") and info.value.ref is None
    assert parse_client('{"type": "ping", "id": "5"}').id == "5"  # a string stays a string


def test_a_frames_fingerprint_is_its_content_whatever_the_key_order_spacing_or_id() -> None:
    bid = fingerprint(parse_client('{"type": "bid", "bid": 2, "id": 1}'))
    assert fingerprint(parse_client('{"id":9,"bid":2,"type":"bid"}')) == bid
    assert fingerprint(parse_client('{"type": "bid", "bid": 3, "id": 1}')) != bid
    # A lone surrogate (orjson refuses it) still has a fingerprint of its own, unlike any other text's.
    lone = fingerprint(parse_client('{"type": "chat", "text": "a\\ud800", "id": 1}'))
    escaped = fingerprint(parse_client('{"type": "chat", "text": "a\\\\ud800", "id": 1}'))
    assert lone == fingerprint(parse_client('{"text": "a\\ud800", "type": "chat"}')) and lone != escaped


# --- 2. every message with an id is answered, after what it caused ------------------------------


def test_actions_chat_and_sync_are_acknowledged_after_their_effect(http: httpx.Client, server: ServerProcess) -> None:
    t = make_table(http, 4, [None, None, "greedy", "random"], ["Ana", "Bo"])
    start(http, t["code"], t["host"])
    ana = Player(server.ws_base, t["code"], t["tokens"][0])
    bo = Player(server.ws_base, t["code"], t["tokens"][1])
    ana.send({"type": "bid", "bid": 0, "id": 1})
    ack = answer(ana, 1)
    assert ack == {"type": "ack", "ref": 1}
    at = ana.received.index(ack)
    states = [k for k, m in enumerate(ana.received[:at]) if m["type"] == "state" and m["view"]["bid_placed"][0]]
    assert states, "the state with Ana's bid comes before the ack"
    # a refusal is the answer instead, and no ack follows it
    ana.send({"type": "bid", "bid": 0, "id": 2})
    assert answer(ana, 2)["code"] == "already_bid"
    bo.send({"type": "bid", "bid": 1, "id": "b1"})
    assert answer(bo, "b1") == {"type": "ack", "ref": "b1"}
    # the roll, by whoever's turn it is
    # (the reveal may have reached Bo before his ack, so his latest state counts: no new frame need come)
    for p in (ana, bo):
        revealed = lambda m: m["type"] == "state" and m["view"]["bids"][0] is not None and bool(m["to_act"])  # noqa: E731
        if p.state is None or not revealed(p.state):
            p.wait_for(revealed)
        p.pump(0.2)
    turn = ana.state["to_act"][0]  # type: ignore[index]
    if turn in (0, 1):
        mover = ana if turn == 0 else bo
        die = mover.state["view"]["legal"][0]  # type: ignore[index]
        mover.send({"type": "roll", "die": die, "id": 3})
        ack = answer(mover, 3)
        assert ack == {"type": "ack", "ref": 3}
        at = mover.received.index(ack)
        assert any(
            e["type"] == "rolled" and e["seat"] == turn
            for m in mover.received[:at] if m["type"] == "state" for e in m["events"]
        )
    # chat and reactions: the chat frame first, then the ack
    ana.send({"type": "chat", "text": "gl", "id": 4})
    ack = answer(ana, 4)
    assert ack == {"type": "ack", "ref": 4}
    assert any(m["type"] == "chat" and m["message"]["text"] == "gl" for m in ana.received[: ana.received.index(ack)])
    ana.send({"type": "react", "reaction": "👍", "id": 5})
    assert answer(ana, 5) == {"type": "ack", "ref": 5}
    # sync: the full state and the chat history, then the ack
    ana.send({"type": "sync", "id": 6})
    ack = answer(ana, 6)
    before = [m["type"] for m in ana.received[: ana.received.index(ack)]][-2:]
    assert before == ["state", "chat_history"] and ack == {"type": "ack", "ref": 6}
    # a ping's answer is its pong; a message without an id gets no ack
    ana.send({"type": "ping", "id": 7})
    assert answer(ana, 7) == {"type": "pong", "ref": 7}
    ana.send({"type": "chat", "text": "no id"})
    ana.pump(0.5)
    assert all("ref" in m for m in ana.received if m["type"] == "ack")
    assert len([m for m in ana.received if m["type"] == "ack"]) == 5
    # acks go to the sender only
    bo.pump(0.3)
    assert [m["ref"] for m in bo.received if m["type"] == "ack"] == ["b1"]
    ana.close()
    bo.close()


def test_the_welcome_carries_the_hello_id(http: httpx.Client, server: ServerProcess) -> None:
    t = solo_table(http)
    with connect(f"{server.ws_base}/ws/{t['code']}") as ws:
        ws.send(json.dumps({"type": "hello", "token": t["tokens"][0], "id": "h"}))
        welcome = json.loads(ws.recv(5))
        assert welcome["type"] == "welcome" and welcome["ref"] == "h" and welcome["seat"] == 0


# --- 3. ids are idempotent per connection ------------------------------------------------------


def play_until_next_hand(ana: Player, first_id: int) -> int:
    """Ana rolls (new ids) until the next hand's bidding waits for her; the next unused id."""
    hand = ana.state["view"]["hand"]  # type: ignore[index]
    next_id = first_id
    while True:
        view = my_turn(ana)
        if view["hand"] > hand:
            return next_id
        assert isinstance(view["legal"][0], str), "Ana rolls until the hand is over"
        ana.send({"type": "roll", "die": view["legal"][0], "id": next_id})
        assert answer(ana, next_id)["type"] == "ack"
        next_id += 1


def test_a_frame_sent_again_in_the_next_hand_is_not_a_new_bid(http: httpx.Client, server: ServerProcess) -> None:
    t = solo_table(http)
    ana = Player(server.ws_base, t["code"], t["tokens"][0])
    view = my_turn(ana)
    assert view["hand"] == 1
    held = view["dice"][0]
    # a roll while bidding is refused, and stays refused when sent again later
    ana.send({"type": "roll", "die": held, "id": 50})
    refusal = answer(ana, 50)
    assert refusal["code"] == "wrong_phase"
    bid = {"type": "bid", "bid": 0, "id": 1}
    ana.send(bid)
    assert answer(ana, 1) == {"type": "ack", "ref": 1}
    view = my_turn(ana)
    assert view["legal"] == [held]
    ana.send({"type": "roll", "id": 50, "die": held})  # same frame, other key order: same answer
    assert answer(ana, 50, count=2) == refusal
    assert quiet(ana) == [] and ana.state["to_act"] == [0]  # type: ignore[index]
    next_id = play_until_next_hand(ana, 100)
    view = ana.state["view"]  # type: ignore[index]
    assert view["hand"] == 2 and not view["bid_placed"][0]
    # hand 2: the hand-1 bid again, same id: answered as the first time, not carried out
    ana.send(bid)
    assert answer(ana, 1, count=2) == {"type": "ack", "ref": 1}
    assert quiet(ana) == []
    ana.send({"type": "sync"})
    again = ana.wait_for(lambda m: m["type"] == "state")
    assert again["view"] == view and again["to_act"] == [0] and not again["view"]["bid_placed"][0]
    # another frame with a used id is refused
    ana.send({"type": "bid", "bid": 1, "id": 1})
    dup = answer(ana, 1, count=3)
    assert dup["type"] == "error" and dup["code"] == "duplicate_id"
    assert dup["message"] == codes.SERVER_ERRORS["duplicate_id"]
    assert quiet(ana) == []
    # a new id is a new bid
    ana.send({"type": "bid", "bid": 1, "id": next_id})
    assert answer(ana, next_id) == {"type": "ack", "ref": next_id}
    assert ana.state["view"]["bid_placed"][0]  # type: ignore[index]
    own = http.get(f"/api/tables/{t['code']}/record", headers={"Authorization": f"Bearer {t['tokens'][0]}"})
    assert [h["bids"][0] for h in own.json()["hands"]] == [0, 1]
    ana.close()


def test_ids_are_per_connection(http: httpx.Client, server: ServerProcess) -> None:
    """Another connection of the same seat (a reconnect, a second tab) starts its ids afresh."""
    t = solo_table(http)
    ana = Player(server.ws_base, t["code"], t["tokens"][0])
    view = my_turn(ana)
    ana.send({"type": "roll", "die": view["dice"][0], "id": 1})
    assert answer(ana, 1)["code"] == "wrong_phase"
    ana.close()
    again = Player(server.ws_base, t["code"], t["tokens"][0])
    again.send({"type": "bid", "bid": 0, "id": 1})
    assert answer(again, 1) == {"type": "ack", "ref": 1}
    assert again.state["view"]["bid_placed"][0]  # type: ignore[index]
    again.close()


def test_the_hello_id_is_used(http: httpx.Client, server: ServerProcess) -> None:
    t = solo_table(http)
    with connect(f"{server.ws_base}/ws/{t['code']}") as ws:
        hello = {"type": "hello", "token": t["tokens"][0], "id": 9}
        ws.send(json.dumps(hello))
        got = [json.loads(ws.recv(5)) for _ in range(3)]  # welcome, state, chat_history
        assert [m["type"] for m in got] == ["welcome", "state", "chat_history"]
        ws.send(json.dumps({"type": "ping", "id": 9}))
        assert _answer(ws)["code"] == "duplicate_id"
        ws.send(json.dumps(hello))
        assert _answer(ws)["code"] == "already_hello"


def _answer(ws) -> dict:
    """The next frame that answers a message (the bots' moves may send `state` frames in between)."""
    while True:
        frame = json.loads(ws.recv(5))
        if frame["type"] not in ("state", "table", "chat", "chat_history"):
            return frame


def test_a_connection_remembers_its_last_256_ids() -> None:
    answers = Answers()
    for k in range(300):
        answers.remember(k, b"f", {"type": "ack", "ref": k})
    assert len(answers.seen) == 256
    assert answers.get(43) is None and answers.get(44) == (b"f", {"type": "ack", "ref": 44})
    assert answers.get(299) is not None and answers.get("299") is None


# --- 4. hello asks for a seat or for watching --------------------------------------------------


@pytest.mark.parametrize("token", ["", "   "])
def test_an_empty_token_is_a_bad_token_not_a_spectator(http: httpx.Client, server: ServerProcess, token: str) -> None:
    t = solo_table(http)
    with connect(f"{server.ws_base}/ws/{t['code']}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token, "id": 1}))
        err = json.loads(ws.recv(5))
        assert (err["type"], err["code"], err["ref"]) == ("error", "bad_token", 1)
        with pytest.raises(ConnectionClosed) as info:
            ws.recv(5)
        assert info.value.rcvd is not None and info.value.rcvd.code == 4401


@pytest.mark.parametrize(
    ("hello", "code"),
    [
        ({"type": "hello"}, "bad_hello"),
        ({"type": "hello", "token": None}, "bad_hello"),
        ({"type": "hello", "spectate": False}, "bad_hello"),
        ({"type": "hello", "token": "TOKEN", "spectate": True}, "bad_hello"),
        ({"type": "hello", "token": "", "spectate": True}, "bad_hello"),
        ({"type": "hello", "spectate": "yes"}, "bad_message"),
        ({"type": "hello", "spectate": 1}, "bad_message"),
    ],
)
def test_watching_is_asked_for(http: httpx.Client, server: ServerProcess, hello: dict[str, Any], code: str) -> None:
    t = solo_table(http)
    if hello.get("token") == "TOKEN":
        hello = {**hello, "token": t["tokens"][0]}
    with connect(f"{server.ws_base}/ws/{t['code']}") as ws:
        ws.send(json.dumps({**hello, "id": "h1"}))
        err = json.loads(ws.recv(5))
        assert (err["type"], err["code"], err["ref"]) == ("error", code, "h1")
        # the connection stays open: a correct hello is welcome
        ws.send(json.dumps({"type": "hello", "spectate": True}))
        welcome = json.loads(ws.recv(5))
        assert welcome["type"] == "welcome" and welcome["spectator"] is True and welcome["seat"] is None
        state = json.loads(ws.recv(5))
        assert state["type"] == "state" and state["view"]["seat"] is None and state["view"]["dice"] == []


def test_a_seat_and_a_spectator_say_hello(http: httpx.Client, server: ServerProcess) -> None:
    t = solo_table(http)
    ana = Player(server.ws_base, t["code"], t["tokens"][0])
    watcher = Player(server.ws_base, t["code"], None)  # sends "spectate": true
    assert (ana.seat, watcher.seat) == (0, None)
    assert watcher.received[0]["spectator"] is True
    with connect(f"{server.ws_base}/ws/{t['code']}") as ws:
        ws.send(json.dumps({"type": "hello", "token": t["tokens"][0], "spectate": False}))
        assert json.loads(ws.recv(5))["seat"] == 0
    ana.close()
    watcher.close()
