"""The rules of Mino Dice as pure functions and small values (docs/rules.md is the authority).

Nothing here keeps state or does I/O: the game, the record checker, the
referee, the bots, the server and the terminal all call these, so each rule
lives in exactly one place (the numba kernel in `sim/` is the one mirror, proven
equal by tests). Answers that need explaining are values: a `Reason` is a
stable code and its parameters, and `Reason.text()` the English words.

>>> trick_winner([Face.SIX, Face.GRIFFIN, Face.FLAG], Rules())
1
>>> hand_score(bid=3, won=3, dice=5, bonus=0, rules=Rules())
60
>>> trick = TrickState.of([(Die.RED, Face.SIX), (Die.GRIFFIN, Face.GRIFFIN)], Rules())
>>> trick.lead, trick.leading, trick.reason.code
(<Die.RED: 'red'>, 1, 'special_beats_numbers')
>>> trick.reason.text()
'the griffin beats every number'
>>> trick.foul([Die.RED, Die.GRAY], Die.GRAY).code
'must_follow'
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from .codes import render
from .dice import BAG_COUNTS, Die, Face, jsonable

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
    """A rule option with a value the rules do not know (`option`, `value`, `choices`; None when not about one option)."""

    def __init__(
        self, message: str, option: str | None = None, value: object = None, choices: tuple[str, ...] = ()
    ) -> None:
        super().__init__(message)
        self.option, self.value, self.choices = option, value, choices


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule options a table plays with (defaults are the decisions of docs/rules.md)."""

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
                    f"rule {f.name} cannot be {value!r}: choose one of " + ", ".join(allowed), f.name, value, allowed
                )

    @classmethod
    def from_dict(cls, data: Mapping[str, object] | None) -> Rules:
        """Rules from a record's `rules` object; unknown keys are kept out, bad values refused."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise RuleError("rules must be an object of rule options")
        known: dict[str, Any] = {k: v for k, v in data.items() if k in RULE_OPTIONS}  # checked by __post_init__
        return cls(**known)

    def to_dict(self) -> dict[str, str]:
        """All options, as written in records and views (a new dict each time)."""
        # Not dataclasses.asdict, which recurses and deep-copies: this is on the hot path of every view.
        return {name: getattr(self, name) for name in _RULE_FIELDS}

    @property
    def landlubber(self) -> bool:
        return self.scoring == "landlubber"


_RULE_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Rules))


# --- reasons ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reason:
    """Why something is so, as a value: a stable `code` (listed in `codes.CODES`) and its `params`.

    Interfaces translate from the code; `text()` is the English rendering.

    >>> Reason("highest_number", {"face": "7"}).text()
    '7 is the highest number'
    """

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def text(self) -> str:
        """The reason in English, in a player's words."""
        return render(self.code, self.params)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: {"code", "params"} (dice and faces by name)."""
        return {"code": self.code, "params": {k: jsonable(v) for k, v in self.params.items()}}


# --- following colour -----------------------------------------------------------------


def lead_colour(dice: Iterable[Die]) -> Die | None:
    """The colour of the first number die rolled in a trick, or None if none was."""
    for die in dice:
        if not die.special:
            return die
    return None


def lead_after(lead: Die | None, die: Die) -> Die | None:
    """The trick's lead colour once `die` is rolled, when it was `lead` before (the first colour leads)."""
    return lead if lead is not None else die.colour


def legal_dice(held: Iterable[Die], lead: Die | None) -> list[Die]:
    """The distinct dice a seat holding `held` may roll when `lead` is the lead colour.

    With a lead colour set, a seat holding a die of that colour must roll that
    colour or a special die; otherwise any die it holds.
    """
    kinds = set(held)
    if lead is not None and lead in kinds:
        kinds = {d for d in kinds if d is lead or d.special}
    return sorted(kinds, key=_die_order)


def breaks_follow(held: Iterable[Die], lead: Die | None, die: Die) -> bool:
    """True when rolling `die` from `held` breaks the colour rule."""
    return lead is not None and not die.special and die is not lead and lead in held


def follow_foul(held: Iterable[Die], lead: Die | None, die: Die) -> Reason | None:
    """Why rolling `die` from `held` breaks the colour rule (code `must_follow`), or None if it does not."""
    if breaks_follow(held, lead, die):
        return Reason("must_follow", {"colour": lead, "die": die})
    return None


def shown_void(lead: Die | None, die: Die) -> Die | None:
    """The colour a roll proves its roller lacks: a number die of another colour than the lead shows none was held."""
    if lead is not None and not die.special and die is not lead:
        return lead
    return None


def voids_shown(tricks: Iterable[Iterable[tuple[int, Die]]], seats: int) -> list[set[Die]]:
    """Per seat, the colours it has shown it lacks (`shown_void`), from a hand's tricks given as
    (seat, die) rolls in rolling order: dice are never drawn again within a hand, so a void lasts."""
    voids: list[set[Die]] = [set() for _ in range(seats)]
    for rolls in tricks:
        lead: Die | None = None
        for seat, die in rolls:
            void = shown_void(lead, die)
            if void is not None:
                voids[seat].add(void)
            lead = lead_after(lead, die)
    return voids


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


#: Points for a trick won with a mermaid face in which the minotaur face was rolled.
MERMAID_BONUS = 50
#: Points for each griffin face rolled in a trick won with the minotaur face.
GRIFFIN_BONUS = 30


def trick_bonus(faces: Sequence[Face], winner: int) -> int:
    """Bonus points the trick's winner earns if its bid is made (docs/rules.md, "Scoring").

    +50 for a trick won with a mermaid face in which a minotaur face was rolled;
    +30 for each griffin face in a trick won with a minotaur face.
    """
    win = faces[winner]
    if win is _MERMAID:
        return MERMAID_BONUS if _MINOTAUR in faces else 0
    if win is _MINOTAUR:
        return GRIFFIN_BONUS * faces.count(_GRIFFIN)
    return 0


def max_griffin_bonuses(seats: int) -> int:
    """Most griffin bonuses one hand can give: one per griffin die, and the minotaur's trick has seats − 1 other dice."""
    return min(BAG_COUNTS[Die.GRIFFIN], seats - 1)


def max_hand_bonus(seats: int, rules: Rules) -> int:
    """The most bonus points one seat can earn in one hand (the bag has one minotaur die)."""
    if rules.landlubber:
        return 0
    return max(MERMAID_BONUS, GRIFFIN_BONUS * max_griffin_bonuses(seats))


def hand_score_bounds(dice: int, seats: int, rules: Rules) -> tuple[int, int]:
    """The lowest and highest score one seat can make in a hand of `dice` dice."""
    return -10 * dice, 20 * dice + max_hand_bonus(seats, rules)


def trick_reason(faces: Sequence[Face], rules: Rules) -> Reason:
    """Why the roll `trick_winner` names leads the trick (so far, or in the end), as a `Reason`.

    Codes: `three_specials`, `special_beats_special`, `special_beats_numbers`,
    `highest_number` (each with `tie` when equal faces were rolled: the later one
    wins), and `only_flags` (who wins a trick of flags, by the table's rule).
    """
    best = faces[trick_winner(faces, rules)]
    specials = {f for f in faces if f.special}
    tie = sum(1 for f in faces if f is best) > 1
    if len(specials) == 3:
        return Reason("three_specials", {"face": best, "tie": tie})
    if len(specials) == 2:
        other = next(f for f in specials if f is not best)
        return Reason("special_beats_special", {"face": best, "beaten": other, "tie": tie})
    if specials:
        return Reason("special_beats_numbers", {"face": best, "tie": tie})
    if best is Face.FLAG:
        return Reason("only_flags", {"which": rules.all_flags})
    return Reason("highest_number", {"face": best, "tie": tie})


def explain_trick(faces: Sequence[Face], rules: Rules) -> str:
    """Why the winning roll wins, in a player's words (no names: the caller adds them)."""
    return trick_reason(faces, rules).text()


def bonus_reason(faces: Sequence[Face], winner: int) -> Reason | None:
    """Why the trick's winner earns a bonus (codes `mermaid_took_minotaur`, `minotaur_took_griffins`), or None."""
    points = trick_bonus(faces, winner)
    if not points:
        return None
    if faces[winner] is _MERMAID:
        return Reason("mermaid_took_minotaur", {"points": points})
    return Reason("minotaur_took_griffins", {"points": points, "griffins": faces.count(_GRIFFIN)})


# --- the trick so far ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TrickState:
    """A trick so far (rolls in rolling order) and every rule answer about it, as values.

    `lead` is the lead colour, `leading` the index of the roll winning so far
    (None before the first roll), `reason` why it leads, `bonus` and
    `bonus_why` what it would earn. `legal(held)` and `refusals(held)` say which
    dice a holding may roll and why the others may not.
    """

    rolls: tuple[tuple[Die, Face], ...]
    rules: Rules
    lead: Die | None = field(init=False)
    leading: int | None = field(init=False)
    reason: Reason | None = field(init=False)
    bonus: int = field(init=False)
    bonus_why: Reason | None = field(init=False)

    def __post_init__(self) -> None:
        faces = [f for _, f in self.rolls]
        leading = trick_winner(faces, self.rules) if faces else None
        setattr_ = object.__setattr__
        setattr_(self, "lead", lead_colour(d for d, _ in self.rolls))
        setattr_(self, "leading", leading)
        setattr_(self, "reason", trick_reason(faces, self.rules) if faces else None)
        setattr_(self, "bonus", trick_bonus(faces, leading) if leading is not None else 0)
        setattr_(self, "bonus_why", bonus_reason(faces, leading) if leading is not None else None)

    @classmethod
    def of(cls, rolls: Iterable[tuple[Die, Face]], rules: Rules) -> TrickState:
        """The state of a trick whose rolls so far are `rolls` (die, face) in rolling order.

        Worked out once per rolls and rules (a server sends it to every seat after every roll): the
        state is an immutable value, shared.
        """
        pairs = tuple((d, f) for d, f in rolls)
        if cls is not TrickState:
            return cls(pairs, rules)
        return _trick_state(tuple([d.index << 4 | f.index for d, f in pairs]), rules)

    @property
    def faces(self) -> tuple[Face, ...]:
        """The faces rolled so far, in rolling order."""
        return tuple(f for _, f in self.rolls)

    def legal(self, held: Iterable[Die]) -> list[Die]:
        """The distinct dice a seat holding `held` may roll next."""
        return legal_dice(held, self.lead)

    def foul(self, held: Iterable[Die], die: Die) -> Reason | None:
        """Why rolling `die` from `held` next would break the colour rule, or None."""
        return follow_foul(held, self.lead, die)

    def refusals(self, held: Iterable[Die]) -> dict[Die, Reason]:
        """Each die kind in `held` that may not be rolled next, with the reason."""
        held = tuple(held)
        out: dict[Die, Reason] = {}
        for die in sorted(set(held), key=_die_order):
            reason = self.foul(held, die)
            if reason is not None:
                out[die] = reason
        return out

    def then(self, die: Die, face: Face) -> TrickState:
        """The trick once `die` has been rolled and shows `face`."""
        return TrickState((*self.rolls, (die, face)), self.rules)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: lead, leading (roll index), reason, bonus, bonus_why (dice and faces by name)."""
        return {
            "lead": self.lead.value if self.lead is not None else None,
            "leading": self.leading,
            "reason": self.reason.to_dict() if self.reason is not None else None,
            "bonus": self.bonus,
            "bonus_why": self.bonus_why.to_dict() if self.bonus_why is not None else None,
        }


_DICE: tuple[Die, ...] = tuple(Die)
_FACES: tuple[Face, ...] = tuple(Face)


@functools.lru_cache(maxsize=256)  # what repeats is the trick in progress, asked for by each seat's view
def _trick_state(rolls: tuple[int, ...], rules: Rules) -> TrickState:
    """`TrickState.of`, by the rolls as numbers (die index << 4 | face index: cheap to hash)."""
    return TrickState(tuple((_DICE[r >> 4], _FACES[r & 15]) for r in rolls), rules)


# --- turn order ------------------------------------------------------------------------


def roller(leader: int, rolled: int, seats: int) -> int:
    """The seat that rolls after `rolled` rolls of a trick led by `leader` (play goes round the table)."""
    return (leader + rolled) % seats


def next_hand_start(rules: Rules, seats: int, last_start: int, last_winner: int) -> int:
    """The seat that leads the next hand, after a hand led by `last_start` whose last trick `last_winner` won."""
    if rules.hand_start == "last_winner":
        return last_winner
    return (last_start + 1) % seats


def hand_start_reason(rules: Rules) -> Reason:
    """Why a hand's start player is who it is, under `rules.hand_start` (codes `start_rotates`, `start_last_winner`)."""
    return Reason("start_last_winner" if rules.hand_start == "last_winner" else "start_rotates")


# --- scoring ---------------------------------------------------------------------------


def bid_made(bid: int, won: int) -> bool:
    """Whether a bid is made: exactly as many tricks won as bid (a zero bid is made by winning none).

    >>> bid_made(2, 2), bid_made(0, 0), bid_made(1, 2)
    (True, True, False)
    """
    return won == bid


def hand_score(bid: int, won: int, dice: int, bonus: int, rules: Rules) -> int:
    """Points for one seat for one hand of `dice` dice (docs/rules.md, "Scoring").

    `bonus` is the sum of trick bonuses the seat earned; it only counts when a
    non-zero bid is made exactly, and never under landlubber scoring.
    """
    if rules.scoring == "landlubber":
        if bid == 0:
            return 10 * dice if won == 0 else -10 * dice
        return 20 * bid if bid_made(bid, won) else 0
    if bid == 0:
        return 10 * dice if won == 0 else -10 * dice
    if bid_made(bid, won):
        return 20 * bid + bonus
    return -10 * abs(won - bid)


def places(totals: Sequence[int]) -> list[int]:
    """Finishing place (1 = first) of each seat; equal totals share the place."""
    return [1 + sum(1 for other in totals if other > t) for t in totals]
