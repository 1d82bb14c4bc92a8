"""The numba simulator against the reference engine: same seeded games, same winners and scores.

Both sides consume one explicit stream of uniforms in the order `sim.kernel`
documents (the deal's partial shuffle, random bids, random choices, faces):
the engine through `StreamChance` (a `Chance`) and the stream-driven random
policy below, the kernels through `simulate_from_stream` / `finish_hand(...,
uniforms=...)`. Greedy seats consume no uniforms; on the engine side they are
`GreedyBot`.
"""

from __future__ import annotations

import doctest
import importlib
import itertools
import random
from collections.abc import Sequence

import numpy as np
import pytest

from minodice import rules as R
from minodice.bots.greedy import GreedyBot
from minodice.dice import Die, Face
from minodice.game import Bid, Game, HandLog, Phase, Roll
from minodice.rules import Rules
from minodice.sim import finish_hand, finish_hand_tricks, playout_values, policy_bid, policy_roll
from minodice.sim import kernel as K
from minodice.sim.batch import SimResult, simulate, simulate_from_stream, stream_size, warmup
from minodice.sim.playout import encode, hand_start_state, seat_objective
from sim_stream import StreamChance

FACES = tuple(Face)
SPECIAL_RULES = [Rules(all_specials=a, all_flags=f) for a in ("mermaid", "minotaur", "griffin")
                 for f in ("first", "last")]


def engine_step(game: Game, src: StreamChance, policies: Sequence[str], greedy: GreedyBot) -> None:
    """One decision (all bids at once, or one roll) by the stream-driven policies."""
    if game.phase is Phase.BID:
        bids = game.log[-1].bids
        for s in range(game.seats):
            if bids[s] is None:
                if policies[s] == "random":
                    b = int(src.next() * (game.hand + 1))
                else:
                    b = greedy.bid(game.observe(s))
                game.apply(Bid(s, b))
        return
    seat = game.turn
    if policies[seat] == "random":
        legal = game.legal_actions()
        game.apply(legal[int(src.next() * len(legal))])
    else:
        game.apply(Roll(seat, greedy.roll(game.observe(seat))))


def engine_games(uniforms: np.ndarray, games: int, seats: int, rules: Rules,
                 policies: Sequence[str]) -> tuple[list[Game], int]:
    src = StreamChance(uniforms.tolist())
    greedy = GreedyBot()
    out = []
    for _ in range(games):
        game = Game(seats, rules=rules, chance=src)
        while not game.over:
            engine_step(game, src, policies, greedy)
        out.append(game)
    return out, src.pos


def assert_same_games(result: SimResult, games: list[Game]) -> None:
    for g, game in enumerate(games):
        for h, hand in enumerate(game.log):
            winners = [t.winner for t in hand.tricks]
            assert winners == result.winners[g, h, : len(winners)].tolist(), (g, h)
            assert list(hand.bids) == result.bids[g, h].tolist(), (g, h)
            assert list(hand.scores) == result.scores[g, h].tolist(), (g, h)
            assert hand.won == result.won[g, h].tolist(), (g, h)
        assert game.totals == result.totals[g].tolist(), g


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    warmup()


# --- the rule kernels one by one ------------------------------------------------------------


@pytest.mark.parametrize("rules", SPECIAL_RULES, ids=lambda r: f"{r.all_specials}-{r.all_flags}")
def test_trick_winner_and_bonus_match_rules(rules: Rules) -> None:
    enc = K.encode_rules(rules)
    combos = list(itertools.product(FACES, repeat=3))
    rng = random.Random(1)
    combos += [tuple(rng.choice(FACES) for _ in range(n)) for n in (4, 5, 6) for _ in range(1500)]
    combos += [(f,) for f in FACES]
    for faces in combos:
        arr = np.array([f.index for f in faces], dtype=np.int64)
        w = R.trick_winner(faces, rules)
        assert K.trick_winner(arr, len(faces), enc[1], enc[2]) == w, faces
        assert K.trick_bonus(arr, len(faces), w) == R.trick_bonus(faces, w), faces


def test_hand_score_matches_rules() -> None:
    for scoring in ("standard", "landlubber"):
        rules = Rules(scoring=scoring)
        for dice in range(1, 9):
            for bid, won in itertools.product(range(dice + 1), repeat=2):
                for bonus in (0, 30, 50, 60, 80, 110, 170):
                    expected = R.hand_score(bid, won, dice, bonus, rules)
                    assert K.hand_score(bid, won, dice, bonus, scoring == "landlubber") == expected


def test_legal_mask_matches_rules() -> None:
    for mask in range(1, 128):
        held = [d for d in Die if mask >> d.index & 1]
        for lead in (None, Die.RED, Die.YELLOW, Die.PURPLE, Die.GRAY):
            legal = K.legal_mask(mask, -1 if lead is None else lead.index)
            assert [d for d in Die if legal >> d.index & 1] == R.legal_dice(held, lead)


# --- whole games: the same stream through both --------------------------------------------------


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_random_games_match_engine_all_rules(seats: int, all_rules) -> None:
    rng = np.random.default_rng(seats)
    games = 3
    for rules in all_rules:
        uniforms = rng.random(stream_size(games, seats))
        result, used = simulate_from_stream(uniforms, games, seats, rules)
        played, pos = engine_games(uniforms, games, seats, rules, ["random"] * seats)
        assert used == pos
        assert_same_games(result, played)


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_greedy_and_random_seats_match_engine(seats: int) -> None:
    """Greedy seats (GreedyBot on the engine side) mixed with random ones."""
    rng = np.random.default_rng(100 + seats)
    policies = ["greedy" if s % 2 == 0 else "random" for s in range(seats)]
    for rules in (Rules(), Rules(scoring="landlubber", all_specials="griffin", all_flags="last",
                                 hand_start="last_winner")):
        uniforms = rng.random(stream_size(2, seats))
        result, used = simulate_from_stream(uniforms, 2, seats, rules, policy=policies)
        played, pos = engine_games(uniforms, 2, seats, rules, policies)
        assert used == pos
        assert_same_games(result, played)


def test_first_start_and_detail_shapes() -> None:
    rng = np.random.default_rng(7)
    uniforms = rng.random(stream_size(2, 5))
    result, _ = simulate_from_stream(uniforms, 2, 5, Rules(), first_start=3)
    src = StreamChance(uniforms.tolist())
    for g in range(2):
        game = Game(5, chance=src, first_start=3)
        while not game.over:
            engine_step(game, src, ["random"] * 5, GreedyBot())
        assert game.totals == result.totals[g].tolist()
        assert [h.start for h in game.log] == [(3 + i) % 5 for i in range(7)]
    assert result.winners.shape == (2, 7, 7)
    assert (result.winners[:, 0, 1:] == -1).all()


def test_simulate_is_seeded_and_sane() -> None:
    a = simulate(300, 4, seed=5)
    b = simulate(300, 4, seed=5)
    assert (a.totals == b.totals).all()
    assert not (a.totals == simulate(300, 4, seed=6).totals).all()
    d = simulate(300, 4, seed=5, detail=True)
    assert (d.totals == a.totals).all()
    assert (d.scores.sum(axis=1) == d.totals).all()
    assert (d.won.sum(axis=2) == np.arange(1, 9)).all()
    assert (d.bids <= np.arange(1, 9)[None, :, None]).all()
    assert d.win_shares().sum() == pytest.approx(300)


def test_simulate_statistics_match_engine() -> None:
    """Random 4-seat games with the generator (not a stream): mean totals as the engine's."""
    sim = simulate(20_000, 4, seed=11).totals
    rng = random.Random(3)
    engine = []
    for g in range(600):
        game = Game(4, seed=g)
        while not game.over:
            game.apply(rng.choice(game.legal_actions()))
        engine.append(game.totals)
    eng = np.array(engine)
    # Seats are exchangeable apart from the start seat: compare the mean per seat and overall.
    se = np.sqrt(eng.var(axis=0) / len(eng) + sim.var(axis=0) / len(sim))
    assert (np.abs(eng.mean(axis=0) - sim.mean(axis=0)) < 4.5 * se).all()


def test_greedy_beats_random() -> None:
    result = simulate(3000, 4, seed=2, policy=["greedy", "random", "greedy", "random"])
    means = result.mean_totals()
    assert means[0] > means[1] + 50 and means[2] > means[3] + 50


# --- finish_hand ------------------------------------------------------------------------------


def mid_hand_states(count: int, seed: int) -> list[Game]:
    """Seeded random games stopped at a random bid or roll, with varied seats and rules."""
    rng = random.Random(seed)
    from itertools import product

    tables = [Rules(*c) for c in product(*(v for v, _ in R.RULE_OPTIONS.values()))]
    out = []
    while len(out) < count:
        seats = rng.choice([3, 4, 5, 6])
        game = Game(seats, seed=rng.random(), rules=rng.choice(tables))
        stop = rng.randrange(400)
        steps = 0
        while not game.over and steps < stop:
            game.apply(rng.choice(game.legal_actions()))
            steps += 1
        if game.phase is Phase.BID and rng.random() < 0.5:
            # Part of the bids in (a determinization keeps only the seat's own).
            for s in range(seats):
                if game.phase is Phase.BID and game.log[-1].bids[s] is None and rng.random() < 0.5:
                    game.apply(Bid(s, rng.randrange(game.hand + 1)))
        if game.phase in (Phase.BID, Phase.ROLL):
            out.append(game)
    return out


def engine_finish(game: Game, uniforms: np.ndarray, plays: int, policies: Sequence[str],
                  bids: Sequence[int | None] | None = None) -> tuple[list[tuple[int, ...]], list[list[int]]]:
    """`plays` playouts of the current hand through the engine, all from one stream."""
    src = StreamChance(uniforms.tolist(), deal_from_stream=False)
    greedy = GreedyBot()
    scores, won = [], []
    for _ in range(plays):
        twin = game.clone(chance=src)
        hand: HandLog = twin.log[-1]
        if bids is not None:
            for s, b in enumerate(bids):
                if b is not None and hand.bids[s] is None:
                    twin.apply(Bid(s, b))
        # Greedy seats choose their missing bids before random ones draw (the kernel does so too).
        if twin.phase is Phase.BID:
            fixed = {s: greedy.bid(twin.observe(s)) for s in range(twin.seats)
                     if hand.bids[s] is None and policies[s] == "greedy"}
            for s in range(twin.seats):
                if hand.bids[s] is None:
                    b = fixed[s] if s in fixed else int(src.next() * (twin.hand + 1))
                    twin.apply(Bid(s, b))
        while hand.scores is None:
            engine_step(twin, src, policies, greedy)
        scores.append(hand.scores)
        won.append(hand.won)
    return scores, won


def test_finish_hand_matches_engine_exactly() -> None:
    rng = np.random.default_rng(1)
    for i, game in enumerate(mid_hand_states(60, seed=4)):
        seats = game.seats
        policies = ["random"] * seats if i % 3 else ["greedy", "random"] * 3
        policies = policies[:seats]
        bids = None
        if i % 4 == 1 and game.phase is Phase.BID:
            bids = [None] * seats
            bids[0] = game.hand
        uniforms = rng.random(600)
        scores, won = finish_hand_tricks(game, 5, seed=0, bids=bids, policy=policies, uniforms=uniforms)
        exp_scores, exp_won = engine_finish(game, uniforms, 5, policies, bids)
        assert scores.tolist() == [list(s) for s in exp_scores], i
        assert won.tolist() == exp_won, i


def test_finish_hand_distribution_matches_engine() -> None:
    """With the generator (not a stream): random-policy hand scores agree statistically."""
    for j, game in enumerate(mid_hand_states(4, seed=9)):
        sim = finish_hand(game, 4000, seed=j, policy="random").astype(float)
        rng = random.Random(j)
        eng = []
        for _ in range(800):
            twin = game.clone(chance=StreamChance([rng.random() for _ in range(700)],
                                                  deal_from_stream=False))
            src = twin.chance
            hand = twin.log[-1]
            while hand.scores is None:
                engine_step(twin, src, ["random"] * game.seats, GreedyBot())
            eng.append(hand.scores)
        e = np.array(eng, dtype=float)
        se = np.sqrt(e.var(axis=0) / len(e) + sim.var(axis=0) / len(sim)) + 1e-9
        assert (np.abs(e.mean(axis=0) - sim.mean(axis=0)) < 4.5 * se).all(), j


def test_finish_hand_from_determinization_and_bids() -> None:
    game = Game(4, seed=12)
    det = game.determinize(2, random.Random(1))
    scores = finish_hand(det, 500, seed=1)
    assert scores.shape == (500, 4)
    assert (finish_hand(det, 500, seed=1) == scores).all()
    # A forced bid of 0 for seat 2: scores are then ±10 × n only.
    forced = finish_hand(det, 200, seed=1, bids=[None, None, 0, None], policy="random")
    assert set(forced[:, 2].tolist()) <= {10, -10}
    with pytest.raises(ValueError):
        finish_hand(det, 10, seed=1, bids=[0, 0])
    with pytest.raises(ValueError):
        finish_hand(det, 10, seed=1, policy="clever")


def test_playout_values_and_policy_choices_agree_with_greedy_bot() -> None:
    bot = GreedyBot()
    agree = total = 0
    for game in mid_hand_states(150, seed=21):
        if game.phase is Phase.ROLL:
            view = game.observe(game.turn)
            total += 1
            agree += policy_roll(game) is bot.roll(view)
            legal = [a.die for a in game.legal_actions()]
            values = playout_values(game, game.turn, legal, 50, seed=3)
            assert values.shape == (len(legal),)
        else:
            seat = game.to_act()[0]
            total += 1
            agree += policy_bid(game, seat) == bot.bid(game.observe(seat))
            values = playout_values(game, seat, list(range(game.hand + 1)), 50, seed=3)
            assert values.shape == (game.hand + 1,)
    # The same decisions (float rounding could split a rare tie between equally good dice).
    assert agree >= 0.99 * total


def test_encode_refuses_other_phases() -> None:
    game = Game(3, seed=1)
    while not game.over:
        game.apply(game.legal_actions()[0])
    with pytest.raises(ValueError):
        encode(game)


def test_hand_start_state_is_the_encoded_start_of_a_hand() -> None:
    """The advisor's state (`hand_start_state`) and a game's (`encode`) share one layout."""
    for seats, seed in itertools.product(range(3, 7), range(3)):
        game = Game(seats, seed=seed)
        for _ in range(seed * 2 * seats):  # into a later hand, still bidding
            game.apply(game.legal_actions()[0])
        while game.phase is not Phase.BID:
            game.apply(game.legal_actions()[0])
        known = {s: game.held(s) for s in range(seats) if s != seed % seats}
        state, slots = hand_start_state(seats, game.hand, known, start=game.log[-1].start)
        state[slots] = [d.index for d in game.held(seed % seats)]
        assert state.tolist() == encode(game).tolist()
    with pytest.raises(ValueError, match="holds 1 dice, not 2"):
        hand_start_state(3, 2, {0: [Die.RED]})


def test_short_streams_are_refused() -> None:
    game = Game(4, seed=3)
    with pytest.raises(ValueError):
        finish_hand(game, 10, seed=0, uniforms=np.full(20, 0.5))
    with pytest.raises(ValueError):
        simulate_from_stream(np.full(100, 0.5), 1, 4)


@pytest.mark.parametrize("module", ["minodice.sim.playout", "minodice.sim.batch", "minodice.analysis.strength"])
def test_doctests(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module), verbose=False)
    assert result.failed == 0


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_seat_objective_of_the_lead_is_zero_sum(seats: int) -> None:
    """Each seat's lead over the others' mean sums to 0 over the seats; rivals=0 is the seat's own score,
    and `playout_values` scores its candidates by the same objective as `finish_hand`'s rows."""
    game = Game(seats, seed=f"objective-{seats}")
    scores = finish_hand(game, 300, 5)
    leads = np.stack([seat_objective(scores, s, 1.0) for s in range(seats)], axis=1)
    assert np.allclose(leads.sum(axis=1), 0)
    assert (seat_objective(scores, 1) == scores[:, 1]).all()
    half = seat_objective(scores, 0, 0.5)
    assert np.allclose(half, scores[:, 0] - 0.5 * (scores[:, 1:].sum(axis=1) / (seats - 1)))
    for b in range(game.hand + 1):
        over: list[int | None] = [None] * seats
        over[0] = b
        expect = seat_objective(finish_hand(game, 200, 9, bids=over), 0, 1.0).mean()
        assert playout_values(game, 0, [b], 200, 9, rivals=1.0)[0] == pytest.approx(expect)
