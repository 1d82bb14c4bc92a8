"""The value-information benchmark: the host's dice it reads are each seat's own, its value network learns,
and the script prints its table or refuses bad arguments in words."""

from __future__ import annotations

import subprocess
import sys
from types import ModuleType

import numpy as np
import pytest

import research_scripts
from minodice.bots.network import FEATURES, PRIVILEGED
from minodice.dice import hands_for
from minodice.encoding import DICE
from minodice.envs.vector import VectorTable

SCRIPT = research_scripts.script("bench_value_info")


def load() -> ModuleType:
    return research_scripts.load("bench_value_info")


def test_the_others_dice_are_what_each_of_those_seats_sees_as_its_own() -> None:
    table = VectorTable(16, 5, seed=3)
    _, info = table.reset()
    rng = np.random.default_rng(0)
    for _ in range(40):
        seat = info["seat"]
        held = table.others_dice(seat)
        for g in range(table.num_envs):
            own = [table.observation(g, (int(seat[g]) + r) % 5)[: len(DICE)] for r in range(1, 5)]
            assert held[g].tolist() == np.concatenate(own).astype(int).tolist()
        mask = info["action_mask"].astype(bool)
        _, _, _, _, info = table.step(np.array([rng.choice(np.flatnonzero(m)) for m in mask]))
    with pytest.raises(ValueError, match=r"one seat 0\.\.4 per game"):
        table.others_dice(np.full(16, 5))


def test_every_roll_of_every_game_is_kept_with_a_hand_score() -> None:
    bench = load()
    x, held, score = bench.roll_decisions(3, 3, seed=5)
    tricks = sum(range(1, hands_for(3) + 1))
    assert len(x) == len(held) == len(score) == 3 * 3 * tricks  # each seat rolls once a trick
    assert held.shape[1] == 2 * 7 and held.sum(axis=1).max() <= 2 * hands_for(3)
    assert (held.sum(axis=1) == 0).any()  # the last trick of a hand: the others may have rolled already
    assert (score % 10 == 0).all() and score.min() < 0 < score.max()


def test_the_value_networks_learn_the_hand_scores_with_and_without_the_dice() -> None:
    """Trained on 1,024 games, each network misses the hand scores of other games by less than their
    training mean does (the full benchmark trains on 16 times as many)."""
    bench = load()
    data = bench.roll_decisions(1024, 4, seed=1)
    test = bench.roll_decisions(256, 4, seed=2)
    guess_the_mean = float(np.sqrt(((test[2] - data[2].mean()) ** 2).mean()))
    for see in (False, True):
        net = bench.train(data, see, [128, 128], epochs=8, seed=1)
        assert net.width == (FEATURES + PRIVILEGED if see else FEATURES)
        error = float(np.sqrt((bench.errors(net, test, see) ** 2).mean()))
        assert error < guess_the_mean - 0.3, (see, error, guess_the_mean)


def test_the_script_prints_both_errors_and_refuses_bad_arguments() -> None:
    run = subprocess.run([sys.executable, str(SCRIPT), "--games", "64", "--test-games", "16", "--epochs", "1",
                          "--seats", "3", "--hidden", "16"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "held out" in run.stdout
    rows = {line.split()[0]: line.split()[1:] for line in run.stdout.splitlines() if line.strip()}
    assert set(rows) >= {"any", "0-2", "15+"} and float(rows["any"][1]) > 0
    for bad in (["--seats", "7"], ["--hidden", "wide"], ["--games", "0"]):
        out = subprocess.run([sys.executable, str(SCRIPT), *bad], capture_output=True, text=True, timeout=60)
        assert out.returncode == 2 and "error:" in out.stderr and "Traceback" not in out.stderr, out.stderr
