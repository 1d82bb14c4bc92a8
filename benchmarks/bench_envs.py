"""Environment steps per second: minodice's PettingZoo, Gymnasium and OpenSpiel interfaces,
next to PettingZoo's own classic environments measured in the same run.

Every interface is driven the way a learner drives it, with a uniformly random
legal action each step (read from the action mask, or OpenSpiel's
`legal_actions`), resetting when an episode ends; each figure is the best of
`--repeats` runs of `--seconds` seconds (the least disturbed by other work).
What counts as a step:

- PettingZoo (AEC): one `env.step(action)` of the agent selected (the dice draws
  and faces happen inside the step); dead steps at the end of a game count too,
  as they do for the classic envs.
- Gymnasium (Solo-v1, vs 3 random bots): one `env.step` of the learner, which
  also plays the bots' turns up to the learner's next turn.
- OpenSpiel: one `state.apply_action` of a player; chance outcomes are sampled
  and applied in between and not counted (shown separately).
- VectorTable (`minodice.envs.vector`): one decision of one seat in one of the
  1,024 games stepped together in compiled code (`bench_vector.py` has more
  sizes and tables); the vectorised random choice is counted too.

    .venv/bin/python benchmarks/bench_envs.py                  # 4 seats, 3 s x 3 repeats each
    .venv/bin/python benchmarks/bench_envs.py --seconds 1 --repeats 1

PettingZoo's classic envs need `pygame` (``pip install pygame``; texas hold'em
also needs `rlcard`); those that cannot be imported are listed as skipped.
"""

from __future__ import annotations

import argparse
import importlib
import time
from collections.abc import Callable

import numpy as np


def time_aec(make: Callable[[], object], seconds: float, seed: int) -> tuple[float, int]:
    """Steps per second of a PettingZoo AEC env under random masked actions; and episodes played."""
    env = make()
    rng = np.random.default_rng(seed)
    steps = episodes = 0
    env.reset(seed=seed)
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(200):
            if not env.agents:
                episodes += 1
                env.reset()
            obs, _, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
            else:
                mask = obs["action_mask"] if isinstance(obs, dict) else info["action_mask"]
                env.step(int(rng.choice(np.flatnonzero(mask))))
            steps += 1
    env.close()
    return steps / (time.perf_counter() - start), episodes


def time_gym(seats: int, seconds: float, seed: int) -> tuple[float, int]:
    """Steps per second of minodice/Solo-v1 against random bots."""
    import gymnasium as gym

    import minodice.envs.gymnasium  # noqa: F401 - registers the env

    env = gym.make("minodice/Solo-v1", opponents=("random",) * (seats - 1))
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    steps = episodes = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(200):
            _, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            steps += 1
            if done:
                episodes += 1
                _, info = env.reset()
    env.close()
    return steps / (time.perf_counter() - start), episodes


def time_openspiel(name: str, params: dict, seconds: float, seed: int) -> tuple[float, int, float]:
    """Player steps per second of an OpenSpiel game driven from Python; episodes; chance steps per player step."""
    import pyspiel

    game = pyspiel.load_game(name, params)
    rng = np.random.default_rng(seed)
    steps = chance = episodes = 0
    state = game.new_initial_state()
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(200):
            if state.is_terminal():
                episodes += 1
                state = game.new_initial_state()
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(outcomes[rng.choice(len(outcomes), p=probs)]))
                chance += 1
                continue
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
            steps += 1
    return steps / (time.perf_counter() - start), episodes, chance / max(steps, 1)


def best(fn: Callable[[], tuple], repeats: int) -> tuple:
    """The run with the highest rate among `repeats` runs."""
    return max((fn() for _ in range(repeats)), key=lambda r: r[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if not 3 <= args.seats <= 6 or args.seconds <= 0 or args.repeats < 1:
        parser.error("--seats 3..6, --seconds > 0, --repeats >= 1")
    s, r, seed = args.seconds, args.repeats, args.seed
    rows: list[tuple[str, str]] = []

    def row(label: str, result: tuple | None, note: str = "") -> None:
        text = "skipped" if result is None else f"{result[0]:>10,.0f} steps/s   ({result[1]} episodes{note})"
        rows.append((label, text))
        print(f"{label:<44} {text}", flush=True)

    print(f"minodice environments, {args.seats} seats; best of {r} x {s:g} s; one core\n")
    from minodice.envs.pettingzoo import env as mino_env

    row(f"minodice PettingZoo AEC ({args.seats} seats)", best(lambda: time_aec(lambda: mino_env(seats=args.seats), s, seed), r))
    row(f"minodice Gymnasium Solo-v1 (vs {args.seats - 1} random)", best(lambda: time_gym(args.seats, s, seed), r))
    try:
        import minodice.envs.openspiel  # noqa: F401

        res = best(lambda: time_openspiel("python_mino_dice", {"players": args.seats}, s, seed), r)
        row(f"minodice OpenSpiel python_mino_dice ({args.seats})", res, f"; +{res[2]:.2f} chance steps each")
    except ImportError:
        row("minodice OpenSpiel python_mino_dice", None)
    from bench_vector import time_vector  # this folder; details: bench_vector.py

    def vector() -> tuple[float, int]:
        wall, _, games = time_vector(1024, args.seats, None, s, seed)
        return wall, games

    row(f"minodice VectorTable x1024 ({args.seats}, self-play)", best(vector, r))

    print("\nfor comparison, in the same run:")
    for label, module, fn in [
        ("PettingZoo classic tictactoe_v3", "pettingzoo.classic", "tictactoe_v3"),
        ("PettingZoo classic connect_four_v3", "pettingzoo.classic", "connect_four_v3"),
        ("PettingZoo classic texas_holdem_v4", "pettingzoo.classic", "texas_holdem_v4"),
    ]:
        try:
            env_module = getattr(importlib.import_module(module), fn)
        except Exception:  # pygame / rlcard missing
            row(label, None)
            continue
        row(label, best(lambda m=env_module: time_aec(m.env, s, seed), r))
    for label, name, module in [
        ("OpenSpiel liars_dice (C++ game, Python loop)", "liars_dice", "pyspiel"),
        ("OpenSpiel python_liars_poker (Python game)", "python_liars_poker", "open_spiel.python.games.liars_poker"),
    ]:
        try:
            importlib.import_module(module)  # a Python game registers itself on import
        except ImportError:
            row(label, None)
            continue
        res = best(lambda n=name: time_openspiel(n, {}, s, seed), r)
        row(label, res, f"; +{res[2]:.2f} chance steps each")


if __name__ == "__main__":
    main()
