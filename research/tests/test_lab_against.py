"""PPO against a fixed network, the lab's (`research.lab.ppo.LabConfig.against`, `python -m research.lab train
--against`): the tables seat the network being trained against it, it learns to beat it, and the command
checks its options in words."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from research.lab.ppo import LabConfig, LabTrainer

from minodice.bots.network import FEATURES_V1, PolicyValueNet
from minodice.bots.neural import load_network
from minodice.learn import evaluate_vs_greedy

ROOT = Path(__file__).resolve().parents[2]


def lab_train(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """`python -m research.lab train ARGS`, from the repository's root."""
    return subprocess.run([sys.executable, "-m", "research.lab", "train", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


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
    cfg = LabConfig(seed=3, hidden=(32, 32), selfplay_envs=0, greedy_envs=0, against_envs=48,
                    against=str(untrained), steps=48, minibatch=512)
    trainer = LabTrainer(cfg)
    weak = load_network(untrained)
    before = evaluate_vs_greedy(trainer.net, 300, seed=99, opponent=weak)
    for _ in trainer.run(updates=30):
        pass
    after = evaluate_vs_greedy(trainer.net, 300, seed=99, opponent=weak)
    assert after["lead"] - before["lead"] > 100 + after["ci95"] + before["ci95"], (before, after)
    again = LabTrainer(cfg)
    for _ in again.run(updates=2):
        pass
    once_more = LabTrainer(cfg)
    for _ in once_more.run(updates=2):
        pass
    for p, q in zip(again.net.params, once_more.net.params, strict=True):
        np.testing.assert_array_equal(p, q)


def test_tables_against_a_network_and_its_file_go_together(untrained: Path) -> None:
    with pytest.raises(ValueError, match="go together"):
        LabTrainer(LabConfig(against_envs=4))
    with pytest.raises(ValueError, match="go together"):
        LabTrainer(dataclasses.replace(LabConfig(), against=str(untrained)))


def test_train_against_logs_the_lead_over_it_and_refuses_bad_options(tmp_path: Path, untrained: Path) -> None:
    out = tmp_path / "n.npz"
    run = lab_train("--updates", "1", "--every", "1", "--against", str(untrained), "--tables", "8,4,8",
                    "--out", str(out), "--checkpoints", str(tmp_path / "ck"))
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
                          (["--against", str(untrained), "--expert", "greedy"], "minodice train: no such option: --expert")):
        bad = lab_train("--updates", "1", "--out", str(out), *args, timeout=120)
        assert bad.returncode == 2 and message in bad.stderr and "Traceback" not in bad.stderr, bad.stderr
        assert "PosixPath" not in bad.stderr, bad.stderr


def test_the_against_run_from_a_first_version_network_grows_the_recall_as_the_experiment_did(untrained: Path) -> None:
    """`--from neural-4.npz --recall --against FILE` (the experiment in research/learned-bot.md): the shipped
    network, of the first version, grows the recall inputs with no weight and trains on as a recall network;
    without --recall it keeps its own inputs, as `minodice train --from` does."""
    shipped = load_network(seats=4)
    cfg = LabConfig(seed=1, selfplay_envs=4, greedy_envs=4, against_envs=4, against=str(untrained), steps=8,
                    recall=True)
    grown = LabTrainer(cfg, shipped.copy()).net
    assert grown.recall and not grown.params[0][FEATURES_V1:].any()
    np.testing.assert_array_equal(grown.params[0][:FEATURES_V1], shipped.params[0])
    assert not LabTrainer(dataclasses.replace(cfg, recall=False), shipped.copy()).net.recall
