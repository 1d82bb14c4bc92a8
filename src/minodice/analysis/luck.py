"""How much the faces gave each seat in a recorded game: luck, measured as backgammon programs do,
and the chance-corrected scores that cut the noise of a bot's measured strength (AIVAT's chance term).

At every die that lands, each seat's expected score of the hand is judged after each face the die
could show; a seat's *luck* at that roll is its expectation after the face that came minus the mean
over the faces (weighted by their chances). Whatever judges the positions, a roll's luck averages
to 0 over its faces, so a seat's score minus its luck is an unbiased estimate of its score, with
the faces' share of the noise taken out (Burch et al., *AIVAT*, AAAI 2018, the chance-node term; the
players' own choices are left as they are). The judge here plays the rest of the hand out
`playouts` times with every seat following greedy (`sim.playout.finish_hand`, from the full deal),
each face of a roll on the same random stream, so that the faces' differences are not noise.

It judges from every seat's dice, so it looks only at finished hands, whose dice are all shown by
then: the luck of a hand still being played would tell what the others hold.

>>> from minodice.game import Game
>>> from minodice.record import from_game
>>> from minodice.bots import make_bot
>>> from minodice.bots.runner import Match
>>> game = Game(3, seed=5)
>>> game = Match(game, {s: make_bot("greedy", seed=s) for s in range(3)}).play()
>>> luck = face_luck(from_game(game), playouts=32)
>>> len(luck.hands), len(luck.totals)
(8, 3)
>>> corrected = luck.corrected(game.totals)  # the totals less each seat's luck
>>> len(corrected)
3
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..dice import Die, Face
from ..game import EXTERNAL, Game, Roll
from ..record import check, record_positions
from . import DEFAULT_LUCK_PLAYOUTS, MAX_LUCK_PLAYOUTS

__all__ = ["Luck", "RollLuck", "face_luck", "roll_luck"]


@dataclass(frozen=True)
class RollLuck:
    """One die that landed: where (1-based hand, trick and roll), who rolled which die to which face,
    and what that face gave each seat (`luck`, points of the hand's expected score, by seat)."""

    hand: int
    trick: int
    roll: int
    seat: int
    die: Die
    face: Face
    luck: tuple[float, ...]


@dataclass(frozen=True)
class Luck:
    """The luck of a recorded game's finished hands: each roll's, and each hand's sum by seat."""

    rolls: tuple[RollLuck, ...]
    hands: tuple[tuple[float, ...], ...]

    @property
    def totals(self) -> tuple[float, ...]:
        """Each seat's luck over the finished hands (empty before a hand is finished)."""
        if not self.hands:
            return ()
        return tuple(float(x) for x in np.sum(self.hands, axis=0))

    def corrected(self, totals: Sequence[float]) -> tuple[float, ...]:
        """The seats' `totals` (of the finished hands) less their luck: what they scored without the
        faces' share of the noise, unbiased for the expected totals."""
        luck = self.totals or (0.0,) * len(totals)
        if len(luck) != len(totals):
            raise ValueError(f"{len(totals)} totals for a game of {len(luck)} seats")
        return tuple(t - x for t, x in zip(totals, luck, strict=True))


def _judge(game: Game, playouts: int, seed: int) -> np.ndarray:
    """Each seat's expected score of the hand in `game` just after a die landed: the scores if the
    hand is over, else the mean of `playouts` greedy playouts."""
    from ..sim.playout import finish_hand  # numba only once luck is measured: its constants stay light

    hand = game.log[-1]
    if hand.scores is not None:
        return np.asarray(hand.scores, dtype=np.float64)
    return finish_hand(game, playouts, seed).mean(axis=0)


def roll_luck(game: Game, seat: int, die: Die, *, playouts: int = DEFAULT_LUCK_PLAYOUTS,
              seed: int = 0) -> dict[Face, tuple[float, ...]]:
    """What each face of `die`, about to be rolled by `seat` in `game` (a fully known game waiting for
    that roll), would give each seat: its expected score of the hand after that face less the mean
    over the faces. Weighted by the faces' chances, each seat's numbers average to 0.

    It reads every seat's dice: show it only to whoever may see them all (a finished hand, the host).
    """
    _check_playouts(playouts)
    rolled = game.clone(EXTERNAL)
    rolled.apply(Roll(seat, die))  # the engine refuses a roll out of turn or a die not held, in words
    outcomes = rolled.chance_outcomes()
    values: dict[Face, np.ndarray] = {}
    for land, _chance in outcomes:
        after = rolled.clone(EXTERNAL)
        after.apply(land)
        values[land.face] = _judge(after, playouts, seed)  # one seed for every face: common random numbers
    expected = sum(chance * values[land.face] for land, chance in outcomes)
    return {face: tuple(float(x) for x in value - expected) for face, value in values.items()}


def face_luck(record: Mapping[str, Any], *, playouts: int = DEFAULT_LUCK_PLAYOUTS, seed: int = 0) -> Luck:
    """The luck of every finished hand of a record (`minodice/1`): the host's, or a seat's, whose hand
    in play may hide dice. The hand in play, if any, is never read.

    ValueError, in words, if the record is invalid or `playouts` is not a whole number of at least 1.
    """
    _check_playouts(playouts)
    record = _finished_hands(record)
    hands = record["hands"]
    rolls: list[RollLuck] = []
    per_hand: list[np.ndarray] = []
    for pos in record_positions(record):
        if pos.trick is None:
            per_hand.append(np.zeros(pos.game.seats))
            continue
        # Every hand replayed is finished, so every roll position holds the die rolled and its seat.
        assert isinstance(pos.made, Die) and pos.seat is not None and pos.roll is not None
        face = Face(hands[pos.hand - 1]["tricks"][pos.trick - 1]["rolls"][pos.roll - 1]["face"])
        at = seed + 1_000 * pos.hand + 10 * pos.trick + pos.roll  # another stream at every roll
        luck = roll_luck(pos.game, pos.seat, pos.made, playouts=playouts, seed=at)[face]
        rolls.append(RollLuck(pos.hand, pos.trick, pos.roll, pos.seat, pos.made, face, luck))
        per_hand[-1] += luck
    return Luck(tuple(rolls), tuple(tuple(float(x) for x in h) for h in per_hand))


def _check_playouts(playouts: object) -> None:
    if not isinstance(playouts, int) or isinstance(playouts, bool) or not 1 <= playouts <= MAX_LUCK_PLAYOUTS:
        raise ValueError(f"playouts must be a whole number from 1 to {MAX_LUCK_PLAYOUTS:,}, not {playouts!r}")


def _finished_hands(record: Mapping[str, Any]) -> dict[str, Any]:
    """`record` without its last hand if that hand is still being played (and so without its totals),
    checked; ValueError saying what is wrong."""
    if not isinstance(record, Mapping):
        raise ValueError(f"a record is a JSON object (minodice/1), not {type(record).__name__}")
    fault = check(record)
    if fault is not None:
        raise ValueError(fault)
    hands = list(record["hands"])
    seats = len(record["seats"])
    if hands:
        last = hands[-1]
        tricks = last.get("tricks") or []
        dealt = len(last["dice"][0])
        if len(tricks) < dealt or len(tricks[-1]["rolls"]) < seats:
            hands.pop()
    out = {key: value for key, value in record.items() if key != "totals"}
    out["hands"] = hands
    return out
