"""What `pip install minodice` costs: disk and time, for the base install and for each extra.

Builds the wheel from this tree, then for each choice makes a new virtual
environment, installs the wheel (with that extra) and prints the seconds the install
took, the size of the environment, and what the install added to a new, empty one.
Downloads come from pip's cache where it has them, so the times are best cases.

    .venv/bin/python benchmarks/bench_install.py                   # base only
    .venv/bin/python benchmarks/bench_install.py --extras server,all
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: What issue 12 asks of the base install, in MiB (the "M" of `du -sh`, which the issue measured with).
TARGET_MB = 300


def _size_mb(path: Path) -> float:
    """Disk use of everything under `path` in MiB, as `du -s` counts it (allocated blocks, folders too)."""
    total = sum(f.lstat().st_blocks * 512 for f in path.rglob("*")) + path.stat().st_blocks * 512
    return total / 2**20


def _install(wheel: Path, extra: str, folder: Path) -> dict[str, float]:
    env_dir = folder / f"venv-{extra or 'base'}"
    venv.create(env_dir, with_pip=True)
    empty = _size_mb(env_dir)
    target = f"{wheel}[{extra}]" if extra else str(wheel)
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1")
    started = time.perf_counter()
    subprocess.run([str(env_dir / "bin" / "python"), "-m", "pip", "install", "--quiet", target],
                   check=True, env=env)
    seconds = time.perf_counter() - started
    whole = _size_mb(env_dir)
    return {"seconds": seconds, "venv_mb": whole, "added_mb": whole - empty}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--extras", default="", help="Comma-separated extras to measure besides the base install.")
    args = parser.parse_args()
    choices = ["", *[e for e in args.extras.split(",") if e]]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(folder), str(ROOT)],
                       check=True, capture_output=True)
        wheel = next(folder.glob("*.whl"))
        print(f"{'install':<22} {'seconds':>8} {'venv MiB':>9} {'added MiB':>10}")
        for extra in choices:
            row = _install(wheel, extra, folder)
            name = f"minodice[{extra}]" if extra else "minodice"
            note = "" if extra else ("  ok" if row["added_mb"] <= TARGET_MB else f"  over {TARGET_MB}")
            print(f"{name:<22} {row['seconds']:8.1f} {row['venv_mb']:9.0f} {row['added_mb']:10.0f}{note}")


if __name__ == "__main__":
    main()
