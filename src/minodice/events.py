"""What happened in a game, as a log that interfaces render and records are built from.

Each event knows who may see it: `for_viewer(seat)` gives the copy a seat (or,
with None, a spectator) may see, with other seats' dice and unrevealed bids
removed. Interfaces only ever send such copies.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from .dice import Die, Face, jsonable


@dataclass(slots=True)
class Event:
    """Base class of the event log entries."""

    kind = "event"

    def for_viewer(self, viewer: int | None) -> Event:
        """The copy of this event that `viewer` (a seat, or None for spectators) may see."""
        return self

    def to_dict(self) -> dict[str, Any]:
        """JSON form: {"type": kind, ...fields}."""
        names = _FIELDS.get(type(self))
        if names is None:  # once per class: `fields()` is slow, and servers send every event to every seat
            names = _FIELDS[type(self)] = tuple(f.name for f in fields(self))
        out: dict[str, Any] = {"type": self.kind}
        for name in names:
            out[name] = jsonable(getattr(self, name))
        return out


#: The field names of each kind of event, in order (filled in by `Event.to_dict`).
_FIELDS: dict[type, tuple[str, ...]] = {}


@dataclass(slots=True)
class DiceDrawn(Event):
    """Hand `hand` began: every seat drew its dice (None where the viewer may not see them)."""

    hand: int
    start: int
    dice: tuple[tuple[Die, ...] | None, ...]
    kind = "drawn"

    def for_viewer(self, viewer: int | None) -> DiceDrawn:
        return DiceDrawn(
            self.hand, self.start, tuple(d if s == viewer else None for s, d in enumerate(self.dice))
        )


@dataclass(slots=True)
class BidPlaced(Event):
    """A seat committed its bid (the value is hidden from others until all are in)."""

    seat: int
    bid: int | None
    kind = "bid_placed"

    def for_viewer(self, viewer: int | None) -> BidPlaced:
        return self if viewer == self.seat else BidPlaced(self.seat, None)


@dataclass(slots=True)
class BidsRevealed(Event):
    """All bids are in and shown together."""

    bids: tuple[int, ...]
    kind = "bids_revealed"


@dataclass(slots=True)
class Rolled(Event):
    """A seat rolled one of its dice in public and it landed on `face`."""

    seat: int
    die: Die
    face: Face
    trick: int
    kind = "rolled"


@dataclass(slots=True)
class TrickWon(Event):
    """Trick `trick` (1-based) went to `seat` with `face`; `bonus` counts only if its bid is made.

    Why it won is `rules.explain_trick` of the trick's faces (the `Rolled` events).
    """

    trick: int
    seat: int
    face: Face
    bonus: int
    kind = "trick_won"


@dataclass(slots=True)
class HandScored(Event):
    """Hand `hand` ended: its bids, tricks won, bonuses earned, scores and new totals."""

    hand: int
    bids: tuple[int, ...]
    won: tuple[int, ...]
    bonus: tuple[int, ...]
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    kind = "hand_scored"


@dataclass(slots=True)
class GameOver(Event):
    """The last hand is scored: final totals and places (1 = first; ties share)."""

    totals: tuple[int, ...]
    places: tuple[int, ...]
    kind = "game_over"
