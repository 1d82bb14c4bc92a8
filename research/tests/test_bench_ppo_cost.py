"""The PPO cost benchmark: it measures every decision of its games, projects the hours by plain arithmetic,
and refuses bad arguments in words."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import research_scripts
from minodice.dice import hands_for

SCRIPT = research_scripts.script("bench_ppo_cost")
CHEAP = "montecarlo:sims=24,bid_sims=24"


def load() -> ModuleType:
    return research_scripts.load("bench_ppo_cost")


def test_every_decision_of_the_games_is_measured_with_its_playouts() -> None:
    bench = load()
    cost = bench.measure(CHEAP, games=2, seats=3, seed=5)
    hands = hands_for(3)
    tricks = sum(range(1, hands + 1))
    assert cost.decisions == 2 * 3 * (hands + tricks)  # a bid a hand and a roll a trick, each seat
    assert cost.playouts > 0 and cost.ms > 0 and cost.kernel_ms > 0
    greedy = bench.measure("greedy", games=1, seats=3, seed=5)  # no search: no playouts to replay
    assert greedy.playouts == 0 and greedy.kernel_ms == 0


def test_the_projection_is_decisions_times_opponents_times_their_cost() -> None:
    bench = load()
    assert bench.hours(10.0, 3600, 3, 1) == pytest.approx(0.03)
    assert bench.hours(10.0, 3600, 3, 2) == pytest.approx(0.015)


def test_the_training_log_gives_the_last_updates_decisions(tmp_path: Path) -> None:
    bench = load()
    decisions, seconds = bench.shipped_run(bench.DEFAULT_LOG)
    assert decisions > 10_000_000 and seconds > 0
    log = tmp_path / "log.jsonl"
    log.write_text(json.dumps({"decisions": 10, "seconds": 2.5}) + "\n" + json.dumps({"decisions": 20, "seconds": 5}))
    assert bench.shipped_run(log) == (20, 5.0)
    for text in ("", "not json", json.dumps({"update": 3})):
        log.write_text(text)
        with pytest.raises(ValueError, match="is not a training log"):
            bench.shipped_run(log)
    with pytest.raises(ValueError, match="no training log at"):
        bench.shipped_run(tmp_path / "missing.jsonl")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300)


def test_the_script_prints_the_cost_and_the_hours() -> None:
    out = run("--spec", CHEAP, "--games", "1", "--seats", "3", "--cores", "1")
    assert out.returncode == 0, out.stderr
    assert "1 game (" in out.stdout and "playouts and" in out.stdout
    assert "network decisions" in out.stdout and "inside the simulator, at best:" in out.stdout


def test_the_oracle_is_shown_the_dice_it_plays_by() -> None:
    out = run("--spec", "oracle:sims=20,bid_sims=20", "--games", "1", "--seats", "3")
    assert out.returncode == 0, out.stderr
    assert "oracle:sims=20,bid_sims=20 as it plays:" in out.stdout


@pytest.mark.parametrize(("args", "words"), [
    (("--games", "0"), "--games and --cores must be at least 1"),
    (("--cores", "0"), "--games and --cores must be at least 1"),
    (("--seats", "9"), "--seats must be"),
    (("--spec", "nonsense"), "unknown bot 'nonsense'"),
    (("--spec", "montecarlo:sims=x"), "sims"),
    (("--log", "/nonexistent/log.jsonl"), "no training log at"),
    (("--spec", "cmd:/nonexistent/bot", "--games", "1", "--seats", "3"), "failed: could not start"),
])
def test_bad_arguments_are_refused_in_words(args: tuple[str, ...], words: str) -> None:
    out = run(*args)
    assert out.returncode == 2
    assert words in out.stderr and "Traceback" not in out.stderr
