"""What one seat knows, and nothing more: the `view` of the bot protocol.

A `View` is built only by `Game.observe`; every interface (terminal, server,
bot protocol, environments) sends it, or its JSON form `to_dict()`, and nothing
else, so hidden information cannot leak through a side door.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from . import rules as R
from .dice import Die, Face, die_named, face_named
from .rules import Rules, TrickState


@dataclass(frozen=True, slots=True)
class RollView:
    """One roll of a trick: who rolled which die, and the face it shows."""

    seat: int
    die: Die
    face: Face


@dataclass(frozen=True, slots=True)
class TrickView:
    """A trick of the current hand; `winner` is None while it is in progress."""

    rolls: tuple[RollView, ...]
    winner: int | None

    def to_dict(self) -> dict[str, Any]:
        """JSON form, as in a view's `tricks`: {"rolls": [{"seat", "die", "face"}, ...], "winner"}."""
        # `_value_` is what the `value` property returns, without the property's call: the server
        # makes this for every seat after every move.
        return {
            "rolls": [{"seat": r.seat, "die": r.die._value_, "face": r.face._value_} for r in self.rolls],
            "winner": self.winner,
        }


@dataclass(frozen=True, slots=True)
class View:
    """A seat's view of the game (`seat` None: the public view for spectators).

    Fields are those of `docs/bot-protocol.md`; `legal` holds bids (ints) while
    this seat must bid, dice while it must roll, and is None otherwise.
    """

    seat: int | None
    seats: int
    names: tuple[str, ...]
    hand: int
    hands: int
    start: int
    rules: Rules
    dice: tuple[Die, ...]
    bid_placed: tuple[bool, ...]
    bids: tuple[int | None, ...]
    won: tuple[int, ...]
    totals: tuple[int, ...]
    tricks: tuple[TrickView, ...]
    leader: int
    legal: tuple[int, ...] | tuple[Die, ...] | None = None

    # --- conveniences (not part of the JSON form) ---
    @property
    def legal_bids(self) -> tuple[int, ...]:
        """The bids this seat may place now: `legal`, typed, while it must bid; else empty.

        >>> from minodice.game import Game
        >>> view = Game(4, seed=7).observe(0)
        >>> view.legal_bids, view.legal_dice
        ((0, 1), ())
        """
        legal = self.legal
        return tuple(x for x in legal if isinstance(x, int)) if legal else ()

    @property
    def legal_dice(self) -> tuple[Die, ...]:
        """The dice this seat may roll now: `legal`, typed, while it must roll; else empty.

        >>> from minodice.game import Bid, Game
        >>> game = Game(4, seed=7)
        >>> for seat in range(4):
        ...     game.apply(Bid(seat, 0))
        >>> view = game.observe(0)
        >>> view.legal_dice == view.dice, view.legal_bids
        (True, ())
        """
        legal = self.legal
        return tuple(x for x in legal if isinstance(x, Die)) if legal else ()

    @property
    def revealed_bids(self) -> tuple[int, ...] | None:
        """Every seat's bid once all are revealed, else None (`bids`, typed)."""
        if None in self.bids:
            return None
        return tuple(b for b in self.bids if b is not None)

    @property
    def bidding(self) -> bool:
        """True while some seat has still to bid in this hand."""
        return not all(self.bid_placed)

    @property
    def current_trick(self) -> TrickView | None:
        """The trick in progress, if one is."""
        if self.tricks and self.tricks[-1].winner is None:
            return self.tricks[-1]
        return None

    @property
    def lead_colour(self) -> Die | None:
        """The lead colour of the trick in progress (None if unset or no trick)."""
        trick = self.current_trick
        return R.lead_colour(r.die for r in trick.rolls) if trick is not None else None

    @property
    def trick_state(self) -> TrickState | None:
        """The rules' answers about the trick in progress (lead, roll leading, why, bonus), if one is."""
        trick = self.current_trick
        if trick is None:
            return None
        return TrickState.of(((r.die, r.face) for r in trick.rolls), self.rules)

    def shown_voids(self) -> list[set[Die]]:
        """Per seat, the colours it has shown it lacks this hand (`rules.voids_shown` of the hand's rolls)."""
        return R.voids_shown(([(r.seat, r.die) for r in t.rolls] for t in self.tricks), self.seats)

    def refusals(self) -> dict[Die, R.Reason]:
        """Each die this seat holds but may not roll now, with the reason (empty when not its turn)."""
        if self.seat is None or self.to_roll != self.seat:
            return {}
        return (self.trick_state or TrickState((), self.rules)).refusals(self.dice)

    @property
    def to_roll(self) -> int | None:
        """The seat whose turn it is to roll, if the hand is in its rolling phase."""
        if self.bidding or self.game_over:
            return None
        trick = self.current_trick
        if trick is None:
            if len(self.tricks) >= self.hand:
                return None
            return self.leader
        return R.roller(self.leader, len(trick.rolls), self.seats)

    @property
    def game_over(self) -> bool:
        """True once the last hand is complete."""
        return (
            self.hand == self.hands
            and len(self.tricks) == self.hand
            and self.tricks[-1].winner is not None
        )

    def to_dict(self, *, tricks: bool = True) -> dict[str, Any]:
        """The JSON object of `docs/bot-protocol.md` ("legal" only when set).

        `tricks=False` leaves "tricks" out, for a caller that sends them its own way (the server
        makes each finished trick's JSON once, not once per seat and move).
        """
        # `_value_` is what the `value` property returns, without the property's call.
        out: dict[str, Any] = {
            "seat": self.seat,
            "seats": self.seats,
            "names": list(self.names),
            "hand": self.hand,
            "hands": self.hands,
            "start": self.start,
            "rules": self.rules.to_dict(),
            "dice": [d._value_ for d in self.dice],
            "bid_placed": list(self.bid_placed),
            "bids": list(self.bids),
            "won": list(self.won),
            "totals": list(self.totals),
        }
        if tricks:
            out["tricks"] = [t.to_dict() for t in self.tricks]
        out["leader"] = self.leader
        if self.legal is not None:
            out["legal"] = [x._value_ if isinstance(x, Die) else x for x in self.legal]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> View:
        """Parse the JSON form (as a bot written in Python receives it); ValueError if malformed."""
        try:
            dice = tuple(_die(d) for d in data["dice"])
            tricks = tuple(
                TrickView(
                    tuple(
                        RollView(int(r["seat"]), _die(r["die"]), _face(r["face"]))
                        for r in t["rolls"]
                    ),
                    t.get("winner"),
                )
                for t in data["tricks"]
            )
            legal_raw = data.get("legal")
            legal: Any = None
            if legal_raw is not None:
                legal = tuple(_die(x) if isinstance(x, str) else int(x) for x in legal_raw)
            return cls(
                seat=data["seat"],
                seats=int(data["seats"]),
                names=tuple(data["names"]),
                hand=int(data["hand"]),
                hands=int(data["hands"]),
                start=int(data["start"]),
                rules=Rules.from_dict(data.get("rules")),
                dice=dice,
                bid_placed=tuple(bool(b) for b in data["bid_placed"]),
                bids=tuple(data["bids"]),
                won=tuple(int(w) for w in data["won"]),
                totals=tuple(int(t) for t in data["totals"]),
                tricks=tricks,
                leader=int(data["leader"]),
                legal=legal,
            )
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"not a minodice view: {exc}") from exc


def _die(name: object) -> Die:
    die = die_named(name)
    if die is None:
        raise ValueError(f"unknown die {name!r}")
    return die


def _face(name: object) -> Face:
    face = face_named(name)
    if face is None:
        raise ValueError(f"unknown face {name!r}")
    return face
