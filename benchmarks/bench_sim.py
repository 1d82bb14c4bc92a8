"""How fast the numba simulator plays, next to the engine and OpenSpiel's oh_hell.

Prints, on one core, from the same run on the same machine:

- the kernels' compile time (or, with a warm on-disk cache, their load time;
  `--cold` compiles into a fresh temporary cache to show the true figure);
- `minodice.sim.simulate`: complete random 4-seat games per second (scoring
  and bonuses included), and greedy-policy games per second;
- the reference engine (`bench_engine.play`: `Game` + `legal_actions()` +
  `apply()` with a random choice), complete random games per second;
- `finish_hand` rollouts per second (greedy policy, from a determinization of
  a 4-seat game in the middle of hand 8) and the cost of one call with n=1
  (encoding the state in Python + calling the kernel);
- OpenSpiel's `oh_hell` for 4 players driven from Python (`legal_actions`,
  `apply_action`, chance via `chance_outcomes`), games per second, if
  `pyspiel` imports (`pip install open-spiel`); an oh_hell game is one deal.

Every figure is the best of several repeats (the least disturbed by other work).

    .venv/bin/python benchmarks/bench_sim.py
    .venv/bin/python benchmarks/bench_sim.py --games 300000 --repeats 7 --cold
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable


def best_of(repeats: int, run: Callable[[], object]) -> tuple[float, list[float]]:
    """The least wall time of `repeats` calls of `run`, and all of them."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times), times


def mid_hand_game(seed: int):
    """A 4-seat game in the middle of hand 8 (random play), determinized for the seat to roll."""
    from minodice.game import Game, Phase

    rng = random.Random(seed)
    game = Game(4, seed=seed)
    while game.hand < 8 or game.phase is Phase.BID:
        game.apply(rng.choice(game.legal_actions()))
    for _ in range(9):  # two tricks and a bit
        game.apply(rng.choice(game.legal_actions()))
    return game.determinize(game.turn, rng)


def oh_hell(games: int, seed: int) -> tuple[float, float]:
    """Play `games` random 4-player oh_hell games through pyspiel; (seconds, actions per game)."""
    import pyspiel

    game = pyspiel.load_game("oh_hell", {"players": 4})
    rng = random.Random(seed)
    choice, choices = rng.choice, rng.choices
    actions = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(choices(outcomes, probs)[0])
            else:
                state.apply_action(choice(state.legal_actions()))
            actions += 1
    return time.perf_counter() - start, actions / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200_000, help="simulator games per repeat (200,000)")
    parser.add_argument("--engine-games", type=int, default=1000, help="engine games per repeat (1,000)")
    parser.add_argument("--oh-hell-games", type=int, default=1000, help="oh_hell games per repeat (1,000)")
    parser.add_argument("--playouts", type=int, default=1000, help="finish_hand playouts per call (1,000)")
    parser.add_argument("--repeats", type=int, default=5, help="repeats; the best counts (5)")
    parser.add_argument("--seed", type=int, default=1, help="seed (1)")
    parser.add_argument("--cold", action="store_true",
                        help="compile into a fresh temporary numba cache (true compile time)")
    args = parser.parse_args()
    if args.cold:
        os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="minodice-numba-")

    start = time.perf_counter()
    from minodice.sim import finish_hand, simulate, warmup

    imported = time.perf_counter() - start
    compiled = warmup()
    print(f"numba kernels: import {imported:.2f} s, first use {compiled:.2f} s "
          f"({'compiled into a fresh cache' if args.cold else 'compile, or load from the on-disk cache'})")

    n, reps = args.games, args.repeats
    best, times = best_of(reps, lambda: simulate(n, 4, seed=args.seed))
    sim_rate = n / best
    print(f"sim.simulate: {n:,} random 4-seat games x {reps} (best of)")
    print(f"  {sim_rate:,.0f} games/s on one core ({best / n * 1e6:.2f} µs per game, "
          f"{best / n / 144 * 1e9:.0f} ns per roll with everything else; "
          f"all repeats: {', '.join(f'{t:.3f}' for t in times)} s)")
    g = max(n // 20, 1)
    best_g, _ = best_of(reps, lambda: simulate(g, 4, seed=args.seed, policy="greedy"))
    print(f"  greedy policy: {g / best_g:,.0f} games/s")

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from bench_engine import play

    e = args.engine_games
    play(min(e, 50), 4, args.seed)  # warm up
    engine_best = min(play(e, 4, args.seed)[0] for _ in range(reps))
    engine_rate = e / engine_best
    print(f"engine (bench_engine.play): {e:,} random 4-seat games x {reps} (best of)")
    print(f"  {engine_rate:,.0f} games/s on one core; the simulator is {sim_rate / engine_rate:,.0f}x faster")

    game = mid_hand_game(args.seed)
    p = args.playouts
    best_p, _ = best_of(reps, lambda: finish_hand(game, p, seed=args.seed, policy="greedy"))
    best_r, _ = best_of(reps, lambda: finish_hand(game, p, seed=args.seed, policy="random"))
    calls = 2000
    best_1, _ = best_of(reps, lambda: [finish_hand(game, 1, seed=i) for i in range(calls)])
    left = sum(len(game.held(s)) for s in range(4))
    print(f"finish_hand: 4 seats, hand 8, {left} dice left to roll, {p:,} playouts per call (best of {reps})")
    print(f"  greedy: {p / best_p:,.0f} playouts/s; random: {p / best_r:,.0f} playouts/s")
    print(f"  one call with n=1: {best_1 / calls * 1e6:.1f} µs (encode in Python + kernel call)")

    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("OpenSpiel oh_hell: pyspiel is not importable (pip install open-spiel); skipped")
        return
    o = args.oh_hell_games
    oh_hell(min(o, 50), args.seed)
    results = [oh_hell(o, args.seed) for _ in range(reps)]
    oh_best = min(r[0] for r in results)
    print(f"OpenSpiel oh_hell (4 players, from Python): {o:,} random games x {reps} (best of)")
    print(f"  {o / oh_best:,.0f} games/s on one core ({results[0][1]:.0f} actions per game incl. chance; "
          "one deal per game)")


if __name__ == "__main__":
    main()
