"""Worker processes end with the process that started them (`minodice.workers`): `analyze --jobs` and
`train --expert --jobs`, stopped by a signal that reaches only them (`kill`, `timeout`), leave no worker
behind, where a pool's workers used to wait for work forever; and each worker keeps numpy's matrix
products to one thread."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from minodice.bots import make_bot
from minodice.bots.runner import Match
from minodice.game import Game
from minodice.record import from_game
from test_server_common import process_running

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc")

CLI = [sys.executable, "-m", "minodice.cli"]


def workers_of(pid: int) -> list[int]:
    """The spawned pool workers whose parent is `pid` (not its resource tracker)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            cmdline = (entry / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue
        if ppid == pid and b"spawn_main" in cmdline:
            found.append(int(entry.name))
    return found


def stop_and_count_survivors(command: list[str], cwd: Path, workers: int = 2) -> list[int]:
    """Start `command`, wait until its `workers` pool workers run, stop it with SIGTERM (which reaches
    it alone, as `kill` or `timeout` does), and return the workers still running 20 s later."""
    proc = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    pids: list[int] = []
    try:
        deadline = time.monotonic() + 120
        while len(pids) < workers and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
            pids = workers_of(proc.pid)
        assert len(pids) >= workers, f"the pool did not start (exit {proc.poll()}): {proc.stderr.read()!r}"
        time.sleep(1.0)  # the workers are at work, not starting
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        deadline = time.monotonic() + 20
        while any(process_running(p) for p in pids) and time.monotonic() < deadline:
            time.sleep(0.1)
        return [p for p in pids if process_running(p)]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for p in [p for p in pids if process_running(p)]:
            os.kill(p, signal.SIGKILL)  # leave nothing behind, whatever the outcome
        proc.stderr.close()


def test_analyze_with_jobs_leaves_no_worker_when_it_is_stopped(tmp_path: Path) -> None:
    game = Game(4, seed="workers-1")
    match = Match(game, {s: make_bot("greedy", seed=f"w:{s}") for s in range(4)})
    match.play()
    (tmp_path / "game.json").write_text(json.dumps(from_game(game)))
    judge = "montecarlo:sims=4000,per=4,bid_sims=4000,bid_per=4"  # slow enough to be stopped halfway
    survivors = stop_and_count_survivors([*CLI, "analyze", "game.json", "--jobs", "2", "--bot", judge], tmp_path)
    assert survivors == [], f"analyze's workers {survivors} outlived it"


def test_expert_iteration_with_jobs_leaves_no_worker_when_it_is_stopped(tmp_path: Path) -> None:
    command = [*CLI, "train", "--expert", "montecarlo:sims=20000,bid_sims=20000", "--games", "4", "--jobs", "2",
               "--seed", "1", "--out", "net.npz"]
    survivors = stop_and_count_survivors(command, tmp_path)
    assert survivors == [], f"the expert games' workers {survivors} outlived the training"
    assert not (tmp_path / "net.npz").exists()


def test_a_worker_runs_its_matrix_products_on_one_thread() -> None:
    """Each pool process already has a core: BLAS threads on top oversubscribe them (4x slower learned bots)."""
    probe = (
        "from threadpoolctl import threadpool_info\n"
        "from minodice.workers import start_worker\n"
        "start_worker()\n"  # numpy is not imported yet: start_worker loads it, so the limit has a BLAS to act on
        "print(sorted({i['num_threads'] for i in threadpool_info() if i['user_api'] == 'blas'}))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "OPENBLAS_NUM_THREADS": "2", "OMP_NUM_THREADS": "2"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[1]", out.stdout
