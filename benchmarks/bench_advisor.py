"""Speed and precision of the bid advisor (`minodice advise`) on random hands, one core.

For each hand size, random hands are drawn from the bag and advised with the
default target (every bid's expected score to ±1 point, 95 %) and time budget.
Reports the time per answer (mean, max), the widest interval and the share of
answers that reached the target in time.

    .venv/bin/python benchmarks/bench_advisor.py --hands 20 --players 4
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys

from minodice.analysis.advisor import advise
from minodice.dice import BAG, hands_for


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=20, help="random hands per hand size")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--opponents", default="greedy")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    advise([BAG[0]], args.players)  # load the compiled kernel first
    print(f"{args.players} players, opponents {args.opponents}, {args.hands} random hands per size")
    print("dice  mean s  max s  widest ±  precise  deals (mean)")
    for n in range(1, hands_for(args.players) + 1):
        times, widths, precise, deals = [], [], 0, []
        for i in range(args.hands):
            dice = rng.sample(BAG, n)
            a = advise(dice, args.players, opponents=args.opponents, seed=i)
            times.append(a.seconds)
            widths.append(max(e.half_width for e in a.bids))
            precise += a.precise
            deals.append(a.deals)
        print(f"{n:4d}  {statistics.fmean(times):6.3f}  {max(times):5.3f}  {max(widths):8.2f}  "
              f"{precise / args.hands:6.0%}  {statistics.fmean(deals):10.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
