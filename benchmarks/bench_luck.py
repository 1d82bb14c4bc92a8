"""How much taking the luck of the faces out (`minodice.analysis.luck`) narrows a measured lead, and what it costs.

Plays a candidate against a table in duplicate games (as `bench_learned.py` does), then for each number of
playouts a face judges the luck of every game's faces and reports, beside the plain figures: the lead less
the luck and its 95 % interval, the spread of the leads per deal and per game, how many times more deals the
plain lead would need for the same interval (the ratio of the variances), and the seconds a game's luck takes.

    .venv/bin/python benchmarks/bench_luck.py neural --table greedy --deals 100 --playouts 16,64,256 --jobs 2
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from bench_learned import TABLES, candidate_lead, mean_half, table

from minodice.analysis import MAX_LUCK_PLAYOUTS
from minodice.analysis.luck import Luck, face_luck
from minodice.tournament import GameResult, TournamentConfig, entrants_from_specs, run_tournament


def games_luck(records: Sequence[dict | None], playouts: int, jobs: int = 1) -> list[Luck]:
    """The luck of each game's finished hands (`analysis.luck.face_luck`), over `jobs` processes."""
    if any(r is None for r in records):
        raise ValueError("the luck of the faces needs every game's record")
    judge = functools.partial(face_luck, playouts=playouts)
    if jobs <= 1:
        return [judge(r) for r in records]
    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(judge, records, chunksize=8))


def spread(games: Sequence[GameResult], leads: Sequence[float]) -> dict[str, float]:
    """The mean lead per deal, its interval, and the spread of the leads per deal and per game."""
    per_deal: dict[int, list[float]] = defaultdict(list)
    for game, x in zip(games, leads, strict=True):
        per_deal[game.deal].append(x)
    deals = [statistics.fmean(v) for v in per_deal.values()]
    mean, half = mean_half(deals)
    return {"lead": mean, "ci95": half, "sd_deal": statistics.stdev(deals), "sd_game": statistics.stdev(leads)}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("candidate", nargs="?", default="neural", help="the candidate's bot spec")
    ap.add_argument("--table", default="greedy", choices=sorted(TABLES))
    ap.add_argument("--deals", type=int, default=100, help="deals (each played once per seat)")
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--playouts", default="16,64,256", help="comma-separated playouts a face to compare")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = ap.parse_args(argv)
    try:
        budgets = [int(x) for x in args.playouts.split(",")]
    except ValueError:
        ap.error(f"--playouts takes whole numbers separated by commas, not {args.playouts!r}")
    if args.deals < 2 or any(not 1 <= b <= MAX_LUCK_PLAYOUTS for b in budgets):
        ap.error(f"--deals must be at least 2 and every --playouts 1 to {MAX_LUCK_PLAYOUTS:,}")
    specs = [args.candidate, *table(args.table)]
    config = TournamentConfig(entrants_from_specs(specs), games=args.deals * len(specs), seed=args.seed, records=True)
    games = run_tournament(config, jobs=args.jobs).results
    plain = spread(games, [candidate_lead(g.seats, g.totals) for g in games])
    print(f"{args.candidate} vs three {args.table}, {args.deals} deals ({len(games)} games), seed {args.seed}")
    print(f"  plain lead {plain['lead']:+6.1f} ± {plain['ci95']:4.1f}   sd per deal {plain['sd_deal']:5.1f}, "
          f"per game {plain['sd_game']:5.1f}")
    for playouts in budgets:
        began = time.perf_counter()
        lucks = games_luck([g.record for g in games], playouts, args.jobs)
        seconds = (time.perf_counter() - began) * max(args.jobs, 1) / len(games)
        less = spread(games, [candidate_lead(g.seats, luck.corrected(g.totals)) for g, luck in zip(games, lucks, strict=True)])
        print(f"  {playouts:5d} playouts a face: lead {less['lead']:+6.1f} ± {less['ci95']:4.1f}   sd per deal "
              f"{less['sd_deal']:5.1f}, per game {less['sd_game']:5.1f}   "
              f"{(plain['sd_deal'] / less['sd_deal']) ** 2:4.1f} times fewer deals   {seconds:.2f} s a game",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
