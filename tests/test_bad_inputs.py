"""Every bad input the first-ten-minutes review found (issue 55) gets one line naming the fault, the documented
exit status, no traceback, and writes nothing; run as a person runs them, through the installed program."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minodice import record
from minodice.game import Game
from minodice.table.referee import RefereeError, parse_held, parse_roll
from minodice.table.sheet import ScoreSheet, SheetError

_BIN = Path(sys.executable).parent / "minodice"
CLI = [str(_BIN)] if _BIN.exists() else [sys.executable, "-m", "minodice"]
ENV = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100", "MINODICE_DELAY": "0"}
LONG = "9" * 5000


def run(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *argv], capture_output=True, text=True, timeout=180, cwd=cwd, env=ENV,
                          stdin=subprocess.DEVNULL, check=False)


def one_line(done: subprocess.CompletedProcess[str], command: str, status: int = 2) -> str:
    """The refusal's one line, checked: `minodice COMMAND: ...` on stderr, short, the status, no traceback."""
    assert done.returncode == status, (done.returncode, done.stderr[-2000:])
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr[-2000:]
    assert lines[0].startswith(f"minodice {command}: "), lines[0]
    assert len(lines[0]) < 400 and "Traceback" not in done.stderr and "sys.set_int_max_str_digits" not in done.stderr
    assert "recursion" not in done.stderr
    return lines[0]


def played(path: Path, hands: int | None = None, seed: int = 3) -> Path:
    """A game of three greedy-ish random players saved at `path`, cut to its first `hands` hands."""
    game = Game(3, seed=seed)
    rng = random.Random(seed)
    while not game.over:
        game.apply(rng.choice(list(game.legal_actions())))
    rec = record.from_game(game)
    if hands is not None:
        rec["hands"] = rec["hands"][:hands]
        for hand in rec["hands"]:
            hand.pop("scores", None)
        rec.pop("totals", None)
    record.save(rec, path)
    return path


@pytest.fixture
def here(tmp_path: Path) -> Path:
    """The folder a command runs in; each test checks it wrote nothing there it should not."""
    return tmp_path


def test_analyze_a_record_dealt_nothing_yet_answers(here: Path) -> None:
    fresh = record.from_game(Game(3, seed=1))
    record.save(fresh, here / "fresh.json")
    done = run("analyze", "fresh.json", cwd=here)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr


def test_analyze_refuses_a_judge_that_prunes_and_its_split_has_no_nan(here: Path) -> None:
    played(here / "game.json", hands=2)
    line = one_line(run("analyze", "game.json", "--bot", "neural+search", cwd=here), "analyze")
    assert "weighs only some of the choices" in line and "prior=0" in line
    done = run("analyze", "game.json", "--bot", "neural+search:prior=0,sims=16,bid_sims=16", "--seat", "1", cwd=here)
    assert done.returncode == 0, done.stderr
    assert "nan" not in done.stdout.lower()


@pytest.mark.parametrize(("name", "content", "words"), [
    ("dup.json", b'{"format": "minodice-sheet/1", "players": ["A", "B", "C"], "players": ["A", "B", "C"]}',
     'the key "players" appears twice'),
    ("bom.json", b'\xef\xbb\xbf{"format": "minodice-sheet/1", "players": ["A", "B", "C"]}', "byte-order mark"),
    ("nan.json", b'{"format": "minodice-sheet/1", "players": ["A", "B", "C"], "x": NaN}', "NaN is not a JSON value"),
    ("deep.json", b"[" * 50_000 + b"]" * 50_000, "nests deeper than 64 levels"),
    ("bigint.json", b'{"x": ' + LONG.encode() + b"}", "a number has 5000 digits"),
])
def test_sheet_reads_its_file_as_strictly_as_a_record(here: Path, name: str, content: bytes, words: str) -> None:
    (here / name).write_bytes(content)
    line = one_line(run("sheet", name, cwd=here), "sheet")
    assert words in line
    assert (here / name).read_bytes() == content  # refused, not rewritten


def test_sheet_reads_no_more_than_its_limit(here: Path) -> None:
    line = one_line(run("sheet", "/dev/zero", cwd=here), "sheet")
    assert "larger than 8 MB" in line


@pytest.mark.parametrize(("argv", "command", "words"), [
    (["trick", "red:5", "yellow:3", "gray:7", "--held", LONG + ":red"], "trick", "(5,000 characters), but the trick"),
    (["odds", "--seed", "-1"], "odds", "--seed"),
    (["odds", "-n", "1000000000000"], "odds", "at most 2,000,000 games"),
    (["advise", "red", "red", "--precision", "nan"], "advise", "'nan' is not a number of at least 0.05"),
    (["advise", "red", "red", "--seconds", "nan"], "advise", "'nan' is not a number from 0.01 to 600"),
    (["advise", "red", "red", "--seconds", "inf"], "advise", "'inf' is not a number"),
    (["play", "--seed", LONG], "play", "(5,000 characters)"),
    (["play", "--timeout", "nan"], "play", "'nan' is not a number"),
    (["play", "--bot", "z" * 5000, "--bot", "greedy"], "play", "(5,000 characters)"),
    (["tournament", "--seat", "z" * 5000, "--seat", "greedy", "--seat", "greedy"], "tournament", "(5,000 characters)"),
    (["tournament", "--seat", "greedy", "--seat", "greedy", "--seat", "greedy", "--timeout", "nan"], "tournament",
     "'nan' is not a number"),
    (["serve", "--turn-timeout", "nan"], "serve", "'nan' is not a number"),
    (["serve", "--trick-pause", "nan"], "serve", "'nan' is not a number"),
    (["serve", "--hand-pause", "-1"], "serve", "'-1' is not a number of at least 0"),
    (["serve", "--clock-scale", "0"], "serve", "'0' is not a number of at least 0.001"),
])
def test_numbers_and_long_arguments_are_refused_in_one_line_before_any_work(
        here: Path, argv: list[str], command: str, words: str) -> None:
    line = one_line(run(*argv, cwd=here), command)
    assert words in line
    assert line.count("characters)") <= 1 and len(line) < 400  # a long argument echoed once, cut
    assert not list(here.iterdir())  # nothing written


def test_a_record_nested_too_deep_is_one_line(here: Path) -> None:
    (here / "deep.json").write_bytes(b'{"format": "minodice/1", "x": ' + b"[" * 50_000 + b"]" * 50_000 + b"}")
    done = run("verify", "deep.json", cwd=here)
    assert done.returncode == 2 and "nests deeper than 64 levels" in done.stdout + done.stderr
    assert "Traceback" not in done.stderr and "recursion" not in done.stderr + done.stdout


def test_an_unknown_bot_in_a_record_is_named_once(here: Path) -> None:
    played(here / "game.json", hands=1)
    rec = json.loads((here / "game.json").read_text())
    rec["seats"][1]["bot"] = "z" * 5000
    rec["seats"][2]["bot"] = "greedy"
    (here / "game.json").write_text(json.dumps(rec))
    done = run("play", "--resume", "game.json", "--trust-bots", cwd=here)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.count("characters)") == 1 and len(done.stderr) < 600, done.stderr


# --- fuzzing what the table tools read -----------------------------------------------------------------

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner, max_size=6),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_any_roll_or_held_text_is_read_or_refused_in_words(text: str) -> None:
    for parse in (parse_roll, parse_held):
        try:
            parse(text)
        except RefereeError as exc:
            assert "\n" not in str(exc) and len(str(exc)) < 300


@settings(max_examples=300, deadline=None)
@given(st.fixed_dictionaries({"format": st.just("minodice-sheet/1")}, optional={
    "players": st.lists(st.text(max_size=6), max_size=7) | _JSON,
    "scoring": st.sampled_from(["standard", "landlubber"]) | _JSON,
    "hands": st.lists(st.lists(st.fixed_dictionaries(
        {"bid": st.integers(-1, 9) | _JSON, "won": st.integers(-1, 9) | _JSON}), max_size=4), max_size=9) | _JSON,
}))
def test_any_sheet_is_read_or_refused_with_a_code(data: dict) -> None:
    try:
        ScoreSheet.from_json(json.dumps(data))
    except SheetError as exc:
        assert exc.code and "\n" not in str(exc)
