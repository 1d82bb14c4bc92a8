"""Trick referee for real dice: who won a trick, why, which bonus it carries, and any broken colour rule.

Every judgement comes from `minodice.rules` (`TrickState`, the same answers the
engine uses), so the referee and the game cannot disagree. The ruling is
values: the reasons are `rules.Reason`s (code + params), and `summary()` puts
them in English for the terminal. Input the referee cannot judge is a
`RefereeError` with a code from `codes.SHEET_REFUSALS`.

>>> v = referee([parse_roll("red:6"), parse_roll("griffin"), parse_roll("gray:flag")])
>>> v.winner, v.bonus, v.why.code
(1, 0, 'special_beats_numbers')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..dice import BAG_COUNTS, Die, Face, dice_called, faces_called, over_bag
from ..rules import Reason, Rules, TrickState
from .refusal import Refusal

__all__ = ["Foul", "RefereeError", "Verdict", "parse_die", "parse_held", "parse_roll", "referee"]

class RefereeError(Refusal):
    """A trick the referee cannot judge (not a die, no such face, wrong number of rolls, held dice that do
    not fit...): `code` (in `codes.SHEET_REFUSALS`), `params`, and the English words.

    >>> parse_roll("blue:5")
    Traceback (most recent call last):
    minodice.table.referee.RefereeError: 'blue' is not a die (the dice are minotaur, griffin, mermaid, red, yellow, purple and gray)
    """


@dataclass(frozen=True, slots=True)
class Foul:
    """A roll that broke the colour rule: its index in rolling order and why (`rules.Reason` `must_follow`)."""

    roll: int
    reason: Reason

    @property
    def die(self) -> Die:
        """The die rolled."""
        return self.reason.params["die"]

    @property
    def lead(self) -> Die:
        """The lead colour the roller held and did not follow."""
        return self.reason.params["colour"]

    def to_dict(self) -> dict[str, Any]:
        """JSON form: {"roll" (from 0), "die", "lead", "reason": {"code", "params"}}."""
        return {"roll": self.roll, "die": self.die.value, "lead": self.lead.value, "reason": self.reason.to_dict()}


@dataclass(frozen=True)
class Verdict:
    """The referee's ruling on one trick (rolls in rolling order)."""

    rolls: tuple[tuple[Die, Face], ...]
    names: tuple[str, ...]
    winner: int  # index in rolling order
    why: Reason  # rules.trick_reason: why the winning roll wins
    bonus: int  # points the winner earns if its bid is made
    bonus_why: Reason | None  # rules.bonus_reason, or None without a bonus
    lead: Die | None  # the trick's lead colour
    fouls: tuple[Foul, ...]  # broken colour rules (only where the held dice were given)

    def summary(self) -> str:
        """The ruling in a sentence or three, in English, as a player would say it."""
        die, face = self.rolls[self.winner]
        text = f"{self.names[self.winner]} wins the trick with {_show(die, face)}: {self.why.text()}."
        if self.bonus_why is not None:
            text += f" Bonus: {self.bonus_why.text()}."
        for foul in self.fouls:
            text += f" Foul by {self.names[foul.roll]} ({foul.die.value} rolled): {foul.reason.text()}."
        return text

    def to_dict(self) -> dict[str, Any]:
        """JSON form: winner (from 0) and its name, reason, bonus, bonus_reason, lead, fouls, rolls, names, summary."""
        return {
            "winner": self.winner,
            "winner_name": self.names[self.winner],
            "reason": self.why.to_dict(),
            "bonus": self.bonus,
            "bonus_reason": self.bonus_why.to_dict() if self.bonus_why is not None else None,
            "lead": self.lead.value if self.lead is not None else None,
            "fouls": [foul.to_dict() for foul in self.fouls],
            "rolls": [{"die": die.value, "face": face.value} for die, face in self.rolls],
            "names": list(self.names),
            "summary": self.summary(),
        }


def _show(die: Die, face: Face) -> str:
    return f"the {face.value}" if die.special and face is not Face.FLAG else f"a {die.value} {face.value}"


def parse_die(text: str) -> Die:
    """A die kind as people type it: `gray`, `grey`, or a prefix only one die's name begins with (`r`, `mino`).

    >>> parse_die("Grey"), parse_die("mino")
    (<Die.GRAY: 'gray'>, <Die.MINOTAUR: 'minotaur'>)
    >>> parse_die("g")
    Traceback (most recent call last):
    minodice.table.referee.RefereeError: 'g' could mean more than one die (griffin and gray): type more of the name
    """
    found = dice_called(text)
    if len(found) == 1:
        return found[0]
    if found:
        raise RefereeError("ambiguous_die", {"name": text.strip(), "dice": list(found)})
    raise RefereeError("not_a_die", {"name": text.strip(), "dice": list(Die)})


def parse_roll(text: str) -> tuple[Die, Face]:
    """`red:6`, `grey:f`, `mino:flag` or just `griffin` (its special face) → (die, face); names as `parse_die`."""
    name, _, face_name = text.partition(":")
    die = parse_die(name)
    face_name = face_name.strip()
    if not face_name:
        if not die.special:
            raise RefereeError("face_needed", {"text": text, "die": die, "example": f"{die.value}:{die.faces[-1].value}"})
        return die, Face(die.value)
    faces = faces_called(face_name, die.faces)
    if len(faces) != 1:
        known = list(dict.fromkeys(f.value for f in die.faces))
        raise RefereeError("no_such_face", {"text": text, "die": die, "face": face_name.lower(), "faces": known})
    return die, faces[0]


def parse_held(text: str) -> list[Die]:
    """`red,yellow,griffin` (or `r,y,gri`) → the dice a player held before rolling (the rolled one included)."""
    return [parse_die(part) for part in text.split(",")]


def referee(
    rolls: Sequence[tuple[Die, Face]],
    rules: Rules | None = None,
    *,
    held: Mapping[int, Sequence[Die]] | None = None,
    names: Sequence[str] | None = None,
) -> Verdict:
    """Rule on a trick: `rolls` in rolling order; `held[i]`, if given, what roller i held before rolling.

    A trick that cannot happen with the one bag of dice (two minotaurs rolled, more griffins held and
    rolled than the bag has) is refused, not ruled on.
    """
    rules = rules or Rules()
    if not 2 <= len(rolls) <= 6:
        raise RefereeError("roll_count", {"count": len(rolls)})
    names = tuple(names) if names else tuple(f"roll {i + 1}" for i in range(len(rolls)))
    if len(names) != len(rolls):
        raise RefereeError("name_count", {"given": len(names), "rolls": len(rolls)})
    if not all(name.strip() for name in names):
        raise RefereeError("roller_needs_name")
    _check_bag([die for die, _ in rolls], "rolled_over_bag")
    held = dict(sorted((held or {}).items()))
    _check_held(rolls, held, names)
    trick = TrickState.of(rolls, rules)
    fouls = []
    for i, hand in held.items():
        foul = TrickState.of(rolls[:i], rules).foul(hand, rolls[i][0])
        if foul is not None:
            fouls.append(Foul(i, foul))
    assert trick.leading is not None and trick.reason is not None  # a trick of two or more rolls
    return Verdict(
        rolls=trick.rolls, names=names, winner=trick.leading, why=trick.reason, bonus=trick.bonus,
        bonus_why=trick.bonus_why, lead=trick.lead, fouls=tuple(fouls),
    )


def _check_bag(dice: Sequence[Die], code: str) -> None:
    """Refuse `dice` with `code` if they use a kind more often than the bag holds (`dice.over_bag`)."""
    extra = over_bag(dice)
    if extra is not None:
        raise RefereeError(code, {"count": dice.count(extra), "die": extra, "bag": BAG_COUNTS[extra]})


def _check_held(rolls: Sequence[tuple[Die, Face]], held: Mapping[int, Sequence[Die]], names: Sequence[str]) -> None:
    """The held dice fit the trick: a known roll, the rolled die among them, and all from the one bag (the
    held dice may be every die or only the kinds held: the colour rule needs no more, so counts are not checked)."""
    for i, hand in held.items():
        if not 0 <= i < len(rolls):
            raise RefereeError("held_roll_unknown", {"roll": i + 1, "rolls": len(rolls)})
        if rolls[i][0] not in hand:
            raise RefereeError("held_without_die", {"name": names[i], "die": rolls[i][0], "held": list(hand)})
    _check_bag([d for i, (die, _) in enumerate(rolls) for d in held.get(i, (die,))], "held_over_bag")
