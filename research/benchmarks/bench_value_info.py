"""What the other seats' dice are worth to a value estimate: a seat's view against the host's.

A search that samples the hidden dice (a determinization) could judge its
leaves with a value network that sees every seat's dice of the sample, not
only the seat's own view. That helps only if knowing the dice predicts a
hand's score much better. This measures it: self-play games of the shipped
network in the vector environment (every seat the network, its likeliest
move), and at every roll the seat's features, the dice each other seat still
holds (the host's knowledge, `VectorTable.others_dice`) and the seat's score for
that hand. Two networks of the learned bot's shape (`PolicyValueNet`, only
its value head trained, with the trainer's gradients and Adam) are trained on
the same decisions with the same seed, one on the features alone and one also
given the other seats' held dice (oracle guiding's privileged inputs), and
scored on decisions of other games: root mean
square error in points, overall and by how many dice the others still hold
(a hand's first rolls, where bids were just placed, have the most).

    .venv/bin/python research/benchmarks/bench_value_info.py --games 16384 --epochs 6
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

import numpy as np
from threadpoolctl import threadpool_limits

from minodice.bots.network import (
    PRIVILEGED,
    VALUE_SCALE,
    PolicyValueNet,
    features,
    load_network,
    privileged,
)
from minodice.dice import MAX_SEATS, MIN_SEATS
from minodice.encoding import NUM_ACTIONS, NUM_BIDS
from minodice.envs.vector import VectorTable
from minodice.learn.ppo import Adam, backprop, hand_returns

BATCH = 1024  # games stepped at once
BUCKETS = ((0, 3), (3, 6), (6, 10), (10, 15), (15, 99))


def roll_decisions(games: int, seats: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Self-play roll decisions: features (float16), the other seats' held dice by relative seat (uint8),
    and the seat's hand score."""
    net = load_network(seats=seats)
    xs, hs, rs = [], [], []
    for b in range(0, games, BATCH):
        n = min(BATCH, games - b)
        table = VectorTable(n, seats, seed=seed * 1_000_003 + b, hints=True)
        obs, info = table.reset()
        x_, held_, seat_, rolling_, over_, rewards_ = [], [], [], [], [], []
        while True:
            seat, mask = info["seat"], info["action_mask"].astype(bool)
            x = features(obs, seats, info["hints"])
            x_.append(x.astype(np.float16))
            held_.append(table.others_dice(seat))
            seat_.append(seat)
            rolling_.append(~mask[:, :NUM_BIDS].any(axis=1))
            logits, _ = net.forward(x)
            obs, rewards, done, _, info = table.step(np.where(mask, logits, -np.inf).argmax(axis=1))
            over_.append(info["hand_over"])
            rewards_.append(rewards)
            if done.all():
                break
        rolling = np.concatenate(rolling_)
        xs.append(np.concatenate(x_)[rolling])
        hs.append(np.concatenate(held_)[rolling])
        rs.append(hand_returns(seat_, over_, rewards_).reshape(-1)[rolling])
    return np.concatenate(xs), np.concatenate(hs), np.concatenate(rs)


def inputs(x: np.ndarray, held: np.ndarray, see: bool, rows: slice | np.ndarray) -> np.ndarray:
    """The value network's inputs for `rows`: the features, and with `see` the others' held dice (the
    privileged inputs of oracle guiding)."""
    part = x[rows].astype(np.float32)
    return np.concatenate([part, privileged(held[rows])], axis=1) if see else part


def train(data: tuple[np.ndarray, ...], see: bool, hidden: Sequence[int], epochs: int, seed: int) -> PolicyValueNet:
    """The learned bot's network, its value head trained on `data` by squared error (its policy head is
    left as it starts), halving the learning rate each epoch past the first half. It reads the columns of `x`
    (FEATURES, or fewer: a first-version network's), and with `see` the others' held dice after them."""
    x, held, score = data
    rng = np.random.default_rng(seed)
    net = PolicyValueNet.initial(rng, hidden, x.shape[1] + (PRIVILEGED if see else 0))
    opt = Adam(net.params, 1e-3)
    target = (score / VALUE_SCALE).astype(np.float32)
    for epoch in range(epochs):
        opt.lr = 1e-3 * 0.5 ** max(0, epoch - epochs // 2)
        order = rng.permutation(len(score))
        for k in range(0, len(order) - 4096 + 1, 4096):
            idx = order[k : k + 4096]
            rows = inputs(x, held, see, idx)
            acts = net.hidden(rows)
            _, value = net.heads(acts[-1])
            g_value = (2.0 * (value - target[idx]) / len(idx)).astype(np.float32)
            no_policy = np.zeros((len(idx), NUM_ACTIONS), np.float32)  # the policy head gets no gradient
            opt.step(backprop(net, rows, acts, no_policy, g_value))
    return net


def errors(net: PolicyValueNet, data: tuple[np.ndarray, ...], see: bool) -> np.ndarray:
    """Each decision's error in points."""
    x, held, score = data
    out = [net.forward(inputs(x, held, see, slice(i, i + 65536)))[1] for i in range(0, len(score), 65536)]
    return np.concatenate(out) * VALUE_SCALE - score


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=16384, help="self-play games to train on")
    ap.add_argument("--test-games", type=int, default=2048, help="other games to score the networks on")
    ap.add_argument("--seats", type=int, default=4, help=f"players ({MIN_SEATS} to {MAX_SEATS})")
    ap.add_argument("--epochs", type=int, default=6, help="passes over the training decisions")
    ap.add_argument("--hidden", default="128,128", help="hidden layer widths of both value networks")
    ap.add_argument("--seed", type=int, default=1, help="seed of the games and the training")
    args = ap.parse_args(argv)
    if args.games < 1 or args.test_games < 1 or args.epochs < 1:
        ap.error("--games, --test-games and --epochs must be at least 1")
    if not MIN_SEATS <= args.seats <= MAX_SEATS:
        ap.error(f"--seats must be {MIN_SEATS} to {MAX_SEATS}, not {args.seats}")
    try:
        hidden = [int(w) for w in args.hidden.split(",")]
    except ValueError:
        ap.error(f"--hidden must be widths separated by commas, like 128,128, not {args.hidden!r}")
    t0 = time.perf_counter()
    with threadpool_limits(2):
        data = roll_decisions(args.games, args.seats, args.seed)
        test = roll_decisions(args.test_games, args.seats, args.seed + 1)
        print(f"{len(data[2]):,} roll decisions to train on, {len(test[2]):,} held out "
              f"({time.perf_counter() - t0:.0f} s); hand scores spread {test[2].std():.2f} points", flush=True)
        err = {}
        for see in (False, True):
            err[see] = errors(train(data, see, hidden, args.epochs, args.seed), test, see)
            print(f"trained {'with' if see else 'without'} the others' dice ({time.perf_counter() - t0:.0f} s)",
                  flush=True)
    left = test[1].sum(axis=1)
    rms = lambda e: float(np.sqrt((e**2).mean()))  # noqa: E731
    print(f"\n{'others hold':>12} {'decisions':>10} {'seat view':>10} {'all dice':>10} {'gain':>6}")
    for lo, hi in ((0, 99), *BUCKETS):
        sel = (left >= lo) & (left < hi)
        label = "any" if hi == 99 and lo == 0 else f"{lo}+" if hi == 99 else f"{lo}-{hi - 1}"
        a, b = rms(err[False][sel]), rms(err[True][sel])
        print(f"{label:>12} {int(sel.sum()):>10,} {a:>10.2f} {b:>10.2f} {a - b:>6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
