"""Expert iteration's supervised step: the search bot's decisions as recorded, and training on them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from minodice.bots.network import FEATURES, PolicyValueNet
from minodice.bots.neural import load_network
from minodice.encoding import NUM_ACTIONS, NUM_BIDS
from minodice.game import Game
from minodice.learn.expert import ExpertData, collect, evaluate, expert_seat, fit, held_out

SPEC = "montecarlo:sims=24,bid_sims=24"


@pytest.fixture(scope="module")
def data() -> ExpertData:
    return collect(SPEC, 2, seats=3, seed=40)


def test_every_decision_of_every_seat_is_kept_with_its_hand_score(data: ExpertData) -> None:
    games = {seed: Game(3, seed=seed) for seed in (40, 41)}
    assert set(np.unique(data.game)) == set(games)
    assert data.x.shape == (len(data), FEATURES) and data.mask.shape == (len(data), NUM_ACTIONS)
    assert data.mask[np.arange(len(data)), data.action].all(), "every recorded move is legal"
    for seed in games:
        rows = data.game == seed
        # Every seat makes one bid a hand: 3 seats x every hand of a 3-seat game.
        bids = rows & (data.action < NUM_BIDS)
        assert bids.sum() == 3 * games[seed].hands
        # The hand score recorded is that seat's score for that hand (the same in all its decisions).
        for hand in np.unique(data.hand[rows]):
            for seat in range(3):
                at = rows & (data.hand == hand) & (data.seat == seat)
                assert len(np.unique(data.score[at])) == 1


def test_searched_moves_carry_the_search_estimates_and_the_chosen_move_is_the_best(data: ExpertData) -> None:
    searched = ~np.isnan(data.estimate).all(axis=1)
    assert searched.any()
    est = np.where(np.isnan(data.estimate[searched]), -np.inf, data.estimate[searched])
    assert (est.argmax(axis=1) == data.action[searched]).mean() > 0.9  # ties aside, montecarlo plays its best
    assert not (data.mask[searched] == 0)[~np.isnan(data.estimate[searched])].any(), "only legal moves searched"


def test_collection_is_reproducible_and_round_trips_through_a_file(data: ExpertData, tmp_path: Path) -> None:
    again = collect(SPEC, 1, seats=3, seed=40)
    first = data.subset(data.game == 40)
    np.testing.assert_array_equal(first.action, again.action)
    np.testing.assert_array_equal(first.x, again.x)
    path = tmp_path / "d.npz"
    data.save(str(path))
    back = ExpertData.load(str(path))
    np.testing.assert_array_equal(back.score, data.score)
    np.testing.assert_array_equal(back.estimate, data.estimate)


def test_fit_learns_the_search_moves_and_the_hand_scores(data: ExpertData) -> None:
    net = PolicyValueNet.initial(np.random.default_rng(0), (32, 32))
    before = evaluate(net, data)
    history = fit(net, data, epochs=30, lr=3e-3, minibatch=64, seed=1)
    after = evaluate(net, data)
    assert len(history) == 30
    assert after["policy_loss"] < 0.7 * before["policy_loss"]
    assert after["value_rmse"] < 0.8 * before["value_rmse"]
    assert after["agree"] > before["agree"]


def test_fit_is_reproducible_from_its_seed(data: ExpertData) -> None:
    nets = [PolicyValueNet.initial(np.random.default_rng(0), (16,)) for _ in range(2)]
    for net in nets:
        fit(net, data, epochs=2, lr=1e-3, minibatch=64, seed=5)
    for a, b in zip(nets[0].params, nets[1].params):
        np.testing.assert_array_equal(a, b)


def test_train_expert_command(tmp_path: Path) -> None:
    out = tmp_path / "exit.npz"
    base = [sys.executable, "-m", "minodice.cli", "train", "--out", str(out), "--seats", "3"]
    run = subprocess.run([*base, "--expert", SPEC, "--games", "3", "--epochs", "1", "--seed", "7"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "held-out agree" in run.stdout and "held-out value_rmse" in run.stdout
    meta = load_network(out).meta
    assert meta["expert"]["spec"] == SPEC and meta["expert"]["games"] == 3 and meta["expert"]["decisions"] > 0
    for args, message in ((["--expert", "cmd:python3 bot.py"], "built-in bot"),
                          (["--expert", "nope"], "unknown bot 'nope'"),
                          (["--expert", "montecarlo:sims=x"], "must be a number"),
                          (["--expert", SPEC, "--from", str(tmp_path / "none.npz")], "no network file"),
                          (["--expert", SPEC, "--games", "1000000"], "1<=x<=5000")):
        bad = subprocess.run([*base, *args], capture_output=True, text=True, timeout=120)
        assert bad.returncode == 2 and message in bad.stderr, bad.stderr


def test_fit_refuses_no_decisions(data: ExpertData) -> None:
    net = PolicyValueNet.initial(np.random.default_rng(0), (16,))
    with pytest.raises(ValueError, match="no decisions"):
        fit(net, data.subset(np.zeros(len(data), bool)))


def test_a_network_copy_trains_without_touching_the_original(data: ExpertData) -> None:
    net = PolicyValueNet.initial(np.random.default_rng(0), (16,))
    twin = net.copy()
    fit(twin, data, epochs=1, lr=1e-2, minibatch=64)
    assert all(not np.array_equal(a, b) for a, b in zip(net.params[:2], twin.params[:2]))
    assert twin.meta == net.meta and twin.meta is not net.meta


def test_the_held_out_games_are_the_last_tenth(data: ExpertData) -> None:
    assert set(data.game[held_out(data)]) == {41}  # two games: at least one is held out, the later
    twenty = ExpertData(*(np.repeat(getattr(data, f)[:1], 20, axis=0) for f in ("x", "mask", "action", "estimate",
                                                                              "score", "hand", "seat")),
                        game=np.arange(100, 120))
    assert set(twenty.game[held_out(twenty)]) == {118, 119}


def test_damaged_decision_files_are_refused_in_words(data: ExpertData, tmp_path: Path) -> None:
    good = tmp_path / "good.npz"
    data.save(str(good))
    (tmp_path / "text.npz").write_text("not a zip")
    fields = {f: getattr(data, f) for f in ("x", "mask", "action", "estimate", "score", "hand", "seat", "game")}
    np.savez(tmp_path / "short.npz", **{**fields, "x": data.x[:, :5]})
    np.savez(tmp_path / "missing.npz", **{k: v for k, v in fields.items() if k != "score"})
    np.savez(tmp_path / "scalar.npz", **{**fields, "action": np.int64(3)})
    np.savez(tmp_path / "range.npz", **{**fields, "action": data.action + 100})
    illegal = data.action.copy()
    illegal[0] = int(np.flatnonzero(~data.mask[0])[0])
    np.savez(tmp_path / "illegal.npz", **{**fields, "action": illegal})
    for name in ("text", "short", "missing", "scalar", "range"):
        with pytest.raises(ValueError, match="is not a file of decisions"):
            ExpertData.load(str(good), str(tmp_path / f"{name}.npz"))
    with pytest.raises(ValueError, match="not legal in its position"):
        ExpertData.load(str(tmp_path / "illegal.npz"))
    with pytest.raises(ValueError, match="no decisions file at"):
        ExpertData.load(str(tmp_path / "none.npz"))
    assert len(ExpertData.load(str(good), str(good))) == 2 * len(data)


def test_train_keeps_the_decisions_and_trains_on_them_again(tmp_path: Path) -> None:
    """--keep writes the games' decisions; --data trains on them to the same network, without playing."""
    base = [sys.executable, "-m", "minodice.cli", "train", "--seats", "3", "--epochs", "1", "--seed", "7"]
    kept, first, again = tmp_path / "games.npz", tmp_path / "first.npz", tmp_path / "again.npz"
    run = subprocess.run([*base, "--expert", SPEC, "--games", "2", "--keep", str(kept), "--out", str(first)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert kept.exists() and "decisions to" in run.stdout
    run = subprocess.run([*base, "--data", str(kept), "--out", str(again)], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    assert "playing" not in run.stdout and "held-out agree" in run.stdout
    for a, b in zip(load_network(first).params, load_network(again).params):
        np.testing.assert_array_equal(a, b)
    assert load_network(again).meta["expert"]["data"] == ["games.npz"]
    assert load_network(again).meta["expert"]["games"] == 2
    size = kept.stat().st_size
    (tmp_path / "bad.npz").write_text("x")
    for args, message in ((["--data", str(tmp_path / "bad.npz")], "is not a file of decisions"),
                          (["--data", str(kept), "--expert", SPEC], "not both"),
                          (["--keep", str(kept), "--updates", "1"], "--keep goes with --expert"),
                          (["--data", str(kept), "--keep", str(tmp_path / "k.npz")], "--keep goes with --expert"),
                          (["--data", str(kept), "--out", str(kept)], "would overwrite the decisions")):
        out = [] if "--out" in args else ["--out", str(tmp_path / "x.npz")]
        bad = subprocess.run([*base, *args, *out], capture_output=True, text=True, timeout=120)
        assert bad.returncode == 2 and message in bad.stderr, bad.stderr
    assert kept.stat().st_size == size and len(ExpertData.load(str(kept))) > 0, "the decisions are not lost"
    if Path("/proc/self").exists():  # a folder that takes no new file, though os.access says it does to root
        bad = subprocess.run([*base, "--data", str(kept), "--out", "/proc/x.npz"], capture_output=True, text=True,
                             timeout=120)
        assert bad.returncode == 2 and "cannot write /proc/x.npz" in bad.stderr, bad.stderr


def test_against_opponents_only_the_search_bots_seat_is_kept_and_it_takes_each_seat_in_turn() -> None:
    """With an opponent, the search bot plays one seat (seat = seed mod seats) and only its decisions are kept:
    one bid a hand, a roll for every die of the hand, and the hand score that seat made in the game."""
    seats, games = 3, 3
    mixed = collect(SPEC, games, seats=seats, seed=50, opponent="greedy")
    alone = collect(SPEC, 1, seats=seats, seed=50)
    assert {(int(g), int(s)) for g, s in zip(mixed.game, mixed.seat)} == {
        (50 + i, expert_seat(50 + i, seats)) for i in range(games)}
    assert sorted(expert_seat(50 + i, seats) for i in range(games)) == list(range(seats))
    for seed in range(50, 50 + games):
        rows = mixed.game == seed
        game = Game(seats, seed=seed)
        assert (rows & (mixed.action < NUM_BIDS)).sum() == game.hands
        assert (rows & (mixed.action >= NUM_BIDS)).sum() == sum(range(1, game.hands + 1))
    # Greedy opponents play differently from the search bot, so the table's game differs from self-play's.
    mine = alone.subset((alone.game == 50) & (alone.seat == expert_seat(50, seats)))
    theirs = mixed.subset(mixed.game == 50)
    assert len(mine) == len(theirs)
    assert not np.array_equal(mine.x, theirs.x)
    again = collect(SPEC, games, seats=seats, seed=50, opponent="greedy")
    np.testing.assert_array_equal(again.x, mixed.x)
    np.testing.assert_array_equal(again.score, mixed.score)


def test_train_expert_against_an_opponent_command(tmp_path: Path) -> None:
    out = tmp_path / "vs.npz"
    base = [sys.executable, "-m", "minodice.cli", "train", "--out", str(out), "--seats", "3", "--seed", "7"]
    run = subprocess.run([*base, "--expert", SPEC, "--opponent", "greedy", "--games", "3", "--epochs", "1"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "against 2 greedy" in run.stdout and "held-out agree" in run.stdout
    assert load_network(out).meta["expert"]["opponent"] == "greedy"
    kept = tmp_path / "kept.npz"
    collect(SPEC, 1, seats=3, seed=7).save(str(kept))
    for args, message in ((["--expert", SPEC, "--opponent", "cmd:python3 bot.py"], "--opponent takes a built-in"),
                          (["--expert", SPEC, "--opponent", "nope"], "--opponent: unknown bot 'nope'"),
                          (["--data", str(kept), "--opponent", "greedy"], "--data trains on decisions already"),
                          (["--opponent", "greedy", "--updates", "1"], "--opponent goes with --expert")):
        bad = subprocess.run([*base, *args], capture_output=True, text=True, timeout=120)
        assert bad.returncode == 2 and message in bad.stderr, bad.stderr
        assert "Traceback" not in bad.stderr
