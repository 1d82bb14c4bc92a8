"""The first prompt of `minodice play --level expert` in a fresh install, before and after `minodice warm`.

Issue 54: no silent first waits. Makes a new virtual environment and installs this tree into it
(`pip install '.[fast]'`, as a user would; `--venv` reuses one), then, with numba's kernel cache
in a new folder of its own (XDG_CACHE_HOME), drives the commands in a terminal (pexpect) and
records when each printed anything:

1. cold (nothing compiled yet): `play --level expert` up to its first prompt: the seconds to its
   first output, to the prompt, and the longest silence (no output at all) before the prompt;
   with `--cold-all`, every command below too, each with a cache folder of its own;
2. `minodice warm`, what `make play` runs once: its seconds;
3. warmed: the same play `--runs` times (median and worst seconds to the prompt; target at most
   3 s), then each command of the issue: the hint typed at the first prompt, `advise`, `odds`,
   `explain`, a small tournament of the expert level, a `VectorTable` step; with how many kernels
   numba still compiled (`NUMBA_DEBUG_CACHE`; 0 expected) and the longest silence.

    .venv/bin/python benchmarks/bench_first_prompt.py                  # a new venv (a minute or two to install)
    .venv/bin/python benchmarks/bench_first_prompt.py --venv /tmp/v    # make /tmp/v once, reuse it after
    .venv/bin/python benchmarks/bench_first_prompt.py --venv .venv --cold-all --json
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import venv
from dataclasses import asdict, dataclass, field
from pathlib import Path

import pexpect

ROOT = Path(__file__).resolve().parents[1]
#: Issue 54's targets: seconds to the first prompt after a warmed install, and the longest a command may be
#: silent.
TARGET_PROMPT, TARGET_SILENCE = 3.0, 2.0
#: The bid prompt and the hint's last line (`tui.render`).
PROMPT, HINT = "Your bid (", "Hint: bid"
VECTOR_STEP = ("from minodice.envs.vector import VectorTable; import numpy as np; "
               "vt = VectorTable(8, 4); vt.reset(); vt.step(np.zeros(8, dtype=np.int64)); print('stepped')")


@dataclass
class Run:
    """One command in a terminal: seconds to its first output, to the mark waited for (`drive`), in all; the
    longest silence before the mark (or the end); kernels compiled (None: not counted)."""

    name: str
    first_output: float | None = None
    mark: float | None = None
    total: float = 0.0
    longest_silence: float = 0.0
    compiled: int | None = None
    first_line: str = ""
    notes: list[str] = field(default_factory=list)


#: Colour and cursor codes, left out of the first line shown.
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _env(cache: Path, debug: bool = False) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONDONTWRITEBYTECODE", "NUMBA_CACHE_DIR", "VIRTUAL_ENV", "PYTHONPATH")}
    env.update(XDG_CACHE_HOME=str(cache), COLUMNS="100", LINES="40", TERM="xterm")
    if debug:
        env["NUMBA_DEBUG_CACHE"] = "1"
    return env


def drive(name: str, argv: list[str], cache: Path, cwd: Path, steps: list[tuple[str, str]] | None = None,
          timeout: float = 300.0) -> Run:
    """Run `argv` in a terminal; for each (text, reply) of `steps` wait for `text` and type `reply`. The mark is
    the seconds from the start (or the reply before it) to the last step's text; the silence is counted from
    the start to the mark (to the end without steps), a reply counting as output."""
    run = Run(name)
    began = time.perf_counter()
    child = pexpect.spawn(argv[0], argv[1:], cwd=str(cwd), env=_env(cache), encoding="utf-8",
                          timeout=timeout, dimensions=(40, 100))
    last, seen, asked = began, "", began
    waits = list(steps or [])
    while True:
        try:
            chunk = child.read_nonblocking(65536, timeout=0.05)
        except pexpect.TIMEOUT:
            if time.perf_counter() - began > timeout:
                child.terminate(force=True)
                run.notes.append("timed out")
                break
            continue
        except pexpect.EOF:
            now = time.perf_counter()
            if run.mark is None:
                run.longest_silence = max(run.longest_silence, now - last)
            break
        now = time.perf_counter()
        if run.mark is None:
            run.longest_silence = max(run.longest_silence, now - last)
        last = now
        visible = " ".join(ANSI.sub("", chunk).split())
        if run.first_output is None and visible:
            run.first_output = now - began
            run.first_line = visible[:90]
        seen += chunk
        if waits and waits[0][0] in seen:
            text, reply = waits.pop(0)
            seen = seen[seen.index(text) + len(text):]
            if not waits:
                run.mark = now - asked
            child.sendline(reply)
            last = asked = time.perf_counter()
    child.close(force=True)
    run.total = time.perf_counter() - began
    return run


def _count_compiles(argv: list[str], cache: Path, cwd: Path, steps: list[tuple[str, str]] | None) -> int:
    """How many kernels numba compiled (and saved) running `argv`: `NUMBA_DEBUG_CACHE` says each."""
    child = pexpect.spawn(argv[0], argv[1:], cwd=str(cwd), env=_env(cache, debug=True), encoding="utf-8",
                          timeout=300, dimensions=(40, 100))
    out = ""
    for text, reply in steps or []:
        child.expect_exact(text)
        out += child.before + child.after
        child.sendline(reply)
    child.expect(pexpect.EOF)
    out += child.before
    child.close(force=True)
    return out.count("[cache] data saved")


def make_venv(folder: Path) -> Path:
    """`folder` as a virtual environment with this tree installed (`.[fast]`), unless it has minodice already."""
    minodice = folder / "bin" / "minodice"
    if minodice.exists():
        return minodice
    print(f"installing this tree into a new venv at {folder} (pip install '.[fast]')…", flush=True)
    started = time.perf_counter()
    venv.create(folder, with_pip=True)
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1")
    subprocess.run([str(folder / "bin" / "python"), "-m", "pip", "install", "--quiet", f"{ROOT}[fast]"],
                   check=True, env=env, cwd=folder)
    print(f"  installed in {time.perf_counter() - started:.0f} s", flush=True)
    return minodice


def commands(minodice: str, python: str, expert: str) -> list[tuple[str, list[str], list[tuple[str, str]] | None]]:
    """The commands of the issue: (name, argv, steps; the last step's text is what is timed)."""
    return [
        ("play --level expert: first prompt", [minodice, "play", "--level", "expert", "--seed", "1"],
         [(PROMPT, "quit")]),
        ("play: first hint", [minodice, "play", "--seed", "1"], [(PROMPT, "hint"), (HINT, "quit")]),
        ("advise", [minodice, "advise", "red", "red", "griffin", "gray"], None),
        ("odds -n 1000", [minodice, "odds", "-n", "1000"], None),
        ("explain --trick 1", [minodice, "explain", "--trick", "1"], None),
        ("tournament, expert vs 2 greedy, 3 games",
         [minodice, "tournament", "-s", expert, "-s", "greedy", "-s", "greedy", "-g", "3", "--seed", "1"], None),
        ("VectorTable: first step", [python, "-c", VECTOR_STEP], None),
    ]


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def _print(title: str, runs: list[Run]) -> None:
    print(f"\n{title}")
    print(f"  {'command':44s} {'first out':>9s} {'timed':>7s} {'total':>7s} {'silence':>8s} {'compiled':>8s}")
    for r in runs:
        print(f"  {r.name:44s} {_fmt(r.first_output):>9s} {_fmt(r.mark):>7s} {r.total:7.2f} "
              f"{r.longest_silence:8.2f} {'-' if r.compiled is None else r.compiled:>8}"
              + (f"  ({'; '.join(r.notes)})" if r.notes else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--venv", type=Path, help="Reuse this venv (made and installed into if it has no minodice).")
    parser.add_argument("--runs", type=int, default=5, help="Warmed first prompts to time (default 5).")
    parser.add_argument("--cold-all", action="store_true", help="Also run every command cold (a minute or more each).")
    parser.add_argument("--json", action="store_true", help="Print one JSON object at the end.")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-first-prompt-") as tmp:
        work = Path(tmp)
        minodice = str(make_venv(args.venv.resolve() if args.venv else work / "venv"))
        python = str(Path(minodice).with_name("python"))
        expert = subprocess.run([python, "-c", "from minodice.bots.levels import find_level; "
                                 "print(find_level('expert').spec)"], capture_output=True, text=True,
                                check=True).stdout.strip()
        cmds = commands(minodice, python, expert)
        load = os.getloadavg()
        print(f"{os.cpu_count()} cores, load average {load[0]:.1f} (other work slows the compiles), "
              f"minodice from {Path(python).parents[1]}", flush=True)

        cold = []
        for i, (name, argv, steps) in enumerate(cmds if args.cold_all else cmds[:1]):
            cold.append(drive(name, argv, work / f"cold-cache-{i}", work, steps))
            print(f"  cold {name}: {_fmt(cold[-1].mark or cold[-1].total)} s; first line "
                  f"{cold[-1].first_line!r}", flush=True)

        cache = work / "cache"
        started = time.perf_counter()
        done = subprocess.run([minodice, "warm"], env=_env(cache), capture_output=True, text=True, cwd=work)
        warm_seconds = time.perf_counter() - started
        print(f"  minodice warm: {warm_seconds:.1f} s (exit {done.returncode})", flush=True)
        if done.returncode:
            print(done.stdout + done.stderr)

        prompts = [drive(cmds[0][0], cmds[0][1], cache, work, cmds[0][2]) for _ in range(args.runs)]
        times = [r.mark for r in prompts if r.mark is not None]
        warmed = [prompts[0]]
        for name, argv, steps in cmds[1:]:
            run = drive(name, argv, cache, work, steps)
            run.compiled = _count_compiles(argv, cache, work, steps)
            warmed.append(run)
        prompts[0].compiled = _count_compiles(cmds[0][1], cache, work, cmds[0][2])

        _print("Cold (nothing compiled; `timed`: seconds to the prompt or the hint)", cold)
        _print("Warmed (after `minodice warm`)", warmed)
        median, worst = (statistics.median(times), max(times)) if times else (float("nan"), float("nan"))
        print(f"\nminodice warm: {warm_seconds:.1f} s")
        print(f"first prompt of play --level expert, warmed: median {median:.2f} s, worst {worst:.2f} s over "
              f"{len(times)} runs (target <= {TARGET_PROMPT:g} s: {'met' if worst <= TARGET_PROMPT else 'NOT met'})")
        first = cold[0]
        print(f"cold first run: a line after {_fmt(first.first_output)} s ({first.first_line!r}), the prompt after "
              f"{_fmt(first.mark)} s, longest silence {first.longest_silence:.2f} s")
        if args.json:
            print(json.dumps({"warm_seconds": warm_seconds, "prompt_median": median, "prompt_worst": worst,
                              "cold": [asdict(r) for r in cold], "warmed": [asdict(r) for r in warmed],
                              "cores": os.cpu_count(), "load": load[0]}))


if __name__ == "__main__":
    sys.exit(main())
