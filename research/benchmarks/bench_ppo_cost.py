"""What PPO against montecarlo itself would cost here: montecarlo's playouts and time a decision, on one core.

PPO learns from tens of millions of decisions (the shipped 4-seat network:
35,481,600 in 1,000 updates, about 19 minutes in the vector environment). At
a table where the network holds one seat and montecarlo the others, every
decision of the network comes with one of each montecarlo seat. This plays
games of `--spec` (default `montecarlo`) at every seat on one core and
measures, per decision, the playouts its search runs and the time it takes;
then it plays the same number of playouts alone in the compiled simulator
from the same positions (`sim.finish_hand`, one call a decision): the floor
of a montecarlo policy moved inside the kernel, which would still have to
draw its deals by the evidence. It prints what a PPO run of as many network
decisions as the run of `--log` would take on `--cores` cores, both ways.

    .venv/bin/python research/benchmarks/bench_ppo_cost.py --games 8 --seed 9000
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from threadpoolctl import threadpool_limits

from minodice.bots import BotFault, make_bot
from minodice.bots.clairvoyance import show_dice
from minodice.dice import MAX_SEATS, MIN_SEATS
from minodice.game import Bid, Game, Phase, Roll
from minodice.sim import finish_hand

#: The training log of the shipped run's size (`minodice train --seed 1 --updates 1000`).
DEFAULT_LOG = Path(__file__).resolve().parents[1] / "data" / "log-seed1.jsonl"


@dataclass
class Cost:
    """Per decision of the search bot: playouts run, its time, and the time of those playouts alone in the
    simulator (means over `decisions`, forced moves included)."""

    decisions: int
    playouts: float
    ms: float
    kernel_ms: float


def measure(spec: str, games: int, seats: int, seed: int) -> Cost:
    """Games `seed`, `seed + 1`, ... with `spec` at every seat: what its decisions cost (see `Cost`)."""
    positions: list[tuple[Game, int]] = []
    seconds = 0.0
    for i in range(games):
        game = Game(seats, seed=seed + i)
        bots = [make_bot(spec, seed=f"{seed + i}-{s}") for s in range(seats)]
        show_dice(bots, game)  # only a clairvoyant bot (oracle) is shown them
        for s, bot in enumerate(bots):
            bot.start_game(game.setup_view(s))
        while not game.over:
            pending = game.to_act() if game.phase is Phase.BID else [game.turn]
            for seat in pending:
                bot, view = bots[seat], game.observe(seat)
                before = game.clone()
                setattr(bot, "last_explanation", None)  # noqa: B010 (not every bot has one)
                began = time.perf_counter()
                move = Bid(seat, bot.bid(view)) if game.phase is Phase.BID else Roll(seat, bot.roll(view))
                seconds += time.perf_counter() - began
                explanation = getattr(bot, "last_explanation", None)
                positions.append((before, explanation.samples if explanation is not None else 0))
                game.apply(move)
    kernel = 0.0
    for k, (game, playouts) in enumerate(positions):
        if playouts:
            began = time.perf_counter()
            finish_hand(game, playouts, seed + k)
            kernel += time.perf_counter() - began
    n = len(positions)
    return Cost(n, sum(p for _, p in positions) / n, 1000 * seconds / n, 1000 * kernel / n)


def hours(ms: float, decisions: int, opponents: int, cores: int) -> float:
    """Hours on `cores` cores for `opponents` decisions of `ms` milliseconds to each of `decisions`."""
    return decisions * opponents * ms / 1000 / 3600 / cores


def shipped_run(log: Path) -> tuple[int, float]:
    """The decisions and seconds of the last update in a `minodice train` log (ValueError in words)."""
    try:
        last = json.loads(log.read_text().strip().splitlines()[-1])
        return int(last["decisions"]), float(last["seconds"])
    except FileNotFoundError:
        raise ValueError(f"no training log at {log}") from None
    except (OSError, IndexError, KeyError, TypeError, ValueError):
        raise ValueError(f"{log} is not a training log (the log.jsonl that `minodice train` writes)") from None


def _span(h: float) -> str:
    return f"{h:,.0f} hours ({h / 24:.1f} days)" if h >= 48 else f"{h:,.1f} hours"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--spec", default="montecarlo", help="the search bot PPO would play against")
    ap.add_argument("--games", type=int, default=8, help="games of the bot at every seat to measure")
    ap.add_argument("--seats", type=int, default=4, help=f"players ({MIN_SEATS} to {MAX_SEATS})")
    ap.add_argument("--seed", type=int, default=9000, help="seed of the first game")
    ap.add_argument("--cores", type=int, default=2, help="cores the PPO run would have")
    ap.add_argument("--log", type=Path, default=DEFAULT_LOG, help="training log whose decisions PPO would need")
    args = ap.parse_args(argv)
    if args.games < 1 or args.cores < 1:
        ap.error("--games and --cores must be at least 1")
    if not MIN_SEATS <= args.seats <= MAX_SEATS:
        ap.error(f"--seats must be {MIN_SEATS} to {MAX_SEATS}, not {args.seats}")
    try:
        decisions, trained = shipped_run(args.log)
        make_bot(args.spec)
    except ValueError as e:
        ap.error(str(e))
    with threadpool_limits(1):
        try:
            cost = measure(args.spec, args.games, args.seats, args.seed)
        except BotFault as e:
            ap.error(f"{args.spec} failed: {e}")
    others = args.seats - 1
    games = f"{args.games} game{'s' if args.games > 1 else ''}"
    print(f"{args.spec}, {args.seats} seats, {games} ({cost.decisions:,} decisions) on one core:")
    print(f"  {cost.playouts:,.0f} playouts and {cost.ms:.1f} ms a decision; "
          f"the same playouts alone in the simulator {cost.kernel_ms:.1f} ms")
    print(f"PPO with the network at one seat and {others} {args.spec}, {decisions:,} network decisions "
          f"(the run of {args.log.name}: {trained / 60:.0f} minutes of self-play), on {args.cores} cores:")
    print(f"  {args.spec} as it plays: {_span(hours(cost.ms, decisions, others, args.cores))}; inside the "
          f"simulator, at best: {_span(hours(cost.kernel_ms, decisions, others, args.cores))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
