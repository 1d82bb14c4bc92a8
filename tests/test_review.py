"""`minodice analyze` (minodice.review): honest, reproducible, blind to what the seat could not see.

Budgets are small here (tests must be fast); `benchmarks/bench_analyze.py` times the defaults.
"""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from minodice.analysis.luck import face_luck
from minodice.bots import make_bot
from minodice.bots.runner import Match
from minodice.cli import app
from minodice.game import Game
from minodice.record import check, from_game
from minodice.review import FORMAT, LABELS, THRESHOLDS, analyze, label_of

#: The honesty checks judge with the default budget (small ones are too noisy to tell seats apart);
#: the mechanics with a small one.
STRONG = "montecarlo"
JUDGE = "montecarlo:sims=48,per=4,bid_sims=48,bid_per=4"


def played(specs: list[str], seed: str) -> dict:
    """The record of a whole game played by `specs` (one bot per seat)."""
    game = Game(len(specs), seed=seed)
    match = Match(game, {i: make_bot(spec, seed=f"{seed}:{i}") for i, spec in enumerate(specs)})
    try:
        match.play()
    finally:
        match.close()
    return from_game(game)


@pytest.fixture(scope="module")
def mixed() -> dict:
    return played(["random", STRONG, "greedy", "greedy"], "review-1")


@pytest.fixture(scope="module")
def judged(mixed: dict):
    return analyze(mixed, [0, 1], STRONG, seed=7)


def test_labels_follow_the_thresholds() -> None:
    assert LABELS == ("forced", "fine", "inaccuracy", "mistake", "blunder")
    for name, points in THRESHOLDS:
        assert label_of(points) == name and label_of(points - 0.01) != name
    assert label_of(0.0) == "fine" and label_of(50.0, forced=True) == "forced"


def test_a_random_seat_loses_several_times_more_than_a_montecarlo_seat(judged) -> None:
    rnd, mc = judged.seats
    assert (rnd.seat, mc.seat) == (0, 1)
    assert rnd.chosen > 10 and mc.chosen > 10
    assert rnd.mean_loss() > 3 * mc.mean_loss(), (rnd.mean_loss(), mc.mean_loss())


def test_the_judges_own_choices_lose_nothing_beyond_its_error(judged) -> None:
    mc = judged.seats[1]
    chosen = [d for d in mc.decisions if not d.forced]
    mean_se = sum(d.made_se or 0.0 for d in chosen) / len(chosen)
    assert mc.mean_loss() < 2 * mean_se, (mc.mean_loss(), mean_se)


def test_every_decision_is_judged_and_forced_rolls_cost_nothing(mixed: dict, judged) -> None:
    luck = face_luck(mixed)
    for review in judged.seats:
        s = review.seat
        bids = [d for d in review.decisions if d.kind == "bid"]
        rolls = [d for d in review.decisions if d.kind == "roll"]
        assert [d.made for d in bids] == [h["bids"][s] for h in mixed["hands"]]
        assert len(rolls) == sum(1 for h in mixed["hands"] for t in h["tricks"] for r in t["rolls"] if r["seat"] == s)
        for d in review.decisions:
            if d.forced:
                assert d.loss == 0.0 and d.loss_se == 0.0 and d.made == d.best and not d.alternatives
            else:
                assert d.loss >= 0.0 and d.label == label_of(d.loss)
                assert d.made in [a.choice for a in d.alternatives] and d.best in [a.choice for a in d.alternatives]
                assert d.best_mean == max(a.mean for a in d.alternatives)
                assert math.isclose(d.loss, (d.best_mean or 0) - (d.made_mean or 0), abs_tol=1e-9) or d.loss == 0.0
        assert any(d.forced for d in review.decisions)
        split = review.split()
        assert split["score"] == sum(h["scores"][s] for h in mixed["hands"])
        assert math.isclose(split["dice"] + split["decisions"] + split["rest"], split["score"])
        assert math.isclose(split["faces"] + split["others"], split["rest"])
        assert [h.luck for h in review.hands] == [hand[s] for hand in luck.hands]  # the faces' luck, by hand
        assert math.isclose(review.loss, sum(h.loss for h in review.hands))
        assert review.worst() == sorted(review.worst(), key=lambda d: -d.loss) and len(review.worst()) <= 3


def test_the_analysis_never_sees_what_the_seat_could_not(mixed: dict) -> None:
    """Swap two other seats' dice in hand 8 (never rolled in the shortened record): seat 0's
    decisions up to then are judged exactly as before."""
    changed = copy.deepcopy(mixed)
    last = changed["hands"][-1]
    last["dice"][2], last["dice"][3] = last["dice"][3], last["dice"][2]
    last["tricks"], changed["totals"] = [], None
    last.pop("scores", None)
    del changed["totals"]
    assert check(changed) is None
    before = analyze(mixed, [0], JUDGE, seed=3).seats[0].decisions
    after = analyze(changed, [0], JUDGE, seed=3).seats[0].decisions
    assert len(after) == 8 * 1 + sum(1 for d in before if d.kind == "roll" and d.hand < 8)
    assert list(after) == [d for d in before if d.hand < 8 or d.kind == "bid"]
    hands = analyze(changed, [0], JUDGE, seed=3).seats[0].hands
    assert hands[-1].luck is None and all(h.luck is not None for h in hands[:-1])  # no luck of the hand in play


def test_the_same_seed_gives_the_same_analysis_whatever_the_jobs() -> None:
    short = played(["greedy", "random", "greedy"], "review-2")
    short["hands"] = short["hands"][:3]
    for h in short["hands"]:
        h.pop("scores", None)
    short.pop("totals", None)
    one = analyze(short, None, JUDGE, seed=5).to_dict()
    assert analyze(short, None, JUDGE, seed=5).to_dict() == one
    assert analyze(short, None, JUDGE, seed=5, jobs=2).to_dict() == one
    assert analyze(short, None, JUDGE, seed=6).to_dict() != one


def test_the_cli_prints_the_review_and_the_json_document(mixed: dict, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(mixed))
    runner = CliRunner()
    name = mixed["seats"][0]["name"]
    done = runner.invoke(app, ["analyze", str(path), "--seat", name, "--bot", JUDGE, "--json"])
    assert done.exit_code == 0, done.output
    doc = json.loads(done.stdout)
    assert doc["format"] == FORMAT and [s["seat"] for s in doc["seats"]] == [0]
    assert doc["thresholds"] == dict(THRESHOLDS) and doc["seats"][0]["decisions"][0]["kind"] == "bid"
    text = runner.invoke(app, ["analyze", str(path), "--seat", "1", "--bot", JUDGE, "--brief"])
    assert text.exit_code == 0 and "expected loss" in text.stdout and "Worst" in text.stdout
    assert "the faces" in text.stdout and "(the luck)" in text.stdout
    for args, code, words in (
        (["--seat", "Nobody"], 2, "no seat is called"),
        (["--seat", "9"], 1, "seats 0 to 3"),
        (["--bot", "montecarlo:sims=-1"], 2, "montecarlo: option sims must be"),
    ):
        bad = runner.invoke(app, ["analyze", str(path), *args])
        assert bad.exit_code == code and words in bad.output, (args, bad.output)
        assert bad.stderr.strip().startswith("minodice analyze: "), bad.stderr
    (tmp_path / "bad.json").write_text("{")
    assert runner.invoke(app, ["analyze", str(tmp_path / "bad.json")]).exit_code == 2


@pytest.mark.parametrize(("spec", "words"), [
    ("neural+search", "weighs only some of the choices"),
    ("expert", "give it prior=0 ('expert:prior=0')"),
    ("greedy", "greedy keeps no estimate of the choices it did not make"),
    ("cmd:python3 bot.py", "a judge is a built-in search bot"),
])
def test_a_judge_that_cannot_weigh_every_choice_is_refused_before_any_work(spec: str, words: str) -> None:
    short = played(["greedy", "random", "greedy"], "review-3")
    with pytest.raises(ValueError, match=None) as refused:
        analyze(short, None, spec)
    assert words in str(refused.value) and "\n" not in str(refused.value)


def test_a_neural_judge_that_weighs_every_choice_judges_them() -> None:
    short = played(["greedy", "random", "greedy"], "review-4")
    short["hands"] = short["hands"][:2]
    for h in short["hands"]:
        h.pop("scores", None)
    short.pop("totals", None)
    review = analyze(short, [1], "neural+search:prior=0,sims=16,bid_sims=16")
    decisions = review.seats[0].decisions
    assert decisions and all(d.made_mean is None or math.isfinite(d.made_mean) for d in decisions)
    assert all(math.isfinite(h.loss) for h in review.seats[0].hands)


def test_a_record_dealt_nothing_yet_has_no_decision_to_judge() -> None:
    fresh = from_game(Game(3, seed=1))
    fresh["hands"][0]["bids"] = [None, None, None]
    review = analyze(fresh, None, JUDGE)
    assert all(not s.decisions for s in review.seats)
