"""The typed views of the legal choices (`Game.legal_bids`/`legal_rolls`, `View.legal_bids`/`legal_dice`,
`revealed_bids`) agree with the untyped ones they stand for, and `# type: ignore` stays rare and explained."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from minodice.dice import Die
from minodice.game import EXTERNAL, Bid, Deal, Game, Land, Phase, Roll

SRC = Path(__file__).resolve().parents[1] / "src" / "minodice"


def _walk(seed: int, seats: int):
    """Every state of a random game (seeded chance, seats acting at random), one after another."""
    rng = random.Random(seed)
    game = Game(seats, seed=seed)
    while not game.over:
        yield game
        game.apply(rng.choice(game.legal_actions()))
    yield game


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_game_helpers_are_legal_actions_split_by_type(seats: int) -> None:
    for game in _walk(seed=seats, seats=seats):
        for seat in range(seats):
            actions = game.legal_actions(seat)
            bids, rolls = game.legal_bids(seat), game.legal_rolls(seat)
            assert all(type(b) is Bid for b in bids) and all(type(r) is Roll for r in rolls)
            assert actions == (bids if game.phase is Phase.BID else rolls)
            assert not (bids and rolls)
        assert game.legal_rolls() == (game.legal_actions() if game.phase is Phase.ROLL else [])


def test_the_seat_to_roll_gets_its_rolls_and_no_one_else() -> None:
    game = Game(4, seed=11)
    assert game.legal_rolls() == [] and [b.bid for b in game.legal_bids(3)] == [0, 1]
    for seat in range(4):
        game.apply(Bid(seat, 0))
    assert game.legal_bids(0) == [] and game.legal_bids(9) == []
    turn = game.turn
    assert game.legal_rolls() == game.legal_rolls(turn) == [Roll(turn, d) for d in game.held(turn)]
    assert all(game.legal_rolls(s) == [] for s in range(4) if s != turn)


def test_no_player_choice_while_a_die_lands() -> None:
    game = Game(3, chance=EXTERNAL)
    game.apply(Deal(((Die.RED,), (Die.GRAY,), (Die.MERMAID,))))
    for seat in range(3):
        game.apply(Bid(seat, 1))
    game.apply(Roll(0, Die.RED))
    assert game.phase is Phase.LAND
    assert game.legal_rolls() == [] and game.legal_bids(0) == []
    assert {a.face for a in game.legal_actions() if isinstance(a, Land)} == set(Die.RED.faces)


def test_view_helpers_are_legal_split_by_type() -> None:
    for game in _walk(seed=5, seats=4):
        if game.over:
            break
        for seat in range(4):
            view = game.observe(seat)
            assert view.legal_bids == tuple(b.bid for b in game.legal_bids(seat))
            assert view.legal_dice == tuple(r.die for r in game.legal_rolls(seat))
            assert (view.legal or ()) == (view.legal_bids or view.legal_dice)
        spectator = game.observe()
        assert spectator.legal_bids == spectator.legal_dice == ()


def test_revealed_bids_only_once_every_seat_has_bid() -> None:
    game = Game(3, seed=2)
    for seat, bid in ((0, 1), (1, 0)):
        game.apply(Bid(seat, bid))
        assert game.log[-1].revealed_bids is None and game.observe(seat).revealed_bids is None
    game.apply(Bid(2, 1))
    assert game.log[-1].revealed_bids == (1, 0, 1)
    assert game.observe(0).revealed_bids == game.observe().revealed_bids == (1, 0, 1)


def test_an_unknown_chance_source_is_refused_in_words() -> None:
    with pytest.raises(ValueError, match="unknown chance source 'extrenal'"):
        Game(4, chance="extrenal")
    game = Game(4, seed=1)
    with pytest.raises(ValueError, match="unknown chance source"):
        game.clone(chance="seeded")
    assert game.clone(chance=EXTERNAL).chance is None
    game.set_chance(EXTERNAL)
    assert game.chance is None


def test_type_ignores_are_few_and_each_says_why() -> None:
    ignores = []
    for path in sorted(SRC.rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            if "# type: ignore" not in line:
                continue
            where = f"{path.relative_to(SRC)}:{i + 1}"
            assert re.search(r"# type: ignore\[[a-z-]+(,[a-z-]+)*\]", line), f"{where}: an ignore names its error code"
            after = line.split("# type: ignore", 1)[1].split("]", 1)[1].strip(" #")
            assert after or lines[i - 1].strip().startswith("#"), f"{where}: an ignore says why (after it, or above)"
            ignores.append(where)
    assert len(ignores) <= 5, ignores
