"""Run a tournament: schedule the games, play them on a backend, gather, write records, summarise.

>>> from minodice.tournament import TournamentConfig, entrants_from_specs, run_tournament
>>> config = TournamentConfig(entrants_from_specs(["greedy", "random", "random"]), games=3, seed=1)
>>> outcome = run_tournament(config)
>>> outcome.summary.games, [r.index for r in outcome.results]
(3, [0, 1, 2])
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from .. import record as records
from .backends import BACKENDS, run_inline, run_pool, run_ray
from .config import TournamentConfig, TournamentError
from .play import GameResult
from .schedule import schedule
from .stats import Summary, summarize

__all__ = ["Outcome", "prepare_records_dir", "run_tournament"]


@dataclass(frozen=True)
class Outcome:
    """A finished tournament: every game's result (by game index), the statistics, the time taken."""

    results: tuple[GameResult, ...]
    summary: Summary
    seconds: float

    @property
    def games_per_second(self) -> float:
        return len(self.results) / self.seconds if self.seconds > 0 else float("inf")


def prepare_records_dir(path: Path) -> Path:
    """Create the records directory if need be and make sure files can be written in it."""
    path = Path(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".minodice-write-test"
        probe.write_text("", encoding="utf-8")
        probe.unlink()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise TournamentError(f"cannot write game records to {str(path)!r}: {reason}") from None
    return path


def run_tournament(
    config: TournamentConfig,
    *,
    jobs: int = 1,
    backend: str = "local",
    address: str | None = None,
    records_dir: Path | None = None,
    on_game: Callable[[GameResult], None] | None = None,
) -> Outcome:
    """Play every game of `config` and summarise them.

    `jobs` workers play the games (`backend` "local": 1 = in this process, more
    = a spawned process pool; "ray": Ray actors, joining the cluster at
    `address` if given). With `records_dir`, each game is written there as a
    `minodice/1` record. `on_game` is called with each result as it arrives
    (in finishing order: use it for progress).
    """
    if not isinstance(jobs, int) or jobs < 1:
        raise TournamentError(f"--jobs must be at least 1, not {jobs}")
    if backend not in BACKENDS:
        raise TournamentError(f"unknown backend {backend!r}: choose one of {', '.join(BACKENDS)}")
    if address and backend != "ray":
        raise TournamentError("--address joins a Ray cluster: use it with --backend ray")
    if records_dir is not None:
        records_dir = prepare_records_dir(records_dir)
        config = replace(config, records=True)
    if config.cwd is None:
        config = replace(config, cwd=str(Path.cwd()))
    specs = schedule(config)
    names = {spec.index: spec.record_name for spec in specs}
    results: list[GameResult] = []

    def collect(result: GameResult) -> None:
        if result.record is not None and records_dir is not None:
            records.save(result.record, records_dir / names[result.index])
            result = replace(result, record=None)  # written: do not keep it in memory
        results.append(result)
        if on_game is not None:
            on_game(result)

    began = time.perf_counter()
    if backend == "ray":
        run_ray(config, specs, collect, jobs, address)
    elif jobs == 1:
        run_inline(config, specs, collect)
    else:
        run_pool(config, specs, collect, jobs)
    seconds = time.perf_counter() - began
    results.sort(key=lambda g: g.index)
    return Outcome(tuple(results), summarize(config, results), seconds)
