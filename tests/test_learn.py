"""The learned bot: its features, its network's gradients, training that learns and repeats, the bot itself."""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from minodice.bots import BotSpecError, make_bot
from minodice.bots.network import (
    FEATURES,
    FEATURES_V1,
    PRIVILEGED,
    VALUE_SCALE,
    PolicyValueNet,
    features,
    greedy_hints,
)
from minodice.bots.neural import NeuralBot, load_network, shipped_weights
from minodice.bots.runner import Match
from minodice.dice import MAX_SEATS, MIN_SEATS
from minodice.encoding import MAX_HANDS, encode, layout, offsets
from minodice.game import Game
from minodice.learn import TrainConfig, Trainer, evaluate_vs_greedy
from minodice.learn.ppo import Batch, gradients
from network_positions import roll_the_network_narrows

SMALL = TrainConfig(seed=3, hidden=(32, 32), selfplay_envs=32, greedy_envs=16, steps=48, minibatch=512)


def _sections(seats: int) -> dict[str, tuple[int, int]]:
    return {name: (offsets(seats)[name], size) for name, size in layout(seats)}


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_features_put_every_seat_in_its_slot_of_the_six_seat_layout(seats: int) -> None:
    game = Game(seats, seed=11)
    rng = random.Random(seats)
    while not (game.hand >= 3 and (trick := game.observe(1).current_trick) is not None and trick.rolls):
        game.apply(rng.choice(game.legal_actions()))  # into hand 3, a trick under way
    src, dst = _sections(seats), _sections(6)
    obs = encode(game.observe(1))
    x = features(obs, seats, greedy_hints(game.observe(1)))[0]
    assert x.shape == (FEATURES,)
    for name in ("won", "trick_face", "trick_die", "leader", "bids", "bid_known", "rolled", "void"):
        (so, size), (do, _) = src[name], dst[name]
        do += FEATURES_V1 - _sections(6)["rolled"][0] if name in ("rolled", "void") else 0  # after the hints
        scale = 1 / MAX_HANDS if name in ("bids", "won", "rolled") else 1
        np.testing.assert_allclose(x[do : do + size], obs[so : so + size] * scale, err_msg=name)
    do, size6 = dst["scores"]
    assert not x[do : do + size6].any(), "the running totals are dropped"
    assert x[FEATURES_V1:].any(), "the test reaches a position with rolls in the recall"


def test_a_first_version_network_reads_the_features_before_the_recall(tmp_path: Path) -> None:
    """A network trained before the recall existed plays as it did: it reads the first FEATURES_V1 inputs."""
    rng = np.random.default_rng(4)
    old = PolicyValueNet.initial(rng, (12,), inputs=FEATURES_V1)
    assert not old.recall and PolicyValueNet.initial(rng, (12,)).recall
    x = rng.random((5, FEATURES), dtype=np.float32)
    logits, value = old.forward(x)
    h = np.maximum(x[:, :FEATURES_V1] @ old.params[0] + old.params[1], 0)
    np.testing.assert_allclose(logits, h @ old.params[2] + old.params[3], rtol=1e-5)
    np.testing.assert_allclose(value, (h @ old.params[4] + old.params[5])[:, 0], rtol=1e-5)
    old.save(tmp_path / "old.npz")
    assert not PolicyValueNet.load(tmp_path / "old.npz").recall
    with pytest.raises(ValueError, match="reads"):
        PolicyValueNet.initial(rng, (12,), inputs=100)


def test_honest_is_exactly_the_network_seeing_zeros_in_its_privileged_inputs() -> None:
    """A network trained with the other seats' dice (the lab's oracle guiding) plays as `honest`: those inputs 0."""
    net = PolicyValueNet.initial(np.random.default_rng(2), (16,), inputs=FEATURES + PRIVILEGED)
    x = np.random.default_rng(3).random((20, FEATURES), dtype=np.float32)
    zeros = np.concatenate([x, np.zeros((20, PRIVILEGED), np.float32)], axis=1)
    for a, b in zip(net.forward(zeros), net.honest().forward(x), strict=True):
        np.testing.assert_array_equal(a, b)
    assert net.honest().width == FEATURES and net.width == FEATURES + PRIVILEGED


def test_a_network_that_reads_the_dice_cannot_be_loaded_to_play(tmp_path: Path) -> None:
    """Only `honest` networks are written; one with privileged inputs, written by hand, is refused at load."""
    peeking = tmp_path / "peeking.npz"
    PolicyValueNet.initial(np.random.default_rng(4), (8,), inputs=FEATURES + PRIVILEGED).save(peeking)
    with pytest.raises(ValueError, match="not a minodice network of this version"):
        load_network(peeking)


def test_features_refuse_an_observation_of_another_size_in_words() -> None:
    """A version-1 observation (29 + 25 * S numbers) is named as such, not met with a broadcasting error."""
    with pytest.raises(ValueError, match=r"173 numbers for 4 seats \(observation version 2\)"):
        features(np.zeros((2, 129), np.float32), 4, np.zeros((2, 16), np.float32))
    with pytest.raises(ValueError, match="16 hints"):
        features(np.zeros((2, 173), np.float32), 4, np.zeros((2, 9), np.float32))


def test_features_hide_who_has_bid_while_bidding() -> None:
    """The engine takes bids at once and the training tables in turn: the network must not tell them apart."""
    game = Game(4, seed=5)
    hints = greedy_hints(game.observe(2))
    a = features(encode(game.observe(2), sequential_bids=True), 4, hints)
    b = features(encode(game.observe(2), sequential_bids=False), 4, hints)
    np.testing.assert_array_equal(a, b)


def _loss(net: PolicyValueNet, batch: Batch, adv: np.ndarray, cfg: TrainConfig) -> float:
    _, stats = gradients(net, batch, adv, cfg)
    return stats["policy_loss"] - cfg.entropy_coef * stats["entropy"] + cfg.value_coef * stats["value_loss"]


@pytest.mark.parametrize("inputs", [FEATURES, FEATURES_V1])
def test_gradients_match_finite_differences(inputs: int) -> None:
    rng = np.random.default_rng(0)
    net = PolicyValueNet.initial(rng, hidden=(6, 5), inputs=inputs)
    net.params = [p.astype(np.float64) + rng.normal(0, 0.3, p.shape) for p in net.params]
    n = 7
    mask = rng.random((n, 16)) < 0.5
    mask[:, 3] = True
    action = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
    batch = Batch(x=rng.normal(size=(n, FEATURES)), mask=mask, action=action,
                  logp=np.log(rng.uniform(0.05, 0.6, n)), value=np.zeros(n), ret=rng.normal(0, VALUE_SCALE, n))
    adv = rng.normal(size=n)
    cfg = dataclasses.replace(TrainConfig(), max_grad_norm=1e9, clip=10.0)  # no clipping: a smooth loss
    grads, _ = gradients(net, batch, adv, cfg)
    eps = 1e-6
    for k in range(len(net.params)):
        p = net.params[k]
        for idx in list(np.ndindex(p.shape))[:: max(1, p.size // 6)]:
            old = p[idx]
            p[idx] = old + eps
            up = _loss(net, batch, adv, cfg)
            p[idx] = old - eps
            down = _loss(net, batch, adv, cfg)
            p[idx] = old
            assert grads[k][idx] == pytest.approx((up - down) / (2 * eps), rel=1e-3, abs=1e-6), (k, idx)


def test_training_is_reproducible_from_its_seed() -> None:
    a, b = Trainer(SMALL), Trainer(SMALL)
    for _ in range(2):
        a.update()
        b.update()
    for p, q in zip(a.net.params, b.net.params):
        np.testing.assert_array_equal(p, q)
    c = Trainer(dataclasses.replace(SMALL, seed=4))
    c.update()
    assert any(not np.array_equal(p, q) for p, q in zip(a.net.params, c.net.params))


def test_a_short_training_run_beats_random_clearly() -> None:
    """Seconds of self-play: from a random-looking policy to a clear lead over random bots (and over itself untrained)."""
    trainer = Trainer(SMALL)
    before = evaluate_vs_greedy(trainer.net, 400, opponent="random", seed=99)
    for _ in trainer.run(updates=40):
        pass
    after = evaluate_vs_greedy(trainer.net, 400, opponent="random", seed=99)
    assert after["lead"] - after["ci95"] > 100, after
    assert after["lead"] - before["lead"] > 100 + after["ci95"] + before["ci95"], (before, after)


@pytest.mark.parametrize("seats", range(MIN_SEATS, MAX_SEATS + 1))
def test_a_network_is_shipped_for_every_table_size_trained_at_that_size(seats: int) -> None:
    """Each size has its own file, trained at that size, and it beats greedy bots clearly there (kernel)."""
    net = load_network(seats=seats)
    assert net.meta["config"]["seats"] == seats
    assert net is not load_network(seats=4 if seats != 4 else 5)
    result = evaluate_vs_greedy(net, 600, seats=seats, seed=4242)
    assert result["lead"] - result["ci95"] > 5, result


def test_the_neural_bot_plays_the_network_of_its_table_size(tmp_path: Path) -> None:
    bot = NeuralBot()
    for seats in range(MIN_SEATS, MAX_SEATS + 1):
        assert bot.network(seats) is load_network(seats=seats)
    path = tmp_path / "net.npz"
    Trainer(SMALL).net.save(path)
    own = NeuralBot(weights=str(path))
    assert own.network(3) is own.network(6) is load_network(path)  # a file given plays at every size
    with pytest.raises(ValueError, match="3 to 6"):
        shipped_weights(7)


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_the_shipped_network_plays_whole_games_at_every_table_size(seats: int) -> None:
    game = Game(seats, seed=seats)
    bots = {s: make_bot("neural" if s % 2 == 0 else "greedy", seed=s) for s in range(seats)}
    match = Match(game, bots)
    match.play()
    assert game.over
    assert not any(match.stats[s].faults for s in range(seats))


def test_neural_bot_is_deterministic_and_sees_only_its_view() -> None:
    game = Game(4, seed=21)
    view = game.observe(0)
    assert NeuralBot().bid(view) == NeuralBot().bid(view)
    # Another seat's dice are not in seat 0's view, so they cannot change its choice.
    assert encode(view).tobytes() == encode(game.observe(0)).tobytes()


def test_weights_option_and_bad_files(tmp_path: Path) -> None:
    trainer = Trainer(SMALL)
    path = tmp_path / "net.npz"
    trainer.net.save(path)
    bot = make_bot(f"neural:weights={path}")
    assert bot.describe() == f"neural:weights={path}"
    with pytest.raises(ValueError, match="no network file"):
        load_network(tmp_path / "missing.npz")
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a network")
    with pytest.raises(ValueError, match="not a minodice network"):
        load_network(junk)
    huge = tmp_path / "huge.npz"
    with huge.open("wb") as f:
        f.truncate(65 << 20)  # sparse: no disk used
    with pytest.raises(ValueError, match="larger than 64 MB"):
        load_network(huge)


def test_train_command(tmp_path: Path) -> None:
    out = tmp_path / "n.npz"
    run = subprocess.run([sys.executable, "-m", "minodice.cli", "train", "--updates", "1", "--every", "1", "--out", str(out),
                          "--checkpoints", str(tmp_path / "ck")], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "lead over greedy" in run.stdout
    assert load_network(out).meta["updates"] == 1
    assert (tmp_path / "ck" / "log.jsonl").read_text().count("\n") == 1
    for args, message in ((["--updates", "1", "--minutes", "1"], "--updates"), ([], "--updates"),
                          (["--updates", "1", "--from", str(tmp_path / "none.npz")], "no network file"),
                          (["--updates", "1", "--checkpoints", "/proc/no-such-dir"], "cannot make the folder"),
                          (["--updates", "1", "--hidden", "256;256"], "widths separated by commas"),
                          (["--updates", "1", "--hidden", "4096"], "8 to 1024 units"),
                          (["--updates", "1", "--hidden", "64", "--from", str(out)], "--hidden shapes a new network"),
                          (["--updates", "1", "--tables", "8,4,8"], "give two whole numbers"),
                          # the experiments' flags are the lab's (`python -m research.lab train`, research/tests)
                          (["--updates", "1", "--against", str(out)], "minodice train: no such option: --against"),
                          (["--updates", "1", "--guide", "1"], "minodice train: no such option: --guide"),
                          (["--updates", "1", "--no-recall"], "minodice train: no such option: --no-recall")):
        bad = subprocess.run([sys.executable, "-m", "minodice.cli", "train", "--out", str(out), *args],
                             capture_output=True, text=True, timeout=120)
        assert bad.returncode == 2 and message in bad.stderr, bad.stderr


def test_hidden_shapes_the_new_network_and_the_bot_plays_it(tmp_path: Path) -> None:
    """`--hidden 24,16`: a network of those widths, which `neural:weights=` loads and plays."""
    out = tmp_path / "narrow.npz"
    run = subprocess.run([sys.executable, "-m", "minodice.cli", "train", "--updates", "1", "--hidden", "24,16",
                          "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    net = load_network(out)
    assert net.meta["hidden"] == [24, 16] and net.layers == 2 and not net.recall  # the shipped networks' inputs
    game = Game(4, seed=3)
    view = game.observe(game.to_act()[0])
    assert make_bot(f"neural:weights={out}").bid(view) in (view.legal or ())


def test_neural_search_searches_only_the_moves_the_network_finds_plausible() -> None:
    from minodice.bots.neural import NeuralSearchBot

    game = Game(4, seed=8)
    view = game.observe(0)
    pruned = NeuralSearchBot(random.Random(1), prior=0.1, bid_sims=64, sims=32)
    allowed = set(pruned.plausible(view).legal or ())
    assert 1 <= len(allowed) < len(view.legal or ())
    choice = pruned.bid(view)
    assert choice in allowed
    expl = pruned.last_explanation
    assert expl is not None and {c.choice for c in expl.choices} == allowed
    everything = NeuralSearchBot(random.Random(1), prior=0.0, bid_sims=64, sims=32)
    everything.bid(view)
    assert everything.last_explanation is not None
    assert [c.choice for c in everything.last_explanation.choices] == list(view.legal or ())
    with pytest.raises(BotSpecError, match="prior"):
        make_bot("neural+search:prior=2")


@pytest.mark.parametrize("guide", ["both", "bids", "rolls"])
def test_neural_search_guide_chooses_the_decisions_the_network_narrows(guide: str) -> None:
    from minodice.bots.neural import NeuralSearchBot

    bot = make_bot(f"neural+search:guide={guide},bid_sims=64,sims=32", seed=1)
    assert isinstance(bot, NeuralSearchBot) and f"guide={guide}" in bot.describe()
    assert make_bot(bot.describe()).describe() == bot.describe()  # the spec it shows makes the same bot
    bid_view = Game(4, seed=8).observe(0)
    bot.bid(bid_view)
    assert bot.last_explanation is not None
    searched_bids = {c.choice for c in bot.last_explanation.choices}
    narrowed_bids = set(bot.plausible(bid_view).legal or ())
    assert searched_bids == (set(bid_view.legal_bids) if guide == "rolls" else narrowed_bids)
    game, allowed = roll_the_network_narrows()
    view = game.observe(0)
    bot.roll(view)
    assert bot.last_explanation is not None
    searched_dice = [c.choice for c in bot.last_explanation.choices]
    if guide == "bids":
        assert searched_dice == list(view.legal_dice)
    else:
        assert set(searched_dice) <= set(allowed) and len(searched_dice) >= 1
    with pytest.raises(BotSpecError, match="guide must be both, bids or rolls, not 'all'"):
        make_bot("neural+search:guide=all")


@pytest.mark.parametrize("policy", ["network", "network-all", "value"])
def test_neural_search_can_play_its_playouts_with_its_network(policy: str) -> None:
    """policy=network…: the same narrowing, the moves estimated by playouts in the vector simulator."""
    from minodice.bots.defaults import DEFAULT_NETWORK_PER, DEFAULT_NETWORK_SIMS
    from minodice.bots.neural import NeuralSearchBot

    bot = make_bot(f"neural+search:policy={policy},prior=0,sims=32,bid_sims=32", seed=2)
    assert isinstance(bot, NeuralSearchBot) and f"policy={policy}" in bot.describe()
    assert make_bot(bot.describe()).describe() == bot.describe()
    assert (bot.per, bot.bid_per) == (DEFAULT_NETWORK_PER, DEFAULT_NETWORK_PER)
    assert make_bot(f"neural+search:policy={policy}").sims == DEFAULT_NETWORK_SIMS  # type: ignore[attr-defined]
    bid_view = Game(4, seed=8).observe(0)
    assert bot.bid(bid_view) in bid_view.legal_bids
    expl = bot.last_explanation
    assert expl is not None and f"policy={policy}" in expl.note
    assert [c.choice for c in expl.choices] == list(bid_view.legal_bids)  # prior 0: every bid searched
    assert all(c.n == 32 for c in expl.choices)  # 8 determinizations of 4 playouts each
    game, _ = roll_the_network_narrows()  # a roll with several legal dice (prior 0 searches them all)
    view = game.observe(0)
    assert bot.roll(view) in view.legal_dice
    assert bot.last_explanation is not None
    assert [c.choice for c in bot.last_explanation.choices] == list(view.legal_dice)
    # The same seed, the same estimates.
    twins = [make_bot(f"neural+search:policy={policy},prior=0,sims=32,bid_sims=32", seed=5) for _ in range(2)]
    for twin in twins:
        twin.bid(bid_view)
    first, second = (t.last_explanation for t in twins)  # type: ignore[attr-defined]
    assert first is not None and second is not None
    assert [c.mean for c in first.choices] == [c.mean for c in second.choices]


def test_neural_search_bid_policy_bids_as_montecarlo_and_rolls_as_the_value_search() -> None:
    """bid_policy judges the bids apart from the rolls: with greedy (and no narrowing of bids) the bids are
    montecarlo's own, playout for playout, while the rolls stay with the value search's network playouts."""
    spec = "neural+search:policy=value,bid_policy=greedy,guide=rolls,prior=0,sims=32,bid_sims=64"
    split, montecarlo = make_bot(spec, seed=5), make_bot("montecarlo:bid_sims=64", seed=5)
    assert make_bot(split.describe()).describe() == split.describe() and "bid_policy=greedy" in split.describe()
    bid_view = Game(4, seed=8).observe(0)
    assert split.bid(bid_view) == montecarlo.bid(bid_view)
    a, b = split.last_explanation, montecarlo.last_explanation
    assert a is not None and b is not None and "greedy playouts" in a.note
    assert [(c.choice, c.mean, c.n) for c in a.choices] == [(c.choice, c.mean, c.n) for c in b.choices]
    game, _ = roll_the_network_narrows()
    view = game.observe(0)
    assert split.roll(view) in view.legal_dice
    assert split.last_explanation is not None and "policy=value" in split.last_explanation.note


def test_neural_search_bid_policy_judges_bids_by_the_network_while_greedy_playouts_judge_rolls() -> None:
    """The other way round: each kind of decision takes its own policy's budget defaults and estimates, and
    bid_policy=policy changes nothing."""
    bot = make_bot("neural+search:bid_policy=value,prior=0", seed=2)
    assert (bot.sims, bot.per, bot.bid_sims, bot.bid_per) == (800, 8, 512, 4)  # montecarlo's; the network's
    bid_view = Game(4, seed=8).observe(0)
    assert bot.bid(bid_view) in bid_view.legal_bids
    assert bot.last_explanation is not None and "policy=value" in bot.last_explanation.note
    assert all(c.n == 512 for c in bot.last_explanation.choices)
    game, _ = roll_the_network_narrows()
    view = game.observe(0)
    assert bot.roll(view) in view.legal_dice
    assert bot.last_explanation is not None and "network" not in bot.last_explanation.note
    assert all(c.n == 800 for c in bot.last_explanation.choices)  # montecarlo's greedy playouts, its budget
    spec = "neural+search:policy=value,prior=0,sims=32,bid_sims=32"
    same, plain = make_bot(f"{spec},bid_policy=value", seed=3), make_bot(spec, seed=3)
    assert same.bid(bid_view) == plain.bid(bid_view) and same.roll(view) == plain.roll(view)
    assert [c.mean for c in same.last_explanation.choices] == [c.mean for c in plain.last_explanation.choices]


def test_network_estimates_count_rivals_only_in_playouts_that_finish_the_hand() -> None:
    """rivals=1 lowers a move's estimate by the other seats' mean hand score (network-all: every seat the
    network, so the same moves and faces whatever rivals is); the value head is refused it in words."""
    from minodice.bots.network_playouts import network_estimates

    game = Game(4, seed=8)
    dets = [game.determinize(0, random.Random(i)) for i in range(4)]
    net = load_network(seats=4)
    own, lead, twice = ([e.mean for e in network_estimates(dets, 0, [0, 1], net, "network-all", 4, random.Random(3),
                                                          rivals=r)] for r in (0.0, 1.0, 2.0))
    assert own != lead
    assert twice == pytest.approx([2 * b - a for a, b in zip(own, lead)])  # minus rivals x the same others' mean
    with pytest.raises(ValueError, match="policy=value ends in the value head, which estimates the seat's own points"):
        network_estimates(dets, 0, [0, 1], net, "value", 4, random.Random(3), rivals=1.0)


def test_neural_search_bid_policy_is_checked_in_words() -> None:
    with pytest.raises(BotSpecError, match="bid_policy must be greedy, random, network, network-all or value, not 'x'"):
        make_bot("neural+search:bid_policy=x")
    with pytest.raises(BotSpecError, match="bid_policy=network takes a playout budget"):
        make_bot("neural+search:bid_policy=network,seconds=0.1")
    # the value head judges the bids by the seat's own points; the greedy playouts of the rolls count the rivals
    assert make_bot("neural+search:bid_policy=value,rivals=1")._rivals == (1.0, 0.0)  # type: ignore[attr-defined]
    with pytest.raises(BotSpecError, match=r"bid_policy=value plays at most 16,384 playouts a move .* not 16,385"):
        make_bot("neural+search:bid_policy=value,bid_sims=16385")
    assert make_bot("neural+search:policy=value,bid_policy=greedy,bid_sims=16385").bid_sims == 16385  # greedy's
    with pytest.raises(BotSpecError, match="the montecarlo bot has no option 'bid_policy'"):
        make_bot("montecarlo:bid_policy=value")


@pytest.mark.parametrize("seats", [3, 6])
def test_neural_search_network_playouts_finish_whole_games_and_refuse_a_time_budget(seats: int) -> None:
    game = Game(seats, seed=seats)
    spec = "neural+search:policy=value,sims=16,bid_sims=16" if seats == 3 else "neural+search:policy=network,sims=8,bid_sims=8"
    bots = {s: make_bot(spec if s == 1 else "greedy", seed=s) for s in range(seats)}
    match = Match(game, bots)
    match.play()
    assert game.over and not any(match.stats[s].faults for s in range(seats))
    with pytest.raises(BotSpecError, match="policy=network takes a playout budget"):
        make_bot("neural+search:policy=network,seconds=0.1")
    with pytest.raises(BotSpecError, match="policy must be greedy, random, network, network-all or value, not 'best'"):
        make_bot("neural+search:policy=best")
    with pytest.raises(BotSpecError, match="policy must be greedy or random"):
        make_bot("montecarlo:policy=network")  # only neural+search has a network


def test_neural_search_network_playouts_refuse_a_budget_too_big_to_hold_in_memory() -> None:
    """Network playouts run all at once: an absurd budget is refused at once in words, not left to fill memory."""
    with pytest.raises(BotSpecError, match=r"plays at most 16,384 playouts a move .* not 4,000,000"):
        make_bot("neural+search:policy=network,sims=4000000,per=1")
    with pytest.raises(BotSpecError, match=r"option sims may be at most 10,000,000, not '4000000000'"):
        make_bot("neural+search:policy=network,sims=4000000000,per=1")  # above every bot's ceiling
    with pytest.raises(BotSpecError, match="not 16,385"):
        make_bot("neural+search:policy=value,bid_sims=16385")
    assert make_bot("neural+search:policy=value,sims=16384").describe() == "neural+search:sims=16384,policy=value"
    assert make_bot("neural+search:sims=100000").describe() == "neural+search:sims=100000"  # greedy playouts stream
