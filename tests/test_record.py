"""The `minodice/1` record (spec/record.md): check, fill, summary, from_game, to_game, files."""

from __future__ import annotations

import copy
import json
import random
import re
from collections import Counter
from collections.abc import Callable

import pytest

from minodice import record
from minodice import rules as R
from minodice.dice import Die, Face
from minodice.errors import IllegalAction
from minodice.game import Bid, Deal, Game, Phase, SeededChance
from minodice.record import RecordError, check, fill, from_game, summary, to_game
from minodice.rules import Rules
from shared_files import CONFORMANCE

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo"]
SPECIAL = {"minotaur", "griffin", "mermaid"}


def who(rec: dict, s: int) -> str:
    return f"{rec['seats'][s]['name']} (seat {s})"


def game_record(seats: int = 4, seed: int = 1, rules: Rules | None = None, steps: int | None = None) -> dict:
    """The host record of a seeded random game (finished unless `steps` is given)."""
    game = Game(seats, seed=seed, rules=rules, names=NAMES[:seats])
    rng = random.Random(seed)
    done = 0
    while not game.over and (steps is None or done < steps):
        game.apply(rng.choice(game.legal_actions()))
        done += 1
    return from_game(game)


@pytest.fixture(scope="module")
def full() -> dict:
    rec = game_record(4, seed=3)
    assert check(rec) is None
    return rec


def strip(rec: dict) -> dict:
    """The record without derived fields (as typed in by hand)."""
    out = copy.deepcopy(rec)
    out.pop("totals", None)
    for hand in out["hands"]:
        hand.pop("scores", None)
        for trick in hand["tricks"]:
            trick.pop("winner", None)
    return out


def rolls_with_state(rec: dict):
    """Each roll with what the checker knows just before it:
    (hand k, trick t, roll index i, roll, dice the seat still holds, lead colour)."""
    for k, hand in enumerate(rec["hands"], start=1):
        remaining = [list(row) for row in hand["dice"]]
        for t, trick in enumerate(hand["tricks"], start=1):
            lead = None
            for i, r in enumerate(trick["rolls"]):
                yield k, t, i, r, list(remaining[r["seat"]]), lead
                remaining[r["seat"]].remove(r["die"])
                if lead is None and r["die"] not in SPECIAL:
                    lead = r["die"]


# --- one fault of each kind, built from a valid record --------------------------------------------
# Each injector changes a valid record at a random place and returns the fault message
# (a str for an exact match, or a compiled pattern), or None if the record has no such place.

Injector = Callable[[dict, random.Random], "str | re.Pattern | None"]


def bad_winner(rec, rng):
    k = rng.randrange(len(rec["hands"]))
    hand = rec["hands"][k]
    t = rng.randrange(len(hand["tricks"]))
    trick = hand["tricks"][t]
    true = trick["winner"]
    wrong = rng.choice([s for s in range(len(rec["seats"])) if s != true])
    trick["winner"] = wrong
    return re.compile(
        re.escape(f"hand {k + 1}, trick {t + 1}: the winner is {who(rec, true)} (") + r".+"
        + re.escape(f"), not {who(rec, wrong)}") + "$"
    )


def bad_score(rec, rng):
    k = rng.randrange(len(rec["hands"]))
    s = rng.randrange(len(rec["seats"]))
    scores = rec["hands"][k]["scores"]
    true = scores[s]
    scores[s] = true + 10
    return re.compile(re.escape(f"hand {k + 1}: {who(rec, s)} scores {true} (bid ") + r".*"
                      + re.escape(f"), not {true + 10}") + "$")


def bad_total(rec, rng):
    s = rng.randrange(len(rec["seats"]))
    true = rec["totals"][s]
    rec["totals"][s] = true - 10
    return f"totals: {who(rec, s)} has {true} in all, not {true - 10}"


def bad_face(rec, rng):
    k, t, _i, r, _held, _lead = rng.choice(list(rolls_with_state(rec)))
    die = Die(r["die"])
    r["face"] = rng.choice([f.value for f in Face if f not in die.faces])
    return (f'hand {k}, trick {t}: {who(rec, r["seat"])} rolled {die.value} showing "{r["face"]}", '
            f"which a {die.value} die does not have")


def bad_bid(rec, rng):
    k = rng.randrange(len(rec["hands"]))
    s = rng.randrange(len(rec["seats"]))
    bid = rng.choice([-1, k + 2, 9])
    rec["hands"][k]["bids"][s] = bid
    return f"hand {k + 1}: {who(rec, s)} bid {bid}, but bids in hand {k + 1} go from 0 to {k + 1}"


def bad_follow(rec, rng):
    places = [
        (k, t, r, held, lead)
        for k, t, _i, r, held, lead in rolls_with_state(rec)
        if lead is not None and lead in held and any(d not in SPECIAL and d != lead for d in held)
    ]
    if not places:
        return None
    k, t, r, held, lead = rng.choice(places)
    other = rng.choice([d for d in held if d not in SPECIAL and d != lead])
    r["die"], r["face"] = other, Die(other).faces[0].value
    return f"hand {k}, trick {t}: {who(rec, r['seat'])} rolled {other} but holds {lead}, the lead colour"


def bad_die_not_held(rec, rng):
    places = [(k, t, r, held) for k, t, _i, r, held, _lead in rolls_with_state(rec)
              if len(set(held)) < len(Die)]
    k, t, r, held = rng.choice(places)
    die = rng.choice([d.value for d in Die if d.value not in held])
    r["die"], r["face"] = die, Die(die).faces[-1].value
    return f"hand {k}, trick {t}: {who(rec, r['seat'])} rolled {die} but has no {die} die left in this hand"


def bad_order(rec, rng):
    n = len(rec["seats"])
    k = rng.randrange(len(rec["hands"]))
    t = rng.randrange(len(rec["hands"][k]["tricks"]))
    rolls = rec["hands"][k]["tricks"][t]["rolls"]
    i = rng.randrange(1, n - 1)
    expected = rolls[i]["seat"]
    rolls[i], rolls[i + 1] = rolls[i + 1], rolls[i]
    return (f"hand {k + 1}, trick {t + 1}: {who(rec, rolls[i]['seat'])} rolled out of turn: "
            f"{who(rec, expected)} was to roll")


def bad_twice(rec, rng):
    n = len(rec["seats"])
    k = rng.randrange(len(rec["hands"]))
    t = rng.randrange(len(rec["hands"][k]["tricks"]))
    rolls = rec["hands"][k]["tricks"][t]["rolls"]
    i = rng.randrange(1, n)
    again = rolls[rng.randrange(i)]["seat"]
    rolls[i]["seat"] = again
    return f"hand {k + 1}, trick {t + 1}: {who(rec, again)} rolled twice"


def bad_bag(rec, rng):
    k = rng.randrange(1, len(rec["hands"]))  # hand 2 on: two seats
    hand = rec["hands"][k]
    seats = rng.sample(range(len(rec["seats"])), 2)
    for s in seats:
        hand["dice"][s][0] = "minotaur"
    count = Counter(d for row in hand["dice"] for d in row)["minotaur"]
    return f"hand {k + 1}: {count} minotaur dice were drawn, but the bag holds only 1"


def bad_start(rec, rng):
    n = len(rec["seats"])
    k = rng.randrange(1, len(rec["hands"]))
    hand = rec["hands"][k]
    expected = hand["start"]
    hand["start"] = (expected + rng.randrange(1, n)) % n
    if rec["rules"]["hand_start"] == "rotate":
        rule = "the start player moves one seat to the left each hand"
    else:
        rule = "the winner of the last trick of the previous hand starts (hand_start last_winner)"
    return f"hand {k + 1}: started by {who(rec, hand['start'])}, but {who(rec, expected)} should: {rule}"


def bad_hand_size(rec, rng):
    k = rng.randrange(len(rec["hands"]))
    s = rng.randrange(len(rec["seats"]))
    row = rec["hands"][k]["dice"][s]
    if rng.random() < 0.5:
        row.pop()
    else:
        row.append("gray")
    return f"hand {k + 1}: {who(rec, s)} has {len(row)} dice, but every seat draws {k + 1} in hand {k + 1}"


def bad_rule_value(rec, rng):
    key = rng.choice(["scoring", "all_specials", "all_flags", "hand_start"])
    rec["rules"][key] = "casual"
    return re.compile(re.escape(f"rules: rule {key} cannot be 'casual': choose one of "))


def bad_seat_count(rec, rng):
    if rng.random() < 0.5:
        del rec["seats"][2:]
    else:
        rec["seats"] += [{"name": f"X{i}"} for i in range(7 - len(rec["seats"]))]
    return f"seats: the record has {len(rec['seats'])} seats; Mino Dice is played by 3 to 6"


def bad_leader(rec, rng):
    k = rng.randrange(len(rec["hands"]))
    t = rng.randrange(len(rec["hands"][k]["tricks"]))
    rolls = rec["hands"][k]["tricks"][t]["rolls"]
    leader = rolls[0]["seat"]
    shift = rng.randrange(1, len(rolls))
    rolls[:] = rolls[shift:] + rolls[:shift]
    if t == 0:
        why = f"{who(rec, leader)} starts the hand and leads the first trick"
    else:
        why = f"{who(rec, leader)} won trick {t} and leads this one"
    return f"hand {k + 1}, trick {t + 1}: led by {who(rec, rolls[0]['seat'])}, but {why}"


def bad_tricks_before_bids(rec, rng):
    k = len(rec["hands"]) - 1
    s = rng.randrange(len(rec["seats"]))
    rec["hands"][k]["bids"][s] = None
    return f"hand {k + 1}: tricks were played before all bids were in ({who(rec, s)} has not bid)"


INJECTORS: dict[str, Injector] = {
    "bad_winner": bad_winner,
    "bad_score": bad_score,
    "bad_total": bad_total,
    "bad_face": bad_face,
    "bad_bid": bad_bid,
    "bad_follow": bad_follow,
    "bad_die_not_held": bad_die_not_held,
    "bad_order": bad_order,
    "bad_twice": bad_twice,
    "bad_bag": bad_bag,
    "bad_start": bad_start,
    "bad_hand_size": bad_hand_size,
    "bad_rule_value": bad_rule_value,
    "bad_seat_count": bad_seat_count,
    "bad_leader": bad_leader,
    "bad_tricks_before_bids": bad_tricks_before_bids,
}

#: How the checker words each kind of fault (used for the conformance files).
KIND_PATTERNS = {
    "bad_winner": r"^hand \d+, trick \d+: the winner is .+ \(seat \d\) \(.+\), not ",
    "bad_score": r"^hand \d+: .+ \(seat \d\) scores -?\d+ \(bid \d+, won \d+.*\), not ",
    "bad_total": r"^totals: .+ \(seat \d\) has -?\d+ in all, not ",
    "bad_face": r"^hand \d+, trick \d+: .+ \(seat \d\) rolled \w+ showing .+, which a \w+ die does not have$",
    "bad_bid": r"^hand \d+: .+ \(seat \d\) bid .+, but bids in hand \d+ go from 0 to \d+$",
    "bad_follow": r"^hand \d+, trick \d+: .+ \(seat \d\) rolled \w+ but holds \w+, the lead colour$",
    "bad_die_not_held": r"^hand \d+, trick \d+: .+ \(seat \d\) rolled (\w+) but has no \1 die left in this hand$",
    "bad_order": r"^hand \d+, trick \d+: .+ \(seat \d\) rolled out of turn: .+ \(seat \d\) was to roll$",
    "bad_twice": r"^hand \d+, trick \d+: .+ \(seat \d\) rolled twice$",
    "bad_bag": r"^hand \d+: \d+ \w+ dice were drawn, but the bag holds only \d+$",
    "bad_start": r"^hand \d+: started by .+ \(seat \d\), but .+ \(seat \d\) should: ",
    "bad_hand_size": r"^hand \d+: .+ \(seat \d\) has \d+ dice, but every seat draws \d+ in hand \d+$",
    "bad_rule_value": r"^rules: rule \w+ cannot be ",
    "bad_seat_count": r"^seats: the record has \d+ seats; Mino Dice is played by 3 to 6$",
    "bad_leader": r"^hand \d+, trick \d+: led by .+ \(seat \d\), but .+ \(seat \d\) (won trick \d+ and leads this one|starts the hand and leads the first trick)$",
    "bad_tricks_before_bids": r"^hand \d+: tricks were played before all bids were in \(.+ \(seat \d\) has not bid\)$",
}


def assert_fault(rec: dict, expected) -> None:
    fault = check(rec)
    assert fault is not None, "the checker accepted a faulty record"
    if isinstance(expected, re.Pattern):
        assert expected.search(fault), fault
    else:
        assert fault == expected


@pytest.mark.parametrize("kind", list(INJECTORS))
def test_check_rejects_each_kind_of_fault(kind, full):
    rec = copy.deepcopy(full)
    expected = INJECTORS[kind](rec, random.Random(kind))
    assert expected is not None
    assert_fault(rec, expected)
    assert re.search(KIND_PATTERNS[kind], check(rec))  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", list(INJECTORS))
def test_check_rejects_fresh_faults_of_each_kind(kind, all_rules):
    """Like the unpublished conformance set: fresh random records, one fault each."""
    done = 0
    for seed in range(24):
        seats = 3 + seed % 4
        base = game_record(seats, seed=1000 + seed, rules=all_rules[seed])
        if kind == "bad_tricks_before_bids":  # needs a last hand with tricks: stop mid-hand
            base = game_record(seats, seed=1000 + seed, rules=all_rules[seed], steps=40 + seed)
            if not base["hands"][-1]["tricks"]:
                continue
        rec = copy.deepcopy(base)
        expected = INJECTORS[kind](rec, random.Random(seed))
        if expected is None:
            continue
        assert_fault(rec, expected)
        assert re.search(KIND_PATTERNS[kind], check(rec))  # type: ignore[arg-type]
        stripped = strip(rec) if kind not in ("bad_winner", "bad_score", "bad_total") else None
        if stripped is not None:  # the same fault without derived fields
            assert_fault(stripped, expected)
        done += 1
    assert done >= 12


def test_spec_example_message():
    # spec/record.md: "hand 3, trick 2: Bo (seat 1) rolled yellow but holds red, the lead colour"
    from minodice.game import EXTERNAL, Land, Roll

    game = Game(3, names=["Ana", "Bo", "Cy"], chance=EXTERNAL)
    for rows in ([["red"], ["red"], ["red"]], [["red"] * 2, ["red"] * 2, ["red"] * 2]):
        game.apply(Deal(tuple(tuple(Die(d) for d in r) for r in rows)))
        for s in range(3):
            game.apply(Bid(s, 0))
        while game.phase is Phase.ROLL:
            action = game.legal_actions()[0]
            game.apply(action)
            game.apply(Land(action.die.faces[0]))
    game.apply(Deal(((Die.PURPLE,) * 3, (Die.RED, Die.RED, Die.YELLOW), (Die.RED,) * 3)))
    for s in range(3):
        game.apply(Bid(s, 1))
    for seat, die, face in [(2, "red", "7"), (0, "purple", "1"), (1, "red", "5"),
                            (2, "red", "6"), (0, "purple", "1"), (1, "red", "5")]:
        game.apply(Roll(seat, Die(die)))
        game.apply(Land(Face(face)))
    rec = from_game(game)
    assert check(rec) is None
    roll = rec["hands"][2]["tricks"][1]["rolls"][2]
    assert roll == {"seat": 1, "die": "red", "face": "5"}
    roll["die"], roll["face"] = "yellow", "3"
    assert check(rec) == "hand 3, trick 2: Bo (seat 1) rolled yellow but holds red, the lead colour"


def test_bad_start_under_both_rules():
    for option, rule in (("rotate", "the start player moves one seat to the left each hand"),
                         ("last_winner", "the winner of the last trick of the previous hand starts")):
        rec = game_record(4, seed=5, rules=Rules(hand_start=option))
        prev = rec["hands"][2]
        expected = (prev["start"] + 1) % 4 if option == "rotate" else prev["tricks"][-1]["winner"]
        assert rec["hands"][3]["start"] == expected
        rec["hands"][3]["start"] = (expected + 2) % 4
        fault = check(rec)
        assert fault is not None and fault.startswith(
            f"hand 4: started by {who(rec, (expected + 2) % 4)}, but {who(rec, expected)} should: {rule}")


def test_too_many_hands(full):
    rec = copy.deepcopy(full)
    rec["hands"].append(copy.deepcopy(rec["hands"][-1]))
    assert check(rec) == "hands: a game of 4 players has 8 hands, not 9"


def test_unfinished_hand_that_is_not_last(full):
    rec = strip(full)
    del rec["hands"][4]["tricks"][-1]
    assert check(rec) == "hand 5: only 4 of 5 tricks were played, and only the last hand may be unfinished"
    rec = strip(full)
    rec["hands"][2]["bids"][1] = None
    rec["hands"][2]["tricks"] = []
    assert check(rec) == "hand 3: Bo (seat 1) has no bid, and only the last hand may be unfinished"


def test_unfinished_trick_that_is_not_last(full):
    rec = strip(full)
    del rec["hands"][3]["tricks"][1]["rolls"][-1]
    assert check(rec) == ("hand 4, trick 2: only 3 of 4 seats rolled, "
                          "and only the last trick of the game may be unfinished")
    rec = strip(full)  # the last trick of an earlier hand is not the last trick of the game
    del rec["hands"][3]["tricks"][-1]["rolls"][-1]
    assert check(rec) == ("hand 4, trick 4: only 3 of 4 seats rolled, "
                          "and only the last trick of the game may be unfinished")


def test_unknown_die_name(full):
    rec = copy.deepcopy(full)
    rec["hands"][1]["dice"][2][0] = "blue"
    assert check(rec) == 'hand 2: Cy (seat 2) has an unknown die "blue"'
    rec = copy.deepcopy(full)
    rec["hands"][1]["tricks"][0]["rolls"][1]["die"] = "Red"
    seat = rec["hands"][1]["tricks"][0]["rolls"][1]["seat"]
    assert check(rec) == f'hand 2, trick 1: {who(rec, seat)} rolled an unknown die "Red"'


def test_unknown_face_name(full):
    rec = copy.deepcopy(full)
    r = rec["hands"][1]["tricks"][0]["rolls"][0]
    r["face"] = "skull"
    assert check(rec) == f'hand 2, trick 1: {who(rec, r["seat"])} rolled {r["die"]} showing "skull", which a {r["die"]} die does not have'


def test_nulls_outside_the_last_hand(full):
    rec = copy.deepcopy(full)
    rec["hands"][0]["dice"][1][0] = None
    assert check(rec) == "hand 1: Bo (seat 1) has an unknown die null"
    rec = copy.deepcopy(full)
    rec["hands"][0]["bids"][1] = None
    assert check(rec) == "hand 1: Bo (seat 1) has no bid, and only the last hand may be unfinished"


def test_nulls_in_the_last_hand_are_unseen_dice():
    game = Game(4, seed=8, names=NAMES[:4])
    rng = random.Random(8)
    for _ in range(30):
        game.apply(rng.choice(game.legal_actions()))
    assert game.phase is Phase.ROLL
    rec = from_game(game, seat=1)
    last = rec["hands"][-1]
    assert any(d is None for row in last["dice"] for d in row)
    assert check(rec) is None


def test_winner_on_an_unfinished_trick():
    rec = game_record(4, seed=2, steps=30)
    last = rec["hands"][-1]["tricks"][-1]
    assert len(last["rolls"]) < 4
    last["winner"] = last["rolls"][0]["seat"]
    assert check(rec) == f"hand {len(rec['hands'])}, trick {len(rec['hands'][-1]['tricks'])}: an unfinished trick has no winner yet"
    last["winner"] = None  # null is no winner
    assert check(rec) is None


def test_scores_on_an_unfinished_hand():
    rec = game_record(4, seed=2, steps=30)
    rec["hands"][-1]["scores"] = [0, 0, 0, 0]
    assert check(rec) == f"hand {len(rec['hands'])}: an unfinished hand has no scores yet"


def test_tricks_before_bids():
    rec = game_record(3, seed=2, steps=12)
    last = rec["hands"][-1]
    assert last["tricks"]
    last["bids"][2] = None
    assert check(rec) == f"hand {len(rec['hands'])}: tricks were played before all bids were in (Cy (seat 2) has not bid)"
    del last["bids"]
    assert check(rec) == f"hand {len(rec['hands'])}: tricks were played before all bids were in (Ana (seat 0) has not bid)"


def test_bad_rule_value_and_rules_shape(full):
    rec = copy.deepcopy(full)
    rec["rules"]["all_flags"] = "middle"
    assert check(rec) == "rules: rule all_flags cannot be 'middle': choose one of first, last"
    rec["rules"] = "standard"
    assert check(rec) == "rules: rules must be an object of rule options"
    rec = copy.deepcopy(full)
    rec["rules"]["house"] = "anything"  # an implementation may add keys
    assert check(rec) is None
    del rec["rules"]  # every rule key is optional
    assert check(rec) is None


@pytest.mark.parametrize("count", [0, 1, 2, 7, 8])
def test_bad_seat_count(count, full):
    rec = copy.deepcopy(full)
    rec["seats"] = [{"name": f"S{i}"} for i in range(count)]
    assert check(rec) == f"seats: the record has {count} seats; Mino Dice is played by 3 to 6"


def test_seats_need_names(full):
    rec = copy.deepcopy(full)
    rec["seats"][1] = {"bot": "greedy"}
    assert check(rec) == "seats: seat 1 needs a name"
    rec["seats"][1] = {"name": "Bo", "bot": "greedy"}  # other keys are free
    assert check(rec) is None


def test_format_must_be_minodice_1(full):
    rec = copy.deepcopy(full)
    rec["format"] = "minodice/2"
    assert check(rec) == '"format" must be "minodice/1"'
    del rec["format"]
    assert check(rec) == '"format" must be "minodice/1"'


def test_seat_indices_in_range(full):
    rec = copy.deepcopy(full)
    rec["hands"][0]["start"] = 4
    assert check(rec) == 'hand 1: "start" must be a seat from 0 to 3'
    rec = copy.deepcopy(full)
    rec["hands"][1]["tricks"][0]["rolls"][2]["seat"] = 9
    assert check(rec) == "hand 2, trick 1: roll 3 names no seat from 0 to 3"
    rec = copy.deepcopy(full)
    rec["hands"][1]["tricks"][0]["winner"] = 9
    assert check(rec).startswith("hand 2, trick 1: the winner is")  # type: ignore[union-attr]


def test_too_many_tricks_and_rolls(full):
    rec = strip(full)
    rec["hands"][1]["tricks"].append(copy.deepcopy(rec["hands"][1]["tricks"][0]))
    assert check(rec) == "hand 2: 3 tricks were played, but hand 2 has 2"
    rec = strip(full)
    rolls = rec["hands"][1]["tricks"][0]["rolls"]
    rolls.append(dict(rolls[0]))
    assert check(rec) == "hand 2, trick 1: 5 rolls, but each of the 4 seats rolls once"


def test_malformed_shapes_are_faults_not_crashes(full):
    mutations = [
        lambda r: r.__setitem__("seats", "Ana, Bo"),
        lambda r: r.__setitem__("hands", {}),
        lambda r: r["hands"].__setitem__(0, []),
        lambda r: r["hands"][0].__setitem__("dice", None),
        lambda r: r["hands"][0]["dice"].__setitem__(0, "red"),
        lambda r: r["hands"][0].__setitem__("bids", [0]),
        lambda r: r["hands"][0].__setitem__("bids", None),
        lambda r: r["hands"][0]["bids"].__setitem__(0, 0.0),
        lambda r: r["hands"][0]["bids"].__setitem__(0, True),
        lambda r: r["hands"][0].__setitem__("tricks", "x"),
        lambda r: r["hands"][0]["tricks"].__setitem__(0, []),
        lambda r: r["hands"][0]["tricks"][0].__setitem__("rolls", []),
        lambda r: r["hands"][0]["tricks"][0]["rolls"].__setitem__(0, 7),
        lambda r: r["hands"][0]["tricks"][0]["rolls"][0].__setitem__("seat", True),
        lambda r: r["hands"][0]["tricks"][0]["rolls"][0].__setitem__("die", ["red"]),
        lambda r: r["hands"][0]["tricks"][0]["rolls"][0].__setitem__("face", {"x": 1}),
        lambda r: r["hands"][0].__setitem__("scores", "many"),
        lambda r: r.__setitem__("totals", [0]),
    ]
    for mutate in mutations:
        rec = copy.deepcopy(full)
        mutate(rec)
        fault = check(rec)
        assert isinstance(fault, str) and fault


def test_check_reports_the_first_fault_in_playing_order(full):
    rec = copy.deepcopy(full)
    rec["totals"][0] += 10
    rec["hands"][5]["scores"][1] += 10
    rec["hands"][2]["bids"][0] = 9
    assert check(rec).startswith("hand 3: Ana (seat 0) bid 9")  # type: ignore[union-attr]


# --- the engine replays the record: its refusals in words ----------------------------------------


@pytest.fixture
def refusals(monkeypatch) -> list[str]:
    """The codes of the actions the engine refuses while the test runs (`Game.apply` spied on)."""
    codes: list[str] = []
    apply = Game.apply

    def spy(self, action):
        try:
            apply(self, action)
        except IllegalAction as err:
            codes.append(err.code)
            raise

    monkeypatch.setattr(Game, "apply", spy)
    return codes


def bad_unknown_die(rec, rng):
    k, t, _i, r, _held, _lead = rng.choice(list(rolls_with_state(rec)))
    r["die"] = "blue"
    return f'hand {k}, trick {t}: {who(rec, r["seat"])} rolled an unknown die "blue"'


def bad_dealt_name(rec, rng):
    k = rng.randrange(len(rec["hands"]))
    s = rng.randrange(len(rec["seats"]))
    rec["hands"][k]["dice"][s][-1] = "Gray"
    return f'hand {k + 1}: {who(rec, s)} has an unknown die "Gray"'


def bad_dealt_row(rec, rng):
    k = rng.randrange(len(rec["hands"]))
    s = rng.randrange(len(rec["seats"]))
    rec["hands"][k]["dice"][s] = "red"
    return f"hand {k + 1}: the dice of {who(rec, s)} must be a list"


#: Every engine refusal a record can bring about: the code, and injectors that bring it about.
#: (The engine's other codes cannot come from a record: a record has one bid per seat and hand
#: (`already_bid`), its seat indices are checked as JSON (`unknown_seat`), and tricks before all
#: bids, tricks beyond a hand's size and hands beyond a game's length are named before the
#: engine is asked (`wrong_phase`, `game_over`).)
REFUSALS: dict[str, list[Injector]] = {
    "not_your_turn": [bad_order, bad_twice, bad_leader],
    "unknown_die": [bad_unknown_die],
    "die_not_held": [bad_die_not_held],
    "must_follow": [bad_follow],
    "bad_face": [bad_face],
    "bid_out_of_range": [bad_bid],
    "bad_deal": [bad_hand_size, bad_bag, bad_dealt_name, bad_dealt_row],
}
ROLL_CODES = {"not_your_turn", "unknown_die", "die_not_held", "must_follow", "bad_face"}


@pytest.mark.parametrize(("code", "inject"), [(c, f) for c, fs in REFUSALS.items() for f in fs],
                         ids=[f"{c}-{f.__name__}" for c, fs in REFUSALS.items() for f in fs])
def test_each_engine_refusal_is_worded_with_hand_trick_and_seat(code, inject, full, refusals):
    rec = copy.deepcopy(full)
    expected = inject(rec, random.Random(code))
    assert_fault(rec, expected)
    fault = check(rec)
    assert refusals[-1] == code  # the engine refused it, not the checker
    names = "|".join(re.escape(s["name"]) for s in rec["seats"])
    if code in ROLL_CODES:  # a roll: hand, trick, and the seat that rolled
        assert re.match(rf"hand \d+, trick \d+: (led by )?({names}) \(seat \d\)[ ,]", fault), fault
    elif code != "bad_deal" or inject is not bad_bag:  # a bid or a seat's dice: hand and seat
        assert re.match(rf"hand \d+: (the dice of )?({names}) \(seat \d\)[ ,]", fault), fault


@pytest.mark.parametrize("refused", ["Deal", "Bid", "Roll", "Land"])
def test_a_refusal_the_checker_has_no_words_for_is_still_placed(refused, monkeypatch):
    """A code the engine may add later still comes out with where it happened, in the engine's words."""
    rec = copy.deepcopy(HAND_TYPED_2)
    apply = Game.apply

    def refuse(self, action):
        if type(action).__name__ == refused:
            raise IllegalAction("new_rule", "that is not allowed any more")
        apply(self, action)

    monkeypatch.setattr(Game, "apply", refuse)
    assert check(rec) == {
        "Deal": "hand 1: that is not allowed any more",
        "Bid": "hand 1: Ana (seat 0): that is not allowed any more",
        "Roll": "hand 1, trick 1: Ana (seat 0): that is not allowed any more",
        "Land": "hand 1, trick 1: Ana (seat 0): that is not allowed any more",
    }[refused]


#: Ana, Bo and Cy; hand 1: Bo's griffin takes the trick; hand 2: Bo leads yellow, Cy's 7 wins,
#: then Cy leads with the mermaid.
HAND_TYPED_2 = {
    "format": "minodice/1",
    "seats": [{"name": "Ana"}, {"name": "Bo"}, {"name": "Cy"}],
    "hands": [
        {"start": 0, "dice": [["red"], ["griffin"], ["gray"]], "bids": [0, 1, 0],
         "tricks": [{"rolls": [{"seat": 0, "die": "red", "face": "6"},
                               {"seat": 1, "die": "griffin", "face": "griffin"},
                               {"seat": 2, "die": "gray", "face": "flag"}], "winner": 1}],
         "scores": [10, 20, 10]},
        {"start": 1, "dice": [["yellow", "red"], ["yellow", "purple"], ["gray", "mermaid"]],
         "bids": [0, 0, 1],
         "tricks": [{"rolls": [{"seat": 1, "die": "yellow", "face": "3"},
                               {"seat": 2, "die": "gray", "face": "7"},
                               {"seat": 0, "die": "yellow", "face": "4"}], "winner": 2},
                    {"rolls": [{"seat": 2, "die": "mermaid", "face": "mermaid"}]}]},
    ],
    "totals": [10, 20, 10],
}


def test_stated_winner_score_and_total_are_compared_with_the_engine():
    rec = copy.deepcopy(HAND_TYPED_2)
    assert check(rec) is None
    rec["hands"][0]["tricks"][0]["winner"] = 0
    why = R.explain_trick([Face.SIX, Face.GRIFFIN, Face.FLAG], Rules())
    assert why == "the griffin beats every number"
    assert check(rec) == f"hand 1, trick 1: the winner is Bo (seat 1) ({why}), not Ana (seat 0)"
    rec = copy.deepcopy(HAND_TYPED_2)
    rec["hands"][1]["tricks"][0]["winner"] = 1
    assert check(rec) == "hand 2, trick 1: the winner is Cy (seat 2) (7 is the highest number), not Bo (seat 1)"
    rec = copy.deepcopy(HAND_TYPED_2)
    rec["hands"][0]["scores"] = [10, -10, 10]
    assert check(rec) == "hand 1: Bo (seat 1) scores 20 (bid 1, won 1), not -10"
    rec = copy.deepcopy(HAND_TYPED_2)
    rec["totals"] = [10, 20, 0]
    assert check(rec) == "totals: Cy (seat 2) has 10 in all, not 0"


def test_stated_winners_and_scores_of_whole_games(full):
    """Every stated winner and score of a long game, each made wrong in turn, is caught where it is."""
    for k, hand in enumerate(full["hands"], start=1):
        for t, trick in enumerate(hand["tricks"], start=1):
            rec = copy.deepcopy(full)
            true = trick["winner"]
            rec["hands"][k - 1]["tricks"][t - 1]["winner"] = (true + 1) % 4
            faces = [Face(r["face"]) for r in trick["rolls"]]
            assert check(rec) == (f"hand {k}, trick {t}: the winner is {who(rec, true)} "
                                  f"({R.explain_trick(faces, Rules())}), not {who(rec, (true + 1) % 4)}")
        rec = copy.deepcopy(full)
        rec["hands"][k - 1]["scores"][2] += 1
        assert check(rec).startswith(f"hand {k}: Cy (seat 2) scores {hand['scores'][2]} (bid ")  # type: ignore[union-attr]


def seat_record() -> dict:
    """HAND_TYPED_2 as Ana (seat 0) sees it: Bo's and Cy's dice not yet rolled are hidden."""
    rec = copy.deepcopy(HAND_TYPED_2)
    rec["hands"][1]["dice"][1] = ["yellow", None]
    rec["hands"][1]["dice"][2] = ["gray", "mermaid"]
    return rec


def roll_of(rec: dict, t: int, i: int) -> dict:
    return rec["hands"][1]["tricks"][t - 1]["rolls"][i]


@pytest.mark.parametrize(("change", "fault"), [
    (lambda r: roll_of(r, 1, 2).update(die="red", face="5"),
     "hand 2, trick 1: Ana (seat 0) rolled red but holds yellow, the lead colour"),
    (lambda r: roll_of(r, 1, 0).update(die="purple", face="2"),  # Bo's purple is hidden: not shown
     "hand 2, trick 1: Bo (seat 1) rolled purple but has no purple die left in this hand"),
    (lambda r: roll_of(r, 1, 1).update(face="5"),
     'hand 2, trick 1: Cy (seat 2) rolled gray showing "5", which a gray die does not have'),
    (lambda r: roll_of(r, 1, 1).update(die="green"),
     'hand 2, trick 1: Cy (seat 2) rolled an unknown die "green"'),
    (lambda r: r["hands"][1]["tricks"][1]["rolls"].insert(0, {"seat": 0, "die": "red", "face": "5"}),
     "hand 2, trick 2: led by Ana (seat 0), but Cy (seat 2) won trick 1 and leads this one"),
    (lambda r: r["hands"][1]["tricks"][0]["rolls"].reverse(),
     "hand 2, trick 1: led by Ana (seat 0), but Bo (seat 1) starts the hand and leads the first trick"),
    (lambda r: r["hands"][1]["tricks"][1]["rolls"].append({"seat": 1, "die": "yellow", "face": "3"}),
     "hand 2, trick 2: Bo (seat 1) rolled out of turn: Ana (seat 0) was to roll"),
    (lambda r: r["hands"][1]["tricks"][0].update(winner=1),
     "hand 2, trick 1: the winner is Cy (seat 2) (7 is the highest number), not Bo (seat 1)"),
    (lambda r: r["hands"][1]["tricks"][1].update(winner=2),
     "hand 2, trick 2: an unfinished trick has no winner yet"),
    (lambda r: r["hands"][1].update(scores=[0, 0, 0]), "hand 2: an unfinished hand has no scores yet"),
    (lambda r: r["hands"][1]["bids"].__setitem__(1, 3),
     "hand 2: Bo (seat 1) bid 3, but bids in hand 2 go from 0 to 2"),
    (lambda r: r["hands"][1]["dice"][1].append(None),
     "hand 2: Bo (seat 1) has 3 dice, but every seat draws 2 in hand 2"),
    (lambda r: r["hands"][1]["dice"][2].__setitem__(0, "minotaur") or r["hands"][1]["dice"][0].__setitem__(
        1, "minotaur"), "hand 2: 2 minotaur dice were drawn, but the bag holds only 1"),
    (lambda r: r["hands"][1].update(start=2),
     "hand 2: started by Cy (seat 2), but Bo (seat 1) should: "
     "the start player moves one seat to the left each hand"),
    (lambda r: r["hands"][0]["dice"][1].__setitem__(0, None),  # only the last hand may hide dice
     "hand 1: Bo (seat 1) has an unknown die null"),
])
def test_a_seat_record_with_hidden_dice_is_still_checked(change, fault, refusals):
    rec = seat_record()
    assert check(rec) is None
    change(rec)
    assert check(rec) == fault
    if "trick" in fault:  # hand 2's tricks are walked without the engine, which cannot know Bo's dice
        assert refusals == []
    with pytest.raises(ValueError, match=re.escape(fault)):
        fill(rec)


def test_a_seat_record_with_hidden_dice_is_filled_but_not_resumed():
    rec = seat_record()
    for trick in rec["hands"][1]["tricks"]:
        trick.pop("winner", None)
    filled = fill(rec)
    assert [t.get("winner") for t in filled["hands"][1]["tricks"]] == [2, None]
    assert "scores" not in filled["hands"][1] and filled["totals"] == [10, 20, 10]
    assert [row.won for row in summary(rec)] == [[0, 1, 0], [0, 0, 1]]
    with pytest.raises(ValueError, match=r"^hand 2: some dice are hidden \(null\)"):
        to_game(rec)
    assert to_game(HAND_TYPED_2).current.tricks[-1].rolls[-1][1] is Die.MERMAID  # type: ignore[union-attr]


def test_seat_records_of_random_games_are_checked_with_their_faults():
    """Seat records cut mid-hand (hidden dice): valid as written, and one fault each is found."""
    checked = 0
    for seed in range(40):
        seats = 3 + seed % 4
        rng = random.Random(seed)
        game = Game(seats, seed=seed, names=NAMES[:seats])
        for _ in range(rng.randint(20, 120)):
            if game.over:
                break
            game.apply(rng.choice(game.legal_actions()))
        rec = from_game(game, seat=seed % seats)
        last = rec["hands"][-1]
        if not any(d is None for row in last["dice"] for d in row) or not last["tricks"]:
            continue
        assert check(rec) is None
        trick = last["tricks"][0]
        bad = copy.deepcopy(rec)
        bad["hands"][-1]["tricks"][0]["rolls"][0]["face"] = "skull"
        seat = trick["rolls"][0]["seat"]
        assert check(bad) == (f"hand {len(rec['hands'])}, trick 1: {who(rec, seat)} rolled "
                              f'{trick["rolls"][0]["die"]} showing "skull", which a {trick["rolls"][0]["die"]} '
                              "die does not have")
        if len(trick["rolls"]) == seats:
            bad = copy.deepcopy(rec)
            bad["hands"][-1]["tricks"][0]["winner"] = (trick["winner"] + 1) % seats
            assert check(bad).startswith(  # type: ignore[union-attr]
                f"hand {len(rec['hands'])}, trick 1: the winner is {who(rec, trick['winner'])} (")
        checked += 1
    assert checked >= 10


# --- conformance files --------------------------------------------------------------------------


VALID = sorted((CONFORMANCE / "valid").glob("*.json"))
INVALID = sorted((CONFORMANCE / "invalid").glob("*.json"))


@pytest.mark.parametrize("path", VALID, ids=[p.name for p in VALID])
def test_conformance_valid(path):
    rec = record.load(path)
    assert check(rec) is None
    filled = fill(rec)
    assert check(filled) is None
    assert fill(strip(rec)) == filled


@pytest.mark.parametrize("path", INVALID, ids=[p.name for p in INVALID])
def test_conformance_invalid(path):
    rec = record.load(path)
    fault = check(rec)
    assert fault is not None
    kind = re.sub(r"^b\d+-", "", path.stem)
    if kind in KIND_PATTERNS:
        assert re.search(KIND_PATTERNS[kind], fault), fault
    with pytest.raises(ValueError):
        fill(rec)


# --- fill and summary ------------------------------------------------------------------------


def test_fill_writes_every_derived_field(full):
    bare = strip(full)
    assert check(bare) is None
    assert fill(bare) == fill(full)
    filled = fill(bare)
    assert filled["totals"] == full["totals"]
    for a, b in zip(filled["hands"], full["hands"]):
        assert a["scores"] == b["scores"]
        assert [t["winner"] for t in a["tricks"]] == [t["winner"] for t in b["tricks"]]
    assert bare == strip(full)  # fill works on a copy


def test_fill_a_record_in_progress():
    rec = game_record(5, seed=9, steps=70)
    filled = fill(strip(rec))
    assert check(filled) is None
    assert filled["totals"] == rec["totals"]
    last = filled["hands"][-1]
    assert "scores" not in last
    if last["tricks"] and len(last["tricks"][-1]["rolls"]) < 5:
        assert "winner" not in last["tricks"][-1]


def test_fill_refuses_an_invalid_record(full):
    rec = copy.deepcopy(full)
    rec["hands"][0]["bids"][0] = 5
    with pytest.raises(ValueError, match="hand 1"):
        fill(rec)
    with pytest.raises(ValueError):
        summary(rec)


def test_summary_is_the_score_sheet(full):
    rows = summary(full)
    assert [r.hand for r in rows] == list(range(1, 9))
    running = [0] * 4
    for row, hand in zip(rows, full["hands"]):
        assert row.bids == hand["bids"] and row.scores == hand["scores"]
        assert sum(row.won) == row.hand
        running = [a + b for a, b in zip(running, hand["scores"])]
        assert row.totals == running
    assert rows[-1].totals == full["totals"]


def test_a_hand_typed_record_without_derived_fields():
    rec = {
        "format": "minodice/1",
        "seats": [{"name": "Ana"}, {"name": "Bo"}, {"name": "Cy"}],
        "hands": [{
            "start": 0,
            "dice": [["red"], ["griffin"], ["gray"]],
            "bids": [0, 1, 0],
            "tricks": [{"rolls": [{"seat": 0, "die": "red", "face": "6"},
                                  {"seat": 1, "die": "griffin", "face": "griffin"},
                                  {"seat": 2, "die": "gray", "face": "flag"}]}],
        }],
    }
    assert check(rec) is None
    filled = fill(rec)
    assert filled["hands"][0]["tricks"][0]["winner"] == 1
    assert filled["hands"][0]["scores"] == [10, 20, 10]
    assert filled["totals"] == [10, 20, 10]
    assert filled["rules"] == Rules().to_dict()


# --- from_game and to_game -------------------------------------------------------------------


def test_from_game_host_record_matches_the_game():
    game = Game(5, seed=4, names=NAMES[:5], rules=Rules(all_flags="last"))
    rng = random.Random(4)
    while not game.over:
        game.apply(rng.choice(game.legal_actions()))
    rec = from_game(game, seat_info=[{"bot": "random"}] * 5)
    assert rec["format"] == "minodice/1"
    assert rec["seats"][0] == {"name": "Ana", "bot": "random"}
    assert rec["rules"]["all_flags"] == "last"
    assert rec["totals"] == game.totals
    assert [h["scores"] for h in rec["hands"]] == [list(h.scores) for h in game.log]
    assert check(rec) is None
    json.dumps(rec)


def test_from_game_for_a_seat_hides_what_it_cannot_see():
    checked = 0
    for seed in range(30):
        rng = random.Random(seed)
        seats = 3 + seed % 4
        game = Game(seats, seed=seed, names=NAMES[:seats])
        for _ in range(rng.randint(0, 150)):
            if game.over:
                break
            game.apply(rng.choice(game.legal_actions()))
        for seat in range(seats):
            rec = from_game(game, seat=seat)
            assert check(rec) is None, check(rec)
            host = from_game(game)
            for h, (mine, full_hand) in enumerate(zip(rec["hands"], host["hands"])):
                finished = "scores" in full_hand
                if finished:
                    assert mine == full_hand
                    continue
                assert h == len(rec["hands"]) - 1
                rolled = Counter()
                for t in full_hand["tricks"]:
                    for r in t["rolls"]:
                        rolled[(r["seat"], r["die"])] += 1
                for s, row in enumerate(mine["dice"]):
                    if s == seat:
                        assert row == full_hand["dice"][s]
                        continue
                    named = [d for d in row if d is not None]
                    assert Counter(named) == Counter({d: n for (o, d), n in rolled.items() if o == s})
                    assert row.count(None) == len(game.held(s))
                revealed = None not in full_hand["bids"]
                for s, b in enumerate(mine["bids"]):
                    assert b == (full_hand["bids"][s] if revealed or s == seat else None)
                checked += 1
    assert checked > 30


def test_to_game_resumes_identically():
    for seed in range(16):
        rng = random.Random(seed)
        seats = 3 + seed % 4
        game = Game(seats, seed=seed, names=NAMES[:seats], rules=Rules(hand_start="last_winner")
                    if seed % 2 else Rules())
        for _ in range(rng.randint(0, 200)):
            if game.over:
                break
            game.apply(rng.choice(game.legal_actions()))
        rec = from_game(game)
        resumed = to_game(rec, seed=77)
        assert resumed.phase is game.phase and resumed.turn == game.turn and resumed.hand == game.hand
        assert resumed.totals == game.totals
        for s in (*range(seats), None):
            assert resumed.observe(s).to_dict() == game.observe(s).to_dict()
        for s in range(seats):
            assert resumed.held(s) == game.held(s)
        assert from_game(resumed) == rec
        # continuing with a seed: the same as the original continuing with that seed
        original = game.clone(SeededChance(77))
        agent_a, agent_b = random.Random(seed), random.Random(seed)
        while not original.over:
            original.apply(agent_a.choice(original.legal_actions()))
            resumed.apply(agent_b.choice(resumed.legal_actions()))
        assert resumed.over
        assert from_game(resumed) == from_game(original)


def test_to_game_with_external_chance_and_refusals(full):
    game = to_game(full, seed=1)
    assert game.over and game.totals == full["totals"]
    with pytest.raises(ValueError, match="hand 1"):
        bad = copy.deepcopy(full)
        bad["hands"][0]["bids"][0] = 3
        to_game(bad)
    seat_rec = from_game(to_game(game_record(4, seed=2, steps=30)), seat=0)
    with pytest.raises(ValueError, match="hidden"):
        to_game(seat_rec)


def test_to_game_of_an_empty_record():
    rec = {"format": "minodice/1", "seats": [{"name": n} for n in NAMES[:3]], "hands": []}
    game = to_game(rec, seed=3)
    assert game.phase is Phase.BID and game.hand == 1 and game.names == ("Ana", "Bo", "Cy")


# --- files --------------------------------------------------------------------------------------


def test_save_and_load(tmp_path, full):
    path = tmp_path / "game.json"
    record.save(full, path)
    assert record.load(path) == full
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary file left


@pytest.mark.parametrize(("text", "message"), [
    ("{not json", "not JSON"),
    ("[1, 2]", "must hold one JSON object"),
    ('{"format": "chess/pgn"}', 'not a minodice/1 record: "format" is "chess/pgn"'),
    ('{"seats": []}', 'it has no "format"'),
])
def test_parse_refuses_non_records(text, message):
    with pytest.raises(RecordError, match=re.escape(message)):
        record.parse(text)


def test_load_refuses_unreadable_files(tmp_path):
    with pytest.raises(RecordError, match="cannot read"):
        record.load(tmp_path / "missing.json")
    with pytest.raises(RecordError, match="cannot read"):
        record.load(tmp_path)
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(RecordError):
        record.load(binary)



def _bonus_record(scoring: str) -> dict:
    """Hand 1: Ana's mermaid takes Bo's minotaur (+50 if her bid of 1 is made)."""
    return {
        "format": "minodice/1",
        "rules": {"scoring": scoring},
        "seats": [{"name": "Ana"}, {"name": "Bo"}, {"name": "Cy"}],
        "hands": [{
            "start": 0,
            "dice": [["mermaid"], ["minotaur"], ["gray"]],
            "bids": [1, 1, 0],
            "tricks": [{"rolls": [{"seat": 0, "die": "mermaid", "face": "mermaid"},
                                  {"seat": 1, "die": "minotaur", "face": "minotaur"},
                                  {"seat": 2, "die": "gray", "face": "7"}]}],
        }],
    }


def test_bad_score_message_names_the_bonus_only_when_it_counts():
    rec = _bonus_record("standard")
    assert fill(rec)["hands"][0]["scores"] == [70, -10, 10]
    rec["hands"][0]["scores"] = [20, -10, 10]
    assert check(rec) == "hand 1: Ana (seat 0) scores 70 (bid 1, won 1, bonus 50), not 20"
    rec = _bonus_record("landlubber")  # no bonuses in the landlubber variant
    assert fill(rec)["hands"][0]["scores"] == [20, 0, 10]
    rec["hands"][0]["scores"] = [70, 0, 10]
    assert check(rec) == "hand 1: Ana (seat 0) scores 20 (bid 1, won 1), not 70"


# --- hostile files: limits when reading, no booleans for numbers, names, null bids ----------


@pytest.mark.parametrize(("text", "message"), [
    ('{"format": "minodice/1", "format": "minodice/1"}', 'the key "format" appears twice in one object'),
    ('{"format": "minodice/1", "seats": [{"name": "A", "bot": 1, "name": "B"}]}', 'the key "name" appears twice'),
    ('{"format": "minodice/1", "x": ' + "[" * 65 + "]" * 65 + "}", "its JSON nests deeper than 64 levels"),
    ('{"format": "minodice/1", "x": ' + "[" * 50_000 + "]" * 50_000 + "}", "its JSON nests deeper than 64 levels"),
    ('{"format": "minodice/1", "x": ' + "9" * 65 + "}", "a number has 65 digits; at most 64 are read"),
    ('{"format": "minodice/1", "x": -' + "9" * 5000 + "}", "a number has 5000 digits"),
    ('{"format": "minodice/1", "x": [Infinity]}', "Infinity is not a JSON value"),
    ('{"format": "minodice/1", "x": -1e400}', 'the number "-1e400" is too large'),
    ('{"format": "minodice/1", "seats": [{"name": "\\udc00"}]}', 'the text "\\udc00" holds a lone UTF-16 surrogate'),
    ('{"format": "minodice/1", "\\ud800": 1}', 'the text "\\ud800" holds a lone UTF-16 surrogate'),
    ('{"format": "minodice/1", "n": "a\udc80"}', 'the text "a\\udc80" holds a lone UTF-16 surrogate'),  # raw
])
def test_parse_refuses_what_no_record_holds(text, message):
    with pytest.raises(RecordError, match="^not a minodice/1 record: " + re.escape(message)):
        record.parse(text)


def test_parse_accepts_what_a_record_may_hold():
    deep = "[" * 63 + "]" * 63  # 64 levels with the record itself
    rec = record.parse('{"format": "minodice/1", "x": ' + deep + ', "n": ' + "9" * 64 + "}")
    assert rec["n"] == int("9" * 64)
    pair = record.parse('{"format": "minodice/1", "name": "\\ud83c\\udfb2 \\\\ud800"}')  # a pair, and a backslash
    assert pair["name"] == "🎲 \\ud800"


def _one_landlubber_hand() -> dict:
    """Hand 1 of a 3-seat landlubber game: scores and totals [20, 0, 0], its trick won by seat 0."""
    rec = game_record(3, seed=3, rules=Rules(scoring="landlubber"), steps=6)
    assert rec["hands"][0]["scores"] == rec["totals"] == [20, 0, 0]
    assert rec["hands"][0]["tricks"][0]["winner"] == 0 and check(rec) is None
    return rec


@pytest.mark.parametrize("zero", [False, 0.0])
def test_winners_scores_and_totals_are_whole_numbers_never_booleans(zero):
    rec = _one_landlubber_hand()
    rec["hands"][0]["tricks"][0]["winner"] = zero
    fault = check(rec)
    assert fault is not None and fault.startswith("hand 1, trick 1: the winner is Ana (seat 0) (")
    assert fault.endswith(f", not {json.dumps(zero)}")
    rec = _one_landlubber_hand()
    rec["hands"][0]["scores"][1] = zero
    assert check(rec) == f"hand 1: Bo (seat 1) scores 0 (bid {rec['hands'][0]['bids'][1]}, won 0), not {json.dumps(zero)}"
    rec = _one_landlubber_hand()
    rec["totals"][2] = zero
    assert check(rec) == f"totals: Cy (seat 2) has 0 in all, not {json.dumps(zero)}"


@pytest.mark.parametrize("name", ["", "   ", "\t\n"])
def test_an_empty_seat_name_is_refused(full, name):
    rec = copy.deepcopy(full)
    rec["seats"][2]["name"] = name
    assert check(rec) == "seats: seat 2 needs a name"


def test_a_name_is_quoted_escaped_in_faults(full):
    rec = copy.deepcopy(full)
    rec["seats"][0]["name"] = "Ana\n\x1b[2J"
    rec["totals"][0] += 1
    assert check(rec) == f"totals: Ana\\n\\x1b[2J (seat 0) has {full['totals'][0]} in all, not {full['totals'][0] + 1}"


def test_null_bids_on_the_unfinished_last_hand_are_no_bids_yet():
    rec = game_record(4, seed=6, steps=1)  # the deal of hand 1, one bid placed
    last = rec["hands"][-1]
    last["bids"] = None
    assert check(rec) is None
    assert fill(rec)["hands"][-1]["bids"] == [None] * 4
    assert summary(rec)[-1].bids == [None] * 4
    assert list(to_game(rec, seed=1).log[-1].bids) == [None] * 4
    last["tricks"] = [{"rolls": [{"seat": 0, "die": last["dice"][0][0], "face": "flag"}]}]
    assert check(rec) == "hand 1: tricks were played before all bids were in (Ana (seat 0) has not bid)"


def test_null_bids_on_a_finished_hand_are_missing_bids(full):
    rec = copy.deepcopy(full)
    rec["hands"][0]["bids"] = None
    assert check(rec) == "hand 1: Ana (seat 0) has no bid, and only the last hand may be unfinished"


def test_a_long_value_is_quoted_short(full):
    rec = copy.deepcopy(full)
    rec["hands"][0]["dice"][0][0] = "x" * 10_000
    fault = check(rec)
    assert fault is not None and fault.startswith('hand 1: Ana (seat 0) has an unknown die "xxx') and len(fault) < 120
