"""The hand's recall in the observation: each seat's dice rolled this hand, and the colours it has shown it lacks."""

from __future__ import annotations

import numpy as np

from minodice.dice import NUMBER_DICE, Die
from minodice.encoding import encode, layout, offsets
from minodice.game import Deal
from minodice.rules import voids_shown

R, Y, P, G = Die.RED, Die.YELLOW, Die.PURPLE, Die.GRAY


def section(obs: np.ndarray, seats: int, name: str) -> np.ndarray:
    """The named section of an observation, as [seats, per-seat size]."""
    o, size = offsets(seats)[name], dict(layout(seats))[name]
    return obs[o : o + size].reshape(seats, size // seats)


def test_voids_shown_by_rolls_under_a_lead_colour() -> None:
    tricks = [
        [(0, R), (1, Y), (2, Die.GRIFFIN)],  # red leads: seat 1 shows it has no red; a special shows nothing
        [(1, Die.MERMAID), (2, P), (0, G)],  # the mermaid sets no colour, purple does: seat 0 has no purple
        [(2, G), (0, G), (1, G)],  # all follow
    ]
    assert voids_shown(tricks, 3) == [{P}, {R}, set()]
    assert voids_shown([], 4) == [set()] * 4


def test_the_observation_shows_each_seats_rolls_and_voids_from_its_own_seat(helpers) -> None:
    game = helpers.external_game(3)
    game.apply(Deal(((R,), (Y,), (P,))))
    helpers.bid_all(game, [0, 0, 0])
    for seat, die in enumerate(("red", "yellow", "purple")):
        helpers.roll(game, seat, die, Die(die).faces[0].value)
    game.apply(Deal(((R, G), (Y, Die.MERMAID), (Die.GRIFFIN, P))))
    start = game.observe(0).start
    helpers.bid_all(game, [0, 0, 0])
    rolls = {start: "yellow", (start + 1) % 3: "purple", (start + 2) % 3: "red"}
    for k in range(3):
        seat = (start + k) % 3
        helpers.roll(game, seat, rolls[seat], Die(rolls[seat]).faces[0].value)
    # Yellow led; the two seats that rolled another colour showed they have no yellow.
    for me in range(3):
        obs = encode(game.observe(me))
        rolled = section(obs, 3, "rolled")
        void = section(obs, 3, "void")
        for seat, die in rolls.items():
            r = (seat - me) % 3
            expect = np.zeros(7)
            expect[Die(die).index] = 1  # only this hand's rolls count
            np.testing.assert_array_equal(rolled[r], expect)
            shows = [c is Y and seat != start for c in NUMBER_DICE]
            np.testing.assert_array_equal(void[r], np.array(shows, np.float32), err_msg=f"seat {seat} from {me}")
