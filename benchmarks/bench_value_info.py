"""What the other seats' dice are worth to a value estimate: a seat's view against the host's.

A search that samples the hidden dice (a determinization) could judge its
leaves with a value network that sees every seat's dice of the sample, not
only the seat's own view. That helps only if knowing the dice predicts a
hand's score much better. This measures it: self-play games of the shipped
network in the vector environment (every seat the network, its likeliest
move), and at every roll the seat's features, the dice each other seat still
holds (the host's knowledge, `VectorTable.others_dice`) and the seat's score for
that hand. Two value networks of the same shape are trained on the same
decisions with the same seed, one on the features alone and one also given
the other seats' held dice, and scored on decisions of other games: root mean
square error in points, overall and by how many dice the others still hold
(a hand's first rolls, where bids were just placed, have the most).

    .venv/bin/python benchmarks/bench_value_info.py --games 16384 --epochs 6
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections.abc import Sequence

import numpy as np
from threadpoolctl import threadpool_limits

from minodice.bots.network import VALUE_SCALE, features, load_network
from minodice.dice import MAX_SEATS, MIN_SEATS
from minodice.encoding import MAX_HANDS, NUM_BIDS
from minodice.envs.vector import VectorTable
from minodice.learn.ppo import Adam

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
        steps: list[tuple[np.ndarray, ...]] = []
        rows = np.arange(n)
        while True:
            seat, mask = info["seat"], info["action_mask"].astype(bool)
            x = features(obs, seats, info["hints"])
            held = table.others_dice(seat)
            logits, _ = net.forward(x)
            obs, rewards, done, _, info = table.step(np.where(mask, logits, -np.inf).argmax(axis=1))
            steps.append((x.astype(np.float16), held, seat, ~mask[:, :NUM_BIDS].any(axis=1), info["hand_over"],
                          rewards))
            if done.all():
                break
        score = np.zeros((n, seats), np.float32)
        for x, held, seat, rolling, over, rewards in reversed(steps):  # each decision's hand score, from the end
            score[over] = rewards[over]
            xs.append(x[rolling])
            hs.append(held[rolling])
            rs.append(score[rows, seat][rolling])
    return np.concatenate(xs), np.concatenate(hs), np.concatenate(rs)


class ValueNet:
    """A value-only multilayer perceptron (ReLU), trained by squared error with Adam."""

    def __init__(self, inputs: int, hidden: Sequence[int], rng: np.random.Generator) -> None:
        sizes = [inputs, *hidden, 1]
        self.params: list[np.ndarray] = []
        for a, b in itertools.pairwise(sizes):
            scale = np.sqrt(2.0 / a) * (0.1 if b == 1 else 1.0)
            self.params += [(rng.standard_normal((a, b)) * scale).astype(np.float32), np.zeros(b, np.float32)]

    def activations(self, x: np.ndarray) -> list[np.ndarray]:
        """The inputs and every hidden layer's output (kept for the gradients)."""
        acts = [x]
        for i in range(len(self.params) // 2 - 1):
            acts.append(np.maximum(acts[-1] @ self.params[2 * i] + self.params[2 * i + 1], 0.0))
        return acts

    def predict(self, x: np.ndarray) -> np.ndarray:
        """The value of each row, in units of VALUE_SCALE points."""
        return (self.activations(x)[-1] @ self.params[-2] + self.params[-1])[:, 0]

    def gradients(self, x: np.ndarray, y: np.ndarray) -> list[np.ndarray]:
        """The mean squared error's gradient with respect to every parameter, for targets `y`."""
        acts = self.activations(x)
        g = (2.0 * ((acts[-1] @ self.params[-2] + self.params[-1])[:, 0] - y) / len(y))[:, None].astype(np.float32)
        grads: list[np.ndarray] = [np.empty(0, np.float32)] * len(self.params)
        for i in reversed(range(len(self.params) // 2)):
            grads[2 * i] = acts[i].T @ g
            grads[2 * i + 1] = g.sum(axis=0)
            if i:
                g = (g @ self.params[2 * i].T) * (acts[i] > 0)
        return grads


def inputs(x: np.ndarray, held: np.ndarray, see: bool, rows: slice | np.ndarray) -> np.ndarray:
    """The value network's inputs for `rows`: the features, and with `see` the others' held dice."""
    part = x[rows].astype(np.float32)
    return np.concatenate([part, held[rows].astype(np.float32) / MAX_HANDS], axis=1) if see else part


def train(data: tuple[np.ndarray, ...], see: bool, hidden: Sequence[int], epochs: int, seed: int) -> ValueNet:
    """A value network trained on `data`, halving the learning rate each epoch past the first half."""
    x, held, score = data
    rng = np.random.default_rng(seed)
    net = ValueNet(x.shape[1] + (held.shape[1] if see else 0), hidden, rng)
    opt = Adam(net.params, 1e-3)
    target = score / VALUE_SCALE
    for epoch in range(epochs):
        opt.lr = 1e-3 * 0.5 ** max(0, epoch - epochs // 2)
        order = rng.permutation(len(score))
        for k in range(0, len(order) - 4096 + 1, 4096):
            idx = order[k : k + 4096]
            opt.step(net.gradients(inputs(x, held, see, idx), target[idx]))
    return net


def errors(net: ValueNet, data: tuple[np.ndarray, ...], see: bool) -> np.ndarray:
    """Each decision's error in points."""
    x, held, score = data
    out = [net.predict(inputs(x, held, see, slice(i, i + 65536))) for i in range(0, len(score), 65536)]
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
