"""Where the games run: in this process, in a local process pool, or on Ray.

Each backend plays the scheduled games with `Worker`s and hands every result
to `on_result` as it arrives (in whatever order games finish); the caller sorts
by game index, so every backend yields the same tournament.

- `run_inline`: one worker in this process (`--jobs 1`).
- `run_pool`: `jobs` spawned worker processes (spawn-safe: only a top-level
  function and picklable data cross the process boundary); each process keeps
  one `Worker` and closes its external programs when it exits — after the last
  game, on Ctrl-C (the game in hand is finished) or when stopped.
- `run_ray`: `jobs` Ray actors, each holding a `Worker`, fed batches of games;
  a local Ray is started (and stopped) unless one is running or `address` names
  a cluster to join.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import queue
import signal
import time
import traceback
from collections.abc import Callable, Sequence
from typing import Any

from ..workers import one_blas_thread
from .config import TournamentConfig, TournamentError
from .play import GameResult, Worker
from .schedule import GameSpec

__all__ = ["BACKENDS", "run_inline", "run_pool", "run_ray"]

#: Backend names accepted by `run_tournament` and `--backend`.
BACKENDS = ("local", "ray")

OnResult = Callable[[GameResult], None]


def run_inline(config: TournamentConfig, specs: Sequence[GameSpec], on_result: OnResult) -> None:
    """Play every game in this process, in order."""
    worker = Worker(config)
    try:
        for spec in specs:
            on_result(worker.play(spec))
    finally:
        worker.close()


# --- the local process pool ----------------------------------------------------------
#
# A small pool of our own rather than concurrent.futures: each process keeps one
# Worker (its external programs) for the whole tournament and closes it on the
# way out, whether the games ran out, the user pressed Ctrl-C, or it was told to stop.

#: Seconds the workers get to finish their current game after Ctrl-C before they are stopped.
STOP_GRACE = 5.0


def _stop_on_sigterm(signum: int, frame: object) -> None:
    raise SystemExit(1)  # unwinds through `finally`: the worker's programs are closed


def _pool_main(config: TournamentConfig, tasks: Any, results: Any, stop: Any) -> None:
    """A pool process: play the batches from `tasks` until a None, sending results back.

    It stops early, between games, when the driver sets `stop` or is gone
    (killed, say): it never plays on for nobody, and never leaves programs behind.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the driver's to handle
    signal.signal(signal.SIGTERM, _stop_on_sigterm)
    one_blas_thread()
    parent = multiprocessing.parent_process()

    def go_on() -> bool:
        return not stop.is_set() and (parent is None or parent.is_alive())

    worker = Worker(config)
    done = False
    try:
        while go_on():
            try:
                batch = tasks.get(timeout=0.5)
            except queue.Empty:
                continue
            if batch is None:
                done = True
                break
            out = []
            for spec in batch:
                if not go_on():
                    break
                out.append(worker.play(spec))
            else:
                results.put(("games", out))
    except Exception:
        results.put(("error", traceback.format_exc()))
    finally:
        worker.close()
        if not done:  # nobody may read what is still buffered: do not wait for it at exit
            results.cancel_join_thread()


def _batches(specs: Sequence[GameSpec], jobs: int, largest: int = 8) -> list[Sequence[GameSpec]]:
    """Split the games into batches: small enough to balance the load, large enough to be cheap."""
    size = max(1, min(largest, len(specs) // (jobs * 8)))
    return [specs[i : i + size] for i in range(0, len(specs), size)]


def run_pool(config: TournamentConfig, specs: Sequence[GameSpec], on_result: OnResult, jobs: int) -> None:
    """Play the games in `jobs` spawned worker processes (at most two batches per worker queued)."""
    context = multiprocessing.get_context("spawn")
    tasks, results, stop = context.Queue(), context.Queue(), context.Event()
    batches = iter(_batches(specs, jobs))
    procs = [
        context.Process(target=_pool_main, args=(config, tasks, results, stop), name=f"minodice-worker-{i}")
        for i in range(jobs)
    ]
    for proc in procs:
        proc.start()

    def feed() -> bool:
        """Queue the next batch (or, when there is none, a stop sign per worker)."""
        batch = next(batches, None)
        if batch is None:
            for _ in range(jobs):
                tasks.put(None)
            return False
        tasks.put(batch)
        return True

    try:
        waiting = 0
        more = True
        while more and waiting < 2 * jobs:
            more = feed()
            waiting += more
        while waiting:
            try:
                kind, payload = results.get(timeout=1.0)
            except queue.Empty:
                if not any(proc.is_alive() for proc in procs):
                    codes = ", ".join(str(proc.exitcode) for proc in procs)
                    raise TournamentError(
                        f"the worker processes stopped (exit codes {codes}) before every game was played. "
                        "Worker processes are spawned: a script that runs a tournament must be a file "
                        "whose top-level code is under `if __name__ == '__main__':`"
                    ) from None
                continue
            if kind == "error":
                raise TournamentError(f"a worker process failed:\n{payload}")
            waiting -= 1
            if more:
                more = feed()
                waiting += more
            for result in payload:
                on_result(result)
    except BaseException:
        stop.set()  # each worker finishes the game in hand, closes its bots and exits
        deadline = time.monotonic() + STOP_GRACE
        while any(proc.is_alive() for proc in procs) and time.monotonic() < deadline:
            with contextlib.suppress(queue.Empty):
                results.get(timeout=0.1)  # drain, so no worker blocks on a full pipe
        for proc in procs:
            if proc.is_alive():
                proc.terminate()  # SIGTERM: the worker still closes its bots
        raise
    finally:
        for proc in procs:
            proc.join(timeout=10)
            if proc.is_alive():
                proc.kill()
                proc.join()
        for q in (tasks, results):
            q.cancel_join_thread()
            q.close()


# --- Ray ---------------------------------------------------------------------------------


class RayWorker:
    """A Ray actor's state: one Worker (run in the driver's directory when the node has it)."""

    def __init__(self, config: TournamentConfig) -> None:
        if config.cwd and os.path.isdir(config.cwd):
            os.chdir(config.cwd)  # relative paths in cmd: specs, as on the command line
        self.worker = Worker(config)

    def play_many(self, specs: Sequence[GameSpec]) -> list[GameResult]:
        return self.worker.play_many(specs)

    def close(self) -> None:
        self.worker.close()


def run_ray(
    config: TournamentConfig,
    specs: Sequence[GameSpec],
    on_result: OnResult,
    jobs: int,
    address: str | None = None,
) -> None:
    """Play the games on `jobs` Ray actors (a local Ray unless one runs or `address` is given)."""
    try:
        import ray
        from ray.util import ActorPool
    except ImportError:
        raise TournamentError(
            "--backend ray needs Ray: pip install 'minodice[ray]' (or pip install ray)"
        ) from None
    started = False
    if not ray.is_initialized():
        options: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "logging_level": logging.WARNING,
        }
        try:
            if address:
                ray.init(address=address, **options)
            else:
                ray.init(num_cpus=jobs, **options)
        except Exception as exc:  # Ray raises many kinds; the message is what matters
            where = f"the Ray cluster at {address}" if address else "a local Ray"
            raise TournamentError(f"could not start {where}: {exc}") from None
        started = True
    actors: list[Any] = []
    try:
        cpus = int(ray.cluster_resources().get("CPU", 0))
        if cpus < jobs:  # each actor takes a CPU: more would wait for ever
            raise TournamentError(f"the Ray cluster has {cpus} CPUs: use --jobs {max(cpus, 1)} or fewer")
        remote = ray.remote(num_cpus=1)(RayWorker)
        actors = [remote.remote(config) for _ in range(jobs)]
        pool = ActorPool(actors)
        batches = _batches(specs, jobs)
        for results in pool.map_unordered(lambda actor, batch: actor.play_many.remote(batch), batches):
            for result in results:
                on_result(result)
        ray.get([actor.close.remote() for actor in actors])
    finally:
        for actor in actors:
            with contextlib.suppress(Exception):
                ray.kill(actor)
        if started:
            ray.shutdown()
