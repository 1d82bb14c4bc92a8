"""What a tournament is: its entrants, how many games, which rules and seed — checked up front.

Everything a worker needs to play any game of the tournament is in one small,
picklable `TournamentConfig`, so every backend (in-process, process pool, Ray)
plays exactly the same games from it.

>>> config = TournamentConfig(entrants_from_specs(["greedy", "random", "greedy"]), games=6, seed=1)
>>> [e.name for e in config.entrants], config.deals
(['greedy#1', 'random', 'greedy#2'], 2)
"""

from __future__ import annotations

import os
import shlex
import shutil
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..analysis import MAX_LUCK_PLAYOUTS
from ..bots import BotSpecError, make_bot
from ..codes import quoted
from ..dice import MAX_SEATS, MIN_SEATS
from ..rules import Rules

__all__ = ["Entrant", "TournamentConfig", "TournamentError", "check_spec", "entrants_from_specs"]


class TournamentError(ValueError):
    """A tournament that cannot be run as asked; the message says why, in words for the user."""


@dataclass(frozen=True)
class Entrant:
    """One contestant: the name shown in tables and records, and the bot spec that plays it."""

    name: str
    spec: str


def check_spec(spec: str, *, timeout: float = 10.0) -> str:
    """Check that `spec` names a bot (and, for `cmd:`, a program that exists); return its base name.

    Raises TournamentError saying why not. No external program is started.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise TournamentError("a bot spec is empty: name a bot such as 'greedy' or 'cmd:python3 bot.py'")
    try:
        bot = make_bot(spec, seed=0, timeout=timeout)
    except BotSpecError as exc:  # it names the bot and the option at fault
        raise TournamentError(str(exc)) from None
    except ValueError as exc:
        raise TournamentError(f"{quoted(spec)}: {exc}") from None
    try:
        if spec.startswith("cmd:"):
            argv = shlex.split(spec[4:])  # make_bot has split it already: this cannot fail now
            program = argv[0]
            if shutil.which(program) is None and not (os.sep in program and Path(program).is_file()):
                raise TournamentError(f"{quoted(spec)}: the program {quoted(program)} was not found")
            return bot.name  # the program's short name (its own name comes with its hello)
        return spec.strip()
    finally:
        bot.close()


def entrants_from_specs(specs: Sequence[str], *, timeout: float = 10.0) -> tuple[Entrant, ...]:
    """One entrant per spec, in seat order, each spec checked; equal names get #1, #2, …"""
    bases = []
    for i, spec in enumerate(specs, start=1):
        try:
            bases.append(check_spec(spec, timeout=timeout))
        except TournamentError as exc:
            raise TournamentError(f"--seat {i}: {exc}") from None
    counts = Counter(bases)
    seen: Counter[str] = Counter()
    out = []
    for base, spec in zip(bases, specs):
        if counts[base] > 1:
            seen[base] += 1
            name = f"{base}#{seen[base]}"
        else:
            name = base
        out.append(Entrant(name, spec.strip()))
    return tuple(out)


@dataclass(frozen=True)
class TournamentConfig:
    """A tournament: `entrants` (one per seat), `games` to play, the rules, the seed.

    In `duplicate` mode (the default) every deal is played once per rotation of
    the entrants over the seats, so `games` must be a multiple of the seat count.
    `timeout` is an external bot's time per decision; `records` asks workers to
    return each game's `minodice/1` record; `luck`, playouts a face, asks them to
    take the luck of the faces out of each score too (`analysis.luck`; 0: not).
    """

    entrants: tuple[Entrant, ...]
    games: int
    seed: int
    duplicate: bool = True
    rules: Rules = field(default_factory=Rules)
    timeout: float = 10.0
    records: bool = False
    luck: int = 0
    #: Working directory for external programs (relative paths in `cmd:` specs).
    cwd: str | None = None

    def __post_init__(self) -> None:
        n = len(self.entrants)
        if not MIN_SEATS <= n <= MAX_SEATS:
            raise TournamentError(
                f"a tournament needs {MIN_SEATS} to {MAX_SEATS} entrants (one per seat, "
                f"given with --seat), not {n}"
            )
        if len({e.name for e in self.entrants}) != n:
            raise TournamentError("entrant names must differ")
        if not isinstance(self.games, int) or self.games < 1:
            raise TournamentError(f"--games must be at least 1, not {self.games}")
        if self.duplicate and self.games % n:
            lower, upper = self.games - self.games % n, self.games - self.games % n + n
            hint = f"--games {lower} or {upper}" if lower else f"--games {upper}"
            raise TournamentError(
                f"--games {self.games} is not a multiple of the {n} seats: duplicate mode plays each "
                f"deal once per rotation of the entrants ({n} games per deal). Use {hint}, "
                f"or --no-duplicate for independent games"
            )
        if isinstance(self.luck, bool) or not isinstance(self.luck, int) or not 0 <= self.luck <= MAX_LUCK_PLAYOUTS:
            # A bool is an int in Python: luck=True would quietly mean one playout a face.
            raise TournamentError(f"--luck-playouts must be a whole number from 0 to {MAX_LUCK_PLAYOUTS:,}, "
                                  f"not {self.luck!r}")
        if not self.timeout > 0:
            raise TournamentError(f"--timeout must be more than 0 seconds, not {self.timeout}")

    @property
    def seats(self) -> int:
        """Seats at the table (= entrants)."""
        return len(self.entrants)

    @property
    def deals(self) -> int:
        """Deals played: each is a unit of the paired statistics (a game, without duplicate)."""
        return self.games // self.seats if self.duplicate else self.games
