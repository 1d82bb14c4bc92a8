"""The OpenSpiel game python_mino_dice: OpenSpiel's random simulation test, the engine's scores,
resampling, and OpenSpiel's ISMCTS bot."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import minodice.envs.openspiel as M  # noqa: E402
from minodice.envs import encoding as E  # noqa: E402
from minodice.game import Game  # noqa: E402
from minodice.rules import Rules  # noqa: E402


@pytest.mark.parametrize(
    "params",
    [{"players": 3}, {"players": 4, "scoring": "landlubber", "all_specials": "griffin"},
     {"players": 6, "hand_start": "last_winner", "all_flags": "last"}],
)
def test_random_sim_test_with_serialization(params: dict) -> None:
    game = pyspiel.load_game(M.GAME_NAME, params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_game_parameters_and_sizes() -> None:
    game = pyspiel.load_game(M.GAME_NAME, {"players": 5})
    assert game.num_players() == 5
    assert game.num_distinct_actions() == E.NUM_ACTIONS
    assert game.observation_tensor_shape() == [E.observation_size(5)]
    assert game.information_state_tensor_shape() == [E.observation_size(5) + E.history_size(5)]
    assert game.get_type().short_name == "python_mino_dice"
    default = pyspiel.load_game(M.GAME_NAME)
    assert default.num_players() == 4


@pytest.mark.parametrize(
    "params", [{"players": 2}, {"players": 7}, {"scoring": "golf"}, {"players": 4, "colour": "red"}]
)
def test_bad_parameters_are_refused(params: dict) -> None:
    with pytest.raises(Exception, match=r"players|scoring|colour|parameter"):
        pyspiel.load_game(M.GAME_NAME, params)


def _engine_game(seats: int, seed: int, rules: Rules) -> Game:
    game = Game(seats, seed=seed, rules=rules)
    rng = random.Random(seed)
    while not game.over:
        game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize(("seats", "seed"), [(3, 1), (4, 2), (5, 3), (6, 4), (4, 5)])
def test_openspiel_and_the_engine_score_the_same_seeded_games_identically(seats: int, seed: int) -> None:
    rules = Rules(scoring="landlubber") if seed == 5 else Rules(hand_start="last_winner" if seed % 2 else "rotate")
    engine = _engine_game(seats, seed, rules)
    params = {"players": seats, **rules.to_dict()}
    state = pyspiel.load_game(M.GAME_NAME, params).new_initial_state()
    for hand in engine.log:
        for row in hand.dice:  # the draws: seat 0's dice, then seat 1's, ...
            for die in row:
                assert state.is_chance_node()
                state.apply_action(M.DRAW_OFFSET + die.index)
        while state.current_player() >= 0 and state.engine.phase.value == "bid":
            seat = state.current_player()
            state.apply_action(E.bid_action(hand.bids[seat]))
        for trick in hand.tricks:
            for seat, die, face in trick.rolls:
                assert state.current_player() == seat
                state.apply_action(E.roll_action(die))
                assert state.is_chance_node()
                state.apply_action(M.LAND_OFFSET + face.index)
        if not state.is_terminal():
            assert state.rewards() == [float(p) for p in hand.scores]
    assert state.is_terminal()
    assert state.returns() == [float(t) for t in engine.totals]
    assert state.rewards() == [float(p) for p in engine.log[-1].scores]


def _random_state(game, seed: int, steps: int):
    """A state reached by `steps` random moves (chance sampled), stopped at a player's decision."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    done = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        if done >= steps:
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
        done += 1
    return state


def test_serialize_and_pickle_round_trip() -> None:
    game = pyspiel.load_game(M.GAME_NAME, {"players": 4})
    state = _random_state(game, 3, 40)
    text = pyspiel.serialize_game_and_state(game, state)
    _, back = pyspiel.deserialize_game_and_state(text)
    assert str(back) == str(state) and back.history() == state.history()
    assert back.information_state_string(1) == state.information_state_string(1)
    assert str(pickle.loads(pickle.dumps(state))) == str(state)


def test_chance_outcomes_follow_the_bag() -> None:
    game = pyspiel.load_game(M.GAME_NAME, {"players": 3})
    state = game.new_initial_state()
    outcomes = dict(state.chance_outcomes())
    assert outcomes[M.DRAW_OFFSET + 0] == pytest.approx(1 / 36)  # the one minotaur die
    assert outcomes[M.DRAW_OFFSET + 6] == pytest.approx(8 / 36)  # eight gray dice
    state.apply_action(M.DRAW_OFFSET + 0)
    assert M.DRAW_OFFSET + 0 not in dict(state.chance_outcomes())
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, M.LAND_OFFSET + 9) == "land griffin"


@pytest.mark.parametrize("steps", [0, 2, 5, 9, 30])
def test_resample_keeps_the_information_state(steps: int) -> None:
    game = pyspiel.load_game(M.GAME_NAME, {"players": 4})
    state = _random_state(game, steps, steps)
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differs = False
    for _ in range(10):
        other = state.resample_from_infostate(player, sampler)
        assert other.current_player() == player
        assert other.information_state_string() == state.information_state_string()
        assert np.array_equal(other.information_state_tensor(), state.information_state_tensor())
        assert np.array_equal(other.observation_tensor(), state.observation_tensor())
        assert other.legal_actions() == state.legal_actions()
        differs |= str(other) != str(state)
    assert differs  # the hidden part really was resampled


def test_ismcts_bot_plays() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(M.GAME_NAME, {"players": 3})
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=8,
                           random_state=rng)
    state = game.new_initial_state()
    moves = 0
    while moves < 8:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(int(action))
        moves += 1


def test_resample_refuses_chance_nodes() -> None:
    game = pyspiel.load_game(M.GAME_NAME, {"players": 3})
    with pytest.raises(ValueError, match="decision"):
        game.new_initial_state().resample_from_infostate(0, random.Random(0))


def test_ismcts_example_runs(tmp_path) -> None:
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "examples" / "openspiel_ismcts.py"
    out = subprocess.run(
        [sys.executable, str(script), "--games", "1", "--sims", "2", "--opponents", "random", "greedy"],
        capture_output=True, text=True, timeout=120, check=True,
    )
    assert "mean per seat: ismcts" in out.stdout
