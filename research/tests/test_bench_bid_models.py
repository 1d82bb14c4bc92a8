"""The bid-model benchmark runs end to end and its models are the ones the bots use."""

from __future__ import annotations

import random
import subprocess
import sys

import research_scripts
from minodice.bots.greedy import GreedyBot
from minodice.bots.inference import dice_key, heuristic_bid, heuristic_bid_values
from minodice.game import Game

SCRIPT = research_scripts.script("bench_bid_models")


def test_the_heuristic_bid_is_the_best_of_its_values_and_greedys_bid() -> None:
    rng = random.Random(3)
    for seats in (3, 4, 6):
        game = Game(seats, seed=rng.getrandbits(16))
        view = game.observe(0)
        values = heuristic_bid_values(dice_key(view.dice), seats, view.rules)
        bid = heuristic_bid(dice_key(view.dice), seats, view.rules)
        assert len(values) == view.hand + 1 and values[bid] == max(values)
        assert GreedyBot().bid(view) == bid


def test_bench_bid_models_scores_three_models_on_montecarlos_bids() -> None:
    bench = research_scripts.load("bench_bid_models")
    result = bench.run(games=1, seed=2, seats=3)
    assert set(result) == set(bench.MODELS)
    assert all(r["bids"] == 3 * 8 for r in result.values())  # 3 seats, 8 hands
    assert all(0 <= r["exact"] <= 1 and r["mean_miss"] >= 0 for r in result.values())
    assert result["network"]["mean_log_likelihood"] <= 0
    bad = subprocess.run([sys.executable, str(SCRIPT), "--games", "0"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "--games must be at least 1" in bad.stderr
