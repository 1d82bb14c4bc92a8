"""The judge-choice benchmark: every roll with a choice is scored, each way's die is scored on other
continuations than those it was chosen from, equal judges choose equally, and bad arguments are refused
in words."""

from __future__ import annotations

import subprocess
import sys
from types import ModuleType

import numpy as np
import pytest

import research_scripts
from minodice.bots.network import load_network

SCRIPT = research_scripts.script("bench_judge_choices")
STEP1 = "src/minodice/bots/weights/expert-4.npz"


def load() -> ModuleType:
    research_scripts.load("bench_value_info")  # imported by bench_value_targets, found beside it when run
    research_scripts.load("bench_value_targets")  # the games' roll positions
    return research_scripts.load("bench_judge_choices")


def test_a_choice_is_scored_on_the_other_continuations() -> None:
    bench = load()
    legal = np.array([[True, False, True], [False, True, True]])
    # Pairs in np.nonzero order: (0,0), (0,2), (1,1), (1,2); two continuations to choose, two to score each.
    values = np.array([[1, 3, 10, 10], [5, 5, 0, 0], [2, 2, 7, 9], [0, 0, 1, 1]], dtype=float).reshape(-1)
    chosen, scored = bench.per_die(values, legal, 2)
    assert chosen.tolist() == [[2.0, -np.inf, 5.0], [-np.inf, 2.0, 0.0]]
    assert np.isnan(scored[0, 1]) and scored[0, 0] == 10.0 and scored[0, 2] == 0.0
    assert scored[1].tolist()[1:] == [8.0, 1.0]
    pick = chosen.argmax(axis=1)  # die 2 of roll 0 (5 > 2), die 1 of roll 1 (2 > 0)
    assert bench.at(scored, pick).tolist() == [0.0, 8.0]


def test_every_roll_with_a_choice_is_scored_and_equal_judges_choose_alike() -> None:
    bench = load()
    net = load_network(STEP1)
    rolls = bench.roll_positions(net, 2, seed=11)
    scores = bench.die_scores(rolls, net, net, 4, seed=11, judges={"head": net, "again": net.copy()})
    with_choice = int((rolls.mask[:, 9:].sum(axis=1) >= 2).sum())
    assert set(scores) == {"policy", "head", "again", "playouts"}
    assert all(len(v) == with_choice for v in scores.values()) and with_choice > 0
    assert np.array_equal(scores["head"], scores["again"])  # the same seeds: the same choices and scores
    assert all(np.isfinite(v).all() for v in scores.values())
    assert all((v % 10 == 0).mean() < 1 for v in scores.values())  # means of continuations, not one hand's score


def test_a_different_judge_or_table_changes_the_choices() -> None:
    bench = load()
    net, shipped = load_network(STEP1), load_network(seats=4)
    rolls = bench.roll_positions(net, 3, seed=12)
    scores = bench.die_scores(rolls, net, net, 4, seed=12, judges={"head": net, "shipped": shipped})
    assert not np.array_equal(scores["head"], scores["shipped"])
    greedy = bench.die_scores(rolls, net, net, 4, seed=12, judges={"head": net}, greedy_replies=True)
    assert np.array_equal(greedy["policy"], scores["policy"])  # the replies change only the lookahead
    assert not np.array_equal(greedy["head"], scores["head"])


def test_a_bot_is_asked_at_every_roll_with_a_choice_and_its_dice_are_scored() -> None:
    bench = load()
    net = load_network(STEP1)
    rolls, picks = bench.search_picks(["greedy"], net, 2, seed=13)
    chosen = bench.with_choice(rolls)
    kinds = picks["greedy"]
    assert len(kinds) == len(chosen) > 0
    assert rolls.mask[chosen, 9 + kinds].all()  # a legal die each time
    assert (kinds != rolls.action[chosen] - 9).any()  # greedy is not the network
    own = {"own": rolls.action[chosen] - 9, "greedy": kinds}
    scores = bench.die_scores(rolls, net, net, 4, seed=13, judges={"head": net}, picks=own)
    assert np.array_equal(scores["own"], scores["policy"])  # the network's own dice score as its policy
    assert not np.array_equal(scores["greedy"], scores["policy"])


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300)


def test_the_script_prints_each_way_and_the_judges_against_the_head() -> None:
    out = run("--games", "2", "--continuations", "2", "--judge", "src/minodice/bots/weights/neural-4.npz",
              "--replies", "greedy", "--search", "montecarlo:sims=16,bid_sims=16", "--search", "oracle:sims=16")
    assert out.returncode == 0, out.stderr
    for words in ("rolls with a choice", "policy", "head", "playouts", "search montecarlo:sims=16,bid_sims=16",
                  "search oracle:sims=16", "search oracle:sims=16 over the first search, paired",
                  "judge src/minodice/bots/weights/neural-4.npz over the head, paired"):
        assert words in out.stdout


@pytest.mark.parametrize(("args", "words"), [
    (("--games", "0"), "--games must be at least 1"),
    (("--continuations", "1"), "--continuations 2 to 1,024"),
    (("--continuations", "100000000"), "--continuations 2 to 1,024"),
    (("--weights", "/nonexistent.npz"), "/nonexistent.npz"),
    (("--judge", "/nonexistent.npz"), "/nonexistent.npz"),
    (("--others", "README.md"), "README.md"),
    (("--replies", "random"), "invalid choice"),
    (("--search", "nobody"), "--search"),
    (("--search", "cmd:/nonexistent/program"), "--search"),
    # the lab's bots are known (research.lab registered): its own check refuses a judge with greedy playouts
    (("--search", "neural+search-lab:judge=src/minodice/bots/weights/neural-4.npz"), "must be value with judge"),
])
def test_bad_arguments_are_refused_in_words(args: tuple[str, ...], words: str) -> None:
    out = run(*args)
    assert out.returncode == 2
    assert words in out.stderr and "Traceback" not in out.stderr
