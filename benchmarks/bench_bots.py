"""Strength and thinking time of a bot against `greedy`, in duplicate 4-seat games.

For every deal seed two games are played with the same dice: the candidate in
seats 0 and 2 and greedy in 1 and 3, then the other way round. Faces come from
a chance source keyed by (hand, seat, die kind, occurrence), so the same seat
rolling the same kind of die for the k-th time in a hand sees the same face in
both games even when the order of the rolls differs. The figure is the
candidate seats' mean total minus the greedy seats' mean total, averaged over
the two games of a deal, with a 95% interval over deals (t-distribution).

Decision times are measured around each call to the candidate's `bid`/`roll`
(the runner asks even when only one die is legal; those are counted apart).

    .venv/bin/python benchmarks/bench_bots.py                            # montecarlo, 100 deals
    .venv/bin/python benchmarks/bench_bots.py ismcts --deals 200 --jobs 2
    .venv/bin/python benchmarks/bench_bots.py "montecarlo:sims=200" --seats 4 --deals 50
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field

from minodice.bots import Bot, make_bot
from minodice.bots.runner import Match
from minodice.dice import BAG, Die, Face
from minodice.game import Game
from minodice.view import View


class KeyedChance:
    """Deals by (seed, hand); faces by (seed, hand, seat, die kind, occurrence): duplicate-friendly."""

    def __init__(self, seed: object) -> None:
        self.seed = seed

    def deal(self, game: Game, hand: int, each: int) -> list[list[Die]]:
        bag = list(BAG)
        random.Random(f"{self.seed}:deal:{hand}").shuffle(bag)
        return [bag[s * each : (s + 1) * each] for s in range(game.seats)]

    def land(self, game: Game, seat: int, die: Die) -> Face:
        cur = game.current
        assert cur is not None
        k = sum(1 for t in cur.tricks for s, d, _ in t.rolls if s == seat and d is die)
        u = random.Random(f"{self.seed}:face:{game.hand}:{seat}:{die.value}:{k}").random()
        return die.faces[int(u * 6)]

    def copy(self) -> KeyedChance:
        return self  # stateless


class Timed(Bot):
    """Wraps a bot and records the seconds of each decision."""

    def __init__(self, inner: Bot) -> None:
        super().__init__(inner.rng)
        self.inner = inner
        self.name = inner.name
        self.bids: list[float] = []
        self.rolls: list[float] = []
        self.forced: list[float] = []

    def bid(self, view: View) -> int:
        t = time.perf_counter()
        answer = self.inner.bid(view)
        self.bids.append(time.perf_counter() - t)
        return answer

    def roll(self, view: View) -> Die:
        t = time.perf_counter()
        answer = self.inner.roll(view)
        (self.forced if len(view.legal or ()) == 1 else self.rolls).append(time.perf_counter() - t)
        return answer


@dataclass
class DealResult:
    diff: float  # candidate minus greedy, per game, averaged over the two games
    cand: float  # candidate seats' mean total
    base: float  # greedy seats' mean total
    bids: list[float] = field(default_factory=list)
    rolls: list[float] = field(default_factory=list)
    forced: list[float] = field(default_factory=list)
    faults: int = 0


def play_deal(spec: str, baseline: str, seats: int, deal_seed: object) -> DealResult:
    """The two games of one deal; the candidate takes the even seats, then the odd ones."""
    diffs, cands, bases = [], [], []
    res = DealResult(0.0, 0.0, 0.0)
    for rotation in (0, 1):
        game = Game(seats, chance=KeyedChance(deal_seed))
        mine = [s for s in range(seats) if s % 2 == rotation]
        bots: dict[int, Bot] = {}
        for s in range(seats):
            seed = f"{deal_seed}:{rotation}:{s}"
            bots[s] = Timed(make_bot(spec, seed=seed)) if s in mine else make_bot(baseline, seed=seed)
        faults: list = []
        Match(game, bots, on_fault=faults.append).play()
        res.faults += len(faults)
        cand = statistics.fmean(game.totals[s] for s in mine)
        base = statistics.fmean(game.totals[s] for s in range(seats) if s not in mine)
        diffs.append(cand - base)
        cands.append(cand)
        bases.append(base)
        for s in mine:
            b = bots[s]
            assert isinstance(b, Timed)
            res.bids += b.bids
            res.rolls += b.rolls
            res.forced += b.forced
    res.diff, res.cand, res.base = statistics.fmean(diffs), statistics.fmean(cands), statistics.fmean(bases)
    return res


def _job(args: tuple[str, str, int, object]) -> DealResult:
    return play_deal(*args)


# t quantiles (two-sided 95%) for small samples; 1.96 beyond.
_T95 = {2: 12.71, 3: 4.30, 4: 3.18, 5: 2.78, 6: 2.57, 8: 2.36, 10: 2.26, 15: 2.14, 20: 2.09, 30: 2.04, 60: 2.0}


def t95(n: int) -> float:
    """Two-sided 95% t quantile for a mean of n values (conservative between table points)."""
    if n >= 120:
        return 1.96
    for k in sorted(_T95):
        if n <= k:
            return _T95[k]
    return 1.98


def duplicate(
    spec: str, deals: Sequence[object], *, baseline: str = "greedy", seats: int = 4, jobs: int = 1
) -> list[DealResult]:
    """Play every deal in duplicate; one result per deal."""
    tasks = [(spec, baseline, seats, d) for d in deals]
    if jobs <= 1:
        return [play_deal(*t) for t in tasks]
    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(_job, tasks))


def summarize(values: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.inf
    return mean, t95(len(values)) * statistics.stdev(values) / math.sqrt(len(values))


def _times(label: str, xs: Sequence[float]) -> str:
    if not xs:
        return f"  {label:<14} none"
    s = sorted(xs)
    p95 = s[min(len(s) - 1, int(0.95 * len(s)))]
    return (
        f"  {label:<14} {len(s):6d} decisions   mean {statistics.fmean(s) * 1000:7.1f} ms   "
        f"p50 {s[len(s) // 2] * 1000:7.1f}   p95 {p95 * 1000:7.1f}   max {s[-1] * 1000:7.1f} ms"
    )


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("spec", nargs="?", default="montecarlo", help="the candidate bot's spec")
    ap.add_argument("--baseline", default="greedy", help="the bot it plays against (default greedy)")
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--deals", type=int, default=100, help="deal seeds (two games each)")
    ap.add_argument("--seed", default="bench", help="prefix of the deal seeds")
    ap.add_argument("--start", type=int, default=0, help="first deal number")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (times are per process)")
    ap.add_argument("--save", help="write each deal's lead and decision times to this JSON file")
    args = ap.parse_args(argv)

    make_bot(args.spec)  # fail early on a bad spec
    deals = [f"{args.seed}-{i}" for i in range(args.start, args.start + args.deals)]
    began = time.perf_counter()
    results = duplicate(args.spec, deals, baseline=args.baseline, seats=args.seats, jobs=args.jobs)
    wall = time.perf_counter() - began
    diff, half = summarize([r.diff for r in results])
    print(
        f"{args.spec} vs {args.baseline}: {args.seats} seats, {len(results)} deals x 2 games "
        f"(numba simulator playouts), {wall:.0f} s"
    )
    print(f"  lead per game   {diff:+7.1f} ± {half:.1f}   (95% interval over deals)")
    print(
        f"  mean totals     candidate {statistics.fmean(r.cand for r in results):7.1f}   "
        f"{args.baseline} {statistics.fmean(r.base for r in results):7.1f}"
    )
    if args.save:
        with open(args.save, "w") as f:
            json.dump({"spec": args.spec, "deals": deals, "results": [asdict(r) for r in results]}, f)
    faults = sum(r.faults for r in results)
    if faults:
        print(f"  FAULTS: {faults}")
    print(_times("bids", [t for r in results for t in r.bids]))
    print(_times("rolls (choice)", [t for r in results for t in r.rolls]))
    print(_times("rolls (forced)", [t for r in results for t in r.forced]))
    print(_times("all choices", [t for r in results for t in r.bids + r.rolls]))
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
