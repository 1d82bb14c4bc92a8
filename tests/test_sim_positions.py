"""`sim.positions`: an engine position loaded into the vector simulator, and its hand finished there.

The row `position_row` makes must show the seat to act what the engine's view shows (the network's
features, the greedy hints, the legal moves), and `finish_hands` must play the hand on as the engine
does: the same uniforms through both (`StreamChance`), the caller's moves replayed in the engine,
the other seats greedy (`GreedyBot`), the same hand score.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minodice.bots.greedy import GreedyBot
from minodice.bots.network import features, greedy_hints
from minodice.dice import Die
from minodice.encoding import DICE, NUM_ACTIONS, NUM_BIDS, action_mask, encode
from minodice.game import Bid, Game, Phase, Roll
from minodice.rules import Rules
from minodice.sim import kernel as K
from minodice.sim import vector as V
from minodice.sim.playout import strength_array
from minodice.sim.positions import CALLER, finish_hands, position_row
from sim_stream import StreamChance

GREEDY = GreedyBot()


def play_to(game: Game, decisions: int, rng: random.Random) -> Game:
    """Play `game` on for `decisions` moves (bids at once, rolls one by one; random or greedy), stopping
    early at a roll or at the start of a hand's bidding, never after the game."""
    for _ in range(decisions):
        if game.phase is Phase.BID:
            for s in range(game.seats):
                view = game.observe(s)
                game.apply(Bid(s, GREEDY.bid(view) if rng.random() < 0.5 else rng.choice(view.legal_bids)))
        elif game.phase is Phase.ROLL:
            view = game.observe(game.turn)
            die = GREEDY.roll(view) if rng.random() < 0.5 else rng.choice(view.legal_dice)
            game.apply(Roll(game.turn, die))
        if game.phase is Phase.BID and game.hand == game.hands:  # the last hand: keep a position in it
            break
    return game


def positions(seats: int, seed: int, rules: Rules | None = None) -> list[Game]:
    """Copies of one game at many of its positions (every few moves), bidding and rolling."""
    rng = random.Random(seed)
    game = Game(seats, rules=rules, seed=seed)
    out = []
    while not game.over and len(out) < 12:
        play_to(game, rng.randint(1, 4), rng)
        if game.phase in (Phase.BID, Phase.ROLL):
            out.append(game.clone())
        if game.phase is Phase.BID and game.hand == game.hands:
            break
    return out


def loaded_decision(game: Game) -> tuple[np.ndarray, np.ndarray, int]:
    """The kernel's observation, mask and actor of `game`'s position, loaded as a row, every seat an agent."""
    seats = game.seats
    state = position_row(game)[None, :].copy()
    rng = np.zeros((1, 4), dtype=np.uint64)
    obs = np.zeros((1, len(encode(game.observe(0)))), dtype=np.float32)
    mask = np.zeros((1, NUM_ACTIONS), dtype=np.bool_)
    actor = np.zeros(1, dtype=np.int64)
    rules = tuple(int(x) for x in K.encode_rules(game.rules))
    V.play_on_kernel(state, rng, np.zeros(0), seats, game.hands, ((1 << seats) - 1, 0), rules,
                     strength_array(seats, game.rules), V.section_offsets(seats), obs, mask, actor)
    hints = np.zeros((1, NUM_ACTIONS), dtype=np.float32)
    V.hints_kernel(state, actor, seats, rules, strength_array(seats, game.rules), NUM_BIDS, hints)
    return features(obs, seats, hints)[0], mask[0], int(actor[0])


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_a_loaded_position_shows_the_seat_what_the_engine_shows(seats: int) -> None:
    """The network's input, the legal moves and the seat to act, from the row and from the engine's view."""
    for game in positions(seats, seed=seats):
        x, mask, actor = loaded_decision(game)
        seat = game.turn if game.phase is Phase.ROLL else game.log[-1].start  # the kernel bids in turn
        assert actor == seat
        view = game.observe(seat)
        expected = features(encode(view, sequential_bids=False), seats, greedy_hints(view))[0]
        np.testing.assert_allclose(x, expected, rtol=1e-5, atol=1e-6)
        assert mask.tolist() == action_mask(view).astype(bool).tolist()


def finish_in_engine(game: Game, seat: int, first: int, moves: list[int], caller: bool) -> list[int]:
    """Play `game`'s hand on in the engine: `seat` makes its `first` move, then every move the caller
    chose comes from `moves` in order (`seat`'s, and with `caller` every seat's); the others play greedy.
    Bids go in turn from the start player, as the kernel takes them. Every seat's hand score."""
    moves = list(moves)
    hand = game.log[-1]
    started = False

    def move(s: int, greedy: int | Die) -> int | Die:
        nonlocal started
        if s == seat and not started:
            started = True
            a = first
        elif s == seat or caller:
            a = moves.pop(0)
        else:
            return greedy
        return a if a < NUM_BIDS else DICE[a - NUM_BIDS]

    while hand.scores is None:
        if game.phase is Phase.BID:
            for i in range(game.seats):
                s = (hand.start + i) % game.seats
                view = game.observe(s)
                game.apply(Bid(s, int(move(s, GREEDY.bid(view)))))
        else:
            s = game.turn
            die = move(s, GREEDY.roll(game.observe(s)))
            assert isinstance(die, Die)
            game.apply(Roll(s, die))
    assert not moves
    return list(hand.scores)


@settings(max_examples=60, deadline=None)
@given(seats=st.integers(3, 6), seed=st.integers(0, 10_000), pick=st.integers(0, 11), choice_seed=st.integers(0, 99),
       others=st.sampled_from(["greedy", CALLER, "chooser"]), rivals=st.sampled_from([0.0, 0.0, 1.0, 0.5]))
def test_finishing_a_hand_matches_the_engine(seats: int, seed: int, pick: int, choice_seed: int, others: str,
                                             rivals: float) -> None:
    """From a position of the engine, the same uniforms and the same moves give the same hand score, with
    the other seats played by the kernel's greedy, by `choose` or by a second chooser; with `rivals`, the
    seat's score less `rivals` times the other seats' mean."""
    found = positions(seats, seed, Rules(hand_start="last_winner") if seed % 2 else None)
    game = found[pick % len(found)]
    seat = game.turn if game.phase is Phase.ROLL else random.Random(seed).randrange(seats)
    uniforms = np.random.default_rng(seed).random(400)
    game.chance = StreamChance(uniforms.tolist())
    rng = np.random.default_rng(choice_seed)
    first = int(rng.choice(np.flatnonzero(action_mask(game.observe(seat)))))
    moves: list[int] = []

    def choose(obs: np.ndarray, mask: np.ndarray, hints: np.ndarray) -> np.ndarray:
        a = int(rng.choice(np.flatnonzero(mask[0])))
        moves.append(a)
        return np.array([a])

    def reply(obs: np.ndarray, mask: np.ndarray, hints: np.ndarray) -> np.ndarray:
        return choose(obs, mask, hints)  # the same moves in turn, called as the other seats' own chooser

    row = position_row(game)[None, :]
    score = finish_hands(row, np.zeros(1, dtype=np.uint64), seat, np.array([first]), choose, game.rules,
                         others=reply if others == "chooser" else others, uniforms=uniforms[None, :], rivals=rivals)
    scores = finish_in_engine(game, seat, first, moves, others != "greedy")
    lead = scores[seat] - rivals * (sum(scores) - scores[seat]) / (seats - 1)
    assert score.tolist() == [pytest.approx(lead)]


def test_equal_seeds_give_equal_playouts_and_different_ones_differ() -> None:
    """Common random numbers: the seeds, not the row's place, decide the faces."""
    game = positions(4, seed=3)[5]
    seat = game.turn if game.phase is Phase.ROLL else 0
    first = int(np.flatnonzero(action_mask(game.observe(seat)))[0])
    rows = np.repeat(position_row(game)[None, :], 64, axis=0)

    def lowest(obs: np.ndarray, mask: np.ndarray, hints: np.ndarray) -> np.ndarray:
        return mask.argmax(axis=1)

    seeds = np.repeat(np.arange(32, dtype=np.uint64), 2)
    scores = finish_hands(rows, seeds, seat, np.full(64, first), lowest, game.rules)
    assert (scores[0::2] == scores[1::2]).all()
    assert len(set(scores.tolist())) > 1


def test_bad_positions_and_moves_are_refused_in_words() -> None:
    game = Game(4, seed=1)
    play_to(game, 1, random.Random(0))
    game.apply(Bid(0, 0)) if game.phase is Phase.BID else None
    if game.phase is Phase.BID:
        with pytest.raises(ValueError, match="no bid placed"):
            position_row(game)
    done = Game(3, seed=2)
    while not done.over:
        play_to(done, 50, random.Random(1))
        if done.phase is Phase.BID and done.hand == done.hands:
            for s in range(3):
                done.apply(Bid(s, 0))
            while not done.over:
                done.apply(Roll(done.turn, done.observe(done.turn).legal_dice[0]))
    with pytest.raises(ValueError, match="wait for a bid or a roll"):
        position_row(done)
    start = positions(4, seed=4)[3]
    seat = start.turn if start.phase is Phase.ROLL else 0
    with pytest.raises(ValueError, match="first move, action 99, is not legal"):
        finish_hands(position_row(start)[None, :], np.zeros(1, dtype=np.uint64), seat, np.array([99]),
                     lambda o, m, h: m.argmax(axis=1), start.rules)
    mixed = np.stack([position_row(start), position_row(positions(3, seed=4)[3])])
    with pytest.raises(ValueError, match="one hand and one seat count"):
        finish_hands(mixed, np.zeros(2, dtype=np.uint64), seat, np.array([0, 0]), lambda o, m, h: m.argmax(axis=1),
                     start.rules)
    with pytest.raises(ValueError, match=r"others must be .*, caller or a chooser, not 'clever'"):
        finish_hands(position_row(start)[None, :], np.zeros(1, dtype=np.uint64), seat, np.array([0]),
                     lambda o, m, h: m.argmax(axis=1), start.rules, others="clever")
    with pytest.raises(ValueError, match="a leaf estimates the seat's own points only: rivals needs the hands played"):
        finish_hands(position_row(start)[None, :], np.zeros(1, dtype=np.uint64), seat, np.array([0]),
                     lambda o, m, h: m.argmax(axis=1), start.rules, leaf=lambda o, m, h: m[:, 0] * 0.0, depth=1,
                     rivals=1.0)


def test_a_leaf_estimate_stops_each_row_after_the_seats_first_moves() -> None:
    """With `leaf`, a row ends at the seat's move after `depth` of its moves: the points so far plus the
    estimate; a hand that ends sooner scores as played."""
    found = [g for g in positions(4, seed=8) if g.phase is Phase.ROLL]
    lowest = lambda obs, mask, hints: mask.argmax(axis=1)  # noqa: E731
    calls: list[np.ndarray] = []

    def leaf(obs: np.ndarray, mask: np.ndarray, hints: np.ndarray) -> np.ndarray:
        calls.append(obs)
        return np.full(obs.shape[0], 1000.0)

    for game in found:
        seat = game.turn
        left = len(game.held(seat))
        first = np.full(5, NUM_BIDS + game.observe(seat).legal_dice[0].index)
        rows = np.repeat(position_row(game)[None, :], 5, axis=0)
        seeds = np.arange(5, dtype=np.uint64)
        played = finish_hands(rows, seeds, seat, first, lowest, game.rules)
        for depth in (1, 2):
            calls.clear()
            cut = finish_hands(rows, seeds, seat, first, lowest, game.rules, leaf=leaf, depth=depth)
            if left > depth:
                assert cut.tolist() == [1000.0] * 5 and len(calls) == 1
            else:
                assert cut.tolist() == played.tolist() and not calls


def test_a_leaf_estimate_with_chosen_replies_stops_each_row_at_its_own_time() -> None:
    """With the other seats played by a chooser, rows reach the seat's next move after different numbers
    of steps (whoever wins the trick leads the next): each row is judged by `leaf` once, when it gets
    there; the other seats' chooser sees only rows where another seat acts."""
    game = next(g for g in positions(4, seed=8) if g.phase is Phase.ROLL and len(g.held(g.turn)) >= 3)
    seat = game.turn
    games = 64
    rows = np.repeat(position_row(game)[None, :], games, axis=0)
    seeds = np.arange(games, dtype=np.uint64)
    first = np.full(games, NUM_BIDS + game.observe(seat).legal_dice[0].index)
    lowest = lambda obs, mask, hints: mask.argmax(axis=1)  # noqa: E731
    judged: list[int] = []
    replied: list[int] = []

    def leaf(obs: np.ndarray, mask: np.ndarray, hints: np.ndarray) -> np.ndarray:
        judged.append(obs.shape[0])
        return np.full(obs.shape[0], 1000.0)

    def reply(obs: np.ndarray, mask: np.ndarray, hints: np.ndarray) -> np.ndarray:
        replied.append(obs.shape[0])
        return mask.argmax(axis=1)

    cut = finish_hands(rows, seeds, seat, first, lowest, game.rules, others=reply, leaf=leaf, depth=1)
    assert cut.tolist() == [1000.0] * games
    assert sum(judged) == games and len(judged) > 1  # rows got there after different numbers of replies
    assert max(replied) == games and min(replied) < games  # after the first trick, fewer rows await a reply
    same = finish_hands(rows, seeds, seat, first, lowest, game.rules, others=lowest, leaf=leaf, depth=1)
    assert same.tolist() == cut.tolist()
    kernel = finish_hands(rows, seeds, seat, first, lowest, game.rules, leaf=leaf, depth=1)
    assert kernel.tolist() == cut.tolist()
    with pytest.raises(ValueError, match="the move others gave, action 99, is not legal"):
        finish_hands(rows, seeds, seat, first, lowest, game.rules, others=lambda o, m, h: np.full(o.shape[0], 99))
    with pytest.raises(ValueError, match=r"a chooser must give one number per row \(64\), not 1"):
        finish_hands(rows, seeds, seat, first, lowest, game.rules, others=lambda o, m, h: np.zeros(1))
