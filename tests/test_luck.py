"""The luck of the faces (`analysis.luck`): a roll's luck averages to 0 over its faces, scores less luck
keep their mean and lose much of their spread, and a hand still being played gives nothing away."""

from __future__ import annotations

import copy
import statistics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minodice.analysis.luck import face_luck, roll_luck
from minodice.bots import make_bot
from minodice.bots.explain import position_from_record
from minodice.bots.runner import Match
from minodice.game import Game
from minodice.record import from_game


def _played(seats: int, seed: int, bot: str = "greedy") -> Game:
    game = Game(seats, seed=seed)
    return Match(game, {s: make_bot(bot, seed=seed * 10 + s) for s in range(seats)}).play()


def _stopped_at_roll(seats: int, seed: int, rolls: int) -> Game:
    """A game of random bots stopped before roll `rolls` (from 0) of hand 2."""
    record = from_game(_played(seats, seed, "random"))
    return position_from_record(record, 2, trick=1 + rolls // seats, roll=1 + rolls % seats)


@settings(max_examples=15, deadline=None)
@given(seats=st.integers(3, 6), seed=st.integers(0, 10_000), rolls=st.integers(0, 5))
def test_a_rolls_luck_averages_to_zero_over_its_faces(seats: int, seed: int, rolls: int) -> None:
    game = _stopped_at_roll(seats, seed, rolls)
    seat = game.turn
    for roll in game.legal_rolls():
        by_face = roll_luck(game, seat, roll.die, playouts=16, seed=seed)
        assert set(by_face) == set(roll.die.faces)
        for s in range(seats):
            mean = sum(by_face[f][s] * roll.die.faces.count(f) / 6 for f in by_face)
            assert abs(mean) < 1e-9


def test_scores_less_luck_keep_their_mean_and_lose_most_of_their_spread() -> None:
    raw: list[float] = []
    corrected: list[float] = []
    luck_sums: list[float] = []
    for seed in range(24):
        game = _played(4, seed)
        luck = face_luck(from_game(game), playouts=64, seed=seed)
        for hand, hand_luck in zip(game.log, luck.hands, strict=True):
            assert hand.scores is not None
            raw.extend(hand.scores)
            corrected.extend(s - x for s, x in zip(hand.scores, hand_luck, strict=True))
        luck_sums.extend(luck.totals)
        assert luck.corrected(game.totals) == tuple(t - x for t, x in zip(game.totals, luck.totals, strict=True))
    # Unbiased: the luck of a game averages to 0 (within four standard errors over 96 seats' games).
    assert abs(statistics.fmean(luck_sums)) < 4 * statistics.stdev(luck_sums) / len(luck_sums) ** 0.5
    # The faces are most of the noise of a hand's score: taking their luck out at least halves its spread.
    assert statistics.stdev(corrected) < 0.5 * statistics.stdev(raw)


def test_only_finished_hands_have_luck_so_the_hand_in_play_gives_nothing_away() -> None:
    record = from_game(_played(4, 3))
    stopped = copy.deepcopy(record)
    stopped["hands"] = stopped["hands"][:5]
    hand = stopped["hands"][4]
    hand["tricks"] = hand["tricks"][:2]  # hand 5 stops after two tricks: not finished
    hand.pop("scores", None)
    stopped.pop("totals", None)
    finished = copy.deepcopy(stopped)
    finished["hands"] = finished["hands"][:4]
    luck, before = face_luck(stopped, playouts=32), face_luck(finished, playouts=32)
    assert len(luck.hands) == 4 and luck == before
    assert all(r.hand <= 4 for r in luck.rolls)


def test_each_roll_is_listed_where_it_was_rolled() -> None:
    game = _played(3, 11)
    record = from_game(game)
    luck = face_luck(record, playouts=16)
    rolls = [(k, t, r, roll["seat"], roll["die"], roll["face"])
             for k, hand in enumerate(record["hands"], start=1)
             for t, trick in enumerate(hand["tricks"], start=1)
             for r, roll in enumerate(trick["rolls"], start=1)]
    assert [(x.hand, x.trick, x.roll, x.seat, x.die.value, x.face.value) for x in luck.rolls] == rolls
    assert face_luck(record, playouts=16) == luck  # the same record and seed, the same luck


def test_a_seats_record_of_a_game_in_play_has_the_luck_of_its_finished_hands() -> None:
    record = from_game(_played(3, 2))
    seats_view = copy.deepcopy(record)
    hand = seats_view["hands"][2]  # a seat's record: hand 3 after one trick, seat 1's unrolled dice hidden
    hand["tricks"] = hand["tricks"][:1]
    hand.pop("scores", None)
    hand["dice"][1] = [next(r["die"] for r in hand["tricks"][0]["rolls"] if r["seat"] == 1), None, None]
    seats_view["hands"] = seats_view["hands"][:3]
    seats_view.pop("totals", None)
    host = copy.deepcopy(record)
    host["hands"] = host["hands"][:2]
    host.pop("totals", None)
    assert face_luck(seats_view, playouts=16) == face_luck(host, playouts=16)
    assert len(face_luck(seats_view, playouts=16).hands) == 2


def test_bad_records_and_budgets_are_refused_in_words() -> None:
    record = from_game(_played(3, 2))
    broken = copy.deepcopy(record)
    broken["hands"][1]["tricks"][0]["rolls"][0]["face"] = "banana"
    with pytest.raises(ValueError, match="hand 2"):
        face_luck(broken)
    for playouts in (0, -3, 2.5, True, 1 << 40):
        with pytest.raises(ValueError, match="playouts must be a whole number from 1 to 65,536"):
            face_luck(record, playouts=playouts)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="format"):
        face_luck({"format": "something else"})
    with pytest.raises(ValueError):
        face_luck("not a record")  # type: ignore[arg-type]
