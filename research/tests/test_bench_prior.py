"""The prior benchmark counts what `neural+search` would search: all legal moves at prior 0, one at prior 1."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import ModuleType

import research_scripts

SCRIPT = research_scripts.script("bench_prior")
TEACHER = "montecarlo:sims=16,bid_sims=16"


def load() -> ModuleType:
    return research_scripts.load("bench_prior")


def test_prior_zero_keeps_every_legal_move_and_prior_one_only_the_likeliest() -> None:
    bench = load()
    everything = bench.measure(["shipped"], games=1, seed=5, seats=3, prior=0.0, teacher=TEACHER)["shipped"]
    assert everything.decisions > 10
    assert everything.narrowed == 0 and everything.teacher_kept == everything.decisions
    assert everything.kept >= 2 * everything.decisions
    likeliest = bench.measure(["shipped"], games=1, seed=5, seats=3, prior=1.0, teacher=TEACHER)["shipped"]
    assert likeliest.decisions == everything.decisions
    assert likeliest.narrowed == likeliest.kept == likeliest.decisions
    assert 0 < likeliest.teacher_kept < likeliest.decisions  # the network agrees with the teacher, not always


def test_the_script_prints_a_row_per_network_and_refuses_a_bad_file(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, str(SCRIPT), "--games", "1", "--seats", "3", "--teacher", TEACHER],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "shipped" in run.stdout and "one move" in run.stdout
    bad = subprocess.run([sys.executable, str(SCRIPT), "--games", "1", "--weights", str(tmp_path / "none.npz")],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "error:" in bad.stderr and "Traceback" not in bad.stderr, bad.stderr
