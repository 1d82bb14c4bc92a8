"""The score sheet for games played with real dice: arithmetic, refusals, files and the `sheet` command."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest
import typer
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

from minodice.cli.sheet import load_sheet, register, save_sheet
from minodice.codes import GROUPS, SHEET_REFUSALS, render
from minodice.dice import HANDS_BY_SEATS
from minodice.rules import Rules, hand_score
from minodice.table.sheet import Entry, ScoreSheet, SheetError
from minodice.tui.sheet import run_sheet

PLAYERS = ["Ana", "Ben", "Cy"]


def sheet_at(hand: int, players: Iterable[str] = PLAYERS, scoring: str = "standard") -> ScoreSheet:
    """A sheet whose next hand is `hand`: earlier hands are the first player bidding and winning all."""
    sheet = ScoreSheet(list(players), scoring)
    for n in range(1, hand):
        sheet.enter([Entry(n, n)] + [Entry(0, 0)] * (len(sheet.players) - 1))
    return sheet


def last_scores(sheet: ScoreSheet) -> list[int]:
    return sheet.hand_scores(len(sheet.hands))


# --- arithmetic (RULES.md's examples) -------------------------------------------------------


def test_rulebook_examples() -> None:
    sheet = sheet_at(5)
    sheet.enter([Entry(3, 3), Entry(0, 0), Entry(1, 2)])  # hand 5: bid 3 made
    assert last_scores(sheet) == [60, 50, -10]
    sheet.enter([Entry(5, 1), Entry(0, 2), Entry(0, 3)])  # hand 6: bid 5 won 1; zero bid, 2 tricks
    assert last_scores(sheet) == [-40, -60, -60]


def test_zero_bid_made_in_hand_4() -> None:
    sheet = sheet_at(4)
    sheet.enter([Entry(0, 0), Entry(2, 2), Entry(2, 2)])
    assert last_scores(sheet) == [40, 40, 40]


def test_bonuses_count_when_the_bid_is_made() -> None:
    sheet = sheet_at(3)
    sheet.enter([Entry(2, 2, mermaid=True), Entry(1, 1), Entry(0, 0)])
    assert last_scores(sheet) == [40 + 50, 20, 30]
    sheet.enter([Entry(1, 1), Entry(3, 3, griffins=2), Entry(1, 0)])
    assert last_scores(sheet) == [20, 60 + 60, -10]
    assert sheet.hands[-1][1].bonus == 60


def test_bonus_on_a_missed_bid_is_refused() -> None:
    sheet = sheet_at(3)
    with pytest.raises(SheetError, match="Ana has a \\+50, but bid 2 and won 1"):
        sheet.enter([Entry(2, 1, mermaid=True), Entry(1, 2), Entry(0, 0)])


def test_landlubber_scoring() -> None:
    sheet = sheet_at(4, scoring="landlubber")
    assert sheet.scoring == "landlubber"
    sheet.enter([Entry(2, 2), Entry(0, 0), Entry(1, 2)])  # made, zero made, wrong
    assert last_scores(sheet) == [40, 40, 0]
    sheet.enter([Entry(0, 1), Entry(3, 3), Entry(2, 1)])  # missed zero, made, wrong
    assert last_scores(sheet) == [-50, 60, 0]


def test_running_totals_leaders_and_places() -> None:
    sheet = ScoreSheet(PLAYERS)
    assert sheet.totals() == [0, 0, 0] and sheet.leaders() == PLAYERS
    sheet.enter([Entry(1, 1), Entry(0, 0), Entry(1, 0)])
    sheet.enter([Entry(0, 1), Entry(1, 1), Entry(0, 0)])
    assert sheet.running_totals() == [[20, 10, -10], [0, 30, 10]]
    assert sheet.leaders() == ["Ben"]
    assert sheet.places() == [3, 1, 2]


def test_hands_per_player_count_and_end_of_game() -> None:
    for seats, hands in HANDS_BY_SEATS.items():
        sheet = sheet_at(hands + 1, [f"P{i}" for i in range(seats)])
        assert sheet.hand_count == hands and sheet.finished
        assert sheet.totals()[0] == sum(20 * n for n in range(1, hands + 1))
    tied = sheet_at(1)
    for n in range(1, 9):
        tied.enter([Entry(0, 0), Entry(0, 0), Entry(0, n)])
    assert tied.finished and tied.totals() == [360, 360, -360]
    assert tied.places() == [1, 1, 3] and tied.leaders() == ["Ana", "Ben"]


# --- refusals ---------------------------------------------------------------------------------


#: (id, sheet, entries, the English words (unchanged in meaning), code, params) of each refusal of a hand.
REFUSALS: list[tuple[str, Callable[[], ScoreSheet], object, str, str, dict[str, Any]]] = [
    ("tricks short", lambda: sheet_at(3), [Entry(1, 1), Entry(1, 1), Entry(0, 0)],
     "the tricks add up to 2 \\(Ana 1, Ben 1, Cy 0\\), but they must add up to 3", "tricks_do_not_add_up",
     {"won": 2, "each": "Ana 1, Ben 1, Cy 0", "dice": 3}),
    ("tricks over", lambda: sheet_at(3), [Entry(1, 2), Entry(1, 1), Entry(0, 1)], "tricks add up to 4",
     "tricks_do_not_add_up", {"won": 4, "each": "Ana 2, Ben 1, Cy 1", "dice": 3}),
    ("bid too high", lambda: sheet_at(3), [Entry(4, 3), Entry(0, 0), Entry(0, 0)],
     "Ana's bid cannot be 4: in this hand it goes from 0 to 3", "bid_beyond_dice",
     {"player": "Ana", "value": 4, "dice": 3}),
    ("bid negative", lambda: sheet_at(3), [Entry(1, 3), Entry(-1, 0), Entry(0, 0)], "Ben's bid cannot be -1",
     "bid_beyond_dice", {"player": "Ben", "value": -1, "dice": 3}),
    ("won too high", lambda: sheet_at(2), [Entry(0, 0), Entry(0, 0), Entry(2, 3)],
     "Cy's tricks won cannot be 3: in this hand they go from 0 to 2", "won_beyond_dice",
     {"player": "Cy", "value": 3, "dice": 2}),
    ("won negative", lambda: sheet_at(3), [Entry(0, 3), Entry(0, -1), Entry(0, 1)], "Ben's tricks won cannot be -1",
     "won_beyond_dice", {"player": "Ben", "value": -1, "dice": 3}),
    ("bid not a number", lambda: sheet_at(2), [Entry("2", 2), Entry(0, 0), Entry(0, 0)],
     "Ana's bid must be a whole number from 0 to 2, not '2'", "bid_not_whole",
     {"player": "Ana", "value": "'2'", "dice": 2}),
    ("bid a bool", lambda: sheet_at(2), [Entry(True, 2), Entry(0, 0), Entry(0, 0)], "Ana's bid must be a whole",
     "bid_not_whole", {"player": "Ana", "value": "True", "dice": 2}),
    ("won not a number", lambda: sheet_at(2), [Entry(2, 2.0), Entry(0, 0), Entry(0, 0)],
     "Ana's tricks won must be a whole number from 0 to 2, not 2.0", "won_not_whole",
     {"player": "Ana", "value": "2.0", "dice": 2}),
    ("bonus on missed bid", lambda: sheet_at(3),
     [Entry(1, 1), Entry(2, 1, griffins=1), Entry(0, 1)],
     "Ben has a \\+30, but bid 2 and won 1: bonuses count only when the bid is made exactly", "bonus_bid_missed",
     {"player": "Ben", "points": 30, "bid": 2, "won": 1}),
    ("bonus on zero bid", lambda: sheet_at(3),
     [Entry(1, 1), Entry(0, 2, mermaid=True), Entry(0, 0)], "Ben has a \\+50, but bid zero", "bonus_on_zero_bid",
     {"player": "Ben", "points": 50}),
    ("bonus without a trick", lambda: sheet_at(3),
     [Entry(3, 3), Entry(0, 0), Entry(0, 0, mermaid=True)], "Cy has a \\+50, but won no trick",
     "bonus_without_trick", {"player": "Cy", "points": 50}),
    ("two +50s", lambda: sheet_at(3),
     [Entry(2, 2, mermaid=True), Entry(1, 1, mermaid=True), Entry(0, 0)],
     "Ana and Ben both have a \\+50, but there is one minotaur, so one \\+50 a hand at most", "two_mermaid_bonuses",
     {"players": ["Ana", "Ben"], "points": 50}),
    ("+50 and +30", lambda: sheet_at(3),
     [Entry(2, 2, mermaid=True), Entry(1, 1, griffins=1), Entry(0, 0)],
     "Ana has a \\+50 and Ben a \\+30: the one minotaur die cannot both be captured", "mermaid_and_griffin_bonuses",
     {"player": "Ana", "players": ["Ben"], "mermaid": 50, "griffin": 30}),
    ("+30s for two players", lambda: sheet_at(3),
     [Entry(2, 2, griffins=1), Entry(1, 1, griffins=1), Entry(0, 0)],
     "Ana and Ben all have \\+30s, .* only one player can have them", "griffin_bonuses_split",
     {"players": ["Ana", "Ben"], "points": 30}),
    ("three +30s with three players", lambda: sheet_at(3),
     [Entry(3, 3, griffins=3), Entry(0, 0), Entry(0, 0)],
     "Ana has 3 \\+30 bonuses, but with 3 players a minotaur's trick can hold at most 2 griffins",
     "too_many_griffin_bonuses", {"player": "Ana", "count": 3, "points": 30, "seats": 3, "most": 2}),
    ("four +30s with four players", lambda: sheet_at(3, ["A", "B", "C", "D"]),
     [Entry(3, 3, griffins=4), Entry(0, 0), Entry(0, 0), Entry(0, 0)], "at most 3 griffins",
     "too_many_griffin_bonuses", {"player": "A", "count": 4, "points": 30, "seats": 4, "most": 3}),
    ("negative +30s", lambda: sheet_at(3),
     [Entry(3, 3, griffins=-1), Entry(0, 0), Entry(0, 0)],
     "Ana's number of \\+30 bonuses must be a whole number of 0 or more, not -1", "griffins_not_count",
     {"player": "Ana", "points": 30, "value": "-1"}),
    ("+50 not a flag", lambda: sheet_at(3),
     [Entry(3, 3, mermaid=1), Entry(0, 0), Entry(0, 0)], "Ana's \\+50 must be yes or no, not 1", "mermaid_not_yes_no",
     {"player": "Ana", "points": 50, "value": "1"}),
    ("landlubber bonus", lambda: sheet_at(3, scoring="landlubber"),
     [Entry(3, 3, mermaid=True), Entry(0, 0), Entry(0, 0)], "Ana has a bonus, but landlubber scoring has no bonuses",
     "bonus_under_landlubber", {"player": "Ana"}),
    ("too many hands", lambda: sheet_at(9), [Entry(9, 9), Entry(0, 0), Entry(0, 0)],
     "all 8 hands of this game are already entered", "sheet_finished", {"hands": 8}),
    ("too many hands for 6", lambda: sheet_at(7, ["A", "B", "C", "D", "E", "F"]),
     [Entry(0, 0)] * 5 + [Entry(7, 7)], "all 6 hands", "sheet_finished", {"hands": 6}),
    ("a line short", lambda: sheet_at(2), [Entry(2, 2), Entry(0, 0)], "one line per player \\(3\\), not 2",
     "line_count", {"players": 3, "lines": 2}),
    ("unknown player", lambda: sheet_at(2),
     {"Ana": Entry(2, 2), "Ben": Entry(0, 0), "Dee": Entry(0, 0)}, "Dee is not playing: the players are Ana, Ben and Cy",
     "player_not_playing", {"name": "Dee", "players": ["Ana", "Ben", "Cy"]}),
    ("missing player", lambda: sheet_at(2), {"Ana": Entry(2, 2), "Ben": Entry(0, 0)}, "no line for Cy",
     "no_line_for", {"players": ["Cy"]}),
    ("not an entry", lambda: sheet_at(2), [Entry(2, 2), (0, 0), Entry(0, 0)], "Ben's line is not",
     "line_not_entry", {"player": "Ben"}),
]


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def refusal(error: pytest.ExceptionInfo[SheetError], code: str, params: dict[str, Any] | None) -> None:
    """The refusal has `code` and (unless None) exactly `params`; its words are the registry's, and JSON-ready."""
    exc = error.value
    assert exc.code == code, (exc.code, str(exc))
    if params is not None:
        assert exc.params == params
    assert exc.to_dict() == {"code": code, "message": str(exc), "params": exc.params}
    assert json.loads(json.dumps(exc.to_dict())) == exc.to_dict()
    if code in SHEET_REFUSALS and not any(k.startswith("in_") for k in exc.params):
        english = {k: (_and(v) if isinstance(v, list) else v) for k, v in exc.params.items()}
        assert str(exc) == render(code, english)


@pytest.mark.parametrize(("setup", "entries", "message", "code", "params"), [r[1:] for r in REFUSALS],
                         ids=[r[0] for r in REFUSALS])
def test_impossible_hand_is_refused_and_changes_nothing(
    setup: Callable[[], ScoreSheet], entries: object, message: str, code: str, params: dict[str, Any]
) -> None:
    sheet = setup()
    before = sheet.to_json()
    with pytest.raises(SheetError, match=message) as error:
        sheet.enter(entries)  # type: ignore[arg-type]
    refusal(error, code, params)
    assert sheet.to_json() == before


#: (players, scoring, English words, code, params) of each refusal of a table.
TABLE_REFUSALS: list[tuple[object, object, str, str, dict[str, Any]]] = [
    (["Ana", "Ben"], "standard", "Mino Dice is played by 3 to 6 players, not 2", "player_count",
     {"low": 3, "high": 6, "count": 2}),
    ([f"P{i}" for i in range(7)], "standard", "3 to 6 players, not 7", "player_count", {"low": 3, "high": 6, "count": 7}),
    (["Ana", "Ben", "ana"], "standard", "two players are called ana", "same_name", {"name": "ana"}),
    (["Ana", "Ben", " "], "standard", "every player needs a name, not ' '", "player_needs_name", {"name": "' '"}),
    (["Ana", "Ben", 3], "standard", "every player needs a name, not 3", "player_needs_name", {"name": "3"}),
    (["Ana", "Ben", "C\ny"], "standard", "cannot be shown", "name_not_printable", {"name": "'C\\ny'"}),
    ("AnaBenCy", "standard", "the players must be a list of names", "players_not_list", {}),
    (PLAYERS, "pirate", "rule scoring cannot be 'pirate': choose one of standard, landlubber", "bad_rule_value",
     {"rule": "scoring", "value": "pirate", "choices": "standard, landlubber"}),
    (PLAYERS, 3, "the scoring must be one of standard, landlubber", "scoring_not_text",
     {"choices": "standard, landlubber"}),
]


@pytest.mark.parametrize(("players", "scoring", "message", "code", "params"), TABLE_REFUSALS)
def test_bad_table_is_refused(players: object, scoring: object, message: str, code: str, params: dict[str, Any]) -> None:
    with pytest.raises(SheetError, match=message) as error:
        ScoreSheet(players, scoring)  # type: ignore[arg-type]
    refusal(error, code, params)


def test_replace_and_undo() -> None:
    sheet = sheet_at(4)
    sheet.replace(2, {"Ana": Entry(1, 1), "Ben": Entry(1, 1), "Cy": Entry(0, 0)})
    assert sheet.hand_scores(2) == [20, 20, 20]
    assert sheet.totals() == [20 + 20 + 60, 10 + 20 + 30, 10 + 20 + 30]
    before = sheet.to_json()
    with pytest.raises(SheetError, match="tricks add up to 3") as error:
        sheet.replace(2, [Entry(1, 1), Entry(1, 1), Entry(0, 1)])
    refusal(error, "tricks_do_not_add_up", {"won": 3, "each": "Ana 1, Ben 1, Cy 1", "dice": 2})
    for bad, shown in ((0, "0"), (4, "4"), ("2", "'2'")):
        with pytest.raises(SheetError, match=f"there is no hand {shown} on the sheet: it has hands 1 to 3") as error:
            sheet.replace(bad, [Entry(0, 0)] * 3)  # type: ignore[arg-type]
        refusal(error, "no_such_hand", {"hand": shown, "hands": 3})
    assert sheet.to_json() == before
    assert sheet.undo() == 3 and len(sheet.hands) == 2
    sheet.undo(), sheet.undo()
    with pytest.raises(SheetError, match="there is no hand 1 on the sheet: it has no hands yet") as error:
        sheet.replace(1, [Entry(1, 1), Entry(0, 0), Entry(0, 0)])
    refusal(error, "no_hand_yet", {"hand": "1", "hands": 0})
    with pytest.raises(SheetError, match="no hand to undo") as error:
        sheet.undo()
    refusal(error, "nothing_to_undo", {})


# --- files ------------------------------------------------------------------------------------


def test_json_round_trip() -> None:
    sheet = sheet_at(3, ["Ana", "Ben", "Cy", "Dee"])
    sheet.enter([Entry(3, 3, griffins=3), Entry(0, 0), Entry(1, 0), Entry(0, 0)])
    again = ScoreSheet.from_json(sheet.to_json())
    assert again.players == sheet.players and again.scoring == "standard"
    assert again.hands == sheet.hands and again.totals() == sheet.totals()
    assert again.to_json() == sheet.to_json()
    lubber = ScoreSheet.from_json(sheet_at(2, scoring="landlubber").to_json())
    assert lubber.scoring == "landlubber" and lubber.totals() == [20, 10, 10]


def _tampered(change: Callable[[dict], object]) -> str:
    data = json.loads(sheet_at(4).to_json())
    change(data)
    return json.dumps(data)


#: (saved text, English words, code, params) of each refusal of a saved sheet; None words: it loads.
FILE_REFUSALS: list[tuple[str | bytes, str | None, str | None, dict[str, Any] | None]] = [
    ("{not json", "the score sheet is not valid JSON \\(", "not_json", None),
    (b"\xff\xfe{", "not valid JSON", "not_json", None),
    ("[" * 100_000 + "]" * 100_000, "not valid JSON|score sheet is a JSON object", None, None),
    ("[]", "a score sheet is a JSON object with players, scoring and hands", "sheet_not_object", {}),
    (_tampered(lambda d: d.update(format="other/1")),
     "this is not a Mino Dice score sheet \\(its format is not 'minodice-sheet/1'\\)", "not_a_sheet",
     {"format": "minodice-sheet/1"}),
    (_tampered(lambda d: d.update(players="Ana")), "players must be a list", "players_not_list", {}),
    (_tampered(lambda d: d.update(players=["Ana", "Ben"])), "not 2", "player_count", {"low": 3, "high": 6, "count": 2}),
    (_tampered(lambda d: d.update(scoring=3)), "scoring must be", "scoring_not_text", {"choices": "standard, landlubber"}),
    (_tampered(lambda d: d.update(hands={})), "the sheet's hands must be a list", "hands_not_list", {}),
    (_tampered(lambda d: d["hands"][1][0].update(won=1)), "^hand 2: the tricks add up to 1 \\(Ana 1, Ben 0, Cy 0\\)",
     "tricks_do_not_add_up", {"won": 1, "each": "Ana 1, Ben 0, Cy 0", "dice": 2, "in_hand": 2}),
    (_tampered(lambda d: d["hands"][2][1].update(bid="3")), "^hand 3: Ben's bid must be a whole", "bid_not_whole",
     {"player": "Ben", "value": "'3'", "dice": 3, "in_hand": 3}),
    (_tampered(lambda d: d["hands"][2][0].update(mermaid=True, bid=2, won=2)), "^hand 3: the tricks",
     "tricks_do_not_add_up", None),
    (_tampered(lambda d: d["hands"][2][0].update(mermaid=True)), None, None, None),
    (_tampered(lambda d: d["hands"][0][0].update(cheat=1)), "^hand 1: line 1 has unknown fields: cheat$",
     "line_unknown_fields", {"line": 1, "fields": "cheat", "in_hand": 1}),
    (_tampered(lambda d: d["hands"][0][0].pop("won")), "^hand 1: line 1 needs both bid and won$",
     "line_needs_bid_and_won", {"line": 1, "in_hand": 1}),
    (_tampered(lambda d: d["hands"][0].pop()), "^hand 1: a hand must be a list of 3 lines, one per player$",
     "hand_not_list", {"players": 3, "in_hand": 1}),
    (_tampered(lambda d: d["hands"].__setitem__(0, "x")), "hand 1: a hand must be", "hand_not_list",
     {"players": 3, "in_hand": 1}),
    (_tampered(lambda d: d["hands"][0].__setitem__(1, 7)), "^hand 1: line 2 must be an object with bid and won$",
     "line_not_object", {"line": 2, "in_hand": 1}),
    (_tampered(lambda d: d["hands"].extend([d["hands"][0]] * 6)), "the sheet has 9 hands, but the game has only 8",
     "too_many_hands", {"hands": 9, "most": 8}),
]


@pytest.mark.parametrize(("text", "message", "code", "params"), FILE_REFUSALS)
def test_broken_or_tampered_json_is_refused(
    text: str | bytes, message: str | None, code: str | None, params: dict[str, Any] | None
) -> None:
    if message is None:  # a bonus the sheet allows: still loads
        assert ScoreSheet.from_json(text).hand_scores(3)[0] == 60 + 50
        return
    with pytest.raises(SheetError, match=message) as error:
        ScoreSheet.from_json(text)
    if code is not None:
        refusal(error, code, params)


def test_a_refusal_in_a_saved_hand_says_which_hand() -> None:
    error = SheetError("line_not_object", {"line": 2}).within(hand=4)
    assert (error.code, error.params, str(error)) == (
        "line_not_object", {"line": 2, "in_hand": 4}, "hand 4: line 2 must be an object with bid and won")
    again = error.within(hand=5, trick=2, player="Ana")
    assert again.params == {"line": 2, "in_hand": 5, "in_trick": 2, "in_player": "Ana"}
    assert str(again) == "hand 5, trick 2, Ana's roll: line 2 must be an object with bid and won"


def test_an_unreadable_file_is_refused_with_a_code(tmp_path: Path) -> None:
    with pytest.raises(SheetError, match=f"cannot read {tmp_path}: ") as error:
        load_sheet(tmp_path)  # a folder
    refusal(error, "sheet_unreadable", None)
    assert error.value.params["path"] == str(tmp_path)


def test_every_sheet_refusal_code_is_tested_and_no_other_group_has_it() -> None:
    from test_referee import HTTP_ONLY, REFEREE_REFUSALS
    from test_sheet_record import RECORD_CODES

    tested = {r[4] for r in REFUSALS} | {r[3] for r in TABLE_REFUSALS} | {r[2] for r in FILE_REFUSALS if r[2]}
    tested |= {"nothing_to_undo", "no_such_hand", "no_hand_yet", "sheet_unreadable"}  # test_replace_and_undo, files
    tested |= {r[2] for r in REFEREE_REFUSALS} | HTTP_ONLY | RECORD_CODES
    assert tested == set(SHEET_REFUSALS)
    for group, codes in GROUPS.items():
        if codes is not SHEET_REFUSALS:
            assert not set(codes) & set(SHEET_REFUSALS), group


def test_csv_export() -> None:
    sheet = sheet_at(3)
    sheet.enter([Entry(2, 2, mermaid=True), Entry(1, 1), Entry(0, 0)])
    rows = list(csv.reader(io.StringIO(sheet.to_csv())))
    assert rows[0] == ["hand", "dice", "player", "bid", "won", "bonus", "hand score", "total"]
    assert rows[1] == ["1", "1", "Ana", "1", "1", "0", "20", "20"]
    assert rows[7:10] == [
        ["3", "3", "Ana", "2", "2", "50", "90", "150"],
        ["3", "3", "Ben", "1", "1", "0", "20", "50"],
        ["3", "3", "Cy", "0", "0", "0", "30", "60"],
    ]
    assert rows[10] == []
    assert rows[11:] == [["player", "total", "place"], ["Ana", "150", "1"], ["Ben", "50", "3"], ["Cy", "60", "2"]]


def test_csv_quotes_awkward_names() -> None:
    sheet = sheet_at(2, ['Ana, "the Bold"', "Ben", "Cy"])
    rows = list(csv.reader(io.StringIO(sheet.to_csv())))
    assert rows[1][2] == 'Ana, "the Bold"' and rows[-3] == ['Ana, "the Bold"', "20", "1"]


# --- property: any possible hand is accepted and scored by rules.hand_score ---------------------


@st.composite
def games(draw: st.DrawFn) -> tuple[int, str, list[list[Entry]]]:
    """A player count, a scoring variant and some possible hands (tricks add up, bonuses allowed)."""
    seats = draw(st.integers(3, 6))
    scoring = draw(st.sampled_from(["standard", "landlubber"]))
    count = draw(st.integers(0, HANDS_BY_SEATS[seats]))
    hands = []
    for n in range(1, count + 1):
        cuts = sorted(draw(st.lists(st.integers(0, n), min_size=seats - 1, max_size=seats - 1)))
        won = [b - a for a, b in zip([0, *cuts], [*cuts, n])]
        bids = [draw(st.sampled_from([w, w, draw(st.integers(0, n))])) for w in won]
        lines = [Entry(b, w) for b, w in zip(bids, won)]
        made = [i for i, e in enumerate(lines) if e.bid == e.won > 0]
        if scoring == "standard" and made:
            who = draw(st.sampled_from(made))
            kind = draw(st.sampled_from(["none", "mermaid", "griffins"]))
            if kind == "mermaid":
                lines[who] = Entry(lines[who].bid, lines[who].won, mermaid=True)
            elif kind == "griffins":
                lines[who] = Entry(lines[who].bid, lines[who].won, griffins=draw(st.integers(1, min(3, seats - 1))))
        hands.append(lines)
    return seats, scoring, hands


@given(games())
def test_possible_hands_are_accepted_and_totalled(game: tuple[int, str, list[list[Entry]]]) -> None:
    seats, scoring, hands = game
    sheet = ScoreSheet([f"P{i}" for i in range(seats)], scoring)
    for hand in hands:
        sheet.enter(hand)
    rules = Rules(scoring=scoring)
    expected = [
        sum(hand_score(h[seat].bid, h[seat].won, n, h[seat].bonus, rules) for n, h in enumerate(hands, start=1))
        for seat in range(seats)
    ]
    assert sheet.totals() == expected
    assert ScoreSheet.from_json(sheet.to_json()).totals() == expected


# --- the interactive loop ----------------------------------------------------------------------


class Script:
    """Scripted typing: each prompt takes the next line; EOFError when the lines run out."""

    def __init__(self, lines: Iterable[str]) -> None:
        self.lines = list(lines)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)


def drive(sheet: ScoreSheet, lines: Iterable[str], path: Path) -> tuple[ScoreSheet, Script, str, int]:
    """Run the loop with scripted lines; return the sheet, the script, all output and the number of saves."""
    console = Console(file=io.StringIO(), width=160, record=True)
    saves = []

    def save(s: ScoreSheet) -> None:
        saves.append(1)
        save_sheet(s, path)

    script = Script(lines)
    result = run_sheet(sheet, save, script, console.print)
    return result, script, console.export_text(), len(saves)


def test_loop_refuses_bad_entries_undoes_quits_and_resumes(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    lines = [
        "undo",  # nothing to undo yet: asked again
        "1", "0", "x", "0",  # bids (Cy's "x" re-asked)
        "1", "1", "0",  # tricks add up to 2 in a hand of 1: refused
        "1", "0", "0",  # tricks again
        "50 50", "30 30 30", "50",  # Ana's bonus: two refusals, then +50
        "undo",  # hand 2's first bid: remove hand 1
        "1", "0", "0", "1", "0", "0", "",  # hand 1 again, no bonus
        "1", "1", "0", "quit",  # hand 2 left unfinished
    ]
    sheet, script, out, saves = drive(ScoreSheet(PLAYERS), lines, path)
    assert sheet.totals() == [20, 10, 10] and len(sheet.hands) == 1
    assert "There is no hand to undo yet." in out
    assert "'x' is not a number" in out
    assert ("the tricks add up to 2 (Ana 1, Ben 1, Cy 0), but they must add up to 1, the number of dice each "
            "player holds in this hand" in out)
    assert "one +50 at most" in out
    assert "at most 2 griffins" in out
    assert "Hand 1 removed" in out and "Saved after hand 1 of 8" in out
    assert script.prompts[0] == "Ana: bid (0-1)" and script.prompts[1] == "Ana: bid (0-1)"
    assert script.prompts.count("Ana made the bid: bonus? (50, or 30 per griffin; Enter = none)") == 4
    assert saves == 4  # hand 1, undo, hand 1 again, quit
    assert load_sheet(path).to_json() == sheet.to_json()

    resumed, script, out, _ = drive(load_sheet(path), ["2", "0", "0", "2", "0", "0", "30 30"], path)
    assert resumed.totals() == [20 + 40 + 60, 10 + 20, 10 + 20]
    assert "Hand 2 saved. After hand 2: Ana leads with 120." in out
    assert load_sheet(path).totals() == [120, 30, 30]  # end of input saves and leaves
    assert "Hand 2 of 8: 2 dice each." in out


def test_ctrl_c_saves_and_leaves(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    lines = iter(["1", "0", "0", "1", "0", "0", "", "2"])

    def ask(_prompt: str) -> str:
        line = next(lines, None)
        if line is None:
            raise KeyboardInterrupt
        return line

    sheet = run_sheet(ScoreSheet(PLAYERS), lambda s: save_sheet(s, path), ask, lambda _: None)
    assert len(sheet.hands) == 1 and load_sheet(path).totals() == [20, 10, 10]


def test_loop_asks_bonuses_only_for_a_made_bid(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    lines = ["1", "1", "0", "2", "0", "0"]  # hand 2: Ana 1/2, Ben 1/0, Cy 0/0: nobody made a non-zero bid
    sheet, script, _, _ = drive(sheet_at(2), lines, path)
    assert len(sheet.hands) == 2
    assert not any("bonus?" in p for p in script.prompts)
    lubber, script, _, _ = drive(sheet_at(2, scoring="landlubber"), ["2", "0", "0", "2", "0", "0"], path)
    assert lubber.totals() == [20 + 40, 10 + 20, 10 + 20]
    assert not any("bonus?" in p for p in script.prompts)


def test_loop_plays_a_whole_game_and_can_reopen_the_last_hand(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    lines = []
    for n in range(1, 9):
        lines += [str(n), "0", "0", str(n), "0", "0", ""]
    lines += ["undo", "8", "0", "0", "8", "0", "0", "30", ""]
    sheet, script, out, _ = drive(ScoreSheet(PLAYERS), lines, path)
    assert sheet.finished
    assert sheet.totals() == [20 * 36 + 30, 360, 360]
    assert "The game is over: Ana wins with 750." in out
    assert "Hand 8 removed" in out
    assert script.prompts[-1].startswith("The game is over.")
    assert load_sheet(path).totals() == [750, 360, 360]


# --- the command --------------------------------------------------------------------------------

runner = CliRunner()


def make_app() -> typer.Typer:
    app = typer.Typer()
    register(app)

    @app.command()
    def other() -> None:  # a second command, so `sheet` is a subcommand as in `minodice`
        """Nothing."""

    return app


def invoke(*args: str, input: str = "") -> object:
    return runner.invoke(make_app(), ["sheet", *args], input=input)


def test_cli_new_sheet_then_continue_then_csv(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = invoke(str(path), "--players", "Ana", "-p", "Ben", "-p", "Cy", input="1\n0\n0\n1\n0\n0\n50\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Hand 1 saved" in result.output and "Score sheet" in result.output
    assert load_sheet(path).totals() == [70, 10, 10]

    result = invoke(str(path), input="0\n2\n0\n0\n2\n0\n\n")  # the input ends: saved and left
    assert result.exit_code == 0, result.output
    assert load_sheet(path).totals() == [90, 50, 30]

    out = tmp_path / "game.csv"
    result = invoke(str(path), "--csv", str(out))
    assert result.exit_code == 0 and "Wrote" in result.output
    assert out.read_text().splitlines()[-3:] == ["Ana,90,1", "Ben,50,2", "Cy,30,3"]


def test_cli_landlubber_and_overwrite(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = invoke(str(path), "-p", "Ana", "-p", "Ben", "-p", "Cy", "--scoring", "landlubber",
                    input="1\n0\n0\n1\n0\n0\n")
    assert result.exit_code == 0, result.output
    assert "bonus?" not in result.output
    assert load_sheet(path).scoring == "landlubber"

    result = invoke(str(path), "-p", "Dee", "-p", "Eve", "-p", "Flo")
    assert result.exit_code == 2 and "already exists" in result.output
    assert load_sheet(path).players == ("Ana", "Ben", "Cy")
    result = invoke(str(path), "--scoring", "standard")
    assert result.exit_code == 2 and "cannot change its scoring" in result.output

    result = invoke(str(path), "-p", "Dee", "-p", "Eve", "-p", "Flo", "--new", input="quit\n")
    assert result.exit_code == 0, result.output
    fresh = load_sheet(path)
    assert fresh.players == ("Dee", "Eve", "Flo") and fresh.hands == () and fresh.scoring == "standard"


@pytest.mark.parametrize(
    "players",
    [["-p", "Ana,Ben,Cy"], ["-p", "Ana", "-p", "Ben", "-p", "Cy"], ["-p", "Ana, Ben", "--players", "Cy"]],
)
def test_cli_players_as_a_list_or_repeated(tmp_path: Path, players: list[str]) -> None:
    path = tmp_path / "game.json"
    result = invoke(str(path), *players, input="quit\n")
    assert result.exit_code == 0, result.output
    assert load_sheet(path).players == ("Ana", "Ben", "Cy")


@pytest.mark.parametrize(
    ("args", "setup", "code", "message"),
    [
        (["-p", "Ana", "-p", "Ben"], None, 2, "3 to 6 players, not 2"),
        (["-p", "Ana,Ben"], None, 2, "3 to 6 players, not 2"),
        (["-p", "Ana,,Cy"], None, 2, "every player needs a name"),
        (["-p", "Ana,Ben,Ana"], None, 2, "two players are called"),
        ([], None, 2, "does not exist"),
        (["--new"], None, 2, "--new starts a new sheet"),
        (["-p", "A", "-p", "B", "-p", "C", "--csv", "x.csv"], None, 2, "leave out --players"),
        ([], "{broken", 2, "is not a usable score sheet: the score sheet is not valid JSON"),
        ([], '{"format": "minodice-sheet/1", "players": ["A", "B", "C"], "hands": [[{"bid": 1, "won": 2}]]}',
         2, "hand 1: a hand must be a list of 3"),
    ],
)
def test_cli_refusals_are_plain_words(
    tmp_path: Path, args: list[str], setup: str | None, code: int, message: str
) -> None:
    path = tmp_path / "game.json"
    if setup is not None:
        path.write_text(setup)
    result = invoke(str(path), *args)
    assert result.exit_code == code
    assert message in result.output
    assert "Traceback" not in result.output and isinstance(result.exception, SystemExit)


def test_save_is_atomic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.json"
    sheet = sheet_at(3)
    save_sheet(sheet, path)
    before = path.read_text()

    def crash(*_: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr("minodice.cli.sheet.os.replace", crash)
    with pytest.raises(OSError, match="disk full"):
        save_sheet(sheet_at(4), path)
    assert path.read_text() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_csv_writes_formula_like_names_as_text() -> None:
    """`minodice sheet --csv` and the web page's CSV share `to_csv`: a name that a spreadsheet would run is text."""
    sheet = ScoreSheet(["=cmd|' /C calc'!A0", "@SUM(1)", "Ana"])
    sheet.enter([Entry(0, 0), Entry(1, 1), Entry(0, 0)])
    text = sheet.to_csv()
    assert "'=cmd|' /C calc'!A0" in text and "'@SUM(1)" in text
    assert "\n=cmd" not in text and ",=cmd" not in text and ",@SUM" not in text
