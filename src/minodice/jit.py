"""`njit`: numba's compiler when it is installed, else the same functions run as plain Python.

The simulator kernels (`minodice.sim`), the bid advisor and the odds are written once, in the
subset of Python that numba compiles. numba (with its LLVM, about 200 MB) comes with
`pip install 'minodice[fast]'` (and with the `server` extra); without it every kernel still
runs and computes the same thing — the tests run the kernels both ways against the engine —
only about 25 times slower (a `montecarlo` decision ~1.2 s instead of ~40 ms; the bid hint,
which works to a time budget, reaches a wider interval), and a warning says how to get the
speed. `MINODICE_NO_NUMBA=1` takes the plain path even where numba is installed.

The compiled kernels are kept in the user's cache folder, one per version of their source
(`minodice.jitcache`); when one compiles while someone waits, a line says so (`minodice.preparing`).

>>> from minodice.jit import njit
>>> @njit
... def twice(x):
...     return 2 * x
>>> twice(21)
42
"""

from __future__ import annotations

import functools
import os
import sys
import warnings
from collections.abc import Callable
from importlib.util import find_spec
from typing import Any

import numpy as np

from .jitcache import use_cache_dir
from .preparing import listen

__all__ = ["HAVE_NUMBA", "SlowWithoutNumba", "njit"]

#: Whether the kernels are compiled: numba is installed and MINODICE_NO_NUMBA is not set (the tests
#: set it to run the plain-Python path on a machine that has numba).
HAVE_NUMBA: bool = find_spec("numba") is not None and not os.environ.get("MINODICE_NO_NUMBA")


class SlowWithoutNumba(UserWarning):
    """numba is missing: the kernels run as plain Python (same results, much slower)."""


def _plain(func: Callable[..., Any]) -> Callable[..., Any]:
    """`func` as Python, with numba's integer arithmetic: uint64 wraps around without a warning."""

    @functools.wraps(func)
    def run(*args: Any, **kwargs: Any) -> Any:
        with np.errstate(over="ignore"):
            return func(*args, **kwargs)

    return run


_warned = False


def _load_numba() -> Any:
    """numba's `njit`, numba loaded the first time with the kernels' cache folder (`jitcache`) and its compiles
    reported (`preparing`: a line says what is prepared when they make someone wait)."""
    if "numba" not in sys.modules:
        use_cache_dir()
    from numba import njit as numba_njit

    listen()
    return numba_njit


def njit(*args: Any, **kwargs: Any) -> Any:
    """numba's `njit` (same arguments) when numba is installed; else a decorator that keeps the function as Python."""
    if HAVE_NUMBA:
        return _load_numba()(*args, **kwargs)
    global _warned
    if not _warned:
        _warned = True
        warnings.warn(
            "numba is not installed, so the search bots, the bid hint and the simulator run as plain Python, "
            "about 25x slower (the hint, given the same time, is less precise): pip install 'minodice[fast]'",
            SlowWithoutNumba,
            stacklevel=2,
        )
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return _plain(args[0])
    return _plain
