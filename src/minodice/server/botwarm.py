"""Imported once, by the fork server the bots' worker processes are forked from: it loads numpy, numba,
the simulator's compiled kernels and the networks by playing a hand with each searching level, so that
every worker starts with them and shares their memory with the others. Then it freezes what it holds
(`gc.freeze`), so that the workers' garbage collections leave those pages shared too.

Its work is done at import, because importing is the one thing a fork server does before it forks
(`multiprocessing.set_forkserver_preload`). Nothing here may stop the import: a fork server that
cannot warm up still forks sound workers, which then load what they need themselves.
"""

from __future__ import annotations

import gc
import logging

from ..bots import BUILTIN
from ..bots.levels import LEVELS
from ..game import Bid, Game, Phase, Roll
from ..preparing import preparing
from ..sim.positions import warmup as warm_positions
from ..workers import one_blas_thread
from .botpool import decide, made

__all__ = ["warm_up"]

log = logging.getLogger("minodice.server")


def warm_up(seats: int = 4) -> None:
    """Play the first hand of a game with each searching level at every seat (its bids and rolls)."""
    one_blas_thread()  # before the first matrix product, so that the forked workers inherit the limit
    for level in LEVELS:
        if BUILTIN.info(level.spec.name).instant:
            continue
        game = Game(seats, seed="warm-up")
        bots = {s: made(level.name, f"warm-up:{s}", game.setup_view(s)) for s in range(seats)}
        try:
            while not game.over and len(game.log) == 1:
                seat = game.to_act()[0]
                what = "bid" if game.phase is Phase.BID else "roll"
                answer = decide(bots[seat], game.observe(seat), what)
                game.apply(Bid(seat, answer) if what == "bid" else Roll(seat, answer))
        finally:
            for bot in bots.values():
                bot.close()


try:
    # A first run (before `minodice warm`) compiles the kernels here; the server's terminal is told. The first
    # hand asks no search of the network's playouts: their vector kernels are warmed apart.
    with preparing("the bots", 15):
        warm_up()
        warm_positions()
except Exception as exc:  # the workers will load what they need themselves
    log.warning("the bots' fork server could not warm up (%s): each worker loads the bots itself",
                type(exc).__name__)
# What the workers inherit goes to the collector's permanent generation: their collections then never
# write to those objects' headers, so the pages stay shared (a worker held 48-55 MB of its own after four
# tables of expert bots, 23-30 MB frozen: `benchmarks/bench_server.py` private_peak_kib, docs/performance.md).
gc.collect()
gc.freeze()
