"""`minodice odds`: exact trick-win chances, sampled greedy bids and die values, and the command."""

from __future__ import annotations

import io
import itertools
import json
import math

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

from minodice.analysis.odds import (
    MAX_OPPONENTS,
    MIN_OPPONENTS,
    BidOdds,
    DieValues,
    bid_odds,
    die_values,
    simulate_hands,
    win_chances,
)
from minodice.analysis.strength import SAMPLES, die_strength
from minodice.cli.odds import parse_opponents, register
from minodice.dice import BAG, BAG_COUNTS, Die, Face, hands_for
from minodice.rules import Rules, trick_winner
from minodice.sim import kernel as K
from minodice.sim.playout import strength_array
from minodice.tui.odds import odds_tables

OPPONENTS = range(MIN_OPPONENTS, MAX_OPPONENTS + 1)


def _face_odds(die: Die) -> list[tuple[Face, float]]:
    return [(f, die.faces.count(f) / 6) for f in dict.fromkeys(die.faces)]


# --- exact chances ---------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [Rules(), Rules(all_flags="last", all_specials="minotaur")])
@pytest.mark.parametrize("k", OPPONENTS)
def test_a_die_from_the_bag_wins_one_trick_in_k_plus_1(k: int, rules: Rules) -> None:
    table = win_chances(k, rules)
    assert table.exact
    mean = sum(BAG_COUNTS[d] * table.chance[d] for d in Die) / len(BAG)
    assert mean == pytest.approx(1 / (k + 1), abs=1e-12)
    for d in Die:
        assert len(table.by_position[d]) == k + 1
        assert table.chance[d] == pytest.approx(sum(table.by_position[d]) / (k + 1), abs=1e-15)


@pytest.mark.parametrize("k", [2, 3])
def test_minotaur_loses_only_to_mermaid_faces_and_flags(k: int) -> None:
    """Minotaur face: wins unless a mermaid face is rolled; flag: wins only an all-flag trick, rolling first."""
    others = list(BAG)
    others.remove(Die.MINOTAUR)
    no_mermaid = all_flags = 0.0
    combos = list(itertools.combinations(range(len(others)), k))
    for combo in combos:
        dice = [others[i] for i in combo]
        no_mermaid += math.prod(1 - d.faces.count(Face.MERMAID) / 6 for d in dice)
        all_flags += math.prod(d.faces.count(Face.FLAG) / 6 for d in dice)
    no_mermaid /= len(combos)
    all_flags /= len(combos)
    expected = 4 / 6 * no_mermaid + 2 / 6 * all_flags / (k + 1)
    assert win_chances(k).chance[Die.MINOTAUR] == pytest.approx(expected, abs=1e-12)


def test_two_opponents_match_a_brute_force_over_ordered_draws() -> None:
    """Every ordered pair of dice from the other 35, every face, every position: the same numbers."""
    rules = Rules()
    table = win_chances(2, rules)
    for die in Die:
        others = list(BAG)
        others.remove(die)
        pairs = [(a, b) for i, a in enumerate(others) for j, b in enumerate(others) if i != j]
        wins = [0.0, 0.0, 0.0]
        for a, b in pairs:
            for (fa, pa), (fb, pb), (fm, pm) in itertools.product(_face_odds(a), _face_odds(b), _face_odds(die)):
                p = pa * pb * pm / len(pairs)
                for pos in range(3):
                    faces = [fa, fb]
                    faces.insert(pos, fm)
                    if trick_winner(faces, rules) == pos:
                        wins[pos] += p
        assert table.by_position[die] == pytest.approx(tuple(wins), abs=1e-12), die


def test_hand_checked_purple_against_two_opponents_rolling_last() -> None:
    """Purple 3 rolled last beats anything but a special face or a number above 3 (ties go to the later roll)."""
    others = list(BAG)
    others.remove(Die.PURPLE)

    def both_at_most(top: int) -> float:
        """Chance that two dice drawn without replacement both show a flag or a number <= top."""
        ok = [sum(1 for f in d.faces if not f.special and f.number <= top) / 6 for d in others]
        return (sum(ok) ** 2 - sum(x * x for x in ok)) / (35 * 34)

    expected = (both_at_most(1) + both_at_most(2) + both_at_most(3)) / 3
    assert win_chances(2).by_position[Die.PURPLE][2] == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("k", OPPONENTS)
def test_exact_chances_agree_with_greedy_die_strength(k: int) -> None:
    exact = win_chances(k).chance
    estimate = die_strength(k + 1)
    for d in Die:
        se = math.sqrt(max(exact[d] * (1 - exact[d]), 1e-4) / SAMPLES)
        assert abs(exact[d] - estimate[d]) < 4 * se, (d, exact[d], estimate[d])


def test_bad_opponent_count_is_refused() -> None:
    with pytest.raises(ValueError, match="opponents go from 2 to 5"):
        win_chances(6)


# --- sampled: bids and die values ---------------------------------------------------------------


@pytest.fixture(scope="module")
def sample():
    return simulate_hands(4, 2000, seed=3)


def test_bid_odds_are_probabilities_for_every_hand_size(sample) -> None:
    rows = bid_odds(sample)
    assert [r.hand for r in rows] == list(range(1, hands_for(4) + 1))
    for r in rows:
        assert not r.exact and r.games == 2000 and r.samples == 8000
        assert sum(r.share.values()) == pytest.approx(1.0)
        assert set(r.share) == set(range(r.hand + 1))
        for b, p in r.made.items():
            assert r.share[b] > 0
            assert 0.0 <= p <= 1.0 and r.made_se[b] >= 0
        assert 0.0 < r.made_all < 1.0 and 0 < r.made_all_se < 0.05


def test_sampling_is_deterministic_with_a_seed(sample) -> None:
    again = simulate_hands(4, 2000, seed=3)
    other = simulate_hands(4, 2000, seed=4)
    for name in ("bids", "won", "held"):
        assert np.array_equal(getattr(sample, name), getattr(again, name))
    assert not np.array_equal(sample.held, other.held)
    assert bid_odds(sample) == bid_odds(again)


@pytest.mark.parametrize("players", [3, 5, 6])
def test_other_player_counts_cover_their_hand_sizes(players: int) -> None:
    rows = bid_odds(simulate_hands(players, 1000, seed=1))
    assert [r.hand for r in rows] == list(range(1, hands_for(players) + 1))
    assert all(r.samples == 1000 * players for r in rows)


def test_replayed_deals_are_the_dealt_hands(sample) -> None:
    """Each seat holds n dice from the bag, and the greedy kernel bids on them exactly as recorded."""
    strength = strength_array(4, Rules())
    fs = np.zeros(K.F_SIZE)
    fs[K.F_STRENGTH : K.F_STRENGTH + 7] = strength
    bag = np.array([BAG_COUNTS[d] for d in Die])
    for g in range(50):
        for h in range(sample.hands):
            held = sample.held[g, h].astype(np.int64)
            assert (held.sum(axis=1) == h + 1).all()
            assert (held.sum(axis=0) <= bag).all()
            hs = np.zeros(K.H_SIZE, dtype=np.int64)
            hs[K.H_COUNTS : K.H_COUNTS + 28] = held.reshape(-1)
            for s in range(4):
                assert K.greedy_bid(hs, fs, s, h + 1, 0) == sample.bids[g, h, s]


def test_die_values_sum_to_the_tricks_and_match_one_die_hands(sample) -> None:
    values = die_values(sample)
    assert [v.hand for v in values] == list(range(1, 9))
    for v in values:
        assert not v.exact and v.mean_tricks == pytest.approx(v.hand / 4)
        fitted = sum(BAG_COUNTS[d] * v.value[d] for d in Die) / len(BAG) * v.hand
        assert fitted == pytest.approx(v.mean_tricks, abs=0.1)
    exact = win_chances(3).chance
    one = values[0]
    for d in Die:
        assert abs(one.value[d] - exact[d]) < 4 * one.se[d] + 1e-9, d


# --- the command ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    app = typer.Typer(add_completion=False)
    register(app)

    @app.command("noop", hidden=True)
    def _noop() -> None:  # a second command keeps `odds` a subcommand, as in `minodice`
        """Nothing."""

    return app


runner = CliRunner()


def test_cli_prints_the_tables(app) -> None:
    result = runner.invoke(app, ["odds", "--samples", "1000", "--opponents", "2,3", "--players", "3"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Chance to win a trick" in out and "exact" in out
    assert "vs 2" in out and "vs 3" in out and "vs 4" not in out
    assert "By rolling position, 3 players" in out
    assert "sampled: 1,000 games" in out
    assert "Tricks one die is worth" in out
    assert "minotaur" in out and "purple" in out


def test_cli_json(app) -> None:
    result = runner.invoke(app, ["odds", "--samples", "1000", "--json", "--opponents", "2..3", "--seed", "5"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) >= {"players", "rules", "win_chance", "by_position", "bids", "die_values"}
    assert data["win_chance"]["exact"] is True
    assert [t["opponents"] for t in data["win_chance"]["tables"]] == [2, 3]
    assert data["bids"]["sampled"] is True and data["bids"]["games"] == 1000
    assert len(data["bids"]["hands"]) == 8 and len(data["die_values"]["hands"]) == 8
    assert data["by_position"]["opponents"] == 3
    assert data["win_chance"]["tables"][0]["chance"]["red"] == pytest.approx(win_chances(2).chance[Die.RED])


def test_cli_plot_writes_a_png(app, tmp_path) -> None:
    path = tmp_path / "odds.png"
    result = runner.invoke(app, ["odds", "--samples", "1000", "--opponents", "2", "--plot", str(path)])
    assert result.exit_code == 0, result.output
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "7"], "--players must be from 3 to 6"),
        (["--samples", "10"], "--samples must be at least 1,000"),
        (["--opponents", "9"], "--opponents must lie between 2 and 5"),
        (["--opponents", "many"], "--opponents takes 'all'"),
        (["--plot", "odds.txt"], "ending in .png"),
        (["--all-flags", "middle"], "rule all_flags cannot be 'middle'"),
    ],
)
def test_cli_bad_options(app, args: list[str], message: str) -> None:
    result = runner.invoke(app, ["odds", *args])
    assert result.exit_code == 2
    assert message in result.stderr


def _widest_odds() -> list:
    """The odds' tables for the widest numbers they can show: 6 players, every bid 0..8 made, negative values."""
    hands = range(1, 9)
    bids = [BidOdds(n, 10**6, 6 * 10**6, {b: 1 / 9 for b in range(9)}, {b: 0.0 for b in range(9)},
                    {b: 1.0 for b in range(9)}, {b: 0.0 for b in range(9)}, 1.0, 0.1234) for n in hands]
    values = [DieValues(n, 10**6, 6 * 10**6, {d: -0.999 for d in Die}, {d: 0.123 for d in Die}, n / 6) for n in hands]
    return odds_tables([win_chances(k) for k in OPPONENTS], win_chances(5), bids, values, 6)


def test_every_odds_table_fits_80_columns_and_explains_its_cells() -> None:
    from rich.cells import cell_len
    from rich.console import Console
    from rich.measure import Measurement

    for shown in _widest_odds():
        table, legend = shown.renderables
        console = Console(width=200, file=io.StringIO())
        assert Measurement.get(console, console.options, table).maximum <= 80, table.title
        narrow = Console(width=80, record=True, file=io.StringIO())
        narrow.print(shown)
        text = narrow.export_text()
        assert max(cell_len(line) for line in text.splitlines()) <= 80 and "…" not in text
        assert len(str(legend)) > 60, table.title  # a sentence or two in plain words


def test_cli_tables_fit_80_columns_and_say_what_the_cells_are(app) -> None:
    from rich.cells import cell_len

    result = runner.invoke(app, ["odds", "--samples", "1000", "--players", "6"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert max(cell_len(line) for line in result.stdout.splitlines()) <= 80 and "…" not in result.stdout
    for words in ("How often one die of each kind wins", "rolled first (leading the trick)",
                  "as shares of 0, 1, 2", "the share of those bids won exactly", "the tricks a die of that kind adds"):
        assert words in " ".join(result.stdout.split()), words
    assert result.stderr == ""  # no progress bar unless stderr is a terminal or --progress asks for it


def test_cli_shows_progress_when_asked(app) -> None:
    result = runner.invoke(app, ["odds", "--samples", "1000", "--opponents", "2", "--progress", "--json"])
    assert result.exit_code == 0, result.output
    assert "sampling games" in result.stderr and "1000/1000" in result.stderr
    assert json.loads(result.stdout)["bids"]["games"] == 1000  # stdout stays clean JSON


def test_simulate_hands_reports_progress() -> None:
    seen: list[int] = []
    simulate_hands(3, 12_000, seed=2, progress=seen.append)
    assert len(seen) > 1 and seen == sorted(seen) and seen[-1] == 12_000  # after every batch, up to all games


def test_parse_opponents() -> None:
    assert parse_opponents("all") == [2, 3, 4, 5]
    assert parse_opponents("2..3,5") == [2, 3, 5]
    assert parse_opponents(" 4 ") == [4]
