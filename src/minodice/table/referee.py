"""Trick referee for real dice: who won a trick, why, which bonus it carries, and any broken colour rule.

Every judgement comes from `minodice.rules` (the same functions the engine
uses), so the referee and the game cannot disagree.

>>> v = referee([parse_roll("red:6"), parse_roll("griffin"), parse_roll("gray:flag")])
>>> v.winner, v.bonus
(1, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import rules as R
from ..dice import BAG, Die, Face
from ..rules import Rules

__all__ = ["Verdict", "parse_held", "parse_roll", "referee"]

_DICE = {d.value: d for d in BAG}
_FACES = {f.value: f for f in Face}


@dataclass(frozen=True)
class Verdict:
    """The referee's ruling on one trick (rolls in rolling order)."""

    rolls: tuple[tuple[Die, Face], ...]
    names: tuple[str, ...]
    winner: int  # index in rolling order
    why: str
    bonus: int  # points the winner earns if its bid is made
    bonus_why: str
    lead: Die | None  # the trick's lead colour
    fouls: tuple[str, ...]  # broken colour rules (only where the held dice were given)

    def summary(self) -> str:
        """The ruling in a sentence or three, as a player would say it."""
        die, face = self.rolls[self.winner]
        text = f"{self.names[self.winner]} wins the trick with {_show(die, face)}: {self.why}."
        if self.bonus_why:
            text += f" {self.bonus_why}"
        for foul in self.fouls:
            text += f" Foul: {foul}."
        return text


def _show(die: Die, face: Face) -> str:
    return f"the {face.value}" if die.special and face is not Face.FLAG else f"a {die.value} {face.value}"


def parse_roll(text: str) -> tuple[Die, Face]:
    """`red:6`, `gray:flag`, `minotaur:flag` or just `griffin` (its special face) → (die, face)."""
    raw = text.strip().lower()
    name, _, face_name = raw.partition(":")
    die = _DICE.get(name)
    if die is None:
        raise ValueError(f"{text!r}: {name!r} is not a die (the dice are {', '.join(_DICE)})")
    if not face_name:
        if not die.special:
            raise ValueError(f"{text!r}: say which face the {die.value} die showed, e.g. {die.value}:{die.faces[-1].value}")
        face_name = die.value
    face = _FACES.get(face_name)
    if face is None or face not in die.faces:
        shown = ", ".join(dict.fromkeys(f.value for f in die.faces))
        raise ValueError(f"{text!r}: a {die.value} die has no face {face_name!r} (its faces: {shown})")
    return die, face


def parse_held(text: str) -> list[Die]:
    """`red,yellow,griffin` → the dice a player held before rolling (the rolled one included)."""
    out = []
    for part in text.split(","):
        name = part.strip().lower()
        if name not in _DICE:
            raise ValueError(f"{part.strip()!r} is not a die (the dice are {', '.join(_DICE)})")
        out.append(_DICE[name])
    return out


def referee(
    rolls: Sequence[tuple[Die, Face]],
    rules: Rules | None = None,
    *,
    held: dict[int, Sequence[Die]] | None = None,
    names: Sequence[str] | None = None,
) -> Verdict:
    """Rule on a trick: `rolls` in rolling order; `held[i]`, if given, what roller i held before rolling."""
    rules = rules or Rules()
    if not 2 <= len(rolls) <= 6:
        raise ValueError(f"a trick has one roll per player, 3 to 6 (at least 2 to compare); got {len(rolls)}")
    names = tuple(names) if names else tuple(f"roll {i + 1}" for i in range(len(rolls)))
    if len(names) != len(rolls):
        raise ValueError(f"{len(names)} names for {len(rolls)} rolls: give one name per roll")
    faces = [f for _, f in rolls]
    dice = [d for d, _ in rolls]
    winner = R.trick_winner(faces, rules)
    bonus = R.trick_bonus(faces, winner)
    fouls = []
    for i, hand in (held or {}).items():
        if not 0 <= i < len(rolls):
            raise ValueError(f"held dice given for roll {i + 1}, but the trick has {len(rolls)} rolls")
        if dice[i] not in hand:
            raise ValueError(f"{names[i]} rolled a {dice[i].value} die but was said to hold only "
                             f"{', '.join(d.value for d in hand)}")
        lead = R.lead_colour(dice[:i])
        if R.breaks_follow(hand, lead, dice[i]):
            fouls.append(f"{names[i]} rolled {dice[i].value} while holding {lead.value} "  # type: ignore[union-attr]
                         f"(the lead colour): a {lead.value} or a special die had to be rolled")  # type: ignore[union-attr]
    return Verdict(
        rolls=tuple(rolls), names=names, winner=winner, why=R.explain_trick(faces, rules), bonus=bonus,
        bonus_why=_bonus_text(faces, winner, bonus), lead=R.lead_colour(dice), fouls=tuple(fouls),
    )


def _bonus_text(faces: Sequence[Face], winner: int, bonus: int) -> str:
    if not bonus:
        return ""
    if faces[winner] is Face.MERMAID:
        return "Bonus +50 if the winner makes the bid exactly: the mermaid captured the minotaur."
    griffins = faces.count(Face.GRIFFIN)
    return (f"Bonus +{bonus} if the winner makes the bid exactly: the minotaur took "
            f"{griffins} griffin{'s' if griffins > 1 else ''} (+30 each).")
