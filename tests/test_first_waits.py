"""No silent first waits (issue 54): a compile that makes someone wait is announced, the kernels' cache
follows their source, and `minodice warm` prepares them all."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pexpect
import pytest

from minodice import jitcache
from minodice.jit import HAVE_NUMBA, njit
from minodice.preparing import compiled_kernels, preparing

pytestmark = pytest.mark.skipif(not HAVE_NUMBA, reason="nothing compiles without numba")

SRC = Path(jitcache.__file__).parent
_BIN = Path(sys.executable).parent / "minodice"
CLI = [str(_BIN)] if _BIN.exists() else [sys.executable, "-m", "minodice.cli"]


def _new_kernel() -> Callable[[int], int]:
    """A kernel of minodice's (by its module) that numba has not compiled yet: its first call compiles."""
    def twice(x: int) -> int:
        return 2 * x

    twice.__module__ = "minodice.test_kernel"
    return njit(twice)


def test_a_compile_in_slow_work_is_said_once_while_the_work_goes_on() -> None:
    said: list[tuple[float, str]] = []
    heard = threading.Event()

    def say(line: str) -> None:
        said.append((time.perf_counter(), line))
        heard.set()

    kernel = _new_kernel()
    before = compiled_kernels()
    began = time.perf_counter()
    with preparing("the test kernel", 3, say=say, after=0.2):
        assert kernel(21) == 42  # compiles
        assert heard.wait(30)  # said while the block still runs
        kernel(1)
    assert [line for _, line in said] == ["Preparing the test kernel (first run only, about 3 s)…"]
    assert said[0][0] - began >= 0.2  # not before its mark
    assert compiled_kernels() == before + 1


def test_quick_work_and_work_that_compiles_nothing_say_nothing() -> None:
    said: list[str] = []
    kernel = _new_kernel()
    with preparing("quick work", say=said.append, after=5.0):
        kernel(1)  # compiles, but the block ends long before its mark
    with preparing("slow work", say=said.append, after=0.05):
        kernel(2)  # compiled already: nothing to say, however long the block takes
        time.sleep(0.3)
    time.sleep(0.1)
    assert said == []


def test_the_cache_folder_follows_every_file_the_kernels_may_import(tmp_path: Path) -> None:
    copy = tmp_path / "minodice"
    for folder in (*jitcache.SOURCES, "tui"):
        (copy / folder).mkdir(parents=True, exist_ok=True)
        for path in (SRC / folder).glob("*.py"):
            shutil.copy(path, copy / folder / path.name)
    first = jitcache.fingerprint(copy)
    assert first == jitcache.fingerprint(SRC)  # the content counts, not where it lies
    (copy / "tui" / "render.py").write_text("# not a kernel's import\n")
    (copy / "warm.py").write_text("# above the kernels\n")
    jitcache.fingerprint.cache_clear()
    assert jitcache.fingerprint(copy) == first
    with (copy / "rules.py").open("a") as f:
        f.write("\n# a rule the kernels read\n")  # numba's own stamp sees only the kernel's own file
    jitcache.fingerprint.cache_clear()
    assert jitcache.fingerprint(copy) != first


def _env(**changes: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(changes)
    return env


def test_the_kernels_go_to_the_users_cache_unless_numba_cache_dir_is_set(tmp_path: Path) -> None:
    script = "import os, minodice.sim.kernel; print(os.environ['NUMBA_CACHE_DIR'])"
    ours = subprocess.run([sys.executable, "-c", script], env=_env(XDG_CACHE_HOME=str(tmp_path)),
                          capture_output=True, text=True, timeout=120, check=True).stdout.strip()
    assert ours == str(tmp_path / "minodice" / "numba" / jitcache.fingerprint())
    given = str(tmp_path / "mine")
    theirs = subprocess.run([sys.executable, "-c", script], env=_env(XDG_CACHE_HOME=str(tmp_path),
                            NUMBA_CACHE_DIR=given), capture_output=True, text=True, timeout=120,
                            check=True).stdout.strip()
    assert theirs == given


def test_a_first_advice_in_a_new_cache_says_what_it_prepares_and_the_next_does_not(tmp_path: Path) -> None:
    env = _env(XDG_CACHE_HOME=str(tmp_path), NO_COLOR="1", COLUMNS="80")
    screens = []
    for _ in range(2):
        child = pexpect.spawn(CLI[0], [*CLI[1:], "advise", "red", "gray"], env=env, encoding="utf-8",
                              timeout=120, dimensions=(24, 80))
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0, child.before
        screens.append(child.before)
    first, second = screens
    assert "Preparing the bid advisor (first run only, about 5 s)…" in first
    assert first.index("Preparing") < first.index("expected score")  # said before the answer came
    assert "Preparing" not in second and "expected score" in second


def test_warm_prepares_every_kernel_and_says_what(tmp_path: Path) -> None:
    done = subprocess.run([*CLI, "warm"], capture_output=True, text=True, timeout=600, cwd=tmp_path, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    for what in ("the simulator", "the bots", "the bid and roll hints", "the bid advisor", "the odds",
                 "the vector tables"):
        assert f"  {what}" in done.stdout
    assert done.stdout.rstrip().endswith("s.") and done.stderr == ""
    quiet = subprocess.run([*CLI, "warm", "--quiet"], capture_output=True, text=True, timeout=600, cwd=tmp_path,
                           check=False)
    assert quiet.returncode == 0 and quiet.stdout == "" and quiet.stderr == ""
    assert jitcache.warmed()
