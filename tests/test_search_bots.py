"""The search bots (montecarlo, ismcts): legal, reproducible, explainable, and stronger than greedy."""

from __future__ import annotations

import math
import statistics

import pytest

from minodice.bots import BotSpecError, bot_seed, make_bot
from minodice.bots.explain import explain_decision
from minodice.game import Game
from minodice.rules import Rules
from minodice.runner import Match
from minodice.tournament.duplicate import DuplicateChance

SMALL = {"montecarlo": "montecarlo:sims=24", "ismcts": "ismcts:sims=40,bid_sims=24"}


def _play(specs: list[str], seed: int, rules: Rules | None = None, chance=None) -> tuple[Game, Match]:
    game = Game(len(specs), seed=seed, rules=rules, chance=chance)
    bots = {s: make_bot(spec, seed=bot_seed(seed, s)) for s, spec in enumerate(specs)}
    match = Match(game, bots)
    match.play()
    match.close()
    return game, match


@pytest.mark.parametrize("name", ["montecarlo", "ismcts"])
@pytest.mark.parametrize("seats", [3, 6])
def test_plays_whole_games_legally(name: str, seats: int) -> None:
    specs = [SMALL[name]] + ["greedy"] * (seats - 1)
    game, match = _play(specs, seed=seats, rules=Rules(hand_start="last_winner", all_flags="last"))
    assert game.over
    assert all(not s.faults for s in match.stats.values())


@pytest.mark.parametrize("name", ["montecarlo", "ismcts"])
def test_same_seed_same_game(name: str) -> None:
    specs = [SMALL[name], "greedy", SMALL[name], "random"]
    a, _ = _play(specs, seed=11)
    b, _ = _play(specs, seed=11)
    assert a.totals == b.totals
    assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events]


@pytest.mark.parametrize("name", ["montecarlo", "ismcts"])
def test_explanation_lists_every_legal_choice(name: str) -> None:
    game = Game(4, seed=3)
    expl = explain_decision(game, 0, SMALL[name], seed=1)
    assert expl.kind == "bid"
    assert {c.choice for c in expl.choices} == set(game.observe(0).legal)
    if name == "montecarlo":
        assert expl.chosen == max(expl.choices, key=lambda c: c.mean).choice
    for c in expl.choices:
        assert c.n > 0 and math.isfinite(c.mean)


def test_bad_options_are_refused() -> None:
    with pytest.raises(BotSpecError):
        make_bot("montecarlo:bogus=1")
    with pytest.raises(BotSpecError):
        make_bot("ismcts:sims=lots")


@pytest.mark.slow
def test_montecarlo_beats_greedy_in_duplicate_games() -> None:
    """Seats 0 and 2 montecarlo, 1 and 3 greedy, then swapped, on the same deals and faces."""
    diffs = []
    for deal in range(40):
        per_deal = []
        for swap in (False, True):
            specs = ["greedy", "montecarlo"] * 2 if swap else ["montecarlo", "greedy"] * 2
            chance = DuplicateChance(f"strength:{deal}", 4)
            game, _ = _play(specs, seed=deal, chance=chance)
            mc = [s for s in range(4) if specs[s].startswith("montecarlo")]
            gr = [s for s in range(4) if s not in mc]
            per_deal.append(sum(game.totals[s] for s in mc) / 2 - sum(game.totals[s] for s in gr) / 2)
        diffs.append(sum(per_deal) / 2)
    mean = statistics.fmean(diffs)
    half = 2.023 * statistics.stdev(diffs) / math.sqrt(len(diffs))  # t(0.975, 39)
    assert mean - half > 0, f"montecarlo - greedy = {mean:.1f} ± {half:.1f} per game"


def test_explain_command_prints_alternatives_and_refuses_bad_positions() -> None:
    from typer.testing import CliRunner

    from minodice.cli import app

    runner = CliRunner()
    ok = runner.invoke(app, ["explain", "--bot", "montecarlo:sims=8", "--hand", "3"])
    assert ok.exit_code == 0, ok.output
    assert "expected score" in ok.output and "bid 0" in ok.output
    roll = runner.invoke(app, ["explain", "--bot", "ismcts:sims=16", "--hand", "4", "--trick", "2", "--roll", "2"])
    assert roll.exit_code == 0, roll.output
    assert "which die to roll" in roll.output
    bad = runner.invoke(app, ["explain", "--hand", "12"])
    assert bad.exit_code == 2
    assert "hands 1 to 8" in bad.output
    spec = runner.invoke(app, ["explain", "--bot", "montecarlo:nope=1"])
    assert spec.exit_code == 2
