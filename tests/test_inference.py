"""Inference of hidden dice from bids and rolls (`bots.inference`): the model and the sampler."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minodice import rules as R
from minodice.bots import make_bot
from minodice.bots.inference import (
    Evidence,
    PosteriorSampler,
    Trust,
    bid_surprise,
    dice_key,
    heuristic_bid,
    heuristic_bid_values,
    trust,
)
from minodice.bots.network import PolicyRolls, PolicyValueNet, load_network, masked_log_softmax, view_features
from minodice.bots.neural import NeuralBot
from minodice.dice import BAG, Die
from minodice.encoding import action_mask, roll_action
from minodice.game import Bid, Game, Phase, Roll
from minodice.rules import Rules
from minodice.view import View

GREEDY = make_bot("greedy")


def greedy_positions(seed: object, seats: int = 4, *, min_hand: int = 1):
    """Every position of a greedy-only game where seat 0 has a choice of dice (the game, its view)."""
    game = Game(seats, seed=seed)
    while not game.over:
        if game.phase is Phase.BID:
            for s in game.to_act():
                game.apply(Bid(s, GREEDY.bid(game.observe(s))))
            continue
        v = game.observe(game.turn)
        if game.turn == 0 and len(v.legal or ()) > 1 and game.hand >= min_hand:
            yield game, v
        game.apply(Roll(game.turn, GREEDY.roll(v)))


def test_true_dice_explain_greedy_players_exactly() -> None:
    checked = 0
    for game, v in greedy_positions("truth"):
        assert Evidence(v, 1.0).misses(game) == 0
        checked += 1
    assert checked >= 10
    assert heuristic_bid((Die.PURPLE,), 4, Rules()) == 0
    assert heuristic_bid(dice_key([Die.MINOTAUR, Die.GRIFFIN, Die.GRIFFIN]), 4, Rules()) >= 2


def test_deals_are_consistent_with_the_view() -> None:
    for n, (game, v) in enumerate(greedy_positions("consistent", min_hand=3)):
        sampler = PosteriorSampler(v, 2.0, random.Random(n), {})
        seen = Counter(v.dice) + Counter(r.die for t in v.tricks for r in t.rolls)
        for det in sampler.games(5):
            assert det.held(0) == game.held(0) and det.log[-1].bids == game.log[-1].bids
            hidden = Counter(d for s in range(1, 4) for d in det.held(s))
            assert not hidden - (Counter(BAG) - seen)  # only unseen dice
            for s in range(1, 4):
                assert len(det.held(s)) == len(game.held(s))
                assert not set(det.held(s)) & sampler.voids[s]  # no colour the seat showed it lacks
            assert det.phase is Phase.ROLL and det.turn == 0
        if n > 12:
            break


def test_the_evidence_pulls_deals_towards_the_truth() -> None:
    uniform_misses = weighted_misses = uniform_overlap = weighted_overlap = 0.0
    for positions, (game, v) in enumerate(greedy_positions("towards", min_hand=4)):
        if positions == 12:
            break
        evidence = Evidence(v, 1.0)
        for infer, draws in ((0.0, "u"), (2.0, "w")):
            dets = PosteriorSampler(v, infer, random.Random(positions), {}).games(30)
            misses = sum(evidence.misses(d) for d in dets) / len(dets)
            overlap = sum(
                sum((Counter(d.held(s)) & Counter(game.held(s))).total() for s in range(1, 4)) for d in dets
            ) / len(dets)
            if draws == "u":
                uniform_misses += misses
                uniform_overlap += overlap
            else:
                weighted_misses += misses
                weighted_overlap += overlap
    assert weighted_misses < 0.5 * uniform_misses
    assert weighted_overlap > uniform_overlap


def _exact_posterior(v, evidence: Evidence, sampler: PosteriorSampler) -> dict:
    """The exact distribution of seat 1's hidden dice (as a multiset), by enumerating every deal."""
    pool = Counter(sampler.pool)
    kinds = sorted(pool, key=lambda d: d.index)
    seats = sorted(sampler.need)
    out: Counter = Counter()

    def multisets(counts: Counter, k: int):
        for combo in itertools.combinations_with_replacement(kinds, k):
            c = Counter(combo)
            if all(c[d] <= counts[d] for d in c):
                yield combo, c

    def ways(counts: Counter, c: Counter) -> int:
        return math.prod(math.comb(counts[d], c[d]) for d in c)

    first, second = seats
    for combo1, c1 in multisets(pool, sampler.need[first]):
        if set(combo1) & sampler.voids[first]:
            continue
        rest = pool - c1
        for combo2, c2 in multisets(rest, sampler.need[second]):
            if set(combo2) & sampler.voids[second]:
                continue
            energy = evidence.seat_energy(first, list(combo1)) + evidence.seat_energy(second, list(combo2))
            out[combo1] += ways(pool, c1) * ways(rest, c2) * math.exp(-energy)
    total = sum(out.values())
    return {k: w / total for k, w in out.items()}


#: The shipped 3-seat network as a roll model (as `roll_net=FILE` makes one).
NET_ROLLS = PolicyRolls("shipped-3", load_network(seats=3))


def full_surprise(model: PolicyRolls, view: View, die: Die) -> float:
    """A roll's surprise computed from scratch: the whole network input of the view, then its policy."""
    logits, _ = model.net.forward(view_features(view))
    return -float(masked_log_softmax(logits, action_mask(view).astype(bool)[None, :])[0, roll_action(die)])


@pytest.mark.parametrize(("seed", "infer"), [("exact-1", 1.5), ("exact-2", 1.5), ("exact-1", Trust(1.0, 0.3, 0.5)),
                                             ("exact-1", Trust(1.0, 0.5, 0.5, NET_ROLLS))])
def test_the_chain_samples_the_exact_posterior(seed: str, infer: float | Trust) -> None:
    # Three seats, hand 2, seat 0 rolling second or third: small enough to enumerate every deal.
    game = Game(3, seed=seed)
    while not (game.hand == 2 and game.phase is Phase.ROLL and game.turn == 0 and game.current.tricks[-1].rolls):
        if game.phase is Phase.BID:
            for s in game.to_act():
                game.apply(Bid(s, GREEDY.bid(game.observe(s))))
        else:
            game.apply(Roll(game.turn, GREEDY.roll(game.observe(game.turn))))
    v = game.observe(0)
    sampler = PosteriorSampler(v, infer, random.Random(7), {}, thin=4)
    exact = _exact_posterior(v, Evidence(v, infer, {}), sampler)
    draws = Counter(dice_key(d[min(sampler.need)]) for d in sampler.deals(4000))
    n = sum(draws.values())
    tv = 0.5 * sum(abs(draws.get(k, 0) / n - p) for k, p in exact.items())
    assert tv < 0.06, tv
    # And it is not the uniform distribution: the evidence changed it.
    uniform = _exact_posterior(v, Evidence(v, 0.0, {}), sampler)
    assert 0.5 * sum(abs(uniform.get(k, 0) - p) for k, p in exact.items()) > 0.05


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), infer=st.sampled_from([0.0, 0.5, 1.0, 3.0]), seats=st.integers(3, 6))
def test_any_position_gives_legal_deals(seed: int, infer: float, seats: int) -> None:
    rng = random.Random(seed)
    game = Game(seats, seed=seed)
    players = [make_bot("random", seed=seed + s) for s in range(seats)]
    target = rng.randrange(40, 200)
    steps = 0
    while not game.over and steps < target:
        if game.phase is Phase.BID:
            for s in game.to_act():
                game.apply(Bid(s, players[s].bid(game.observe(s))))
        else:
            game.apply(Roll(game.turn, players[game.turn].roll(game.observe(game.turn))))
        steps += 1
    if game.over:
        return
    me = game.turn if game.phase is Phase.ROLL else 0
    v = game.observe(me)
    for det in PosteriorSampler(v, infer, rng, {}).games(3):
        assert det.observe(me) == v  # the determinization shows this seat exactly what it saw
        for s in range(seats):
            if s != me:
                assert len(det.held(s)) == len(game.held(s))


def test_a_boltzmann_bidder_gives_every_bid_a_probability_and_the_best_bid_the_most() -> None:
    rules = Rules()
    dice = dice_key([Die.MINOTAUR, Die.GRIFFIN, Die.PURPLE])
    values = heuristic_bid_values(dice, 4, rules)
    for beta in (0.1, 0.5, 2.0):
        probs = [math.exp(-bid_surprise(dice, b, beta, 4, rules)) for b in range(len(values))]
        assert sum(probs) == pytest.approx(1.0)
        assert max(range(len(probs)), key=probs.__getitem__) == heuristic_bid(dice, 4, rules)
    # Sure bidders are surprised by anything but the best bid; careless ones by nothing much.
    assert bid_surprise(dice, heuristic_bid(dice, 4, rules), 50.0, 4, rules) < 1e-6
    assert max(bid_surprise(dice, b, 1e-6, 4, rules) for b in range(len(values))) == pytest.approx(math.log(4), 1e-3)


def test_trust_weighs_bids_and_rolls_apart() -> None:
    assert trust(1.0) == 1.0 and Trust.of(2.0) == Trust(2.0, 2.0, 0.0)
    assert trust(2.0, 0.0) == Trust(2.0, 0.0, 0.0) and not Trust(0.0, 0.0).active
    checked = 0
    for game, v in greedy_positions("apart", min_hand=4):
        if not any(r.seat != 0 for t in v.tricks for r in t.rolls):
            continue
        for s in range(1, 4):
            held = list(game.held(s))
            rng = random.Random(s)
            others = [d for d in BAG if d not in held]
            wrong = [rng.choice(others) for _ in held]
            full = Evidence(v, 1.0, {})
            bids_only = Evidence(v, Trust(1.0, 0.0), {})
            rolls_only = Evidence(v, Trust(0.0, 1.0), {})
            assert bids_only.seat_energy(s, wrong) + rolls_only.seat_energy(s, wrong) == full.seat_energy(s, wrong)
            assert full.seat_energy(s, held) == 0.0  # greedy players: the truth explains everything
            checked += 1
        if checked > 30:
            break
    assert checked > 30


def test_the_searching_bots_take_the_evidence_options() -> None:
    bot = make_bot("montecarlo:roll_infer=0,bid_beta=0.5", seed=1)
    assert bot.evidence == Trust(1.0, 0.0, 0.5) and bot.describe() == "montecarlo:roll_infer=0,bid_beta=0.5"
    assert make_bot("ismcts:infer=2,roll_infer=0.5", seed=1).evidence == Trust(2.0, 0.5, 0.0)
    assert make_bot("neural+search:bid_beta=1", seed=1).evidence == Trust(1.0, 1.0, 1.0)
    assert make_bot("montecarlo", seed=1).evidence == 1.0  # the classic model, unchanged
    for bad, says in (("montecarlo:bid_beta=0", "bid_beta must be positive"),
                      ("montecarlo:roll_infer=-1", "roll_infer must be 0 or more"),
                      ("ismcts:bid_beta=nan", "bid_beta must be a finite number"),
                      ("neural+search:roll_infer=x", "roll_infer must be a number"),
                      ("oracle:roll_infer=1", "no option 'roll_infer'")):
        with pytest.raises(ValueError, match=says):
            make_bot(bad)


def test_a_network_roll_model_scores_a_roll_by_minus_its_log_probability() -> None:
    bot, checked = NeuralBot(), 0
    for _game, v in greedy_positions("net-rolls", seats=3, min_hand=3):
        surprise = {d: NET_ROLLS.surprise(v, d) for d in set(v.legal_dice)}
        assert sum(math.exp(-x) for x in surprise.values()) == pytest.approx(1.0, abs=1e-5)
        assert min(surprise, key=surprise.__getitem__) is bot.roll(v)  # the likeliest is what `neural` rolls
        checked += 1
    assert checked > 10


def test_a_prepared_position_gives_the_surprise_of_the_whole_input_exactly() -> None:
    # `PolicyRolls.at` builds a position's input once and fills in only the dice: the same floats.
    checked = 0
    for game, v in greedy_positions("net-at", min_hand=3):
        position = replace(v, dice=(), legal=None)
        at = NET_ROLLS.at(position)
        for s in range(4):
            held = game.held(s)
            for lead in (None, *dict.fromkeys(held)):
                legal = tuple(R.legal_dice(held, lead))
                for die in legal:
                    assert at(tuple(held), legal, die) == full_surprise(
                        NET_ROLLS, replace(position, dice=tuple(held), legal=legal), die)
                    checked += 1
        if checked > 200:
            break
    assert checked > 200


def test_with_a_roll_model_a_roll_weighs_its_surprise_not_a_miss() -> None:
    checked, surprised = 0, 0
    for game, v in greedy_positions("net-evidence", min_hand=4):
        for s in range(1, 4):
            held = list(game.held(s))
            rolls_only = Evidence(v, Trust(0.0, 0.5, 0.0, NET_ROLLS), {})
            # By hand: each earlier roll of seat s, with the dice it held then, under the network.
            by_hand = 0.0
            for _index, die, lead, prefix, after in rolls_only.events[s]:
                holding = dice_key((*held, *after))
                legal = tuple(R.legal_dice(holding, lead))
                if len(legal) > 1:
                    by_hand += full_surprise(NET_ROLLS, replace(prefix, dice=holding, legal=legal), die)
            assert rolls_only.seat_energy(s, held) == pytest.approx(0.5 * by_hand)
            checked += 1
            surprised += by_hand > 0
        if checked > 30:
            break
    assert checked > 30 and surprised > 10


def test_roll_net_names_the_network_file(tmp_path) -> None:
    path = tmp_path / "net.npz"
    PolicyValueNet.initial(np.random.default_rng(3), hidden=(8, 8)).save(path)
    spec = f"montecarlo:roll_infer=0.5,roll_net={path}"
    bot = make_bot(spec, seed=1)
    assert bot.describe() == spec
    assert bot.evidence == Trust(1.0, 0.5, 0.0, bot.evidence.roll_model)
    assert isinstance(bot.evidence.roll_model, PolicyRolls) and bot.evidence.roll_model.path == str(path)
    assert make_bot(f"ismcts:roll_net={path}", seed=1).evidence.roll_model.path == str(path)
    assert make_bot(f"neural+search:roll_net={path}", seed=1).evidence.rolls == 1.0
    (tmp_path / "junk.npz").write_text("not a network")
    (tmp_path / "empty.npz").write_bytes(b"")
    for bad, says in ((f"montecarlo:roll_net={tmp_path / 'none.npz'}", "no network file at"),
                      (f"ismcts:roll_net={tmp_path / 'junk.npz'}", "not a minodice network file"),
                      (f"montecarlo:roll_net={tmp_path / 'empty.npz'}", "not a minodice network file"),
                      ("montecarlo:roll_net=" + "x" * 5000, r"network file 'x+… \(5,000 characters\)"),
                      (f"montecarlo:roll_net={tmp_path}", "cannot read the network file"),
                      ("montecarlo:roll_net=", "must name a network file"),
                      (f"oracle:roll_net={path}", "no option 'roll_net'")):
        with pytest.raises(ValueError, match=says):
            make_bot(bad)


def test_no_bot_spec_may_ask_for_a_budget_that_would_stall_a_game() -> None:
    from minodice.bots.defaults import MAX_BUDGET_COUNT, MAX_BUDGET_SECONDS

    for name in ("montecarlo", "ismcts", "neural+search", "oracle"):
        make_bot(f"{name}:seconds={MAX_BUDGET_SECONDS:g}")  # the ceilings themselves are allowed
        for option in ("sims", "bid_sims", "per"):
            with pytest.raises(ValueError, match=f"option {option} may be at most {MAX_BUDGET_COUNT:,}, not"):
                make_bot(f"{name}:{option}={MAX_BUDGET_COUNT + 1}")
        with pytest.raises(ValueError, match="option seconds may be at most 600, not '1e300'"):
            make_bot(f"{name}:seconds=1e300")
    make_bot(f"montecarlo:sims={MAX_BUDGET_COUNT}")
