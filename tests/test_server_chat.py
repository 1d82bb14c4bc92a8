"""Table chat and quick reactions: the room's rules alone, then against a real server.

The room (`minodice.server.chat`) is checked without a server: what text it
takes, the rate limits on a fake clock, the numbering and the history. The rest
runs a real `minodice serve`: two players and a spectator chatting, the history
on reconnect and on sync, every refusal code, the host's mute, a restart, and
malformed frames, with the game going on untouched.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path
from typing import Any

import httpx
import pytest

from minodice import codes
from minodice.server import chat
from minodice.server.chat import ChatRefused, ChatRoom, RateLimit, clean_text
from test_server_common import Player, ServerProcess, make_table, server_fixtures, start
from test_server_postgres import pg_url  # noqa: F401 (a fixture: a throwaway PostgreSQL, or a skip)

server, http = server_fixtures("chat")

MESSAGE_KEYS = {"n", "seat", "name", "kind", "text", "at"}


# --- the room, without a server -----------------------------------------------------------


def refusal(fn: Any, *args: Any) -> ChatRefused:
    with pytest.raises(ChatRefused) as info:
        fn(*args)
    return info.value


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("  hi  ", "hi"),
        ("¿Qué tal? 🎲", "¿Qué tal? 🎲"),
        ("x" * 200, "x" * 200),
        ("👍" * 200, "👍" * 200),
        ("a\u200db", "a\u200db"),
        ("<script>alert(1)</script>", "<script>alert(1)</script>"),
    ],
)
def test_text_is_trimmed_and_kept_as_written(text: str, shown: str) -> None:
    assert clean_text(text) == shown


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "chat_empty"),
        ("   ", "chat_empty"),
        ("\u200b\u200b", "chat_empty"),
        ("\u3164", "chat_empty"),
        (" \u2800 \u0301", "chat_empty"),
        ("x" * 201, "chat_too_long"),
        ("  " + "é" * 201 + " ", "chat_too_long"),
        ("two\nlines", "chat_control"),
        ("tab\there", "chat_control"),
        ("bell\x07", "chat_control"),
        ("\x1b[31mred", "chat_control"),
        ("abc\u202edcb", "chat_control"),
        ("a\u2028b", "chat_control"),
        ("lone \ud800", "chat_control"),
    ],
)
def test_bad_text_is_refused_with_its_code(text: str, code: str) -> None:
    exc = refusal(clean_text, text)
    assert exc.code == code and exc.code in codes.SERVER_ERRORS
    assert exc.message == codes.render(code, exc.params)
    if code == "chat_too_long":
        assert exc.params == {"limit": 200, "length": 201}


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_rate_limit_is_a_sliding_window() -> None:
    clock = Clock()
    limit = RateLimit(5, 10.0, clock)
    for _ in range(5):
        assert limit.wait(1) == 0
        limit.take(1)
        clock.now += 1
    assert limit.wait(1) == pytest.approx(5.0)  # the first of the five leaves the window at 110
    assert limit.wait(2) == 0  # per seat
    clock.now = 110.0
    assert limit.wait(1) == 0


def prepare(room: ChatRoom, seat: int | None, kind: str, body: str, muted: bool = False) -> chat.ChatMessage:
    return room.prepare(seat, f"P{seat}", kind, body, dt.datetime(2025, 1, 1, tzinfo=dt.UTC), muted)


def test_the_room_refuses_spectators_muted_seats_and_unknown_reactions() -> None:
    room = ChatRoom()
    assert refusal(prepare, room, None, "text", "hi").code == "chat_spectator"
    assert refusal(prepare, room, 1, "text", "hi", True).code == "chat_muted"
    assert refusal(prepare, room, 1, "reaction", "💩").code == "chat_bad_reaction"
    assert refusal(prepare, room, 1, "reaction", "👍👍").code == "chat_bad_reaction"
    assert room.next_n == 1  # nothing refused was numbered


def test_texts_and_reactions_have_their_own_limits() -> None:
    clock = Clock()
    room = ChatRoom(clock=clock)
    said = [prepare(room, 0, "text", f"m{k}") for k in range(5)]
    exc = refusal(prepare, room, 0, "text", "one more")
    assert exc.code == "chat_too_fast" and exc.params == {"limit": 5, "seconds": 10, "wait": 10}
    reactions = [prepare(room, 0, "reaction", r) for r in list(chat.REACTIONS) + list(chat.REACTIONS)[:4]]
    exc = refusal(prepare, room, 0, "reaction", "👍")
    assert exc.code == "chat_reactions_too_fast" and exc.params["limit"] == 10
    assert prepare(room, 1, "text", "another seat").n == 16
    assert [m.n for m in said + reactions] == list(range(1, 16))
    clock.now += 10
    assert prepare(room, 0, "text", "later").n == 17
    assert refusal(prepare, room, 0, "text", "\n").code == "chat_control"  # checked before the limit


def test_the_history_keeps_the_last_fifty_and_numbers_on() -> None:
    room = ChatRoom(clock=Clock())
    for k in range(60):
        room.add(prepare(room, k % 6, "text" if k % 2 else "reaction", "hi" if k % 2 else "👏"))
        room.limits["text"].times.clear()
        room.limits["reaction"].times.clear()
    frame = room.history_frame()
    assert frame["type"] == "chat_history" and [m["n"] for m in frame["messages"]] == list(range(11, 61))
    assert set(frame["messages"][0]) == MESSAGE_KEYS and frame["messages"][0]["at"] == "2025-01-01T00:00:00Z"
    again = ChatRoom(room.history)
    assert again.next_n == 61


# --- the store: SQLite and PostgreSQL ----------------------------------------------------------


def chat_store_cases(url: str) -> None:
    """Messages and mutes are stored with their table, the last 50 load back, and go with the table."""
    from sqlalchemy import delete, func, select
    from sqlalchemy.orm import Session

    from minodice.server.store import ChatRow, Store, StoredSeat, StoredTable, TableRow

    store = Store(url)
    try:
        code = "C" + os.urandom(3).hex().upper()
        players = [
            StoredSeat(0, "human", "Ana", None, "a" * 64),
            StoredSeat(1, "human", "Bo", None, "b" * 64, True),
        ]
        store.create(
            StoredTable(
                code=code,
                status="waiting",
                seats=2,
                rules={},
                seed="1",
                first_start=0,
                host_hash="h" * 64,
                host_seat=0,
                players=players,
            )
        )
        at = dt.datetime(2025, 1, 1, 12, 0, tzinfo=dt.UTC)
        for n in range(1, 56):
            store.add_chat(
                code, chat.ChatMessage(n, n % 2, "Ana" if n % 2 == 0 else "Bo", "text", f"m{n} ¿ü? 🎲", at)
            )
        got = store.load(code)
        assert got is not None and [p.muted for p in got.players] == [False, True]
        assert [m.n for m in got.chat] == list(range(6, 56)) and got.chat[-1].text == "m55 ¿ü? 🎲"
        assert got.chat[0].at == at and got.chat[0].name == "Ana"
        store.set_muted(code, 1, False)
        store.set_muted(code, 0, True)
        assert [p.muted for p in store.load(code).players] == [True, False]  # type: ignore[union-attr]
        assert ChatRoom(store.chat(code)).next_n == 56
        # A number already taken (another server process stored its message first) is not stored.
        assert store.add_chat(code, chat.ChatMessage(55, 0, "Ana", "text", "again", at)) is False
        assert [m.text for m in store.chat(code)][-1] == "m55 ¿ü? 🎲"
        with Session(store.engine) as s, s.begin():
            s.execute(delete(TableRow).where(TableRow.code == code))
        with Session(store.engine) as s:
            assert s.scalar(select(func.count()).select_from(ChatRow).where(ChatRow.table_code == code)) == 0
    finally:
        store.close()


def test_chat_store_on_sqlite(tmp_path: Path) -> None:
    chat_store_cases(f"sqlite:///{tmp_path / 'chat.db'}")


def test_chat_store_on_postgresql(pg_url: str) -> None:  # noqa: F811 (the fixture imported above)
    chat_store_cases(pg_url)


# --- a real server ------------------------------------------------------------------------


def lobby(http: httpx.Client) -> dict[str, Any]:
    """Ana (host, seat 0) and Bo (seat 1) at a table with two bots, not started."""
    return make_table(http, 4, [None, None, "greedy", "random"], ["Ana", "Bo"])


def chats(p: Player, count: int, timeout: float = 5.0) -> list[dict[str, Any]]:
    """Read until `p` has been sent `count` chat frames in all; their messages."""

    def seen() -> list[dict[str, Any]]:
        return [m["message"] for m in p.received if m["type"] == "chat"]

    while len(seen()) < count:
        p.wait_for(lambda m: m["type"] == "chat", timeout)
    return seen()


def refused(p: Player, ref: int | str) -> dict[str, Any]:
    """The error frame `p` was sent for its message `ref` (already read, or the next one)."""

    def match(m: dict[str, Any]) -> bool:
        return m["type"] == "error" and m.get("ref") == ref

    return next((m for m in p.received if match(m)), None) or p.wait_for(match)


def test_players_and_spectators_read_what_players_write(http: httpx.Client, server: ServerProcess) -> None:
    t = lobby(http)
    ana = Player(server.ws_base, t["code"], t["tokens"][0])
    bo = Player(server.ws_base, t["code"], t["tokens"][1])
    spy = Player(server.ws_base, t["code"], None)
    for p in (ana, bo, spy):
        p.pump(0.2)
    assert all(m["messages"] == [] for p in (ana, bo, spy) for m in p.received if m["type"] == "chat_history")
    ana.send({"type": "chat", "text": "  Hola, Bo!  ", "id": 1})
    bo.send({"type": "react", "reaction": "👍", "id": "r1"})
    for p in (ana, bo, spy):
        got = chats(p, 2)
        assert [(m["n"], m["seat"], m["name"], m["kind"], m["text"]) for m in got] == [
            (1, 0, "Ana", "text", "Hola, Bo!"),
            (2, 1, "Bo", "reaction", "👍"),
        ]
        assert all(set(m) == MESSAGE_KEYS for m in got)
        assert dt.datetime.fromisoformat(got[0]["at"]).tzinfo is not None
    # a chat frame carries the message and nothing else
    frames = [json.loads(raw) for raw in spy.raw if '"type":"chat"' in raw]
    assert frames and all(set(f) == {"type", "message"} for f in frames)
    # a spectator reads but may not write; nothing is sent to the others
    spy.send({"type": "chat", "text": "psst", "id": 9})
    spy.send({"type": "react", "reaction": "😂", "id": 10})
    assert refused(spy, 9)["code"] == "chat_spectator"
    assert refused(spy, 10)["code"] == "chat_spectator"
    assert refused(spy, 9)["message"] == codes.SERVER_ERRORS["chat_spectator"]
    ana.pump(0.3)
    assert len(chats(ana, 2)) == 2
    for p in (ana, bo, spy):
        p.close()


def test_the_history_comes_on_connect_and_on_sync(http: httpx.Client, server: ServerProcess) -> None:
    t = lobby(http)
    ana = Player(server.ws_base, t["code"], t["tokens"][0])
    ana.send({"type": "chat", "text": "first"})
    ana.send({"type": "react", "reaction": "🎲"})
    chats(ana, 2)
    later = Player(server.ws_base, t["code"], t["tokens"][1])  # after welcome: the history
    assert later.received[0]["type"] == "welcome"
    history = later.wait_for(lambda m: m["type"] == "chat_history")
    assert [(m["n"], m["text"]) for m in history["messages"]] == [(1, "first"), (2, "🎲")]
    later.send({"type": "sync"})
    again = later.wait_for(lambda m: m["type"] == "chat_history")
    assert again["messages"] == history["messages"]
    # the history after a start is the same (the game does not touch the chat)
    start(http, t["code"], t["host"])
    watcher = Player(server.ws_base, t["code"], None)
    assert watcher.wait_for(lambda m: m["type"] == "chat_history")["messages"] == history["messages"]
    for p in (ana, later, watcher):
        p.close()


@pytest.mark.parametrize(
    ("frame", "code", "params"),
    [
        ({"type": "chat", "text": ""}, "chat_empty", {}),
        ({"type": "chat", "text": " \u200b\u200c "}, "chat_empty", {}),
        ({"type": "chat", "text": "é" * 201}, "chat_too_long", {"limit": 200, "length": 201}),
        ({"type": "chat", "text": "line\nbreak"}, "chat_control", {}),
        ({"type": "chat", "text": "\u202egnp.exe"}, "chat_control", {}),
        ({"type": "react", "reaction": "🤡"}, "chat_bad_reaction", {}),
        ({"type": "react", "reaction": "hello"}, "chat_bad_reaction", {}),
    ],
)
def test_each_refusal_has_its_code(
    http: httpx.Client, server: ServerProcess, frame: dict[str, Any], code: str, params: dict[str, Any]
) -> None:
    t = lobby(http)
    ana = Player(server.ws_base, t["code"], t["tokens"][0])
    bo = Player(server.ws_base, t["code"], t["tokens"][1])
    ana.send({**frame, "id": 5})
    err = refused(ana, 5)
    assert (err["code"], err["params"]) == (code, params)
    assert err["message"] == codes.render(code, params)
    ana.send({"type": "chat", "text": "still here", "id": 6})
    assert [m["text"] for m in chats(bo, 1)] == ["still here"]  # only the good one reached Bo
    ana.close()
    bo.close()


def test_the_rate_limit_never_lets_more_through(http: httpx.Client, server: ServerProcess) -> None:
    t = lobby(http)
    ana = Player(server.ws_base, t["code"], t["tokens"][0])
    bo = Player(server.ws_base, t["code"], t["tokens"][1])
    twin = Player(server.ws_base, t["code"], t["tokens"][0])  # a second tab of the same seat
    for k in range(4):
        ana.send({"type": "chat", "text": f"m{k}", "id": k})
    twin.send({"type": "chat", "text": "m4", "id": 4})
    chats(bo, 5)
    twin.send({"type": "chat", "text": "m5", "id": 5})  # the seat's sixth in 10 s, whichever tab
    err = refused(twin, 5)
    assert err["code"] == "chat_too_fast"
    assert err["params"]["limit"] == 5 and err["params"]["seconds"] == 10 and 1 <= err["params"]["wait"] <= 10
    for k in range(10):
        bo.send({"type": "react", "reaction": "👏", "id": 100 + k})
    chats(ana, 15)
    bo.send({"type": "react", "reaction": "👏", "id": 200})
    assert refused(bo, 200)["code"] == "chat_reactions_too_fast"
    bo.send({"type": "chat", "text": "texts have their own limit", "id": 201})
    ana.pump(0.5)
    texts = [m["text"] for m in chats(ana, 16)]
    assert sorted(texts[:5]) == ["m0", "m1", "m2", "m3", "m4"] and texts[-1] == "texts have their own limit"
    assert len(texts) == 16 and "m5" not in texts
    for p in (ana, bo, twin):
        p.close()


def mute(http: httpx.Client, code: str, seat: int, muted: Any, token: str | None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return http.post(f"/api/tables/{code}/seats/{seat}/mute", json={"muted": muted}, headers=headers)


def test_the_host_mutes_and_unmutes_a_player(http: httpx.Client, server: ServerProcess) -> None:
    t = make_table(http, 4, [None, None, None, "greedy"], ["Ana", "Bo"])  # seat 2 stays open
    code, host = t["code"], t["host"]
    ana = Player(server.ws_base, code, t["tokens"][0])
    bo = Player(server.ws_base, code, t["tokens"][1])
    assert [p["muted"] for p in http.get(f"/api/tables/{code}").json()["players"]] == [False] * 4
    # only the host: not Bo, not nobody; the host's seat token counts as the host's
    assert mute(http, code, 1, True, t["tokens"][1]).json()["detail"]["code"] == "not_host"
    assert mute(http, code, 1, True, None).status_code == 403
    r = mute(http, code, 1, True, t["tokens"][0])
    assert r.status_code == 200 and r.json()["players"][1]["muted"] is True
    table = bo.wait_for(lambda m: m["type"] == "table" and m["table"]["players"][1]["muted"])
    assert [p["muted"] for p in table["table"]["players"]] == [False, True, False, False]
    bo.send({"type": "chat", "text": "let me speak", "id": 1})
    bo.send({"type": "react", "reaction": "😬", "id": 2})
    assert refused(bo, 1)["code"] == "chat_muted" and refused(bo, 2)["code"] == "chat_muted"
    # what cannot be muted
    for seat, status, why in [
        (2, 409, "chat_mute_no_player"),
        (3, 409, "chat_mute_no_player"),
        (0, 409, "chat_mute_self"),
        (7, 400, "bad_seat"),
    ]:
        r = mute(http, code, seat, True, host)
        assert (r.status_code, r.json()["detail"]["code"]) == (status, why), seat
    assert mute(http, code, 1, "yes", host).status_code == 422
    assert mute(http, code, 1, False, host).json()["players"][1]["muted"] is False
    bo.send({"type": "chat", "text": "thanks", "id": 3})
    assert [m["text"] for m in chats(ana, 1)] == ["thanks"]
    ana.close()
    bo.close()


def test_malformed_frames_are_errors_and_the_game_goes_on(http: httpx.Client, server: ServerProcess) -> None:
    t = make_table(http, 3, [None, "greedy", "random"], ["Ana"])
    start(http, t["code"], t["host"])
    ana = Player(server.ws_base, t["code"], t["tokens"][0])
    if ana.state is None or ana.state["to_act"] != [0]:  # the bots bid: then the game waits for Ana
        ana.wait_for(lambda m: m["type"] == "state" and m["to_act"] == [0])
    ana.pump(0.2)
    before, states = ana.state, ana.states
    bad: list[dict[str, Any] | str] = [
        {"type": "chat", "id": 1},
        {"type": "chat", "text": 5, "id": 2},
        {"type": "chat", "text": ["hi"], "id": 3},
        {"type": "chat", "text": "hi", "seat": 1, "id": 4},
        {"type": "react", "id": 5},
        {"type": "react", "reaction": "👍" * 20, "id": 6},
        {"type": "react", "reaction": None, "id": 7},
    ]
    for k, frame in enumerate(bad, 1):
        ana.send(frame)
        err = refused(ana, k)
        assert err["code"] == "bad_message", err
    ana.send('{"type": "chat", "text": "unfinished')
    assert ana.wait_for(lambda m: m["type"] == "error")["code"] == "bad_json"
    # chat during the game changes no state: no new state frame, the game waits for Ana as before
    ana.send({"type": "chat", "text": "my turn?", "id": 20})
    chats(ana, 1)
    ana.pump(0.3)
    assert ana.states == states and ana.state == before
    # and the game goes on to the end
    while not ana.over:
        ana.act()
        ana.pump(0.05)
    assert ana.state["view"]["hand"] == ana.state["view"]["hands"]  # type: ignore[index]
    ana.send({"type": "chat", "text": "gg", "id": 21})
    assert chats(ana, 2)[-1]["text"] == "gg"  # the podium has the chat too
    ana.close()


def test_options_serve_the_reactions(http: httpx.Client) -> None:
    options = http.get("/api/options").json()
    assert options["chat"] == {
        "reactions": [{"reaction": r, "name": n} for r, n in chat.REACTIONS.items()],
        "max_length": 200,
    }


def test_chat_and_mutes_survive_a_restart(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'chat.db'}"
    log = tmp_path / "server.log"
    srv = ServerProcess(db, log).start()
    try:
        with srv.api() as api:
            t = lobby(api)
            ana = Player(srv.ws_base, t["code"], t["tokens"][0])
            ana.send({"type": "chat", "text": "before the crash"})
            ana.send({"type": "react", "reaction": "😮"})
            before = chats(ana, 2)
            assert mute(api, t["code"], 1, True, t["host"]).status_code == 200
        srv.kill()
        ana.close()
        srv = ServerProcess(db, log, port=srv.port).start()
        with srv.api() as api:
            assert api.get(f"/api/tables/{t['code']}").json()["players"][1]["muted"] is True
            bo = Player(srv.ws_base, t["code"], t["tokens"][1])
            history = bo.wait_for(lambda m: m["type"] == "chat_history")["messages"]
            assert history == before
            bo.send({"type": "chat", "text": "hello?", "id": 1})
            assert refused(bo, 1)["code"] == "chat_muted"
            ana = Player(srv.ws_base, t["code"], t["tokens"][0])
            ana.send({"type": "chat", "text": "after the restart"})
            assert chats(bo, 1)[0]["n"] == 3  # the numbering goes on
            ana.close()
            bo.close()
    finally:
        srv.stop()
