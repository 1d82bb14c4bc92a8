"""What every worker process minodice spawns needs: to end with the process that started it, and to keep
numpy's matrix products to one thread.

A pool's worker waits on a queue that it holds both ends of, so when the process that started it is
killed (`kill`, `timeout`, the OOM killer: anything but Ctrl-C, which reaches the whole process group)
nothing wakes it, and it stays, holding its memory, for good. `start_worker` is the `initializer` of
every pool here (the server's bots and reviews, `analyze --jobs`, `train --expert --jobs`): a thread
in the worker waits on its parent's sentinel and ends the worker the moment the parent is gone. (The
tournament's workers only take `one_blas_thread`: they check for their driver between games, so that
they close their external bots' programs before they go.)
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import threading

__all__ = ["end_with_parent", "one_blas_thread", "start_worker"]


def one_blas_thread() -> None:
    """Run this process's matrix products (numpy's BLAS) on one thread: a pool already has a process per core.

    Left at one thread per core in each of `jobs` processes, the learned bots' small products oversubscribe
    the cores and wait on each other: the expert level took 24 ms a decision in two workers on two cores,
    6 ms with this (40 games against greedy, seed 5).
    """
    import numpy  # noqa: F401 - loads the BLAS library, so that the limit applies to it
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1, user_api="blas")


def end_with_parent() -> None:
    """End this process at once when the process that started it is gone (a thread waits for that);
    nothing happens in a process that was not started by `multiprocessing`."""
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_when_gone, args=(parent.sentinel,), daemon=True,
                         name="minodice-parent").start()


def _exit_when_gone(sentinel: int) -> None:
    multiprocessing.connection.wait([sentinel])
    os._exit(0)


def start_worker() -> None:
    """A pool worker's set-up (the pool's `initializer`): one BLAS thread, and an end with its parent."""
    one_blas_thread()
    end_with_parent()
