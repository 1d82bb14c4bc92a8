"""The garbage collector of a busy server: short young passes, no long stalls, cycles still freed.

A server holds 10^5–10^6 long-lived objects (each table's game and event log, each socket's
coroutines). Python's collector scans them again and again: at 200 fast tables a pass over the
middle generation stalled every table for 70–80 ms every ~12 s, and a full pass 0.2–0.4 s every
couple of minutes (`benchmarks/bench_server.py`). Almost none of it is garbage: objects are freed by
reference counting, and a run under `gc.DEBUG_SAVEALL` found cyclic garbage only in closed HTTP
connections (about 20 objects each), none from play.

So after every collection the survivors are frozen (`gc.freeze`): each pass scans only what was
made since the last one. A frozen object that later becomes part of a garbage cycle would stay
until unfrozen; `sweep_every` seconds a full pass over everything frees those (one stall per sweep).
"""

from __future__ import annotations

import gc
import threading
import time
from typing import Any

#: Objects allocated between two young passes: a pass takes a few ms at this size.
YOUNG = 10_000
#: Seconds between full passes (which free cycles among frozen objects).
SWEEP_EVERY = 600.0


def _freeze_survivors(phase: str, info: dict[str, Any]) -> None:
    """After each collection, move what survived out of every later pass's way."""
    if phase == "stop":
        gc.freeze()


def full_sweep() -> None:
    """Unfreeze everything and collect it all (what survives is frozen again)."""
    gc.unfreeze()
    gc.collect()


def _sweeper(every: float) -> None:
    while True:
        time.sleep(every)
        full_sweep()


def quiet_collector(sweep_every: float = SWEEP_EVERY) -> None:
    """Set this process's collector up for serving (once, before the server starts)."""
    if _freeze_survivors in gc.callbacks:
        return
    gc.collect()
    gc.freeze()  # the modules and objects made at start-up
    gc.set_threshold(YOUNG, 10, 10)
    gc.callbacks.append(_freeze_survivors)
    threading.Thread(target=_sweeper, args=(sweep_every,), name="minodice-gc", daemon=True).start()
