"""The Gymnasium environment minodice/Solo-v1: the env checker, rewards, errors, the training example."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import minodice.envs.gymnasium  # noqa: E402, F401 - registers the env
from minodice.envs import encoding as E  # noqa: E402
from minodice.envs.gymnasium import ENV_ID, SoloEnv  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def test_registered_and_passes_the_env_checker() -> None:
    assert ENV_ID in gym.registry
    env = gym.make(ENV_ID, opponents=("greedy", "random"), illegal="terminate")
    check_env(env.unwrapped, skip_render_check=False)
    env.close()


def test_the_first_version_is_refused_naming_the_current_one() -> None:
    """v0 spoke the version-1 observation; asking for it must not quietly give a larger one."""
    assert ENV_ID == "minodice/Solo-v1"
    with pytest.warns(DeprecationWarning), pytest.raises(gym.error.DeprecatedEnv, match="minodice/Solo-v1"):
        gym.make("minodice/Solo-v0")


def test_env_checker_on_every_seat_count() -> None:
    for n in (3, 4, 5):
        check_env(
            SoloEnv(("random",) * n, seat=n // 2, illegal="terminate", scoring="landlubber"),
            skip_render_check=True,
        )


def _play(env, seed: int, rng: np.random.Generator):
    obs, info = env.reset(seed=seed)
    total, steps, done = 0.0, 0, False
    while not done:
        assert env.observation_space.contains(obs)
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, done, truncated, info = env.step(action)
        assert not truncated
        total += reward
        steps += 1
    return total, steps, info


def test_episode_return_is_the_final_total() -> None:
    env = gym.make(ENV_ID, opponents=("greedy", "greedy", "random"), seat=2)
    total, steps, info = _play(env, 3, np.random.default_rng(0))
    assert steps == 8 + 36  # 8 bids and 36 rolls for one seat of a 4-player game
    assert total == info["totals"][2]
    assert 1 <= info["place"] <= 4
    with pytest.raises(ValueError, match="reset"):
        env.step(0)


def test_same_seed_same_episode() -> None:
    a = _play(gym.make(ENV_ID, opponents=("greedy", "random")), 7, np.random.default_rng(1))
    b = _play(gym.make(ENV_ID, opponents=("greedy", "random")), 7, np.random.default_rng(1))
    assert a[0] == b[0] and a[2]["totals"] == b[2]["totals"]


def test_illegal_action_raises_naming_the_legal_ones() -> None:
    env = SoloEnv(("random", "random"))
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"legal actions are 0 \(bid 0\), 1 \(bid 1\)"):
        env.step(5)
    with pytest.raises(ValueError, match="legal actions"):
        env.step("1")  # type: ignore[arg-type]
    env.step(np.int64(1))  # numpy integers are fine


def test_illegal_action_can_end_the_episode_instead() -> None:
    env = SoloEnv(("random", "random"), illegal="terminate", illegal_reward=-7)
    env.reset(seed=0)
    _, reward, done, _, info = env.step(15)
    assert done and reward == -7 and "legal actions" in info["illegal_action"]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"opponents": ("greedy",)}, "3 to 6 players"),
        ({"opponents": "greedy"}, "sequence of bot specs"),
        ({"opponents": ("greedy", "nobody")}, "unknown bot"),
        ({"opponents": ("greedy", "greedy"), "seat": 3}, "seat must be"),
        ({"opponents": ("greedy", "greedy"), "all_specials": "kraken"}, "all_specials"),
        ({"opponents": ("greedy", "greedy"), "illegal": "ignore"}, "illegal must be"),
    ],
)
def test_bad_arguments_are_refused_clearly(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SoloEnv(**kwargs)


def test_render_ansi() -> None:
    env = SoloEnv(("greedy", "greedy"), render_mode="ansi")
    env.reset(seed=1)
    assert "player_0" in env.render()
    assert SoloEnv(("greedy", "greedy")).render() is None


def test_mask_matches_the_observation_phase() -> None:
    env = SoloEnv(("greedy", "random", "random"))
    obs, info = env.reset(seed=4)
    phase = slice(7, 10)
    assert list(obs[phase]) == [1, 0, 0] and info["action_mask"][: E.NUM_BIDS].any()
    obs, _, _, _, info = env.step(1)
    if obs[8] == 1:  # rolling: only die kinds are legal
        assert not info["action_mask"][: E.NUM_BIDS].any()


def test_training_example_runs_a_few_steps(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_masked_policy.py"), "--episodes", "3",
         "--eval-games", "1", "--report-every", "1", "--save", str(tmp_path / "w.npz")],
        capture_output=True, text=True, timeout=120, check=True,
    )
    assert "trained for 3 episodes" in out.stdout
    assert "vs 3 random" in out.stdout and "vs 3 greedy" in out.stdout
    assert (tmp_path / "w.npz").exists()
