"""PPO against a fixed network (`TrainConfig.against`, `minodice train --against`): the tables seat the
network being trained against it, it learns to beat it, and the command checks its options in words."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from minodice.bots.network import FEATURES_V1, PolicyValueNet
from minodice.bots.neural import load_network
from minodice.learn import TrainConfig, Trainer, evaluate_vs_greedy


@pytest.fixture(scope="module")
def untrained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A network of fresh weights (it plays one fixed, poor preference among the legal moves)."""
    path = tmp_path_factory.mktemp("against") / "untrained.npz"
    PolicyValueNet.initial(np.random.default_rng(5), (16,), inputs=FEATURES_V1).save(path)
    return path


def test_the_evaluation_plays_a_network_opponent_in_every_other_seat(untrained: Path) -> None:
    shipped, weak = load_network(seats=4), load_network(untrained)
    over_weak = evaluate_vs_greedy(shipped, 200, seed=9, opponent=weak)
    over_greedy = evaluate_vs_greedy(shipped, 200, seed=9)
    assert over_weak["lead"] - over_weak["ci95"] > over_greedy["lead"] + over_greedy["ci95"] + 100
    assert evaluate_vs_greedy(weak, 200, seed=9, opponent=shipped)["lead"] < -100


def test_training_against_a_fixed_network_learns_to_beat_it_and_repeats(untrained: Path) -> None:
    cfg = TrainConfig(seed=3, hidden=(32, 32), selfplay_envs=0, greedy_envs=0, against_envs=48,
                      against=str(untrained), steps=48, minibatch=512)
    trainer = Trainer(cfg)
    weak = load_network(untrained)
    before = evaluate_vs_greedy(trainer.net, 300, seed=99, opponent=weak)
    for _ in trainer.run(updates=30):
        pass
    after = evaluate_vs_greedy(trainer.net, 300, seed=99, opponent=weak)
    assert after["lead"] - before["lead"] > 100 + after["ci95"] + before["ci95"], (before, after)
    again = Trainer(cfg)
    for _ in again.run(updates=2):
        pass
    once_more = Trainer(cfg)
    for _ in once_more.run(updates=2):
        pass
    for p, q in zip(again.net.params, once_more.net.params, strict=True):
        np.testing.assert_array_equal(p, q)


def test_tables_against_a_network_and_its_file_go_together(untrained: Path) -> None:
    with pytest.raises(ValueError, match="go together"):
        Trainer(TrainConfig(against_envs=4))
    with pytest.raises(ValueError, match="go together"):
        Trainer(dataclasses.replace(TrainConfig(), against=str(untrained)))


def test_train_against_logs_the_lead_over_it_and_refuses_bad_options(tmp_path: Path, untrained: Path) -> None:
    out = tmp_path / "n.npz"
    run = subprocess.run([sys.executable, "-m", "minodice.cli", "train", "--updates", "1", "--every", "1",
                          "--against", str(untrained), "--tables", "8,4,8", "--out", str(out),
                          "--checkpoints", str(tmp_path / "ck")], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "over --against" in run.stdout
    entry = json.loads((tmp_path / "ck" / "log.jsonl").read_text())
    assert {"greedy_lead", "against_lead", "against_ci95"} <= set(entry)
    config = load_network(out).meta["config"]
    assert (config["selfplay_envs"], config["greedy_envs"], config["against_envs"]) == (8, 4, 8)
    assert config["against"] == str(untrained)
    for args, message in ((["--tables", "8,4"], "three whole numbers"),
                          (["--tables", "0,0,0"], "at least one table"),
                          (["--tables", "8,4,8"], "give it with --against"),
                          (["--against", str(untrained), "--tables", "8,4,0"], "the third of --tables must be above 0"),
                          (["--against", str(tmp_path / "none.npz")], "no network file"),
                          (["--against", str(tmp_path)], f"cannot read the network file '{str(tmp_path)[:10]}"),
                          (["--tables", "99999999999999999999,0,0"], "each count is 0 to 4,096 tables"),
                          (["--against", str(untrained), "--expert", "greedy"], "--against shapes PPO's training")):
        bad = subprocess.run([sys.executable, "-m", "minodice.cli", "train", "--updates", "1", "--out", str(out),
                              *args], capture_output=True, text=True, timeout=120)
        assert bad.returncode == 2 and message in bad.stderr and "Traceback" not in bad.stderr, bad.stderr
        assert "PosixPath" not in bad.stderr, bad.stderr
