"""The searching bots (`montecarlo`, `ismcts`): legal, reproducible, explained, sensible, and
better than greedy by more than the noise.

Budgets are small here (tests must be fast); `benchmarks/bench_bots.py` measures the defaults.
"""

from __future__ import annotations

import json
import math
import random
import statistics

import pytest

from minodice.bots import BotSpecError, make_bot
from minodice.bots.explain import (
    Explanation,
    explain,
    explain_command,
    explain_decision,
    position_from_record,
    position_from_seed,
    render_explanation,
)
from minodice.bots.ismcts import IsmctsBot
from minodice.bots.montecarlo import (
    MonteCarloBot,
    rollout_scores,
)
from minodice.bots.runner import Fault, Match
from minodice.dice import Die, Face
from minodice.game import Game, Phase
from minodice.record import from_game, record_positions
from minodice.rules import Rules, lead_colour, legal_dice
from minodice.tournament.duplicate import DuplicateChance
from minodice.view import RollView, TrickView, View

MC = "montecarlo:sims=24,bid_sims=24"
IS = "ismcts:sims=32,bid_sims=24"


def play(specs: list[str], seed: object, rules: Rules | None = None) -> tuple[Game, list[Fault], Match]:
    faults: list[Fault] = []
    game = Game(len(specs), seed=f"{seed}", rules=rules)
    bots = {s: make_bot(spec, seed=f"{seed}:bot:{s}") for s, spec in enumerate(specs)}
    match = Match(game, bots, on_fault=faults.append)
    match.play()
    return game, faults, match


# --- whole games --------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_whole_games_are_legal(seats: int) -> None:
    specs = [[MC, IS, "greedy", "random"][s % 4] for s in range(seats)]
    game, faults, _ = play(specs, f"legal-{seats}")
    assert game.over and faults == []
    assert len(game.log) == game.hands


def test_rule_variants_are_legal() -> None:
    rules = Rules(scoring="landlubber", all_specials="griffin", all_flags="last", hand_start="last_winner")
    game, faults, _ = play([MC, IS, "greedy"], "variants", rules)
    assert game.over and faults == []


@pytest.mark.parametrize("spec", [MC, IS])
def test_same_seed_same_decisions(spec: str) -> None:
    specs = [spec, "greedy", spec]
    one, _, _ = play(specs, "repro")
    two, _, _ = play(specs, "repro")
    assert [e.to_dict() for e in one.events] == [e.to_dict() for e in two.events]
    game = position_from_seed(4, "r", hand=6, trick=2, roll=1)
    v = game.observe(game.turn)
    first = [make_bot(spec, seed="x").roll(v) for _ in range(2)]
    assert first[0] == first[1] and first[0] in v.legal
    expl = [explain(v, spec, seed="y").choices for _ in range(2)]
    assert expl[0] == expl[1]


def test_specs_and_options() -> None:
    bot = make_bot("montecarlo:sims=50,seconds=0.5,policy=random,infer=0,bid_sims=64,ambition=0")
    assert isinstance(bot, MonteCarloBot)
    assert (bot.sims, bot.bid_sims, bot.seconds, bot.policy, bot.infer, bot.ambition) == (
        50, 64, 0.5, "random", 0, 0)
    # written back in the options' declared order, whatever order they were given in
    assert bot.describe() == "montecarlo:sims=50,bid_sims=64,infer=0,ambition=0,policy=random,seconds=0.5"
    assert make_bot("montecarlo").describe() == "montecarlo"
    assert make_bot("montecarlo").rivals == 0
    lead = make_bot("montecarlo:rivals=1")
    assert (lead.rivals, lead.describe()) == (1.0, "montecarlo:rivals=1")
    assert make_bot("neural+search:rivals=0.5").rivals == 0.5
    isb = make_bot("ismcts:sims=400,c=0.5,bid_sims=64")
    assert isinstance(isb, IsmctsBot)
    assert (isb.sims, isb.c, isb.bid_sims) == (400, 0.5, 64)
    assert make_bot("ismcts").describe() == "ismcts"
    for bad in ("montecarlo:depth=3", "montecarlo:sims=0", "montecarlo:sims=lots", "ismcts:c=-1",
                "ismcts:policy=clever", "montecarlo:seconds=nan", "montecarlo:rivals=-1", "ismcts:rivals=1",
                "neural+search:policy=value,rivals=1"):
        with pytest.raises(BotSpecError):
            make_bot(bad)


def test_time_budget_answers_legally() -> None:
    game = position_from_seed(4, "timed", hand=5, trick=2, roll=2)
    view = game.observe(game.turn)
    for spec in ("montecarlo:seconds=0.02", "ismcts:seconds=0.02"):
        bot = make_bot(spec, seed=1)
        assert bot.roll(view) in view.legal
        assert bot.last_explanation is not None and bot.last_explanation.samples > 0
    bid_view = position_from_seed(4, "timed", hand=5).observe(1)
    assert make_bot("montecarlo:seconds=0.02", seed=1).bid(bid_view) in bid_view.legal


# --- explanations -------------------------------------------------------------------------


def _roll_positions() -> list[Game]:
    out = []
    for seed in range(6):
        game = position_from_seed(4, f"expl-{seed}", hand=4 + seed % 4, trick=1 + seed % 3, roll=1 + seed % 4)
        if len(game.observe(game.turn).legal or ()) > 1:
            out.append(game)
    return out


def test_montecarlo_explains_bids_and_rolls() -> None:
    game = position_from_seed(4, "expl", hand=5)
    expl = explain_decision(game, 2, "montecarlo:bid_sims=32", seed=1)
    assert isinstance(expl, Explanation) and expl.kind == "bid" and expl.seat == 2
    assert [c.choice for c in expl.choices] == list(range(6))
    assert all(c.n == 32 and math.isfinite(c.mean) and c.stderr >= 0 for c in expl.choices)
    assert expl.chosen == expl.best().choice
    assert expl.samples == 6 * 32 and expl.seconds > 0
    for game in _roll_positions():
        view = game.observe(game.turn)
        expl = explain(view, "montecarlo:sims=32", seed=2)
        assert expl.kind == "roll"
        assert [c.choice for c in expl.choices] == list(view.legal)
        assert expl.chosen == expl.best().choice
        assert all(c.n == 32 and -10 * view.hand <= c.mean <= 20 * view.hand + 200 for c in expl.choices)


def test_ismcts_explains_its_rolls() -> None:
    for game in _roll_positions():
        view = game.observe(game.turn)
        expl = explain(view, "ismcts:sims=60", seed=3)
        assert expl.kind == "roll" and expl.samples == 60
        assert [c.choice for c in expl.choices] == list(view.legal)
        assert sum(c.n for c in expl.choices) == 60
        assert expl.chosen == max(expl.choices, key=lambda c: (c.n, c.mean)).choice
    bid = explain(position_from_seed(4, "e", hand=3).observe(0), "ismcts:bid_sims=16", seed=1)
    assert bid.kind == "bid" and bid.chosen == bid.best().choice


def test_record_positions_walk_every_decision_with_the_choice_made() -> None:
    game = position_from_seed(4, "walk", hand=8, trick=8, roll=4)  # the last roll of the game is next
    record = from_game(game)
    seen = [(p.hand, p.trick, p.roll) for p in record_positions(record)]
    bids = [p for p in record_positions(record) if p.trick is None]
    assert len(bids) == 8 and len(seen) == 8 + 4 * sum(range(1, 9))
    for at in record_positions(record):
        h = record["hands"][at.hand - 1]
        if at.trick is None:
            assert at.made == tuple(h["bids"]) and at.game.phase is Phase.BID
            continue
        assert at.seat == at.game.turn and at.roll is not None
        if at.made is None:  # where the record stops: the decision still to make
            assert (at.hand, at.trick, at.roll) == (8, 8, 4)
        else:
            assert at.made == Die(h["tricks"][at.trick - 1]["rolls"][at.roll - 1]["die"])
            assert at.made in at.game.observe(at.seat).legal


def test_explanations_render_and_positions_come_from_records() -> None:
    from rich.console import Console

    game = position_from_seed(4, "rec", hand=3, trick=2, roll=3)
    record = from_game(game)
    again = position_from_record(record, 3, 2, 3)
    assert again.turn == game.turn
    assert again.observe(again.turn) == game.observe(game.turn)
    at_bid = position_from_record(record, 3)
    assert at_bid.phase is Phase.BID and at_bid.hand == 3 and at_bid.to_act() == [0, 1, 2, 3]
    with pytest.raises(ValueError):
        position_from_record(record, 3, 3, 1)  # not played yet
    console = Console(record=True, width=120)
    expl = explain_command(record=record, hand=3, trick=2, roll=3, spec="montecarlo:sims=16", console=console)
    assert expl.kind == "roll"
    text = console.export_text()
    assert "expected score" in text and expl.chosen.value in text  # type: ignore[union-attr]
    console = Console(record=True, width=120)
    explain_command(game_seed=5, hand=2, seat=1, spec="montecarlo:bid_sims=16", console=console)
    assert "bid 0" in console.export_text()
    assert render_explanation(expl) is not None
    with pytest.raises(ValueError):
        explain_decision(game, (game.turn + 1) % 4, "montecarlo")
    with pytest.raises(ValueError):
        explain_decision(game, game.turn, "greedy")


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
    as_json = runner.invoke(app, ["explain", "--bot", "montecarlo:sims=8", "--hand", "4", "--trick", "2", "--json"])
    assert as_json.exit_code == 0, as_json.output
    data = json.loads(as_json.output)
    assert data["kind"] == "roll" and data["bot"] == "montecarlo:sims=8"
    assert data["chosen"] in [c["choice"] for c in data["choices"]]
    # 8 playouts a die, all on one deal of the hidden dice: an estimate without a spread to tell (null, "—")
    assert all(c["samples"] == 8 and c["ci95"] is None for c in data["choices"])
    table = runner.invoke(app, ["explain", "--bot", "montecarlo:sims=8", "--hand", "4", "--trick", "2"])
    assert "nan" not in table.output and "—" in table.output


# --- sensible play in obvious positions -------------------------------------------------------


def view(
    dice: list[Die],
    *,
    hand: int,
    bids: list[int] | None = None,
    done: tuple[TrickView, ...] = (),
    rolled: list[tuple[int, Die, Face]] | tuple = (),
    start: int = 0,
    seats: int = 4,
) -> View:
    """Seat 0's view: bidding if `bids` is None, else rolling after `rolled` in the current trick
    (`done`: the finished tricks of the hand; the caller keeps it consistent)."""
    names = tuple(f"P{i}" for i in range(seats))
    if bids is None:
        return View(0, seats, names, hand, 8, start, Rules(), tuple(dice), (False,) * seats,
                    (None,) * seats, (0,) * seats, (0,) * seats, (), start, tuple(range(hand + 1)))
    won = [0] * seats
    for t in done:
        won[t.winner] += 1  # type: ignore[index]
    trick = TrickView(tuple(RollView(s, d, f) for s, d, f in rolled), None)
    leader = rolled[0][0] if rolled else (done[-1].winner if done else start)
    legal = tuple(legal_dice(dice, lead_colour([d for _, d, _ in rolled])))
    v = View(0, seats, names, hand, 8, start, Rules(), tuple(dice), (True,) * seats, tuple(bids),
             tuple(won), (0,) * seats, (*done, trick) if rolled else done, leader, legal)  # type: ignore[arg-type]
    assert v.to_roll == 0
    return v


def trick(*rolls: tuple[int, Die, Face], winner: int) -> TrickView:
    return TrickView(tuple(RollView(*r) for r in rolls), winner)


def spoil_position() -> View:
    """Seat 0 bid 0 and won trick 1: its -30 is settled. Seat 1 bid 0 and leads trick 2 with a red 7;
    seat 0's purple lets it take the trick (its bid broken), its griffin most likely takes it away."""
    done = (trick((0, Die.RED, Face.SEVEN), (1, Die.YELLOW, Face.THREE), (2, Die.PURPLE, Face.ONE),
                  (3, Die.GRAY, Face.FLAG), winner=0),)
    rolled = [(1, Die.RED, Face.SEVEN), (2, Die.PURPLE, Face.ONE), (3, Die.GRAY, Face.FLAG)]
    return view([Die.PURPLE, Die.GRIFFIN], hand=3, bids=[0, 0, 1, 1], done=done, rolled=rolled)


BOTS = [("montecarlo:sims=200", 1), ("ismcts:sims=200", 1)]


@pytest.mark.parametrize(("spec", "seed"), BOTS)
def test_rolls_to_win_when_it_needs_the_trick(spec: str, seed: int) -> None:
    # Last to roll after a yellow 4: any red takes the trick for sure; bid 1, none won yet.
    rolled = [(1, Die.YELLOW, Face.FOUR), (2, Die.YELLOW, Face.THREE), (3, Die.PURPLE, Face.TWO)]
    v = view([Die.RED, Die.PURPLE, Die.GRAY], hand=3, bids=[1, 1, 1, 1], rolled=rolled, start=1)
    assert make_bot(spec, seed=seed).roll(v) is Die.RED
    # A griffin face leads: the minotaur takes it 4 times in 6, with a 30-point bonus.
    rolled = [(1, Die.GRIFFIN, Face.GRIFFIN), (2, Die.RED, Face.SEVEN), (3, Die.YELLOW, Face.FIVE)]
    v = view([Die.MINOTAUR, Die.PURPLE], hand=2, bids=[1, 0, 1, 0], rolled=rolled, start=1)
    assert make_bot(spec, seed=seed).roll(v) is Die.MINOTAUR


@pytest.mark.parametrize(("spec", "seed"), BOTS)
def test_dumps_when_it_has_enough(spec: str, seed: int) -> None:
    # A minotaur face leads: the griffin cannot take this trick, so it is shed while that is safe
    # (later it would win against numbers). With a zero bid:
    rolled = [(3, Die.MINOTAUR, Face.MINOTAUR)]
    v = view([Die.GRIFFIN, Die.RED, Die.PURPLE], hand=3, bids=[0, 1, 1, 1], rolled=rolled, start=3)
    assert make_bot(spec, seed=seed).roll(v) is Die.GRIFFIN
    # ... and with its bid of 1 already made in trick 1.
    done = (
        trick((3, Die.YELLOW, Face.THREE), (0, Die.RED, Face.SEVEN), (1, Die.YELLOW, Face.FOUR),
              (2, Die.YELLOW, Face.FIVE), winner=0),
        trick((0, Die.PURPLE, Face.ONE), (1, Die.PURPLE, Face.TWO), (2, Die.PURPLE, Face.THREE),
              (3, Die.PURPLE, Face.THREE), winner=3),
    )
    v = view([Die.GRIFFIN, Die.RED, Die.GRAY], hand=5, bids=[1, 1, 1, 1], done=done,
             rolled=[(3, Die.MINOTAUR, Face.MINOTAUR)], start=3)
    assert make_bot(spec, seed=seed).roll(v) is Die.GRIFFIN


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("spec", ["montecarlo:sims=200", "neural+search:policy=network-all,prior=0,sims=64",
                                  "neural+search:policy=network,bid_policy=value,prior=0,sims=64"])
def test_rivals_spoil_a_bid_when_its_own_score_is_settled(seed: int, spec: str) -> None:
    v = spoil_position()
    own = make_bot(spec, seed=seed)
    own.roll(v)
    assert own.last_explanation is not None
    assert {c.mean for c in own.last_explanation.choices} == {-30.0}  # indifferent on its own score
    lead = make_bot(f"{spec},rivals=1", seed=seed)
    assert lead.roll(v) is Die.PURPLE
    assert lead.last_explanation is not None
    means = {c.choice: c.mean for c in lead.last_explanation.choices}
    assert "other seats' mean" in lead.last_explanation.note and "mean" not in own.last_explanation.note
    assert means[Die.PURPLE] > means[Die.GRIFFIN] + 5  # seat 1's broken zero bid costs it 60 points, a third counts


def test_neural_search_counts_its_rivals_only_where_its_judge_plays_the_hand_out() -> None:
    """A value head estimates the seat's own points only: with bid_policy=value the bids are judged by
    that, the rolls (network-all playouts) by the lead; with no judge that plays out, rivals is refused."""
    bot = make_bot("neural+search:policy=network-all,bid_policy=value,prior=0,sims=32,bid_sims=32,rivals=1", seed=1)
    bid_view = Game(4, seed=8).observe(0)
    assert bot.bid(bid_view) in bid_view.legal_bids
    assert bot.last_explanation is not None
    assert bot.last_explanation.note.startswith("expected score of this hand per bid: playouts by the network")
    roll_view = spoil_position()
    assert bot.roll(roll_view) in roll_view.legal_dice
    assert bot.last_explanation is not None
    assert bot.last_explanation.note.startswith("expected score of this hand less 1 x the other seats' mean per die")
    for spec, judged in (("policy=value", "policy=value ends"),
                         ("policy=value,bid_policy=value", "policy and bid_policy=value end")):
        with pytest.raises(BotSpecError, match=f"{judged} in the value head, which estimates the seat's own points "
                                               "only: rivals needs a judge that plays the hand out"):
            make_bot(f"neural+search:{spec},rivals=1")


@pytest.mark.parametrize("spec", ["montecarlo:sims=200", "ismcts:bid_sims=200"])
def test_bids_follow_the_dice(spec: str) -> None:
    weak = view([Die.PURPLE, Die.GRAY, Die.PURPLE, Die.GRAY, Die.PURPLE], hand=5)
    assert make_bot(spec, seed=1).bid(weak) == 0
    assert make_bot(spec, seed=2).bid(view([Die.GRAY, Die.PURPLE], hand=2)) == 0
    strong = view([Die.MINOTAUR, Die.GRIFFIN, Die.GRIFFIN, Die.GRIFFIN, Die.RED], hand=5)
    assert make_bot(spec, seed=1).bid(strong) >= 3


# --- the building blocks ------------------------------------------------------------------------


def test_rollouts_score_the_current_hand() -> None:
    game = position_from_seed(4, "roll", hand=3, trick=2, roll=1)
    det = Game.from_view(game.observe(0), random.Random(1), own_bid=game.current.bids[0])  # type: ignore[union-attr]
    scores = rollout_scores(det, 50, 7)
    assert scores.shape == (50, 4)
    bids = det.current.bids  # type: ignore[union-attr]
    for row in scores:
        for s, bid in enumerate(bids):
            if bid == 0:
                assert row[s] in (30, -30)
            else:  # made (plus bonuses), or missed by 1 to 3 tricks
                assert row[s] >= 20 * bid or row[s] in (-10, -20, -30)
    assert (rollout_scores(det, 50, 7) == scores).all()  # same seed, same playouts


# --- stronger than greedy ------------------------------------------------------------------------


def duplicate_lead(spec: str, deals: int, prefix: str) -> tuple[float, float]:
    """Mean lead per game over greedy (4 seats, each deal played both ways) and its 95% half-width."""
    diffs = []
    for i in range(deals):
        per_deal = []
        for rotation in (0, 1):
            game = Game(4, chance=DuplicateChance(f"{prefix}-{i}", 4))
            bots = {
                s: make_bot(spec if s % 2 == rotation else "greedy", seed=f"{prefix}-{i}:{rotation}:{s}")
                for s in range(4)
            }
            Match(game, bots).play()
            t = game.totals
            mine = (t[rotation] + t[rotation + 2]) / 2
            per_deal.append(mine - (sum(t) / 2 - mine))
        diffs.append(statistics.fmean(per_deal))
    return statistics.fmean(diffs), 2.0 * statistics.stdev(diffs) / math.sqrt(deals)


@pytest.mark.heavy
@pytest.mark.parametrize(("spec", "deals"), [("montecarlo:sims=64,per=4,bid_sims=64,bid_per=4", 80), ("ismcts:sims=48,bid_sims=64", 60)])
def test_beats_greedy_beyond_the_noise(spec: str, deals: int) -> None:
    mean, half = duplicate_lead(spec, deals, "duel")
    assert mean - half > 0, (spec, mean, half)


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["montecarlo", "ismcts"])
def test_default_budgets_beat_greedy_clearly(spec: str) -> None:
    mean, half = duplicate_lead(spec, 120, "slow-duel")
    assert mean - half > 15, (spec, mean, half)


@pytest.mark.parametrize("nets", ["expert", "self-play"])
def test_the_expert_level_plays_its_rolls_for_its_lead(nets: str) -> None:
    """The `expert` level counts the other seats' points (`rivals=1`) and searches every legal die
    (`guide=bids`): with its own score settled, it rolls the one that breaks another seat's zero bid
    (`spoil_position`), with its own networks and with the self-play ones."""
    v = spoil_position()
    bot = make_bot(f"expert:nets={nets}", seed=3)
    assert bot.roll(v) is Die.PURPLE
    assert bot.last_explanation is not None and "other seats' mean" in bot.last_explanation.note
    assert {c.choice for c in bot.last_explanation.choices} == set(v.legal_dice)


@pytest.mark.parametrize("seed", [0, 1])
def test_the_network_alone_leaves_out_the_spoiler(seed: int) -> None:
    """Why the expert level searches every die: narrowed by its network at the default prior (`guide=both`),
    it searches only the griffin, since the network, trained on its own points, gives the purple less than
    0.1; searching every move by prior instead (`prior=0`) finds it too."""
    v = spoil_position()
    pruned = make_bot("expert:guide=both", seed=seed)
    assert pruned.roll(v) is Die.GRIFFIN
    assert pruned.last_explanation is not None and "the only move the network gives" in pruned.last_explanation.note
    assert make_bot("expert:guide=both,prior=0", seed=seed).roll(v) is Die.PURPLE
