"""Move clocks: how long a person present at a table may take over a decision.

A table is created with a clock speed (the host's choice): `off`, `relaxed`, `normal` or `fast`.
Each decision of a person — a bid, a roll — has `move` seconds free; time past them comes out
of the seat's `bank`, which lasts the whole game. When a decision has used its free time and
the bank too, the table's level bot makes that one decision and the person keeps the seat: the
next decision again has its free seconds (and an empty bank). A move clock starts when the
decision can be seen: after a trick's or a hand's pause (`Settings.trick_pause`, `hand_pause`).

The speeds are those of a turn-based site's real-time games (Board Game Arena's "normal" and
"fast" give a reflection time per move and a reserve of about this size; a decision in Mino
Dice — a bid, one die — takes seconds):

| speed | a decision | bank (the whole game) |
|---|---|---|
| `relaxed` | 60 s | 3 min |
| `normal` | 30 s | 90 s |
| `fast` | 15 s | 45 s |

The bank is stored with the seat (`SeatRow.bank`) whenever a decision dips into it, so a restart
keeps it; the decision under way when the server stopped starts its free time again (nobody could
move while it was down).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["CLOCKS", "DEFAULT_LEVEL", "Clock", "find_clock"]


@dataclass(frozen=True)
class Clock:
    """A clock speed: seconds free per decision (`move`) and the bank that lasts the game (`bank`)."""

    speed: str
    move: float
    bank: float

    def to_dict(self) -> dict[str, Any]:
        """As the TABLE carries it: `{"speed", "move", "bank"}`."""
        return {"speed": self.speed, "move": self.move, "bank": self.bank}


#: The clock speeds a table may have, slowest first (`off`: no clock).
CLOCKS: dict[str, Clock | None] = {
    "off": None,
    "relaxed": Clock("relaxed", 60.0, 180.0),
    "normal": Clock("normal", 30.0, 90.0),
    "fast": Clock("fast", 15.0, 45.0),
}

#: The level that stands in for people at a table created without one, and whose bots their clocks call.
DEFAULT_LEVEL = "medium"


def find_clock(speed: str, scale: float = 1.0) -> Clock | None:
    """The clock of `speed` (None: `off`), its seconds times `scale` (`--clock-scale`); KeyError for a
    speed that is not one."""
    clock = CLOCKS[speed]
    if clock is None or scale == 1.0:
        return clock
    return Clock(clock.speed, clock.move * scale, clock.bank * scale)
