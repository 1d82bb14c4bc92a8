"""The scripts in `research/benchmarks/`, loaded as modules for their tests (they are not part of the package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

#: The folder of the research benchmark scripts.
BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def script(name: str) -> Path:
    """The path of `research/benchmarks/NAME.py`."""
    return BENCHMARKS / f"{name}.py"


def load(name: str) -> ModuleType:
    """`research/benchmarks/NAME.py` as a module, registered under NAME (its dataclasses look their module up there)."""
    spec = importlib.util.spec_from_file_location(name, script(name))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
