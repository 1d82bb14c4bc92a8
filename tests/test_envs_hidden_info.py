"""Hidden information never leaks into a seat's observation, in any interface.

Two games that differ only in what seat i cannot see (the other seats'
unrolled dice, the bids placed but not yet revealed) must give seat i the same
observation vector, and in OpenSpiel the same information-state string and
tensor.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from minodice.dice import BAG
from minodice.envs import encoding as E
from minodice.envs.table import Table
from minodice.game import EXTERNAL, Bid, Deal, Game, Land, Phase, Roll


def _deals(seats: int, each: int, seat: int, rng: random.Random) -> tuple[Deal, Deal]:
    """Two deals with the same dice for `seat` and (freshly drawn) other dice for everyone else."""
    pool = list(BAG)
    rng.shuffle(pool)
    mine = pool[:each]
    rest = pool[each:]
    rows_a, rows_b = [], []
    other_a = rng.sample(rest, each * (seats - 1))
    other_b = rng.sample(rest, each * (seats - 1))
    k = 0
    for s in range(seats):
        if s == seat:
            rows_a.append(tuple(mine))
            rows_b.append(tuple(mine))
        else:
            rows_a.append(tuple(other_a[k : k + each]))
            rows_b.append(tuple(other_b[k : k + each]))
            k += each
    return Deal(tuple(rows_a)), Deal(tuple(rows_b))


def _play_to_hand(seats: int, hand: int, seed: int) -> Game:
    """An external-chance game whose first `hand - 1` hands were played at random, before its next deal."""
    rng = random.Random(seed)
    played = Game(seats, seed=seed)
    while played.hand < hand:
        played.apply(rng.choice(played.legal_actions()))
    replay = Game(seats, chance=EXTERNAL)
    for h in played.log[:-1]:
        replay.apply(Deal(h.dice))
        for s, b in enumerate(h.bids):
            replay.apply(Bid(s, b))
        for t in h.tricks:
            for s, d, f in t.rolls:
                replay.apply(Roll(s, d))
                replay.apply(Land(f))
    return replay


@given(
    seats=st.integers(3, 6),
    hand=st.integers(1, 4),
    seed=st.integers(0, 10_000),
    data=st.data(),
)
def test_other_seats_dice_and_unrevealed_bids_do_not_change_the_observation(
    seats: int, hand: int, seed: int, data: st.DataObject
) -> None:
    rng = random.Random(seed)
    base = _play_to_hand(seats, hand, seed)
    seat = data.draw(st.integers(0, seats - 1), label="seat")
    a, b = base.clone(EXTERNAL), base.clone(EXTERNAL)
    deal_a, deal_b = _deals(seats, hand, seat, rng)
    a.apply(deal_a)
    b.apply(deal_b)
    start = a.log[-1].start
    table_a, table_b = Table(game=a), Table(game=b)
    # Bids in turn from the start player; the seats before `seat` bid differently in a and b.
    for k in range(seats):
        s = (start + k) % seats
        assert table_a.actor() == s == table_b.actor()
        assert np.array_equal(table_a.observation(seat), table_b.observation(seat))
        assert np.array_equal(table_a.mask(seat), table_b.mask(seat))
        if s == seat:
            break
        table_a.step(s, E.bid_action(rng.randint(0, hand)))
        table_b.step(s, E.bid_action(rng.randint(0, hand)))
    # The observation does show the seat's own dice, and only the bid placed flags of others.
    own = np.zeros(7)
    for d in a.held(seat):
        own[d.index] += 1
    assert np.array_equal(table_a.observation(seat)[:7], own)


@given(seats=st.integers(3, 6), seed=st.integers(0, 10_000), steps=st.integers(0, 60))
def test_flipping_unrolled_dice_mid_hand_leaves_the_observation_unchanged(
    seats: int, seed: int, steps: int
) -> None:
    game = Game(seats, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        game.apply(rng.choice(game.legal_actions()))
    if game.phase is not Phase.ROLL:  # bidding: covered above (determinize withdraws others' bids)
        return
    for seat in range(seats):
        flipped = game.determinize(seat, random.Random(seed + seat))
        assert np.array_equal(Table(game=game).observation(seat), Table(game=flipped).observation(seat))


pyspiel = pytest.importorskip("pyspiel")

import minodice.envs.openspiel as M  # noqa: E402


@given(seats=st.integers(3, 5), seed=st.integers(0, 10_000))
def test_openspiel_information_state_ignores_other_seats_draws_and_hidden_bids(seats: int, seed: int) -> None:
    rng = random.Random(seed)
    game = pyspiel.load_game(M.GAME_NAME, {"players": seats})
    seat = rng.randrange(seats)
    deal_a, deal_b = _deals(seats, 1, seat, rng)
    a, b = game.new_initial_state(), game.new_initial_state()
    for state, deal in ((a, deal_a), (b, deal_b)):
        for row in deal.dice:
            for die in row:
                state.apply_action(M.DRAW_OFFSET + die.index)
    while a.current_player() != seat:  # earlier bidders bid differently in a and b
        a.apply_action(rng.randint(0, 1))
        b.apply_action(rng.randint(0, 1))
    assert a.information_state_string(seat) == b.information_state_string(seat)
    assert np.array_equal(a.information_state_tensor(seat), b.information_state_tensor(seat))
    assert a.observation_string(seat) == b.observation_string(seat)
    assert np.array_equal(a.observation_tensor(seat), b.observation_tensor(seat))
    # While a die rolls (a chance node), every seat's information is still its own.
    a.apply_action(1)
    b.apply_action(1)
    while a.current_player() >= 0 and a.engine.phase is Phase.BID:
        a.apply_action(0)
        b.apply_action(0)
    if deal_a.dice != deal_b.dice:
        others = [s for s in range(seats) if s != seat and deal_a.dice[s] != deal_b.dice[s]]
        assert any(a.information_state_string(s) != b.information_state_string(s) for s in others)
