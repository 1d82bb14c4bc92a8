"""The first game teaches itself: the tutorial table and the rules' numbers for the rules page.

`POST /api/tutorial` makes a real table (the same Table, engine and websocket as any game): you in
seat 0 and three bots of the medium level, started at once. Its dice come from `TUTORIAL_SEED`, a
fixed and public seed chosen (scripts/find_tutorial_seed.py) so that its first `TUTORIAL_HANDS` hands
show the lessons: a lead colour set by a number die, a colour you must follow, a special die beating
numbers and a special beating a special. The engine starts every game at hand 1 (one die each), so
the lessons span the first three hands (1, 2 and 3 dice) rather than one scripted hand; the client's
coach (static/js/tutorial.js) follows the game's events and says what the engine reports, whatever
you choose. Every other table keeps a secret random seed (`TableManager.create`).

`GET /api/rules` gives the rules page (static/rules.html) and the help its numbers, worked out by
the engine itself (`rules.hand_score`, the bonus values, the trump cycle), so that the page cannot
disagree with the game.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from ..dice import HANDS_BY_SEATS, MAX_SEATS, MIN_SEATS
from ..rules import BEATS, GRIFFIN_BONUS, MERMAID_BONUS, RULE_OPTIONS, Rules, hand_score, max_griffin_bonuses
from . import protocol as P
from .manager import TableManager

#: Included in the API's router (api.py): `/api/tutorial`, `/api/rules`.
router = APIRouter()

#: The tutorial's dice seed: public, and used by `POST /api/tutorial` only.
TUTORIAL_SEED = 53
#: The tutorial's table: four seats (the game's usual size), you in seat 0, bots of this level.
TUTORIAL_SEATS = 4
TUTORIAL_LEVEL = "medium"
#: The hands the coach walks through (then the game goes on as any other).
TUTORIAL_HANDS = 3
#: The rulebook's examples (bid, tricks won, dice in the hand): docs/rules.md, "Scoring".
EXAMPLES: tuple[tuple[int, int, int], ...] = ((3, 3, 5), (5, 1, 5), (0, 0, 4), (0, 2, 6))


class TutorialBody(P.Strict):
    """`POST /api/tutorial`: the player's name (None: "Player")."""

    name: P.Name | None = None


async def create_tutorial(m: TableManager, name: str | None) -> tuple[Any, str, int | None, str | None]:
    """The tutorial table, started: (table, host token, your seat, your seat token)."""
    bots: list[str | None] = [None] + [TUTORIAL_LEVEL] * (TUTORIAL_SEATS - 1)
    table, host, seat, token = await m.create(TUTORIAL_SEATS, bots, {}, name or "Player", hints=True,
                                              clock="off", level=TUTORIAL_LEVEL, seed=TUTORIAL_SEED)
    await table.start()
    return table, host, seat, token


@router.post("/tutorial", status_code=201, summary="A tutorial table: you and three medium bots, started")
async def tutorial(body: TutorialBody, request: Request) -> dict[str, Any]:
    """Like `POST /api/tables` then `start`, with the tutorial's public seed: the coach's lessons happen
    in its first `hands` hands."""
    table, host, seat, token = await create_tutorial(request.app.state.manager, body.name)
    return {"table": table.info(), "host_token": host, "seat": seat, "token": token, "hands": TUTORIAL_HANDS}


def _score(bid: int, won: int, dice: int, bonus: int = 0, scoring: str = "standard") -> int:
    return hand_score(bid=bid, won=won, dice=dice, bonus=bonus, rules=Rules(scoring=scoring))


def rules_facts() -> dict[str, Any]:
    """The numbers the rules page shows, each from the engine: points per case (a bid of one made or
    missed by one, a zero bid in a hand of one die), the rulebook's examples, the bonuses, the trump
    cycle and the hands per number of players."""
    scoring = {}
    for name in RULE_OPTIONS["scoring"][0]:
        scoring[name] = {
            "made_per_trick": _score(1, 1, 1, scoring=name),
            "missed_per_trick": _score(2, 1, 2, scoring=name),
            "zero_made_per_die": _score(0, 0, 1, scoring=name),
            "zero_missed_per_die": _score(0, 1, 1, scoring=name),
            "bonus_counts": _score(1, 1, 1, bonus=1, scoring=name) != _score(1, 1, 1, scoring=name),
            "examples": [{"bid": b, "won": w, "dice": n, "points": _score(b, w, n, scoring=name)}
                         for b, w, n in EXAMPLES],
        }
    return {
        "seats": {"min": MIN_SEATS, "max": MAX_SEATS},
        "hands": {str(seats): hands for seats, hands in HANDS_BY_SEATS.items()},
        "scoring": scoring,
        "bonus": {"mermaid_took_minotaur": MERMAID_BONUS, "minotaur_took_griffin": GRIFFIN_BONUS,
                  "griffins_most": max_griffin_bonuses(MAX_SEATS)},
        "beats": {face.value: beaten.value for face, beaten in BEATS.items()},
        "defaults": {name: values[0] for name, (values, _) in RULE_OPTIONS.items()},
    }


@router.get("/rules", summary="The rules' numbers: points, bonuses, the special cycle, hands per players")
async def rules_numbers() -> dict[str, Any]:
    return rules_facts()
