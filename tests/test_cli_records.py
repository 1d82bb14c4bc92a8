"""`minodice verify` and `minodice replay` on record files."""

from __future__ import annotations

import copy
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from minodice import record
from minodice.cli import app
from minodice.game import Game
from shared_files import CONFORMANCE

runner = CliRunner()

HAND_TYPED = {
    "format": "minodice/1",
    "rules": {"scoring": "standard"},
    "seats": [{"name": "Ana"}, {"name": "Bo"}, {"name": "Cy"}],
    "hands": [
        {
            "start": 0,
            "dice": [["red"], ["griffin"], ["gray"]],
            "bids": [0, 1, 0],
            "tricks": [{"rolls": [{"seat": 0, "die": "red", "face": "6"},
                                  {"seat": 1, "die": "griffin", "face": "griffin"},
                                  {"seat": 2, "die": "gray", "face": "flag"}]}],
        },
        {
            "start": 1,
            "dice": [["mermaid", "purple"], ["red", "yellow"], ["minotaur", "yellow"]],
            "bids": [1, 0, 1],
            "tricks": [
                {"rolls": [{"seat": 1, "die": "yellow", "face": "4"},
                           {"seat": 2, "die": "minotaur", "face": "minotaur"},
                           {"seat": 0, "die": "mermaid", "face": "mermaid"}]},
                {"rolls": [{"seat": 0, "die": "purple", "face": "2"},
                           {"seat": 1, "die": "red", "face": "5"},
                           {"seat": 2, "die": "yellow", "face": "3"}]},
            ],
        },
    ],
}


def write(path: Path, data) -> Path:
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def game_record(seed: int, steps: int | None = None) -> dict:
    game = Game(4, seed=seed, names=["Ana", "Bo", "Cy", "Di"])
    rng = random.Random(seed)
    n = 0
    while not game.over and (steps is None or n < steps):
        game.apply(rng.choice(game.legal_actions()))
        n += 1
    return record.from_game(game)


def test_verify_valid(tmp_path):
    path = write(tmp_path / "game.json", game_record(1))
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 0
    assert result.stdout == f"{path}: ok\n"


def test_verify_a_hand_typed_record(tmp_path):
    path = write(tmp_path / "typed.json", HAND_TYPED)
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    assert result.stdout == f"{path}: ok\n"


def test_verify_names_the_fault(tmp_path):
    rec = game_record(2)
    rec["hands"][2]["bids"][1] = 7
    path = write(tmp_path / "bad.json", rec)
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 1
    assert result.stdout == f"{path}: hand 3: Bo (seat 1) bid 7, but bids in hand 3 go from 0 to 3\n"


@pytest.mark.parametrize(("content", "message"), [
    ("{not json", "not JSON"),
    ("[]", "not a minodice/1 record"),
    ('{"format": "minodice/0", "seats": []}', 'not a minodice/1 record: "format" is "minodice/0"'),
    ('{"seats": []}', 'not a minodice/1 record: it has no "format"'),
])
def test_verify_not_a_record_exits_2(tmp_path, content, message):
    path = write(tmp_path / "x.json", content)
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 2
    assert result.stdout.startswith(f"{path}: {message}")


def test_verify_unreadable_exits_2(tmp_path):
    missing = tmp_path / "missing.json"
    result = runner.invoke(app, ["verify", str(missing)])
    assert result.exit_code == 2
    assert result.stdout.startswith(f"{missing}: cannot read the file")


def test_verify_many_files_worst_status_wins(tmp_path):
    good = write(tmp_path / "a.json", game_record(3))
    bad_rec = game_record(4)
    bad_rec["totals"][0] += 10
    bad = write(tmp_path / "b.json", bad_rec)
    junk = write(tmp_path / "c.json", "nope")
    result = runner.invoke(app, ["verify", str(good), str(bad)])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == f"{good}: ok" and lines[1].startswith(f"{bad}: totals: Ana (seat 0) has")
    result = runner.invoke(app, ["verify", str(junk), str(bad), str(good)])
    assert result.exit_code == 2
    assert len(result.stdout.splitlines()) == 3  # every file is reported


def test_verify_without_files_is_a_usage_error():
    result = runner.invoke(app, ["verify"])
    assert result.exit_code == 2


def test_verify_the_conformance_set(tmp_path):
    valid = sorted((CONFORMANCE / "valid").glob("*.json"))
    invalid = sorted((CONFORMANCE / "invalid").glob("*.json"))
    result = runner.invoke(app, ["verify", *map(str, valid)])
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [f"{p}: ok" for p in valid]
    result = runner.invoke(app, ["verify", *map(str, invalid)])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert len(lines) == len(invalid)
    for path, line in zip(invalid, lines):
        assert line.startswith(f"{path}: ") and not line.endswith(": ok")


def test_verify_as_a_program(tmp_path):
    exe = Path(sys.executable).with_name("minodice")
    if not exe.exists():
        exe_str = shutil.which("minodice")
        if exe_str is None:
            pytest.skip("the minodice program is not installed")
        exe = Path(exe_str)
    good = write(tmp_path / "good.json", HAND_TYPED)
    broken = copy.deepcopy(HAND_TYPED)
    broken["hands"][1]["tricks"][1]["rolls"][2].update(die="red", face="5")
    bad = write(tmp_path / "bad.json", broken)
    done = subprocess.run([str(exe), "verify", str(good)], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, f"{good}: ok\n")
    done = subprocess.run([str(exe), "verify", str(bad)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stdout == f"{bad}: hand 2, trick 2: Cy (seat 2) rolled red but has no red die left in this hand\n"


# --- replay ---------------------------------------------------------------------------------


def test_replay_shows_the_score_sheet(tmp_path):
    rec = game_record(5)
    path = write(tmp_path / "game.json", rec)
    result = runner.invoke(app, ["replay", str(path)], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Score sheet" in out
    for name in ("Ana", "Bo", "Cy", "Di"):
        assert name in out
    for total in rec["totals"]:
        assert str(total) in out
    first = rec["hands"][0]
    cell = f"{first['bids'][0]}/{sum(1 for t in first['tricks'] if t['winner'] == 0)}  {first['scores'][0]:+d}"
    assert cell in out
    assert json.loads(path.read_text()) == rec  # replay alone does not write


def test_replay_of_a_game_in_progress(tmp_path):
    path = write(tmp_path / "game.json", game_record(6, steps=40))
    result = runner.invoke(app, ["replay", str(path)], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert "…" in result.stdout


def test_replay_write_fills_derived_fields(tmp_path):
    path = write(tmp_path / "typed.json", HAND_TYPED)
    result = runner.invoke(app, ["replay", "--write", str(path)], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    written = json.loads(path.read_text(encoding="utf-8"))
    assert written == record.fill(HAND_TYPED)
    assert record.check(written) is None
    assert written["hands"][0]["scores"] == [10, 20, 10]
    assert written["hands"][1]["scores"] == [70, -20, -10]  # Ana's mermaid took the minotaur: +50
    assert written["totals"] == [80, 0, 0]
    assert [t["winner"] for t in written["hands"][1]["tricks"]] == [0, 1]
    verify = runner.invoke(app, ["verify", str(path)])
    assert verify.exit_code == 0 and verify.stdout == f"{path}: ok\n"


def test_replay_json(tmp_path):
    path = write(tmp_path / "typed.json", HAND_TYPED)
    result = runner.invoke(app, ["replay", "--json", str(path)])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == record.fill(HAND_TYPED)


def test_replay_refuses_faulty_and_non_records(tmp_path):
    broken = copy.deepcopy(HAND_TYPED)
    broken["hands"][0]["start"] = 2
    broken["hands"][1]["start"] = 0
    path = write(tmp_path / "bad.json", broken)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert "hand 1, trick 1: led by Ana (seat 0), but Cy (seat 2) starts the hand" in result.stderr
    junk = write(tmp_path / "junk.json", "]")
    result = runner.invoke(app, ["replay", "--write", str(junk)])
    assert result.exit_code == 2 and "not JSON" in result.stderr
    assert junk.read_text() == "]"  # untouched
