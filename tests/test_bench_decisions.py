"""The decision-quality benchmark runs end to end and judges identical bots identically."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_decisions.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300)


def test_bench_decisions_judges_rolls_and_bids() -> None:
    out = _run("--bot", "montecarlo:sims=64,bid_sims=64", "--games", "1", "--bids", "3", "--replays", "1",
               "--eval-playouts", "200", "--variant", "greedy", "--variant", "greedy", "--variant", "random")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "roll regret per decision" in text and "bids by real play (3 positions" in text
    # The same deterministic bot twice: exactly no difference.
    assert "vs greedy: +0.00" in text.splitlines()[4]


def test_bench_decisions_refuses_bad_arguments() -> None:
    out = _run("--games", "0")
    assert out.returncode != 0 and "--games must be at least 1" in out.stderr
    out = _run("--variant", "nosuchbot")
    assert out.returncode != 0 and "nosuchbot" in out.stderr


def test_bench_decisions_collects_against_other_opponents() -> None:
    out = _run("--bot", "greedy", "--opponents", "random", "--games", "1", "--eval-playouts", "50",
               "--variant", "greedy")
    assert out.returncode == 0, out.stderr
    assert "against three random (seed 1)" in out.stdout
    out = _run("--opponents", "nosuchbot")
    assert out.returncode != 0 and "nosuchbot" in out.stderr and "Traceback" not in out.stderr
