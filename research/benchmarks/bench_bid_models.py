"""How well do bidding models predict `montecarlo`'s bids? The question behind the inference's opponent model.

`montecarlo` and `neural+search` infer the other seats' hidden dice from their
bids by modelling each as the greedy bot's bid (`bots.inference`). Against
montecarlo opponents a better model of montecarlo's own bids would sharpen
that. This plays `--games` games of greedy bots (to reach every hand with a
sensible table) and, at each hand's bidding, asks a `montecarlo` bot for every
seat's bid and three models for their prediction from the same dice:

- ``greedy``: the heuristic the inference uses (`heuristic_bid`);
- ``greedy+ambition``: the same expected scores plus montecarlo's own `play_correction`;
- ``network``: the learned network's likeliest bid (and the probability it gives montecarlo's bid).

It prints, per model, the share of bids predicted exactly and the mean miss in tricks.

    .venv/bin/python research/benchmarks/bench_bid_models.py --games 12 --seed 1
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections.abc import Sequence

import numpy as np

from minodice.bots.greedy import GreedyBot
from minodice.bots.inference import dice_key, heuristic_bid, heuristic_bid_values
from minodice.bots.montecarlo import MonteCarloBot, play_correction
from minodice.bots.network import masked_softmax
from minodice.bots.neural import NeuralBot
from minodice.game import Bid, Game, Phase, Roll
from minodice.view import View

MODELS = ("greedy", "greedy+ambition", "network")


def predictions(view: View, network: NeuralBot) -> tuple[dict[str, int], np.ndarray]:
    """Each model's bid for `view`'s seat, and the network's probability of every bid."""
    dice = dice_key(view.dice)
    values = heuristic_bid_values(dice, view.seats, view.rules)
    bonus = play_correction(view)
    mask, logits, _ = network.scores(view)
    p = masked_softmax(logits[None, :], mask[None, :])[0]
    return {
        "greedy": heuristic_bid(dice, view.seats, view.rules),
        "greedy+ambition": int(np.argmax([v + bonus[b] for b, v in enumerate(values)])),
        "network": int(p.argmax()),
    }, p


def run(games: int, seed: int, seats: int = 4) -> dict[str, dict[str, float]]:
    """Play the games and score the models (see the module docstring)."""
    rng = random.Random(seed)
    greedy, network = GreedyBot(), NeuralBot()
    misses: dict[str, list[int]] = {m: [] for m in MODELS}
    loglik: list[float] = []
    for g in range(games):
        game = Game(seats, seed=rng.getrandbits(32))
        searcher = MonteCarloBot(random.Random(seed * 1_000 + g))
        while not game.over:
            if game.phase is Phase.BID:
                for s in range(seats):
                    view = game.observe(s)
                    actual = searcher.bid(view)
                    guess, p = predictions(view, network)
                    for m in MODELS:
                        misses[m].append(abs(guess[m] - actual))
                    loglik.append(math.log(max(float(p[actual]), 1e-12)))
                for s in range(seats):
                    game.apply(Bid(s, greedy.bid(game.observe(s))))
            else:
                seat = game.turn
                game.apply(Roll(seat, greedy.roll(game.observe(seat))))
    out = {m: {"exact": sum(x == 0 for x in xs) / len(xs), "mean_miss": statistics.fmean(xs), "bids": len(xs)}
           for m, xs in misses.items()}
    out["network"]["mean_log_likelihood"] = statistics.fmean(loglik)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=12, help="games of greedy bots whose every bidding is asked")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error(f"--games must be at least 1, not {args.games}")
    result = run(args.games, args.seed)
    bids = result["greedy"]["bids"]
    print(f"montecarlo's bids predicted, {bids:.0f} bids of {args.games} games (seed {args.seed}):")
    for m in MODELS:
        r = result[m]
        print(f"  {m:<16} exact {r['exact']:6.1%}   mean miss {r['mean_miss']:.3f} tricks")
    print(f"  the network gives montecarlo's bid a mean log-likelihood of {result['network']['mean_log_likelihood']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
