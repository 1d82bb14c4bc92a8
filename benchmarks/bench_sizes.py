"""The learned bot at every table size: each shipped network against kernel `greedy` bots at its size.

For each size from 3 to 6 players it plays the network shipped for that size
(`minodice.bots.neural.shipped_weights`) in seat 0 against `greedy` in every
other seat, in the compiled vector environment (`evaluate_vs_greedy`: fast,
so thousands of games), and beside it another network at the same size — by
default the 4-seat one, which is what every size played before each size had
its own. The figure is the network's lead: its mean total minus the other
seats' mean, per game, with a 95 % interval.

    .venv/bin/python benchmarks/bench_sizes.py --games 4000
    .venv/bin/python benchmarks/bench_sizes.py --games 4000 --other runs/seed1/final.npz
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from minodice.bots.neural import load_network, shipped_weights
from minodice.dice import MAX_SEATS, MIN_SEATS
from minodice.learn import evaluate_vs_greedy


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=4000, help="games per network and size")
    ap.add_argument("--seed", type=int, default=777, help="seed of the deals (the same for both networks)")
    ap.add_argument("--other", default=None, help="another network file to play beside (default: the 4-seat one)")
    args = ap.parse_args(argv)
    if args.games < 2:
        ap.error(f"--games must be at least 2 (an interval needs two games), not {args.games}")
    try:
        other = load_network(args.other) if args.other else load_network(seats=4)
    except ValueError as exc:
        ap.error(str(exc))
    label = args.other or shipped_weights(4)
    print(f"{'seats':>5}  {'network':<14} {'lead over greedy':>18}   {label}")
    for seats in range(MIN_SEATS, MAX_SEATS + 1):
        own = evaluate_vs_greedy(load_network(seats=seats), args.games, seats=seats, seed=args.seed)
        alt = evaluate_vs_greedy(other, args.games, seats=seats, seed=args.seed)
        print(f"{seats:>5}  {shipped_weights(seats):<14} {own['lead']:+10.1f} ± {own['ci95']:4.1f}   "
              f"{alt['lead']:+7.1f} ± {alt['ci95']:4.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
