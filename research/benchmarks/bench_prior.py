"""How sure is a network as `neural+search`'s prior? The question behind the montecarlo-imitating network.

`neural+search` searches only the moves its network gives at least `prior`
probability (`NeuralSearchBot.plausible`); where that leaves one move it plays
it without searching. A network that is seldom sure hands most decisions to
the search. This plays `--games` games of `montecarlo` at every seat and, at
every decision with a choice, asks each network for its plausible moves. It
prints, per network: the share of those decisions narrowed to one move, the
mean count of moves kept, and how often montecarlo's own move is among them.

The default games (seed 300630 on) are among those `expert-mc-4seats.npz` held out from its training.

    .venv/bin/python research/benchmarks/bench_prior.py --games 20 --seed 300630 \\
        --weights shipped --weights src/minodice/bots/weights/expert-4.npz --weights research/data/expert-mc-4seats.npz
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from minodice.bots import make_bot
from minodice.bots.neural import NeuralSearchBot
from minodice.dice import Die
from minodice.game import Bid, Game, Phase, Roll
from minodice.view import View

#: The name that stands for the network shipped for the table's size.
SHIPPED = "shipped"


@dataclass
class Tally:
    """One network's plausible moves over the decisions seen."""

    decisions: int = 0
    narrowed: int = 0
    kept: int = 0
    teacher_kept: int = 0

    def add(self, move: int | object, plausible: View) -> None:
        legal = plausible.legal_bids or plausible.legal_dice
        self.decisions += 1
        self.narrowed += len(legal) == 1
        self.kept += len(legal)
        self.teacher_kept += move in legal


def prior_bot(weights: str, prior: float) -> NeuralSearchBot:
    """`neural+search` with `weights` (or the network shipped for the table's size) at `prior`."""
    spec = f"neural+search:prior={prior}" + ("" if weights == SHIPPED else f",weights={weights}")
    bot = make_bot(spec, seed=0)
    assert isinstance(bot, NeuralSearchBot)
    return bot


def teacher_decisions(*, games: int, seed: int, seats: int, teacher: str) -> Iterator[tuple[int, View, int | Die]]:
    """Every decision with a choice in `games` games of `teacher` at every seat (game i dealt from `seed + i`):
    the game's number, the seat's view and the teacher's move, before the move is played."""
    for g in range(games):
        game = Game(seats, seed=seed + g)
        players = [make_bot(teacher, seed=f"{seed + g}-{s}") for s in range(seats)]
        for s, bot in enumerate(players):
            bot.start_game(game.setup_view(s))
        while not game.over:
            for seat in game.to_act() if game.phase is Phase.BID else [game.turn]:
                view = game.observe(seat)
                bidding = game.phase is Phase.BID
                move = players[seat].bid(view) if bidding else players[seat].roll(view)
                if len(view.legal_bids or view.legal_dice) > 1:
                    yield g, view, move
                game.apply(Bid(seat, move) if bidding else Roll(seat, move))


def add_teacher_games(parser: argparse.ArgumentParser) -> None:
    """The options choosing `teacher_decisions`' games: --games, --seed, --seats, --teacher."""
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=300630)
    parser.add_argument("--seats", type=int, default=4, choices=range(3, 7))
    parser.add_argument("--teacher", default="montecarlo", help="the bot playing every seat")


def measure(weights: Sequence[str], *, games: int, seed: int, seats: int = 4, prior: float = 0.1,
            teacher: str = "montecarlo") -> dict[str, Tally]:
    """Each network's tally over `games` games of `teacher` at every seat (game i dealt from `seed + i`)."""
    tallies = {w: Tally() for w in weights}
    bots = {w: prior_bot(w, prior) for w in weights}
    for _g, view, move in teacher_decisions(games=games, seed=seed, seats=seats, teacher=teacher):
        for w, bot in bots.items():
            tallies[w].add(move, bot.plausible(view))
    return tallies


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_teacher_games(parser)
    parser.add_argument("--prior", type=float, default=0.1)
    parser.add_argument("--weights", action="append", help=f"a network file, or {SHIPPED!r} (repeat)")
    args = parser.parse_args(argv)
    if args.games < 1 or not 0 <= args.prior <= 1:
        parser.error("--games must be at least 1 and --prior a probability")
    weights = args.weights or [SHIPPED]
    try:
        tallies = measure(weights, games=args.games, seed=args.seed, seats=args.seats, prior=args.prior,
                          teacher=args.teacher)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{args.games} games of {args.teacher} at {args.seats} seats, prior {args.prior:g}")
    print(f"{'network':48s} {'decisions':>9s} {'one move':>9s} {'kept':>5s} {args.teacher + ' kept':>16s}")
    for w, t in tallies.items():
        print(f"{w[-48:]:48s} {t.decisions:9d} {t.narrowed / t.decisions:9.1%} {t.kept / t.decisions:5.2f} "
              f"{t.teacher_kept / t.decisions:16.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
