"""Agent steps per second of the vector environment (`minodice.envs.vector.VectorTable`), one core.

A step is one decision of one agent seat in one game: a `VectorTable.step` of
N games is N agent steps. The actions are random legal ones chosen the way a
learner samples, vectorised in numpy (argmax of uniforms plus the mask: a legal
id scores in [1, 2), an illegal one below 1; uniforms times the mask would pick
an illegal 0 whenever the one legal id draws a float32 0.0, once in 16 million), and
that choice is counted in the time. Self-play makes every seat an agent seat
(every decision is an agent step); with kernel opponents (greedy or random)
only seat 0 is, and the step also plays the opponents' turns up to its next
decision. Each figure is the best of `--repeats` runs of `--seconds` seconds,
by the wall clock and by the process's CPU time (the latter is what a quiet
core would give when the machine is shared). numba runs one thread.

    .venv/bin/python benchmarks/bench_vector.py                  # 4 seats, N = 1024 .. 8192
    .venv/bin/python benchmarks/bench_vector.py --seconds 1 --repeats 2 --envs 1024
"""

from __future__ import annotations

import os

os.environ.setdefault("NUMBA_NUM_THREADS", "1")  # before numba loads: one core
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402


def time_vector(num_envs: int, seats: int, opponents: str | None, seconds: float, seed: int = 0) -> tuple[float, float, int]:
    """(agent steps/s by the wall clock, by CPU time, games finished) of random legal play for `seconds`."""
    from minodice.envs.vector import VectorTable

    table = {s: opponents for s in range(1, seats)} if opponents else None
    vt = VectorTable(num_envs, seats, table, seed=seed)
    rng = np.random.default_rng(seed)
    _, info = vt.reset()
    mask = info["action_mask"]
    for _ in range(3):  # warm up (compiled code loaded, buffers touched)
        _, _, _, _, info = vt.step(np.argmax(rng.random(mask.shape, dtype=np.float32) + mask, axis=1))
        mask = info["action_mask"]
    steps = games = 0
    wall, cpu = time.perf_counter(), time.process_time()
    deadline = wall + seconds
    while time.perf_counter() < deadline:
        for _ in range(10):
            actions = np.argmax(rng.random(mask.shape, dtype=np.float32) + mask, axis=1)
            _, _, terminated, _, info = vt.step(actions)
            mask = info["action_mask"]
            games += int(terminated.sum())
        steps += 10 * num_envs
    return steps / (time.perf_counter() - wall), steps / (time.process_time() - cpu), games


def best(num_envs: int, seats: int, opponents: str | None, seconds: float, repeats: int) -> tuple[float, float, int]:
    """The best wall-clock and the best CPU-time rate among `repeats` runs."""
    runs = [time_vector(num_envs, seats, opponents, seconds, seed=r) for r in range(repeats)]
    return max(r[0] for r in runs), max(r[1] for r in runs), sum(r[2] for r in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--envs", type=int, nargs="+", default=[1024, 2048, 4096, 8192])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    if not 3 <= args.seats <= 6 or args.seconds <= 0 or args.repeats < 1 or min(args.envs) < 1:
        parser.error("--seats 3..6, --seconds > 0, --repeats >= 1, --envs >= 1")
    from minodice.envs.vector import warmup

    print(f"compile or cache load: {warmup():.1f} s")
    print(f"VectorTable, {args.seats} seats, random legal actions; best of {args.repeats} x {args.seconds:g} s; "
          f"numba threads: {os.environ['NUMBA_NUM_THREADS']}\n")
    print(f"{'table':<34} {'N':>6} {'steps/s (wall)':>16} {'steps/s (CPU)':>15} {'games':>8}")
    others = args.seats - 1
    for label, opponents, sizes in [
        ("self-play (every seat an agent)", None, args.envs),
        (f"seat 0 vs {others} greedy (kernel)", "greedy", args.envs[:2]),
        (f"seat 0 vs {others} random (kernel)", "random", args.envs[:2]),
    ]:
        for n in sizes:
            wall, cpu, games = best(n, args.seats, opponents, args.seconds, args.repeats)
            print(f"{label:<34} {n:>6} {wall:>16,.0f} {cpu:>15,.0f} {games:>8,}", flush=True)


if __name__ == "__main__":
    main()
