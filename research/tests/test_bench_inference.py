"""The evidence benchmark scores posteriors against the true dice, and greedy players agree with the greedy model."""

from __future__ import annotations

import subprocess
import sys
from types import ModuleType

import research_scripts

SCRIPT = research_scripts.script("bench_inference")


def load() -> ModuleType:
    return research_scripts.load("bench_inference")


def test_greedy_players_match_the_model_and_the_evidence_places_dice_better_than_chance() -> None:
    bench = load()
    found, agreement = bench.positions(3, 700000, "greedy")
    assert agreement.bids > 50 and agreement.bids_greedy == agreement.bids
    assert sum(agreement.rolls.values()) > 50 and agreement.rolls_greedy == agreement.rolls
    assert agreement.best_beta() == max(bench.BETAS)  # always the best bid: the surest bidder fits best
    assert agreement.log_likelihood(0.1) < agreement.log_likelihood(1.0) < 0
    assert len(found) > 20
    for view, truth in found:  # the truth is what the view cannot see
        assert view.seat == 0 and set(truth) == {1, 2, 3}
    trusting, _ = bench.score(bench.evidence_of("infer=3"), found, 16)
    blind, _ = bench.score(bench.evidence_of("infer=0"), found, 16)
    assert all(0 <= x <= 1 for x in trusting + blind)
    assert sum(trusting) > sum(blind)  # greedy players' bids and rolls say where the dice are


def test_the_evidence_models_come_from_the_bot_options() -> None:
    bench = load()
    assert bench.evidence_of("infer=2") == 2.0
    model = bench.evidence_of("infer=2,roll_infer=0.2,bid_beta=0.5")
    assert (model.bids, model.rolls, model.beta) == (2.0, 0.2, 0.5)


def test_the_script_prints_a_row_per_model_and_refuses_a_bad_one() -> None:
    run = subprocess.run([sys.executable, str(SCRIPT), "--games", "1", "--players", "greedy", "--deals", "4",
                          "--model", "infer=1", "--model", "bid_beta=1"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "bids as greedy's: 100.0%" in run.stdout and "bid_beta=1" in run.stdout
    bad = subprocess.run([sys.executable, str(SCRIPT), "--games", "1", "--model", "bid_beta=-1"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "bid_beta" in bad.stderr and "Traceback" not in bad.stderr, bad.stderr
