"""`minodice bot-check`: the example bot passes; garbage and slow bots fail with their faults listed."""

from __future__ import annotations

import json
import shlex
import sys
import textwrap
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from minodice.cli.tournament import register
from minodice.tournament.botcheck import PLAN, BotCheckError, check_bot

ROOT = Path(__file__).resolve().parents[1]
PYTHON = shlex.quote(sys.executable)
SIMPLE = f"cmd:{PYTHON} {shlex.quote(str(ROOT / 'examples' / 'simple_bot.py'))}"

runner = CliRunner()
app = typer.Typer()


@app.callback()
def main() -> None:
    """The test's own app: only the commands `register` adds."""


register(app)


def bot(tmp_path: Path, name: str, body: str) -> str:
    """The spec of a bot program: `body` answers each message `msg` (helpers: send, good)."""
    script = tmp_path / f"{name}.py"
    script.write_text(
        textwrap.dedent('''
            import json, sys, time

            def send(obj):
                print(obj if isinstance(obj, str) else json.dumps(obj), flush=True)

            def good(msg):
                key = "bid" if msg["type"] == "bid" else "die"
                return {"id": msg["id"], key: msg["view"]["legal"][0]}

            for line in sys.stdin:
                msg = json.loads(line)
                if msg["type"] == "quit":
                    break
        ''')
        + textwrap.indent(textwrap.dedent(body), " " * 4)
    )
    return f"cmd:{PYTHON} {shlex.quote(str(script))}"


def check(*args: str):
    return runner.invoke(app, ["bot-check", *args])


def test_the_example_bot_passes():
    result = check(SIMPLE, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["verdict"] == "PASS" and report["reasons"] == []
    assert report["name"] == "simple" and report["author"] == "minodice examples"
    assert report["hello_name"] is True and report["hello"] == "named"
    assert report["starts"] == 1  # one process for every game
    assert report["faults"] == []
    assert len(report["games"]) == len(PLAN)
    assert {g["seats"] for g in report["games"]} >= {3, 4, 6}
    assert {g["rules"]["scoring"] for g in report["games"]} == {"standard", "landlubber"}
    assert {g["rules"]["hand_start"] for g in report["games"]} == {"rotate", "last_winner"}
    # The steered deals put the bot in the awkward positions.
    met = report["met"]
    for position in ("bid with one die (hand 1)", "a single legal die", "must follow the lead colour",
                     "must follow, with a choice", "leads a trick"):
        assert met[position] >= 1, position
    assert met["games in a row"] == len(PLAN)
    times = report["decision_ms"]
    # A skewed run (one slow reply) can put the mean above the 95th percentile,
    # so each is only bounded by the maximum.
    assert report["decisions"] > 0 and 0 < times["p95"] <= times["max"]
    assert 0 < times["mean"] <= times["max"]


def test_the_text_report_says_pass():
    result = check(SIMPLE, "--games", "2")
    assert result.exit_code == 0, result.output
    assert "PASS" in result.output and "hello: answered with a name" in result.output
    assert "decisions:" in result.output and "p95" in result.output


def test_a_garbage_bot_fails_with_its_faults(tmp_path):
    spec = bot(tmp_path, "garbage", '''
        if msg["type"] == "hello":
            send("hello yourself")
        elif msg["type"] in ("bid", "roll"):
            send({"id": msg["id"], "bid": 99, "die": "banana"} if msg["id"] % 2 else "{not json")
    ''')
    result = check(spec, "--json", "--games", "2")
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    assert report["verdict"] == "FAIL"
    assert report["hello_name"] is False and report["hello"] == "no name" and report["name"] == "garbage"
    kinds = {f["kind"] for f in report["faults"]}
    assert kinds == {"bad_answer", "illegal"}
    hello = report["faults"][0]
    assert (hello["game"], hello["kind"], hello["line"]) == (1, "bad_answer", "hello yourself")
    assert any(f["line"] == "{not json" and "not JSON" in f["message"] for f in report["faults"])
    assert any("banana" in f["line"] or "99" in f["line"] for f in report["faults"] if f["kind"] == "illegal")
    assert "faults (" in report["reasons"][0]
    text = check(spec, "--games", "1")
    assert text.exit_code == 1
    assert "FAIL" in text.output and "bad_answer" in text.output and "{not json" in text.output


def test_a_slow_bot_fails_on_time(tmp_path):
    spec = bot(tmp_path, "slow", '''
        if msg["type"] == "hello":
            send({"name": "slowpoke"})
        elif msg["type"] in ("bid", "roll"):
            time.sleep(1.0)
            send(good(msg))
    ''')
    result = check(spec, "--json", "--games", "2", "--timeout", "0.5")
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    assert report["verdict"] == "FAIL"
    assert [f["kind"] for f in report["faults"]] == ["timeout", "timeout"]  # once per game: then replaced
    assert "within 0.5 s" in report["faults"][0]["message"]
    assert report["starts"] == 2  # restarted for the second game
    assert any("started 2 times" in r for r in report["reasons"])


def test_a_program_that_dies_at_once_fails(tmp_path):
    script = tmp_path / "dead.py"
    script.write_text("import sys\nprint('no bot here', file=sys.stderr)\nsys.exit(3)\n")
    report = check_bot(f"cmd:{PYTHON} {shlex.quote(str(script))}", games=2, timeout=2)
    assert not report.passed and report.hello == "no answer"
    assert {f.kind for f in report.faults} == {"exited"}
    assert "exited with code 3" in report.faults[0].message and report.faults[0].stderr == ("no bot here",)


def test_timeouts_and_crashes_show_the_bots_last_stderr_lines(tmp_path):
    spec = bot(tmp_path, "sulky", '''
        if msg["type"] == "hello":
            send({"name": "sulky"})
        elif msg["type"] == "bid":
            print(f"thinking about {msg['id']}", file=sys.stderr, flush=True)
            time.sleep(30)
    ''')
    result = check(spec, "--games", "1", "--timeout", "0.5")
    assert result.exit_code == 1, result.output
    text = " ".join(result.output.split())
    assert "timeout: no answer to bid within 0.5 s: no reply at all (does it flush stdout after each line?)" in text
    assert "stderr| thinking about 1" in text
    report = json.loads(check(spec, "--games", "1", "--timeout", "0.5", "--json").stdout)
    assert report["faults"][0]["stderr"] == ["thinking about 1"]


def test_answers_with_a_wrong_id_are_named(tmp_path):
    spec = bot(tmp_path, "offbyone", '''
        if msg["type"] == "hello":
            send({"name": "offbyone"})
        elif msg["type"] in ("bid", "roll"):
            send(dict(good(msg), id=msg["id"] + 1))
    ''')
    result = check(spec, "--games", "1", "--timeout", "0.5")
    assert result.exit_code == 1, result.output
    text = " ".join(result.output.split())
    assert "no answer to bid within 0.5 s: 1 reply came with a wrong id (2) instead of 1" in text
    assert "it wrote nothing to stderr" in text


def test_a_builtin_bot_can_be_checked_too():
    report = check_bot("random", games=1)
    assert report.passed and report.hello == "n/a" and report.starts is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nosuchbot"], "unknown bot 'nosuchbot'"),
        (["cmd:no-such-program-xyz"], "the program 'no-such-program-xyz' was not found"),
        ([SIMPLE, "--games", "0"], "--games must be at least 1"),
        ([SIMPLE, "--timeout", "0"], "is not a number from 0.1 to 3600"),
    ],
)
def test_usage_errors(args, message):
    result = check(*args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr


def test_usage_error_without_a_spec():
    assert check().exit_code == 2


def test_check_bot_refuses_bad_arguments():
    with pytest.raises(BotCheckError, match="--games"):
        check_bot("random", games=0)
