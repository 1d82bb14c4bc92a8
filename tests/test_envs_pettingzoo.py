"""The PettingZoo AEC environment: PettingZoo's own checks, rewards, errors, rendering."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from minodice.envs import encoding as E
from minodice.envs.pettingzoo import env, raw_env


# PettingZoo warns about every dict observation (its own classic envs get the same warnings).
@pytest.mark.filterwarnings("ignore:Observation space for each agent:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.parametrize(
    ("seats", "options"),
    [(3, {}), (4, {"scoring": "landlubber"}), (5, {"hand_start": "last_winner"}), (6, {"all_flags": "last"})],
)
def test_api_test(seats: int, options: dict) -> None:
    api_test(env(seats=seats, **options), num_cycles=400)


def test_seed_test() -> None:
    seed_test(lambda: env(seats=4), num_cycles=200)


def _play(e, rng: np.random.Generator) -> dict[str, float]:
    """Play a whole game with uniformly random legal actions; the rewards each agent collected."""
    got = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        got[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return got


def test_rewards_are_hand_points_and_add_up_to_the_totals() -> None:
    e = raw_env(seats=4)
    e.reset(seed=11)
    table = e.table
    got = _play(e, np.random.default_rng(0))
    assert table is not None and table.over
    assert [got[f"player_{s}"] for s in range(4)] == [float(t) for t in table.game.totals]
    assert len(table.game.log) == 8


def test_same_seed_same_game_and_reset_without_seed_differs() -> None:
    a, b = raw_env(seats=3), raw_env(seats=3)
    a.reset(seed=5)
    b.reset(seed=5)
    assert a.table.game.log[-1].dice == b.table.game.log[-1].dice
    firsts = set()
    for _ in range(5):
        a.reset()
        firsts.add(a.table.game.log[-1].dice)
    assert len(firsts) > 1


def test_bids_are_turns_from_the_start_player_and_stay_hidden() -> None:
    e = raw_env(seats=4)
    e.reset(seed=2)
    start = e.table.game.log[-1].start
    order = []
    for _ in range(4):
        agent = e.agent_selection
        order.append(agent)
        seat = int(agent.split("_")[1])
        before = {a: e.observe(a)["observation"].copy() for a in e.agents if a != agent}
        e.step(E.bid_action(1))
        if len(order) < 4:  # not yet revealed: nobody else's observation may show the bid
            bids = slice(*_section(4, "bids"))
            for a, obs in before.items():
                assert np.array_equal(e.observe(a)["observation"][bids], obs[bids])
        assert seat == (start + len(order) - 1) % 4
    assert e.table.game.phase.value == "roll"


def _section(seats: int, name: str) -> tuple[int, int]:
    offset = 0
    for n, size in E.layout(seats):
        if n == name:
            return offset, offset + size
        offset += size
    raise KeyError(name)


def test_action_mask_only_for_the_agent_to_act() -> None:
    e = raw_env(seats=3)
    e.reset(seed=3)
    for agent in e.agents:
        mask = e.observe(agent)["action_mask"]
        if agent == e.agent_selection:
            assert list(np.flatnonzero(mask)) == [0, 1]  # hand 1: bid 0 or 1
        else:
            assert not mask.any()


def test_illegal_action_raises_naming_the_legal_ones() -> None:
    e = env(seats=3)
    e.reset(seed=0)
    with pytest.raises(ValueError, match=r"legal actions are 0 \(bid 0\), 1 \(bid 1\)"):
        e.step(7)
    with pytest.raises(ValueError, match="legal actions"):
        e.step(E.roll_action(E.DICE[3]))
    e.step(0)  # the environment is unchanged and still usable


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seats": 2}, "3 to 6 players"),
        ({"seats": 4, "scoring": "golf"}, "scoring"),
        ({"seats": 4, "colour": "red"}, "unknown rule option"),
        ({"seats": 4, "render_mode": "human"}, "render_mode"),
    ],
)
def test_bad_arguments_are_refused_clearly(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        raw_env(**kwargs)


def test_render_ansi_shows_the_public_table_only() -> None:
    e = env(seats=3, render_mode="ansi")
    e.reset(seed=4)
    e.step(1)
    text = e.render()
    assert "hand 1 of 8" in text and "player_0" in text and "bid  ?" in text
    held = [d.value for s in range(3) for d in e.unwrapped.table.game.held(s)]
    assert not any(name in text for name in held)  # nobody's unrolled dice on the table


def test_observation_fits_its_space_through_a_game() -> None:
    e = raw_env(seats=5)
    e.reset(seed=9)
    rng = np.random.default_rng(1)
    space = e.observation_space("player_0")
    for _ in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        assert space.contains(obs)
        if term or trunc:
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
