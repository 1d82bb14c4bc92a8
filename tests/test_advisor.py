"""The bid advisor: exact on one-die hands, self-consistent on bigger ones, and strict about its input."""

from __future__ import annotations

import io
import itertools
import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from minodice import rules as R
from minodice.analysis.advisor import advise, parse_dice
from minodice.cli import app
from minodice.dice import BAG, Die
from minodice.rules import Rules


def _exact_one_die(die: Die, players: int, position: int, rules: Rules) -> dict[int, float]:
    """Exact expected score of bids 0 and 1, and P(win), for a one-die hand, by enumeration."""
    rest = list(BAG)
    rest.remove(die)
    kinds = sorted(set(rest), key=lambda d: d.index)
    counts = {k: rest.count(k) for k in kinds}
    faces = {d: {f: Fraction(d.faces.count(f), 6) for f in set(d.faces)} for d in BAG}
    win = Fraction(0)
    expected = {0: Fraction(0), 1: Fraction(0)}

    def deals(k: int, left: dict[Die, int], total: int):
        if k == 0:
            yield (), Fraction(1)
            return
        for d in kinds:
            if left[d]:
                p = Fraction(left[d], total)
                left[d] -= 1
                for tail, q in deals(k - 1, left, total - 1):
                    yield (d, *tail), p * q
                left[d] += 1

    for others, p_deal in deals(players - 1, dict(counts), len(rest)):
        order = [*others[:position], die, *others[position:]]
        for combo in itertools.product(*(faces[d].items() for d in order)):
            p = p_deal
            for _, q in combo:
                p *= q
            rolled = [f for f, _ in combo]
            w = R.trick_winner(rolled, rules)
            won = 1 if w == position else 0
            bonus = R.trick_bonus(rolled, w) if won else 0
            win += p * won
            for b in (0, 1):
                expected[b] += p * R.hand_score(b, won, 1, bonus, rules)
    return {"win": float(win), 0: float(expected[0]), 1: float(expected[1])}


@pytest.mark.parametrize(
    ("die", "players", "position", "rules"),
    [
        (Die("red"), 3, 0, Rules()),
        (Die("mermaid"), 4, 3, Rules()),
        (Die("minotaur"), 4, 1, Rules(all_specials="griffin")),
        (Die("gray"), 5, 2, Rules(all_flags="last")),
    ],
)
def test_one_die_hands_match_exact_enumeration(die: Die, players: int, position: int, rules: Rules) -> None:
    exact = _exact_one_die(die, players, position, rules)
    advice = advise([die], players, position=position, rules=rules, precision=0.3, seconds=60, seed=5)
    assert advice.precise
    for e in advice.bids:
        # Within the advisor's own 95 % interval, widened to about 4 standard errors.
        assert abs(e.expected - exact[e.bid]) <= 2 * e.half_width, (e, exact)
        p = exact["win"]
        assert abs(e.tricks[1] - p) <= 4 * (p * (1 - p) / e.playouts) ** 0.5, (e, p)
        assert sum(e.tricks) == pytest.approx(1.0)


def test_landlubber_expectations_follow_from_the_trick_distribution() -> None:
    rules = Rules(scoring="landlubber")
    dice = parse_dice(["red", "yellow", "griffin", "purple", "gray"])
    advice = advise(dice, 4, rules=rules, precision=1.0, seconds=60, seed=2)
    n = len(dice)
    for e in advice.bids:
        if e.bid == 0:
            implied = 10 * n * e.tricks[0] - 10 * n * (1 - e.tricks[0])
        else:
            implied = 20 * e.bid * e.tricks[e.bid]
        assert e.expected == pytest.approx(implied, abs=1e-6)


def test_big_hand_reaches_the_precision_and_recommends_the_best_estimate() -> None:
    dice = parse_dice(["red", "red", "griffin", "gray", "purple", "yellow", "minotaur", "mermaid"])
    advice = advise(dice, 4, position=2, seconds=60, seed=3)
    assert advice.precise and max(e.half_width for e in advice.bids) <= 1.0
    assert advice.best == max(advice.bids, key=lambda e: e.expected).bid
    # A strong hand: bidding zero is clearly worse than the advice.
    assert advice.bids[0].expected < advice.bids[advice.best].expected - 20
    again = advise(dice, 4, position=2, seconds=60, seed=3)
    assert again.bids == advice.bids  # same seed, same answer


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((["red", "blue"], 4), "'blue' is not a die"),
        ((["red"] * 9, 4), "1 to 8 dice"),
        ((["red"] * 8, 5), "1 to 7 dice"),
        ((["minotaur", "minotaur"], 4), "only 1 minotaur"),
        ((["red"], 7), "3 to 6 players"),
    ],
)
def test_bad_hands_are_refused_in_words(args: tuple, message: str) -> None:
    names, players = args
    with pytest.raises(ValueError, match=message):
        advise(parse_dice(names), players)


def test_bad_position_and_policy_are_refused() -> None:
    with pytest.raises(ValueError, match="position must be 0"):
        advise([Die("red")], 3, position=3)
    with pytest.raises(ValueError, match="opponents play greedy or random"):
        advise([Die("red")], 3, opponents="smart")


def test_advise_command_prints_the_table_and_json() -> None:
    runner = CliRunner()
    out = runner.invoke(app, ["advise", "red", "red", "griffin", "gray", "--players", "4", "--seconds", "20"])
    assert out.exit_code == 0, out.output
    assert "expected score" in out.output and "Bid " in out.output and "P(4)" in out.output
    out = runner.invoke(app, ["advise", "red", "griffin", "--players", "3", "--seat", "2", "--json", "--seconds", "20",
                              "--opponents", "random", "--scoring", "landlubber"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["players"] == 3 and data["opponents"] == "random" and len(data["bids"]) == 3
    assert data["position"] == 2
    assert data["best_bid"] == max(data["bids"], key=lambda b: b["expected_score"])["bid"]
    assert data["rules"]["scoring"] == "landlubber"


def test_advise_command_refuses_bad_input() -> None:
    runner = CliRunner()
    for args, message in [
        (["advise", "red", "blue"], "'blue' is not a die"),
        (["advise", "red", "g"], "'g' could mean more than one die (griffin and gray): type more of the name"),
        (["advise", "mino", "minotaur"], "the bag holds only 1 minotaur dice; 2 were given"),
        (["advise", "red", "--players", "9"], "3 to 6 players"),
        (["advise", "red", "--scoring", "pirate"], "rule scoring cannot be 'pirate'"),
    ]:
        out = runner.invoke(app, args)
        assert out.exit_code == 2 and out.stdout == ""
        assert out.stderr.startswith("minodice advise: ")
        assert message in out.stderr and out.stderr.count("\n") == 1  # one line in words, no usage box


def test_dice_are_read_as_people_type_them() -> None:
    assert parse_dice(["grey", "R", "mino", "gri", "violet"]) == [Die.GRAY, Die.RED, Die.MINOTAUR, Die.GRIFFIN,
                                                                 Die.PURPLE]
    with pytest.raises(ValueError, match=r"^'m' could be minotaur or mermaid: type more of the name$"):
        parse_dice(["m"])
    runner = CliRunner()
    out = runner.invoke(app, ["advise", "r,grey", "mino", "--json", "--seconds", "0.05"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["dice"] == ["red", "gray", "minotaur"]


def test_advice_for_eight_dice_fits_80_columns() -> None:
    from rich.cells import cell_len
    from rich.console import Console

    from minodice.tui.advice import advice_table

    advice = advise(parse_dice(["red", "red", "griffin", "gray", "purple", "yellow", "minotaur", "mermaid"]), 3,
                    seconds=0.05)
    wide = Console(width=200, record=True, file=io.StringIO())
    wide.print(advice_table(advice))  # its own width, unsqueezed
    lines = wide.export_text().splitlines()
    assert max(cell_len(line.rstrip()) for line in lines) <= 80
    assert "P(8)" in lines[2] and len(lines) == 3 + 1 + 9 + 2  # title (2 lines), header, rule, 9 bids, legend
    narrow = Console(width=80, record=True, file=io.StringIO())
    narrow.print(advice_table(advice))
    assert "…" not in narrow.export_text()  # nothing cut short at 80 columns



def test_the_bid_hint_advises_the_seat_of_a_view_on_its_own_dice_at_its_place() -> None:
    from minodice.analysis.advisor import bid_hint
    from minodice.game import Bid, Game

    game = Game(4, seed=3)
    game.apply(Bid(0, 0))
    view = game.observe(2)  # seat 2 rolls third in the first trick (seat 0 starts hand 1)
    advice = bid_hint(view)
    assert advice.dice == view.dice and advice.players == 4 and advice.position == 2
    with pytest.raises(ValueError, match="bidding"):
        bid_hint(game.observe(None))  # a spectator has no bid
