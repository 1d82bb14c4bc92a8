"""Start-up time of the `minodice` command against `python -c "import typer, rich.console"`.

Runs the baseline and each command in turn (interleaved, so load on the machine hits
both alike), many times, as fresh processes, and prints the median wall time of each
and its ratio to the baseline's median. The target of issue 12 is a ratio of at most
1.5 for every command listed.

    .venv/bin/python benchmarks/bench_startup.py               # 40 runs each
    .venv/bin/python benchmarks/bench_startup.py --runs 100 --json
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: The ratio issue 12 asks for.
TARGET = 1.5


def _record_file(folder: Path) -> Path:
    """A finished 4-seat game record to `verify` (played here, by the engine, from a fixed seed)."""
    from minodice import record
    from minodice.game import Game

    game = Game(4, seed=2027)
    rng = random.Random(2027)
    while not game.over:
        game.apply(rng.choice(list(game.legal_actions())))
    path = folder / "game.json"
    record.save(record.from_game(game), path)
    return path


def _commands(minodice: str, record_path: Path) -> dict[str, list[str]]:
    return {
        "minodice --help": [minodice, "--help"],
        "minodice trick red:6 gray:flag": [minodice, "trick", "red:6", "gray:flag"],
        "minodice verify FILE": [minodice, "verify", str(record_path)],
        "minodice sheet --help": [minodice, "sheet", "--help"],
        "minodice play --help": [minodice, "play", "--help"],
    }


#: As a user's shell runs them: compiled modules are cached (this machine sets PYTHONDONTWRITEBYTECODE,
#: which would make every run compile the package's source again).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _wall(argv: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=ENV)
    return time.perf_counter() - started


def measure(runs: int) -> dict[str, dict[str, float]]:
    """Median seconds of the baseline and each command, and each command's ratio to the baseline."""
    minodice = shutil.which("minodice", path=str(Path(sys.executable).parent)) or "minodice"
    baseline = [sys.executable, "-c", "import typer, rich.console"]
    with tempfile.TemporaryDirectory() as tmp:
        commands = _commands(minodice, _record_file(Path(tmp)))
        for argv in [baseline, *commands.values()]:  # warm the file cache and the .pyc files
            _wall(argv)
        times: dict[str, list[float]] = {name: [] for name in ["baseline", *commands]}
        for _ in range(runs):
            for name, argv in commands.items():
                times["baseline"].append(_wall(baseline))
                times[name].append(_wall(argv))
    base = statistics.median(times["baseline"])
    return {
        name: {"median_s": statistics.median(ts), "ratio": statistics.median(ts) / base}
        for name, ts in times.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=40, help="Runs of each command (default 40).")
    parser.add_argument("--json", action="store_true", help="Print one JSON object instead of a table.")
    args = parser.parse_args()
    result = measure(args.runs)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{'command':<34} {'median':>9} {'ratio':>6}")
    for name, row in result.items():
        verdict = "" if name == "baseline" else ("  ok" if row["ratio"] <= TARGET else f"  over {TARGET}")
        print(f"{name:<34} {row['median_s'] * 1000:7.1f}ms {row['ratio']:6.2f}{verdict}")


if __name__ == "__main__":
    main()
