"""The scripts in `research/benchmarks/`, loaded as modules for their tests (they are not part of the package),
by the product tests' loader (`tests/benchmark_scripts.py`; `conftest.py` puts its folder on the path)."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import benchmark_scripts  # the product tests' folder is on the path (conftest.py)

#: The folder of the research benchmark scripts.
BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def script(name: str) -> Path:
    """The path of `research/benchmarks/NAME.py`."""
    return benchmark_scripts.script(name, BENCHMARKS)


def load(name: str) -> ModuleType:
    """`research/benchmarks/NAME.py` as a module, registered under NAME (its dataclasses look their module up there)."""
    return benchmark_scripts.load(name, BENCHMARKS)
