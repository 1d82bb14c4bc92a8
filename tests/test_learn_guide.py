"""Oracle guiding (`TrainConfig.guide`, `minodice train --guide`): while training, the network may see the
other seats' dice; the network it writes, and every evaluation, plays without them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from minodice.bots.network import FEATURES, PRIVILEGED, PolicyValueNet
from minodice.bots.neural import load_network
from minodice.encoding import MAX_HANDS
from minodice.learn import TrainConfig, Trainer
from minodice.learn.ppo import Batch

GUIDED = TrainConfig(seed=5, hidden=(32, 32), selfplay_envs=16, greedy_envs=8, steps=24, minibatch=256, guide=3)


def _privileged(batch: Batch) -> np.ndarray:
    return batch.x[:, FEATURES:] * MAX_HANDS


def test_a_guided_network_sees_the_other_seats_dice_as_whole_counts_when_shown() -> None:
    trainer = Trainer(GUIDED)
    assert trainer.net.width == FEATURES + PRIVILEGED
    shown = _privileged(trainer.rollouts[0].collect(trainer.net, 16, show=1.0))
    assert np.allclose(shown, np.round(shown)) and shown.min() >= 0
    blocks = shown[:, :21].reshape(-1, 3, 7).sum(axis=2)  # 4 seats: the three other seats' dice
    assert (blocks.max(axis=1) - blocks.min(axis=1) <= 1).all()  # a trick's rolls leave the seats within one die
    assert (blocks.sum(axis=1) > 0).mean() > 0.5 and not shown[:, 21:].any()  # seats 4 and 5 do not exist
    hidden = _privileged(trainer.rollouts[0].collect(trainer.net, 16, show=0.0))
    assert not hidden.any()
    half = _privileged(trainer.rollouts[0].collect(trainer.net, 64, show=0.5)).any(axis=1).mean()
    assert 0.3 < half < 0.6  # about half the rows are shown (some of those hold no dice)


def test_honest_is_exactly_the_network_seeing_zeros_in_its_privileged_inputs() -> None:
    net = PolicyValueNet.initial(np.random.default_rng(2), (16,), inputs=FEATURES + PRIVILEGED)
    x = np.random.default_rng(3).random((20, FEATURES), dtype=np.float32)
    zeros = np.concatenate([x, np.zeros((20, PRIVILEGED), np.float32)], axis=1)
    for a, b in zip(net.forward(zeros), net.honest().forward(x), strict=True):
        np.testing.assert_array_equal(a, b)
    assert net.honest().width == FEATURES and net.width == FEATURES + PRIVILEGED


def test_guided_training_repeats_and_plays_honestly_after_it() -> None:
    a, b = Trainer(GUIDED), Trainer(GUIDED)
    for _ in a.run(updates=4):
        pass
    for _ in b.run(updates=4):
        pass
    for p, q in zip(a.net.params, b.net.params, strict=True):
        np.testing.assert_array_equal(p, q)
    playing = a.playing_net()
    assert playing.width == FEATURES and a.net.width == FEATURES + PRIVILEGED
    unguided = Trainer(TrainConfig(seed=5, hidden=(32, 32), selfplay_envs=16, greedy_envs=8, steps=24, minibatch=256))
    assert unguided.playing_net() is unguided.net


def test_a_given_network_grows_privileged_inputs_with_no_weight() -> None:
    start = load_network(None, seats=4)  # the shipped one is of the first version: refused
    with pytest.raises(ValueError, match="sees the hand's recall"):
        Trainer(GUIDED, start.copy())
    recall = PolicyValueNet.initial(np.random.default_rng(1), (32, 32))
    trainer = Trainer(GUIDED, recall.copy())
    assert trainer.net.width == FEATURES + PRIVILEGED and not trainer.net.params[0][FEATURES:].any()
    np.testing.assert_array_equal(trainer.net.params[0][:FEATURES], recall.params[0])


def test_train_guide_writes_a_network_that_plays_without_the_dice(tmp_path: Path) -> None:
    out = tmp_path / "g.npz"
    run = subprocess.run([sys.executable, "-m", "minodice.cli", "train", "--updates", "2", "--guide", "1",
                          "--tables", "16,8,0", "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    net = load_network(out)
    assert net.width == FEATURES and net.meta["config"]["guide"] == 1
    v1 = tmp_path / "v1.npz"
    PolicyValueNet.initial(np.random.default_rng(1), (8,), inputs=198).save(v1)
    for args, message in ((["--no-recall"], "leave out --no-recall"),
                          (["--expert", "greedy"], "--guide shapes PPO's training"),
                          (["--from", str(v1)], "is of the first version"),
                          (["--guide", "-1"], "-1")):
        bad = subprocess.run([sys.executable, "-m", "minodice.cli", "train", "--updates", "1", "--guide", "1",
                              "--out", str(tmp_path / "x.npz"), *args], capture_output=True, text=True, timeout=120)
        assert bad.returncode == 2 and message in bad.stderr and "Traceback" not in bad.stderr, bad.stderr


def test_a_network_that_reads_the_dice_cannot_be_loaded_to_play(tmp_path: Path) -> None:
    """Only `honest` networks are written; one with privileged inputs, written by hand, is refused at load."""
    peeking = tmp_path / "peeking.npz"
    PolicyValueNet.initial(np.random.default_rng(4), (8,), inputs=FEATURES + PRIVILEGED).save(peeking)
    with pytest.raises(ValueError, match="not a minodice network of this version"):
        load_network(peeking)
