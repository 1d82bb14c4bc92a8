"""One command-line style (issue 55): every refusal is one line `minodice COMMAND: what is wrong` on stderr with
the documented status (2 bad usage or input, 1 a fault found, 130 interrupted, with a line saying what was
saved), Click's usage errors included; `python -m minodice`; shell completion; a top-level help naming every
command in full; and lines printed for the user to run next that run as printed."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest
import typer
from typer.testing import CliRunner

from minodice import record
from minodice.cli import COMMAND_GROUPS, LazyCommands, app, build_app, top_level
from minodice.cli.group import Commands
from minodice.cli.play import runnable_here
from minodice.game import Game
from minodice.tui.runnable import Runnable

runner = CliRunner()
_BIN = Path(sys.executable).parent / "minodice"
CLI = [str(_BIN)] if _BIN.exists() else [sys.executable, "-m", "minodice"]
ENV = {**os.environ, "NO_COLOR": "1", "COLUMNS": "80", "MINODICE_DELAY": "0"}
for _name in ("MAKELEVEL", "MINODICE_MAKE"):  # as a user's shell, not as `make test`, runs the program
    ENV.pop(_name, None)


def run(*argv: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *argv], capture_output=True, text=True, timeout=120, cwd=cwd, env=env or ENV,
                          stdin=subprocess.DEVNULL, check=False)


def refusal(stderr: str, command: str | None) -> str:
    """The one line of stderr, checked to be a refusal of `command` (None: the top level)."""
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    prefix = f"minodice {command}: " if command else "minodice: "
    assert lines[0].startswith(prefix) and "Traceback" not in stderr and "Usage:" not in stderr, stderr
    return lines[0][len(prefix):]


def finished_record(path: Path, seed: int = 3) -> Path:
    game = Game(4, seed=seed)
    rng = random.Random(seed)
    while not game.over:
        game.apply(rng.choice(list(game.legal_actions())))
    record.save(record.from_game(game), path)
    return path


# --- Click's usage errors, in one line --------------------------------------------------------------


@pytest.mark.parametrize(("argv", "command", "words"), [
    (["verify"], "verify", "missing argument"),
    (["play", "--seed", "abc"], "play", "invalid value for '--seed': 'abc' is not a valid int"),
    (["play", "--nope"], "play", "no such option: --nope"),
    (["play", "--level", "nope"], "play", "invalid value for '--level'"),
    (["odds", "--players"], "odds", "--players"),
    (["nosuch"], None, "no such command 'nosuch'"),
    (["verifi"], None, "did you mean 'verify'?"),
    (["--nope"], None, "no such option: --nope"),
])
def test_click_usage_errors_are_one_line_with_status_2(argv: list[str], command: str | None, words: str) -> None:
    result = runner.invoke(app, argv)
    assert result.exit_code == 2, result.output
    said = refusal(result.stderr, command)
    assert words in said and said.endswith(f"; see minodice {command + ' ' if command else ''}--help"), said
    assert result.stdout == ""


def test_the_installed_command_says_them_in_one_line_too(tmp_path: Path) -> None:
    done = run("verify")
    assert done.returncode == 2 and "missing argument" in refusal(done.stderr, "verify")
    done = run("replay", str(tmp_path / "none.json"))
    assert done.returncode == 2 and "cannot read the file" in refusal(done.stderr, "replay")
    done = run("train", "--hidden", "9" * 5000)
    said = refusal(done.stderr, "train")
    assert done.returncode == 2 and len(said) < 250 and "(5,000 characters)" in said, said


def test_a_long_value_click_echoes_is_cut() -> None:
    result = runner.invoke(app, ["play", "--seat", "7" * 5000])
    said = refusal(result.stderr, "play")
    assert result.exit_code == 2 and "(5,000 characters)" in said and len(said) < 250, said


def test_a_file_click_cannot_open_is_one_line(tmp_path: Path) -> None:
    """Click's own file arguments (none of minodice's commands take one yet): the same line, status 2."""
    toy = typer.Typer(cls=Commands)

    @toy.command()
    def show(file: typer.FileText) -> None:
        typer.echo(file.read())

    @toy.command()
    def other() -> None:
        """A second command, so that Typer makes a group."""

    result = runner.invoke(toy, ["show", str(tmp_path / "none.txt")])
    assert result.exit_code == 2
    assert "none.txt" in refusal(result.stderr, "show")


@pytest.mark.parametrize(("setup", "words"), [
    ("{broken", "is not a usable score sheet"),
    ('{"format": "minodice-sheet/1", "players": ["A", "B", "C"], "hands": [[{"bid": 1, "won": 2}]]}',
     "a hand must be a list of 3"),
])
def test_sheet_answers_a_bad_file_as_the_others_do(tmp_path: Path, setup: str, words: str) -> None:
    path = tmp_path / "sheet.json"
    path.write_text(setup)
    result = runner.invoke(app, ["sheet", str(path)])
    assert result.exit_code == 2 and words in refusal(result.stderr, "sheet")
    junk = tmp_path / "junk.json"
    junk.write_text(setup)
    assert runner.invoke(app, ["replay", str(junk)]).exit_code == 2  # the same status for a bad file


def test_refusals_of_the_commands_themselves_name_the_command(tmp_path: Path) -> None:
    rec = finished_record(tmp_path / "game.json")
    for argv, command, status in (
        (["analyze", str(rec), "--seat", "Nobody"], "analyze", 2),
        (["explain", "--bot", "nope"], "explain", 2),
        (["train", "--updates", "1", "--minutes", "1"], "train", 2),
        (["trick", "red:6", "red:6", "red:6", "red:6", "red:6", "red:6", "red:6"], "trick", 2),
        (["serve", "--db", "mysql://x"], "serve", 2),
    ):
        result = runner.invoke(app, argv)
        if command == "serve" and "optional part" in result.stderr:
            continue  # the server is not installed here: that refusal is the command's too
        assert result.exit_code == status, (argv, result.output)
        refusal(result.stderr, command)


def test_a_missing_extra_is_the_command_s_refusal(monkeypatch: pytest.MonkeyPatch) -> None:
    from minodice.cli import options
    from minodice.extras import MissingExtra

    def missing(extra: str, *modules: str) -> None:
        raise MissingExtra(extra, modules[0])

    monkeypatch.setattr(options, "require", missing)
    result = runner.invoke(app, ["serve"])
    assert result.exit_code == 2
    assert refusal(result.stderr, "serve").endswith("pip install 'minodice[server]'")


# --- Ctrl-C ----------------------------------------------------------------------------------------------


def _wait_until_reading(pid: int, timeout: float = 30.0) -> None:
    """Wait until the process has sat in read() a while (past reading its own modules); a pause without /proc."""
    deadline, steady = time.monotonic() + timeout, 0
    while time.monotonic() < deadline and steady < 5:
        try:
            call = Path(f"/proc/{pid}/syscall").read_text().split()[0]
        except OSError:
            time.sleep(1.0)
            return
        steady = steady + 1 if call in ("0", "63") else 0  # read, on x86-64 and on arm64
        time.sleep(0.05)


def _interrupt(argv: list[str], wait_for: str | None = None, env: dict[str, str] | None = None) -> tuple[int, str]:
    """Start the real program in a terminal, wait (for `wait_for`, or until it reads), Ctrl-C: status, screen."""
    child = pexpect.spawn(CLI[0], [*CLI[1:], *argv], env=env or ENV, encoding="utf-8", timeout=60)
    try:
        if wait_for is not None:
            child.expect(wait_for)
            time.sleep(0.3)  # into the work
        else:
            _wait_until_reading(child.pid)
        child.sendintr()
        child.expect(pexpect.EOF)
        text = child.before
    finally:
        child.close(force=True)
    return child.exitstatus if child.exitstatus is not None else 128 + child.signalstatus, text


def test_ctrl_c_is_status_130_and_a_line_saying_nothing_was_saved() -> None:
    status, text = _interrupt(["verify", "/dev/stdin"])  # it waits, reading the terminal
    assert status == 130 and "minodice verify: interrupted; nothing was saved" in text, text
    assert "Traceback" not in text


def test_ctrl_c_in_analyze_says_how_far_it_got(tmp_path: Path) -> None:
    rec = finished_record(tmp_path / "game.json")
    env = {**ENV, "MINODICE_NO_NUMBA": "1", "TERM": "xterm"}  # no compile first: the judging starts at once
    status, text = _interrupt(["analyze", str(rec), "--bot", "montecarlo:sims=100000"], "judging the decisions", env)
    assert status == 130, text
    assert "minodice analyze: interrupted" in text and "nothing was saved" in text, text
    assert "Traceback" not in text


# --- python -m minodice, completion, the top-level help ---------------------------------------------------


def test_python_m_minodice_runs_the_command(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "minodice", "--version"], capture_output=True, text=True,
                          timeout=60, cwd=tmp_path, check=False)
    assert done.returncode == 0 and done.stdout.startswith("minodice "), done.stderr
    done = subprocess.run([sys.executable, "-m", "minodice", "verify"], capture_output=True, text=True,
                          timeout=60, cwd=tmp_path, check=False)
    assert done.returncode == 2 and "missing argument" in refusal(done.stderr, "verify")


def test_completion_is_shown_installed_and_answered(tmp_path: Path) -> None:
    shown = run("--show-completion", "bash")
    assert shown.returncode == 0, shown.stderr
    assert "_MINODICE_COMPLETE=complete_bash" in shown.stdout and "complete -o default -F" in shown.stdout
    home = tmp_path / "home"
    home.mkdir()
    installed = run("--install-completion", "bash", env={**ENV, "HOME": str(home)})
    assert installed.returncode == 0, installed.stderr
    assert (home / ".bash_completions" / "minodice.sh").exists() and "minodice.sh" in (home / ".bashrc").read_text()
    wrong = run("--install-completion", "nosh", env={**ENV, "HOME": str(home / "untouched")})
    assert wrong.returncode == 2 and "takes the name of a shell" in refusal(wrong.stderr, None)
    assert not (home / "untouched").exists()
    for words, cword, wanted in (("minodice ver", "1", "verify"), ("minodice play --se", "2", "--seed")):
        asked = run(env={**ENV, "_MINODICE_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": cword})
        assert asked.returncode == 0 and wanted in asked.stdout.split(), asked.stdout + asked.stderr


def test_the_top_level_help_names_every_command_with_its_whole_first_sentence() -> None:
    result = runner.invoke(app, ["--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "--install-completion" in result.stdout and "Exit status" in result.stdout
    text = " " + " ".join(result.stdout.split("Commands:")[1].split())
    assert "..." not in text
    for info in build_app().registered_commands:
        name = info.name or info.callback.__name__
        first = " ".join((info.callback.__doc__ or "").split("\n\n")[0].split())
        assert (f" {name} {first}" in text) != info.hidden, name
    assert isinstance(typer.main.get_command(top_level()), LazyCommands)


def test_the_quick_top_level_is_the_whole_app_s_help() -> None:
    """`main` answers `minodice --help` from the commands' registration (`LazyCommands`): the same text."""
    whole = runner.invoke(app, ["--help"], env={"COLUMNS": "100"})
    quick = runner.invoke(top_level(), ["--help"], env={"COLUMNS": "100"})
    assert quick.stdout == whole.stdout
    assert [name for names in COMMAND_GROUPS.values() for name in names if name != "warm"] == [
        line.split()[0] for line in whole.stdout.split("Commands:")[1].splitlines() if line.startswith("  ")
        and not line.startswith("   ")]


# --- lines printed for the user to run next ------------------------------------------------------------


def test_the_program_is_named_as_it_runs_from_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    script = bin_dir / "minodice"
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", [str(script), "play"])
    for name in ("MAKELEVEL", "MINODICE_MAKE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PATH", "/nonexistent")
    assert runnable_here() == Runnable(".venv/bin/minodice")  # not on the PATH: its path from here
    monkeypatch.setenv("PATH", str(bin_dir))
    assert runnable_here() == Runnable("minodice")  # on the PATH: its name
    monkeypatch.setenv("MAKELEVEL", "1")
    monkeypatch.setenv("MINODICE_MAKE", "play")
    here = runnable_here()
    assert here.play("--resume", "minodice-save-5.json") == 'make play ARGS="--resume minodice-save-5.json"'
    assert here.command("verify", "minodice-save-5.json") == "minodice verify minodice-save-5.json"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.setenv("PATH", "/nonexistent")
    assert runnable_here().program == str(script)  # not below here: the whole path


def test_the_printed_resume_line_runs_as_printed(tmp_path: Path) -> None:
    env = {**ENV, "PATH": "/usr/bin:/bin"}  # the program is not on the PATH: the line names its path
    first = run("play", "--bot", "random", "--bot", "random", "--seed", "5", cwd=tmp_path, env=env)
    assert first.returncode == 0, first.stderr
    line = next(ln for ln in first.stdout.splitlines() if ln.startswith("Resume it with: "))
    command = line.removeprefix("Resume it with: ")
    assert command.endswith("play --resume minodice-save-5.json") and not command.startswith("minodice ")
    again = subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=120, cwd=tmp_path,
                           env=env, stdin=subprocess.DEVNULL, check=False)
    assert again.returncode == 0 and "Resumed from" in again.stdout, again.stdout + again.stderr


def test_after_make_play_the_resume_line_is_make_s(tmp_path: Path) -> None:
    env = {**ENV, "MAKELEVEL": "1", "MINODICE_MAKE": "play"}  # what `make play` sets (the Makefile, make)
    done = run("play", "--bot", "random", "--bot", "random", "--seed", "6", cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    assert 'Resume it with: make play ARGS="--resume minodice-save-6.json"' in done.stdout, done.stdout
