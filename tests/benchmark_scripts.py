"""The scripts in `benchmarks/`, loaded as modules for their tests (they are not part of the package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

#: The folder of the benchmark scripts.
BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def script(name: str, folder: Path = BENCHMARKS) -> Path:
    """The path of `benchmarks/NAME.py` (or of NAME.py in another folder of scripts)."""
    return folder / f"{name}.py"


def load(name: str, folder: Path = BENCHMARKS) -> ModuleType:
    """`benchmarks/NAME.py` (or NAME.py in `folder`) as a module, registered under NAME (its dataclasses look
    their module up there)."""
    spec = importlib.util.spec_from_file_location(name, script(name, folder))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
