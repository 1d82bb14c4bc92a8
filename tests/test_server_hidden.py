"""No seat ever receives another seat's unrolled dice or unrevealed bids — through any channel.

Several games are played with several clients (people and spectators) against a
real server; then EVERY frame each client received is scanned: die names may
appear only where the seat may see them (its own dice, its legal choices, the
rolls on the table), other seats' drawn dice must be null, bids must stay
hidden until all are in, and a seat's view must hold exactly its own unrolled
dice. The in-progress record download, the hints and the server's log are checked too, and every
TABLE carries only the fields listed here (the move clocks' and the rematch's among them: numbers
and flags, never a die or a bid); one game is played with move clocks so short they run out.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from minodice import record
from minodice.dice import Die
from test_server_common import Player, ServerProcess, make_table, play_out, start

DIE_NAMES = {d.value for d in Die}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp: Path = tmp_path_factory.mktemp("hidden")
    # Move clocks 100 times faster: a `fast` decision has 0.15 s free and a bank of 0.45 s.
    srv = ServerProcess(f"sqlite:///{tmp / 'hidden.db'}", tmp / "server.log", clock_scale=0.01).start()
    yield srv
    srv.stop()


def die_strings(obj: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Every (path, string) in a JSON value whose string is a die name."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from die_strings(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from die_strings(v, f"{path}[{i}]")
    elif isinstance(obj, str) and obj in DIE_NAMES:
        yield path, obj


ALLOWED = [
    r"^\.view\.dice\[\d+\]$",  # own dice (checked against the truth below)
    r"^\.view\.legal\[\d+\]$",
    r"^\.view\.tricks\[\d+\]\.rolls\[\d+\]\.(die|face)$",  # rolled in public
    r"^(\.view|\.table)\.rules\.all_specials$",
    r"^\.events\[\d+\]\.(die|face)$",  # rolled / trick_won
    r"^\.events\[\d+\]\.lead$",  # trick_won: the trick's lead colour (rolled in public)
    r"^\.events\[\d+\]\.reason\.params\.(face|beaten)$",  # trick_won: why (faces rolled in public)
    r"^\.view\.tricks\[\d+\]\.lead$",  # a finished trick: its lead colour
    r"^\.view\.tricks\[\d+\]\.reason\.params\.(face|beaten)$",  # a finished trick: why
    r"^\.view\.trick\.lead$",  # the trick in progress: its lead colour (rolled in public)
    r"^\.view\.trick\.reason\.params\.(face|beaten)$",  # why the leading roll leads
    r"^\.view\.refusals\.(?P<held>\w+)\.params\.(colour|die)$",  # own dice only (checked)
    r"^\.events\[\d+\]\.dice\[(?P<seat>\d+)\]\[\d+\]$",  # drawn: own seat only (checked)
]


#: Every field a TABLE carries, and each of its players: a new one is checked here before it is sent.
TABLE_FIELDS = {"code", "status", "seats", "rules", "hints", "clock", "level", "players", "host_seat", "hand", "hands",
                "to_act", "rematch", "rematch_started", "rematch_of", "created", "updated"}
PLAYER_FIELDS = {"seat", "name", "kind", "bot", "person", "auto_name", "connected", "autoplay", "muted", "autoplay_in",
                 "bank", "clock_in", "out_of_time", "ready"}


def check_table(table: dict[str, Any]) -> None:
    """A TABLE holds its listed fields only; the clocks' are numbers (or null) and flags."""
    assert set(table) == TABLE_FIELDS, set(table) ^ TABLE_FIELDS
    assert table["clock"] is None or set(table["clock"]) == {"speed", "move", "bank"}
    for p in table["players"]:
        assert set(p) == PLAYER_FIELDS, set(p) ^ PLAYER_FIELDS
        for key in ("bank", "clock_in", "autoplay_in"):
            assert p[key] is None or isinstance(p[key], (int, float)), (key, p[key])
        assert isinstance(p["out_of_time"], bool) and isinstance(p["ready"], bool)


def check_frames(player: Player, truth: dict[str, Any]) -> int:
    """Scan every frame a client received; the number of frames checked."""
    own = player.seat
    for msg in player.received:
        assert msg["type"] in ("welcome", "state", "table", "pong", "rematch", "chat_history", "chat", "error"), msg
        if msg["type"] == "error":  # a move its clock's bot had made first: refused, and naming no die
            assert msg["code"] in ("not_your_turn", "already_bid", "wrong_phase"), msg
        if "table" in msg:
            check_table(msg["table"])
        for path, _name in die_strings(msg):
            m = next((re.match(p, path) for p in ALLOWED if re.match(p, path)), None)
            assert m is not None, f"seat {own} was sent a die at {path} in {msg['type']}"
            if m.groupdict().get("seat") is not None:
                assert int(m["seat"]) == own, f"seat {own} was sent seat {m['seat']}'s drawn dice"
            if m.groupdict().get("held") is not None:
                assert m["held"] in msg["view"]["dice"], f"seat {own} was sent a refusal of a die it lacks"
        if msg["type"] != "state":
            continue
        view = msg["view"]
        assert view["seat"] == own
        check_trick_fields(view, msg["events"])
        # bids: hidden until all are in; a seat's own bid only in its own bid_placed event
        if not all(view["bid_placed"]):
            assert view["bids"] == [None] * view["seats"]
        for e in msg["events"]:
            if e["type"] == "bid_placed" and e["seat"] != own:
                assert e["bid"] is None, f"seat {own} saw seat {e['seat']}'s bid early"
            if e["type"] == "drawn":
                assert all(d is None for s, d in enumerate(e["dice"]) if s != own)
        # the view's dice: exactly this seat's unrolled dice (spectators: none)
        if own is None or view["hand"] == 0:
            assert view["dice"] == []
            continue
        dealt = truth["hands"][view["hand"] - 1]["dice"][own]
        rolled = [r["die"] for t in view["tricks"] for r in t["rolls"] if r["seat"] == own]
        assert Counter(view["dice"]) == Counter(dealt) - Counter(rolled)
    return len(player.received)


def check_trick_fields(view: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """The trick state, refusals and reasons a view carries name only what is public or the seat's own."""
    public_faces = {r["face"] for t in view["tricks"] for r in t["rolls"]}
    public_dice = {r["die"] for t in view["tricks"] for r in t["rolls"]}
    trick = view["trick"]
    if trick is not None:
        assert trick["lead"] is None or trick["lead"] in public_dice
        if trick["reason"] is not None:
            named = {v for k, v in trick["reason"]["params"].items() if k in ("face", "beaten")}
            assert named <= public_faces, (named, public_faces)
    for t in view["tricks"]:
        if t["winner"] is not None:
            assert t["lead"] is None or t["lead"] in {r["die"] for r in t["rolls"]}
            named = {v for k, v in t["reason"]["params"].items() if k in ("face", "beaten")}
            assert named <= {r["face"] for r in t["rolls"]}
    # refusals: only the seat's own dice, only on its own turn to roll
    refusals = view["refusals"]
    assert set(refusals) <= set(view["dice"]), (refusals, view["dice"])
    if refusals:
        assert view["seat"] is not None and "legal" in view
        for die, why in refusals.items():
            assert why["params"]["die"] == die and why["params"]["colour"] == trick["lead"]
    for e in events:
        if e["type"] == "trick_won":
            assert e["reason"]["code"] and set(e["reason"]["params"]) <= {"face", "beaten", "tie", "which"}


@pytest.mark.parametrize(
    ("seats", "bots", "names", "clock"),
    [
        (3, [None, None, None], ["Ana", "Bo", "Cy"], "off"),
        (4, [None, "greedy", None, "random"], ["Ana", "Bo"], "off"),
        (5, [None, "greedy", None, "greedy", None], ["Ana", "Bo", "Cy"], "off"),
        (6, [None, "random", "greedy", None, "random", "greedy"], ["Ana", "Bo"], "off"),
        (4, [None, None, "easy", None], ["Ana", "Bo", "Cy"], "fast"),  # clocks run out: the level's bot moves
    ],
)
def test_no_hidden_information_reaches_another_seat(
    server: ServerProcess, seats: int, bots: list, names: list[str], clock: str
) -> None:
    with server.api() as http:
        t = make_table(http, seats, bots, names, clock=clock)
        code = t["code"]
        start(http, code, t["host"])
        players = [Player(server.ws_base, code, tok) for tok in t["tokens"].values()]
        if clock != "off":  # the last person never moves: their clock runs out every time
            players[-1] = Idle(server.ws_base, code, list(t["tokens"].values())[-1])
        spectators = [Player(server.ws_base, code, None)]
        # mid-game: each seat's record hides the others' unrolled dice and early bids
        play_out(players, stop=lambda: players[0].state["view"]["hand"] >= 3 and "legal" in players[0].state["view"])
        for seat, tok in t["tokens"].items():
            rec = http.get(f"/api/tables/{code}/record", headers={"Authorization": f"Bearer {tok}"}).json()
            last = rec["hands"][-1]
            rolled = [[r["die"] for tr in last["tricks"] for r in tr["rolls"] if r["seat"] == s] for s in range(seats)]
            for s, dice in enumerate(last["dice"]):
                if s != seat:
                    assert dice.count(None) == len(dice) - len(rolled[s])
            if None in last["bids"]:
                assert all(b is None for s, b in enumerate(last["bids"]) if s != seat)
        assert http.get(f"/api/tables/{code}/record").status_code == 403
        # mid-game: a hint names only dice its seat holds, and only the seats with a decision get one
        by_seat = {p.seat: p for p in players}
        advised = 0
        for seat, tok in t["tokens"].items():
            r = http.get(f"/api/tables/{code}/hint", headers={"Authorization": f"Bearer {tok}"})
            if r.status_code == 409:
                assert r.json()["detail"]["code"] == "no_decision" and "legal" not in by_seat[seat].state["view"]
                continue
            assert r.status_code == 200, r.text
            named = {name for path, name in die_strings(r.json()) if path != ".rules.all_specials"}
            assert named and named <= set(by_seat[seat].state["view"]["dice"]), (seat, named)
            advised += 1
        assert advised >= 1  # seat 0 is on its decision
        play_out(players)
        for s in spectators:
            if not s.over:
                s.wait_for(lambda m: m["type"] == "state" and m["status"] == "over")
        truth = http.get(f"/api/tables/{code}/record").json()
        assert record.check(truth) is None
        checked = sum(check_frames(p, truth) for p in players + spectators)
        assert checked > 100
        if clock != "off":
            idle = players[-1].seat
            tables = [m["table"] for m in spectators[0].received if "table" in m]
            assert any(tb["players"][idle]["out_of_time"] for tb in tables)
            assert all(tb["players"][idle]["kind"] == "human" for tb in tables)
        for p in players + spectators:
            p.close()


class Idle(Player):
    """A person who never moves (the level's bot makes each of their decisions when their clock runs out)."""

    def act(self) -> dict[str, Any] | None:
        return None


def test_the_log_names_no_dice(server: ServerProcess) -> None:
    """The server's log (after the games above) holds no die name at all."""
    text = server.log.read_text()
    assert "connection open" in text or "GET" in text
    found = re.findall(r"\b(" + "|".join(sorted(DIE_NAMES)) + r")\b", text)
    assert not found, found[:5]


def test_api_responses_hold_no_seed_or_tokens(server: ServerProcess) -> None:
    with server.api() as http:
        t = make_table(http, 3, [None, "random", "random"], ["Ana"])
        start(http, t["code"], t["host"])
        text = http.get(f"/api/tables/{t['code']}").text + httpx.get(server.base + "/api/games").text
        assert t["tokens"][0] not in text and t["host"] not in text and "seed" not in text
