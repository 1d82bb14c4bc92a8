"""The score sheet for games played with real dice: arithmetic, refusals, files and the `sheet` command."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
import typer
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

from minodice.table.sheet import Entry, ScoreSheet, SheetError
from minodice.cli.sheet import load_sheet, register, run_sheet, save_sheet
from minodice.dice import HANDS_BY_SEATS
from minodice.rules import Rules, hand_score

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


REFUSALS: list[tuple[str, Callable[[], ScoreSheet], object, str]] = [
    ("tricks short", lambda: sheet_at(3), [Entry(1, 1), Entry(1, 1), Entry(0, 0)], "tricks add up to 2"),
    ("tricks over", lambda: sheet_at(3), [Entry(1, 2), Entry(1, 1), Entry(0, 1)], "tricks add up to 4"),
    ("bid too high", lambda: sheet_at(3), [Entry(4, 3), Entry(0, 0), Entry(0, 0)], "Ana's bid cannot be 4"),
    ("bid negative", lambda: sheet_at(3), [Entry(1, 3), Entry(-1, 0), Entry(0, 0)], "Ben's bid cannot be -1"),
    ("won too high", lambda: sheet_at(2), [Entry(0, 0), Entry(0, 0), Entry(2, 3)], "Cy's tricks won cannot be 3"),
    ("won negative", lambda: sheet_at(3), [Entry(0, 3), Entry(0, -1), Entry(0, 1)], "Ben's tricks won cannot be -1"),
    ("bid not a number", lambda: sheet_at(2), [Entry("2", 2), Entry(0, 0), Entry(0, 0)], "Ana's bid must be a whole"),
    ("bid a bool", lambda: sheet_at(2), [Entry(True, 2), Entry(0, 0), Entry(0, 0)], "Ana's bid must be a whole"),
    ("bonus on missed bid", lambda: sheet_at(3),
     [Entry(1, 1), Entry(2, 1, griffins=1), Entry(0, 1)], "Ben has a \\+30, but bid 2 and won 1"),
    ("bonus on zero bid", lambda: sheet_at(3),
     [Entry(1, 1), Entry(0, 2, mermaid=True), Entry(0, 0)], "Ben has a \\+50, but bid zero"),
    ("bonus without a trick", lambda: sheet_at(3),
     [Entry(3, 3), Entry(0, 0), Entry(0, 0, mermaid=True)], "Cy has a \\+50, but won no trick"),
    ("two +50s", lambda: sheet_at(3),
     [Entry(2, 2, mermaid=True), Entry(1, 1, mermaid=True), Entry(0, 0)], "Ana and Ben both have a \\+50"),
    ("+50 and +30", lambda: sheet_at(3),
     [Entry(2, 2, mermaid=True), Entry(1, 1, griffins=1), Entry(0, 0)], "cannot both be captured"),
    ("+30s for two players", lambda: sheet_at(3),
     [Entry(2, 2, griffins=1), Entry(1, 1, griffins=1), Entry(0, 0)], "only one player can have them"),
    ("three +30s with three players", lambda: sheet_at(3),
     [Entry(3, 3, griffins=3), Entry(0, 0), Entry(0, 0)], "at most 2 griffins"),
    ("four +30s with four players", lambda: sheet_at(3, ["A", "B", "C", "D"]),
     [Entry(3, 3, griffins=4), Entry(0, 0), Entry(0, 0), Entry(0, 0)], "at most 3 griffins"),
    ("negative +30s", lambda: sheet_at(3),
     [Entry(3, 3, griffins=-1), Entry(0, 0), Entry(0, 0)], "Ana's number of \\+30 bonuses"),
    ("+50 not a flag", lambda: sheet_at(3),
     [Entry(3, 3, mermaid=1), Entry(0, 0), Entry(0, 0)], "Ana's \\+50 must be yes or no"),
    ("landlubber bonus", lambda: sheet_at(3, scoring="landlubber"),
     [Entry(3, 3, mermaid=True), Entry(0, 0), Entry(0, 0)], "landlubber scoring has no bonuses"),
    ("too many hands", lambda: sheet_at(9), [Entry(9, 9), Entry(0, 0), Entry(0, 0)], "all 8 hands"),
    ("too many hands for 6", lambda: sheet_at(7, ["A", "B", "C", "D", "E", "F"]),
     [Entry(0, 0)] * 5 + [Entry(7, 7)], "all 6 hands"),
    ("a line short", lambda: sheet_at(2), [Entry(2, 2), Entry(0, 0)], "one line per player"),
    ("unknown player", lambda: sheet_at(2),
     {"Ana": Entry(2, 2), "Ben": Entry(0, 0), "Dee": Entry(0, 0)}, "Dee is not playing"),
    ("missing player", lambda: sheet_at(2), {"Ana": Entry(2, 2), "Ben": Entry(0, 0)}, "no line for Cy"),
    ("not an entry", lambda: sheet_at(2), [Entry(2, 2), (0, 0), Entry(0, 0)], "Ben's line is not"),
]


@pytest.mark.parametrize(("setup", "entries", "message"), [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_impossible_hand_is_refused_and_changes_nothing(
    setup: Callable[[], ScoreSheet], entries: object, message: str
) -> None:
    sheet = setup()
    before = sheet.to_json()
    with pytest.raises(SheetError, match=message):
        sheet.enter(entries)  # type: ignore[arg-type]
    assert sheet.to_json() == before


@pytest.mark.parametrize(
    ("players", "scoring", "message"),
    [
        (["Ana", "Ben"], "standard", "3 to 6 players, not 2"),
        ([f"P{i}" for i in range(7)], "standard", "3 to 6 players, not 7"),
        (["Ana", "Ben", "ana"], "standard", "two players are called ana"),
        (["Ana", "Ben", " "], "standard", "every player needs a name"),
        (["Ana", "Ben", "C\ny"], "standard", "cannot be shown"),
        ("AnaBenCy", "standard", "list of names"),
        (PLAYERS, "pirate", "scoring cannot be 'pirate'"),
    ],
)
def test_bad_table_is_refused(players: object, scoring: str, message: str) -> None:
    with pytest.raises(SheetError, match=message):
        ScoreSheet(players, scoring)  # type: ignore[arg-type]


def test_replace_and_undo() -> None:
    sheet = sheet_at(4)
    sheet.replace(2, {"Ana": Entry(1, 1), "Ben": Entry(1, 1), "Cy": Entry(0, 0)})
    assert sheet.hand_scores(2) == [20, 20, 20]
    assert sheet.totals() == [20 + 20 + 60, 10 + 20 + 30, 10 + 20 + 30]
    before = sheet.to_json()
    with pytest.raises(SheetError, match="tricks add up to 3"):
        sheet.replace(2, [Entry(1, 1), Entry(1, 1), Entry(0, 1)])
    for bad in (0, 4, "2"):
        with pytest.raises(SheetError, match="there is no hand"):
            sheet.replace(bad, [Entry(0, 0)] * 3)  # type: ignore[arg-type]
    assert sheet.to_json() == before
    assert sheet.undo() == 3 and len(sheet.hands) == 2
    sheet.undo(), sheet.undo()
    with pytest.raises(SheetError, match="no hand to undo"):
        sheet.undo()


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


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not valid JSON"),
        (b"\xff\xfe{", "not valid JSON"),
        ("[" * 100_000 + "]" * 100_000, "not valid JSON|score sheet is a JSON object"),
        ("[]", "a JSON object"),
        (_tampered(lambda d: d.update(format="other/1")), "not a Mino Dice score sheet"),
        (_tampered(lambda d: d.update(players="Ana")), "players must be a list"),
        (_tampered(lambda d: d.update(players=["Ana", "Ben"])), "not 2"),
        (_tampered(lambda d: d.update(scoring=3)), "scoring must be"),
        (_tampered(lambda d: d.update(hands={})), "hands must be a list"),
        (_tampered(lambda d: d["hands"][1][0].update(won=1)), "hand 2: the tricks add up to 1"),
        (_tampered(lambda d: d["hands"][2][1].update(bid="3")), "hand 3: Ben's bid must be a whole"),
        (_tampered(lambda d: d["hands"][2][0].update(mermaid=True, bid=2, won=2)), "hand 3: the tricks"),
        (_tampered(lambda d: d["hands"][2][0].update(mermaid=True)), None),
        (_tampered(lambda d: d["hands"][0][0].update(cheat=1)), "hand 1: line 1 has unknown fields: cheat"),
        (_tampered(lambda d: d["hands"][0][0].pop("won")), "hand 1: line 1 needs both"),
        (_tampered(lambda d: d["hands"][0].pop()), "hand 1: a hand must be a list of 3"),
        (_tampered(lambda d: d["hands"].__setitem__(0, "x")), "hand 1: a hand must be"),
        (_tampered(lambda d: d["hands"][0].__setitem__(1, 7)), "hand 1: line 2 must be an object"),
        (_tampered(lambda d: d["hands"].extend([d["hands"][0]] * 6)), "9 hands, but the game has only 8"),
    ],
)
def test_broken_or_tampered_json_is_refused(text: str | bytes, message: str | None) -> None:
    if message is None:  # a bonus the sheet allows: still loads
        assert ScoreSheet.from_json(text).hand_scores(3)[0] == 60 + 50
        return
    with pytest.raises(SheetError, match=message):
        ScoreSheet.from_json(text)


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
    assert "the tricks add up to 2 (Ana 1, Ben 1, Cy 0), but a hand of 1 die has exactly 1 trick" in out
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
    ("args", "setup", "code", "message"),
    [
        (["-p", "Ana", "-p", "Ben"], None, 2, "3 to 6 players, not 2"),
        ([], None, 2, "does not exist"),
        (["--new"], None, 2, "--new starts a new sheet"),
        (["-p", "A", "-p", "B", "-p", "C", "--csv", "x.csv"], None, 2, "leave out --players"),
        ([], "{broken", 1, "is not a usable score sheet: the score sheet is not valid JSON"),
        ([], '{"format": "minodice-sheet/1", "players": ["A", "B", "C"], "hands": [[{"bid": 1, "won": 2}]]}',
         1, "hand 1: a hand must be a list of 3"),
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
