"""Say what is being prepared when a wait comes from compiling the kernels: one line within half a second.

numba compiles a kernel the first time a computer runs it (seconds; half a minute for all of them),
then loads it from its cache (`minodice.jitcache`) in milliseconds. `preparing` wraps work that may
compile: if a kernel compiles in it and the work still runs `AFTER` seconds in, one line says what
is prepared and about how long it takes. A compile outside any such block gets a line of its own,
naming the kernels. Nothing is said when the kernels load from the cache, however long the work.

The line goes to stderr when that is a terminal (a person waits there; pipes and logs stay as
they were), or to the `say` a caller gives (the server's own output). numba reports its compiles
to `listen`, which `minodice.jit` installs when it loads numba.

>>> with preparing("the bots", 20):  # no compile here: nothing is said
...     pass
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["AFTER", "compiled_kernels", "listen", "preparing"]

#: Seconds of work before the line is shown (a compile shorter than this is not worth a word).
AFTER = 0.5
#: The kernels, by module, as a line names them, with about how long they take to compile (seconds, on a
#: two-core machine: `benchmarks/bench_first_prompt.py`).
KERNELS: dict[str, tuple[str, float]] = {
    "minodice.sim.kernel": ("the simulator", 6),
    "minodice.sim.batch": ("the simulator", 6),
    "minodice.sim.playout": ("the simulator", 6),
    "minodice.sim.vector": ("the vector simulator", 15),
    "minodice.sim.positions": ("the vector simulator", 15),
    "minodice.analysis.advisor": ("the bid advisor", 5),
    "minodice.analysis.odds": ("the odds", 3),
}
#: Compiles this far apart (seconds) belong to one wait: one line for them all.
_GAP = 1.0

Say = Callable[[str], None]


def _to_terminal(line: str) -> None:
    """Write `line` to stderr if it is a terminal (looked up now: a rich display may have wrapped it)."""
    err = sys.stderr
    with contextlib.suppress(Exception):
        if err is not None and err.isatty():
            err.write(line + "\n")
            err.flush()


@dataclass(eq=False)
class _Wait:
    """Work that may compile: what it prepares, about how long, where to say it, and what happened so far."""

    what: str
    seconds: float | None
    say: Say
    after: float
    started: float
    open: bool = True
    compiled: bool = False
    said: bool = False
    last_compile: float = 0.0
    timer: threading.Timer | None = None

    def line(self) -> str:
        about = f", about {self.seconds:.0f} s" if self.seconds else ""
        return f"Preparing {self.what} (first run only{about})…"


_lock = threading.RLock()
_waits: list[_Wait] = []  # the blocks open now, outermost first
_loose: _Wait | None = None  # compiles outside any block, as one wait while they follow each other
_depth = 0  # compiles under way (numba compiles the kernels a kernel calls inside its own compile)
_count = 0


def _say(wait: _Wait) -> None:
    """Say `wait`'s line once if it is still going (a block still open; loose compiles still under way)."""
    with _lock:
        wait.timer = None
        going = wait.open or _depth > 0 or time.perf_counter() - wait.last_compile < _GAP / 4
        if wait.said or not wait.compiled or not going:
            return
        wait.said = True
    with contextlib.suppress(Exception):  # a line that cannot be written never stops the work
        wait.say(wait.line())


def _compiling(module: str) -> None:
    """A kernel of `module` starts compiling: the wait it belongs to says its line now or at its mark."""
    global _loose, _depth, _count
    now = time.perf_counter()
    with _lock:
        _depth += 1
        _count += 1
        wait = _waits[0] if _waits else None  # the outermost: it names the whole wait
        if wait is None:
            if _loose is None or (_depth == 1 and now - _loose.last_compile > _GAP):
                what, seconds = KERNELS.get(module, ("the game's compiled kernels", 0))
                _loose = _Wait(what, seconds or None, _to_terminal, AFTER, now, open=False)
            wait = _loose
        wait.compiled = True
        wait.last_compile = now
        if wait.said or wait.timer is not None:
            return
        due = wait.started + wait.after - now
        if due > 0:
            wait.timer = threading.Timer(due, _say, (wait,))
            wait.timer.daemon = True
            wait.timer.start()
            return
    _say(wait)


def _compiled() -> None:
    global _depth
    with _lock:
        _depth = max(0, _depth - 1)
        if _loose is not None and _depth == 0:
            _loose.last_compile = time.perf_counter()


class preparing:
    """Run the block; if a kernel compiles in it and it still runs `after` seconds in, say
    "Preparing {what} (first run only, about {seconds} s)…" once (on stderr if a terminal, else `say`).
    Cheap when nothing compiles (a microsecond): it may wrap every step of a loop."""

    __slots__ = ("_after", "_say", "_seconds", "_wait", "_what")

    def __init__(self, what: str, seconds: float | None = None, *, say: Say | None = None,
                 after: float = AFTER) -> None:
        self._what, self._seconds, self._say, self._after = what, seconds, say or _to_terminal, after

    def __enter__(self) -> None:
        self._wait = wait = _Wait(self._what, self._seconds, self._say, self._after, time.perf_counter())
        with _lock:
            _waits.append(wait)

    def __exit__(self, *exc: object) -> None:
        wait = self._wait
        with _lock:
            wait.open = False
            _waits.remove(wait)
            if wait.timer is not None:
                wait.timer.cancel()


def compiled_kernels() -> int:
    """How many of minodice's kernels this process has compiled (not loaded from the cache) so far."""
    return _count


def listen() -> None:
    """Have numba report every compile of minodice's kernels here (once per process; numba must be installed)."""
    global _listening
    if _listening:
        return
    from numba.core import event

    class _Listener(event.Listener):  # nothing here may stop a compile: a line is never worth that
        def on_start(self, ev: Any) -> None:
            module = _module(ev)
            if module.startswith("minodice."):
                with contextlib.suppress(Exception):
                    _compiling(module)

        def on_end(self, ev: Any) -> None:
            if _module(ev).startswith("minodice."):
                with contextlib.suppress(Exception):
                    _compiled()

    event.register("numba:compile", _Listener())
    _listening = True


_listening = False


def _module(ev: Any) -> str:
    """The module of the function a numba compile event is about ("" when it cannot be told)."""
    try:
        return str(ev.data["dispatcher"].py_func.__module__)
    except Exception:
        return ""
