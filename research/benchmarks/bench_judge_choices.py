"""How much a judge's error reaches the choice of a die: the points a roll each way of choosing gains.

The value search plays a roll by judging where each die leads: one move, the other seats' replies, then a
value head at the seat's next decision. `bench_value_targets.py` measures how far a head is from the
mean of its own play at a *position*; the search compares positions one roll apart, whose errors are
alike, so a better fit need not be a better choice. This plays games of the network (`--weights`) at
every seat (its likeliest moves, in the engine) and, at every roll with more than one legal die, chooses
a die in several ways on the true deal (every seat's dice known, the faces to come not), each from the
same `--continuations` seeded continuations in the vector simulator (`sim.finish_hands`):

- `policy`: the network's likeliest die, the reference;
- `head`: each die, then the replies, then the network's value head (the value search's judgement);
- one line for each `--judge FILE`: the same with that network's value head instead;
- `playouts`: each die, then the rest of the hand played out by the network;
- one line for each `--search SPEC`: the die that bot rolls there, seeing only what the seat sees (for the
  value search, whether a judge's better choices survive its sampled deals and greedy replies). SPEC may
  name the lab's bots too (`research.lab`: `neural+search-lab` takes `judge=FILE`, `replies=FILE`).

Every choice is then scored on as many *other* continuations (the network playing out the hand), so a
choice that fits the noise of its own seeds gains nothing. It prints each way's mean gain over the
policy's die, in points a roll and a game (times the rolls with a choice a seat has in a game), with
95 % intervals, and each judge against the head and each search after the first against the first,
paired. The continuations' other seats are the network, or `--others FILE` (what a choice is worth
depends on who else plays); they reply in the lookaheads too, or with `--replies greedy` the kernel's
greedy policy does, as in the value search.

    .venv/bin/python research/benchmarks/bench_judge_choices.py --games 200 --continuations 16
    .venv/bin/python research/benchmarks/bench_judge_choices.py --games 200 --judge judge.npz   # from bench_value_targets.py --save-scratch
    .venv/bin/python research/benchmarks/bench_judge_choices.py --games 200 --search "neural+search-lab:policy=value,judge=judge.npz"
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from bench_value_targets import ROWS, SEATS, Rolls, roll_positions
from threadpoolctl import threadpool_limits

from minodice.bots import Bot, BotFault, make_bot
from minodice.bots.clairvoyance import show_dice
from minodice.bots.network import PolicyValueNet, load_network
from minodice.bots.network_playouts import likeliest_moves, value_leaf
from minodice.encoding import DICE, NUM_ACTIONS, NUM_BIDS
from minodice.game import Game
from minodice.sim.positions import Chooser, finish_hands
from minodice.view import View

MAX_CONTINUATIONS = 1024
Z95 = 1.96


def per_die(values: np.ndarray, legal: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Per roll and die kind (`legal`'s shape; -inf and nan where the die is not legal): the mean of the first
    `k` continuations of each legal (roll, die) pair, in `np.nonzero(legal)` order, and of the other `k`."""
    pos, kind = np.nonzero(legal)
    v = values.reshape(len(pos), 2, k).mean(axis=2)
    first, second = np.full(legal.shape, -np.inf), np.full(legal.shape, np.nan)
    first[pos, kind], second[pos, kind] = v[:, 0], v[:, 1]
    return first, second


def at(table: np.ndarray, pick: np.ndarray) -> np.ndarray:
    """`table[i, pick[i]]` for every row i."""
    return table[np.arange(len(pick)), pick]


def with_choice(rolls: Rolls) -> np.ndarray:
    """The indexes of the rolls with more than one legal die, in order."""
    return np.flatnonzero(rolls.mask[:, NUM_BIDS:].sum(axis=1) >= 2)


def die_scores(rolls: Rolls, net: PolicyValueNet, others: PolicyValueNet, k: int, seed: int,
               judges: dict[str, PolicyValueNet], greedy_replies: bool = False,
               picks: dict[str, np.ndarray] | None = None) -> dict[str, np.ndarray]:
    """For every roll with a choice (`with_choice`, in its order): the die each way chooses (`policy`, the
    judges' lookaheads, `playouts`, and each of `picks`: a die kind a roll, chosen elsewhere), scored on `k`
    other continuations; each array holds one score a roll (the seat's points for the hand). With
    `greedy_replies` the lookaheads' replies are the kernel's greedy policy, as in the value search."""
    choose, reply = likeliest_moves(net, SEATS), likeliest_moves(others, SEATS)
    lookahead_reply: str | Chooser = "greedy" if greedy_replies else reply
    rules = Game(SEATS, seed=seed).rules
    rng = np.random.default_rng(seed)
    dice = rolls.mask[:, NUM_BIDS:]
    chosen = with_choice(rolls)
    picks = picks or {}
    out = {name: np.full(len(chosen), np.nan) for name in ("policy", *judges, *picks, "playouts")}
    groups = sorted({(int(s), int(h)) for s, h in zip(rolls.seat[chosen], rolls.hand[chosen])})
    for seat, hand in groups:  # finish_hands: one seat a call
        idx = chosen[(rolls.seat[chosen] == seat) & (rolls.hand[chosen] == hand)]
        step = max(1, ROWS // (2 * k * (NUM_ACTIONS - NUM_BIDS)))
        for lo in range(0, len(idx), step):
            part = idx[lo : lo + step]
            legal = dice[part]
            pos, kind = np.nonzero(legal)  # every legal (roll, die) pair, each with 2k continuations
            seeds = rng.integers(0, 2**62, size=(len(part), 2 * k), dtype=np.int64).astype(np.uint64)
            rows = np.repeat(rolls.rows[part][pos], 2 * k, axis=0)
            first = np.repeat(NUM_BIDS + kind, 2 * k)
            pair_seeds = seeds[pos].reshape(-1)  # a roll's seeds, the same for each of its dice
            played, truth = per_die(finish_hands(rows, pair_seeds, seat, first, choose, rules, others=reply), legal, k)
            where = np.searchsorted(chosen, part)
            out["policy"][where] = at(truth, rolls.action[part] - NUM_BIDS)
            for name, judge in judges.items():
                judged, _ = per_die(finish_hands(rows, pair_seeds, seat, first, choose, rules, others=lookahead_reply,
                                                 leaf=value_leaf(judge, SEATS), depth=1), legal, k)
                out[name][where] = at(truth, judged.argmax(axis=1))
            for name, pick in picks.items():
                out[name][where] = at(truth, pick[where])
            out["playouts"][where] = at(truth, played.argmax(axis=1))
    return out


def search_picks(specs: Sequence[str], net: PolicyValueNet, games: int, seed: int) -> tuple[Rolls, dict[str, np.ndarray]]:
    """The games' rolls (as `roll_positions`) and, for each bot spec, the die kind it rolls at every roll with a
    choice (one bot a seat and game, asked there and nowhere else; an oracle is shown the dice)."""
    picks: dict[str, list[int]] = {spec: [] for spec in specs}
    seated: dict[str, list[Bot]] = {}
    current: list[Game] = []

    def ask(game: Game, view: View, mask: np.ndarray) -> None:
        if mask[NUM_BIDS:].sum() < 2:
            return
        if not current or current[-1] is not game:
            current.append(game)  # a new game: new bots, seeded by the game's number and the seat
            for spec in specs:
                seated[spec] = [make_bot(spec, seed=f"{seed}-{len(current)}-{s}") for s in range(SEATS)]
                show_dice(seated[spec], game)
                for s, bot in enumerate(seated[spec]):
                    bot.start_game(game.setup_view(s))
        for spec in specs:
            picks[spec].append(DICE.index(seated[spec][view.seat].roll(view)))

    rolls = roll_positions(net, games, seed, on_roll=ask)
    return rolls, {spec: np.asarray(kinds) for spec, kinds in picks.items()}


def interval(d: np.ndarray) -> tuple[float, float]:
    """The mean and its 95 % half-width (normal, over rolls)."""
    return float(d.mean()), float(Z95 * d.std(ddof=1) / np.sqrt(len(d))) if len(d) > 1 else float("nan")


def register_lab() -> None:
    """Let `--search` name the lab's bots: `research.lab` imported (it registers them), the repository's root
    on the path as `python -m` from there would put it."""
    root = str(Path(__file__).resolve().parents[2])
    if root not in sys.path:
        sys.path.append(root)
    importlib.import_module("research.lab")


def main(argv: Sequence[str] | None = None) -> int:
    register_lab()
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--weights", default="src/minodice/bots/weights/expert-4.npz",
                    help="the network (.npz, 4 seats) that plays, and whose value head is the `head` judge")
    ap.add_argument("--judge", action="append", default=[], metavar="FILE",
                    help="another network whose value head judges (repeatable)")
    ap.add_argument("--others", default=None, metavar="FILE",
                    help="the network playing the other seats in the continuations (default: --weights)")
    ap.add_argument("--replies", choices=("network", "greedy"), default="network",
                    help="who replies in the judges' one-move lookahead: the continuations' players, or the "
                         "kernel's greedy policy as in the value search")
    ap.add_argument("--search", action="append", default=[], metavar="SPEC",
                    help="a bot (e.g. the value search) whose die at each roll is scored too, hidden dice and all "
                         "(repeatable; slow: a search decision each)")
    ap.add_argument("--games", type=int, default=200, help="games of the network at every seat")
    ap.add_argument("--continuations", type=int, default=16,
                    help=f"continuations to choose from, and as many to score the choice (2 to {MAX_CONTINUATIONS:,})")
    ap.add_argument("--seed", type=int, default=700000, help="seed of the first game and of the continuations")
    args = ap.parse_args(argv)
    if args.games < 1 or not 2 <= args.continuations <= MAX_CONTINUATIONS:
        ap.error(f"--games must be at least 1 and --continuations 2 to {MAX_CONTINUATIONS:,}")
    def network(option: str, path: str) -> PolicyValueNet:
        try:
            return load_network(path)
        except ValueError as e:
            ap.error(f"{option} {path}: {e}")

    net = network("--weights", args.weights)
    others = net if args.others is None else network("--others", args.others)
    judges = {"head": net} | {f"judge {path}": network("--judge", path) for path in args.judge}
    for spec in args.search:
        try:
            make_bot(spec)
        except ValueError as e:
            ap.error(f"--search: {e}")
    k = args.continuations
    began = time.perf_counter()
    with threadpool_limits(1):
        try:
            rolls, picks = search_picks(args.search, net, args.games, args.seed)
        except BotFault as e:
            ap.error(f"--search: {e}")
        scores = die_scores(rolls, net, others, k, args.seed, judges, greedy_replies=args.replies == "greedy",
                            picks={f"search {spec}": kinds for spec, kinds in picks.items()})
    count = len(scores["policy"])
    per_game = count / (args.games * SEATS)
    print(f"{count:,} rolls with a choice ({per_game:.1f} a seat and game) in {args.games:,} games of the network "
          f"at every seat; {k} continuations to choose, {k} others to score ({time.perf_counter() - began:.0f} s)")
    width = max(len("way of choosing"), *map(len, scores))
    print(f"{'way of choosing':<{width}} {'points a roll over the policy':>30} {'a game':>16}")
    for name, score in scores.items():
        mean, half = interval(score - scores["policy"])
        print(f"{name:<{width}} {mean:>+22.3f} ± {half:.3f} {mean * per_game:>+9.1f} ± {half * per_game:.1f}")
    searches = [f"search {spec}" for spec in args.search]
    pairs = [(name, "head") for name in list(judges)[1:]] + [(name, searches[0]) for name in searches[1:]]
    for name, base in pairs:
        mean, half = interval(scores[name] - scores[base])
        print(f"{name} over {'the head' if base == 'head' else 'the first search'}, paired: {mean:+.3f} ± {half:.3f} "
              f"points a roll, {mean * per_game:+.1f} ± {half * per_game:.1f} a game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
