"""Decision quality of a search bot, position by position: far less noisy than whole games.

Whole-game comparisons need hundreds of deals to see a few points per game
(scores vary by ±40 per deal). This benchmark instead collects the positions a
bot meets in games against three `greedy` bots (the bot in seat 0) and judges
decisions there:

- **Rolls.** For every roll with a choice, each legal die is valued on the
  *true* deal (clairvoyant: the hidden dice are known) by `--eval-playouts`
  simulator playouts with greedy continuations. A variant's *regret* is the
  best die's value minus its chosen die's value. Variants are compared on the
  same positions (paired), so differences of 0.1 point per decision show.
  The clairvoyant judge knows what no bot can, so no bot reaches 0; the
  differences between variants are the figure.
- **Bids** (`--bids N`: the first N bid positions). The bot's bid b and the
  bids b − 1 and b + 1 are each played to the end of the hand `--replays`
  times on the true deal with the bot itself rolling for seat 0 (greedy for
  the others, the same faces for each candidate in a replay). If the bot bids
  well, both neighbours score less than b on average; a systematic lean to
  one side shows as a neighbour that scores more. The bot's own estimate of b
  is set against the score b really made.

    .venv/bin/python benchmarks/bench_decisions.py --games 50 --variant montecarlo:per=16 --variant greedy
    .venv/bin/python benchmarks/bench_decisions.py --games 40 --bids 300 --replays 4 --jobs 2
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np

from minodice.bots import make_bot
from minodice.bots.greedy import GreedyBot
from minodice.dice import Die
from minodice.game import Bid, Game, Phase, Roll, SeededChance
from minodice.sim.playout import playout_values
from minodice.view import View

SEATS = 4


@dataclass
class Position:
    """A decision the bot met: the true game (all dice known) and the bot's view of it."""

    kind: str  # "bid" or "roll"
    game: Game
    view: View


def collect(job: tuple[str, Sequence[int], int, str]) -> list[Position]:
    """Positions of seat 0 (played by the bot spec) in the given games against three `opponents` bots."""
    bot_spec, game_ids, seed, opponents = job
    out: list[Position] = []
    for g in game_ids:
        game = Game(SEATS, seed=seed * 100_000 + g)
        base = seed * 100_000 + g
        bots = [make_bot(bot_spec, seed=base), *(make_bot(opponents, seed=f"{base}:{s}") for s in range(1, SEATS))]
        while not game.over:
            if game.phase is Phase.BID:
                for s in range(SEATS):
                    if game.log[-1].bids[s] is None:
                        view = game.observe(s)
                        if s == 0:
                            out.append(Position("bid", game.clone(), view))
                        game.apply(Bid(s, bots[s].bid(view)))
                continue
            s = game.turn
            view = game.observe(s)
            if s == 0 and sum(isinstance(a, Die) for a in view.legal or ()) > 1:
                out.append(Position("roll", game.clone(), view))
            game.apply(Roll(s, bots[s].roll(view)))
    return out


def roll_regrets(job: tuple[list[Position], Sequence[str], int, int]) -> list[list[float]]:
    """Per position, each variant's regret against clairvoyant playout values."""
    positions, variants, playouts, offset = job
    rows = []
    for i, pos in enumerate(positions):
        legal = [a for a in pos.view.legal or () if isinstance(a, Die)]
        values = dict(zip(legal, playout_values(pos.game, 0, legal, playouts, 7919 * (offset + i))))
        top = max(values.values())
        rows.append([top - values[make_bot(v, seed=offset + i).roll(pos.view)] for v in variants])
    return rows


def bid_checks(job: tuple[list[Position], str, int, int]) -> list[dict]:
    """Per bid position: the bot's bid, its estimates, and the real-play score of b-1, b, b+1."""
    positions, spec, replays, offset = job
    greedy = GreedyBot()
    rows = []
    for i, pos in enumerate(positions):
        bot = make_bot(spec, seed=offset + i)
        b = bot.bid(pos.view)
        explanation = getattr(bot, "last_explanation", None)
        estimate = {c.choice: c.mean for c in explanation.choices} if explanation else {}
        scores = {}
        for cand in (b - 1, b, b + 1):
            if not 0 <= cand <= pos.view.hand:
                continue
            got = []
            for r in range(replays):
                game = pos.game.clone(chance=SeededChance(1_000_003 * (offset + i) + r))
                player = make_bot(spec, seed=31 * (offset + i) + r)
                for s in range(SEATS):
                    game.apply(Bid(s, cand if s == 0 else greedy.bid(game.observe(s))))
                hand = game.log[-1]
                while hand.scores is None:
                    s = game.turn
                    game.apply(Roll(s, (player if s == 0 else greedy).roll(game.observe(s))))
                got.append(hand.scores[0])
            scores[cand] = statistics.fmean(got)
        rows.append({"hand": pos.view.hand, "bid": b, "estimate": estimate, "scores": scores})
    return rows


def mean_ci(xs: Sequence[float]) -> str:
    """Mean with a 95% interval half-width (normal approximation)."""
    if len(xs) < 2:
        return f"{xs[0]:+.2f}" if xs else "n/a"
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))
    return f"{statistics.fmean(xs):+.2f} ± {half:.2f}"


def _chunks(items: list, n: int) -> list[tuple[int, list]]:
    size = math.ceil(len(items) / n) if items else 0
    return [(k, items[k : k + size]) for k in range(0, len(items), size)] if size else []


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot", default="montecarlo", help="the bot whose games give the positions")
    ap.add_argument("--games", type=int, default=20, help="games played to collect positions")
    ap.add_argument("--opponents", default="greedy",
                    help="the bot in the other three seats while collecting (default greedy; the judge's playouts "
                         "and the bid replays still continue with greedy)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variant", action="append", default=[],
                    help="a bot spec judged on the roll positions (repeatable; default: --bot and greedy)")
    ap.add_argument("--eval-playouts", type=int, default=4000, help="clairvoyant playouts per die")
    ap.add_argument("--bids", type=int, default=0, help="bid positions to check by real play (0: none)")
    ap.add_argument("--replays", type=int, default=4, help="real-play replays per candidate bid")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args(argv)
    for name in ("games", "eval_playouts", "replays", "jobs"):
        if getattr(args, name) < 1:
            ap.error(f"--{name.replace('_', '-')} must be at least 1")
    variants = args.variant or [args.bot, "greedy"]
    for v in [args.bot, args.opponents, *variants]:
        try:
            make_bot(v)
        except ValueError as e:
            ap.error(str(e))

    with ProcessPoolExecutor(args.jobs) as pool:
        ids = list(range(args.games))
        cjobs = [(args.bot, ids[j :: args.jobs], args.seed, args.opponents) for j in range(min(args.jobs, args.games))]
        positions = [p for part in pool.map(collect, cjobs) for p in part]
        rolls = [p for p in positions if p.kind == "roll"]
        bids = [p for p in positions if p.kind == "bid"][: args.bids]
        print(f"{args.bot}: {len(rolls)} roll and {len(bids)} bid positions from {args.games} games "
              f"against three {args.opponents} (seed {args.seed})", flush=True)
        jobs = [(chunk, variants, args.eval_playouts, k) for k, chunk in _chunks(rolls, args.jobs)]
        regrets = np.array([row for part in pool.map(roll_regrets, jobs) for row in part])
        checks = []
        if bids:
            bjobs = [(chunk, args.bot, args.replays, k) for k, chunk in _chunks(bids, args.jobs)]
            checks = [row for part in pool.map(bid_checks, bjobs) for row in part]

    if len(regrets):
        print(f"\nroll regret per decision (clairvoyant judge, {args.eval_playouts} playouts per die)")
        for j, v in enumerate(variants):
            diff = "" if j == 0 else f"   vs {variants[0]}: {mean_ci(list(regrets[:, j] - regrets[:, 0]))}"
            print(f"  {v:40s} {mean_ci(list(regrets[:, j]))}{diff}")
    if checks:
        up = [r["scores"][r["bid"] + 1] - r["scores"][r["bid"]] for r in checks if r["bid"] + 1 in r["scores"]]
        down = [r["scores"][r["bid"] - 1] - r["scores"][r["bid"]] for r in checks if r["bid"] - 1 in r["scores"]]
        print(f"\nbids by real play ({len(checks)} positions, {args.replays} replays per candidate)")
        print(f"  bid one more than {args.bot}: {mean_ci(up)} points ({len(up)} positions)")
        print(f"  bid one fewer:{'':14s} {mean_ci(down)} points ({len(down)} positions)")
        for b in sorted({min(r["bid"], 3) for r in checks}):
            gap = [r["scores"][r["bid"]] - r["estimate"][r["bid"]] for r in checks
                   if min(r["bid"], 3) == b and r["bid"] in r["estimate"]]
            label = f"bid {b}" if b < 3 else "bid 3+"
            print(f"  {label}: score made minus the bot's estimate {mean_ci(gap)} ({len(gap)} positions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
