"""Optional parts of minodice (pip extras) and the one error for a part that is not installed.

`pip install minodice` brings the engine, records, the terminal game, the table
tools and the bots (compiled by numba with the `fast` extra, else run as plain
Python: `minodice.jit`). The web server, plots, Ray and the RL environments each need an
extra (`pip install 'minodice[server]'`); the extras and what they install are
declared once, in `pyproject.toml`. A module that needs one calls `require` before
importing it, so a missing library becomes a sentence naming the extra, not a traceback.

>>> require("plots", "json")  # installed: returns quietly
>>> try:
...     require("server", "no_such_module_here")
... except MissingExtra as e:
...     print(e.code, e.params["extra"])
...     print(e)
missing_extra server
this needs minodice's optional part 'server' (no_such_module_here is not installed): pip install 'minodice[server]'
"""

from __future__ import annotations

from importlib.util import find_spec

from .codes import render

__all__ = ["EXTRAS", "MissingExtra", "require"]

#: The extras a user may be told to install, each with what it is for.
EXTRAS: dict[str, str] = {
    "fast": "compiled search bots, bid hint and simulator (numba)",
    "server": "the web server (minodice serve)",
    "plots": "plots (--plot)",
    "ray": "tournaments on a Ray cluster (--backend ray)",
    "rl": "the PettingZoo, Gymnasium and OpenSpiel environments",
}


class MissingExtra(ImportError):
    """An optional part is not installed: carries the code `missing_extra`, the extra and the module."""

    def __init__(self, extra: str, module: str) -> None:
        self.code = "missing_extra"
        self.params = {"extra": extra, "module": module}
        super().__init__(render(self.code, self.params), name=module)


def require(extra: str, *modules: str) -> None:
    """Raise `MissingExtra` unless every one of `modules` can be imported (they are not imported here)."""
    if extra not in EXTRAS:
        raise ValueError(f"unknown extra {extra!r}: one of {', '.join(EXTRAS)}")
    for module in modules:
        try:
            found = find_spec(module) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            raise MissingExtra(extra, module)
