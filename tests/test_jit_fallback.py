"""Without numba the kernels run as plain Python and still agree with the engine (`minodice.jit`).

The suite has numba; MINODICE_NO_NUMBA=1 makes `minodice.jit` take the path a base install
(`pip install minodice`, no `fast` extra) takes. The exact-equality tests of the simulator
against the engine run again that way in a subprocess (the slow statistical ones stay with
numba), and the command line says in one line how to get the speed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXACT = (
    "test_trick_winner_and_bonus_match_rules or test_hand_score_matches_rules or test_legal_mask_matches_rules"
    " or test_random_games_match_engine_all_rules or test_greedy_and_random_seats_match_engine"
    " or test_finish_hand_matches_engine_exactly or test_first_start_and_detail_shapes"
)


def _env() -> dict[str, str]:
    return {**os.environ, "MINODICE_NO_NUMBA": "1"}


def test_the_plain_python_kernels_agree_with_the_engine() -> None:
    args = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "tests/test_sim.py", "-k", EXACT]
    done = subprocess.run(args, cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and "failed" not in done.stdout
    assert "SlowWithoutNumba" in done.stdout  # the kernels really ran without numba


def test_the_command_line_says_how_to_get_the_speed() -> None:
    script = Path(sys.executable).parent / "minodice"
    cmd = [str(script)] if script.exists() else [sys.executable, "-m", "minodice.cli"]
    done = subprocess.run([*cmd, "advise", "red", "gray"], env=_env(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("minodice: numba is not installed"), done.stderr
    assert "pip install 'minodice[fast]'" in lines[0]
    assert "bid" in done.stdout and "expected score" in done.stdout


def test_numba_compiles_the_kernels_when_installed() -> None:
    from minodice import jit

    assert jit.HAVE_NUMBA  # the suite installs the fast extra
    from minodice.sim import kernel

    assert type(kernel.draw).__module__.startswith("numba")
