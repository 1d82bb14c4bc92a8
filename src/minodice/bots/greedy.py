"""`greedy`: bids the tricks its dice should win; rolls to win while it needs tricks, to lose after.

Two estimates drive it, both computed with `rules.trick_winner` (no rule is
re-stated here):

- for bidding, each kind of die's chance of winning a trick against the other
  seats' random dice from the bag (`analysis.strength.die_strength`, a seeded
  Monte Carlo table computed once per seat count and rule set);
- for rolling, each legal die's chance of winning the trick in progress, given
  the faces already rolled and the seats still to roll (their faces drawn from
  the dice this seat has not seen).

>>> from minodice.game import Game
>>> view = Game(4, seed=3).observe(0)
>>> GreedyBot().bid(view) in view.legal
True
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from .. import rules as R
from ..analysis.strength import FACE_ODDS, die_strength, trick_distribution
from ..dice import BAG_COUNTS, Die, Face
from ..rules import Rules
from ..view import View
from .base import Bot

__all__ = ["GreedyBot", "bid_values", "roll_chances", "trick_chance"]

_FACES: tuple[Face, ...] = tuple(Face)


@lru_cache(maxsize=1 << 16)
def _threats(rolled: tuple[Face, ...], rules: Rules) -> tuple[bool, tuple[Face, ...]]:
    """Whether the last face of `rolled` leads the trick now, and the single faces that would take it from it.

    A tuple in face order (not a set), so sums over it are identical in every process.
    """
    me = len(rolled) - 1
    if R.trick_winner(rolled, rules) != me:
        return False, ()
    return True, tuple(g for g in _FACES if R.trick_winner((*rolled, g), rules) != me)


def _unseen_face_odds(view: View) -> dict[Face, float]:
    """Face distribution of a random die this seat has not seen this hand, rolled."""
    counts = dict(BAG_COUNTS)
    for d in view.dice:
        counts[d] -= 1
    for t in view.tricks:
        for r in t.rolls:
            counts[r.die] -= 1
    total = sum(c for c in counts.values() if c > 0)
    odds: dict[Face, float] = dict.fromkeys(_FACES, 0.0)
    if total <= 0:
        return odds
    for d, c in counts.items():
        if c > 0:
            for f, p in FACE_ODDS[d]:
                odds[f] += p * c / total
    return odds


def trick_chance(
    die: Die, rolled: Sequence[Face], later: int, odds: dict[Face, float], rules: Rules
) -> float:
    """Chance that rolling `die` after `rolled` wins the trick, `later` seats still to roll.

    Each later seat is taken to roll a die with face distribution `odds`, and
    its threat to be independent of the others' (exact but for the rare trick
    in which all three special faces meet).
    """
    base = tuple(rolled)
    total = 0.0
    for face, p in FACE_ODDS[die]:
        leads, threats = _threats((*base, face), rules)
        if not leads:
            continue
        safe = 1.0 - sum(odds[g] for g in threats)
        total += p * safe**later
    return total


def bid_values(view: View) -> dict[int, float]:
    """Each legal bid's expected hand score (bonuses aside), each die winning alone with its `die_strength`."""
    strength = die_strength(view.seats, view.rules)
    dist = trick_distribution([strength[d] for d in view.dice])
    n = view.hand
    return {b: sum(p * R.hand_score(b, t, n, 0, view.rules) for t, p in enumerate(dist))
            for b in view.legal or () if isinstance(b, int)}


def roll_chances(view: View) -> dict[Die, float]:
    """Each legal die's chance to take the trick in progress (`trick_chance`, the unseen dice's odds)."""
    trick = view.current_trick
    rolled = tuple(r.face for r in trick.rolls) if trick is not None else ()
    later = view.seats - len(rolled) - 1
    odds = _unseen_face_odds(view)
    return {d: trick_chance(d, rolled, later, odds, view.rules) for d in view.legal or () if isinstance(d, Die)}


class GreedyBot(Bot):
    """Bids the score-maximising number of tricks for its dice; wins tricks while short, dumps dice after.

    The bid maximises the expected hand score (`rules.hand_score`, bonuses
    aside) with each die taken to win independently with its `die_strength`.
    """

    name = "greedy"

    def start_game(self, view: View) -> None:
        """Make the strength table for this table's seats and rules now (a fraction of a second, once
        per process), not in the middle of the first decision."""
        die_strength(view.seats, view.rules)

    def bid(self, view: View) -> int:
        values = bid_values(view)
        if not values:
            return 0
        best, best_value = next(iter(values)), float("-inf")
        for b, value in values.items():
            if value > best_value + 1e-9:
                best, best_value = b, value
        return best

    def roll(self, view: View) -> Die:
        legal = [d for d in view.legal or () if isinstance(d, Die)]
        if len(legal) <= 1:
            return legal[0] if legal else view.dice[0]
        seat = view.seat if view.seat is not None else 0
        bid = view.bids[seat]
        need = (bid if bid is not None else 0) - view.won[seat]
        strength = die_strength(view.seats, view.rules)
        chance = roll_chances(view)
        if need > 0:
            best = max(legal, key=lambda d: (chance[d], -strength[d]))
            if chance[best] >= 0.05 or need >= len(view.dice):
                return best
            # Hopeless trick: keep the strong dice for later ones.
            return min(legal, key=lambda d: (strength[d], chance[d]))
        # Enough tricks (or a zero bid): lose this trick, shedding the most dangerous die that loses.
        return min(legal, key=lambda d: (round(chance[d], 6), -strength[d]))

