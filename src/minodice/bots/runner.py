"""`minodice.bots.runner`: play a game with bots in some seats, ask them, check their answers, report faults.

`Match` is what the terminal game (`minodice.tui`), tournaments and bot-check
(`minodice.tournament`) use to let bots act; the seats without a bot are left
to the caller (a person, say). The web server does not use it: it asks its
bots itself, one decision at a time, between the players' moves
(`minodice.server.tables`).

>>> from minodice.game import Game
>>> from minodice.bots import make_bot
>>> game = Game(3, seed=1)
>>> match = Match(game, {s: make_bot("random", seed=s) for s in range(3)})
>>> match.play().over
True
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from ..codes import quoted
from ..dice import Die
from ..game import Bid, Game, Phase, Roll
from ..view import View
from .base import Bot, BotFault
from .clairvoyance import show_dice

_Choice = TypeVar("_Choice", int, Die)

#: Stderr lines shown under a fault in reports (`Fault.report`).
STDERR_SHOWN = 5


@dataclass(frozen=True)
class Fault:
    """A reported fault: which seat and bot, what went wrong, the offending line, and (for an
    external program that timed out or exited) its last stderr lines."""

    seat: int
    bot: str
    kind: str
    detail: str
    line: str | None = None
    stderr: tuple[str, ...] = ()

    def __str__(self) -> str:
        text = f"{self.bot} (seat {self.seat}): {self.detail}"
        if self.line is not None:
            text += f" — got {self.line[:200]!r}"
        return text

    def report(self, lines: int = STDERR_SHOWN) -> str:
        """The fault on one line, then the program's last `lines` stderr lines, each as `  stderr| …`."""
        shown = self.stderr[-lines:] if lines > 0 else ()
        return "\n".join([str(self), *(f"  stderr| {line}" for line in shown)])


@dataclass
class SeatStats:
    """Decision counts and thinking time of one bot seat."""

    decisions: int = 0
    seconds: float = 0.0
    faults: list[Fault] = field(default_factory=list)


class Match:
    """A game in which the seats in `bots` are played by those bots.

    Call `advance()` whenever it may be a bot's turn: bots act until a seat
    without a bot must act or the game is over. A bot's fault never stops the
    game: the seat plays the first legal answer instead, and the fault goes
    to `on_fault` and `stats[seat].faults`. Clairvoyant bots (a cheating reference such as
    `oracle`) are shown every seat's dice, and only they (`bots.clairvoyance`).
    """

    def __init__(
        self,
        game: Game,
        bots: Mapping[int, Bot],
        *,
        on_fault: Callable[[Fault], None] | None = None,
    ) -> None:
        self.game = game
        self.bots = dict(bots)
        show_dice(self.bots.values(), game)
        self.on_fault = on_fault
        self.stats = {s: SeatStats() for s in self.bots}
        self.replaced: set[int] = set()
        self._started = False
        self._ended = False

    def start(self) -> None:
        """Tell every bot a game begins (once)."""
        if self._started:
            return
        self._started = True
        for seat, bot in self.bots.items():
            self._guard(seat, bot.start_game, self.game.setup_view(seat))

    def advance(self) -> None:
        """Let bots act until a seat without a bot must act, or the game ends."""
        self.start()
        game = self.game
        while not game.over:
            if game.phase is Phase.BID:
                waiting = [s for s in game.to_act() if s in self.bots]
                if not waiting:
                    return
                for seat in waiting:
                    game.apply(Bid(seat, self._decide_bid(seat)))
            elif game.phase is Phase.ROLL:
                seat = game.turn
                if seat not in self.bots:
                    return
                game.apply(Roll(seat, self._decide_roll(seat)))
            else:  # chance supplied from outside: nothing a bot can do
                return
        self.finish()

    def play(self) -> Game:
        """Play the whole game (every seat must have a bot)."""
        missing = [s for s in range(self.game.seats) if s not in self.bots]
        if missing:
            raise ValueError(f"seats {missing} have no bot")
        self.advance()
        return self.game

    def finish(self) -> None:
        """Tell every bot the game is over (once)."""
        if self._ended or not self.game.over:
            return
        self._ended = True
        for seat, bot in self.bots.items():
            self._guard(seat, bot.end_game, self.game.observe(seat))

    def close(self) -> None:
        """Close every bot (ends external programs)."""
        for bot in self.bots.values():
            with contextlib.suppress(Exception):
                bot.close()

    # --- internals ---------------------------------------------------------------

    def _decide_bid(self, seat: int) -> int:
        view = self.game.observe(seat)
        return self._decide(seat, "bid", view.legal_bids, lambda: self.bots[seat].bid(view))

    def _decide_roll(self, seat: int) -> Die:
        view = self.game.observe(seat)
        return self._decide(seat, "roll", view.legal_dice, lambda: self.bots[seat].roll(view))

    def _decide(self, seat: int, what: str, legal: Sequence[_Choice], ask: Callable[[], object]) -> _Choice:
        """The bot's answer if legal; else, or on a fault, the first legal choice (the fault reported)."""
        assert legal, "a bot is asked only when it has a choice"
        if seat in self.replaced:
            return legal[0]
        stats = self.stats[seat]
        began = time.perf_counter()
        try:
            answer = ask()
        except BotFault as fault:
            self._report(seat, fault.kind, fault.detail, fault.line, fault.stderr)
            if fault.fatal:
                self.replaced.add(seat)
            return legal[0]
        except Exception as exc:
            self._report(seat, "error", f"the bot raised {type(exc).__name__}: {exc}")
            return legal[0]
        finally:
            stats.decisions += 1
            stats.seconds += time.perf_counter() - began
        if answer not in legal or isinstance(answer, bool):
            shown = [getattr(x, "value", x) for x in legal]
            self._report(
                seat, "illegal", f"{quoted(getattr(answer, 'value', answer))} is not a legal {what}: legal are {shown}"
            )
            return legal[0]
        return legal[legal.index(answer)]  # the legal value itself (a bot may answer a str for a Die)

    def _guard(self, seat: int, call: Callable[[View], None], view: View) -> None:
        try:
            call(view)
        except BotFault as fault:
            self._report(seat, fault.kind, fault.detail, fault.line, fault.stderr)
            if fault.fatal:
                self.replaced.add(seat)
        except Exception as exc:
            self._report(seat, "error", f"the bot raised {type(exc).__name__}: {exc}")

    def _report(
        self, seat: int, kind: str, detail: str, line: str | None = None, stderr: tuple[str, ...] = ()
    ) -> None:
        fault = Fault(seat, self.bots[seat].name, kind, detail, line, stderr)
        self.stats[seat].faults.append(fault)
        if self.on_fault is not None:
            self.on_fault(fault)
