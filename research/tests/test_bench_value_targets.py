"""The value-target benchmark: every roll of its games is kept with its hand score, the means of the
continuations are those of real playouts, the noise is taken out by plain arithmetic, and bad arguments
are refused in words."""

from __future__ import annotations

import subprocess
import sys
from types import ModuleType

import numpy as np
import pytest

import research_scripts
from minodice.bots.network import load_network
from minodice.dice import hands_for

SCRIPT = research_scripts.script("bench_value_targets")


def load() -> ModuleType:
    research_scripts.load("bench_value_info")  # the script it imports its scratch trainer from, found beside it when run
    return research_scripts.load("bench_value_targets")


def test_every_roll_is_kept_and_its_continuations_score_like_the_hand() -> None:
    bench = load()
    net = load_network(seats=4)
    rolls = bench.roll_positions(net, 2, seed=3)
    assert len(rolls.seat) == 2 * 4 * sum(range(1, hands_for(4) + 1))  # each seat rolls once a trick
    assert rolls.mask[np.arange(len(rolls.action)), rolls.action].all()
    assert (rolls.score % 10 == 0).all()
    mean, var = bench.continuation_means(net, rolls, 8, seed=3)
    assert (var >= 0).all() and np.isfinite(mean).all()
    last = rolls.mask.sum(axis=1) == 1  # a forced roll of the last trick: no move left to choose
    assert last.any()
    # The hands' scores and the continuations' means agree on average (the same player, the same deals).
    assert abs(mean.mean() - rolls.score.mean()) < 3 * rolls.score.std() / np.sqrt(len(mean)) + 1


def test_the_means_noise_is_taken_out_of_their_error() -> None:
    bench = load()
    net = load_network(seats=4)
    rolls = bench.roll_positions(net, 1, seed=4)
    mean, var = bench.continuation_means(net, rolls, 4, seed=4)
    everyone = np.ones(len(mean), dtype=bool)
    z, m, noise, left = bench.value_errors(net, rolls, mean, var, 4, everyone)
    assert left == pytest.approx(np.sqrt(max(0.0, m**2 - noise**2)))
    assert noise == pytest.approx(np.sqrt(np.mean(var / 4)))
    assert z > 0 and m > 0


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300)


def test_the_script_prints_the_errors_and_trains_a_copy() -> None:
    out = run("--games", "10", "--continuations", "2", "--fit-epochs", "1")
    assert out.returncode == 0, out.stderr
    assert "the value head misses the hand scores by" in out.stdout
    assert "trained 1 epoch on the means of" in out.stdout


def test_a_new_network_reads_what_the_judged_one_reads_and_learns_the_means() -> None:
    bench = load()
    net = load_network(seats=4)  # the shipped network: the first version's inputs
    rolls = bench.roll_positions(net, 60, seed=6)
    mean, _ = bench.continuation_means(net, rolls, 2, seed=6)
    everyone = np.ones(len(mean), dtype=bool)
    new = bench.from_scratch(net, rolls, mean, everyone, [32, 32], epochs=40)
    assert new.width == net.width and new.width < rolls.x.shape[1]
    _, value = new.forward(rolls.x.astype(np.float32))
    guess_the_mean = float(np.sqrt(np.mean(np.square(mean - mean.mean()))))
    assert bench.rms(value * 50.0 - mean) < guess_the_mean  # it learned something of the means


def test_a_new_network_can_be_trained_from_scratch_on_the_means() -> None:
    out = run("--games", "40", "--continuations", "2", "--fit-epochs", "1", "--scratch", "16,16")
    assert out.returncode == 0, out.stderr
    assert "a new network of widths 16,16, trained 1 epoch from scratch on the same means" in out.stdout


def test_the_new_network_is_saved_as_a_judge_that_loads(tmp_path) -> None:
    judge = tmp_path / "judge.npz"
    out = run("--games", "20", "--continuations", "2", "--fit-epochs", "1", "--scratch", "16,16",
              "--save-scratch", str(judge))
    assert out.returncode == 0, out.stderr
    assert f"saved it to {judge}" in out.stdout
    net = load_network(judge)
    assert net.width == load_network("src/minodice/bots/weights/expert-4.npz").width


@pytest.mark.parametrize(("args", "words"), [
    (("--games", "0"), "--games must be at least 1"),
    (("--continuations", "1"), "--continuations 2 to 4,096"),
    (("--continuations", "100000000"), "--continuations 2 to 4,096"),
    (("--fit-epochs", "2", "--games", "5"), "needs at least 10 games"),
    (("--weights", "/nonexistent.npz"), "/nonexistent.npz"),
    (("--scratch", "64,64"), "give both"),
    (("--scratch", "wide", "--fit-epochs", "1"), "--scratch: give 1 to 4 widths separated by commas"),
    (("--scratch", "0,0", "--fit-epochs", "1"), "each width is 8 to 1024 units"),
    (("--save-scratch", "judge.npz"), "saves the --scratch network: give both"),
    (("--save-scratch", "/nonexistent/judge.npz", "--scratch", "16", "--fit-epochs", "1"), "no folder for"),
])
def test_bad_arguments_are_refused_in_words(args: tuple[str, ...], words: str) -> None:
    out = run(*args)
    assert out.returncode == 2
    assert words in out.stderr and "Traceback" not in out.stderr
