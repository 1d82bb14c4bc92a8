"""The server's knobs, in one frozen object passed from the command line to every part."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


def default_workers() -> int:
    """The bot processes a server starts at most unless told: one per core, up to 4 (more processes than
    cores add memory, about 50 MB each, not speed)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(4, cores))


@dataclass(frozen=True)
class Settings:
    """How a server runs.

    `turn_timeout`: seconds an absent player's turn waits before a bot plays
    for them; `bot_delay`: seconds from a bot's turn to its move, whatever its
    thinking took (so people can follow, and the time says nothing of how hard
    the choice was; 0 in tests); `trick_pause`: seconds a finished trick's result stays before the
    next bot rolls (and before the next person's move clock starts); `hand_pause`: seconds more after a
    hand's last trick, for its summary, before the bots bid (both 0 in most tests); `idle_minutes`: a
    table nobody watches expires after
    this long without activity; `workers`: processes the searching bots think in (each started
    when first needed; `botpool.py`) and threads the bid hints are computed in;
    `secret_file`: the key that seals each table's seed and bids in the database
    (None: the SQLite file's name + `.key`; needed for any other database);
    `review_bot`: the bot that judges finished games (`GET /api/tables/{code}/analysis`).
    """

    db: str = "sqlite:///minodice.db"
    secret_file: str | None = None
    turn_timeout: float = 60.0
    bot_delay: float = 0.6
    trick_pause: float = 1.5
    hand_pause: float = 3.0
    clock_scale: float = 1.0  # the move clocks' seconds times this (`clocks.py`)
    idle_minutes: float = 120.0
    workers: int = field(default_factory=default_workers)
    stand_in: str = "greedy"
    review_bot: str = "montecarlo"
    max_message: int = 4096
    flood_warn: int = 20  # messages per second before `flood` errors
    flood_close: int = 40  # messages per second before the socket is closed
    max_bad: int = 20  # bad messages per connection before it is closed
    hello_timeout: float = 10.0
    sweep_seconds: float = 30.0
