"""A `minodice/1` game record from a score sheet whose every trick was also entered, roll by roll.

A score sheet alone has no rolls, so it is not a record. When the players
also entered each trick with the referee (who rolled which die and what it
showed, in rolling order), the hands can be replayed through the engine with
explicit chance (`Deal`: the dice each player rolled in the hand; `Land`: the
face shown). The engine checks every roll — order, the colour rule — and the
replay must agree with the sheet: the tricks each player won and the hand
scores. Anything that does not fit is a `SheetError` naming hand and trick (and
the roll); an engine refusal keeps its `IllegalAction` code and params.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import record as records
from ..dice import Die, Face
from ..errors import IllegalAction
from ..game import EXTERNAL, Bid, Deal, Game, Land, Roll
from ..rules import Rules
from .sheet import ScoreSheet, SheetError

__all__ = ["TrickRolls", "record_from_sheet"]

#: One trick as entered: (player name, die, face) per roll, in rolling order.
TrickRolls = Sequence[tuple[str, Die, Face]]


def record_from_sheet(
    sheet: ScoreSheet, tricks: Sequence[Sequence[TrickRolls]], *, hand_start: str = "rotate"
) -> dict[str, Any]:
    """The full record of the sheet's hands, given every trick of every entered hand (`tricks[h - 1]`)."""
    players = list(sheet.players)
    seats = len(players)
    hands = sheet.hands
    if not hands:
        raise SheetError("record_no_hands")
    if len(tricks) != len(hands):
        raise SheetError("record_hand_count", {"hands": len(hands), "given": len(tricks)})
    index = {name.casefold(): s for s, name in enumerate(players)}
    rules = Rules(scoring=sheet.scoring, hand_start=hand_start)
    first = _first_roller(tricks[0], index, hand=1)
    game = Game(seats, names=players, rules=rules, chance=EXTERNAL, first_start=first)
    for h, (entries, hand_tricks) in enumerate(zip(hands, tricks), start=1):
        if len(hand_tricks) != h:
            raise SheetError("record_trick_count", {"hand": h, "given": len(hand_tricks)})
        seated = [[(_seat(name, index, h, t), die, face) for name, die, face in trick]
                  for t, trick in enumerate(hand_tricks, start=1)]
        _replay(game, h, entries, seated, players)
        _agree(game, entries, players, h, sheet.hand_scores(h))
    return records.from_game(game)


def _replay(game: Game, hand: int, entries: Sequence[Any], seated: Sequence[Sequence[tuple[int, Die, Face]]],
            players: Sequence[str]) -> None:
    """Deal, bid and roll hand `hand` through the engine; its refusals keep their codes, with where they happened."""
    dealt: list[list[Die]] = [[] for _ in players]
    for t, trick in enumerate(seated, start=1):
        if sorted(s for s, _, _ in trick) != list(range(len(players))):
            raise SheetError("record_roll_once", hand=hand, trick=t)
        for s, die, _ in trick:
            dealt[s].append(die)
    try:
        game.apply(Deal(tuple(tuple(sorted(row, key=lambda d: d.index)) for row in dealt)))
        for s, entry in enumerate(entries):
            game.apply(Bid(s, entry.bid))
    except IllegalAction as exc:
        raise SheetError(exc.code, exc.params, message=exc.message, hand=hand) from None
    for t, trick in enumerate(seated, start=1):
        for s, die, face in trick:
            try:
                game.apply(Roll(s, die))
                game.apply(Land(face))
            except IllegalAction as exc:
                raise SheetError(exc.code, exc.params, message=exc.message, hand=hand, trick=t,
                                 player=players[s]) from None


def _seat(name: str, index: dict[str, int], hand: int, trick: int) -> int:
    seat = index.get(name.strip().casefold())
    if seat is None:
        raise SheetError("record_not_a_player", {"name": name}, hand=hand, trick=trick)
    return seat


def _first_roller(hand_tricks: Sequence[TrickRolls], index: dict[str, int], hand: int) -> int:
    if not hand_tricks or not hand_tricks[0]:
        raise SheetError("record_no_rolls", hand=hand)
    return _seat(hand_tricks[0][0][0], index, hand, 1)


def _agree(game: Game, entries: Sequence[Any], players: Sequence[str], hand: int, scores: Sequence[int]) -> None:
    """The replayed hand must give the sheet's tricks won and hand scores."""
    log = game.log[hand - 1]
    won = [sum(1 for t in log.tricks if t.winner == s) for s in range(len(players))]
    for s, entry in enumerate(entries):
        if won[s] != entry.won:
            raise SheetError("record_won_differs", {"player": players[s], "won": won[s], "sheet": entry.won},
                             hand=hand)
    if log.scores is not None and list(log.scores) != list(scores):
        diff = next(s for s in range(len(players)) if log.scores[s] != scores[s])
        raise SheetError("record_score_differs",
                         {"player": players[diff], "score": log.scores[diff], "sheet": scores[diff]}, hand=hand)
