"""The odds players ask about, as pure computations (no printing: `odds_cli` shows them).

- `win_chances` (exact): each die kind's chance to take a trick against k opponents
  who each roll one die drawn at random from the rest of the bag, by rolling position
  (computed in `analysis.strength`, the one home of a die's strength; re-exported here);
- `simulate_hands` + `bid_odds` (sampled): the bid greedy play makes in each hand
  size and how often it is made, from the batch simulator with every seat greedy;
- `die_values` (sampled): the tricks a die of each kind is worth in a hand of n dice.

Every result says whether it is exact or sampled, and the sample size.

>>> from minodice.dice import BAG_COUNTS
>>> table = win_chances(2)
>>> round(sum(BAG_COUNTS[d] * table.chance[d] for d in Die) / 36, 12)
0.333333333333
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..dice import Die, hands_for
from ..jit import njit
from ..rules import Rules
from ..sim import kernel as K
from ..sim import simulate_from_stream
from ..sim.batch import stream_size
from .strength import MAX_OPPONENTS, MIN_OPPONENTS, WinChances, win_chances

__all__ = [
    "MAX_OPPONENTS",
    "MIN_OPPONENTS",
    "BidOdds",
    "DieValues",
    "HandSample",
    "WinChances",
    "bid_odds",
    "die_values",
    "simulate_hands",
    "win_chances",
]

_DIES: tuple[Die, ...] = tuple(Die)


# --- sampled: greedy bids and die values -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandSample:
    """Hands played by the batch simulator with every seat greedy: one hand of each size per game.

    Arrays are indexed [game, hand size - 1, seat]; `held` adds the die kind (table order).
    """

    players: int
    games: int
    seed: int
    rules: Rules
    bids: np.ndarray
    won: np.ndarray
    held: np.ndarray

    @property
    def hands(self) -> int:
        return int(self.bids.shape[1])


@dataclass(frozen=True, slots=True)
class BidOdds:
    """Greedy bids in hands of `hand` dice (sampled): share of each bid, and share of those bids made.

    `samples` counts seat-hands (games × players); standard errors treat each game as one cluster.
    """

    hand: int
    games: int
    samples: int
    share: dict[int, float]
    share_se: dict[int, float]
    made: dict[int, float]
    made_se: dict[int, float]
    made_all: float
    made_all_se: float
    exact: bool = False

    def to_dict(self) -> dict[str, object]:
        """Plain data for JSON (bids never made by greedy play are left out of `made`)."""
        return {
            "hand": self.hand,
            "sampled": True,
            "games": self.games,
            "samples": self.samples,
            "share": {str(b): v for b, v in self.share.items()},
            "share_se": {str(b): v for b, v in self.share_se.items()},
            "made": {str(b): v for b, v in self.made.items()},
            "made_se": {str(b): v for b, v in self.made_se.items()},
            "made_all": self.made_all,
            "made_all_se": self.made_all_se,
        }


@dataclass(frozen=True, slots=True)
class DieValues:
    """Tricks one die of each kind is worth in a hand of `hand` dice under greedy play (sampled).

    Least squares of tricks won on the kinds held (no intercept): a hand is expected to win the sum
    of its dice's values. Standard errors are cluster-robust by game; a kind never held is left out.
    """

    hand: int
    games: int
    samples: int
    value: dict[Die, float]
    se: dict[Die, float]
    mean_tricks: float
    exact: bool = False

    def to_dict(self) -> dict[str, object]:
        """Plain data for JSON."""
        return {
            "hand": self.hand,
            "sampled": True,
            "games": self.games,
            "samples": self.samples,
            "value": {d.value: v for d, v in self.value.items()},
            "se": {d.value: v for d, v in self.se.items()},
            "mean_tricks": self.mean_tricks,
        }


#: Games per batch-simulator call (bounds the memory of the uniform stream).
_CHUNK = 5000


def simulate_hands(
    players: int = 4,
    games: int = 200_000,
    seed: int = 0,
    rules: Rules | None = None,
    progress: Callable[[int], None] | None = None,
) -> HandSample:
    """Play `games` whole games, every seat greedy, with the batch simulator; keep each hand's dice, bids, tricks.

    The games draw their randomness from a seeded uniform stream (`simulate_from_stream`), so
    each hand's deal is replayed from the same stream with the kernel's own `deal`. `progress`,
    if given, is told the games played so far after every batch (for a progress bar).
    """
    hands = hands_for(players)
    if games < 1:
        raise ValueError("games must be at least 1")
    rules = rules or Rules()
    rng = np.random.default_rng(seed)
    bids = np.empty((games, hands, players), dtype=np.int8)
    won = np.empty((games, hands, players), dtype=np.int8)
    held = np.empty((games, hands, players, 7), dtype=np.int8)
    per_game = 2 * players * hands * (hands + 1) // 2  # all greedy: one uniform per die dealt and per roll
    for start in range(0, games, _CHUNK):
        n = min(_CHUNK, games - start)
        stream = rng.random(stream_size(n, players))
        result, used = simulate_from_stream(stream, n, players, rules, "greedy")
        if used != n * per_game:
            raise RuntimeError(f"the simulator drew {used} uniforms, not {n * per_game}: deals cannot be replayed")
        assert result.bids is not None and result.won is not None  # a stream run keeps the detail
        bids[start : start + n] = result.bids
        won[start : start + n] = result.won
        _replay_deals(stream, n, players, hands, per_game, held[start : start + n])
        if progress is not None:
            progress(start + n)
    return HandSample(players, games, seed, rules, bids, won, held)


_DEAL = K.deal
_H_COUNTS = K.H_COUNTS
_H_SIZE = K.H_SIZE


@njit(cache=True)
def _replay_deals(stream, games, seats, hands, per_game, out):  # pragma: no cover - numba
    """Fill out[g, h, s, d] with the dice each seat was dealt, re-running the kernel's deal on the stream."""
    hs = np.zeros(_H_SIZE, dtype=np.int64)
    zero = np.uint64(0)
    for g in range(games):
        pos = g * per_game
        for h in range(hands):
            n = h + 1
            _DEAL(hs, stream, (zero, zero, zero, zero, np.int64(pos)), seats, n)
            for s in range(seats):
                for d in range(7):
                    out[g, h, s, d] = hs[_H_COUNTS + 7 * s + d]
            pos += 2 * seats * n


def _mean_se(per_game: np.ndarray) -> tuple[float, float]:
    """Mean of one number per game and its standard error."""
    g = per_game.shape[0]
    mean = float(per_game.mean())
    return mean, (float(per_game.std(ddof=1) / math.sqrt(g)) if g > 1 else math.nan)


def _ratio_se(y: np.ndarray, x: np.ndarray) -> tuple[float, float]:
    """Ratio Σy/Σx of per-game sums and its standard error (games as clusters)."""
    sx = float(x.sum())
    if sx == 0:
        return math.nan, math.nan
    r = float(y.sum()) / sx
    g = y.shape[0]
    if g < 2:
        return r, math.nan
    resid = y - r * x
    return r, float(math.sqrt((resid**2).sum() / (g * (g - 1))) / (sx / g))


def bid_odds(sample: HandSample) -> list[BidOdds]:
    """For each hand size, the share of each greedy bid and the share of those bids made."""
    out = []
    for h in range(sample.hands):
        n = h + 1
        bids = sample.bids[:, h, :].astype(np.int64)
        made = sample.won[:, h, :] == sample.bids[:, h, :]
        share, share_se, made_b, made_se = {}, {}, {}, {}
        for b in range(n + 1):
            has = bids == b
            share[b], share_se[b] = _mean_se(has.mean(axis=1))
            if has.any():
                made_b[b], made_se[b] = _ratio_se((has & made).sum(axis=1), has.sum(axis=1))
        m, m_se = _mean_se(made.mean(axis=1))
        out.append(BidOdds(n, sample.games, bids.size, share, share_se, made_b, made_se, m, m_se))
    return out


def die_values(sample: HandSample) -> list[DieValues]:
    """For each hand size, the tricks one die of each kind is worth (see `DieValues`)."""
    return [_die_values_for(sample, h) for h in range(sample.hands)]


def _die_values_for(sample: HandSample, h: int) -> DieValues:
    g, s = sample.games, sample.players
    x = sample.held[:, h, :, :].reshape(g * s, 7).astype(np.float64)
    y = sample.won[:, h, :].reshape(g * s).astype(np.float64)
    cols = np.flatnonzero(x.sum(axis=0) > 0)
    xc = x[:, cols]
    xtx = xc.T @ xc
    beta = np.linalg.solve(xtx, xc.T @ y)
    resid = y - xc @ beta
    scores = (xc * resid[:, None]).reshape(g, s, len(cols)).sum(axis=1)
    bread = np.linalg.inv(xtx)
    cov = bread @ (scores.T @ scores) @ bread * (g / (g - 1) if g > 1 else math.nan)
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    value = {_DIES[c]: float(beta[i]) for i, c in enumerate(cols)}
    errors = {_DIES[c]: float(se[i]) for i, c in enumerate(cols)}
    return DieValues(h + 1, g, g * s, value, errors, float(y.mean()))
