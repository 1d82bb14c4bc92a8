"""The Bot interface: given its seat's view, a bot bids and chooses dice."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from ..dice import Die
from ..view import View


class BotFault(Exception):
    """A bot failed to give a usable answer; `kind` is a stable code.

    kinds: "bad_answer" (not JSON / wrong shape), "illegal" (not in `legal`),
    "timeout", "exited" (the program is gone), "error" (an exception in a bot).
    `fatal` faults replace the bot for the rest of the game; `stderr` holds an
    external program's last stderr lines (for reports, not for a game screen).
    """

    def __init__(
        self, kind: str, detail: str, line: str | None = None, fatal: bool = False, stderr: tuple[str, ...] = ()
    ) -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail
        self.line = line
        self.fatal = fatal
        self.stderr = stderr


class Bot(ABC):
    """A player for one seat. It only ever sees that seat's `View`.

    `bid` is called when `view.legal` holds the allowed bids, `roll` when it
    holds the dice the seat may roll; the answer must be one of `view.legal`
    (the runner checks it and reports a fault otherwise).
    """

    #: Short name shown in tables and records ("greedy", "random", a program's own name).
    name: str = "bot"

    def __init__(self, rng: random.Random | None = None) -> None:
        #: The bot's own seeded random stream (games with bots replay from their seed).
        self.rng = rng or random.Random()

    def start_game(self, view: View) -> None:  # noqa: B027 - optional hook
        """A new game begins (nothing drawn yet)."""

    @abstractmethod
    def bid(self, view: View) -> int:
        """How many tricks to bid this hand (one of `view.legal`)."""

    @abstractmethod
    def roll(self, view: View) -> Die:
        """Which die to roll now (one of `view.legal`)."""

    def end_game(self, view: View) -> None:  # noqa: B027 - optional hook
        """The game is over; `view.totals` are final."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release what the bot holds (an external program, say)."""

    def describe(self) -> str:
        """The spec that makes this bot again (as written in records' `"bot"` key)."""
        return self.name
