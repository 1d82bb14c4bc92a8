"""Tournaments: duplicate deals, honest statistics, backends that agree, faults, the command."""

from __future__ import annotations

import json
import math
import shlex
import sys
import textwrap
from collections import defaultdict
from pathlib import Path

import pytest
import typer
from openskill.models import PlackettLuce
from typer.testing import CliRunner

from minodice import record
from minodice.analysis import MAX_LUCK_PLAYOUTS
from minodice.cli.tournament import register
from minodice.dice import Die, Face
from minodice.game import EXTERNAL, Bid, Deal, Game, Land, Roll
from minodice.rules import places
from minodice.tournament import (
    DuplicateChance,
    GameResult,
    SeatResult,
    TournamentConfig,
    TournamentError,
    entrants_from_specs,
    run_tournament,
    schedule,
    summarize,
)
from minodice.tournament.config import Entrant
from minodice.tournament.play import hand_outcomes
from minodice.tournament.report import TIMING_FIELDS, to_json
from minodice.tournament.stats import mean_ci, t_quantile

ROOT = Path(__file__).resolve().parents[1]
SIMPLE = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(ROOT / 'examples' / 'simple_bot.py'))}"

runner = CliRunner()


def make_app() -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """The test's own app: only the commands `register` adds."""

    register(app)
    return app


APP = make_app()


def invoke(*args: str):
    return runner.invoke(APP, ["tournament", *args])


def without_timing(data: dict) -> dict:
    """The JSON report minus the fields that measure time."""
    data = json.loads(json.dumps(data))
    for entrant in data["entrants"]:
        for name in TIMING_FIELDS:
            entrant.pop(name)
    return data


# --- duplicate deals ---------------------------------------------------------------------


def rolls_by_kind(hand: dict) -> dict[tuple[int, str], list[str]]:
    """(seat, die kind) -> the faces that seat's dice of that kind showed, in rolling order."""
    out: dict[tuple[int, str], list[str]] = defaultdict(list)
    for trick in hand["tricks"]:
        for r in trick["rolls"]:
            out[r["seat"], r["die"]].append(r["face"])
    return dict(out)


def test_duplicate_records_replay_the_same_dice_and_faces(tmp_path):
    out = tmp_path / "records"
    result = invoke("--seat", "random", "--seat", "greedy", "--seat", "random", "--seat", "greedy",
                    "--games", "12", "--seed", "5", "--records", str(out), "--json", "-q")
    assert result.exit_code == 0, result.output
    files = sorted(p.name for p in out.glob("*.json"))
    assert files == [f"deal{d:05d}-rot{r}.json" for d in range(3) for r in range(4)]
    by_deal: dict[int, list[dict]] = defaultdict(list)
    for d in range(3):
        for r in range(4):
            rec = record.load(out / f"deal{d:05d}-rot{r}.json")
            assert record.check(rec) is None
            by_deal[d].append(rec)
    first_hands = []
    for recs in by_deal.values():
        # Every rotation seats the entrants differently ...
        seatings = {tuple(s["name"] for s in rec["seats"]) for rec in recs}
        assert len(seatings) == 4
        assert {s["bot"] for s in recs[0]["seats"]} == {"random", "greedy"}
        # ... but each seat position draws the same dice, and its i-th die of a kind shows the same face.
        base = recs[0]
        for rec in recs[1:]:
            assert len(rec["hands"]) == len(base["hands"]) == 8
            for h0, h1 in zip(base["hands"], rec["hands"]):
                assert h1["dice"] == h0["dice"]
                assert rolls_by_kind(h1) == rolls_by_kind(h0)
        # The players' choices differ between rotations (it is not one game copied).
        assert len({json.dumps([h["bids"] for h in rec["hands"]]) for rec in recs}) > 1
        first_hands.append(json.dumps(base["hands"][3]["dice"]))
    assert len(set(first_hands)) == 3  # deals differ from each other


def test_duplicate_chance_faces_follow_the_die_kind_not_the_roll_order():
    chance = DuplicateChance("x", 3)
    game = Game(3, chance=EXTERNAL)
    game.apply(Deal(tuple(tuple(row) for row in chance.deal(game, 1, 1))))
    twin = chance.copy()
    die = game.held(0)[0]
    assert chance.land(game, 0, die) == chance.faces(1, 0, die)[0]
    assert twin.land(game, 0, die) == chance.faces(1, 0, die)[0]  # a copy replays the same outcome
    with pytest.raises(ValueError, match="4 seats"):
        DuplicateChance("x", 4).deal(game, 1, 1)


def test_no_duplicate_mode_plays_independent_games(tmp_path):
    out = tmp_path / "r"
    result = invoke("--seat", "random", "--seat", "random", "--seat", "greedy", "--games", "4",
                    "--seed", "2", "--no-duplicate", "--records", str(out), "--json", "-q")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["games"], data["deals"], data["duplicate"]) == (4, 4, False)
    recs = [record.load(p) for p in sorted(out.glob("game*.json"))]
    assert len(recs) == 4
    assert len({json.dumps(r["hands"][1]["dice"]) for r in recs}) == 4


# --- statistics by hand ----------------------------------------------------------------------

#: Totals by entrant (a, b, c) for games 0-5 (deals 0 and 1, three rotations each).
TOTALS = [(10, 20, 20), (30, 0, -10), (20, 20, 0), (0, 10, 50), (40, 40, 40), (-10, 30, 0)]


def hand_results() -> tuple[TournamentConfig, list[GameResult]]:
    config = TournamentConfig((Entrant("a", "random"), Entrant("b", "random"), Entrant("c", "random")),
                              games=6, seed=0)
    results = []
    for spec, by_entrant in zip(schedule(config), TOTALS):
        seats = tuple(
            SeatResult(entrant=e, total=by_entrant[e], hands=8, bids_made=2 + e, bonus=30 * (e == 0) * (spec.deal == 0),
                       decisions=10, seconds=0.01 * (e + 1), max_seconds=0.002 * (e + 1))
            for e in spec.seating
        )
        results.append(GameResult(spec.index, spec.deal, spec.rotation, seats))
    return config, results


def test_t_quantiles_match_scipy_everywhere_they_are_used():
    """The hand-written quantile stays (scipy would double the base install, 96 to about 210 MiB, and add
    0.2 s to the first interval, for this one function); it agrees with scipy's to 1e-9 on a grid of
    degrees of freedom and levels."""
    special = pytest.importorskip("scipy.special")
    for df in (1, 2, 3, 4, 5, 7, 10, 15, 20, 30, 50, 100, 200, 500, 1000, 5000, 10000, 100000):
        for p in (0.5, 0.6, 0.75, 0.9, 0.95, 0.975, 0.99, 0.995, 0.999, 0.9999):
            want = float(special.stdtrit(df, p))
            assert t_quantile(p, df) == pytest.approx(want, rel=1e-9, abs=1e-9), (df, p)


def test_t_quantiles_match_the_tables():
    assert t_quantile(0.975, 1) == pytest.approx(12.7062, abs=1e-4)
    assert t_quantile(0.975, 2) == pytest.approx(4.3027, abs=1e-4)
    assert t_quantile(0.975, 10) == pytest.approx(2.2281, abs=1e-4)
    assert t_quantile(0.975, 30) == pytest.approx(2.0423, abs=1e-4)
    assert t_quantile(0.975, 100000) == pytest.approx(1.95997, abs=1e-4)
    assert mean_ci([5.0]) == (5.0, None)
    assert mean_ci([2.0, 2.0, 2.0]) == (2.0, (2.0, 2.0))


def test_summary_by_hand():
    config, results = hand_results()
    summary = summarize(config, list(reversed(results)))  # any order: sorted by game index
    a, b, c = summary.entrants
    # Mean scores: a (10+30+20+0+40-10)/6 = 15, b 120/6 = 20, c 100/6.
    assert (a.mean_score, b.mean_score, c.mean_score) == pytest.approx((15, 20, 100 / 6))
    # Paired over deals: a's deal means are 20 and 10: mean 15, sd 7.071, se 5, t(0.975, 1) 12.7062.
    assert a.ci95 == pytest.approx((15 - 5 * 12.7062, 15 + 5 * 12.7062), abs=1e-3)
    # Places (ties share): a 3,1,1,3,1,3; b 1,2,1,2,1,1; c 1,3,3,1,1,2.
    assert (a.mean_rank, b.mean_rank, c.mean_rank) == pytest.approx((2.0, 8 / 6, 11 / 6))
    # Wins: ties for first share the win (g0 b,c; g2 a,b; g4 all three).
    assert (a.win_rate, b.win_rate, c.win_rate) == pytest.approx(((1 + 1 / 2 + 1 / 3) / 6, (1 / 2 + 1 / 2 + 1 / 3 + 1) / 6,
                                                                  (1 / 2 + 1 + 1 / 3) / 6))
    assert sum(e.win_rate for e in summary.entrants) == pytest.approx(1.0)
    # Bids made: 2, 3, 4 of 8 hands per game; bonus: a scores 30 in each game of deal 0 (3 games, 48 hands).
    assert (a.bids_made, b.bids_made, c.bids_made) == pytest.approx((2 / 8, 3 / 8, 4 / 8))
    assert (a.bonus_per_hand, b.bonus_per_hand) == pytest.approx((90 / 48, 0.0))
    # Decision times: 0.01 s per 10 decisions = 1 ms mean; max 2 ms for a.
    assert (a.decision_ms_mean, a.decision_ms_max) == pytest.approx((1.0, 2.0))
    assert a.games == 6 and summary.games == 6 and summary.deals == 2
    # Pairwise a − b, paired by deal: deal means 20 − 40/3 and 10 − 80/3, mean −5.
    pair = next(p for p in summary.pairs if (p.a, p.b) == ("a", "b"))
    d = [20 - 40 / 3, 10 - 80 / 3]
    se = abs(d[0] - d[1]) / math.sqrt(2) / math.sqrt(2)
    assert pair.mean_diff == pytest.approx(-5.0)
    assert pair.ci95 == pytest.approx((-5 - 12.7062 * se, -5 + 12.7062 * se), abs=1e-3)
    assert pair.deals == 2
    mirrored = next(p for p in summary.pairs if (p.a, p.b) == ("b", "a"))
    assert mirrored.mean_diff == pytest.approx(5.0)
    assert len(summary.pairs) == 6


def test_ratings_are_openskill_in_game_order_and_deterministic():
    config, results = hand_results()
    first = summarize(config, results)
    assert summarize(config, results[::-1]) == first
    model = PlackettLuce()
    ratings = [model.rating() for _ in range(3)]
    for game in results:
        teams = [[ratings[s.entrant]] for s in game.seats]
        for s, team in zip(game.seats, model.rate(teams, ranks=places(game.totals))):
            ratings[s.entrant] = team[0]
    for entrant, expected in zip(first.entrants, ratings):
        assert entrant.rating.mu == pytest.approx(expected.mu)
        assert entrant.rating.sigma == pytest.approx(expected.sigma)
        assert entrant.rating.ordinal == pytest.approx(expected.ordinal())
    # b won most (places 1,2,1,2,1,1): best rating; a worst.
    assert first.entrants[1].rating.mu > first.entrants[2].rating.mu > first.entrants[0].rating.mu


def test_hand_outcomes_count_bids_made_and_only_bonuses_scored():
    game = Game(3, chance=EXTERNAL)
    d = Die

    def play(rows, bids, rolls):
        game.apply(Deal(tuple(tuple(row) for row in rows)))
        for seat, b in enumerate(bids):
            game.apply(Bid(seat, b))
        for seat, die, face in rolls:
            game.apply(Roll(seat, die))
            game.apply(Land(face))

    # Hand 1: seat 0's minotaur beats the griffin: +30 bonus, and its bid of 1 is made (50 points).
    play([[d.MINOTAUR], [d.GRIFFIN], [d.RED]], [1, 0, 0],
         [(0, d.MINOTAUR, Face.MINOTAUR), (1, d.GRIFFIN, Face.GRIFFIN), (2, d.RED, Face.FIVE)])
    # Hand 2 (led by seat 1): seat 0 earns the bonus again but bid 0 and takes both tricks: no bonus.
    play([[d.MINOTAUR, d.RED], [d.GRIFFIN, d.YELLOW], [d.RED, d.PURPLE]], [0, 0, 1],
         [(1, d.GRIFFIN, Face.GRIFFIN), (2, d.RED, Face.FIVE), (0, d.MINOTAUR, Face.MINOTAUR),
          (0, d.RED, Face.SIX), (1, d.YELLOW, Face.THREE), (2, d.PURPLE, Face.ONE)])
    assert [h.scores for h in game.log] == [(50, 10, 10), (-20, 20, -10)]
    assert hand_outcomes(game) == [(2, 1, 30), (2, 2, 0), (2, 1, 0)]


# --- playing ------------------------------------------------------------------------------------


def test_greedy_beats_random_in_a_duplicate_tournament():
    config = TournamentConfig(entrants_from_specs(["greedy", "random", "greedy", "random"]), games=64, seed=11)
    outcome = run_tournament(config)
    pairs = {(p.a, p.b): p for p in outcome.summary.pairs}
    for g in ("greedy#1", "greedy#2"):
        for r in ("random#1", "random#2"):
            assert pairs[g, r].ci95[0] > 0, (g, r, pairs[g, r])
    greedy, random_ = outcome.summary.entrants[0], outcome.summary.entrants[1]
    assert greedy.win_rate > random_.win_rate and greedy.mean_rank < random_.mean_rank
    assert greedy.bids_made > random_.bids_made
    assert [r.index for r in outcome.results] == list(range(64))


def test_results_do_not_depend_on_the_worker():
    specs = ["greedy", "random", SIMPLE]
    config = TournamentConfig(entrants_from_specs(specs), games=9, seed=4)
    one = run_tournament(config, jobs=1)
    two = run_tournament(config, jobs=2)
    assert without_timing(to_json(one.summary)) == without_timing(to_json(two.summary))
    def played(outcome):
        return [[(s.entrant, s.total, s.bids_made, s.bonus, s.decisions) for s in r.seats] for r in outcome.results]

    assert played(one) == played(two)


GARBAGE_BOT = textwrap.dedent('''
    import json, sys
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "hello":
            print(json.dumps({"name": "garbage"}), flush=True)
        elif msg["type"] in ("bid", "roll"):
            print("garbage, not JSON", flush=True)
        elif msg["type"] == "quit":
            break
''')


def test_external_bots_play_and_faults_are_counted_per_entrant(tmp_path):
    script = tmp_path / "garbage_bot.py"
    script.write_text(GARBAGE_BOT)
    garbage = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(script))}"
    result = invoke("--seat", SIMPLE, "--seat", garbage, "--seat", "random", "--games", "6",
                    "--seed", "1", "--json", "-q", "--timeout", "5")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    by_name = {e["name"]: e for e in data["entrants"]}
    assert set(by_name) == {"simple_bot", "garbage_bot", "random"}
    assert by_name["simple_bot"]["faults"]["count"] == 0
    assert by_name["random"]["faults"]["count"] == 0
    bad = by_name["garbage_bot"]
    # Every decision of the garbage bot is a fault: 8 bids and 36 rolls in each of 6 games.
    assert bad["faults"]["count"] == 6 * (8 + 36)
    assert bad["faults"]["kinds"] == {"bad_answer": 6 * 44}
    assert "not JSON" in bad["faults"]["first"][0] and "garbage, not JSON" in bad["faults"]["first"][0]
    assert all(e["games"] == 6 for e in data["entrants"])
    assert by_name["simple_bot"]["decision_ms"]["decisions"] == 6 * 44


SULKY_BOT = textwrap.dedent('''
    import json, os, sys, time
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "hello":
            print(json.dumps({"name": "sulky"}), flush=True)
        elif msg["type"] == "bid":
            print("my dice:", msg["view"]["dice"], file=sys.stderr, flush=True)
            if not os.path.exists(__file__ + ".slept"):  # the first program sleeps, the second exits
                open(__file__ + ".slept", "w").close()
                time.sleep(30)
            sys.exit("giving up")
''')


def test_timeouts_and_crashes_are_reported_with_the_bots_last_stderr_lines(tmp_path):
    """Game 1: no answer (a timeout); game 2, the restarted program: it exits. Both with the stderr."""
    script = tmp_path / "sulky_bot.py"
    script.write_text(SULKY_BOT)
    sulky = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(script))}"
    args = ("--seat", sulky, "--seat", "random", "--seat", "random", "--games", "2", "--no-duplicate",
            "--seed", "1", "-q", "--timeout", "0.5")
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "sulky_bot: 2 faults (exited ×1, timeout ×1)" in text
    assert "no answer to bid within 0.5 s: no reply at all (does it flush stdout after each line?)" in text
    assert "the program exited with code 1" in text
    assert text.count("stderr| my dice: [") >= 2 and "stderr| giving up" in text
    (tmp_path / "sulky_bot.py.slept").unlink()
    first = json.loads(invoke(*args, "--json").stdout)["entrants"][0]["faults"]["first"]
    assert [m.splitlines()[1:] for m in first][1][-1] == "  stderr| giving up"
    assert not list(tmp_path.glob("**/*.log"))  # tournaments keep no log files


def test_json_report_has_every_field(tmp_path):
    plot = tmp_path / "t.png"
    result = invoke("--seat", "greedy", "--seat", "random", "--seat", "random", "--games", "3", "--seed", "7",
                    "--json", "-q", "--scoring", "landlubber", "--hand-start", "last_winner", "--plot", str(plot))
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"entrants", "pairs", "games", "deals", "seed", "duplicate", "rules"}
    assert (data["games"], data["deals"], data["seed"], data["duplicate"]) == (3, 1, 7, True)
    assert data["rules"] == {"scoring": "landlubber", "all_specials": "mermaid", "all_flags": "first",
                             "hand_start": "last_winner"}
    entrant = data["entrants"][0]
    assert set(entrant) == {"name", "spec", "games", "mean_score", "ci95", "mean_rank", "win_rate", "bids_made",
                            "bonus_per_hand", "decision_ms", "faults", "rating"}
    assert set(entrant["rating"]) == {"mu", "sigma", "ordinal"}
    assert entrant["ci95"] is None  # one deal: no interval
    assert entrant["bonus_per_hand"] == 0  # landlubber: no bonuses
    assert len(data["pairs"]) == 6 and set(data["pairs"][0]) == {"a", "b", "mean_diff", "ci95", "deals"}
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_luck_takes_the_faces_out_of_every_score_and_narrows_the_intervals():
    args = ["--seat", "neural", "--seat", "greedy", "--seat", "greedy", "--seat", "greedy", "--games", "40",
            "--seed", "5", "--json", "-q", "--jobs", "2"]
    plain, lucky = invoke(*args), invoke(*args, "--luck", "--luck-playouts", "64")
    assert plain.exit_code == 0 and lucky.exit_code == 0, lucky.output
    before, after = json.loads(plain.stdout), json.loads(lucky.stdout)
    assert all("less_luck" not in e for e in before["entrants"])
    for old, new in zip(before["entrants"], after["entrants"], strict=True):
        assert new["mean_score"] == old["mean_score"]  # the same games
        assert set(new["less_luck"]) == {"mean_score", "ci95"}
    variance = lucky_variance = 0.0
    for old, new in zip(before["pairs"], after["pairs"], strict=True):
        assert new["mean_diff"] == old["mean_diff"] and set(new["less_luck"]) == {"mean_diff", "ci95"}
        variance += ((old["ci95"][1] - old["ci95"][0]) / 2) ** 2
        lucky_variance += ((new["less_luck"]["ci95"][1] - new["less_luck"]["ci95"][0]) / 2) ** 2
    assert lucky_variance < variance / 2  # the faces are most of the noise of a paired difference
    table = invoke(*args[:-4], "--luck", "--luck-playouts", "16", "-q")
    assert table.exit_code == 0 and "less the luck of the faces" in table.output and "less\nluck" not in table.output


def test_table_output():
    result = invoke("--seat", "greedy", "--seat", "random", "--seat", SIMPLE, "--games", "3", "--seed", "1")
    assert result.exit_code == 0, result.output
    for text in ("Tournament: 3 games, 1 deals (duplicate), seed 1", "greedy", "simple_bot", "ordinal",
                 "Score difference", "games/s"):
        assert text in result.output


# --- Ray --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ray_session():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    yield ray
    ray.shutdown()


def test_ray_and_the_process_pool_agree(ray_session):
    args = ["--seat", "greedy", "--seat", "random", "--seat", SIMPLE, "--seat", "random",
            "--games", "8", "--seed", "3", "--json", "-q", "--jobs", "2"]
    on_ray = invoke(*args, "--backend", "ray")
    assert on_ray.exit_code == 0, on_ray.output
    assert ray_session.is_initialized()  # a running Ray is used, not shut down
    pooled = invoke(*args)
    assert pooled.exit_code == 0, pooled.output
    assert without_timing(json.loads(on_ray.stdout)) == without_timing(json.loads(pooled.stdout))


# --- usage errors --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seat", "greedy", "--seat", "random"], "3 to 6 entrants"),
        (["--seat", "greedy"] * 7, "3 to 6 entrants, one --seat each (e.g. --seat greedy --seat random --seat random), not 7"),
        ([], "not 0"),
        (["--seat", "greedy", "--seat", "random", "--seat", "random", "--games", "10"],
         "--games 10 is not a multiple of the 3 seats"),
        (["--seat", "greedy", "--seat", "random", "--seat", "random", "--games", "0"], "--games must be at least 1"),
        (["--seat", "greedy", "--seat", "random", "--seat", "random", "--jobs", "0"], "--jobs must be at least 1"),
        (["--seat", "greedy", "--seat", "nosuchbot", "--seat", "random"], "--seat 2: unknown bot 'nosuchbot'"),
        (["--seat", "greedy:depth=3", "--seat", "random", "--seat", "random"], "--seat 1: the greedy bot takes no options (got 'depth')"),
        (["--seat", "greedy", "--seat", "random", "--seat", "cmd:no-such-program-xyz --fast"],
         "--seat 3: 'cmd:no-such-program-xyz --fast': the program 'no-such-program-xyz' was not found"),
        (["--seat", "greedy", "--seat", "random", "--seat", "cmd:"], "--seat 3: 'cmd:'"),
        (["--seat", "greedy", "--seat", "random", "--seat", "random", "--timeout", "0"], "is not a number from 0.1 to 3600"),
        (["--seat", "greedy", "--seat", "random", "--seat", "random", "--address", "1.2.3.4:6379"],
         "--address joins a Ray cluster: use it with --backend ray"),
        (["--seat", "greedy", "--seat", "random", "--seat", "random", "--plot", "scores.txt"],
         "--plot scores.txt: name an image file ending in one of"),
        (["--seat", "greedy", "--seat", "random", "--seat", "random", "--plot", "/no/such/dir/p.png"],
         "the directory '/no/such/dir' does not exist"),
        (["--seat", "greedy", "--seat", "random", "--seat", "random", "--luck", "--luck-playouts", "0"],
         "--luck-playouts must be 1 to 65,536, not 0"),
        (["--seat", "greedy", "--seat", "random", "--seat", "random", "--luck-playouts", "64"],
         "--luck-playouts sets how the luck is measured: give it with --luck"),
    ],
)
def test_usage_errors_are_clear(args, message):
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_games_not_a_multiple_suggests_numbers():
    result = invoke("--seat", "greedy", "--seat", "random", "--seat", "random", "--seat", "random", "--games", "10")
    assert result.exit_code == 2
    assert "Use --games 8 or 12, or --no-duplicate" in result.stderr


def test_unwritable_records_dir(tmp_path):
    blocker = tmp_path / "file.txt"
    blocker.write_text("not a directory")
    result = invoke("--seat", "greedy", "--seat", "random", "--seat", "random", "--games", "3",
                    "--records", str(blocker / "records"))
    assert result.exit_code == 2
    assert "cannot write game records to" in result.stderr and "file.txt" in result.stderr


def test_bad_rule_option_is_a_usage_error():
    result = invoke("--seat", "greedy", "--seat", "random", "--seat", "random", "--scoring", "nope")
    assert result.exit_code == 2
    assert "nope" in result.output


def test_config_refuses_what_the_command_refuses():
    entrants = entrants_from_specs(["greedy", "random", "random"])
    with pytest.raises(TournamentError, match="not a multiple"):
        TournamentConfig(entrants, games=4, seed=1)
    with pytest.raises(TournamentError, match="3 to 6 entrants"):
        TournamentConfig(entrants[:2], games=4, seed=1)
    with pytest.raises(TournamentError, match="--jobs must be at least 1"):
        run_tournament(TournamentConfig(entrants, games=3, seed=1), jobs=0)
    with pytest.raises(TournamentError, match="unknown backend"):
        run_tournament(TournamentConfig(entrants, games=3, seed=1), backend="cloud")


@pytest.mark.parametrize("luck", [True, -1, 2.5, "64", MAX_LUCK_PLAYOUTS + 1])
def test_config_refuses_a_luck_budget_that_is_not_a_count_of_playouts(luck):
    entrants = entrants_from_specs(["greedy", "random", "random"])
    with pytest.raises(TournamentError, match="--luck-playouts must be a whole number"):
        TournamentConfig(entrants, games=3, seed=1, luck=luck)
