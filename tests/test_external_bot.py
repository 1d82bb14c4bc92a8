"""External bots over `minodice-bot/1`: the example bot plays, misbehaving programs are contained."""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
import textwrap
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from minodice.bots import make_bot
from minodice.bots.base import Bot
from minodice.bots.external import ExternalBot
from minodice.bots.runner import Fault, Match
from minodice.game import Game

ROOT = Path(__file__).resolve().parents[1]
SIMPLE = ROOT / "examples" / "simple_bot.py"
PYTHON = shlex.quote(sys.executable)

# A bot skeleton: BEHAVIOUR runs for every question (`msg`, `questions` = 1, 2, …).
TEMPLATE = '''
import json, os, sys, time

def send(obj):
    sys.stdout.write(json.dumps(obj) + "\\n")
    sys.stdout.flush()

def good(msg):
    key = "bid" if msg["type"] == "bid" else "die"
    return {"id": msg["id"], key: msg["view"]["legal"][0]}

questions = 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        send({"name": "tester"})
    elif msg["type"] in ("bid", "roll"):
        questions += 1
BEHAVIOUR
    elif msg["type"] == "quit":
        break
'''


@pytest.fixture
def external(tmp_path: Path) -> Iterator[Callable[..., ExternalBot]]:
    """Make ExternalBots (from a BEHAVIOUR snippet or a command); all are closed afterwards."""
    made: list[ExternalBot] = []

    def make(
        behaviour: str | None = None, *, command: str | None = None, timeout: float = 5.0, keep_log: bool = True
    ) -> ExternalBot:
        if command is None:
            script = tmp_path / f"bot{len(made)}.py"
            body = textwrap.indent(textwrap.dedent(behaviour or "send(good(msg))"), " " * 8)
            script.write_text(TEMPLATE.replace("BEHAVIOUR", body))
            command = f"{PYTHON} {shlex.quote(str(script))}"
        bot = ExternalBot(command, timeout=timeout, log_dir=tmp_path / "logs", keep_log=keep_log)
        made.append(bot)
        return bot

    yield make
    for bot in made:
        bot.close()


def play(bot: Bot, *, seat: int = 1, seats: int = 4, seed: object = 1) -> tuple[Game, list[Fault], Match]:
    """One whole game: `bot` in `seat`, built-in bots elsewhere."""
    faults: list[Fault] = []
    game = Game(seats, seed=seed)
    bots = {s: make_bot("greedy" if s % 2 else "random", seed=f"{seed}:{s}") for s in range(seats)}
    bots[seat] = bot
    match = Match(game, bots, on_fault=faults.append)
    match.play()
    return game, faults, match


def simple_command() -> str:
    return f"{PYTHON} {shlex.quote(str(SIMPLE))}"


# --- the example bot -------------------------------------------------------------------


def test_simple_bot_plays_whole_games(external: Callable[..., ExternalBot]) -> None:
    one, two = external(command=simple_command()), external(command=simple_command())
    assert one.name == "simple_bot"  # the program's name until it says its own
    for seed in range(3):
        game, faults, match = play(one, seat=0, seed=seed)
        assert game.over and faults == [] and not match.replaced
    assert one.name == "simple" and one.author == "minodice examples"
    assert one.starts == 1  # one program for all three games
    game, faults, _ = play(two, seat=2, seats=6, seed="six")
    assert game.over and faults == []
    assert two.describe() == "cmd:" + simple_command()
    made = make_bot(two.describe(), timeout=3)
    assert isinstance(made, ExternalBot) and made.timeout == 3 and made.command == simple_command()


def test_simple_bot_beats_random(external: Callable[..., ExternalBot]) -> None:
    bot = external(command=simple_command())
    lead = 0.0
    for seed in range(6):
        faults: list[Fault] = []
        game = Game(3, seed=f"sb{seed}")
        bots = {0: bot, 1: make_bot("random", seed=seed), 2: make_bot("random", seed=seed + 50)}
        Match(game, bots, on_fault=faults.append).play()
        assert not faults
        lead += game.totals[0] - (game.totals[1] + game.totals[2]) / 2
    assert lead / 6 > 0


def test_program_name_from_command() -> None:
    assert ExternalBot("python3 examples/simple_bot.py").name == "simple_bot"
    assert ExternalBot("/usr/local/bin/mybot --fast").name == "mybot"
    assert ExternalBot("python3.12 -u -m bots.clever").name == "clever"
    assert ExternalBot("node run.js").name == "run"
    with pytest.raises(ValueError):
        ExternalBot("   ")


# --- faults --------------------------------------------------------------------------------


def test_garbage_is_a_bad_answer_and_the_game_goes_on(external: Callable[..., ExternalBot]) -> None:
    bot = external(
        """
        if questions == 2:
            print("this is not json", flush=True)
        else:
            send(good(msg))
        """
    )
    game, faults, match = play(bot)
    assert game.over
    assert [(f.kind, f.line, f.seat, f.bot) for f in faults] == [
        ("bad_answer", "this is not json", 1, "tester")
    ]
    assert not match.replaced  # a bad answer is not fatal: the bot played on
    assert match.stats[1].decisions == game.hands + sum(range(1, game.hands + 1))


def test_malformed_answers_are_bad_answers(external: Callable[..., ExternalBot]) -> None:
    bot = external(
        """
        bad = [
            "[1, 2]",
            json.dumps({"bid": 1}),
            json.dumps({"id": str(msg["id"]), "bid": 1}),
            json.dumps({"id": msg["id"]}),
            json.dumps({"id": msg["id"], "bid": True}),
            json.dumps({"id": msg["id"], "bid": 1.5}),
            json.dumps({"id": msg["id"], "die": 3, "bid": "1"}),
            "{" + "x" * 70000,
        ]
        if questions <= len(bad):
            print(bad[questions - 1], flush=True)
        else:
            send(good(msg))
        """
    )
    game, faults, match = play(bot)
    assert game.over and not match.replaced
    assert [f.kind for f in faults] == ["bad_answer"] * 8
    assert faults[0].line == "[1, 2]"
    assert "longer than" in faults[-1].detail and len(faults[-1].line or "") <= 200


def test_endless_line_is_refused_at_once(external: Callable[..., ExternalBot]) -> None:
    bot = external(
        """
        sys.stdout.write("x" * 200_000)  # and no end of line, ever
        sys.stdout.flush()
        time.sleep(60)
        """,
        timeout=1,
    )
    game, faults, match = play(bot)
    assert game.over and match.replaced == {1}
    # Refused as soon as it is too long (not a timeout); the next question then times out.
    assert [f.kind for f in faults] == ["bad_answer", "timeout"]
    assert faults[0].line == "x" * 200


def test_illegal_answers(external: Callable[..., ExternalBot]) -> None:
    bot = external(
        """
        v = msg["view"]
        if msg["type"] == "bid" and questions == 1:
            send({"id": msg["id"], "bid": len(v["legal"]) + 3})
        elif msg["type"] == "roll" and not os.environ.get("DONE_ROLL"):
            os.environ["DONE_ROLL"] = "1"
            names = ["minotaur", "griffin", "mermaid", "red", "yellow", "purple", "gray"]
            send({"id": msg["id"], "die": next((d for d in names if d not in v["legal"]), "blue")})
        else:
            send(good(msg))
        """
    )
    game, faults, match = play(bot)
    assert game.over and not match.replaced
    assert [f.kind for f in faults] == ["illegal", "illegal"]
    assert '"bid":' in (faults[0].line or "") and "bids go from 0 to 1" in faults[0].detail
    assert '"die":' in (faults[1].line or "")


def test_a_roll_the_colour_rule_bars_is_refused_with_the_rules_reason(external: Callable[..., ExternalBot]) -> None:
    bot = external(
        """
        v = msg["view"]
        barred = [d for d in v["dice"] if msg["type"] == "roll" and d not in v["legal"]]
        if barred and not os.environ.get("DONE_ROLL"):
            os.environ["DONE_ROLL"] = "1"
            send({"id": msg["id"], "die": barred[0]})
        else:
            send(good(msg))
        """
    )
    game, faults, match = play(bot)
    assert game.over and not match.replaced
    assert [f.kind for f in faults] == ["illegal"]
    detail = faults[0].detail
    assert "is not a die this seat may roll now (you must roll " in detail
    assert "or a special die: you hold " in detail and " was led): legal are " in detail


def test_timeout_replaces_the_bot_for_the_game(external: Callable[..., ExternalBot], tmp_path: Path) -> None:
    mark = tmp_path / "slept"
    bot = external(
        f"""
        if questions == 3 and not os.path.exists({str(mark)!r}):
            open({str(mark)!r}, "w").close()
            time.sleep(60)
        send(good(msg))
        """,
        timeout=0.5,
    )
    began = time.monotonic()
    game, faults, match = play(bot)
    assert time.monotonic() - began < 30  # the sleeper did not hold the host
    assert game.over
    assert [f.kind for f in faults] == ["timeout"]
    assert "0.5 s" in faults[0].detail
    assert match.replaced == {1}
    assert match.stats[1].decisions == 3  # not asked again after the timeout
    # The next game starts the program afresh, and it plays.
    game, faults, match = play(bot, seed=2)
    assert game.over and faults == [] and not match.replaced
    assert bot.starts == 2


def test_silent_program_times_out_at_hello(external: Callable[..., ExternalBot]) -> None:
    bot = external(command=f"{PYTHON} -c 'import time; time.sleep(60)'", timeout=0.5)
    game, faults, match = play(bot)
    assert game.over
    assert [f.kind for f in faults] == ["timeout"]
    assert "hello" in faults[0].detail and match.replaced == {1}


def test_exit_mid_game_then_restart(external: Callable[..., ExternalBot], tmp_path: Path) -> None:
    mark = tmp_path / "crashed"
    bot = external(
        f"""
        if questions == 4 and not os.path.exists({str(mark)!r}):
            open({str(mark)!r}, "w").close()
            sys.stderr.write("thinking hard\\nboom: out of ideas\\n")
            sys.exit(3)
        send(good(msg))
        """
    )
    game, faults, match = play(bot)
    assert game.over
    assert [f.kind for f in faults] == ["exited"]
    assert "code 3" in faults[0].detail and faults[0].stderr == ("thinking hard", "boom: out of ideas")
    assert match.replaced == {1}
    assert bot.stderr_tail == ["thinking hard", "boom: out of ideas"]
    game, faults, match = play(bot, seed=2)  # same ExternalBot object: restarted
    assert game.over and faults == [] and not match.replaced
    assert bot.starts == 2


def test_closed_output_is_an_exit(external: Callable[..., ExternalBot]) -> None:
    bot = external(
        """
        if questions == 2:
            os.close(1)
            time.sleep(60)
        send(good(msg))
        """
    )
    game, faults, match = play(bot)
    assert game.over
    assert [f.kind for f in faults] == ["exited"]
    assert "closed its output" in faults[0].detail
    assert match.replaced == {1}


def test_missing_program_is_an_exit(external: Callable[..., ExternalBot], tmp_path: Path) -> None:
    bot = external(command=str(tmp_path / "no-such-bot"))
    game, faults, match = play(bot)
    assert game.over
    assert [f.kind for f in faults] == ["exited"] and match.replaced == {1}


def test_stale_answers_are_ignored(external: Callable[..., ExternalBot]) -> None:
    bot = external(
        """
        send({"id": msg["id"] - 1, "bid": 99, "die": "blue"})
        send({"id": msg["id"] + 1000, "bid": 99, "die": "blue"})
        send(good(msg))
        send(good(msg))  # a duplicate: stale by the next question
        """
    )
    game, faults, match = play(bot)
    assert game.over and faults == [] and not match.replaced


def test_stderr_stays_off_the_host(external: Callable[..., ExternalBot], capfd: pytest.CaptureFixture[str]) -> None:
    bot = external(
        """
        sys.stderr.write("bot debug noise\\n")
        sys.stderr.flush()
        send(good(msg))
        """
    )
    game, faults, _ = play(bot)
    assert game.over and faults == []
    out, err = capfd.readouterr()
    assert "bot debug noise" not in out + err
    assert "bot debug noise" in bot.stderr_tail[-1]
    assert len(bot.stderr_tail) <= 20


def test_close_ends_the_program(external: Callable[..., ExternalBot], tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    bot = external(
        f"""
        open({str(pid_file)!r}, "w").write(str(os.getpid()))
        send(good(msg))
        """
    )
    play(bot)
    pid = int(pid_file.read_text())
    bot.close()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


# --- hidden information --------------------------------------------------------------------

VIEW_KEYS = {
    "seat", "seats", "names", "hand", "hands", "start", "rules", "dice", "bid_placed",
    "bids", "won", "totals", "tricks", "leader",
}


LOGGING_BOT = """
import json, sys
log = open(sys.argv[1], "a")
for line in sys.stdin:
    log.write(line)
    log.flush()
    msg = json.loads(line)
    if msg["type"] == "hello":
        print(json.dumps({"name": "logger"}), flush=True)
    elif msg["type"] == "bid":
        print(json.dumps({"id": msg["id"], "bid": msg["view"]["legal"][-1]}), flush=True)
    elif msg["type"] == "roll":
        print(json.dumps({"id": msg["id"], "die": msg["view"]["legal"][-1]}), flush=True)
"""


def test_the_bot_sees_only_its_own_seat(external: Callable[..., ExternalBot], tmp_path: Path) -> None:
    """Everything the host sends: own dice only, no bid before all are in, ids growing."""
    log = tmp_path / "stdin.log"
    script = tmp_path / "logger.py"
    script.write_text(LOGGING_BOT)
    bot = external(command=f"{PYTHON} {shlex.quote(str(script))} {shlex.quote(str(log))}")
    seat = 2
    game, faults, _ = play(bot, seat=seat, seats=5, seed="hidden")
    assert faults == []
    bot.close()  # the program has read everything once it is gone
    messages = [json.loads(line) for line in log.read_text().splitlines()]
    kinds = [m["type"] for m in messages]
    assert kinds[:2] == ["hello", "game"] and kinds[-2:] == ["result", "quit"]
    assert messages[0] == {"type": "hello", "protocol": "minodice-bot/1"}
    assert kinds.count("bid") == game.hands
    assert kinds.count("roll") == sum(range(1, game.hands + 1))
    questions = [m for m in messages if m["type"] in ("bid", "roll")]
    ids = [m["id"] for m in questions]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)

    setup, final = messages[1]["view"], messages[-2]["view"]
    assert setup["dice"] == [] and setup["hand"] == 0 and "legal" not in setup
    assert final["dice"] == [] and final["totals"] == game.totals and "legal" not in final

    for m in questions:
        v = m["view"]
        assert set(v) == VIEW_KEYS | {"legal"}, set(v) ^ VIEW_KEYS
        assert v["seat"] == seat
        host = game.log[v["hand"] - 1]
        rolled_by_seat = Counter(r["die"] for t in v["tricks"] for r in t["rolls"] if r["seat"] == seat)
        own_left = Counter(d.value for d in host.dice[seat]) - rolled_by_seat
        assert Counter(v["dice"]) == own_left  # its own unrolled dice, and no one else's
        # Tricks are the host's so far: public rolls, the winner once a trick is complete.
        for seen, real in zip(v["tricks"], host.tricks):
            rolls = [{"seat": s, "die": d.value, "face": f.value} for s, d, f in real.rolls]
            assert seen["rolls"] == rolls[: len(seen["rolls"])]
            assert seen["winner"] == (real.winner if len(seen["rolls"]) == game.seats else None)
        # No die name anywhere else in the view.
        rest = json.dumps({k: v[k] for k in VIEW_KEYS - {"dice", "tricks", "rules"}})
        assert not any(d in rest for d in ("minotaur", "griffin", "mermaid", "red", "yellow", "purple", "gray"))
        if m["type"] == "bid":
            assert v["bids"] == [None] * game.seats
            assert v["legal"] == list(range(v["hand"] + 1))
        else:
            assert v["bids"] == host.bids
            assert set(v["legal"]) <= set(v["dice"])
    # Its answers were the ones played (legal[-1] each time, never the fallback legal[0]).
    assert game.log[-1].bids[seat] == game.hands


# --- stderr logs and the reasons of timeouts ---------------------------------------------------

CRASH_AT_4 = """
if questions == 4:
    sys.stderr.write("my dice: red yellow\\x1b[31m\\nboom: out of ideas\\n")
    sys.exit(3)
send(good(msg))
"""


def test_a_crash_keeps_stderr_in_a_log_file_named_in_the_message(external: Callable[..., ExternalBot]) -> None:
    """The message may be shown on a person's game screen: it names the log, never the stderr itself."""
    bot = external(CRASH_AT_4)
    _game, faults, _match = play(bot)
    assert [f.kind for f in faults] == ["exited"]
    log = bot.log_path
    assert log is not None and log.parent == bot.log_dir and "seat1" in log.name
    assert faults[0].detail == f"the program exited with code 3; its stderr is in {log}"
    assert "my dice" not in str(faults[0]) and "my dice" not in faults[0].report(lines=0)
    assert log.read_bytes() == b"my dice: red yellow\x1b[31m\nboom: out of ideas\n"
    # The lines travel with the fault (control characters escaped) for tournaments and bot-check.
    assert faults[0].stderr == ("my dice: red yellow\\x1b[31m", "boom: out of ideas")
    assert faults[0].report().splitlines()[1:] == ["  stderr| my dice: red yellow\\x1b[31m", "  stderr| boom: out of ideas"]
    # One log per game: the next game's crash goes to a new file.
    _game, faults, _match = play(bot, seed=2)
    assert bot.log_path not in (None, log) and f"its stderr is in {bot.log_path}" in faults[0].detail
    assert sorted(bot.log_dir.iterdir()) == sorted([log, bot.log_path])


def test_a_quiet_program_leaves_no_log_and_keep_log_false_none_at_all(external: Callable[..., ExternalBot]) -> None:
    quiet = external("send(good(msg))")
    game, faults, _ = play(quiet)
    assert game.over and faults == [] and quiet.log_path is None and not quiet.log_dir.exists()
    silent_crash = external("sys.exit(4)")
    _game, faults, _ = play(silent_crash)
    assert faults[0].detail == "the program exited with code 4; it wrote nothing to stderr"
    unlogged = external(CRASH_AT_4, keep_log=False)
    _game, faults, _ = play(unlogged)
    assert faults[0].detail == "the program exited with code 3" and faults[0].stderr[-1] == "boom: out of ideas"
    assert unlogged.log_path is None and not unlogged.log_dir.exists()


def test_default_log_dir_is_the_users_state_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from minodice.bots.external import default_log_dir

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert default_log_dir() == tmp_path / "minodice" / "bot-logs"
    assert ExternalBot("python3 bot.py").log_dir == tmp_path / "minodice" / "bot-logs"
    monkeypatch.delenv("XDG_STATE_HOME")
    assert default_log_dir() == Path.home() / ".local" / "state" / "minodice" / "bot-logs"


def test_a_timeout_with_no_reply_asks_about_flushing(external: Callable[..., ExternalBot]) -> None:
    bot = external(
        """
        sys.stderr.write(f"thinking about question {questions}\\n")
        sys.stderr.flush()
        if questions == 2:  # as if its answer sat in an unflushed buffer
            time.sleep(60)
        send(good(msg))
        """,
        timeout=0.5,
    )
    _game, faults, _ = play(bot)
    assert [f.kind for f in faults] == ["timeout"]
    assert faults[0].detail.startswith(
        "no answer to roll within 0.5 s: no reply at all (does it flush stdout after each line?); its stderr is in "
    )
    assert faults[0].stderr[-1] == "thinking about question 2"


def test_a_timeout_names_the_wrong_ids_that_came(external: Callable[..., ExternalBot]) -> None:
    bot = external(
        """
        if questions == 3:
            send({"id": msg["id"] + 100, "bid": 0, "die": "red"})
            send({"id": msg["id"] - 1, "bid": 0, "die": "red"})
        else:
            send(good(msg))
        """,
        timeout=0.5,
    )
    _game, faults, _ = play(bot)
    assert [f.kind for f in faults] == ["timeout"]
    assert re.search(r"within 0\.5 s: 2 replies came with a wrong id \((\d+), (\d+)\) instead of (\d+);", faults[0].detail)
    ids = [int(x) for x in re.findall(r"\d+", faults[0].detail.split("wrong id")[1].split(";")[0])]
    assert ids == [ids[2] + 100, ids[2] - 1, ids[2]]


def test_the_terminal_game_keeps_a_crashing_bots_stderr_off_the_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its stderr may hold its dice: the player sees only the log file's name."""
    import io

    from rich.console import Console

    from minodice.tui import PlaySettings, run

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.chdir(tmp_path)
    script = tmp_path / "leaky.py"
    script.write_text(TEMPLATE.replace("BEHAVIOUR", textwrap.indent(textwrap.dedent('''
        sys.stderr.write(f"SECRET dice {msg['view']['dice']}\\n")
        sys.stderr.flush()
        if questions == 3:
            sys.exit(3)
        send(good(msg))
    '''), " " * 8)))
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None, highlight=False)
    prompts = iter(range(8))

    def ask(prompt: str) -> str:
        if next(prompts, None) is None:
            return "quit"
        return "1" if "roll" in prompt else "0"

    settings = PlaySettings(bots=[f"cmd:{PYTHON} {shlex.quote(str(script))}", "random"], seed=3)
    assert run(settings, console=console, ask=ask) == 0
    screen = out.getvalue()
    logs = list((tmp_path / "state" / "minodice" / "bot-logs").iterdir())
    assert len(logs) == 1 and "SECRET dice" in logs[0].read_text()
    assert "SECRET" not in screen
    # How the crash is worded depends on what the game saw first (its exit code, or its output
    # closing while it shut down on a busy machine); the screen must name the log either way.
    # (The console wraps a long log path onto the next line: compare with the lines joined.)
    flat = " ".join(screen.split())
    assert re.search(rf"the program (exited with code 3|closed its output); its stderr is in {re.escape(str(logs[0]))}", flat), screen


def test_a_stderr_log_is_made_at_the_first_byte_and_capped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from minodice.bots import external as ext

    monkeypatch.setattr(ext, "MAX_LOG_BYTES", 10)
    (tmp_path / "x.log").write_text("taken")
    log = ext.StderrLog(tmp_path / "x.log")
    assert not log.written and sorted(p.name for p in tmp_path.iterdir()) == ["x.log"]
    log.write(b"0123456\n")
    log.close()  # a later write appends to the same file
    log.write(b"789abc\n")
    log.write(b"dropped\n")
    log.close()
    assert log.written and log.path == tmp_path / "x-2.log"
    assert log.path.read_bytes().startswith(b"0123456\n789abc\n\n[minodice: log full")
    assert b"dropped" not in log.path.read_bytes() and (tmp_path / "x.log").read_text() == "taken"
