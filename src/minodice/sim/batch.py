"""Many complete games at once, inside numba: the batch simulator.

`simulate` plays whole games (every hand: all 36 dice back in the bag, a
random draw, bids, tricks, scoring with bonuses, the next start player by
`rules.hand_start`) with a rollout policy per seat, looping over games inside
the kernel so there is no per-game Python cost. It answers questions such as
"how often does greedy beat random with 5 seats" or "how many points is the
start seat worth" in seconds.

>>> result = simulate(1000, seats=4, seed=1)
>>> result.totals.shape
(1000, 4)
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..dice import hands_for
from ..rules import Rules
from . import kernel as K
from .playout import Policy, policy_array, strength_array

__all__ = ["SimResult", "simulate", "simulate_from_stream", "stream_size", "warmup"]

_NO_STREAM = np.empty(0, dtype=np.float64)
_M64 = (1 << 64) - 1


@dataclass(frozen=True, slots=True)
class SimResult:
    """What `simulate` played.

    `totals` [games, seats] holds each game's final totals. With `detail`, the
    per-hand arrays [games, hands, seats] hold each seat's `scores`, `bids` and
    tricks `won`, and `winners` [games, hands, hands] the seat that won each
    trick (-1 past the hand's last trick); without it they are None.
    """

    seats: int
    rules: Rules
    policy: tuple[str, ...]
    totals: np.ndarray
    scores: np.ndarray | None = None
    bids: np.ndarray | None = None
    won: np.ndarray | None = None
    winners: np.ndarray | None = None

    @property
    def games(self) -> int:
        return int(self.totals.shape[0])

    def mean_totals(self) -> np.ndarray:
        """Average final total per seat."""
        return self.totals.mean(axis=0)

    def win_shares(self) -> np.ndarray:
        """Per seat, the games it finished first in (a shared first place counts 1/k to each of k)."""
        top = self.totals == self.totals.max(axis=1, keepdims=True)
        return (top / top.sum(axis=1, keepdims=True)).sum(axis=0)


def stream_size(games: int, seats: int) -> int:
    """Uniforms `simulate_from_stream` may draw at most for `games` games of `seats` seats."""
    hands = hands_for(seats)
    per_game = sum(3 * seats * n + seats for n in range(1, hands + 1))
    return games * per_game


def _run(
    games: int,
    seats: int,
    rules: Rules,
    policy: Policy,
    detail: bool,
    first_start: int,
    seed: int,
    stream: np.ndarray,
) -> tuple[SimResult, int]:
    hands = hands_for(seats)
    if games < 0:
        raise ValueError("games must be >= 0")
    if not 0 <= first_start < seats:
        raise ValueError(f"the first start player must be a seat from 0 to {seats - 1}")
    pol = policy_array(policy, seats)
    strength = strength_array(seats, rules) if pol.any() else np.zeros(7)
    totals = np.zeros((games, seats), dtype=np.int64)
    if detail:
        scores = np.zeros((games, hands, seats), dtype=np.int64)
        bids = np.zeros((games, hands, seats), dtype=np.int64)
        won = np.zeros((games, hands, seats), dtype=np.int64)
        winners = np.full((games, hands, hands), -1, dtype=np.int64)
    else:
        scores = bids = won = np.zeros((0, 0, 0), dtype=np.int64)
        winners = np.zeros((0, 0, 0), dtype=np.int64)
    used = K.simulate_kernel(
        games, seats, hands, first_start, K.encode_rules(rules), pol, strength, np.uint64(seed & _M64), stream,
        totals, scores, bids, won, winners,
    )
    names = (policy,) * seats if isinstance(policy, str) else tuple(policy)
    result = SimResult(
        seats, rules, names, totals,
        scores if detail else None, bids if detail else None,
        won if detail else None, winners if detail else None,
    )
    return result, int(used)


def simulate(
    games: int,
    seats: int = 4,
    rules: Rules | None = None,
    seed: int = 0,
    policy: Policy = "random",
    *,
    detail: bool = False,
    first_start: int = 0,
) -> SimResult:
    """Play `games` complete games of `seats` seats with `rules`, every seat following `policy`.

    `policy` is "random" or "greedy" (see `playout`), or one name per seat.
    The same seed and arguments give the same games. `detail` also keeps
    per-hand scores, bids, tricks won and trick winners.
    """
    return _run(games, seats, rules or Rules(), policy, detail, first_start, seed, _NO_STREAM)[0]


def simulate_from_stream(
    uniforms: np.ndarray,
    games: int,
    seats: int = 4,
    rules: Rules | None = None,
    policy: Policy = "random",
    *,
    first_start: int = 0,
) -> tuple[SimResult, int]:
    """As `simulate` (with `detail`), drawing every random number from `uniforms` in `kernel`'s order.

    Returns the result and how many uniforms were used. This is the hook for
    replaying the same games through the reference engine (tests/test_sim.py);
    `stream_size` says how many uniforms are enough.
    """
    stream = np.ascontiguousarray(uniforms, dtype=np.float64)
    if stream.ndim != 1 or stream.size == 0:
        raise ValueError("uniforms must be a non-empty 1-D array of numbers in [0, 1)")
    need = stream_size(games, seats)
    if stream.size < need:
        raise ValueError(f"uniforms holds {stream.size} numbers; {games} games may draw {need}")
    return _run(games, seats, rules or Rules(), policy, True, first_start, 0, stream)


def warmup() -> float:
    """Compile (or load from the on-disk cache) every kernel now; returns the seconds it took."""
    import random

    from ..game import Game
    from .playout import finish_hand, policy_roll

    start = time.perf_counter()
    simulate(2, 4, policy="random", detail=True)
    simulate(2, 4, policy=("greedy", "random", "greedy", "random"))
    simulate_from_stream(np.full(stream_size(1, 3), 0.5), 1, 3)
    game = Game(4, seed=0).determinize(0, random.Random(0))
    finish_hand(game, 2, 0)
    finish_hand(game, 2, 0, uniforms=np.full(1000, 0.5))
    for _ in range(4):
        game.apply(game.legal_actions()[0])  # bids: the game now waits for a roll
    policy_roll(game)
    return time.perf_counter() - start
