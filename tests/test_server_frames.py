"""The frames the server sends are the frames of the plain path, however they are made.

`Table.broadcast_state` and `Table._send_state` join JSON text made once per table, seat and event
(orjson; each public event's and each finished trick's text kept). The reference here is the plain
path, as the server made frames before: `view_on_wire(game.observe(seat))`,
`WireEvents.on_wire(game.events_for(seat, start), start)`, `Table.info()` and `json.dumps`. Both are
parsed and compared, frame by frame, over seeded games of every table size and rule set, with two
connections on one seat, a spectator and a player who connects in the middle of a hand.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import random
from dataclasses import asdict, fields
from typing import Any

import pytest

from minodice.events import Event
from minodice.game import Bid, Game, Roll
from minodice.rules import Rules, TrickState
from minodice.server.protocol import WireEvents, dumps, view_on_wire
from minodice.server.settings import Settings
from minodice.server.store import StoredSeat, StoredTable
from minodice.server.tables import Client, Hub, Table

NAMES = ["Ana", "Zoë", "李雷", "Bo", "Émile", "Ola"]  # not all ASCII: orjson writes UTF-8, json escaped it


def make_table(seats: int, rules: dict[str, str], seed: int) -> Table:
    players = [StoredSeat(s, "human", NAMES[s], None, f"hash{s}") for s in range(seats)]
    players[1] = StoredSeat(1, "bot", "Greedy 2", "greedy")
    stored = StoredTable(
        code="FRAME2", status="playing", seats=seats, rules=rules, seed=str(seed), first_start=seed % seats,
        host_hash="host", host_seat=0, players=players,
        created=dt.datetime(2025, 3, 4, 5, 6, 7, 890123, tzinfo=dt.UTC),
    )
    table = Table(stored, Hub(Settings(), None, None))  # no store: nothing is saved (nor needed) here
    assert table.game is not None
    return table


def connect(table: Table, wire: WireEvents, seat: int | None, expected: dict[Client, list[Any]]) -> None:
    """A client seated as `Table.connect` seats it and sent its full state (what `hello` gets)."""
    client = Client()
    client.seat = seat
    table.clients.add(client)
    if seat is not None:
        table.conns[seat] += 1
    expected[client] = [reference(table, wire, seat, 0, True)]
    table._send_state(client, full=True)


def reference(table: Table, wire: WireEvents, seat: int | None, start: int, full: bool) -> Any:
    """The `state` frame of the plain path, parsed."""
    game = table.game
    assert game is not None
    wire.update(game.events)
    frame = {
        "type": "state", "full": full, "status": table.status, "view": view_on_wire(game.observe(seat)),
        "events": wire.on_wire(game.events_for(seat, start), start), "events_from": start,
        "to_act": table.to_act(), "table": table.info(),
    }
    return json.loads(json.dumps(frame))


def sent(client: Client) -> list[Any]:
    out = []
    while not client.outbox.empty():
        message = client.outbox.get_nowait()
        assert isinstance(message, str), "state frames go out as JSON text"
        out.append(json.loads(message))
    return out


def check_hidden(frame: Any, seat: int | None) -> None:
    """Nothing of another seat's dice or unrevealed bid is in a frame of `seat`."""
    for event in frame["events"]:
        if event["type"] == "drawn":
            assert all(d is None for s, d in enumerate(event["dice"]) if s != seat)
        if event["type"] == "bid_placed" and event["seat"] != seat:
            assert event["bid"] is None
    if seat is None:
        assert frame["view"]["dice"] == []


CASES = [
    (3, {}, 11),
    (4, {"scoring": "landlubber", "all_flags": "last"}, 12),
    (5, {"all_specials": "griffin", "hand_start": "last_winner"}, 13),
    (6, {"all_specials": "minotaur", "all_flags": "last"}, 14),
    (4, {}, 15),
]


@pytest.mark.parametrize(("seats", "rules", "seed"), CASES)
def test_every_frame_equals_the_plain_paths(seats: int, rules: dict[str, str], seed: int) -> None:
    asyncio.set_event_loop(asyncio.new_event_loop())  # the clients' outboxes are asyncio queues
    table = make_table(seats, rules, seed)
    game = table.game
    assert game is not None
    wire = WireEvents(table.rules)
    expected: dict[Client, list[Any]] = {}
    for seat in [0, 0, 2, None]:  # two tabs on seat 0, a spectator
        connect(table, wire, seat, expected)
    rng = random.Random(seed)
    late_at = rng.randrange(20, 60)
    moves = 0
    while not game.over:
        if moves == late_at:  # the bot seat's person opens the table in the middle of a hand
            connect(table, wire, 1, expected)
        seat = rng.choice(game.to_act())
        choice = rng.choice(game.observe(seat).legal or [0])
        game.apply(Bid(seat, choice) if isinstance(choice, int) else Roll(seat, choice))
        moves += 1
        if game.over:
            table.status = "over"
        for client in table.clients:
            expected[client].append(reference(table, wire, client.seat, client.events_sent, False))
        table.broadcast_state()
    assert len(expected) == 5
    for client, frames in expected.items():
        got = sent(client)
        assert len(got) == len(frames)
        for n, (mine, plain) in enumerate(zip(got, frames, strict=True)):
            assert mine == plain, f"seat {client.seat}, frame {n}"
            check_hidden(mine, client.seat)
        assert got[-1]["status"] == "over" and got[-1]["events"][-1]["type"] == "game_over"


def test_a_sync_mid_game_sends_the_whole_game_again() -> None:
    asyncio.set_event_loop(asyncio.new_event_loop())
    table = make_table(4, {}, 21)
    game = table.game
    assert game is not None
    wire = WireEvents(table.rules)
    expected: dict[Client, list[Any]] = {}
    connect(table, wire, 2, expected)
    [client] = expected
    rng = random.Random(21)
    for _ in range(70):
        seat = rng.choice(game.to_act())
        choice = rng.choice(game.observe(seat).legal or [0])
        game.apply(Bid(seat, choice) if isinstance(choice, int) else Roll(seat, choice))
        table.broadcast_state()
    assert len(sent(client)) == 71
    plain = reference(table, wire, 2, 0, True)
    table._send_state(client, full=True)
    assert sent(client) == [plain]


def test_table_and_public_messages_go_out_as_the_same_text_to_everyone_but_the_skipped() -> None:
    asyncio.set_event_loop(asyncio.new_event_loop())
    table = make_table(4, {}, 31)
    expected: dict[Client, list[Any]] = {}
    for seat in [0, 2, None]:
        connect(table, WireEvents(table.rules), seat, expected)
    first, *others = expected
    for client in expected:
        sent(client)
    table.broadcast_table(skip=first)
    table.broadcast({"type": "chat", "message": {"n": 1, "seat": 0, "name": "Zoë", "kind": "text", "text": "gl 🎲"}})
    plain_table = json.loads(json.dumps({"type": "table", "table": table.info()}))
    assert [m["type"] for m in sent(first)] == ["chat"]
    for client in others:
        assert sent(client) == [plain_table, {"type": "chat", "message": {
            "n": 1, "seat": 0, "name": "Zoë", "kind": "text", "text": "gl 🎲"}}]


def test_dumps_writes_what_json_reads_and_falls_back_for_what_orjson_refuses() -> None:
    for value in [{"a": [1, 2.5, None, True, "Zoë 李"], "b": {"c": "\u2028"}}, [], "x", -(2**53) + 1]:
        assert json.loads(dumps(value)) == value
    assert dumps({"type": "state", "full": False}) == '{"type":"state","full":false}'
    # A lone surrogate (a refused input echoed in an error) and an integer past 64 bits: escaped, not lost.
    odd = {"die": "\udc80", "n": 2**70}
    assert json.loads(dumps(odd)) == odd


def test_the_table_times_are_the_seconds_strftime_gave() -> None:
    table = make_table(4, {}, 1)
    for when in [dt.datetime(2025, 1, 1, 12, 0, 0, 999999, tzinfo=dt.UTC),
                 dt.datetime(2031, 7, 9, 23, 59, 59, tzinfo=dt.timezone(dt.timedelta(hours=-5))),
                 dt.datetime(1999, 12, 31, 23, 59, 59, 500000, tzinfo=dt.UTC)]:
        table.updated = when
        assert table.info()["updated"] == when.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert table.info()["created"] == "2025-03-04T05:06:07Z"


def test_the_faster_engine_answers_are_the_same() -> None:
    """Rules.to_dict, Event.to_dict, View.to_dict(tricks=False) and the kept TrickState: as before."""
    for rules in [Rules(), Rules("landlubber", "griffin", "last", "last_winner")]:
        assert rules.to_dict() == asdict(rules) and list(rules.to_dict()) == [f.name for f in fields(Rules)]
        assert rules.to_dict() is not rules.to_dict()  # a new dict each time
    game = Game(4, seed=5)
    rng = random.Random(5)
    while not game.over:
        seat = rng.choice(game.to_act())
        choice = rng.choice(game.observe(seat).legal or [0])
        game.apply(Bid(seat, choice) if isinstance(choice, int) else Roll(seat, choice))
        for event in game.events[-2:]:
            assert event.to_dict() == _plain_event(event)
        view = game.observe(seat)
        whole = view.to_dict()
        del whole["tricks"]
        assert view.to_dict(tricks=False) == whole
        if view.current_trick is not None:
            rolls = [(r.die, r.face) for r in view.current_trick.rolls]
            assert TrickState.of(rolls, game.rules) == TrickState(tuple(rolls), game.rules)


def _plain_event(event: Event) -> dict[str, Any]:
    from minodice.dice import jsonable

    return {"type": event.kind, **{f.name: jsonable(getattr(event, f.name)) for f in fields(event)}}
