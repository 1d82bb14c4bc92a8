"""How well do a search's guesses of the hidden dice fit the truth? The evidence models of `bots.inference`.

A searching bot draws the dice it cannot see from a posterior weighed by the
other seats' revealed bids and rolls (`PosteriorSampler`). This plays
`--games` games of `--players` at every seat and, at each roll of seat 0 with
a choice once a die has been rolled this hand, draws `--deals` deals under
each evidence model (`--model`, options as a searching bot's spec takes them:
``infer=1``, ``infer=2,roll_infer=0.2``, ``bid_beta=0.5,roll_infer=0.2``) and
scores them against the dice the other seats really hold:

- **placed**: the share of the other seats' hidden dice a deal gives to the
  right seat (higher is better; it also rewards a posterior surer than the
  evidence allows);
- **Brier**: for every other seat and die colour, the squared error of the
  deals' probability that the seat holds one, summed (lower is better; a
  proper score, so an overconfident posterior pays for it).

Each model is compared with the first, position by position (95 % interval).
It also prints how often the players bid and roll as the greedy model assumes
(decisions with a choice, every seat): the calibration of that model; and the
`bid_beta` that makes their bids likeliest.

    .venv/bin/python research/benchmarks/bench_inference.py --games 20 --seed 700000 \\
        --model infer=1 --model infer=0 --model infer=5 --model roll_infer=0.2,bid_beta=0.5
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from minodice.bots import BotSpecError, make_bot
from minodice.bots.greedy import GreedyBot
from minodice.bots.inference import PosteriorSampler, Trust, bid_surprise, dice_key, heuristic_bid
from minodice.bots.montecarlo import MonteCarloBot
from minodice.dice import Die
from minodice.game import Bid, Game, Phase, Roll
from minodice.tournament.stats import mean_ci
from minodice.view import View

_GREEDY = GreedyBot()
#: The `bid_beta` values tried when fitting the players' bids.
BETAS = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.7, 1.0, 1.5, 2.0)


@dataclass
class Agreement:
    """How often the players' moves with a choice were greedy's: bids, and rolls by the number of legal dice."""

    bids: int = 0
    bids_greedy: int = 0
    rolls: Counter = field(default_factory=Counter)
    rolls_greedy: Counter = field(default_factory=Counter)
    #: Each bid with its hand's dice, table size and rules (for `best_beta`).
    seen: list = field(default_factory=list)

    def bid(self, view: View, bid: int) -> None:
        self.bids += 1
        key = dice_key(view.dice)
        self.bids_greedy += bid == heuristic_bid(key, view.seats, view.rules)
        self.seen.append((key, bid, view.seats, view.rules))

    def log_likelihood(self, beta: float) -> float:
        """The bids' mean log-likelihood under a Boltzmann-rational bidder (`bid_surprise`)."""
        return -sum(bid_surprise(key, bid, beta, seats, rules) for key, bid, seats, rules in self.seen) / len(self.seen)

    def best_beta(self) -> float:
        """The `bid_beta` (on a grid) under which the bids seen are likeliest."""
        return max(BETAS, key=self.log_likelihood)

    def roll(self, view: View, die: Die) -> None:
        choices = len(set(view.legal_dice))
        self.rolls[choices] += 1
        self.rolls_greedy[choices] += _GREEDY.roll(view) is die


Position = tuple[View, dict[int, list[Die]]]


def positions(games: int, seed: int, players: str, seats: int = 4) -> tuple[list[Position], Agreement]:
    """Seat 0's roll positions (with a choice, after a die of this hand) and the dice the others held there."""
    out: list[Position] = []
    agreement = Agreement()
    for g in range(games):
        game = Game(seats, seed=seed + g)
        bots = [make_bot(players, seed=f"{seed + g}:{s}") for s in range(seats)]
        while not game.over:
            if game.phase is Phase.BID:
                for s in game.to_act():
                    view = game.observe(s)
                    bid = bots[s].bid(view)
                    if len(view.legal_bids) > 1:
                        agreement.bid(view, bid)
                    game.apply(Bid(s, bid))
                continue
            seat = game.turn
            view = game.observe(seat)
            die = bots[seat].roll(view)
            if len(set(view.legal_dice)) > 1:
                agreement.roll(view, die)
                if seat == 0 and any(t.rolls for t in view.tricks):
                    out.append((view, {s: list(game.held(s)) for s in range(1, seats)}))
            game.apply(Roll(seat, die))
    return out, agreement


def evidence_of(model: str) -> float | Trust:
    """The evidence model a searching bot's options name (through montecarlo's own parsing)."""
    bot = make_bot(f"montecarlo:{model}", seed=0)
    assert isinstance(bot, MonteCarloBot)
    return bot.evidence


def score(model: float | Trust, found: Sequence[Position], deals: int) -> tuple[list[float], list[float]]:
    """Per position: the share of hidden dice placed right, and the Brier score of holding each colour."""
    placed, brier = [], []
    for n, (view, truth) in enumerate(found):
        total = sum(len(d) for d in truth.values())
        drawn = PosteriorSampler(view, model, random.Random(n), {}).deals(deals)
        right = sum(sum((Counter(d.get(s, ())) & Counter(truth[s])).values()) for d in drawn for s in truth)
        placed.append(right / (deals * total) if total else 1.0)
        error = 0.0
        for s, held in truth.items():
            for colour in Die:
                p = sum(colour in d.get(s, ()) for d in drawn) / deals
                error += (p - (colour in held)) ** 2
        brier.append(error)
    return placed, brier


def interval(diffs: Sequence[float]) -> tuple[float, float]:
    """Mean and 95 % half-width (t interval) of paired differences."""
    mean, ci = mean_ci(diffs)
    return mean, (ci[1] - ci[0]) / 2 if ci else float("nan")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=700000)
    parser.add_argument("--seats", type=int, default=4, choices=range(3, 7), metavar="{3..6}")
    parser.add_argument("--players", default="montecarlo", help="the bot at every seat (default montecarlo)")
    parser.add_argument("--deals", type=int, default=32, help="deals drawn per position and model")
    parser.add_argument("--model", action="append", help="evidence options (repeat; the first is the baseline)")
    args = parser.parse_args(argv)
    models = args.model or ["infer=1", "infer=0", "roll_infer=0.2,bid_beta=0.5"]
    if args.games < 1 or args.deals < 1:
        parser.error("--games and --deals must be 1 or more")
    try:
        evidence = [evidence_of(m) for m in models]
        make_bot(args.players, seed=0)
    except BotSpecError as exc:
        parser.error(str(exc))
    found, agreement = positions(args.games, args.seed, args.players, args.seats)
    print(f"{args.games} games of {args.players}, {args.seats} seats, seed {args.seed}: {len(found)} positions")
    print(f"bids as greedy's: {agreement.bids_greedy / max(agreement.bids, 1):.1%} of {agreement.bids}")
    if agreement.bids:
        beta = agreement.best_beta()
        print(f"bids fitted as Boltzmann-rational: bid_beta {beta:g} (mean log-likelihood "
              f"{agreement.log_likelihood(beta):.3f} a bid)")
    for k in sorted(agreement.rolls):
        print(f"rolls as greedy's, {k} colours to choose from: "
              f"{agreement.rolls_greedy[k] / agreement.rolls[k]:.1%} of {agreement.rolls[k]} (chance {1 / k:.0%})")
    if not found:
        print("no position to score: play more games")
        return 0
    base = score(evidence[0], found, args.deals)
    width = max(40, *(len(m) for m in models))
    print(f"{'model':{width}s} {'placed':>8s} {'vs first':>18s} {'Brier':>8s} {'vs first':>18s}")
    for name, model in zip(models, evidence):
        placed, brier = base if model is evidence[0] else score(model, found, args.deals)
        dp = interval([a - b for a, b in zip(placed, base[0])])
        db = interval([a - b for a, b in zip(brier, base[1])])
        print(f"{name:{width}s} {sum(placed) / len(placed):8.4f} {dp[0]:+9.4f} ± {dp[1]:.4f} "
              f"{sum(brier) / len(brier):8.4f} {db[0]:+9.4f} ± {db[1]:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
