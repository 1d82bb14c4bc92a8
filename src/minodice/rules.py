"""The rules of Mino Dice as pure functions (RULES.md is the authority).

Nothing here keeps state or does I/O: the game, the record checker, the
referee and the bots all call these, so each rule lives in exactly one place.

>>> trick_winner([Face.SIX, Face.GRIFFIN, Face.FLAG], Rules())
1
>>> hand_score(bid=3, won=3, dice=5, bonus=0, rules=Rules())
60
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields

from .dice import Die, Face

# --- rule options -----------------------------------------------------------------

#: Every rule option, its allowed values (the first is the default), and what it means.
RULE_OPTIONS: dict[str, tuple[tuple[str, ...], str]] = {
    "scoring": (("standard", "landlubber"), "score sheet: standard, or the landlubber variant"),
    "all_specials": (
        ("mermaid", "minotaur", "griffin"),
        "which special face wins a trick holding all three",
    ),
    "all_flags": (("first", "last"), "who wins a trick in which every face is a flag"),
    "hand_start": (
        ("rotate", "last_winner"),
        "who leads a new hand: the next seat, or the winner of the last trick",
    ),
}


class RuleError(ValueError):
    """A rule option with a value the rules do not know."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule options a table plays with (defaults are RULES.md's decisions)."""

    scoring: str = "standard"
    all_specials: str = "mermaid"
    all_flags: str = "first"
    hand_start: str = "rotate"

    def __post_init__(self) -> None:
        for f in fields(self):
            allowed = RULE_OPTIONS[f.name][0]
            value = getattr(self, f.name)
            if value not in allowed:
                raise RuleError(
                    f"rule {f.name} cannot be {value!r}: choose one of " + ", ".join(allowed)
                )

    @classmethod
    def from_dict(cls, data: Mapping[str, object] | None) -> Rules:
        """Rules from a record's `rules` object; unknown keys are kept out, bad values refused."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise RuleError("rules must be an object of rule options")
        known = {k: v for k, v in data.items() if k in RULE_OPTIONS}
        return cls(**known)  # type: ignore[arg-type]

    def to_dict(self) -> dict[str, str]:
        """All options, as written in records and views."""
        return asdict(self)

    @property
    def landlubber(self) -> bool:
        return self.scoring == "landlubber"


# --- following colour ---------------------------------------------------------------


def lead_colour(dice: Sequence[Die]) -> Die | None:
    """The colour of the first number die rolled in a trick, or None if none was."""
    for die in dice:
        if not die.special:
            return die
    return None


def legal_dice(held: Sequence[Die], lead: Die | None) -> list[Die]:
    """The distinct dice a seat holding `held` may roll when `lead` is the lead colour.

    With a lead colour set, a seat holding a die of that colour must roll that
    colour or a special die; otherwise any die it holds.
    """
    kinds = set(held)
    if lead is not None and lead in kinds:
        kinds = {d for d in kinds if d is lead or d.special}
    return sorted(kinds, key=_die_order)


def breaks_follow(held: Sequence[Die], lead: Die | None, die: Die) -> bool:
    """True when rolling `die` from `held` breaks the colour rule."""
    return lead is not None and not die.special and die is not lead and lead in held


def _die_order(die: Die) -> int:
    return die.index


# --- who wins a trick -----------------------------------------------------------------

#: Each special face and the special face it beats (the trump cycle).
BEATS: dict[Face, Face] = {
    Face.MINOTAUR: Face.GRIFFIN,
    Face.GRIFFIN: Face.MERMAID,
    Face.MERMAID: Face.MINOTAUR,
}
_ALL_SPECIALS_FACE = {"mermaid": Face.MERMAID, "minotaur": Face.MINOTAUR, "griffin": Face.GRIFFIN}


_MINOTAUR, _GRIFFIN, _MERMAID, _FLAG = Face.MINOTAUR, Face.GRIFFIN, Face.MERMAID, Face.FLAG


def winning_face(faces: Sequence[Face], rules: Rules) -> Face:
    """The face that takes the trick (ties between equal faces are settled by position)."""
    m = _MINOTAUR in faces
    g = _GRIFFIN in faces
    r = _MERMAID in faces
    if m or g or r:
        if m and g and r:
            return _ALL_SPECIALS_FACE[rules.all_specials]
        if m:
            return _MERMAID if r else _MINOTAUR
        return _GRIFFIN if g else _MERMAID
    best = faces[0]
    for f in faces:
        if f.number > best.number:
            best = f
    return best


def trick_winner(faces: Sequence[Face], rules: Rules) -> int:
    """Index (in rolling order) of the roll that wins a trick.

    Special faces beat numbers (minotaur > griffin > mermaid > minotaur; all
    three: `rules.all_specials`); else the highest number. Equal faces: the later
    roll wins; a trick of flags only goes to the first (or, by rule, last) roller.
    """
    best = winning_face(faces, rules)
    if best is _FLAG and rules.all_flags == "first":
        return 0
    i = len(faces) - 1
    while faces[i] is not best:
        i -= 1
    return i


def trick_bonus(faces: Sequence[Face], winner: int) -> int:
    """Bonus points the trick's winner earns if its bid is made (RULES.md, "Scoring").

    +50 for a trick won with a mermaid face in which a minotaur face was rolled;
    +30 for each griffin face in a trick won with a minotaur face.
    """
    win = faces[winner]
    if win is _MERMAID:
        return 50 if _MINOTAUR in faces else 0
    if win is _MINOTAUR:
        return 30 * faces.count(_GRIFFIN)
    return 0


def explain_trick(faces: Sequence[Face], rules: Rules) -> str:
    """Why the winning roll wins, in a player's words (no names: the caller adds them)."""
    winner = trick_winner(faces, rules)
    best = faces[winner]
    specials = {f for f in faces if f.special}
    tie = sum(1 for f in faces if f is best) > 1
    if len(specials) == 3:
        why = f"all three special faces were rolled, and by the table's rule the {best} wins"
    elif len(specials) == 2:
        other = next(f for f in specials if f is not best)
        why = f"the {best} beats the {other}"
    elif specials:
        why = f"the {best} beats every number"
    elif best is Face.FLAG:
        which = "first" if rules.all_flags == "first" else "last"
        return f"every face is a flag, and the {which} roller wins such a trick"
    else:
        why = f"{best} is the highest number"
    if tie:
        why += f"; of the equal {best}s the later roll wins"
    return why


# --- scoring ---------------------------------------------------------------------------


def hand_score(bid: int, won: int, dice: int, bonus: int, rules: Rules) -> int:
    """Points for one seat for one hand of `dice` dice (RULES.md, "Scoring").

    `bonus` is the sum of trick bonuses the seat earned; it only counts when a
    non-zero bid is made exactly, and never under landlubber scoring.
    """
    if rules.scoring == "landlubber":
        if bid == 0:
            return 10 * dice if won == 0 else -10 * dice
        return 20 * bid if won == bid else 0
    if bid == 0:
        return 10 * dice if won == 0 else -10 * dice
    if won == bid:
        return 20 * bid + bonus
    return -10 * abs(won - bid)


def places(totals: Sequence[int]) -> list[int]:
    """Finishing place (1 = first) of each seat; equal totals share the place."""
    return [1 + sum(1 for other in totals if other > t) for t in totals]
