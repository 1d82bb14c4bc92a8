"""The table-size benchmark runs end to end: one row per size, the shipped network of that size beside another."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_sizes.py"


def test_bench_sizes_prints_a_row_per_table_size() -> None:
    run = subprocess.run([sys.executable, str(SCRIPT), "--games", "40"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    rows = [line.split() for line in run.stdout.splitlines()[1:]]
    assert [row[:2] for row in rows] == [["3", "neural-3.npz"], ["4", "neural-4.npz"], ["5", "neural-5.npz"],
                                         ["6", "neural-6.npz"]]
    assert rows[1][2] == rows[1][5]  # at 4 seats both columns are the same network on the same deals
