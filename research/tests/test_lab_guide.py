"""Oracle guiding, the lab's (`research.lab.ppo.LabConfig.guide`, `python -m research.lab train --guide`): while
training, the network may see the other seats' dice; the network it writes, and every evaluation, plays
without them. Unguided, with neither --recall nor --against, the lab trains exactly the product's network."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from research.lab.ppo import LabConfig, LabRollout, LabTrainer

from minodice.bots.network import FEATURES, FEATURES_V1, PRIVILEGED, PolicyValueNet
from minodice.bots.neural import load_network
from minodice.encoding import MAX_HANDS
from minodice.learn import TrainConfig, Trainer
from minodice.learn.ppo import Batch

ROOT = Path(__file__).resolve().parents[2]
GUIDED = LabConfig(seed=5, hidden=(32, 32), selfplay_envs=16, greedy_envs=8, steps=24, minibatch=256, guide=3,
                   recall=True)


def _privileged(batch: Batch) -> np.ndarray:
    return batch.x[:, FEATURES:] * MAX_HANDS


def _shown(trainer: LabTrainer, steps: int, show: float) -> np.ndarray:
    """The privileged inputs of a rollout of the self-play tables, the dice shown with chance `show`."""
    rollout = trainer.rollouts[0]
    assert isinstance(rollout, LabRollout)
    rollout.show = show
    return _privileged(rollout.collect(trainer.net, steps))


def test_a_guided_network_sees_the_other_seats_dice_as_whole_counts_when_shown() -> None:
    trainer = LabTrainer(GUIDED)
    assert trainer.net.width == FEATURES + PRIVILEGED
    shown = _shown(trainer, 16, 1.0)
    assert np.allclose(shown, np.round(shown)) and shown.min() >= 0
    blocks = shown[:, :21].reshape(-1, 3, 7).sum(axis=2)  # 4 seats: the three other seats' dice
    assert (blocks.max(axis=1) - blocks.min(axis=1) <= 1).all()  # a trick's rolls leave the seats within one die
    assert (blocks.sum(axis=1) > 0).mean() > 0.5 and not shown[:, 21:].any()  # seats 4 and 5 do not exist
    assert not _shown(trainer, 16, 0.0).any()
    half = _shown(trainer, 64, 0.5).any(axis=1).mean()
    assert 0.3 < half < 0.6  # about half the rows are shown (some of those hold no dice)


def test_guided_training_repeats_and_plays_honestly_after_it() -> None:
    a, b = LabTrainer(GUIDED), LabTrainer(GUIDED)
    for _ in a.run(updates=4):
        pass
    for _ in b.run(updates=4):
        pass
    for p, q in zip(a.net.params, b.net.params, strict=True):
        np.testing.assert_array_equal(p, q)
    playing = a.playing_net()
    assert playing.width == FEATURES and a.net.width == FEATURES + PRIVILEGED
    unguided = LabTrainer(LabConfig(seed=5, hidden=(32, 32), selfplay_envs=16, greedy_envs=8, steps=24,
                                    minibatch=256, recall=True))
    assert unguided.playing_net() is unguided.net and unguided.net.width == FEATURES


def test_a_given_network_grows_privileged_inputs_with_no_weight() -> None:
    start = load_network(None, seats=4)  # the shipped one is of the first version: refused
    with pytest.raises(ValueError, match="sees the hand's recall"):
        LabTrainer(GUIDED, start.copy())
    recall = PolicyValueNet.initial(np.random.default_rng(1), (32, 32))
    trainer = LabTrainer(GUIDED, recall.copy())
    assert trainer.net.width == FEATURES + PRIVILEGED and not trainer.net.params[0][FEATURES:].any()
    np.testing.assert_array_equal(trainer.net.params[0][:FEATURES], recall.params[0])


def test_without_its_experiments_the_lab_trains_the_products_network() -> None:
    """No --recall, --guide or --against: the lab's trainer is the product's, bit for bit."""
    small = dict(seed=5, hidden=(32, 32), selfplay_envs=16, greedy_envs=8, steps=24, minibatch=256)
    lab, product = LabTrainer(LabConfig(**small)), Trainer(TrainConfig(**small))
    for _ in lab.run(updates=2):
        pass
    for _ in product.run(updates=2):
        pass
    assert lab.net.width == product.net.width == FEATURES_V1
    for p, q in zip(lab.net.params, product.net.params, strict=True):
        np.testing.assert_array_equal(p, q)


def test_train_guide_writes_a_network_that_plays_without_the_dice(tmp_path: Path) -> None:
    out = tmp_path / "g.npz"
    run = subprocess.run([sys.executable, "-m", "research.lab", "train", "--updates", "2", "--recall", "--guide", "1",
                          "--tables", "16,8,0", "--out", str(out)], capture_output=True, text=True, timeout=300,
                         cwd=ROOT)
    assert run.returncode == 0, run.stderr
    net = load_network(out)
    assert net.width == FEATURES and net.meta["config"]["guide"] == 1 and net.meta["config"]["recall"]
    v1 = tmp_path / "v1.npz"
    PolicyValueNet.initial(np.random.default_rng(1), (8,), inputs=FEATURES_V1).save(v1)
    for args, message in ((["--no-recall"], "add --recall"),
                          ([], "add --recall"),
                          (["--recall", "--from", str(v1)], "is of the first version"),
                          (["--recall", "--guide", "-1"], "-1")):
        bad = subprocess.run([sys.executable, "-m", "research.lab", "train", "--updates", "1", "--guide", "1",
                              "--out", str(tmp_path / "x.npz"), *args], capture_output=True, text=True, timeout=120,
                             cwd=ROOT)
        assert bad.returncode == 2 and message in bad.stderr and "Traceback" not in bad.stderr, bad.stderr
