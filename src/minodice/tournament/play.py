"""The worker side of a tournament: play scheduled games with bots, return small results.

A `Worker` lives in one process (the main one, a pool worker or a Ray actor).
In-process bots are made afresh for every game from the game's bot seeds, so a
result never depends on which worker played the game or what it played before;
external programs are started once per worker and reused from game to game
(the protocol lets a host play several games with one program), and closed
by `Worker.close`.
"""

from __future__ import annotations

import contextlib
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .. import record as records
from ..analysis.luck import face_luck
from ..bots import Bot, bot_seed, make_bot
from ..bots.clairvoyance import show_dice
from ..bots.external import ExternalBot
from ..bots.runner import Match
from ..dice import Die
from ..game import Game
from ..rules import hand_score
from ..view import View
from .config import TournamentConfig
from .duplicate import DuplicateChance
from .schedule import GameSpec

__all__ = ["MAX_FAULT_MESSAGES", "GameResult", "SeatResult", "TimedBot", "Worker", "hand_outcomes"]

#: Fault messages kept per seat and game (all are counted).
MAX_FAULT_MESSAGES = 5


class TimedBot(Bot):
    """Wraps a bot and times each of its decisions (Match.stats keeps totals; this keeps each one)."""

    def __init__(self, bot: Bot) -> None:
        super().__init__(bot.rng)
        self.bot = bot
        #: Seconds taken by each decision, in order.
        self.times: list[float] = []

    @property
    def name(self) -> str:
        """The wrapped bot's name (an external program may rename itself in its hello)."""
        return self.bot.name

    @name.setter
    def name(self, value: str) -> None:
        self.bot.name = value

    def start_game(self, view: View) -> None:
        self.bot.start_game(view)

    def bid(self, view: View) -> int:
        began = time.perf_counter()
        try:
            return self.bot.bid(view)
        finally:
            self.times.append(time.perf_counter() - began)

    def roll(self, view: View) -> Die:
        began = time.perf_counter()
        try:
            return self.bot.roll(view)
        finally:
            self.times.append(time.perf_counter() - began)

    def end_game(self, view: View) -> None:
        self.bot.end_game(view)

    def close(self) -> None:
        self.bot.close()

    def describe(self) -> str:
        return self.bot.describe()


@dataclass(frozen=True)
class SeatResult:
    """How one entrant did in one game (everything the statistics need, nothing more)."""

    entrant: int
    total: int
    hands: int
    #: Hands whose bid was made exactly (zero bids included).
    bids_made: int
    #: Bonus points actually scored (on bids made; none under landlubber scoring).
    bonus: int
    decisions: int = 0
    seconds: float = 0.0
    max_seconds: float = 0.0
    fault_count: int = 0
    #: Faults by kind, as (kind, count) pairs.
    fault_kinds: tuple[tuple[str, int], ...] = ()
    #: The first few faults, as (kind, message); a message's lines after the first are the
    #: program's last stderr lines (`Fault.report`).
    faults: tuple[tuple[str, str], ...] = ()
    #: What the faces gave the seat over the game (`analysis.luck`; None unless the tournament asks).
    luck: float | None = None


@dataclass(frozen=True)
class GameResult:
    """One finished game: its place in the schedule, each seat's result, and its record if asked."""

    index: int
    deal: int
    rotation: int
    seats: tuple[SeatResult, ...]
    record: dict[str, Any] | None = None

    @property
    def totals(self) -> list[int]:
        """Final totals in seat order."""
        return [s.total for s in self.seats]


def hand_outcomes(game: Game) -> list[tuple[int, int, int]]:
    """Per seat over the finished hands: (hands, bids made, bonus points scored).

    A bonus is scored only when it changes the hand's score (a non-zero bid made
    exactly, standard scoring): the score with the bonus minus the score without it.
    """
    out = [[0, 0, 0] for _ in range(game.seats)]
    for hand in game.log:
        if hand.scores is None:
            continue
        won = hand.won
        for s in range(game.seats):
            bid = hand.bids[s]
            assert bid is not None
            row = out[s]
            row[0] += 1
            row[1] += bid == won[s]
            row[2] += hand.scores[s] - hand_score(bid, won[s], hand.number, 0, game.rules)
    return [(a, b, c) for a, b, c in out]


class Worker:
    """Plays games of one tournament; keeps external programs running between games."""

    def __init__(self, config: TournamentConfig) -> None:
        self.config = config
        self._kept: dict[int, Bot] = {}  # entrant index -> a bot reused across games (external)

    def _bot(self, entrant: int, seed: str) -> Bot:
        kept = self._kept.get(entrant)
        if kept is not None:
            return kept
        # No stderr log files (one per game would pile up): the faults carry the last lines.
        bot = make_bot(self.config.entrants[entrant].spec, seed=seed, timeout=self.config.timeout, keep_log=False)
        if isinstance(bot, ExternalBot):
            self._kept[entrant] = bot
        return bot

    def play(self, spec: GameSpec) -> GameResult:
        """Play one scheduled game to the end and summarise it."""
        config = self.config
        n = config.seats
        names = [config.entrants[e].name for e in spec.seating]
        chance = DuplicateChance(spec.deal_seed, n) if spec.deal_seed is not None else None
        game = Game(n, names=names, rules=config.rules, seed=spec.seed, chance=chance)
        players = {s: self._bot(e, bot_seed(spec.seed, s)) for s, e in enumerate(spec.seating)}
        show_dice(players.values(), game)  # the timing wrapper hides a clairvoyant bot from Match
        bots = {s: TimedBot(bot) for s, bot in players.items()}
        match = Match(game, bots)
        try:
            match.play()
        finally:
            for seat, bot in bots.items():
                if spec.seating[seat] not in self._kept:
                    bot.close()
        outcomes = hand_outcomes(game)
        record = None
        if config.records or config.luck:
            info = [{"bot": config.entrants[e].spec} for e in spec.seating]
            record = records.from_game(game, seat_info=info)
        luck = face_luck(record, playouts=config.luck).totals if record is not None and config.luck else None
        seats = []
        for s, e in enumerate(spec.seating):
            stats = match.stats[s]
            hands, made, bonus = outcomes[s]
            seats.append(
                SeatResult(
                    entrant=e,
                    total=game.totals[s],
                    hands=hands,
                    bids_made=made,
                    bonus=bonus,
                    decisions=stats.decisions,
                    seconds=stats.seconds,
                    max_seconds=max(bots[s].times, default=0.0),
                    fault_count=len(stats.faults),
                    fault_kinds=tuple(sorted(Counter(f.kind for f in stats.faults).items())),
                    faults=tuple((f.kind, f.report()) for f in stats.faults[:MAX_FAULT_MESSAGES]),
                    luck=luck[s] if luck else None,
                )
            )
        return GameResult(spec.index, spec.deal, spec.rotation, tuple(seats), record if config.records else None)

    def play_many(self, specs: Sequence[GameSpec]) -> list[GameResult]:
        """Play several scheduled games in order."""
        return [self.play(spec) for spec in specs]

    def close(self) -> None:
        """Close the external programs this worker started."""
        kept, self._kept = self._kept, {}
        for bot in kept.values():
            with contextlib.suppress(Exception):  # closing must not fail the tournament
                bot.close()
