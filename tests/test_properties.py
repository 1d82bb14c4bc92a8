"""Invariants over random seeded games and random legal choices (hypothesis).

The settings profile in conftest.py derandomizes hypothesis (same examples on every
run) and keeps the example counts modest so the suite stays fast.
"""

from __future__ import annotations

import copy
import itertools
import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from minodice import record
from minodice.dice import BAG_COUNTS, Die, Face, over_bag
from minodice.errors import IllegalAction
from minodice.events import BidPlaced, DiceDrawn
from minodice.game import Bid, Game, Land, Phase, Roll, SeededChance
from minodice.rules import RULE_OPTIONS, Rules, hand_score, trick_bonus, trick_winner, winning_face

ALL_RULES = [Rules(*c) for c in itertools.product(*(v for v, _ in RULE_OPTIONS.values()))]

seats_st = st.integers(3, 6)
rules_st = st.sampled_from(ALL_RULES)
seed_st = st.integers(0, 2**32 - 1)


def new_game(seats: int, rules: Rules, seed: int, first: int) -> Game:
    return Game(seats, rules=rules, seed=seed, first_start=first % seats,
                names=[f"N{i}" for i in range(seats)])


def assert_no_leaks(game: Game) -> None:
    """No seat's view or event stream shows another seat's unrolled dice or an early bid."""
    bids_in = None not in game.log[-1].bids
    for s in range(game.seats):
        view = game.observe(s)
        assert view.dice == game.held(s)
        if not bids_in:
            assert view.bids == (None,) * game.seats
        for e in game.events_for(s):
            if isinstance(e, DiceDrawn):
                assert all(row is None for o, row in enumerate(e.dice) if o != s)
            elif isinstance(e, BidPlaced) and e.seat != s:
                assert e.bid is None
    public = game.observe(None)
    assert public.dice == () and public.legal is None
    for e in game.events_for(None):
        if isinstance(e, DiceDrawn):
            assert all(row is None for row in e.dice)
        elif isinstance(e, BidPlaced):
            assert e.bid is None


@settings(max_examples=30)
@given(seats=seats_st, rules=rules_st, seed=seed_st, agent=seed_st, first=st.integers(0, 5))
def test_random_games_keep_every_invariant(seats, rules, seed, agent, first):
    game = new_game(seats, rules, seed, first)
    rng = random.Random(agent)
    seen_hands = 0
    while not game.over:
        hand = game.log[-1]
        if hand.number > seen_hands:  # a new hand: n dice each, from the bag
            seen_hands = hand.number
            assert all(len(row) == hand.number for row in hand.dice)
            assert over_bag(d for row in hand.dice for d in row) is None
        legal = game.legal_actions()
        assert legal
        per_seat = [a for s in game.to_act() for a in game.legal_actions(s)]
        assert set(per_seat) == set(legal)
        if rng.random() < 0.1:  # a random illegal action is refused without a trace
            wrong = rng.choice([Bid(s, b) for s in range(seats) for b in range(10)]
                               + [Roll(s, d) for s in range(seats) for d in Die] + [Land(f) for f in Face])
            if wrong not in legal:
                before = (len(game.events), game.phase, game.turn, [game.held(s) for s in range(seats)])
                try:
                    game.apply(wrong)
                except IllegalAction:
                    pass
                else:
                    raise AssertionError(f"{wrong} was accepted but not listed as legal")
                assert before == (len(game.events), game.phase, game.turn,
                                  [game.held(s) for s in range(seats)])
        if rng.random() < 0.2:
            assert_no_leaks(game)
        game.apply(rng.choice(legal))
    assert_no_leaks(game)
    assert len(game.log) == game.hands
    for hand in game.log:
        n = hand.number
        assert len(hand.tricks) == n
        rolled = [Counter() for _ in range(seats)]
        for trick in hand.tricks:
            assert len(trick.rolls) == seats and trick.winner is not None
            for s, d, f in trick.rolls:
                rolled[s][d] += 1
                assert f in d.faces
        assert rolled == [Counter(row) for row in hand.dice]
        assert sum(hand.won) == n
    assert game.totals == [sum(h.scores[s] for h in game.log) for s in range(seats)]
    rec = record.from_game(game)
    assert record.check(rec) is None
    assert rec["totals"] == game.totals


@settings(max_examples=40)
@given(seats=seats_st, rules=rules_st, seed=seed_st, steps=st.integers(0, 400))
def test_records_replay_to_the_same_scores(seats, rules, seed, steps):
    game = new_game(seats, rules, seed, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.over:
            break
        game.apply(rng.choice(game.legal_actions()))
    rec = json.loads(json.dumps(record.from_game(game)))
    assert record.check(rec) is None
    finished = [h for h in game.log if h.scores is not None]
    filled = record.fill(rec)
    assert filled == rec  # a written record already holds every derived field
    assert filled["totals"] == [sum(h.scores[s] for h in finished) for s in range(seats)]
    rows = record.summary(rec)
    assert [r.scores for r in rows] == [list(h.scores) if h.scores is not None else None for h in game.log]
    if rows:
        assert rows[-1].totals == game.totals
    resumed = record.to_game(rec, seed=1)
    for s in range(seats):
        assert resumed.observe(s).to_dict() == game.observe(s).to_dict()
    assert resumed.totals == game.totals
    for s in range(seats):  # a seat's own record verifies too
        mine = record.from_game(game, seat=s)
        assert record.check(mine) is None


@settings(max_examples=25)
@given(seats=seats_st, rules=rules_st, seed=seed_st, steps=st.integers(0, 300), viewer=st.integers(0, 5),
       sample=seed_st)
def test_determinize_is_consistent_and_playable(seats, rules, seed, steps, viewer, sample):
    game = new_game(seats, rules, seed, 0)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.over:
            break
        game.apply(rng.choice(game.legal_actions()))
    viewer %= seats
    det = game.determinize(viewer, random.Random(sample))
    want, got = game.observe(viewer).to_dict(), det.observe(viewer).to_dict()
    if game.phase is Phase.BID:
        for out in (want, got):
            out["bid_placed"] = [b and s == viewer for s, b in enumerate(out["bid_placed"])]
    assert got == want
    hand = det.log[-1]
    assert over_bag(d for row in hand.dice for d in row) is None
    assert all(len(row) == det.hand for row in hand.dice)
    voids: list[set[Die]] = [set() for _ in range(seats)]
    for trick in game.log[-1].tricks:
        lead = None
        for s, d, _f in trick.rolls:
            if lead is not None and not d.special and d is not lead:
                voids[s].add(lead)
            if lead is None and not d.special:
                lead = d
    for s in range(seats):
        assert len(det.held(s)) == len(game.held(s))
        assert not voids[s] & set(det.held(s))
    while not det.over:
        det.apply(rng.choice(det.legal_actions()))


@settings(max_examples=25)
@given(seed=seed_st, choices=st.lists(st.integers(0, 10**6), min_size=1, max_size=60))
def test_same_seed_and_choices_give_the_same_game(seed, choices):
    def run() -> list:
        game = Game(4, seed=seed)
        for c in choices:
            if game.over:
                break
            legal = game.legal_actions()
            game.apply(legal[c % len(legal)])
        return [e.to_dict() for e in game.events]

    assert run() == run()


@settings(max_examples=25)
@given(seed=seed_st, steps=st.integers(0, 300), fork=seed_st)
def test_clones_follow_the_same_chance(seed, steps, fork):
    game = Game(5, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.over:
            return
        game.apply(rng.choice(game.legal_actions()))
    a, b = game.clone(), game.clone(SeededChance(0))
    b.chance = a.chance.copy()  # type: ignore[union-attr]
    ra, rb = random.Random(fork), random.Random(fork)
    while not a.over:
        a.apply(ra.choice(a.legal_actions()))
        b.apply(rb.choice(b.legal_actions()))
    assert b.over and a.totals == b.totals
    assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events]


# --- the rules as properties ------------------------------------------------------------------

faces_st = st.lists(st.sampled_from(list(Face)), min_size=3, max_size=6)


@given(faces=faces_st, rules=rules_st)
def test_trick_winner_properties(faces, rules):
    i = trick_winner(faces, rules)
    assert 0 <= i < len(faces)
    best = winning_face(faces, rules)
    assert faces[i] is best
    specials = {f for f in faces if f.special}
    if specials:
        assert best.special
    else:
        assert best.number == max(f.number for f in faces)
    if best is Face.FLAG:
        assert set(faces) == {Face.FLAG}
        assert i == (0 if rules.all_flags == "first" else len(faces) - 1)
    else:  # ties go to the later roller
        assert best not in faces[i + 1 :]
    bonus = trick_bonus(faces, i)
    assert bonus in (0, 50) or (bonus % 30 == 0 and best is Face.MINOTAUR)


def reference_winner(faces: list[Face], rules: Rules) -> int:
    """RULES.md, "Who wins a trick", written out again independently of minodice.rules."""
    cycle = {"minotaur": "griffin", "griffin": "mermaid", "mermaid": "minotaur"}  # X beats cycle[X]
    names = [f.value for f in faces]
    kinds = {n for n in names if n in cycle}
    if kinds:
        if len(kinds) == 3:
            best = rules.all_specials
        elif len(kinds) == 2:
            a, b = sorted(kinds)
            best = a if cycle[a] == b else b
        else:
            (best,) = kinds
        return max(i for i, n in enumerate(names) if n == best)
    numbers = [0 if n == "flag" else int(n) for n in names]
    top = max(numbers)
    if top == 0:
        return 0 if rules.all_flags == "first" else len(faces) - 1
    return max(i for i, v in enumerate(numbers) if v == top)


@settings(max_examples=200)
@given(faces=faces_st, rules=rules_st)
def test_trick_winner_matches_an_independent_reading_of_the_rules(faces, rules):
    i = trick_winner(faces, rules)
    assert i == reference_winner(faces, rules)
    names = [f.value for f in faces]
    expected_bonus = 0
    if names[i] == "mermaid" and "minotaur" in names:
        expected_bonus = 50
    elif names[i] == "minotaur":
        expected_bonus = 30 * names.count("griffin")
    assert trick_bonus(faces, i) == expected_bonus


@given(bid=st.integers(0, 8), won=st.integers(0, 8), dice=st.integers(1, 8), bonus=st.integers(0, 200),
       rules=rules_st)
def test_hand_score_properties(bid, won, dice, bonus, rules):
    points = hand_score(bid, won, dice, bonus, rules)
    if bid == 0:
        assert points == (10 * dice if won == 0 else -10 * dice)
    elif won == bid:
        assert points == 20 * bid + (0 if rules.landlubber else bonus)
    else:
        assert points == (0 if rules.landlubber else -10 * abs(won - bid))


# --- the checker never crashes ----------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.sampled_from(
        ["red", "gray", "minotaur", "flag", "7", "x", "", "standard", "last_winner"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(
        ["seat", "die", "face", "winner", "rolls", "name"]), inner, max_size=3),
    max_leaves=6,
)


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*prefix, i))


_game = Game(3, seed=5, names=["A", "B", "C"])
_rng = random.Random(5)
for _ in range(60):
    _game.apply(_rng.choice(_game.legal_actions()))
_BASE = record.from_game(_game)
_BASE_PATHS = [p for p in _paths(_BASE) if p]


@settings(max_examples=150)
@given(data=st.data())
def test_check_answers_any_mutation_without_crashing(data):
    rec = copy.deepcopy(_BASE)
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(_BASE_PATHS))
        node = rec
        try:
            for key in path[:-1]:
                node = node[key]
            if data.draw(st.booleans()) or not isinstance(node, (dict, list)):
                node[path[-1]] = data.draw(json_values)
            elif isinstance(node, list):
                del node[path[-1]]
            else:
                node.pop(path[-1])
        except (KeyError, IndexError, TypeError):
            continue
    fault = record.check(rec)
    assert fault is None or (isinstance(fault, str) and fault)
    if fault is None:
        filled = record.fill(rec)
        assert record.check(filled) is None
        hidden = any(d is None for h in rec["hands"] for row in h["dice"] for d in row)
        if not hidden:
            record.to_game(rec, seed=0)


def test_bag_is_not_exceeded_by_any_seed():
    for seed in range(200):
        game = Game(6, seed=seed)
        assert Counter(d for row in game.log[0].dice for d in row) <= Counter(BAG_COUNTS)
