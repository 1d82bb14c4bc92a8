"""Seat views (the bot protocol's `view`) and event streams: shape, and hidden information."""

from __future__ import annotations

import json
import random

import pytest

from minodice.dice import BAG_COUNTS, Die
from minodice.errors import IllegalAction
from minodice.events import BidPlaced, BidsRevealed, DiceDrawn, Rolled
from minodice.game import EXTERNAL, Bid, Deal, Game, Land, Phase, Roll
from minodice.view import View

VIEW_KEYS = {"seat", "seats", "names", "hand", "hands", "start", "rules", "dice", "bid_placed", "bids",
             "won", "totals", "tricks", "leader"}


def walk(game: Game, rng: random.Random):
    """Play `game` to the end with random choices, yielding before every action."""
    while not game.over:
        yield
        game.apply(rng.choice(game.legal_actions()))
    yield


# --- shape --------------------------------------------------------------------------------


def test_view_has_exactly_the_protocol_keys(helpers):
    game = helpers.play_random(4, seed=1, steps=0)
    out = game.observe(2).to_dict()
    assert set(out) == VIEW_KEYS | {"legal"}
    assert out["seat"] == 2 and out["seats"] == 4 and out["names"] == ["P0", "P1", "P2", "P3"]
    assert out["hand"] == 1 and out["hands"] == 8 and out["start"] == 0 and out["leader"] == 0
    assert out["rules"] == {"scoring": "standard", "all_specials": "mermaid", "all_flags": "first",
                            "hand_start": "rotate"}
    assert out["dice"] == [d.value for d in game.held(2)]
    assert out["bid_placed"] == [False] * 4 and out["bids"] == [None] * 4
    assert out["won"] == [0] * 4 and out["totals"] == [0] * 4 and out["tricks"] == []
    assert out["legal"] == [0, 1]
    json.dumps(out)  # plain JSON


def test_view_tricks_shape(helpers):
    game = helpers.play_random(3, seed=2, steps=40)
    assert game.phase is Phase.ROLL
    out = game.observe(0).to_dict()
    for trick in out["tricks"]:
        assert set(trick) == {"rolls", "winner"}
        for r in trick["rolls"]:
            assert set(r) == {"seat", "die", "face"}
            assert isinstance(r["die"], str) and isinstance(r["face"], str)
    assert all(t["winner"] is not None for t in out["tricks"][:-1])


def test_legal_present_only_when_the_seat_must_act(helpers):
    for seed in range(6):
        seats = 3 + seed % 4
        game = Game(seats, seed=seed, rules=helpers.ALL_RULES[seed * 3])
        for _ in walk(game, random.Random(seed)):
            acting = set(game.to_act())
            for s in range(seats):
                out = game.observe(s).to_dict()
                assert set(out) == VIEW_KEYS | ({"legal"} if s in acting else set())
                if s not in acting:
                    continue
                actions = game.legal_actions(s)
                if game.phase is Phase.BID:
                    assert out["legal"] == [a.bid for a in actions] == list(range(game.hand + 1))
                else:
                    assert out["legal"] == [a.die.value for a in actions]
                    assert s == game.turn


def test_public_view(helpers):
    game = helpers.play_random(5, seed=3, steps=25)
    view = game.observe(None)
    out = view.to_dict()
    assert out["seat"] is None and out["dice"] == [] and "legal" not in out
    assert set(out) == VIEW_KEYS
    seat_view = game.observe(0).to_dict()
    for key in VIEW_KEYS - {"seat", "dice"}:
        assert out[key] == seat_view[key]


def test_setup_view():
    game = Game(4, seed=1)
    out = game.setup_view(1).to_dict()
    assert set(out) == VIEW_KEYS
    assert out["hand"] == 0 and out["dice"] == [] and out["tricks"] == [] and out["seat"] == 1
    assert game.setup_view().to_dict()["seat"] is None


def test_view_from_dict_round_trip(helpers):
    for seed in range(4):
        game = Game(3 + seed, seed=seed, rules=helpers.ALL_RULES[seed * 5])
        for _ in walk(game, random.Random(seed)):
            for s in (*range(game.seats), None):
                view = game.observe(s)
                assert View.from_dict(view.to_dict()) == view
                assert View.from_dict(json.loads(json.dumps(view.to_dict()))) == view


@pytest.mark.parametrize("broken", [
    {}, {"seat": 0}, "nonsense",
])
def test_view_from_dict_refuses_malformed(broken, helpers):
    with pytest.raises(ValueError):
        View.from_dict(broken)  # type: ignore[arg-type]


def test_view_from_dict_refuses_unknown_dice(helpers):
    out = helpers.play_random(3, seed=1, steps=0).observe(0).to_dict()
    out["dice"] = ["blue"]
    with pytest.raises(ValueError, match="unknown die"):
        View.from_dict(out)


def test_view_conveniences_agree_with_the_game(helpers):
    for seed in range(4):
        game = Game(4, seed=seed)
        for _ in walk(game, random.Random(seed)):
            view = game.observe(None)
            assert view.bidding == (game.phase is Phase.BID)
            assert view.game_over == game.over
            assert view.lead_colour is game.lead_colour
            assert view.to_roll == (game.turn if game.phase is Phase.ROLL else None)


def test_totals_are_points_before_the_hand(helpers):
    game = helpers.play_random(3, seed=8, steps=0)
    rng = random.Random(8)
    scored = 0
    while not game.over:
        hand = game.hand
        before = list(game.totals)
        while game.hand == hand and not game.over:
            assert game.observe(0).totals == tuple(before)
            game.apply(rng.choice(game.legal_actions()))
        scored += 1
    assert game.observe(0).totals == tuple(game.totals)  # final totals once the game is over


# --- hidden information ---------------------------------------------------------------------


def actions_of(game: Game) -> list:
    """The game's history as actions (chance outcomes included), in the order they happened."""
    out: list = []
    for e in game.events:
        if isinstance(e, DiceDrawn):
            out.append(Deal(e.dice))  # type: ignore[arg-type]
        elif isinstance(e, BidPlaced):
            out.append(Bid(e.seat, e.bid))  # type: ignore[arg-type]
        elif isinstance(e, Rolled):
            out.extend((Roll(e.seat, e.die), Land(e.face)))
    return out


def replay(game: Game, actions: list) -> Game:
    ext = Game(game.seats, names=game.names, rules=game.rules, chance=EXTERNAL,
               first_start=game.log[0].start)
    for action in actions:
        ext.apply(action)
    return ext


def seen_by(game: Game, seat: int | None) -> tuple:
    return (game.observe(seat).to_dict(), [e.to_dict() for e in game.events_for(seat)])


def swapped_deal(game: Game, viewer: int, rng: random.Random) -> Deal | None:
    """The current hand's deal with one unrolled die of a seat other than `viewer` changed
    (swapped with another hidden seat's die, or exchanged for a die left in the bag)."""
    hand = game.log[-1]
    rows = [list(r) for r in hand.dice]
    others = [s for s in range(game.seats) if s != viewer and game.held(s)]
    if not others:
        return None
    t = rng.choice(others)
    old = rng.choice(game.held(t))
    i = rows[t].index(old)
    drawn = [d for r in rows for d in r]
    left = [d for d in Die if drawn.count(d) < BAG_COUNTS[d] and d is not old]
    partners = [(u, d) for u in others if u != t for d in game.held(u) if d is not old]
    if partners and (not left or rng.random() < 0.5):
        u, new = rng.choice(partners)
        rows[u][rows[u].index(new)] = old
    elif left:
        new = rng.choice(left)
    else:
        return None
    rows[t][i] = new
    return Deal(tuple(tuple(r) for r in rows))


def test_other_seats_hidden_dice_never_show(helpers):
    """Two games that differ only in other seats' unrolled dice look the same to a seat."""
    rng = random.Random(2024)
    compared = 0
    for seed in range(80):
        seats = 3 + seed % 4
        game = helpers.play_random(seats, seed=seed, rules=helpers.ALL_RULES[seed % 24],
                                   steps=rng.randint(0, 160))
        if game.over:
            continue
        viewer = rng.randrange(seats)
        new_deal = swapped_deal(game, viewer, rng)
        if new_deal is None:
            continue
        actions = actions_of(game)
        last_deal = max(i for i, a in enumerate(actions) if isinstance(a, Deal))
        actions[last_deal] = new_deal
        try:
            twin = replay(game, actions)
        except IllegalAction:  # the changed dice made a past roll break the colour rule
            continue
        assert [twin.held(s) for s in range(seats)] != [game.held(s) for s in range(seats)]
        assert seen_by(twin, viewer) == seen_by(replay(game, actions_of(game)), viewer)
        assert seen_by(twin, None) == seen_by(game, None)
        compared += 1
    assert compared >= 40


def test_bids_hidden_until_all_are_in(helpers):
    for seed in range(20):
        rng = random.Random(seed)
        seats = 3 + seed % 4
        game = helpers.play_random(seats, seed=seed, steps=0)
        for _ in range(rng.randint(0, 3)):  # play some hands
            hand = game.hand
            while game.hand == hand:
                game.apply(rng.choice(game.legal_actions()))
        order = list(range(seats))
        rng.shuffle(order)
        viewer = order[rng.randrange(seats - 1)]  # a seat that is not the last to bid
        a, b = game.clone(), game.clone()
        for seat in order[:-1]:
            a.apply(Bid(seat, rng.randint(0, game.hand)))
            b.apply(Bid(seat, a.log[-1].bids[seat] if seat == viewer else rng.randint(0, game.hand)))
            for s in (viewer, None):
                view = a.observe(s)
                assert view.bids == (None,) * seats
                assert seen_by(a, s) == seen_by(b, s)
            for other in range(seats):
                if other != viewer:
                    for e in a.events_for(viewer):
                        if isinstance(e, BidPlaced) and e.seat == other:
                            assert e.bid is None
        a.apply(Bid(order[-1], 0))
        assert isinstance(a.events[-1], BidsRevealed)
        assert None not in a.observe(viewer).bids


def test_own_bid_visible_to_self_only(helpers):
    game = Game(3, seed=1)
    game.apply(Bid(1, 1))
    assert game.events_for(1)[-1] == BidPlaced(1, 1)
    assert game.events_for(0)[-1] == BidPlaced(1, None)
    assert game.events_for(None)[-1] == BidPlaced(1, None)
    assert game.observe(1).bids == (None, None, None)  # views show bids once all are in
    assert game.observe(1).bid_placed == (False, True, False)


def test_views_show_only_own_dice(helpers):
    for seed in range(5):
        game = Game(3 + seed % 4, seed=seed)
        for _ in walk(game, random.Random(seed)):
            for s in range(game.seats):
                assert game.observe(s).dice == game.held(s)
                drawn = [e for e in game.events_for(s) if isinstance(e, DiceDrawn)]
                for e in drawn:
                    assert all(row is None for o, row in enumerate(e.dice) if o != s)
                    assert e.dice[s] is not None


def test_spectator_events_leak_no_dice_and_no_early_bids(helpers):
    for seed in range(10):
        game = Game(3 + seed % 4, seed=seed)
        for _ in walk(game, random.Random(seed)):
            for e in game.events_for(None):
                if isinstance(e, DiceDrawn):
                    assert all(row is None for row in e.dice)
                if isinstance(e, BidPlaced):
                    assert e.bid is None
            assert game.observe(None).dice == ()


def test_events_for_since(helpers):
    game = helpers.play_random(4, seed=3, steps=30)
    full = game.events_for(2)
    assert game.events_for(2, since=5) == full[5:]
    assert len(game.events_for(None)) == len(game.events)
