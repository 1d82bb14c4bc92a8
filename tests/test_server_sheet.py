"""The score sheet and trick referee API (`/api/sheet/check`, `/api/sheet/csv`, `/api/trick`) on a real server."""

from __future__ import annotations

import csv
import io
from typing import Any

import httpx
import pytest

from minodice import record
from minodice.rules import Rules, hand_score
from minodice.table.sheet import FORMAT
from test_server_common import server_fixtures
from test_sheet_record import _played, _sheet_and_tricks

server, http = server_fixtures("sheet")


def line(bid: int, won: int, mermaid: bool = False, griffins: int = 0) -> dict[str, Any]:
    return {"bid": bid, "won": won, "mermaid": mermaid, "griffins": griffins}


def sheet(*hands: list[dict[str, Any]], scoring: str = "standard") -> dict[str, Any]:
    return {"format": FORMAT, "players": ["Ana", "Ben", "Cy"], "scoring": scoring, "hands": list(hands)}


HANDS = [
    [line(1, 1), line(0, 0), line(0, 0)],
    [line(1, 1, griffins=1), line(1, 1), line(1, 0)],
    [line(0, 1), line(2, 2, mermaid=True), line(1, 0)],
]


def refused(r: httpx.Response, status: int, code: str, params: dict[str, Any] | None = None) -> str:
    """The refusal's English message, once its status, code and (unless None) exact params are checked."""
    assert r.status_code == status, r.text
    detail = r.json()["detail"]
    assert set(detail) == {"code", "message", "params"}, detail
    assert detail["code"] == code, detail
    if params is not None:
        assert detail["params"] == params, detail
    return detail["message"]


def test_a_valid_sheet_is_scored_by_the_rules(http: httpx.Client) -> None:
    r = http.post("/api/sheet/check", json=sheet(*HANDS))
    assert r.status_code == 200, r.text
    got = r.json()
    rules = Rules()
    expected = [
        [hand_score(e["bid"], e["won"], n, 50 * e["mermaid"] + 30 * e["griffins"], rules) for e in hand]
        for n, hand in enumerate(HANDS, start=1)
    ]
    assert got["hand_scores"] == expected
    running, totals = [], [0, 0, 0]
    for scores in expected:
        totals = [t + s for t, s in zip(totals, scores)]
        running.append(totals)
    assert got["running_totals"] == running and got["totals"] == totals
    assert got["leaders"] == ["Ben"] and got["bonuses"][1] == [30, 0, 0] and got["bonuses"][2] == [0, 50, 0]
    assert got["finished"] is False and got["places"] is None
    assert got["next_hand"] == {"number": 4, "dice": 4} and got["hand_count"] == 8
    assert got["sheet"] == sheet(*HANDS)


def test_a_finished_sheet_has_places(http: httpx.Client) -> None:
    hands = [[line(0, 0), line(0, 0), line(n, n)] for n in range(1, 9)]
    got = http.post("/api/sheet/check", json=sheet(*hands, scoring="landlubber")).json()
    assert got["finished"] is True and got["next_hand"] is None
    assert got["places"] == [2, 2, 1] and got["totals"] == [360, 360, 720]


@pytest.mark.parametrize(
    ("hand", "words", "code", "params"),
    [
        ([line(1, 1), line(0, 1), line(0, 1)], "the tricks add up to 3", "tricks_do_not_add_up",
         {"won": 3, "each": "Ana 1, Ben 1, Cy 1", "dice": 2}),
        ([line(1, 1), line(0, 1, griffins=1), line(0, 0)], "bonuses never count on a zero bid", "bonus_on_zero_bid",
         {"player": "Ben", "points": 30}),
    ],
)
def test_impossible_hands_are_refused_with_the_sheets_code(
    http: httpx.Client, hand: list[dict[str, Any]], words: str, code: str, params: dict[str, Any]
) -> None:
    message = refused(http.post("/api/sheet/check", json=sheet(HANDS[0], hand)), 400, code, {**params, "in_hand": 2})
    assert message.startswith("hand 2: ") and words in message


def test_a_mermaid_and_a_griffin_bonus_in_one_hand_are_refused(http: httpx.Client) -> None:
    hand = [line(1, 1, mermaid=True), line(1, 1, griffins=1), line(0, 0)]
    params = {"player": "Ana", "players": ["Ben"], "mermaid": 50, "griffin": 30, "in_hand": 2}
    message = refused(http.post("/api/sheet/check", json=sheet(HANDS[0], hand)), 400, "mermaid_and_griffin_bonuses",
                      params)
    assert "Ana has a +50 and Ben a +30" in message


def test_bad_sheets_are_refused_in_the_sheets_words(http: httpx.Client) -> None:
    r = http.post("/api/sheet/check", json={**sheet(), "players": ["A", "B"]})
    assert "3 to 6 players, not 2" in refused(r, 400, "player_count", {"low": 3, "high": 6, "count": 2})
    r = http.post("/api/sheet/check", json=sheet([line(1, 1, griffins=1), line(0, 0), line(0, 0)], scoring="landlubber"))
    assert "landlubber scoring has no bonuses" in refused(r, 400, "bonus_under_landlubber",
                                                          {"player": "Ana", "in_hand": 1})
    r = http.post("/api/sheet/check", json={**sheet(), "format": "x"})
    assert "not a Mino Dice score sheet" in refused(r, 400, "not_a_sheet", {"format": FORMAT})
    r = http.post("/api/sheet/check", json=sheet(scoring="pirate"))
    params = {"rule": "scoring", "value": "pirate", "choices": "standard, landlubber"}
    assert "choose one of" in refused(r, 400, "bad_rule_value", params)


def test_the_csv_download(http: httpx.Client) -> None:
    r = http.post("/api/sheet/csv", json=sheet(*HANDS))
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/csv")
    assert r.headers["content-disposition"] == 'attachment; filename="minodice-sheet.csv"'
    rows = list(csv.reader(io.StringIO(r.text)))
    assert rows[0] == ["hand", "dice", "player", "bid", "won", "bonus", "hand score", "total"]
    assert rows[4] == ["2", "2", "Ana", "1", "1", "30", "50", "70"]
    assert rows[-3:] == [["Ana", "40", "2"], ["Ben", "120", "1"], ["Cy", "-10", "3"]]
    refused(http.post("/api/sheet/csv", json=sheet([line(1, 0), line(0, 0), line(0, 0)])), 400, "tricks_do_not_add_up",
            {"won": 0, "each": "Ana 0, Ben 0, Cy 0", "dice": 1, "in_hand": 1})


@pytest.mark.parametrize(
    "body",
    [
        {**sheet(), "extra": 1},
        {**sheet(), "players": ["P"] * 1000},
        {**sheet(), "hands": [[line(0, 0)] * 3] * 100},
        sheet([{"bid": "1", "won": 1}, line(0, 0), line(0, 0)]),
        sheet([{"bid": 1, "won": 1, "mermaid": "yes"}, line(0, 0), line(0, 0)]),
        sheet([{"bid": 1, "won": 1, "cards": 2}, line(0, 0), line(0, 0)]),
        {**sheet(), "players": "Ana,Ben,Cy"},
        {**sheet(), "players": ["x" * 500, "B", "C"]},
    ],
)
def test_malformed_bodies_are_422_with_a_clear_message(http: httpx.Client, body: dict[str, Any]) -> None:
    message = refused(http.post("/api/sheet/check", json=body), 422, "bad_request", {})
    assert ":" in message and len(message) < 400, message


def test_malformed_bodies_name_the_field(http: httpx.Client) -> None:
    r = http.post("/api/sheet/check", json={**sheet(), "extra": 1})
    assert refused(r, 422, "bad_request", {}) == "extra: unknown field"
    message = refused(http.post("/api/sheet/check", json={**sheet(), "players": ["P"] * 1000}), 422, "bad_request", {})
    assert message.startswith("players: ") and "at most 12" in message
    message = refused(http.post("/api/trick", json={"rolls": "red:5"}), 422, "bad_request", {})
    assert message.startswith("rolls: ")
    assert refused(http.post("/api/sheet/check", content=b"{not json"), 422, "bad_request", {})


# --- the trick referee ----------------------------------------------------------------------


def trick(http: httpx.Client, **body: Any) -> dict[str, Any]:
    r = http.post("/api/trick", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def test_the_answer_is_codes_and_params(http: httpx.Client) -> None:
    got = trick(http, rolls=["red:6", "griffin", "gray:flag"], names=["Ana", "Ben", "Cy"])
    assert got == {
        "winner": 1, "winner_name": "Ben",
        "reason": {"code": "special_beats_numbers", "params": {"face": "griffin", "tie": False}},
        "bonus": 0, "bonus_reason": None, "lead": "red", "fouls": [],
        "rolls": [{"die": "red", "face": "6"}, {"die": "griffin", "face": "griffin"}, {"die": "gray", "face": "flag"}],
        "names": ["Ana", "Ben", "Cy"],
        "summary": "Ben wins the trick with the griffin: the griffin beats every number.",
    }


def test_all_three_specials_go_to_the_mermaid(http: httpx.Client) -> None:
    got = trick(http, rolls=["minotaur", "mermaid", "griffin", "red:7"], names=["Ana", "Ben", "Cy", "Dee"])
    assert got["winner"] == 1 and got["winner_name"] == "Ben" and got["bonus"] == 50
    assert got["reason"] == {"code": "three_specials", "params": {"face": "mermaid", "tie": False}}
    assert got["lead"] == "red"
    assert got["summary"].startswith("Ben wins the trick with the mermaid: all three special faces")
    house = trick(http, rolls=["minotaur", "mermaid", "griffin"], rules={"all_specials": "minotaur"})
    assert house["winner"] == 0 and house["bonus"] == 30
    assert house["reason"] == {"code": "three_specials", "params": {"face": "minotaur", "tie": False}}


def test_all_flags_go_to_the_first_roller(http: httpx.Client) -> None:
    rolls = ["gray:flag", "minotaur:flag", "griffin:flag"]
    first = trick(http, rolls=rolls)
    assert first["winner"] == 0 and first["reason"] == {"code": "only_flags", "params": {"which": "first"}}
    last = trick(http, rolls=rolls, rules={"all_flags": "last"})
    assert last["winner"] == 2 and last["reason"] == {"code": "only_flags", "params": {"which": "last"}}


def test_ties_go_to_the_later_roll(http: httpx.Client) -> None:
    got = trick(http, rolls=["red:6", "red:6", "yellow:5"])
    assert got["winner"] == 1 and got["reason"] == {"code": "highest_number", "params": {"face": "6", "tie": True}}
    assert "later roll" in got["summary"]
    assert trick(http, rolls=["griffin", "griffin", "red:7"])["winner"] == 1


def test_the_bonuses(http: httpx.Client) -> None:
    got = trick(http, rolls=["griffin", "minotaur", "griffin", "red:7"])
    assert got["winner"] == 1 and got["bonus"] == 60
    assert got["bonus_reason"] == {"code": "minotaur_took_griffins", "params": {"points": 60, "griffins": 2}}
    assert "the minotaur took 2 griffin(s): +60" in got["summary"]
    got = trick(http, rolls=["minotaur", "mermaid", "red:7"])
    assert got["winner"] == 1 and got["bonus"] == 50
    assert got["bonus_reason"] == {"code": "mermaid_took_minotaur", "params": {"points": 50}}
    assert "+50" in got["summary"]
    none = trick(http, rolls=["minotaur:flag", "mermaid", "red:7"])
    assert none["bonus"] == 0 and none["bonus_reason"] is None


def test_a_colour_rule_foul(http: httpx.Client) -> None:
    got = trick(
        http, rolls=["red:5", "yellow:5", "gray:1"], names=["Ana", "Ben", "Cy"],
        held={"2": "yellow,red", "3": "gray,purple"},
    )
    assert got["winner"] == 1
    assert got["fouls"] == [{"roll": 1, "die": "yellow", "lead": "red",
                             "reason": {"code": "must_follow", "params": {"colour": "red", "die": "yellow"}}}]
    assert "Foul by Ben (yellow rolled): you must roll red or a special die" in got["summary"]
    clean = trick(http, rolls=["red:5", "griffin", "red:7"], held={"2": "griffin,red"})
    assert clean["fouls"] == []
    two = trick(http, rolls=["purple:2", "yellow:5", "red:7"], held={"3": "red,purple", "2": "yellow,purple"})
    assert [(f["roll"], f["lead"], f["die"]) for f in two["fouls"]] == [(1, "purple", "yellow"), (2, "purple", "red")]


def test_fouls_are_found_in_one_referee_call(http: httpx.Client, monkeypatch: pytest.MonkeyPatch) -> None:
    from minodice.server import sheet_api

    calls = []
    real = sheet_api.referee

    def counted(*args: Any, **kw: Any) -> Any:
        calls.append(1)
        return real(*args, **kw)

    monkeypatch.setattr(sheet_api, "referee", counted)
    body = sheet_api.TrickBody(rolls=["red:5", "yellow:5", "gray:1"], held={"2": "yellow,red", "3": "gray,red"})
    verdict = sheet_api.judge(body)
    assert len(calls) == 1 and [f.roll for f in verdict.fouls] == [1, 2]


DICE = ["minotaur", "griffin", "mermaid", "red", "yellow", "purple", "gray"]


@pytest.mark.parametrize(
    ("body", "words", "code", "params"),
    [
        ({"rolls": ["red:9", "red:5"]}, "a red die has no face '9'", "no_such_face",
         {"text": "red:9", "die": "red", "face": "9", "faces": ["5", "6", "7"]}),
        ({"rolls": ["blue:5", "red:5"]}, "'blue' is not a die", "not_a_die", {"name": "blue", "dice": DICE}),
        ({"rolls": ["red"]}, "say which face", "face_needed", {"text": "red", "die": "red", "example": "red:7"}),
        ({"rolls": ["red:5"]}, "got 1", "roll_count", {"count": 1}),
        ({"rolls": ["red:5", "red:6"], "names": ["Ana"]}, "1 names for 2 rolls", "name_count", {"given": 1, "rolls": 2}),
        ({"rolls": ["red:5", "red:6"], "names": ["Ana", " "]}, "every roll needs a roller's name", "roller_needs_name",
         {}),
        ({"rolls": ["red:5", "red:6"], "held": {"5": "red"}}, "held dice given for roll 5", "held_roll_unknown",
         {"roll": 5, "rolls": 2}),
        ({"rolls": ["red:5", "red:6"], "held": {"x": "red"}}, "held dice are given by roll number (1 to 2), not 'x'",
         "held_by_number", {"rolls": 2, "key": "x"}),
        ({"rolls": ["red:5", "red:6"], "held": {"2": "yellow"}}, "rolled a red die but was said to hold only yellow",
         "held_without_die", {"name": "roll 2", "die": "red", "held": ["yellow"]}),
        ({"rolls": ["red:5", "red:6"], "held": {"2": "red,blue"}}, "'blue' is not a die", "not_a_die",
         {"name": "blue", "dice": DICE}),
        ({"rolls": ["red:5", "red:6"], "rules": {"all_flags": "middle"}}, "all_flags cannot be 'middle'",
         "bad_rule_value", {"rule": "all_flags", "value": "middle", "choices": "first, last"}),
    ],
)
def test_bad_tricks_are_refused_with_the_referees_code(
    http: httpx.Client, body: dict[str, Any], words: str, code: str, params: dict[str, Any]
) -> None:
    message = refused(http.post("/api/trick", json=body), 400, code, params)
    assert words in message, message


@pytest.mark.parametrize(
    "body",
    [
        {"rolls": ["red:5"] * 500},
        {"rolls": ["red:5", "red:6"], "colour": "red"},
        {"rolls": ["red:5", "red:6"], "rules": {"scoring": "landlubber"}},
        {"rolls": [5, 6]},
        {"rolls": ["red:5", "red:6"], "held": {"1": ["red"]}},
        {"rolls": ["red:5", "red:6"], "names": ["x" * 1000, "B"]},
    ],
)
def test_malformed_tricks_are_422(http: httpx.Client, body: dict[str, Any]) -> None:
    refused(http.post("/api/trick", json=body), 422, "bad_request", {})


def test_record_of_a_sheet_whose_tricks_were_all_entered(http: httpx.Client) -> None:
    game = _played(3, 4)
    built, tricks = _sheet_and_tricks(game)
    body = built.to_dict()
    names = list(built.players)
    rolls = [[[{"player": p, "roll": f"{d.value}:{f.value}"} for p, d, f in trick] for trick in hand]
             for hand in tricks]
    r = http.post("/api/sheet/record", json={"sheet": body, "tricks": rolls})
    assert r.status_code == 200, r.text
    rec = r.json()
    assert record.check(rec) is None and rec["totals"] == built.totals()
    assert [s["name"] for s in rec["seats"]] == names
    # A sheet that says otherwise than the tricks: refused in words.
    wrong = dict(body)
    wrong["hands"] = [list(h) for h in body["hands"]]
    h = next(i for i, hand in enumerate(wrong["hands"]) if hand[0]["won"] != hand[1]["won"])
    wrong["hands"][h][0], wrong["hands"][h][1] = wrong["hands"][h][1], wrong["hands"][h][0]  # two players' lines
    r = http.post("/api/sheet/record", json={"sheet": wrong, "tricks": rolls})
    message = refused(r, 400, "record_won_differs")
    assert r.json()["detail"]["params"]["in_hand"] == h + 1 and message.startswith(f"hand {h + 1}: ")
    r = http.post("/api/sheet/record", json={"sheet": body, "tricks": [[[{"player": "Ana", "roll": "red:3"}]]]})
    assert "no face '3'" in refused(r, 400, "no_such_face", {"text": "red:3", "die": "red", "face": "3",
                                                             "faces": ["5", "6", "7"]})
    r = http.post("/api/sheet/record", json={"sheet": body, "tricks": rolls[:2]})
    assert refused(r, 400, "record_hand_count", {"hands": len(rolls), "given": 2})
    r = http.post("/api/sheet/record", json={"sheet": body, "tricks": rolls, "hand_start": "nobody"})
    refused(r, 400, "bad_rule_value", {"rule": "hand_start", "value": "nobody", "choices": "rotate, last_winner"})
    # Oversized or malformed bodies: refused before any work, in words.
    r = http.post("/api/sheet/record", json={"sheet": body, "tricks": [[]] * 17})
    assert r.status_code == 422 and r.json()["detail"]["message"]
    r = http.post("/api/sheet/record", json={"sheet": body, "tricks": rolls, "extra": 1})
    assert r.status_code == 422
