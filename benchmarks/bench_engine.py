"""How fast the engine plays: complete random games per second on one core.

Every action goes through the public stepping API with all its checks
(`Game.legal_actions()` then `Game.apply(action)`); the random agent picks
uniformly among the legal actions with its own `random.Random`. Dealing and the
faces rolled come from each game's seeded chance source. The figure is the best
of several repeats (the least disturbed by other work on the machine).

    .venv/bin/python benchmarks/bench_engine.py               # 4 seats, 2,000 games x 5 repeats
    .venv/bin/python benchmarks/bench_engine.py --seats 6 --games 500 --repeats 3
"""

from __future__ import annotations

import argparse
import random
import time

from minodice.game import Game


def play(games: int, seats: int, seed: int) -> tuple[float, int]:
    """Play `games` complete random games; return (seconds, actions applied)."""
    agent = random.Random(seed)
    choice = agent.choice
    actions = 0
    start = time.perf_counter()
    for g in range(games):
        game = Game(seats, seed=seed + g)
        legal_actions, apply = game.legal_actions, game.apply
        while not game.over:
            apply(choice(legal_actions()))
            actions += 1
    return time.perf_counter() - start, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games per repeat (default 2000)")
    parser.add_argument("--repeats", type=int, default=5, help="repeats; the best counts (default 5)")
    parser.add_argument("--seats", type=int, default=4, choices=range(3, 7), help="seats (default 4)")
    parser.add_argument("--seed", type=int, default=1, help="first game seed (default 1)")
    args = parser.parse_args()

    play(min(args.games, 50), args.seats, args.seed)  # warm up
    times = []
    actions = 0
    for _ in range(args.repeats):
        seconds, actions = play(args.games, args.seats, args.seed)
        times.append(seconds)
    best = min(times)
    per_game = actions / args.games
    print(f"engine: {args.games} random {args.seats}-seat games x {args.repeats} repeats (best of)")
    print(f"  {args.games / best:,.0f} games/s on one core   ({best:.3f} s per repeat; "
          f"all repeats: {', '.join(f'{t:.3f}' for t in times)} s)")
    print(f"  {per_game:.1f} actions per game (bids and rolls; chance is resolved inside apply)")
    print(f"  {best / actions * 1e6:.2f} µs per action (legal_actions + apply + agent choice)")
    print(f"  {best / args.games * 1e3:.3f} ms per game")


if __name__ == "__main__":
    main()
