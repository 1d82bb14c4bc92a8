"""The server's knobs, in one frozen object passed from the command line to every part."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    """How a server runs.

    `turn_timeout`: seconds an absent player's turn waits before a bot plays
    for them; `bot_delay`: seconds a bot waits before each move (so people can
    follow; 0 in tests); `idle_minutes`: a table nobody watches expires after
    this long without activity; `workers`: threads the bots think in.
    """

    db: str = "sqlite:///minodice.db"
    turn_timeout: float = 60.0
    bot_delay: float = 0.8
    idle_minutes: float = 120.0
    workers: int = 4
    stand_in: str = "greedy"
    max_message: int = 4096
    flood_warn: int = 20  # messages per second before `flood` errors
    flood_close: int = 40  # messages per second before the socket is closed
    max_bad: int = 20  # bad messages per connection before it is closed
    hello_timeout: float = 10.0
    sweep_seconds: float = 30.0
