"""How often does a model of the other seats pick the move they make? The question behind `replies=FILE`.

`neural+search`'s network playouts let the kernel's `greedy` play the other
seats; the lab's `neural+search-lab` (`research.lab`) takes `replies=FILE`,
which hands them to a network. This plays `--games`
games of `--teacher` at every seat and, at every decision with a choice, asks
each `--model` bot (any bot spec) what it would play in that seat's view; it
prints, per model, the share of bids and of rolls where it picks the
teacher's move.

    .venv/bin/python research/benchmarks/bench_agreement.py --games 20 --seed 300630 --model greedy \\
        --model neural:weights=research/data/expert-mc-4seats.npz --model neural
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from bench_prior import add_teacher_games, teacher_decisions

from minodice.bots import Bot, BotSpecError, make_bot
from minodice.game import Game


@dataclass
class Agreement:
    """One model's agreements with the teacher, bids and rolls apart."""

    bids: int = 0
    bids_agreed: int = 0
    rolls: int = 0
    rolls_agreed: int = 0

    def add(self, bidding: bool, agreed: bool) -> None:
        if bidding:
            self.bids += 1
            self.bids_agreed += agreed
        else:
            self.rolls += 1
            self.rolls_agreed += agreed


def measure(models: Sequence[str], *, games: int, seed: int, seats: int = 4,
            teacher: str = "montecarlo") -> dict[str, Agreement]:
    """Each model's agreement over `games` games of `teacher` at every seat (game i dealt from `seed + i`)."""
    tallies = {m: Agreement() for m in models}
    guessers: dict[str, list[Bot]] = {}
    current = -1
    for g, view, move in teacher_decisions(games=games, seed=seed, seats=seats, teacher=teacher):
        if g != current:  # a new game: fresh bots, told it starts
            current, setup = g, Game(seats, seed=seed + g)
            guessers = {m: [make_bot(m, seed=s) for s in range(seats)] for m in models}
            for bots in guessers.values():
                for s, bot in enumerate(bots):
                    bot.start_game(setup.setup_view(s))
        for m in models:
            bot = guessers[m][view.seat]
            guess = bot.bid(view) if view.legal_bids else bot.roll(view)
            tallies[m].add(bool(view.legal_bids), guess == move)
    return tallies


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_teacher_games(parser)
    parser.add_argument("--model", action="append", help="a bot spec whose moves are compared (repeat)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    models = args.model or ["greedy", "neural"]
    try:
        tallies = measure(models, games=args.games, seed=args.seed, seats=args.seats, teacher=args.teacher)
    except (BotSpecError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{args.games} games of {args.teacher} at {args.seats} seats: the share of its moves each model picks")
    print(f"{'model':60s} {'bids':>14s} {'rolls':>15s}")
    for m, t in tallies.items():
        print(f"{m[-60:]:60s} {t.bids_agreed / t.bids:6.1%} of {t.bids:4d} {t.rolls_agreed / t.rolls:6.1%} of {t.rolls:5d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
