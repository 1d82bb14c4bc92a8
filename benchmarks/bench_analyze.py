"""How long `minodice analyze` takes: a 4-seat record of 8 hands, every seat, the default judge, one core.

Plays a seeded game (seat 0 random, seat 1 montecarlo, seats 2-3 greedy), then times
`minodice.review.analyze` over all four seats with one job (issue 15: under a minute), and prints
each seat's mean loss per decision with a choice.

    .venv/bin/python benchmarks/bench_analyze.py [--seed S] [--bot SPEC] [--jobs N]
"""

from __future__ import annotations

import argparse
import time

from minodice.bots import make_bot
from minodice.bots.runner import Match
from minodice.game import Game
from minodice.record import from_game
from minodice.review import DEFAULT_BOT, analyze


def played(seed: str) -> dict:
    game = Game(4, seed=seed)
    specs = ["random", "montecarlo", "greedy", "greedy"]
    match = Match(game, {i: make_bot(spec, seed=f"{seed}:{i}") for i, spec in enumerate(specs)})
    try:
        match.play()
    finally:
        match.close()
    return from_game(game)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", default="bench-analyze")
    ap.add_argument("--bot", default=DEFAULT_BOT)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    record = played(args.seed)
    began = time.perf_counter()
    analysis = analyze(record, None, args.bot, seed=0, jobs=args.jobs)
    took = time.perf_counter() - began
    decisions = sum(len(s.decisions) for s in analysis.seats)
    print(f"4 seats, 8 hands, {decisions} decisions, judge {args.bot}, {args.jobs} job(s): {took:.1f} s "
          f"({1000 * took / decisions:.0f} ms a decision)")
    for s in analysis.seats:
        print(f"  seat {s.seat}: mean loss {s.mean_loss():.2f} a decision with a choice ({s.chosen}), "
              f"total {s.loss:.1f} ± {s.loss_se:.1f}")


if __name__ == "__main__":
    main()
