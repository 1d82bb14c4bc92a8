"""A `minodice/1` game record from a score sheet whose every trick was also entered, roll by roll.

A score sheet alone has no rolls, so it is not a record. When the players
also entered each trick with the referee (who rolled which die and what it
showed, in rolling order), the hands can be replayed through the engine with
explicit chance (`Deal`: the dice each player rolled in the hand; `Land`: the
face shown). The engine checks every roll — order, the colour rule — and the
replay must agree with the sheet: the tricks each player won and the hand
scores. Anything that does not fit is refused in words, naming hand and trick.
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
        raise SheetError("the sheet has no hands yet: there is nothing to make a record of")
    if len(tricks) != len(hands):
        raise SheetError(f"the sheet has {len(hands)} hands but tricks were given for {len(tricks)}")
    index = {name.casefold(): s for s, name in enumerate(players)}
    rules = Rules(scoring=sheet.scoring, hand_start=hand_start)
    first = _first_roller(tricks[0], index, hand=1)
    game = Game(seats, names=players, rules=rules, chance=EXTERNAL, first_start=first)
    for h, (entries, hand_tricks) in enumerate(zip(hands, tricks), start=1):
        if len(hand_tricks) != h:
            raise SheetError(f"hand {h} has {h} tricks; {len(hand_tricks)} were entered")
        seated = [[(_seat(name, index, h, t), die, face) for name, die, face in trick]
                  for t, trick in enumerate(hand_tricks, start=1)]
        dealt: list[list[Die]] = [[] for _ in range(seats)]
        for t, trick in enumerate(seated, start=1):
            if sorted(s for s, _, _ in trick) != list(range(seats)):
                raise SheetError(f"hand {h}, trick {t}: every player rolls exactly once in a trick")
            for s, die, _ in trick:
                dealt[s].append(die)
        try:
            game.apply(Deal(tuple(tuple(sorted(row, key=lambda d: d.index)) for row in dealt)))
            for s, entry in enumerate(entries):
                game.apply(Bid(s, entry.bid))
            for trick in seated:
                for s, die, face in trick:
                    game.apply(Roll(s, die))
                    game.apply(Land(face))
        except (IllegalAction, ValueError) as exc:
            raise SheetError(f"hand {h}: the tricks entered cannot have been played: {exc}") from None
        _agree(game, entries, players, h, sheet.hand_scores(h))
    return records.from_game(game)


def _seat(name: str, index: dict[str, int], hand: int, trick: int) -> int:
    seat = index.get(name.strip().casefold())
    if seat is None:
        raise SheetError(f"hand {hand}, trick {trick}: {name!r} is not a player on this sheet")
    return seat


def _first_roller(hand_tricks: Sequence[TrickRolls], index: dict[str, int], hand: int) -> int:
    if not hand_tricks or not hand_tricks[0]:
        raise SheetError(f"hand {hand}: no rolls were entered for its first trick")
    return _seat(hand_tricks[0][0][0], index, hand, 1)


def _agree(game: Game, entries: Sequence[Any], players: Sequence[str], hand: int, scores: Sequence[int]) -> None:
    """The replayed hand must give the sheet's tricks won and hand scores."""
    log = game.log[hand - 1]
    won = [sum(1 for t in log.tricks if t.winner == s) for s in range(len(players))]
    for s, entry in enumerate(entries):
        if won[s] != entry.won:
            raise SheetError(f"hand {hand}: by the tricks entered {players[s]} won {won[s]}, "
                             f"but the sheet says {entry.won}")
    if log.scores is not None and list(log.scores) != list(scores):
        diff = next(s for s in range(len(players)) if log.scores[s] != scores[s])
        raise SheetError(f"hand {hand}: by the tricks entered {players[diff]} scores {log.scores[diff]}, "
                         f"but the sheet says {scores[diff]} (check the bonuses)")
