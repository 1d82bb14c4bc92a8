"""OpenSpiel's ISMCTS bot against minodice's bots, through the ``python_mino_dice`` game.

    python examples/openspiel_ismcts.py                        # 4 games, 3 seats, 30 simulations a move
    python examples/openspiel_ismcts.py --games 20 --sims 200 --opponents greedy greedy greedy

OpenSpiel's bot (``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with random
rollouts) plays seat 0; it samples worlds with the game's
``resample_from_infostate``. The other seats are minodice bots, which see only
their own seat's `View`. Prints each game's totals and the mean per seat.
The default budget is small so the example finishes in a minute or so; ISMCTS
with random rollouts needs a few hundred simulations a move to play well.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import minodice.envs.openspiel  # noqa: F401 - registers python_mino_dice
from minodice.bots import Bot, make_bot
from minodice.envs import encoding as E


def bot_action(bot: Bot, state: pyspiel.State) -> int:
    """The action id a minodice bot chooses for the seat to act, from that seat's view only."""
    seat = state.current_player()
    view = state.engine.observe(seat)
    move = bot.bid(view) if view.bidding else bot.roll(view)
    return E.bid_action(move) if isinstance(move, int) else E.roll_action(move)


def play(game: pyspiel.Game, searcher: ismcts.ISMCTSBot, bots: dict[int, Bot], rng: np.random.RandomState) -> list[float]:
    """One game: seat 0 searches, the others are minodice bots; chance sampled with `rng`."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        elif state.current_player() == 0:
            state.apply_action(int(searcher.step(state)))
        else:
            state.apply_action(bot_action(bots[state.current_player()], state))
    return state.returns()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--sims", type=int, default=30, help="ISMCTS simulations per move (default 30)")
    parser.add_argument("--rollouts", type=int, default=1, help="random rollouts per evaluation")
    parser.add_argument("--uct-c", type=float, default=150.0,
                        help="exploration constant, in points (default 150; returns are game scores)")
    parser.add_argument("--opponents", nargs="+", default=["greedy", "random"], help="minodice bot specs (2 to 5)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if not 2 <= len(args.opponents) <= 5:
        parser.error("give 2 to 5 opponents")
    if args.games < 1 or args.sims < 1 or args.rollouts < 1:
        parser.error("--games, --sims and --rollouts must be positive")

    seats = len(args.opponents) + 1
    game = pyspiel.load_game("python_mino_dice", {"players": seats})
    rng = np.random.RandomState(args.seed)
    searcher = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(args.rollouts, rng), uct_c=args.uct_c,
        max_simulations=args.sims, random_state=rng,
    )
    names = ["ismcts", *args.opponents]
    print(f"{seats} seats: {', '.join(f'{s}={n}' for s, n in enumerate(names))}; {args.sims} simulations a move")
    results = []
    for g in range(args.games):
        bots = {s: make_bot(spec, seed=f"{args.seed}:{g}:{s}") for s, spec in enumerate(args.opponents, start=1)}
        start = time.monotonic()
        totals = play(game, searcher, bots, rng)
        results.append(totals)
        print(f"game {g + 1}: totals {[int(t) for t in totals]}  ({time.monotonic() - start:.1f} s)")
    mean = np.mean(results, axis=0)
    print("mean per seat: " + ", ".join(f"{n} {m:.1f}" for n, m in zip(names, mean)))


if __name__ == "__main__":
    main()
