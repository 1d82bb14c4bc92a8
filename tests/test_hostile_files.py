"""Hostile record files and arguments: every command answers in one line, never with a traceback.

A record file may come from anyone: deeply nested JSON, numbers of thousands of digits,
lone surrogates, duplicate keys, names holding newlines or terminal escapes. Each is a
one-line fault (exit 2: not a readable record, 1: an invalid one), the other files of a
`verify` are still checked, and no user-supplied string reaches the terminal raw.
"""

from __future__ import annotations

import io
import json
import os
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from minodice import record
from minodice.cli import app
from minodice.codes import printable, render
from minodice.game import Game
from minodice.tui import PlaySettings, run

runner = CliRunner()
_BIN = Path(sys.executable).parent / "minodice"
CLI = [str(_BIN)] if _BIN.exists() else [sys.executable, "-m", "minodice.cli"]
ENV = {**os.environ, "NO_COLOR": "1", "COLUMNS": "80", "PYTHONIOENCODING": "utf-8"}

#: A name that would forge a `verify` line, and one that would clear the screen and recolour it.
FORGER = "Ana\nfake.json: ok"
ESCAPER = "\x1b[2J\x1b[31mBo\u202e[/]"


def host_record(names: list[str] | None = None, seed: int = 1, moves: int = 0, bots: bool = False) -> dict:
    """The host record of a 3-seat game after `moves` legal moves (`bots`: seats 1 and 2 are bots)."""
    game = Game(3, seed=seed, names=names or ["Ana", "Bo", "Cy"])
    for _ in range(moves):
        game.apply(game.legal_actions()[0])
    info = [{}, {"bot": "random"}, {"bot": "random"}] if bots else None
    return record.from_game(game, seat_info=info)


def write(path: Path, data: object) -> Path:
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def prefix(field: str) -> str:
    """The JSON text of a record up to where `field` may hold anything."""
    return '{"format": "minodice/1", "seats": [{"name": "A"}, {"name": "B"}, {"name": "C"}], "' + field + '": '


#: Files no command may read, and the words each is refused with.
UNREADABLE = {
    "deep.json": (prefix("x") + "[" * 100_000 + "]" * 100_000 + "}", "nests deeper than 64 levels"),
    "deep_inside.json": (prefix("x") + "[" * 65 + "]" * 65 + "}", "nests deeper than 64 levels"),
    "big_int.json": (prefix("hands") + "1" * 5000 + "}", "a number has 5000 digits"),
    "surrogate.json": (prefix("x") + '"Ana\\ud800"}', "lone UTF-16 surrogate"),
    "duplicate.json": ('{"format": "minodice/1", "seats": [{"name": "A", "name": "B"}]}',
                       'the key "name" appears twice'),
    "nan.json": (prefix("totals") + "[NaN, 0, 0]}", "NaN is not a JSON value"),
}


@pytest.fixture
def hostile(tmp_path: Path) -> dict[str, Path]:
    return {name: write(tmp_path / name, text) for name, (text, _words) in UNREADABLE.items()}


def one_line(text: str) -> str:
    lines = text.splitlines()
    assert len(lines) == 1, text
    assert "Traceback" not in text
    return lines[0]


# --- every command that reads a record ------------------------------------------------------


@pytest.mark.parametrize("name", sorted(UNREADABLE))
@pytest.mark.parametrize("command", [["verify"], ["replay"], ["replay", "--write"], ["replay", "--json"],
                                     ["play", "--resume"]])
def test_unreadable_files_are_one_line_faults_with_exit_2(hostile, name, command):
    path = hostile[name]
    before = path.read_bytes()
    result = runner.invoke(app, [*command, str(path)])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    line = one_line(result.output)
    assert str(path) in line and UNREADABLE[name][1] in line
    assert path.read_bytes() == before  # --write wrote nothing


def test_verify_reports_every_file_in_a_real_run(tmp_path, hostile):
    """The installed command, on hostile files and a good one: one line each, in order, none raw."""
    good = write(tmp_path / "good.json", host_record())
    forged = host_record([FORGER, ESCAPER, "Cy"])
    forged["totals"] = [1, 0, 0]
    forger = write(tmp_path / "forger.json", forged)
    files = [*hostile.values(), forger, good]
    done = subprocess.run([*CLI, "verify", *map(str, files)], capture_output=True, text=True,
                          env=ENV, timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert [line.partition(": ")[0] for line in lines] == [str(p) for p in files]
    assert [line for line in lines if line.endswith(": ok")] == [f"{good}: ok"]
    assert lines[-2] == f"{forger}: totals: Ana\\nfake.json: ok (seat 0) has 0 in all, not 1"
    assert "\x1b" not in done.stdout and "\u202e" not in done.stdout


@pytest.mark.parametrize(("command", "status"), [
    (["verify"], 1), (["replay"], 1), (["replay", "--write"], 1),
    (["play", "--resume"], 2),  # play: a game that cannot be set up
])
def test_an_invalid_record_is_one_escaped_line(tmp_path, command, status):
    rec = host_record([FORGER, "Bo", "Cy"], bots=True)
    rec["totals"] = [1, 0, 0]
    path = write(tmp_path / "bad.json", rec)
    result = runner.invoke(app, [*command, str(path)])
    assert result.exit_code == status, result.output
    assert "totals: Ana\\nfake.json: ok (seat 0) has 0 in all, not 1" in one_line(result.output)


def test_a_file_name_cannot_forge_a_line_either(tmp_path):
    path = write(tmp_path / "x\nfake.json: ok\x1b[0m.json", host_record())
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 0
    assert one_line(result.stdout).endswith("x\\nfake.json: ok\\x1b[0m.json: ok")


def test_a_huge_file_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "huge.json"
    path.write_bytes(b" " * (record.MAX_BYTES + 1))
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 2
    assert "larger than" in one_line(result.stdout)


# --- names are shown escaped --------------------------------------------------------------


def test_replay_shows_hostile_names_escaped(tmp_path):
    path = write(tmp_path / "names.json", host_record([FORGER, ESCAPER, "[bold]Cy"], moves=8))
    result = runner.invoke(app, ["replay", "--write", str(path)])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "\x1b" not in out and "\u202e" not in out and "fake.json: ok" not in out.replace("\\nfake", "")
    assert "\\x1b[2J\\x1b[31mBo\\u202e[/]" in out and "[bold]Cy" in out
    assert record.load(path)["seats"][1]["name"] == ESCAPER  # the record keeps the names as they are


def test_replay_json_escapes_what_a_terminal_would_act_on(tmp_path):
    path = write(tmp_path / "names.json", host_record(["Zoë", ESCAPER, "Cy\x85"]))
    result = runner.invoke(app, ["replay", "--json", str(path)])
    assert result.exit_code == 0
    assert "\x1b" not in result.stdout and "\x85" not in result.stdout and "\u202e" not in result.stdout
    assert json.loads(result.stdout)["seats"][1]["name"] == ESCAPER
    plain = runner.invoke(app, ["replay", "--json", str(write(tmp_path / "zoe.json", host_record(["Zoë", "B", "C"])))])
    assert '"Zoë"' in plain.stdout  # ordinary names stay readable


def test_replay_write_that_cannot_write_is_one_line(tmp_path):
    path = write(tmp_path / "game.json", host_record())
    (tmp_path / "game.json.tmp").mkdir()  # where the atomic save would write
    result = runner.invoke(app, ["replay", "--write", str(path)])
    assert result.exit_code == 2
    assert "cannot write the file" in one_line(result.output)


def test_a_resumed_game_shows_hostile_names_escaped(tmp_path):
    path = write(tmp_path / "save.json", host_record(["Me", ESCAPER, FORGER], moves=2, bots=True))
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None, highlight=False)

    def leave(prompt: str) -> str:
        raise EOFError

    assert run(PlaySettings(bots=[], resume=path), console=console, ask=leave) == 0
    text = out.getvalue()
    assert "\\x1b[2J\\x1b[31mBo\\u202e[/]" in text and "Ana\\nfake.json: ok" in text
    assert "\x1b" not in text and "\u202e" not in text
    assert [s["name"] for s in record.load(path)["seats"]] == ["Me", ESCAPER, FORGER]


def test_a_bad_resume_is_one_line_whatever_its_width(tmp_path):
    path = write(tmp_path / ("long" * 30 + "\n.json"), UNREADABLE["deep.json"][0])
    out = io.StringIO()
    console = Console(file=out, width=40, color_system=None, highlight=False)
    assert run(PlaySettings(bots=[], resume=path), console=console) == 2
    assert "\\n.json: not a minodice/1 record" in one_line(out.getvalue())


def test_bot_check_shows_a_hostile_bot_name_and_stderr_escaped(tmp_path):
    script = tmp_path / "bot.py"
    script.write_text(textwrap.dedent('''
        import json, sys
        for line in sys.stdin:
            msg = json.loads(line)
            if msg["type"] == "hello":
                print(json.dumps({"name": "\\x1b[2JPASS\\u202e", "author": "[/]\\x07"}), flush=True)
            else:
                print("\\x1b[31mFAKE\\x1b[0m", file=sys.stderr, flush=True)
                sys.exit(3)
    '''))
    spec = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(script))}"
    result = runner.invoke(app, ["bot-check", spec, "--games", "1", "--timeout", "5"])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert "\x1b" not in result.output and "\u202e" not in result.output and "\x07" not in result.output
    assert "\\x1b[2JPASS\\u202e" in result.output and "[/]\\x07" in result.output
    assert "\\x1b[31mFAKE" in result.output


def test_tournament_report_shows_hostile_entrants_escaped(tmp_path):
    bot = tmp_path / "x\x1b[31m[bold]bot.py"
    bot.write_text((Path(__file__).parents[1] / "examples" / "simple_bot.py").read_text())
    spec = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(bot))}"
    result = runner.invoke(app, ["tournament", "--seat", spec, "--seat", "random", "--seat", "random",
                                 "--games", "3", "--seed", "1", "--quiet"])
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output
    assert "x\\x1b[31m[bold]bot" in result.output


def test_explain_shows_a_record_s_names_escaped(tmp_path):
    path = write(tmp_path / "game.json", host_record([FORGER, "Bo", "Cy"], moves=3))
    result = runner.invoke(app, ["explain", "--record", str(path), "--hand", "1", "--trick", "1"])
    assert result.exit_code == 0, result.output
    assert "Ana\\nfake.json: ok" in result.output and "\nfake.json: ok" not in result.output


# --- the one escape function --------------------------------------------------------------


@pytest.mark.parametrize(("raw", "shown"), [
    ("Ana", "Ana"),
    ("Zoë 日本 👨\u200d👩\u200d👧", "Zoë 日本 👨\u200d👩\u200d👧"),  # text, joiners included, stays
    ("a\nb\tc\rd", "a\\nb\\tc\\rd"),
    ("\x1b[31m\x07\x00\x7f\x85\x9b", "\\x1b[31m\\x07\\x00\\x7f\\x85\\x9b"),
    ("\u2028\u2029", "\\u2028\\u2029"),
    ("\u202eevil\u2066\u200f", "\\u202eevil\\u2066\\u200f"),
    ("half \ud800 \udfff", "half \\ud800 \\udfff"),
    ("C:\\new", "C:\\new"),  # backslashes are left alone
])
def test_printable_escapes_what_a_terminal_acts_on(raw, shown):
    assert printable(raw) == shown
    assert printable(shown) == shown  # twice changes nothing
    shown.encode("utf-8")  # always printable as UTF-8


def test_render_escapes_string_parameters():
    assert render("player_not_playing", {"name": FORGER, "players": "Bo"}) == (
        "Ana\\nfake.json: ok is not playing: the players are Bo")


def test_a_resumed_file_starts_no_program_unless_trusted(tmp_path):
    """A save file can name any program as a `cmd:` bot: resuming it runs nothing without --trust-bots."""
    marker = tmp_path / "ran"
    code = "open(" + repr(str(marker)) + ", 'w')"
    program = f"cmd:{shlex.quote(sys.executable)} -c {shlex.quote(code)}"
    rec = host_record(["Me", "Bo", "Cy"], moves=1, bots=True)
    rec["seats"][1]["bot"] = program
    path = write(tmp_path / "save.json", rec)
    out = io.StringIO()
    console = Console(file=out, width=300, color_system=None, highlight=False)
    assert run(PlaySettings(bots=[], resume=path), console=console) == 2
    assert "runs only with --trust-bots" in out.getvalue() and "for seat 1" in out.getvalue()
    assert not marker.exists()

    def leave(prompt: str) -> str:
        raise EOFError

    run(PlaySettings(bots=[], resume=path, trust_bots=True), console=console, ask=leave)
    assert marker.exists()  # trusted: the program was started (it is no bot, so the game stops on its fault)
