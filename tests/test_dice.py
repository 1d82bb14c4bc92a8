"""The dice table of RULES.md ("Components"), the bag and the seeded chance source."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from minodice.dice import (
    BAG,
    BAG_COUNTS,
    FACES,
    HANDS_BY_SEATS,
    NUMBER_DICE,
    SPECIAL_DICE,
    Die,
    Face,
    dice_called,
    die_named,
    face_named,
    faces_called,
    hands_for,
    over_bag,
)
from minodice.game import Game, SeededChance

# RULES.md, "Components": name -> (count, faces)
TABLE = {
    "minotaur": (1, ["minotaur"] * 4 + ["flag"] * 2),
    "griffin": (3, ["griffin"] * 4 + ["flag"] * 2),
    "mermaid": (2, ["mermaid"] * 4 + ["flag"] * 2),
    "red": (7, ["5", "5", "6", "6", "7", "7"]),
    "yellow": (7, ["3", "3", "4", "4", "5", "5"]),
    "purple": (8, ["1", "1", "2", "2", "3", "3"]),
    "gray": (8, ["flag", "flag", "flag", "1", "1", "7"]),
}


def test_bag_holds_36_dice():
    assert len(BAG) == 36
    assert sum(BAG_COUNTS.values()) == 36


def test_seven_kinds_of_die_named_as_in_records():
    assert [d.value for d in Die] == list(TABLE)


@pytest.mark.parametrize("name", list(TABLE))
def test_die_count(name):
    assert BAG_COUNTS[Die(name)] == TABLE[name][0]
    assert Counter(BAG)[Die(name)] == TABLE[name][0]


@pytest.mark.parametrize("name", list(TABLE))
def test_die_faces(name):
    die = Die(name)
    assert len(die.faces) == 6
    assert Counter(f.value for f in die.faces) == Counter(TABLE[name][1])
    assert FACES[die] == die.faces


def test_face_names():
    assert {f.value for f in Face} == {"flag", "1", "2", "3", "4", "5", "6", "7", "minotaur", "griffin", "mermaid"}
    assert str(Face.FLAG) == "flag" and str(Die.RED) == "red"


def test_flag_counts_as_zero_and_numbers_as_themselves():
    assert Face.FLAG.number == 0
    for n in range(1, 8):
        assert Face(str(n)).number == n
        assert not Face(str(n)).special
    assert not Face.FLAG.special


def test_special_faces():
    assert {f for f in Face if f.special} == {Face.MINOTAUR, Face.GRIFFIN, Face.MERMAID}


def test_special_and_number_dice():
    assert SPECIAL_DICE == (Die.MINOTAUR, Die.GRIFFIN, Die.MERMAID)
    assert NUMBER_DICE == (Die.RED, Die.YELLOW, Die.PURPLE, Die.GRAY)
    for d in SPECIAL_DICE:
        assert d.special and d.colour is None
    for d in NUMBER_DICE:
        assert not d.special and d.colour is d  # a number die's name is its colour


def test_every_special_die_has_two_flags():
    for d in SPECIAL_DICE:
        assert d.faces.count(Face.FLAG) == 2


def test_names_parse():
    for d in Die:
        assert die_named(d.value) is d
    for f in Face:
        assert face_named(f.value) is f
    for bad in ("Red", "blue", "", None, 3, ["red"], {"red": 1}):
        assert die_named(bad) is None
    for bad in ("Flag", "8", "0", None, 5, ["5"]):
        assert face_named(bad) is None


def test_indices_are_table_order():
    assert [d.index for d in Die] == list(range(7))
    assert [f.index for f in Face] == list(range(11))


@pytest.mark.parametrize(("seats", "hands"), [(3, 8), (4, 8), (5, 7), (6, 6)])
def test_hands_for(seats, hands):
    assert hands_for(seats) == hands == HANDS_BY_SEATS[seats]


@pytest.mark.parametrize("seats", [0, 1, 2, 7, 10])
def test_hands_for_refuses_other_table_sizes(seats):
    with pytest.raises(ValueError, match="3 to 6"):
        hands_for(seats)


def test_the_largest_deal_fits_the_bag():
    for seats, hands in HANDS_BY_SEATS.items():
        assert seats * hands <= len(BAG)


def test_over_bag():
    assert over_bag([]) is None
    assert over_bag(BAG) is None
    assert over_bag([Die.MINOTAUR, Die.MINOTAUR]) is Die.MINOTAUR
    assert over_bag([Die.RED] * 7 + [None, None]) is None
    assert over_bag([Die.RED] * 8) is Die.RED


def test_seeded_deal_draws_from_the_bag_without_replacement():
    chance = SeededChance(3)
    game = Game(6, seed=0)
    for each in range(1, 7):
        rows = chance.deal(game, each, each)
        assert len(rows) == 6 and all(len(r) == each for r in rows)
        assert over_bag(d for r in rows for d in r) is None
    rows = chance.deal(game, 6, 6)  # 6 seats x 6 dice: the whole bag
    assert Counter(d for r in rows for d in r) == Counter(BAG)


def test_seeded_land_gives_a_face_of_the_die_each_equally_often():
    chance = SeededChance(11)
    game = Game(3, seed=0)
    n = 60_000
    seen = Counter(chance.land(game, 0, Die.GRAY) for _ in range(n))
    assert set(seen) == {Face.FLAG, Face.ONE, Face.SEVEN}
    # 3 of 6 faces are flags, 2 are ones, 1 is a seven
    assert abs(seen[Face.FLAG] / n - 3 / 6) < 0.01
    assert abs(seen[Face.ONE] / n - 2 / 6) < 0.01
    assert abs(seen[Face.SEVEN] / n - 1 / 6) < 0.01


def test_seeded_chance_is_reproducible_and_copyable():
    a, b = SeededChance(5), SeededChance(5)
    game = Game(4, seed=0)
    assert a.deal(game, 3, 3) == b.deal(game, 3, 3)
    twin = a.copy()
    rng = random.Random(0)
    dice = [rng.choice(BAG) for _ in range(50)]
    assert [a.land(game, 0, d) for d in dice] == [twin.land(game, 0, d) for d in dice]


def test_dice_are_called_as_people_type_them() -> None:
    """One parser for every prompt: names, other names, prefixes; several dice for a shared prefix."""
    for die in Die:
        assert dice_called(die.value) == (die,) and dice_called(f" {die.value.upper()} ") == (die,)
        for n in range(1, len(die.value) + 1):  # every prefix reaches the die, alone or with others
            assert die in dice_called(die.value[:n])
    assert dice_called("grey") == (Die.GRAY,) and dice_called("gre") == (Die.GRAY,)
    assert dice_called("violet") == (Die.PURPLE,)
    assert dice_called("r") == (Die.RED,) and dice_called("mino") == (Die.MINOTAUR,)
    assert dice_called("g") == (Die.GRIFFIN, Die.GRAY) and dice_called("m") == (Die.MINOTAUR, Die.MERMAID)
    assert dice_called("") == () and dice_called("blue") == () and dice_called("reds") == ()


def test_faces_are_called_among_a_dies_faces() -> None:
    assert faces_called("f", Die.GRAY.faces) == (Face.FLAG,)
    assert faces_called("7", Die.GRAY.faces) == (Face.SEVEN,) and faces_called("6", Die.GRAY.faces) == ()
    assert faces_called("m", Die.MINOTAUR.faces) == (Face.MINOTAUR,)
    assert faces_called("m") == (Face.MINOTAUR, Face.MERMAID)  # among every face a prefix can be shared
    for die in Die:  # no two faces of one die share a first letter: one letter always names the face
        assert all(faces_called(f.value[0], die.faces) == (f,) for f in die.faces)
