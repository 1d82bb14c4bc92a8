"""Every rule, example and **Decision** of RULES.md, one test each.

The pure functions of `minodice.rules` are tested directly, and the rules that
involve play (lead colour from a flag, start player, bonuses in a hand) are also
played through the engine with external chance, so the engine is shown to use them.
"""

from __future__ import annotations

import doctest
import importlib
import itertools

import pytest

from minodice.dice import Die, Face
from minodice.errors import IllegalAction
from minodice.game import Bid, Game, Phase, Roll
from minodice.rules import (
    BEATS,
    RULE_OPTIONS,
    RuleError,
    Rules,
    breaks_follow,
    explain_trick,
    hand_score,
    lead_colour,
    legal_dice,
    places,
    trick_bonus,
    trick_winner,
    winning_face,
)

F = Face
MINO, GRIF, MERM, FLAG = F.MINOTAUR, F.GRIFFIN, F.MERMAID, F.FLAG
STD = Rules()
LAND = Rules(scoring="landlubber")
RED, YELLOW, PURPLE, GRAY = Die.RED, Die.YELLOW, Die.PURPLE, Die.GRAY


def faces(*names: str) -> list[Face]:
    return [Face(n) for n in names]


# --- rule options --------------------------------------------------------------------


def test_rule_defaults_are_the_decisions_of_rules_md():
    assert Rules().to_dict() == {
        "scoring": "standard", "all_specials": "mermaid", "all_flags": "first", "hand_start": "rotate"
    }


def test_rule_options_list_every_value():
    assert {k: v for k, (v, _) in RULE_OPTIONS.items()} == {
        "scoring": ("standard", "landlubber"),
        "all_specials": ("mermaid", "minotaur", "griffin"),
        "all_flags": ("first", "last"),
        "hand_start": ("rotate", "last_winner"),
    }


@pytest.mark.parametrize(("key", "value"), [("scoring", "casual"), ("all_specials", "kraken"),
                                            ("all_flags", "middle"), ("hand_start", "random"),
                                            ("scoring", None), ("all_flags", 1)])
def test_unknown_rule_value_is_refused(key, value):
    with pytest.raises(RuleError, match=key):
        Rules(**{key: value})
    with pytest.raises(RuleError):
        Rules.from_dict({key: value})


def test_rules_from_dict():
    assert Rules.from_dict(None) == Rules()
    assert Rules.from_dict({}) == Rules()
    assert Rules.from_dict({"scoring": "landlubber", "house": "x"}) == LAND  # extra keys are free
    with pytest.raises(RuleError):
        Rules.from_dict(["scoring"])  # type: ignore[arg-type]


def test_rules_round_trip():
    for combo in itertools.product(*(v for v, _ in RULE_OPTIONS.values())):
        rules = Rules(*combo)
        assert Rules.from_dict(rules.to_dict()) == rules
    assert LAND.landlubber and not STD.landlubber


# --- following colour ------------------------------------------------------------------


def test_lead_colour_is_the_first_number_die():
    assert lead_colour([RED, YELLOW, PURPLE]) is RED
    assert lead_colour([GRAY, RED]) is GRAY
    assert lead_colour([]) is None


def test_lead_colour_special_dice_set_no_colour():
    assert lead_colour([Die.MINOTAUR, Die.GRIFFIN, Die.MERMAID]) is None
    assert lead_colour([Die.GRIFFIN, YELLOW, RED]) is YELLOW
    assert lead_colour([Die.MERMAID, Die.MINOTAUR, PURPLE]) is PURPLE


def test_lead_colour_number_die_showing_flag_still_sets_colour(helpers):
    # gray leads and lands on a flag: gray is still the lead colour
    game = helpers.external_game(3, names=["Ana", "Bo", "Cy"])
    helpers.play_hand_external(game, [["red"], ["red"], ["red"]], [0, 0, 0])
    game.apply(helpers.deal(["purple", "purple"], ["gray", "yellow"], ["gray", "purple"]))
    helpers.bid_all(game, [0, 0, 0])
    assert game.turn == 1  # hand 2 starts one seat to the left
    helpers.roll(game, 1, "gray", "flag")
    assert game.lead_colour is GRAY
    assert game.observe(2).lead_colour is GRAY
    assert [a.die for a in game.legal_actions(2)] == [GRAY]
    with pytest.raises(IllegalAction) as err:
        game.apply(Roll(2, PURPLE))
    assert err.value.code == "must_follow" and err.value.params["colour"] == "gray"


def test_lead_colour_special_lead_then_number_sets_colour(helpers):
    game = helpers.external_game(3)
    helpers.play_hand_external(game, [["red"], ["red"], ["red"]], [0, 0, 0])
    game.apply(helpers.deal(["purple", "red"], ["griffin", "yellow"], ["yellow", "purple"]))
    helpers.bid_all(game, [0, 0, 0])
    helpers.roll(game, 1, "griffin", "griffin")
    assert game.lead_colour is None
    assert {a.die for a in game.legal_actions(2)} == {YELLOW, PURPLE}  # no colour yet: any die
    helpers.roll(game, 2, "purple", "3")
    assert game.lead_colour is PURPLE
    assert [a.die for a in game.legal_actions(0)] == [PURPLE]


def test_legal_dice_no_lead_any_die():
    assert legal_dice([RED, YELLOW, Die.GRIFFIN], None) == [Die.GRIFFIN, RED, YELLOW]


def test_legal_dice_follow_rule_holding_the_lead_colour():
    # must roll that colour or a special die
    assert legal_dice([RED, YELLOW, Die.GRIFFIN, RED], RED) == [Die.GRIFFIN, RED]
    assert legal_dice([RED, YELLOW], RED) == [RED]


def test_legal_dice_holding_none_of_the_lead_colour_any_die():
    assert legal_dice([YELLOW, PURPLE, Die.MERMAID], RED) == [Die.MERMAID, YELLOW, PURPLE]


def test_legal_dice_special_die_may_always_be_rolled():
    for special in (Die.MINOTAUR, Die.GRIFFIN, Die.MERMAID):
        for lead in (None, RED, YELLOW, PURPLE, GRAY):
            assert special in legal_dice([special, RED, YELLOW, PURPLE, GRAY], lead)
            assert not breaks_follow([special, RED, YELLOW, PURPLE, GRAY], lead, special)


def test_breaks_follow():
    assert breaks_follow([RED, YELLOW], RED, YELLOW)
    assert not breaks_follow([RED, YELLOW], RED, RED)
    assert not breaks_follow([YELLOW, PURPLE], RED, PURPLE)
    assert not breaks_follow([RED, YELLOW], None, YELLOW)


# --- who wins a trick ---------------------------------------------------------------------


def test_specials_cycle_table():
    assert BEATS == {MINO: GRIF, GRIF: MERM, MERM: MINO}


@pytest.mark.parametrize("rules", [Rules(all_specials=v) for v in ("mermaid", "minotaur", "griffin")])
@pytest.mark.parametrize(
    ("winner", "loser"), [(MINO, GRIF), (GRIF, MERM), (MERM, MINO)], ids=["minotaur>griffin",
                                                                        "griffin>mermaid",
                                                                        "mermaid>minotaur"]
)
def test_specials_cycle_each_pair(winner, loser, rules):
    # two kinds present: the one that beats the other wins, in either order, among numbers
    assert trick_winner([winner, loser], rules) == 0
    assert trick_winner([loser, winner], rules) == 1
    assert trick_winner([F.SEVEN, loser, FLAG, winner, F.SEVEN], rules) == 3
    assert winning_face([loser, winner, F.SEVEN], rules) is winner


@pytest.mark.parametrize(("option", "face"), [("mermaid", MERM), ("minotaur", MINO), ("griffin", GRIF)])
def test_decision_all_three_specials(option, face):
    rules = Rules(all_specials=option)
    for order in itertools.permutations([MINO, GRIF, MERM]):
        rolled = [*order, F.SEVEN]
        assert rolled[trick_winner(rolled, rules)] is face
    # the default (RULES.md decision) is the mermaid
    assert Rules().all_specials == "mermaid"


def test_all_three_specials_tie_goes_to_the_later_roll_of_the_winning_face():
    rolled = [MERM, MINO, MERM, GRIF]
    assert trick_winner(rolled, Rules()) == 2
    assert trick_winner([GRIF, MINO, GRIF, MERM], Rules(all_specials="griffin")) == 2


def test_special_beats_any_number():
    for special in (MINO, GRIF, MERM):
        assert trick_winner([F.SEVEN, special, F.SEVEN], STD) == 1


def test_highest_number_wins():
    assert trick_winner(faces("3", "7", "5", "1"), STD) == 1
    assert trick_winner(faces("2", "flag", "4"), STD) == 2


def test_flag_loses_to_any_number():
    assert trick_winner(faces("flag", "1"), STD) == 1
    assert trick_winner(faces("1", "flag", "flag"), STD) == 0
    assert trick_winner(faces("flag", "flag", "1", "flag"), Rules(all_flags="last")) == 2


def test_ties_go_to_the_later_roller_numbers():
    assert trick_winner(faces("5", "5", "3"), STD) == 1
    assert trick_winner(faces("7", "2", "7", "7"), STD) == 3


def test_ties_go_to_the_later_roller_specials():
    assert trick_winner([GRIF, F.SEVEN, GRIF], STD) == 2
    assert trick_winner([MINO, GRIF, GRIF], STD) == 0  # the minotaur beats both griffins
    assert trick_winner([MERM, MERM, F.ONE], STD) == 1
    assert trick_winner([MERM, MINO, MERM], STD) == 2


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_decision_all_flags_first(n):
    assert Rules().all_flags == "first"
    assert trick_winner([FLAG] * n, Rules(all_flags="first")) == 0


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_decision_all_flags_last(n):
    assert trick_winner([FLAG] * n, Rules(all_flags="last")) == n - 1


def test_special_die_showing_flag_is_just_zero(helpers):
    # the minotaur die shows a flag: it is a 0, loses to a 1 and sets no colour
    game = helpers.external_game(3)
    game.apply(helpers.deal(["minotaur"], ["purple"], ["gray"]))
    helpers.bid_all(game, [1, 0, 0])
    helpers.roll(game, 0, "minotaur", "flag")
    assert game.lead_colour is None
    helpers.roll(game, 1, "purple", "1")
    helpers.roll(game, 2, "gray", "flag")
    assert game.log[0].tricks[0].winner == 1
    assert game.log[0].scores == (-10, -10, 10)


def test_special_dice_all_showing_flags_is_an_all_flags_trick(helpers):
    for option, winner in (("first", 0), ("last", 2)):
        game = helpers.external_game(3, rules=Rules(all_flags=option))
        game.apply(helpers.deal(["minotaur"], ["griffin"], ["gray"]))
        helpers.bid_all(game, [0, 0, 0])
        helpers.roll(game, 0, "minotaur", "flag")
        helpers.roll(game, 1, "griffin", "flag")
        helpers.roll(game, 2, "gray", "flag")
        assert game.log[0].tricks[0].winner == winner


def test_explain_trick_words():
    assert explain_trick([F.SIX, GRIF, FLAG], STD) == "the griffin beats every number"
    assert explain_trick([MINO, GRIF], STD) == "the minotaur beats the griffin"
    assert "all three special faces" in explain_trick([MINO, GRIF, MERM], STD)
    assert explain_trick(faces("6", "6", "2"), STD) == "6 is the highest number; of the equal 6s the later roll wins"
    assert explain_trick([FLAG] * 3, STD) == "every face is a flag, and the first roller wins such a trick"
    assert "last roller" in explain_trick([FLAG] * 3, Rules(all_flags="last"))


# --- scoring ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("bid", "won", "dice", "points"), [
    (1, 1, 1, 20), (3, 3, 5, 60), (8, 8, 8, 160),
])
def test_score_bid_made(bid, won, dice, points):
    assert hand_score(bid, won, dice, 0, STD) == points


@pytest.mark.parametrize(("bid", "won", "dice", "points"), [
    (5, 1, 6, -40), (2, 3, 4, -10), (1, 0, 1, -10), (3, 7, 8, -40),
])
def test_score_bid_missed(bid, won, dice, points):
    assert hand_score(bid, won, dice, 0, STD) == points


@pytest.mark.parametrize("dice", range(1, 9))
def test_score_zero_bid_made_is_ten_per_die(dice):
    assert hand_score(0, 0, dice, 0, STD) == 10 * dice


@pytest.mark.parametrize("dice", range(1, 9))
def test_score_zero_bid_missed_is_flat(dice):
    for won in range(1, dice + 1):
        assert hand_score(0, won, dice, 0, STD) == -10 * dice


def test_rulebook_example_bid_3_made():
    assert hand_score(3, 3, 3, 0, STD) == 60
    assert hand_score(3, 3, 8, 0, STD) == 60


def test_rulebook_example_bid_5_won_1():
    assert hand_score(5, 1, 5, 0, STD) == -40


def test_rulebook_example_zero_bid_in_hand_4_made():
    assert hand_score(0, 0, 4, 0, STD) == 40


def test_rulebook_example_zero_bid_in_hand_6_with_2_tricks():
    assert hand_score(0, 2, 6, 0, STD) == -60


def test_bonus_only_when_bid_made_exactly():
    assert hand_score(2, 2, 4, 50, STD) == 90
    assert hand_score(2, 3, 4, 50, STD) == -10
    assert hand_score(2, 1, 4, 80, STD) == -10


def test_bonus_never_on_zero_bid():
    assert hand_score(0, 0, 4, 50, STD) == 40
    assert hand_score(0, 1, 4, 50, STD) == -40


def test_bonus_mermaid_capturing_minotaur_is_50():
    assert trick_bonus([MINO, MERM, F.SEVEN], 1) == 50
    assert trick_bonus([MERM, MINO], 0) == 50
    assert trick_bonus([MERM, F.SEVEN, FLAG], 0) == 0  # no minotaur rolled


def test_bonus_30_per_griffin_in_a_minotaur_won_trick():
    assert trick_bonus([GRIF, MINO, F.FIVE], 1) == 30
    assert trick_bonus([GRIF, MINO, GRIF, GRIF], 1) == 90
    assert trick_bonus([MINO, F.SEVEN], 0) == 0


def test_bonus_all_three_specials_follows_the_winner():
    rolled = [MINO, GRIF, MERM]
    assert trick_bonus(rolled, trick_winner(rolled, Rules(all_specials="mermaid"))) == 50
    assert trick_bonus(rolled, trick_winner(rolled, Rules(all_specials="minotaur"))) == 30
    assert trick_bonus(rolled, trick_winner(rolled, Rules(all_specials="griffin"))) == 0


def test_bonus_minotaur_showing_flag_earns_nothing():
    # the minotaur die rolled a flag: a 0, not a minotaur face; the mermaid earns no +50
    assert trick_bonus([FLAG, MERM, F.ONE], 1) == 0
    # griffin dice showing flags earn no +30 either
    assert trick_bonus([MINO, FLAG, FLAG], 0) == 0


def test_no_bonus_for_a_griffin_or_number_win():
    assert trick_bonus([GRIF, MERM], 0) == 0
    assert trick_bonus(faces("7", "5"), 0) == 0


def test_bonus_in_play_mermaid_with_minotaur(helpers):
    game = helpers.external_game(3)
    game.apply(helpers.deal(["minotaur"], ["mermaid"], ["red"]))
    helpers.bid_all(game, [1, 1, 0])
    helpers.roll(game, 0, "minotaur", "minotaur")
    helpers.roll(game, 1, "mermaid", "mermaid")
    helpers.roll(game, 2, "red", "7")
    won = game.events[-2]
    assert (won.kind, won.seat, won.bonus) == ("trick_won", 1, 50)  # type: ignore[attr-defined]
    assert game.log[0].scores == (-10, 70, 10)


def test_bonus_in_play_not_earned_when_bid_missed(helpers):
    game = helpers.external_game(3)
    helpers.play_hand_external(game, [["red"], ["red"], ["red"]], [0, 0, 0])
    game.apply(helpers.deal(["griffin", "yellow"], ["minotaur", "red"], ["griffin", "red"]))
    helpers.bid_all(game, [0, 1, 0])
    helpers.roll(game, 1, "minotaur", "minotaur")
    helpers.roll(game, 2, "griffin", "griffin")
    helpers.roll(game, 0, "griffin", "griffin")  # two griffins captured: +60 if the bid is made
    helpers.roll(game, 1, "red", "7")
    helpers.roll(game, 2, "red", "5")
    helpers.roll(game, 0, "yellow", "3")
    assert [t.winner for t in game.log[1].tricks] == [1, 1]
    assert game.log[1].bonus == [0, 60, 0]
    assert game.log[1].scores == (20, -10, 20)  # bid 1, won 2: the bonus is lost


def test_bonus_in_play_griffins_captured_by_minotaur(helpers):
    game = helpers.external_game(4)
    game.apply(helpers.deal(["griffin"], ["minotaur"], ["griffin"], ["griffin"]))
    helpers.bid_all(game, [0, 1, 0, 0])
    helpers.roll(game, 0, "griffin", "griffin")
    helpers.roll(game, 1, "minotaur", "minotaur")
    helpers.roll(game, 2, "griffin", "flag")  # a flag, not a griffin face: no +30
    helpers.roll(game, 3, "griffin", "griffin")
    assert game.log[0].bonus == [0, 60, 0, 0]
    assert game.log[0].scores == (10, 80, 10, 10)


def test_landlubber_scoring():
    assert hand_score(3, 3, 5, 0, LAND) == 60
    assert hand_score(3, 3, 5, 50, LAND) == 60  # no bonuses
    assert hand_score(3, 2, 5, 0, LAND) == 0  # wrong bid: 0
    assert hand_score(3, 5, 5, 0, LAND) == 0
    assert hand_score(0, 0, 4, 0, LAND) == 40  # zero bid made: +10 x n
    assert hand_score(0, 2, 6, 0, LAND) == -60  # missed zero bid: -10 x n
    assert hand_score(0, 1, 6, 0, LAND) == -60


def test_landlubber_in_play_ignores_bonus(helpers):
    game = helpers.external_game(3, rules=LAND)
    game.apply(helpers.deal(["minotaur"], ["mermaid"], ["red"]))
    helpers.bid_all(game, [0, 1, 1])
    helpers.roll(game, 0, "minotaur", "minotaur")
    helpers.roll(game, 1, "mermaid", "mermaid")
    helpers.roll(game, 2, "red", "7")
    assert game.log[0].scores == (10, 20, 0)


def test_places_with_ties():
    assert places([50, 20, 50, -10]) == [1, 3, 1, 4]
    assert places([0, 0, 0]) == [1, 1, 1]
    assert places([10, 20, 30]) == [3, 2, 1]
    assert places([30, 20, 20, 10]) == [1, 2, 2, 4]


# --- hands and start players ------------------------------------------------------------------


@pytest.mark.parametrize(("seats", "hands"), [(3, 8), (4, 8), (5, 7), (6, 6)])
def test_hands_per_seat_count(seats, hands, helpers):
    game = helpers.play_random(seats, seed=seats)
    assert game.hands == hands
    assert len(game.log) == hands and game.hand == hands


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_hand_n_has_n_dice_and_n_tricks(seats, helpers):
    game = helpers.play_random(seats, seed=10 + seats)
    for n, hand in enumerate(game.log, start=1):
        assert hand.number == n
        assert all(len(row) == n for row in hand.dice)
        assert len(hand.tricks) == n
        assert all(len(t.rolls) == seats for t in hand.tricks)


def test_bids_go_from_zero_to_n(helpers):
    game = helpers.play_random(4, seed=2, steps=0)
    for n in range(1, 9):
        assert game.hand == n
        assert [a.bid for a in game.legal_actions(0)] == list(range(n + 1))  # type: ignore[union-attr]
        while game.hand == n and not game.over:
            game.apply(game.legal_actions()[0])


def test_decision_start_player_hand_1_is_seat_0_unless_set(helpers):
    assert Game(4, seed=1).log[0].start == 0
    for first in range(5):
        game = Game(5, seed=1, first_start=first)
        assert game.log[0].start == first
        helpers.bid_all(game, [0] * 5)
        assert game.turn == first  # the start player leads the first trick
    with pytest.raises(ValueError):
        Game(4, first_start=4)


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_decision_start_player_rotate(seats, helpers):
    game = helpers.play_random(seats, seed=seats, first_start=seats - 2)
    starts = [h.start for h in game.log]
    assert starts == [(seats - 2 + k) % seats for k in range(game.hands)]
    for hand in game.log:
        assert hand.tricks[0].leader == hand.start


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_decision_start_player_last_winner(seats, helpers):
    game = helpers.play_random(seats, seed=seats, rules=Rules(hand_start="last_winner"), first_start=1)
    assert game.log[0].start == 1
    for prev, hand in itertools.pairwise(game.log):
        assert hand.start == prev.tricks[-1].winner
        assert hand.tricks[0].leader == hand.start


def test_winner_of_a_trick_leads_the_next(helpers):
    game = helpers.play_random(5, seed=9)
    for hand in game.log:
        for prev, trick in itertools.pairwise(hand.tricks):
            assert trick.leader == prev.winner
            assert trick.rolls[0][0] == prev.winner


def test_rolls_go_in_seat_order_from_the_leader(helpers):
    game = helpers.play_random(6, seed=4)
    for hand in game.log:
        for trick in hand.tricks:
            assert [s for s, _d, _f in trick.rolls] == [(trick.leader + i) % 6 for i in range(6)]


def test_bidding_is_simultaneous_any_order():
    game = Game(4, seed=3)
    for seat in (2, 0, 3):
        game.apply(Bid(seat, 1))
        assert game.phase is Phase.BID
    game.apply(Bid(1, 0))
    assert game.phase is Phase.ROLL


# --- doctests ------------------------------------------------------------------------------


@pytest.mark.parametrize("module", ["minodice", "minodice.dice", "minodice.rules", "minodice.game",
                                    "minodice.record", "minodice.errors", "minodice.events",
                                    "minodice.view"])
def test_doctests_of_core_modules(module):
    result = doctest.testmod(importlib.import_module(module), verbose=False)
    assert result.failed == 0


# --- rules as values: Reason, TrickState, turn order, bounds -----------------------------

from minodice import codes as C  # noqa: E402
from minodice.dice import NUMBER_DICE  # noqa: E402
from minodice.rules import (  # noqa: E402
    Reason,
    TrickState,
    bonus_reason,
    follow_foul,
    hand_score_bounds,
    hand_start_reason,
    lead_after,
    next_hand_start,
    roller,
    shown_void,
    trick_reason,
)


def test_trick_reason_codes_render_as_explain_trick():
    F = Face
    cases = [
        ([F.MINOTAUR, F.GRIFFIN, F.MERMAID], "three_specials"),
        ([F.MINOTAUR, F.GRIFFIN, F.SIX], "special_beats_special"),
        ([F.GRIFFIN, F.SIX, F.SEVEN], "special_beats_numbers"),
        ([F.FLAG, F.FLAG, F.FLAG], "only_flags"),
        ([F.SIX, F.SEVEN, F.SEVEN], "highest_number"),
    ]
    for faces, code in cases:
        reason = trick_reason(faces, Rules())
        assert reason.code == code
        assert reason.code in C.CODES
        assert reason.text() == explain_trick(faces, Rules())
    assert trick_reason([F.SEVEN, F.SEVEN], Rules()).params["tie"] is True
    assert trick_reason([F.FLAG, F.FLAG], Rules(all_flags="last")).params == {"which": "last"}


def test_trick_state_answers_every_rule_question_of_a_trick_in_progress():
    empty = TrickState.of([], Rules())
    assert (empty.lead, empty.leading, empty.reason, empty.bonus) == (None, None, None, 0)
    assert empty.legal([Die.RED, Die.GRAY]) == [Die.RED, Die.GRAY]
    t = empty.then(Die.MERMAID, Face.MERMAID).then(Die.YELLOW, Face.FIVE)
    assert t.lead is Die.YELLOW and t.leading == 0 and t.reason.code == "special_beats_numbers"
    assert t.legal([Die.YELLOW, Die.RED, Die.GRIFFIN]) == [Die.GRIFFIN, Die.YELLOW]
    refused = t.refusals([Die.YELLOW, Die.RED, Die.GRIFFIN])
    assert list(refused) == [Die.RED]
    assert refused[Die.RED] == Reason("must_follow", {"colour": Die.YELLOW, "die": Die.RED})
    assert t.foul([Die.RED], Die.RED) is None  # no yellow held: any die
    t = t.then(Die.MINOTAUR, Face.MINOTAUR)
    assert t.leading == 0 and t.bonus == 50 and t.bonus_why.code == "mermaid_took_minotaur"
    assert t.to_dict() == {
        "lead": "yellow",
        "leading": 0,
        "reason": {"code": "special_beats_special",
                   "params": {"face": "mermaid", "beaten": "minotaur", "tie": False}},
        "bonus": 50,
        "bonus_why": {"code": "mermaid_took_minotaur", "params": {"points": 50}},
    }


def test_bonus_reason_for_griffins_taken_by_the_minotaur():
    faces = [Face.GRIFFIN, Face.MINOTAUR, Face.GRIFFIN]
    reason = bonus_reason(faces, 1)
    assert reason == Reason("minotaur_took_griffins", {"points": 60, "griffins": 2})
    assert bonus_reason([Face.SIX, Face.SEVEN], 1) is None


def test_follow_helpers_agree_with_breaks_follow():
    for lead in (None, *NUMBER_DICE):
        for die in Die:
            for held in ([die], [die, Die.RED], [die, Die.GRAY, Die.GRIFFIN]):
                foul = follow_foul(held, lead, die)
                assert (foul is not None) == breaks_follow(held, lead, die)
            assert lead_after(lead, die) == (lead if lead is not None else (None if die.special else die))
            void = shown_void(lead, die)
            assert void == (lead if lead is not None and not die.special and die is not lead else None)


def test_turn_order_and_hand_start():
    assert [roller(2, k, 4) for k in range(4)] == [2, 3, 0, 1]
    assert next_hand_start(Rules(), 4, 3, 1) == 0
    assert next_hand_start(Rules(hand_start="last_winner"), 4, 3, 1) == 1


def test_hand_score_bounds_hold_for_every_bid_and_result():
    for seats in range(3, 7):
        for rules in (Rules(), Rules(scoring="landlubber")):
            for dice in range(1, 9):
                lo, hi = hand_score_bounds(dice, seats, rules)
                bonus = 0 if rules.landlubber else (90 if seats > 3 else 60)
                scores = [hand_score(b, w, dice, x, rules)
                          for b in range(dice + 1) for w in range(dice + 1) for x in (0, 50, bonus)]
                assert lo == min(scores) and max(scores) <= hi


def test_hand_start_reason_names_the_table_rule():
    assert hand_start_reason(Rules()).code == "start_rotates"
    assert hand_start_reason(Rules(hand_start="last_winner")).code == "start_last_winner"
    assert "left" in hand_start_reason(Rules()).text()
