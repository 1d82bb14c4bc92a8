"""A score sheet for a game played with real dice: enter bids, tricks and bonuses, get the totals.

The sheet only records what the table says happened; it refuses entries that
cannot have happened (tricks that do not add up, bonuses the dice cannot give)
and leaves the points to `minodice.rules.hand_score`, so the scoring lives in
one place.

>>> sheet = ScoreSheet(["Ana", "Ben", "Cy"])
>>> sheet.enter([Entry(bid=1, won=1), Entry(bid=0, won=0), Entry(bid=1, won=0)])
1
>>> sheet.totals()
[20, 10, -10]
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..dice import BAG_COUNTS, MAX_SEATS, MIN_SEATS, Die, hands_for
from ..rules import RULE_OPTIONS, RuleError, Rules, hand_score, places

__all__ = [
    "FORMAT",
    "GRIFFIN_BONUS",
    "MERMAID_BONUS",
    "Entry",
    "ScoreSheet",
    "SheetError",
    "check_count",
    "max_griffin_bonuses",
]

#: The `format` field of a saved sheet.
FORMAT = "minodice-sheet/1"
#: Points for a trick won with a mermaid face in which the minotaur face was rolled.
MERMAID_BONUS = 50
#: Points for each griffin face rolled in a trick won with the minotaur face.
GRIFFIN_BONUS = 30

_ENTRY_KEYS = {"bid", "won", "mermaid", "griffins"}


class SheetError(ValueError):
    """An entry or a saved sheet the score sheet refuses; the message says who and why."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One player's line for one hand: bid, tricks won, and the bonuses scored.

    `mermaid` is the +50 (the player's mermaid captured the minotaur);
    `griffins` counts the +30s (griffins beaten by the player's minotaur).
    """

    bid: int
    won: int
    mermaid: bool = False
    griffins: int = 0

    @property
    def bonus(self) -> int:
        """The bonus points this line claims (they count only when the bid is made)."""
        return MERMAID_BONUS * self.mermaid + GRIFFIN_BONUS * self.griffins

    def to_dict(self) -> dict[str, Any]:
        """JSON form, as written in a saved sheet."""
        return {"bid": self.bid, "won": self.won, "mermaid": self.mermaid, "griffins": self.griffins}


def check_count(player: str, what: str, value: object, dice: int) -> int:
    """`value` as a bid or a number of tricks for a hand of `dice` dice, or a SheetError naming `player`."""
    if type(value) is not int:
        raise SheetError(f"{player}'s {what} must be a whole number from 0 to {dice}, not {value!r}")
    if not 0 <= value <= dice:
        raise SheetError(
            f"{player}'s {what} cannot be {value}: this hand has {_dice(dice)}, so it goes from 0 to {dice}"
        )
    return value


def _dice(n: int) -> str:
    """ "1 die", "2 dice" … for messages."""
    return f"{n} {'die' if n == 1 else 'dice'}"


def max_griffin_bonuses(players: int) -> int:
    """Most +30s one hand can give: one per griffin die, and the minotaur's trick has players − 1 other dice."""
    return min(BAG_COUNTS[Die.GRIFFIN], players - 1)


class ScoreSheet:
    """The sheet of one game: players in seat order, a scoring variant, and the hands entered so far."""

    def __init__(self, players: Sequence[str], scoring: str = "standard") -> None:
        self.players: tuple[str, ...] = _checked_players(players)
        self.rules: Rules = _checked_rules(scoring)
        #: How many hands the game has (8 for 3–4 players, 7 for 5, 6 for 6).
        self.hand_count: int = hands_for(len(self.players))
        self._hands: list[tuple[Entry, ...]] = []

    # --- reading ---------------------------------------------------------------------

    @property
    def scoring(self) -> str:
        """The scoring variant: "standard" or "landlubber"."""
        return self.rules.scoring

    @property
    def hands(self) -> tuple[tuple[Entry, ...], ...]:
        """The hands entered so far, each one Entry per player in seat order."""
        return tuple(self._hands)

    @property
    def finished(self) -> bool:
        """True once every hand of the game is entered."""
        return len(self._hands) == self.hand_count

    @staticmethod
    def dice(hand: int) -> int:
        """Dice each player holds in hand number `hand` (1-based): hand n deals n dice."""
        return hand

    def hand_scores(self, hand: int) -> list[int]:
        """Each player's points for hand number `hand` (1-based)."""
        entries = self._hands[self._index(hand)]
        n = self.dice(hand)
        return [hand_score(e.bid, e.won, n, e.bonus, self.rules) for e in entries]

    def running_totals(self) -> list[list[int]]:
        """Each player's total after each hand entered (one list per hand)."""
        totals = [0] * len(self.players)
        rows = []
        for hand in range(1, len(self._hands) + 1):
            totals = [t + s for t, s in zip(totals, self.hand_scores(hand))]
            rows.append(totals)
        return rows

    def totals(self) -> list[int]:
        """Each player's total so far (all 0 before the first hand)."""
        rows = self.running_totals()
        return rows[-1] if rows else [0] * len(self.players)

    def leaders(self) -> list[str]:
        """The player or players with the highest total so far."""
        totals = self.totals()
        best = max(totals)
        return [p for p, t in zip(self.players, totals) if t == best]

    def places(self) -> list[int]:
        """Each player's place (1 = first) by the totals so far; equal totals share a place."""
        return places(self.totals())

    # --- writing ---------------------------------------------------------------------

    def enter(self, entries: Mapping[str, Entry] | Sequence[Entry]) -> int:
        """Enter the next hand (by player name, or one Entry per seat); return its number.

        An impossible hand raises SheetError and leaves the sheet as it was.
        """
        if self.finished:
            raise SheetError(
                f"all {self.hand_count} hands of this game are already entered: "
                "undo or correct a hand instead"
            )
        hand = len(self._hands) + 1
        self._hands.append(self.validate(hand, entries))
        return hand

    def replace(self, hand: int, entries: Mapping[str, Entry] | Sequence[Entry]) -> None:
        """Correct hand number `hand` (1-based); checked like a new entry, refused entries change nothing."""
        index = self._index(hand)
        self._hands[index] = self.validate(hand, entries)

    def undo(self) -> int:
        """Remove the last hand entered; return its number."""
        if not self._hands:
            raise SheetError("there is no hand to undo: none has been entered yet")
        self._hands.pop()
        return len(self._hands) + 1

    def validate(self, hand: int, entries: Mapping[str, Entry] | Sequence[Entry]) -> tuple[Entry, ...]:
        """The entries of hand `hand` in seat order if they can have happened, else a SheetError."""
        n = self.dice(hand)
        lines = self._in_seat_order(entries)
        for player, entry in zip(self.players, lines):
            _check_line(player, entry, n)
        _check_tricks(self.players, lines, n)
        _check_bonuses(self.players, lines, self.rules, max_griffin_bonuses(len(self.players)))
        return lines

    def _in_seat_order(self, entries: Mapping[str, Entry] | Sequence[Entry]) -> tuple[Entry, ...]:
        """`entries` as one Entry per seat; a missing, unknown or extra player is refused."""
        if isinstance(entries, Mapping):
            unknown = [str(k) for k in entries if k not in self.players]
            if unknown:
                raise SheetError(f"{', '.join(unknown)} is not playing: the players are {', '.join(self.players)}")
            missing = [p for p in self.players if p not in entries]
            if missing:
                raise SheetError(f"the hand has no line for {', '.join(missing)}")
            lines = tuple(entries[p] for p in self.players)
        else:
            lines = tuple(entries)
            if len(lines) != len(self.players):
                raise SheetError(f"a hand needs one line per player ({len(self.players)}), not {len(lines)}")
        for player, entry in zip(self.players, lines):
            if not isinstance(entry, Entry):
                raise SheetError(f"{player}'s line is not a bid, tricks and bonuses")
        return lines

    def _index(self, hand: object) -> int:
        """The list index of hand number `hand`, which must have been entered."""
        if type(hand) is not int or not 1 <= hand <= len(self._hands):
            entered = f"hands 1 to {len(self._hands)}" if self._hands else "no hands yet"
            raise SheetError(f"there is no hand {hand!r} on the sheet: it has {entered}")
        return hand - 1

    # --- saving ----------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """JSON form: format, players, scoring and the hands (one list of lines per hand)."""
        return {
            "format": FORMAT,
            "players": list(self.players),
            "scoring": self.scoring,
            "hands": [[e.to_dict() for e in hand] for hand in self._hands],
        }

    def to_json(self) -> str:
        """The sheet as JSON text (what `from_json` reads back)."""
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n"

    @classmethod
    def from_dict(cls, data: object) -> ScoreSheet:
        """A sheet from its JSON form, every hand checked again; anything wrong is a SheetError."""
        if not isinstance(data, dict):
            raise SheetError("a score sheet is a JSON object with players, scoring and hands")
        if data.get("format") != FORMAT:
            raise SheetError(f"this is not a Mino Dice score sheet (its format is not {FORMAT!r})")
        players = data.get("players")
        if not isinstance(players, list):
            raise SheetError("the sheet's players must be a list of names")
        sheet = cls(players, data.get("scoring", "standard"))  # type: ignore[arg-type]
        hands = data.get("hands", [])
        if not isinstance(hands, list):
            raise SheetError("the sheet's hands must be a list")
        if len(hands) > sheet.hand_count:
            raise SheetError(f"the sheet has {len(hands)} hands, but the game has only {sheet.hand_count}")
        for number, hand in enumerate(hands, start=1):
            try:
                sheet.enter(_lines_from_json(hand, len(sheet.players)))
            except SheetError as exc:
                raise SheetError(f"hand {number}: {exc}") from None
        return sheet

    @classmethod
    def from_json(cls, text: str | bytes) -> ScoreSheet:
        """A sheet from the text `to_json` wrote; broken or tampered text is a SheetError."""
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
            raise SheetError(f"the score sheet is not valid JSON ({exc})") from None
        return cls.from_dict(data)

    def to_csv(self) -> str:
        """One row per hand and player (with running totals), then a totals section with places."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["hand", "dice", "player", "bid", "won", "bonus", "hand score", "total"])
        for hand, (entries, totals) in enumerate(zip(self._hands, self.running_totals()), start=1):
            for player, entry, score, total in zip(self.players, entries, self.hand_scores(hand), totals):
                writer.writerow([hand, self.dice(hand), player, entry.bid, entry.won, entry.bonus, score, total])
        writer.writerow([])
        writer.writerow(["player", "total", "place"])
        for player, total, place in zip(self.players, self.totals(), self.places()):
            writer.writerow([player, total, place])
        return out.getvalue()


# --- checks ----------------------------------------------------------------------------


def _checked_players(players: object) -> tuple[str, ...]:
    """3 to 6 distinct, non-empty, printable names (trimmed), or a SheetError."""
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise SheetError("the players must be a list of names")
    names = []
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise SheetError(f"every player needs a name, not {name!r}")
        if not name.isprintable():
            raise SheetError(f"the name {name!r} has characters that cannot be shown")
        names.append(name.strip())
    if not MIN_SEATS <= len(names) <= MAX_SEATS:
        raise SheetError(f"Mino Dice is played by {MIN_SEATS} to {MAX_SEATS} players, not {len(names)}")
    folded = [n.casefold() for n in names]
    for i, name in enumerate(names):
        if folded[i] in folded[:i]:
            raise SheetError(f"two players are called {name}: give every player a different name")
    return tuple(names)


def _checked_rules(scoring: object) -> Rules:
    """Rules for the scoring variant `scoring`, or a SheetError naming the choices."""
    if not isinstance(scoring, str):
        raise SheetError("the scoring must be " + " or ".join(RULE_OPTIONS["scoring"][0]))
    try:
        return Rules(scoring=scoring)
    except RuleError as exc:
        raise SheetError(str(exc)) from None


def _check_line(player: str, entry: Entry, dice: int) -> None:
    """Bid and tricks within 0..dice, and bonus fields of the right kind."""
    check_count(player, "bid", entry.bid, dice)
    check_count(player, "tricks won", entry.won, dice)
    if type(entry.mermaid) is not bool:
        raise SheetError(f"{player}'s +50 must be yes or no, not {entry.mermaid!r}")
    if type(entry.griffins) is not int or entry.griffins < 0:
        raise SheetError(f"{player}'s number of +30 bonuses must be a whole number of 0 or more, not {entry.griffins!r}")


def _check_tricks(players: Sequence[str], lines: Sequence[Entry], dice: int) -> None:
    """Every trick of the hand has exactly one winner, so the tricks add up to the dice."""
    won = sum(e.won for e in lines)
    if won != dice:
        each = ", ".join(f"{p} {e.won}" for p, e in zip(players, lines))
        raise SheetError(
            f"the tricks add up to {won} ({each}), but a hand of {_dice(dice)} has exactly "
            f"{dice} {'trick' if dice == 1 else 'tricks'}"
        )


def _check_bonuses(players: Sequence[str], lines: Sequence[Entry], rules: Rules, most_griffins: int) -> None:
    """Bonuses only for a made non-zero bid, and no more than the one minotaur die can give in a hand."""
    claimed = [(p, e) for p, e in zip(players, lines) if e.mermaid or e.griffins]
    if not claimed:
        return
    if rules.landlubber:
        raise SheetError(f"{claimed[0][0]} has a bonus, but landlubber scoring has no bonuses")
    for player, entry in claimed:
        _check_bonus_earned(player, entry)
    mermaids = [p for p, e in claimed if e.mermaid]
    griffins = [p for p, e in claimed if e.griffins]
    if len(mermaids) > 1:
        raise SheetError(
            f"{' and '.join(mermaids)} both have a +50, but there is one minotaur, so one +50 a hand at most"
        )
    if mermaids and griffins:
        raise SheetError(
            f"{mermaids[0]} has a +50 and {' and '.join(griffins)} a +30: the one minotaur die cannot both "
            "be captured by a mermaid (+50) and win its trick (+30) in the same hand"
        )
    if len(griffins) > 1:
        raise SheetError(
            f"{' and '.join(griffins)} all have +30s, but they all come from the one trick the minotaur "
            "won, so only one player can have them"
        )
    count = sum(e.griffins for _, e in claimed)
    if count > most_griffins:
        raise SheetError(
            f"{griffins[0]} has {count} +30 bonuses, but with {len(players)} players a minotaur's trick "
            f"can hold at most {most_griffins} griffins"
        )


def _check_bonus_earned(player: str, entry: Entry) -> None:
    """A bonus needs a trick won and a non-zero bid made exactly."""
    what = "a +50" if entry.mermaid else "a +30"
    if entry.won == 0:
        raise SheetError(f"{player} has {what}, but won no trick: a bonus comes with a trick won")
    if entry.bid == 0:
        raise SheetError(f"{player} has {what}, but bid zero: bonuses never count on a zero bid")
    if entry.won != entry.bid:
        raise SheetError(
            f"{player} has {what}, but bid {entry.bid} and won {entry.won}: "
            "bonuses count only when the bid is made exactly"
        )


def _lines_from_json(hand: object, players: int) -> list[Entry]:
    """The Entry lines of one saved hand; wrong shapes or fields are a SheetError."""
    if not isinstance(hand, list) or len(hand) != players:
        raise SheetError(f"a hand must be a list of {players} lines, one per player")
    lines = []
    for seat, line in enumerate(hand, start=1):
        if not isinstance(line, dict):
            raise SheetError(f"line {seat} must be an object with bid and won")
        unknown = set(line) - _ENTRY_KEYS
        if unknown:
            raise SheetError(f"line {seat} has unknown fields: {', '.join(sorted(map(str, unknown)))}")
        if "bid" not in line or "won" not in line:
            raise SheetError(f"line {seat} needs both bid and won")
        lines.append(Entry(line["bid"], line["won"], line.get("mermaid", False), line.get("griffins", 0)))
    return lines
