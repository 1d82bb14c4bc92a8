"""How far a network's value head is from the mean of its own play: the room a better judge of a roll has.

The value search judges each roll by the value head at the seat's next
decision, so its play is as good as that judge. A hand score that happened
mixes the judge's error with the luck of the faces still to come. This plays
games of the network at every seat (its likeliest moves, in the engine), and
from each roll position plays the rest of the hand `--continuations` times
in the vector simulator, the network at every seat (`sim.finish_hands`): the
mean of those scores is a target with the faces' luck mostly averaged out.
It prints the head's root mean square error against the hand scores and
against those means, how much of the latter is the means' own noise (their
variance over the continuations), and what is left: the head's own error
plus what the hidden dice add (the means know them, the head does not).
With `--fit-epochs N` it then trains a copy of the network on the means of
nine games in ten (`learn.expert.fit`, the policy towards its own moves)
and scores it on the rest; with `--scratch WIDTHS` too, a new network of
those hidden widths, reading the same inputs, only its value head trained,
from scratch on the same means (`bench_value_info.train`): whether a larger
network would judge better.

    .venv/bin/python research/benchmarks/bench_value_targets.py --games 1200 --continuations 16 --fit-epochs 4
    .venv/bin/python research/benchmarks/bench_value_targets.py --games 6000 --fit-epochs 12 --scratch 512,512
    .venv/bin/python research/benchmarks/bench_value_targets.py --games 6000 --fit-epochs 12 --scratch 512,512 --save-scratch judge.npz
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import typer
from bench_value_info import train as train_value_head
from threadpoolctl import threadpool_limits

from minodice.bots.network import VALUE_SCALE, PolicyValueNet, load_network, view_features
from minodice.bots.network_playouts import likeliest_moves
from minodice.cli.train import parse_hidden
from minodice.encoding import DICE, NUM_ACTIONS, NUM_BIDS, action_mask
from minodice.game import Bid, Game, Phase, Roll
from minodice.learn.expert import ExpertData, fit
from minodice.sim.positions import CALLER, finish_hands, position_row
from minodice.view import View

SEATS = 4
ROWS = 65536  # playouts stepped at once (positions x continuations), to bound the memory
MAX_CONTINUATIONS = 4096


@dataclass
class Rolls:
    """Every roll decision of the games: the position (`position_row`), whose it was, in which hand and game,
    the seat's features, legal mask and move, and the seat's score for that hand."""

    rows: np.ndarray
    seat: np.ndarray
    hand: np.ndarray
    game: np.ndarray
    x: np.ndarray
    mask: np.ndarray
    action: np.ndarray
    score: np.ndarray


def _likeliest(net: PolicyValueNet, x: np.ndarray, mask: np.ndarray) -> int:
    logits, _ = net.forward(x[None, :])
    return int(np.where(mask, logits[0], -np.inf).argmax())


def roll_positions(net: PolicyValueNet, games: int, seed: int,
                   on_roll: Callable[[Game, View, np.ndarray], None] | None = None) -> Rolls:
    """The roll decisions of games `seed`, `seed + 1`, ... with `net`'s likeliest move at every seat;
    `on_roll(game, view, mask)` is called at each, before the move (e.g. to ask another bot there)."""
    cols: dict[str, list] = {f: [] for f in Rolls.__dataclass_fields__}
    for g in range(games):
        game = Game(SEATS, seed=seed + g)
        first = len(cols["seat"])
        while not game.over:
            pending = game.to_act() if game.phase is Phase.BID else [game.turn]
            for seat in pending:
                view = game.observe(seat)
                x, mask = view_features(view)[0], action_mask(view).astype(bool)
                move = _likeliest(net, x, mask)
                if game.phase is Phase.BID:
                    game.apply(Bid(seat, move))
                    continue
                if on_roll is not None:
                    on_roll(game, view, mask)
                for field, value in (("rows", position_row(game)), ("seat", seat), ("hand", len(game.log) - 1),
                                     ("game", seed + g), ("x", x), ("mask", mask), ("action", move)):
                    cols[field].append(value)
                game.apply(Roll(seat, DICE[move - NUM_BIDS]))
        for i in range(first, len(cols["seat"])):
            scores = game.log[cols["hand"][i]].scores
            assert scores is not None, "every hand of a finished game is scored"
            cols["score"].append(scores[cols["seat"][i]])
    return Rolls(*(np.asarray(cols[f]) for f in Rolls.__dataclass_fields__))


def continuation_means(net: PolicyValueNet, rolls: Rolls, k: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Per roll: the mean and the variance (over `k` continuations, the network at every seat after the move
    it made) of the seat's score for that hand."""
    choose = likeliest_moves(net, SEATS)
    mean, var = np.zeros(len(rolls.seat)), np.zeros(len(rolls.seat))
    rng = np.random.default_rng(seed)
    rules = Game(SEATS, seed=seed).rules
    groups = sorted({(int(s), int(h)) for s, h in zip(rolls.seat, rolls.hand)})  # finish_hands: one hand, one seat
    for seat, hand in groups:
        idx = np.flatnonzero((rolls.seat == seat) & (rolls.hand == hand))
        step = max(1, ROWS // k)
        for lo in range(0, len(idx), step):
            part = idx[lo : lo + step]
            seeds = rng.integers(0, 2**62, size=len(part) * k, dtype=np.int64).astype(np.uint64)
            scores = finish_hands(np.repeat(rolls.rows[part], k, axis=0), seeds, seat,
                                  np.repeat(rolls.action[part], k), choose, rules, others=CALLER).reshape(-1, k)
            mean[part], var[part] = scores.mean(axis=1), scores.var(axis=1, ddof=1)
    return mean, var


def rms(e: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.square(e))))


def value_errors(net: PolicyValueNet, rolls: Rolls, mean: np.ndarray, var: np.ndarray, k: int,
                 rows: np.ndarray) -> tuple[float, float, float, float]:
    """On `rows`: the head's error against the hand scores and against the means, the means' own noise, and
    what is left of the second once that noise is taken out (root mean squares, points)."""
    _, value = net.forward(rolls.x[rows].astype(np.float32))
    value = value * VALUE_SCALE
    against_mean = float(np.mean(np.square(value - mean[rows])))
    noise = float(np.mean(var[rows] / k))
    return rms(value - rolls.score[rows]), np.sqrt(against_mean), np.sqrt(noise), np.sqrt(max(0.0, against_mean - noise))


def tuned(net: PolicyValueNet, rolls: Rolls, mean: np.ndarray, rows: np.ndarray, epochs: int) -> PolicyValueNet:
    """A copy of `net` trained on the means of `rows` (the policy towards its own moves)."""
    n = int(rows.sum())
    data = ExpertData(rolls.x[rows].astype(np.float32), rolls.mask[rows], rolls.action[rows].astype(np.int64),
                      np.full((n, NUM_ACTIONS), np.nan, np.float32), mean[rows].astype(np.float32),
                      rolls.hand[rows].astype(np.int16), rolls.seat[rows].astype(np.int8), rolls.game[rows])
    copy = net.copy()
    fit(copy, data, epochs=epochs, seed=1)
    return copy


def from_scratch(net: PolicyValueNet, rolls: Rolls, mean: np.ndarray, rows: np.ndarray, hidden: Sequence[int],
                 epochs: int) -> PolicyValueNet:
    """A new network of `hidden` widths, only its value head trained on the means of `rows`; it reads the inputs
    `net` reads (a first-version network fewer), so that only its size and training differ."""
    data = (rolls.x[rows][:, : net.width], np.zeros((int(rows.sum()), 1)), mean[rows])
    return train_value_head(data, False, hidden, epochs, seed=1)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--weights", default="src/minodice/bots/weights/expert-4.npz",
                    help="the network (.npz) whose value head is judged, 4 seats")
    ap.add_argument("--games", type=int, default=1200, help="games of the network at every seat")
    ap.add_argument("--continuations", type=int, default=16, help="continuations from each roll (at least 2)")
    ap.add_argument("--fit-epochs", type=int, default=0, help="also train a copy on the means (0: no)")
    ap.add_argument("--scratch", default=None, help="also train a new network of these hidden widths, e.g. 512,512")
    ap.add_argument("--save-scratch", default=None, metavar="FILE",
                    help="save the --scratch network (.npz): a judge for research/benchmarks/bench_judge_choices.py")
    ap.add_argument("--seed", type=int, default=777000, help="seed of the first game and of the continuations")
    args = ap.parse_args(argv)
    if args.games < 1 or not 2 <= args.continuations <= MAX_CONTINUATIONS or args.fit_epochs < 0:
        ap.error(f"--games must be at least 1, --continuations 2 to {MAX_CONTINUATIONS:,} and --fit-epochs at least 0")
    if args.fit_epochs and args.games < 10:
        ap.error("--fit-epochs needs at least 10 games (one in ten is held out)")
    if args.scratch is not None and not args.fit_epochs:
        ap.error("--scratch trains for --fit-epochs epochs: give both")
    if args.save_scratch is not None:
        if args.scratch is None:
            ap.error("--save-scratch saves the --scratch network: give both")
        if not Path(args.save_scratch).resolve().parent.is_dir():
            ap.error(f"--save-scratch: no folder for {args.save_scratch!r}")
    try:
        scratch = None if args.scratch is None else parse_hidden(args.scratch)  # as `minodice train --hidden`
    except typer.BadParameter as e:
        ap.error(f"--scratch: {e.message}")
    try:
        net = load_network(args.weights)
    except ValueError as e:
        ap.error(str(e))
    k = args.continuations
    began = time.perf_counter()
    with threadpool_limits(1):
        rolls = roll_positions(net, args.games, args.seed)
        played = time.perf_counter() - began
        mean, var = continuation_means(net, rolls, k, args.seed)
        everyone = np.ones(len(rolls.seat), dtype=bool)
        z, m, noise, left = value_errors(net, rolls, mean, var, k, everyone)
        print(f"{len(rolls.seat):,} roll positions from {args.games:,} games of the network at every seat "
              f"({played:.0f} s); {k} continuations from each ({time.perf_counter() - began - played:.0f} s)")
        print(f"hand scores spread {rolls.score.std():.2f} points; the means of {k} continuations {mean.std():.2f}")
        print(f"the value head misses the hand scores by {z:.2f} and the means by {m:.2f} (root mean square), "
              f"of which the means' own noise {noise:.2f}: left {left:.2f} (the head's error and what the "
              f"hidden dice add)")
        if args.fit_epochs:
            games = np.unique(rolls.game)
            held = np.isin(rolls.game, games[len(games) - len(games) // 10:])
            before = value_errors(net, rolls, mean, var, k, held)
            after = value_errors(tuned(net, rolls, mean, ~held, args.fit_epochs), rolls, mean, var, k, held)
            epochs = f"{args.fit_epochs} epoch{'s' if args.fit_epochs > 1 else ''}"
            print(f"trained {epochs} on the means of {int((~held).sum()):,} rolls: on the "
                  f"{int(held.sum()):,} of the other games it misses the means by {after[1]:.2f} "
                  f"(before {before[1]:.2f}; left {after[3]:.2f}, before {before[3]:.2f})")
            if scratch is not None:
                judge = from_scratch(net, rolls, mean, ~held, scratch, args.fit_epochs)
                fresh = value_errors(judge, rolls, mean, var, k, held)
                print(f"a new network of widths {args.scratch}, trained {epochs} from scratch on the same means, "
                      f"misses them by {fresh[1]:.2f} (left {fresh[3]:.2f})")
                if args.save_scratch is not None:
                    judge.save(Path(args.save_scratch))
                    print(f"saved it to {args.save_scratch}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
