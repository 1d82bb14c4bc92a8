"""A score sheet for a game played with real dice: enter bids, tricks and bonuses, get the totals.

The sheet only records what the table says happened; it refuses entries that
cannot have happened (tricks that do not add up, bonuses the dice cannot give)
and leaves the points and the bonuses' values to `minodice.rules`, so the
scoring lives in one place. A refusal is a `SheetError` with a code from
`codes.SHEET_REFUSALS` and its params (its `str` is the English words).

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
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .. import jsontext
from ..dice import MAX_SEATS, MIN_SEATS, hands_for
from ..rules import GRIFFIN_BONUS, MERMAID_BONUS, RULE_OPTIONS, Rules, hand_score, max_griffin_bonuses, places
from .refusal import Refusal, rules_or_refusal

__all__ = ["FORMAT", "FORMULA_START", "Entry", "ScoreSheet", "SheetError", "check_count", "formula_safe"]

#: The `format` field of a saved sheet.
FORMAT = "minodice-sheet/1"

_ENTRY_KEYS = {"bid", "won", "mermaid", "griffins"}



#: How a spreadsheet formula can start (OWASP's CSV injection list, and the full-width forms).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")
_WHOLE_NUMBER = re.compile("-?[0-9]+")


def formula_safe(cell: str) -> str:
    """A CSV cell that a spreadsheet shows as the text it is: with a leading apostrophe when it starts like
    a formula (`=cmd|...`, `+1`, `@SUM(1)`, `-2+3`); a whole number (a score of -20) stays a number.

    >>> formula_safe("=cmd|' /C calc'!A0"), formula_safe("-20"), formula_safe("Ana")
    ("'=cmd|' /C calc'!A0", '-20', 'Ana')
    """
    if cell.startswith(FORMULA_START) and not _WHOLE_NUMBER.fullmatch(cell):
        return "'" + cell
    return cell

class SheetError(Refusal):
    """An entry or a saved sheet the score sheet refuses: `code` (in `codes.SHEET_REFUSALS`, or an engine
    code a replay passed on), `params`, and the English words naming who and why.

    `hand`, `trick`, `player` say where a refusal happened (a saved hand, a trick
    entered): they are added to the params as `in_hand`, `in_trick`, `in_player`
    and to the front of the English words ("hand 3, trick 1, Ana's roll: ...").

    >>> e = SheetError("nothing_to_undo")
    >>> e.code, str(e)
    ('nothing_to_undo', 'there is no hand to undo: none has been entered yet')
    >>> str(e.within(hand=3))
    'hand 3: there is no hand to undo: none has been entered yet'
    """

    def __init__(
        self,
        code: str,
        params: Mapping[str, Any] | None = None,
        *,
        message: str | None = None,
        hand: int | None = None,
        trick: int | None = None,
        player: str | None = None,
    ) -> None:
        super().__init__(code, params, message=message)
        #: The English words without where the refusal happened.
        self.words = self.message
        where = {k: v for k, v in (("in_hand", hand), ("in_trick", trick), ("in_player", player)) if v is not None}
        if where:
            self.params.update(where)
            self.message = _where(hand, trick, player) + self.words
            self.args = (self.message,)

    def within(self, *, hand: int, trick: int | None = None, player: str | None = None) -> SheetError:
        """The same refusal, said to have happened in hand `hand` (and trick `trick`, `player`'s roll)."""
        params = {k: v for k, v in self.params.items() if k not in _WHERE}
        return SheetError(self.code, params, message=self.words, hand=hand, trick=trick, player=player)


_WHERE = ("in_hand", "in_trick", "in_player")


def _where(hand: int | None, trick: int | None, player: str | None) -> str:
    """ "hand 3: ", "hand 3, trick 1: ", "hand 3, trick 1, Ana's roll: " (English)."""
    parts = [f"hand {hand}"] if hand is not None else []
    if trick is not None:
        parts.append(f"trick {trick}")
    if player is not None:
        parts.append(f"{player}'s roll")
    return ", ".join(parts) + ": "


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


#: `check_count`'s `what` → (code when not a whole number, code when out of 0..dice).
_COUNT_CODES = {
    "bid": ("bid_not_whole", "bid_beyond_dice"),
    "won": ("won_not_whole", "won_beyond_dice"),
    "tricks won": ("won_not_whole", "won_beyond_dice"),
}


def check_count(player: str, what: str, value: object, dice: int) -> int:
    """`value` as a bid (`what` "bid") or a number of tricks (`what` "won" or "tricks won") for a hand
    of `dice` dice, or a SheetError naming `player`."""
    not_whole, beyond = _COUNT_CODES[what]
    if type(value) is not int:
        raise SheetError(not_whole, {"player": player, "value": repr(value), "dice": dice})
    if not 0 <= value <= dice:
        raise SheetError(beyond, {"player": player, "value": value, "dice": dice})
    return value


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
            raise SheetError("sheet_finished", {"hands": self.hand_count})
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
            raise SheetError("nothing_to_undo")
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
                raise SheetError("player_not_playing", {"name": unknown[0], "players": self.players})
            missing = [p for p in self.players if p not in entries]
            if missing:
                raise SheetError("no_line_for", {"players": missing})
            lines = tuple(entries[p] for p in self.players)
        else:
            lines = tuple(entries)
            if len(lines) != len(self.players):
                raise SheetError("line_count", {"players": len(self.players), "lines": len(lines)})
        for player, entry in zip(self.players, lines):
            if not isinstance(entry, Entry):
                raise SheetError("line_not_entry", {"player": player})
        return lines

    def _index(self, hand: object) -> int:
        """The list index of hand number `hand`, which must have been entered."""
        if type(hand) is not int or not 1 <= hand <= len(self._hands):
            code = "no_such_hand" if self._hands else "no_hand_yet"
            raise SheetError(code, {"hand": repr(hand), "hands": len(self._hands)})
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
            raise SheetError("sheet_not_object")
        if data.get("format") != FORMAT:
            raise SheetError("not_a_sheet", {"format": FORMAT})
        players = data.get("players")
        if not isinstance(players, list):
            raise SheetError("players_not_list")
        sheet = cls(players, data.get("scoring", "standard"))
        hands = data.get("hands", [])
        if not isinstance(hands, list):
            raise SheetError("hands_not_list")
        if len(hands) > sheet.hand_count:
            raise SheetError("too_many_hands", {"hands": len(hands), "most": sheet.hand_count})
        for number, hand in enumerate(hands, start=1):
            try:
                sheet.enter(_lines_from_json(hand, len(sheet.players)))
            except SheetError as exc:
                raise exc.within(hand=number) from None
        return sheet

    @classmethod
    def from_json(cls, text: str | bytes) -> ScoreSheet:
        """A sheet from the text `to_json` wrote; broken or tampered text is a SheetError."""
        try:
            data = jsontext.parse(text)  # the records' strict reader: no repeated key, NaN, BOM, deep nesting
        except jsontext.JSONTextError as exc:
            raise SheetError("not_json", {"error": str(exc)}) from None
        return cls.from_dict(data)

    def to_csv(self) -> str:
        """One row per hand and player (with running totals), then a totals section with places.

        Names that a spreadsheet would run as a formula are written as text (`formula_safe`)."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["hand", "dice", "player", "bid", "won", "bonus", "hand score", "total"])
        for hand, (entries, totals) in enumerate(zip(self._hands, self.running_totals()), start=1):
            for player, entry, score, total in zip(self.players, entries, self.hand_scores(hand), totals):
                writer.writerow(
                    [hand, self.dice(hand), formula_safe(player), entry.bid, entry.won, entry.bonus, score, total]
                )
        writer.writerow([])
        writer.writerow(["player", "total", "place"])
        for player, total, place in zip(self.players, self.totals(), self.places()):
            writer.writerow([formula_safe(player), total, place])
        return out.getvalue()


# --- checks ----------------------------------------------------------------------------


def _checked_players(players: object) -> tuple[str, ...]:
    """3 to 6 distinct, non-empty, printable names (trimmed), or a SheetError."""
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise SheetError("players_not_list")
    names = []
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise SheetError("player_needs_name", {"name": repr(name)})
        if not name.isprintable():
            raise SheetError("name_not_printable", {"name": repr(name)})
        names.append(name.strip())
    if not MIN_SEATS <= len(names) <= MAX_SEATS:
        raise SheetError("player_count", {"low": MIN_SEATS, "high": MAX_SEATS, "count": len(names)})
    folded = [n.casefold() for n in names]
    for i, name in enumerate(names):
        if folded[i] in folded[:i]:
            raise SheetError("same_name", {"name": name})
    return tuple(names)


def _checked_rules(scoring: object) -> Rules:
    """Rules for the scoring variant `scoring`, or a SheetError naming the choices."""
    if not isinstance(scoring, str):
        raise SheetError("scoring_not_text", {"choices": ", ".join(RULE_OPTIONS["scoring"][0])})
    return rules_or_refusal(SheetError, scoring=scoring)


def _check_line(player: str, entry: Entry, dice: int) -> None:
    """Bid and tricks within 0..dice, and bonus fields of the right kind."""
    check_count(player, "bid", entry.bid, dice)
    check_count(player, "won", entry.won, dice)
    if type(entry.mermaid) is not bool:
        raise SheetError("mermaid_not_yes_no", {"player": player, "points": MERMAID_BONUS, "value": repr(entry.mermaid)})
    if type(entry.griffins) is not int or entry.griffins < 0:
        raise SheetError(
            "griffins_not_count", {"player": player, "points": GRIFFIN_BONUS, "value": repr(entry.griffins)}
        )


def _check_tricks(players: Sequence[str], lines: Sequence[Entry], dice: int) -> None:
    """Every trick of the hand has exactly one winner, so the tricks add up to the dice."""
    won = sum(e.won for e in lines)
    if won != dice:
        each = ", ".join(f"{p} {e.won}" for p, e in zip(players, lines))
        raise SheetError("tricks_do_not_add_up", {"won": won, "each": each, "dice": dice})


def _check_bonuses(players: Sequence[str], lines: Sequence[Entry], rules: Rules, most_griffins: int) -> None:
    """Bonuses only for a made non-zero bid, and no more than the one minotaur die can give in a hand."""
    claimed = [(p, e) for p, e in zip(players, lines) if e.mermaid or e.griffins]
    if not claimed:
        return
    if rules.landlubber:
        raise SheetError("bonus_under_landlubber", {"player": claimed[0][0]})
    for player, entry in claimed:
        _check_bonus_earned(player, entry)
    mermaids = [p for p, e in claimed if e.mermaid]
    griffins = [p for p, e in claimed if e.griffins]
    if len(mermaids) > 1:
        raise SheetError("two_mermaid_bonuses", {"players": mermaids, "points": MERMAID_BONUS})
    if mermaids and griffins:
        raise SheetError(
            "mermaid_and_griffin_bonuses",
            {"player": mermaids[0], "players": griffins, "mermaid": MERMAID_BONUS, "griffin": GRIFFIN_BONUS},
        )
    if len(griffins) > 1:
        raise SheetError("griffin_bonuses_split", {"players": griffins, "points": GRIFFIN_BONUS})
    count = sum(e.griffins for _, e in claimed)
    if count > most_griffins:
        raise SheetError(
            "too_many_griffin_bonuses",
            {"player": griffins[0], "count": count, "points": GRIFFIN_BONUS, "seats": len(players),
             "most": most_griffins},
        )


def _check_bonus_earned(player: str, entry: Entry) -> None:
    """A bonus needs a trick won and a non-zero bid made exactly."""
    params = {"player": player, "points": MERMAID_BONUS if entry.mermaid else GRIFFIN_BONUS}
    if entry.won == 0:
        raise SheetError("bonus_without_trick", params)
    if entry.bid == 0:
        raise SheetError("bonus_on_zero_bid", params)
    if entry.won != entry.bid:
        raise SheetError("bonus_bid_missed", {**params, "bid": entry.bid, "won": entry.won})


def _lines_from_json(hand: object, players: int) -> list[Entry]:
    """The Entry lines of one saved hand; wrong shapes or fields are a SheetError."""
    if not isinstance(hand, list) or len(hand) != players:
        raise SheetError("hand_not_list", {"players": players})
    lines = []
    for seat, line in enumerate(hand, start=1):
        if not isinstance(line, dict):
            raise SheetError("line_not_object", {"line": seat})
        unknown = set(line) - _ENTRY_KEYS
        if unknown:
            raise SheetError("line_unknown_fields", {"line": seat, "fields": ", ".join(sorted(map(str, unknown)))})
        if "bid" not in line or "won" not in line:
            raise SheetError("line_needs_bid_and_won", {"line": seat})
        lines.append(Entry(line["bid"], line["won"], line.get("mermaid", False), line.get("griffins", 0)))
    return lines
