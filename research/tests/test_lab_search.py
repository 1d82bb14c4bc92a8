"""The lab's bot `neural+search-lab` (`research.lab`): importing the lab registers it beside the product's bots,
which keep none of its options; its options `replies`, `judge` and `trust` play as neural+search's did, and
are refused in words where they cannot act; `python -m research.lab` runs minodice's commands with it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import research.lab
from research.lab.search import LabSearchBot

from minodice.bots import BUILTIN, BotSpec, BotSpecError, make_bot, parse_spec
from minodice.bots.neural import NeuralBot
from minodice.encoding import DICE, NUM_BIDS
from minodice.game import Game
from network_positions import roll_the_network_narrows

ROOT = Path(__file__).resolve().parents[2]
LAB = research.lab.LAB_SEARCH
MC = "research/data/expert-mc-4seats.npz"  # the network that imitates montecarlo
STEP1 = "src/minodice/bots/weights/expert-4.npz"


def test_importing_the_lab_registers_its_bot_and_the_product_alone_refuses_its_options() -> None:
    """In a fresh process: the product's registry has no lab bot and refuses `neural+search:trust=2` as an
    unknown option; after `import research.lab` the lab's bot is there (and the product's still refuses it)."""
    script = """
from minodice.bots import BUILTIN, BotSpecError, parse_spec
assert "neural+search-lab" not in BUILTIN
for text in ("neural+search:trust=2", "neural+search-lab:trust=2"):
    try:
        parse_spec(text)
    except BotSpecError as e:
        print(e.code)
import research.lab
assert "neural+search-lab" in BUILTIN
print(parse_spec("neural+search-lab:policy=value,trust=2"))
try:
    parse_spec("neural+search:trust=2")
except BotSpecError as e:
    print(e.code)
"""
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["unknown_option", "unknown_bot", "neural+search-lab:trust=2,policy=value",
                                  "unknown_option"]


def test_the_lab_bot_declares_neural_search_options_and_its_own() -> None:
    lab, product = BUILTIN[LAB], BUILTIN["neural+search"]
    assert set(lab.option_names) == {*product.option_names, "trust", "replies", "judge"}
    assert not {"trust", "replies", "judge"} & set(product.option_names)
    research.lab.register()  # again: nothing changes
    assert BUILTIN[LAB] is lab
    bot = make_bot(LAB, seed=0)
    assert isinstance(bot, LabSearchBot) and bot.describe() == LAB
    for option in lab.options:  # the bot uses the registered defaults
        assert getattr(bot, option.name) == option.default, option.name
    spec = parse_spec(f"{LAB}:judge={STEP1},policy=value,trust=0.5,replies={MC}")
    assert isinstance(spec, BotSpec) and parse_spec(str(spec)) == spec
    assert make_bot(spec, seed=1).describe() == str(spec)


@pytest.mark.parametrize(("text", "words"), [
    (f"{LAB}:trust=2", "option policy (or bid_policy) must be network, network-all or value with trust"),
    (f"{LAB}:replies={MC}", "must be network or value with replies"),
    (f"{LAB}:policy=network-all,replies={MC}", "not 'network-all'"),
    (f"{LAB}:policy=network,judge={MC}", "must be value with judge"),
    (f"{LAB}:policy=value,trust=-1", "option trust must be 0 or more, not '-1'"),
    (f"{LAB}:policy=value,trust=x", f"{LAB}: option trust must be a number, not 'x'"),  # the bot named once
    (f"{LAB}:policy=value,replies= ", "option replies must name a network file"),
    (f"{LAB}:policy=value,judge= ", "option judge must name a network file"),
    (f"{LAB}:policy=value,replies=nowhere.npz", "neural+search-lab: no network file at 'nowhere.npz'"),
    (f"{LAB}:policy=value,judge=nowhere.npz", "neural+search-lab: no network file at 'nowhere.npz'"),
    (f"{LAB}:policy=network,seconds=1", "takes a playout budget"),  # neural+search's own checks
    (f"montecarlo:replies={MC}", "the montecarlo bot has no option 'replies'"),
])
def test_the_lab_bot_refuses_in_one_line(text: str, words: str) -> None:
    with pytest.raises(BotSpecError) as refused:
        make_bot(text)
    assert words in str(refused.value) and "\n" not in str(refused.value), str(refused.value)


@pytest.mark.parametrize(("option", "policy"), [("replies", "network"), ("replies", "value"), ("judge", "value")])
def test_the_playouts_can_lend_a_part_to_another_network(option: str, policy: str) -> None:
    """replies=FILE: that network's likeliest moves play the other seats in the playouts, not greedy's;
    judge=FILE: its value head judges the value playouts' leaves, the search's own network staying the prior.
    Either way the estimates change while the moves searched and the budget stay."""
    spec = f"{LAB}:policy={policy},prior=0,sims=32,bid_sims=32"
    plain, modelled = make_bot(spec, seed=4), make_bot(f"{spec},{option}={MC}", seed=4)
    assert f"{option}={MC}" in modelled.describe() and make_bot(modelled.describe()).describe() == modelled.describe()
    game, _ = roll_the_network_narrows()
    view = game.observe(0)
    assert modelled.roll(view) in view.legal_dice and plain.roll(view) in view.legal_dice
    a, b = plain.last_explanation, modelled.last_explanation
    assert a is not None and b is not None
    assert [c.choice for c in a.choices] == [c.choice for c in b.choices] and all(c.n == 32 for c in b.choices)
    assert [c.mean for c in a.choices] != [c.mean for c in b.choices]
    bid_view = Game(4, seed=8).observe(0)
    assert modelled.bid(bid_view) in bid_view.legal_bids


def test_without_its_options_the_lab_bot_plays_as_neural_search() -> None:
    """The same seed, the same estimates and moves: the lab's hooks change nothing left at their defaults."""
    options = "policy=value,bid_policy=network-all,prior=0,sims=16,bid_sims=16"
    lab, product = make_bot(f"{LAB}:{options}", seed=5), make_bot(f"neural+search:{options}", seed=5)
    game, _ = roll_the_network_narrows()
    bid_view, view = Game(4, seed=8).observe(0), game.observe(0)
    assert lab.bid(bid_view) == product.bid(bid_view) and lab.roll(view) == product.roll(view)
    assert [c.mean for c in lab.last_explanation.choices] == [c.mean for c in product.last_explanation.choices]


def test_replies_play_only_where_the_kernel_would_play_the_other_seats() -> None:
    """replies with a value judge at the rolls and network-all playouts at the bids: the rolls take them."""
    bot = make_bot(f"{LAB}:policy=value,bid_policy=network-all,replies={MC},prior=0,sims=8,bid_sims=8", seed=1)
    bid_view = Game(4, seed=8).observe(0)
    assert bot.bid(bid_view) in bid_view.legal_bids


def test_trust_weighs_the_networks_choice_against_the_estimates() -> None:
    """trust=T: a move scores its estimate + T x the network's logit, so a large T plays the network's likeliest
    searched move and 0 (the default) the best estimate."""
    spec = f"{LAB}:policy=value,prior=0,sims=32,bid_sims=32"
    game, _ = roll_the_network_narrows()
    view = game.observe(0)
    mask, logits, _ = NeuralBot().scores(view)
    likeliest = DICE[int(np.where(mask, logits, -np.inf).argmax()) - NUM_BIDS]
    plain, trusting = make_bot(spec, seed=6), make_bot(f"{spec},trust=1000", seed=6)
    assert "trust" not in plain.describe() and "trust=1000" in trusting.describe()
    best_estimate = plain.roll(view)
    assert trusting.roll(view) == likeliest
    a, b = plain.last_explanation, trusting.last_explanation
    assert a is not None and b is not None and [c.mean for c in a.choices] == [c.mean for c in b.choices]
    assert "1000 x the network's logit" in b.note and "logit" not in a.note
    assert best_estimate == max(a.choices, key=lambda c: c.mean).choice != likeliest  # here they disagree
    assert make_bot(f"{spec},trust=0", seed=6).roll(view) == best_estimate


def test_a_judge_that_is_its_own_network_judges_as_without_it() -> None:
    spec = f"{LAB}:policy=value,prior=0,sims=32,bid_sims=32,weights={STEP1}"
    game, _ = roll_the_network_narrows()
    view = game.observe(0)
    itself, same = make_bot(f"{spec},judge={STEP1}", seed=4), make_bot(spec, seed=4)
    assert itself.roll(view) == same.roll(view)  # its own network as the judge: the same estimates
    assert [c.mean for c in itself.last_explanation.choices] == [c.mean for c in same.last_explanation.choices]


def test_the_lab_command_line_plays_a_tournament_with_the_lab_bot_in_spawned_workers() -> None:
    """`python -m research.lab tournament --seat neural+search-lab:...`: the workers (spawned processes) know
    the lab's bot too; `bots` lists it."""
    seat = f"{LAB}:policy=value,trust=2,sims=16,bid_sims=16"
    run = subprocess.run([sys.executable, "-m", "research.lab", "tournament", "--seat", seat, "--seat", "greedy",
                          "--seat", "greedy", "--games", "6", "--seed", "3", "--jobs", "2"],
                         capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "6 games" in run.stdout and LAB in run.stdout
    listed = subprocess.run([sys.executable, "-m", "research.lab", "bots"], capture_output=True, text=True, cwd=ROOT,
                            timeout=120)
    assert listed.returncode == 0 and LAB in listed.stdout and "replies" in listed.stdout, listed.stderr
