"""Tournaments between bots, with honest statistics.

Duplicate play (every deal once per rotation of the entrants, same dice and
faces by seat position) cancels luck; statistics are paired by deal; games
run in this process, a local process pool or on Ray, with identical results.

- `config`: entrants and the tournament's settings, validated up front;
- `duplicate`: the chance source that replays a deal;
- `schedule`: which games, who sits where, every seed;
- `play`: the worker that plays games (bots, faults, timing);
- `backends`: inline, process pool, Ray;
- `stats`: means, paired t-intervals, ranks, wins, openskill ratings;
- `report`: the rich tables, JSON and plot;
- `run`: all of the above in order;
- `botcheck`: the harness that checks one bot against the protocol (`minodice bot-check`).

The `tournament` and `bot-check` commands are in `minodice.cli.tournament`.

The statistics and the runner are imported on first use, so that
`minodice --help` does not pay for openskill and process pools.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# Light modules, imported at once (this also keeps the name `schedule` the function, not the module).
from .config import Entrant, TournamentConfig, TournamentError, entrants_from_specs
from .duplicate import DuplicateChance
from .play import GameResult, SeatResult
from .schedule import GameSpec, schedule

if TYPE_CHECKING:
    from .run import Outcome, run_tournament
    from .stats import Summary, summarize

#: Heavier names (openskill, process pools), imported on first use.
_LAZY = {"Outcome": "run", "run_tournament": "run", "Summary": "stats", "summarize": "stats"}

__all__ = [
    "DuplicateChance",
    "Entrant",
    "GameResult",
    "GameSpec",
    "Outcome",
    "SeatResult",
    "Summary",
    "TournamentConfig",
    "TournamentError",
    "entrants_from_specs",
    "run_tournament",
    "schedule",
    "summarize",
]


def __getattr__(name: str) -> Any:
    home = _LAZY.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{home}", __name__), name)
