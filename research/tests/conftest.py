"""The lab's tests reuse the product tests' helpers (`tests/benchmark_scripts.py`, `tests/network_positions.py`):
their folder goes on the import path before any of these tests is imported."""

from __future__ import annotations

import sys
from pathlib import Path

PRODUCT_TESTS = Path(__file__).resolve().parents[2] / "tests"
if str(PRODUCT_TESTS) not in sys.path:
    sys.path.insert(0, str(PRODUCT_TESTS))
