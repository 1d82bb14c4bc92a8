"""The luck benchmark plays its games once and reports the lead less the luck at each budget it is given."""

from __future__ import annotations

import subprocess
import sys

import benchmark_scripts

SCRIPT = benchmark_scripts.script("bench_luck")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300)


def test_the_script_reports_each_budget_and_refuses_bad_ones() -> None:
    run = _run("neural", "--table", "greedy", "--deals", "3", "--playouts", "8,32")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert "plain lead" in lines[1]
    assert [line.split()[0] for line in lines[2:]] == ["8", "32"] and all("times fewer deals" in x for x in lines[2:])
    for bad in ("8,x", "0", "-5"):
        refused = _run("neural", "--deals", "3", "--playouts", bad)
        assert refused.returncode == 2 and "--playouts" in refused.stderr and "Traceback" not in refused.stderr
    assert _run("neural", "--deals", "1").returncode == 2
