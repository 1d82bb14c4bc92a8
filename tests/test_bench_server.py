"""The server load benchmark runs end to end on a small load and writes a complete JSON report.

Two fast tables on SQLite (a real `minodice serve`, 4 websocket people, 4 bots): every game
finishes without an error and every figure the report promises is there. No timing is asserted
beyond being measured (positive).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_server.py"


def test_bench_server_two_tables(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    done = subprocess.run([sys.executable, str(SCRIPT), "--tables", "2", "--json", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(out.read_text())
    assert report["errors"] == 0 and report["error_samples"] == []
    assert report["clients"] == 4 and report["clients_finished"] == 4 and report["games_finished"] == 2
    assert report["pace"] == "fast" and report["workers"] == 1 and report["db"] == "sqlite"
    # Each person bids and rolls in every hand; the bots as many times (less their bids made before the start).
    assert report["actions"] > 0 and 0 < report["bot_actions"] <= report["actions"]
    assert 0 < report["p50_ms"] <= report["p99_ms"] <= report["max_ms"]
    for key in ("rss_idle_kib", "rss_connected_kib", "rss_peak_kib", "pss_peak_kib", "private_peak_kib", "server_cpu_s",
                "cpu_ms_per_action", "client_cpu_s"):
        assert report[key] > 0, key
    assert report["rss_peak_kib"] >= report["rss_connected_kib"]
    assert report["pss_peak_kib"] <= report["rss_peak_kib"]  # PSS counts a shared page once, RSS in every process
    assert report["private_peak_kib"] <= report["pss_peak_kib"]  # PSS adds a share of the shared pages
    for key in ("mem_per_table_kib", "peak_per_table_kib"):
        assert isinstance(report[key], (int, float)), key
    assert "latency p99 (ms)" in done.stdout and "memory/table (KiB)" in done.stdout
    assert report["bots"] == "greedy, random"


def test_bench_server_seats_a_searching_level_whose_bots_think_in_a_worker_process(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    done = subprocess.run([sys.executable, str(SCRIPT), "--tables", "2", "--bots", "hard", "--bot-processes", "1",
                           "--json", str(out)], capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(out.read_text())
    assert report["errors"] == 0 and report["games_finished"] == 2 and report["bots"] == "hard"
    assert report["bot_processes"] == 1
    assert report["bot_actions"] > 0
    # The bot process (a child of the server, counted in its memory) holds the simulator: far more than a table.
    assert report["rss_peak_kib"] - report["rss_idle_kib"] > 20_000
    assert "bots (seats 1, 3): hard" in done.stdout


def test_bench_server_refuses_several_processes_on_sqlite() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--workers", "2", "--db", "sqlite:///x.db"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "needs PostgreSQL" in done.stderr


@pytest.mark.parametrize("value", ["0", "-2"])
def test_bench_server_refuses_no_bot_processes(value: str) -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--bot-processes", value], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and "--bot-processes" in done.stderr and "at least 1" in done.stderr
