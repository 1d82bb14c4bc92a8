"""Records at scale: seeded random games -> record -> check -> fill -> compare scores.

Plays 10,000 seeded random games (3 to 6 seats in turn, rotating through all 24
rule tables), writes each as a `minodice/1` record (JSON text), parses it back,
checks it, fills in its derived fields from a copy stripped of them, and
compares the rescored hands and totals with the engine's. Prints the counts
and where the time went.

    .venv/bin/python benchmarks/bench_records.py                 # 10,000 games
    .venv/bin/python benchmarks/bench_records.py --games 1000
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import time
from collections import Counter

from minodice import record
from minodice.game import Game
from minodice.rules import RULE_OPTIONS, Rules

ALL_RULES = [Rules(*c) for c in itertools.product(*(v for v, _ in RULE_OPTIONS.values()))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="games (default 10,000)")
    parser.add_argument("--seed", type=int, default=0, help="first game seed (default 0)")
    args = parser.parse_args()

    spent = Counter()
    seats_seen = Counter()
    faults: list[str] = []
    mismatches: list[int] = []
    hands = tricks = 0
    clock = time.perf_counter
    start = clock()
    for i in range(args.seed, args.seed + args.games):
        seats = 3 + i % 4
        rules = ALL_RULES[(i // 4) % len(ALL_RULES)]
        t0 = clock()
        game = Game(seats, seed=i, rules=rules, first_start=i % seats)
        rng = random.Random(~i)
        while not game.over:
            game.apply(rng.choice(game.legal_actions()))
        t1 = clock()
        text = json.dumps(record.from_game(game))
        t2 = clock()
        rec = record.parse(text)
        fault = record.check(rec)
        t3 = clock()
        if fault is not None:
            faults.append(f"game {i}: {fault}")
            continue
        for hand in rec["hands"]:  # rescore from a record without derived fields
            del hand["scores"]
            for trick in hand["tricks"]:
                del trick["winner"]
        del rec["totals"]
        filled = record.fill(rec)
        t4 = clock()
        same = filled["totals"] == game.totals and [h["scores"] for h in filled["hands"]] == [
            list(h.scores) for h in game.log
        ]
        if not same:
            mismatches.append(i)
        spent["play"] += t1 - t0
        spent["write record"] += t2 - t1
        spent["parse + check"] += t3 - t2
        spent["fill"] += t4 - t3
        seats_seen[seats] += 1
        hands += len(game.log)
        tricks += sum(len(h.tricks) for h in game.log)
    total = clock() - start

    ok = args.games - len(faults) - len(mismatches)
    print(f"records: {args.games:,} seeded random games (3-6 seats, all {len(ALL_RULES)} rule tables)")
    print("  seats: " + ", ".join(f"{s}: {n:,}" for s, n in sorted(seats_seen.items())))
    print(f"  {hands:,} hands, {tricks:,} tricks")
    print(f"  verified ok: {args.games - len(faults):,}   rejected: {len(faults)}   "
          f"rescored identically: {ok:,}   score mismatches: {len(mismatches)}")
    print(f"  total {total:.2f} s ({args.games / total:,.0f} games/s, {total / args.games * 1e3:.2f} ms per game)")
    for step, seconds in spent.items():
        print(f"    {step:14s} {seconds:7.2f} s  ({seconds / args.games * 1e3:.3f} ms per game)")
    for line in faults[:5]:
        print("  FAULT", line)
    if mismatches:
        print("  MISMATCH in games", mismatches[:10])
    raise SystemExit(1 if faults or mismatches else 0)


if __name__ == "__main__":
    main()
