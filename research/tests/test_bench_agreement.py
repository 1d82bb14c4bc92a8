"""The agreement benchmark counts how often a model picks the teacher's move: always for the teacher itself."""

from __future__ import annotations

import subprocess
import sys
from types import ModuleType

import research_scripts

SCRIPT = research_scripts.script("bench_agreement")
TEACHER = "greedy"


def load() -> ModuleType:
    research_scripts.load("bench_prior")  # the script it imports its games from, found beside it when run
    return research_scripts.load("bench_agreement")


def test_the_teacher_agrees_with_itself_and_random_does_not_always() -> None:
    tallies = load().measure([TEACHER, "random"], games=1, seed=5, seats=3, teacher=TEACHER)
    same, other = tallies[TEACHER], tallies["random"]
    assert same.bids > 0 and same.rolls > 10
    assert (same.bids_agreed, same.rolls_agreed) == (same.bids, same.rolls)
    assert (other.bids, other.rolls) == (same.bids, same.rolls)
    assert other.bids_agreed + other.rolls_agreed < other.bids + other.rolls


def test_the_script_prints_a_row_per_model_and_refuses_a_bad_spec() -> None:
    run = subprocess.run([sys.executable, str(SCRIPT), "--games", "1", "--seats", "3", "--teacher", TEACHER,
                          "--model", "neural"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "neural" in run.stdout and "rolls" in run.stdout
    bad = subprocess.run([sys.executable, str(SCRIPT), "--games", "1", "--teacher", TEACHER, "--model", "nope"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "error:" in bad.stderr and "Traceback" not in bad.stderr, bad.stderr
