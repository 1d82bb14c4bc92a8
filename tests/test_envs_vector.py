"""The vector environment (`minodice.envs.vector`) against the engine: same stream, same numbers.

Each game of a `VectorTable` draws from its own row of uniforms; the engine
plays the same row through `StreamChance` (deals, faces), the stream-driven
random policy and `GreedyBot` for the kernel's opponents, while the test
chooses random legal actions for the agent seats and replays each one in the
engine. At every step the observation must be `encoding.encode` of the
engine's view bit for bit, and the mask, rewards, flags and totals the
engine's.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from minodice.bots.greedy import GreedyBot
from minodice.bots.network import greedy_hints
from minodice.envs import encoding as E
from minodice.envs.table import Table
from minodice.envs.vector import VectorTable
from minodice.game import Game
from minodice.rules import Rules
from minodice.sim import kernel as K
from minodice.sim import vector as V
from minodice.sim.batch import stream_size
from sim_stream import StreamChance

ROOT = Path(__file__).resolve().parents[1]


def opponents_for(i: int, seats: int) -> dict[int, str] | None:
    """A different table of kernel opponents for each rule table (self-play among them)."""
    choice = i % 4
    if choice == 0:
        return None
    if choice == 1:
        return {s: "random" for s in range(1, seats)}
    if choice == 2:
        return {s: "greedy" for s in range(seats) if s != i % seats}
    return {0: "greedy", seats - 1: "random"}


@dataclass
class EngineSlot:
    """One game slot replayed through the engine: consecutive games on one stream of uniforms."""

    seats: int
    rules: Rules
    opponents: dict[int, str]
    src: StreamChance
    greedy: GreedyBot = field(default_factory=GreedyBot)
    table: Table = field(init=False)
    games: int = 0
    hand_over: bool = False
    rewards: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.table = Table(game=Game(self.seats, rules=self.rules, chance=self.src))

    def act(self, seat: int, action: int) -> None:
        """`seat` takes `action`; a hand it ends adds its scores to this step's rewards."""
        scores = self.table.step(seat, action)
        if scores is not None:
            self.hand_over = True
            self.rewards = [r + p for r, p in zip(self.rewards, scores)]

    def play_opponents(self) -> None:
        """The kernel's seats act (random: from the stream; greedy: GreedyBot) until an agent must."""
        table = self.table
        while (seat := table.actor()) is not None and seat in self.opponents:
            view = table.view(seat)
            if self.opponents[seat] == "greedy":
                move = self.greedy.bid(view) if view.bidding else self.greedy.roll(view)
                action = E.bid_action(move) if isinstance(move, int) else E.roll_action(move)
            elif view.bidding:
                action = int(self.src.next() * (view.hand + 1))
            else:
                legal = table.legal(seat)
                action = legal[int(self.src.next() * len(legal))]
            self.act(seat, action)

    def step(self, action: int) -> tuple[int, ...] | None:
        """The agent to act takes `action`, the opponents play on; the final totals if the game ended
        (a new game on the same stream then starts, as the vector table's autoreset does)."""
        self.hand_over, self.rewards = False, [0] * self.seats
        actor = self.table.actor()
        assert actor is not None
        self.act(actor, action)
        self.play_opponents()
        if not self.table.over:
            return None
        final = tuple(self.table.game.totals)
        self.games += 1
        self.final_obs = {s: self.table.observation(s) for s in range(self.seats)}
        self.table = Table(game=Game(self.seats, rules=self.rules, chance=self.src))
        self.play_opponents()
        return final


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def check_decision(slot: EngineSlot, g: int, obs: np.ndarray, info: dict) -> None:
    """Game g's observation, mask, seat and totals are the engine's, bit for bit."""
    table = slot.table
    seat = table.actor()
    assert seat is not None and info["seat"][g] == seat, g
    assert same_bits(obs[g], table.observation(seat)), (g, obs[g] - table.observation(seat))
    assert info["action_mask"][g].tolist() == table.mask(seat).astype(bool).tolist(), g
    assert info["totals"][g].tolist() == table.game.totals, g
    if "hints" in info:  # the learned bot's extra input: GreedyBot's estimates, from the kernel and the engine
        np.testing.assert_allclose(info["hints"][g], greedy_hints(table.view(seat)), rtol=1e-5, atol=1e-6)


def check_step(slot: EngineSlot, g: int, action: int, agents: tuple[int, ...], out: tuple) -> None:
    """Replay game g's action in the engine and compare everything the step returned for it."""
    obs, rewards, terminated, truncated, info = out
    final = slot.step(action)
    assert rewards[g].tolist() == slot.rewards, g
    assert bool(info["hand_over"][g]) is slot.hand_over, g
    assert bool(terminated[g]) is (final is not None) and not truncated[g], g
    assert info["final_totals"][g].tolist() == list(final or [0] * slot.seats), g
    for i, seat in enumerate(agents):
        expected = slot.final_obs[seat] if final else np.zeros_like(obs[g])
        assert same_bits(info["final_obs"][g, i], expected), (g, seat)
    check_decision(slot, g, obs, info)


def play_both(seats: int, rules: Rules, opponents: dict[int, str] | None, games: int,
              rng: np.random.Generator) -> int:
    """Play `games` slots through the vector table and the engine until each has ended a game; returns
    how many observations showed a seat's void (so the tests know the recall was compared too)."""
    uniforms = rng.random((games, 3 * stream_size(1, seats)))
    vt = VectorTable(games, seats, opponents, rules, uniforms=uniforms, final_obs=True, hints=True)
    slots = [EngineSlot(seats, rules, dict(opponents or {}), StreamChance(uniforms[g].tolist()))
             for g in range(games)]
    obs, info = vt.reset()
    for g, slot in enumerate(slots):
        slot.play_opponents()
        check_decision(slot, g, obs, info)
    steps = 0
    void_at = E.offsets(seats)["void"]
    voids = 0
    while min(s.games for s in slots) < 1 or steps % 5:  # a few steps into the next game too
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
        out = vt.step(actions)
        obs, info = out[0], out[4]
        for g, slot in enumerate(slots):
            check_step(slot, g, int(actions[g]), vt.agent_seats, out)
        steps += 1
        voids += int(obs[:, void_at:].any(axis=1).sum())
    return voids


# --- (1) the same games as the engine ----------------------------------------------------------------


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_matches_the_engine_step_by_step_for_every_rule_table(seats: int, all_rules: tuple[Rules, ...]) -> None:
    """Every rule table (24), kernel opponents in turn none, random, greedy and mixed; two games each."""
    rng = np.random.default_rng(seats)
    voids = sum(play_both(seats, rules, opponents_for(i, seats), 2, rng) for i, rules in enumerate(all_rules))
    assert voids > 0, "some seat showed a void, so the observations compared include it"


def test_one_agent_seat_among_greedy_bots_matches_the_engine() -> None:
    """The learner's table of SoloVectorEnv: a few games, so the greedy policy meets many positions."""
    rng = np.random.default_rng(99)
    for seats in (4, 5):
        opponents = {s: "greedy" for s in range(seats) if s != 1}
        play_both(seats, Rules(hand_start="last_winner"), opponents, 3, rng)


# --- (2) illegal actions --------------------------------------------------------------------------


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per game, vectorised (as a learner's sampler would)."""
    return np.argmax(rng.random(mask.shape) + mask, axis=1)


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    rng = np.random.default_rng(1)
    vt, twin = VectorTable(5, 4, seed=3), VectorTable(5, 4, seed=3)
    _, info = vt.reset()
    twin.reset()
    for _ in range(9):  # into the rolls of hand 2
        actions = random_actions(info["action_mask"], rng)
        _, _, _, _, info = vt.step(actions)
        twin.step(actions)
    state = vt.state.copy()
    bad = random_actions(info["action_mask"], rng)
    legal = np.flatnonzero(info["action_mask"][2]).tolist()
    bad[2] = next(a for a in range(E.NUM_ACTIONS) if a not in legal)
    names = ", ".join(f"{a} ({E.describe_action(a)})" for a in legal)
    with pytest.raises(ValueError, match=rf"game 2: illegal action {bad[2]} .*legal actions are {re.escape(names)}$"):
        vt.step(bad)
    for wrong in (np.full(5, 99), np.full(5, -1), np.full(5, 2**63, dtype=np.uint64)):
        with pytest.raises(ValueError, match="game 0: illegal action"):
            vt.step(wrong)
    for malformed in (np.zeros(4, dtype=np.int64), np.zeros(5), np.zeros((5, 1), dtype=np.int64), [True] * 5):
        with pytest.raises(ValueError, match="actions must be 5 whole numbers"):
            vt.step(malformed)
    assert (vt.state == state).all()
    good = random_actions(info["action_mask"], rng)
    a, b = vt.step(good), twin.step(good)
    assert all(np.array_equal(x, y) for x, y in zip(a[:4], b[:4]))
    assert all(np.array_equal(a[4][k], b[4][k]) for k in a[4])


def test_bad_settings_are_refused_with_clear_words() -> None:
    with pytest.raises(ValueError, match=r"unknown opponent 'montecarlo' for seat 1: .*'random' or 'greedy'"):
        VectorTable(2, 4, {1: "montecarlo"})
    with pytest.raises(ValueError, match="leave at least one seat"):
        VectorTable(2, 3, dict.fromkeys(range(3), "random"))
    with pytest.raises(ValueError, match="opponent seat 4"):
        VectorTable(2, 4, {4: "random"})
    with pytest.raises(ValueError, match="unknown rule option"):
        VectorTable(2, 4, scoring_rule="x")
    with pytest.raises(ValueError, match="3 to 6 players"):
        VectorTable(2, 7)
    with pytest.raises(ValueError, match="num_envs"):
        VectorTable(0, 4)
    with pytest.raises(RuntimeError, match="reset"):
        VectorTable(2, 4).step(np.zeros(2, dtype=np.int64))
    with pytest.raises(ValueError, match="one per game"):
        VectorTable(2, 4).reset(seed=[1, 2, 3])


# --- (3) seeds ------------------------------------------------------------------------------------


def trajectory(vt: VectorTable, seed: int | list[int] | None, steps: int) -> list[np.ndarray]:
    """Everything the table returns over `steps` steps with a fixed random policy."""
    rng = np.random.default_rng(0)
    obs, info = vt.reset(seed=seed)
    out = [obs, info["totals"]]
    for _ in range(steps):
        obs, rewards, terminated, _, info = vt.step(random_actions(info["action_mask"], rng))
        out += [obs, rewards, terminated, info["final_totals"]]
    return out


def test_the_same_seed_gives_the_same_games() -> None:
    steps = 400  # past a game's end: the autoreset games come from the same generators
    a = trajectory(VectorTable(3, 4, {2: "random"}, seed=5), None, steps)
    b = trajectory(VectorTable(3, 4, {2: "random"}, seed=0), 5, steps)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert any(t.any() for t in a[4::4])  # some game ended on the way
    c = trajectory(VectorTable(3, 4, {2: "random"}), 6, steps)
    assert not np.array_equal(a[0], c[0])
    # Game g depends on the seed and g, not on how many games run beside it.
    wide = VectorTable(5, 4, seed=5).reset()[0]
    assert np.array_equal(wide[:3], VectorTable(3, 4, seed=5).reset()[0])
    assert not np.array_equal(wide[0], wide[1])
    # One seed per game: game g is game 0 of its seed.
    per_game = VectorTable(2, 4).reset(seed=[7, 7])[0]
    assert np.array_equal(per_game[0], per_game[1])
    assert np.array_equal(per_game[0], VectorTable(1, 4, seed=7).reset()[0][0])


def test_reset_without_a_seed_goes_on_with_new_games() -> None:
    vt = VectorTable(4, 4, seed=1)
    first = vt.reset()[0]
    assert np.array_equal(first, VectorTable(4, 4).reset(seed=1)[0])
    assert not np.array_equal(first, vt.reset()[0])


# --- (4) hidden information ---------------------------------------------------------------------


def test_an_observation_does_not_depend_on_what_the_seat_cannot_see() -> None:
    """Swap two other seats' unrolled dice and change unrevealed bids: every seat's observation stays."""
    rng = np.random.default_rng(4)
    vt = VectorTable(48, 5, seed=11)
    _, info = vt.reset()
    checked = changed = 0
    for _ in range(60):
        obs, _, _, _, info = vt.step(random_actions(info["action_mask"], rng))
        seen = vt.state.copy()
        for g in range(vt.num_envs):
            assert same_bits(vt.observation(g, int(info["seat"][g])), obs[g])
            for me in range(vt.seats):
                before = vt.observation(g, me)
                a, b = rng.choice([s for s in range(vt.seats) if s != me], 2, replace=False)
                for base, width in ((K.H_COUNTS, 7), (K.H_MASKS, 1)):
                    ra, rb = slice(base + width * a, base + width * (a + 1)), slice(base + width * b, base + width * (b + 1))
                    vt.state[g, ra], vt.state[g, rb] = seen[g, rb], seen[g, ra]
                if vt.state[g, V.V_BIDS_IN] < vt.seats:  # bids not yet revealed: change the others'
                    for s in range(vt.seats):
                        if s != me:
                            vt.state[g, K.H_BIDS + s] = rng.integers(0, 9)
                assert same_bits(vt.observation(g, me), before), (g, me)
                checked += 1
                changed += not np.array_equal(vt.state[g], seen[g])
                vt.state[g] = seen[g]
    assert checked > 10_000 and changed > checked // 2
    # The check can fail: a seat's own dice do change its observation.
    holding = [g for g in range(vt.num_envs) if vt.state[g, K.H_COUNTS : K.H_COUNTS + 7].any()]
    before = [vt.observation(g, 0) for g in holding]
    vt.state[:, K.H_COUNTS : K.H_COUNTS + 7] = 0
    assert holding and not any(same_bits(vt.observation(g, 0), b) for g, b in zip(holding, before))


# --- (5) Gymnasium --------------------------------------------------------------------------------


def test_gymnasium_make_vec_spaces_and_episodes() -> None:
    gym = pytest.importorskip("gymnasium")
    import minodice.envs.gymnasium  # noqa: F401 - registers minodice/Solo-v1
    from minodice.envs.vector_gym import SoloVectorEnv

    with warnings.catch_warnings():  # make_vec and the wrapper check the autoreset metadata: no warning
        warnings.simplefilter("error")
        envs = gym.make_vec("minodice/Solo-v1", num_envs=6, vectorization_mode="vector_entry_point",
                            opponents=("greedy", "random"), seat=1, scoring="landlubber")
        stats = gym.wrappers.vector.RecordEpisodeStatistics(envs)
    assert isinstance(envs, SoloVectorEnv)
    assert envs.metadata["autoreset_mode"] is gym.vector.AutoresetMode.SAME_STEP
    assert envs.single_observation_space.shape == (E.observation_size(3),)
    assert envs.single_action_space == gym.spaces.Discrete(E.NUM_ACTIONS)
    assert envs.observation_space.shape == (6, E.observation_size(3))
    assert envs.action_space == gym.spaces.MultiDiscrete([E.NUM_ACTIONS] * 6)
    envs = stats
    scores_at = E.offsets(3)["scores"]
    obs, info = envs.reset(seed=2)
    assert envs.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    returns, ended = np.zeros(6), np.zeros(6, dtype=bool)
    while not ended.all():
        obs, rewards, terminated, truncated, info = envs.step(random_actions(info["action_mask"], rng))
        assert rewards.dtype == np.float32 and rewards.shape == (6,) and not truncated.any()
        assert envs.observation_space.contains(obs)
        returns += np.where(ended, 0, rewards)
        for g in np.flatnonzero(terminated & ~ended):
            final = info["final_info"]["totals"][g]
            assert returns[g] == final[1] == info["episode"]["r"][g]
            assert info["final_info"]["place"][g] == 1 + (final > final[1]).sum()
            assert info["final_obs"][g].shape == obs[g].shape and info["_final_obs"][g]
            assert info["final_obs"][g][scores_at] == final[1]  # scores: its own final total
        ended |= terminated
    assert np.array_equal(envs.unwrapped.action_masks(), info["action_mask"])
    with pytest.raises(ValueError, match="vectorization_mode='sync'"):
        SoloVectorEnv(2, ("greedy", "montecarlo"))
    assert isinstance(gym.make_vec("minodice/Solo-v1", num_envs=2, vectorization_mode="sync"),
                      gym.vector.SyncVectorEnv)


# --- (6) without numba ---------------------------------------------------------------------------

PLAIN = """
import json, numpy as np
from minodice.envs.vector import VectorTable
vt = VectorTable(3, 3, {1: "greedy", 2: "random"}, seed=4, scoring="landlubber")
obs, info = vt.reset()
rng = np.random.default_rng(0)
rows = [obs.tolist()]
for _ in range(40):
    obs, r, t, _, info = vt.step(np.argmax(rng.random((3, 16)) + info["action_mask"], axis=1))
    rows.append([obs.tolist(), r.tolist(), info["totals"].tolist()])
print(json.dumps(rows))
"""


def test_the_plain_python_path_gives_the_same_observations() -> None:
    plain = subprocess.run([sys.executable, "-c", PLAIN], cwd=ROOT, env={**os.environ, "MINODICE_NO_NUMBA": "1"},
                           capture_output=True, text=True, timeout=300)
    compiled = subprocess.run([sys.executable, "-c", PLAIN], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert plain.returncode == 0 and compiled.returncode == 0, plain.stderr[-2000:] + compiled.stderr[-2000:]
    assert "SlowWithoutNumba" in plain.stderr  # it really ran without numba
    assert plain.stdout == compiled.stdout


@pytest.mark.parametrize("module", ["minodice.envs.vector", "minodice.envs.vector_gym"])
def test_doctests(module: str) -> None:
    import doctest
    import importlib

    assert doctest.testmod(importlib.import_module(module)).failed == 0
