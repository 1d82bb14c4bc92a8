"""Tournament statistics: means with paired confidence intervals, ranks, wins, ratings.

Pure functions of the configuration and the game results (sorted by game
index), so every backend gives the same table.

Confidence intervals are computed over *deals*, not games: an entrant's scores
in the games of one deal are averaged first. In duplicate mode a deal is played
by every rotation, so the luck of the deal is the same for everyone and largely
cancels — above all in the pairwise differences, which are paired by deal. The
interval is Student's t-interval over the per-deal values (95 %).

>>> mean, (low, high) = mean_ci([1.0, 2.0, 3.0])
>>> mean, round(low, 3), round(high, 3)
(2.0, -0.484, 4.484)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from openskill.models import PlackettLuce

from ..rules import places
from .config import Entrant, TournamentConfig
from .play import GameResult, SeatResult

__all__ = [
    "EntrantStats",
    "PairStats",
    "Rating",
    "Summary",
    "mean_ci",
    "ratings",
    "summarize",
    "t_quantile",
]

#: Fault messages shown per entrant.
FIRST_FAULTS = 5


# --- Student's t ------------------------------------------------------------------------


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def _betai(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def _t_cdf(t: float, df: float) -> float:
    tail = 0.5 * _betai(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


@lru_cache(maxsize=256)
def t_quantile(p: float, df: int) -> float:
    """The p-quantile of Student's t distribution with `df` degrees of freedom (0.5 < p < 1).

    >>> round(t_quantile(0.975, 2), 4)
    4.3027
    """
    if not 0.5 <= p < 1.0 or df < 1:
        raise ValueError("t_quantile needs 0.5 <= p < 1 and df >= 1")
    lo, hi = 0.0, 1.0
    while _t_cdf(hi, df) < p:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if _t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12:
            break
    return (lo + hi) / 2.0


def mean_ci(values: Sequence[float], level: float = 0.95) -> tuple[float, tuple[float, float] | None]:
    """The mean of `values` and its t confidence interval (None with fewer than 2 values)."""
    n = len(values)
    if n == 0:
        return math.nan, None
    mean = math.fsum(values) / n
    if n < 2:
        return mean, None
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_quantile(0.5 + level / 2.0, n - 1) * math.sqrt(var / n)
    return mean, (mean - half, mean + half)


# --- ratings ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Rating:
    """An openskill Plackett-Luce rating: `mu`, `sigma`, and `ordinal` = mu - 3 sigma."""

    mu: float
    sigma: float
    ordinal: float


def ratings(entrants: int, results: Sequence[GameResult]) -> list[Rating]:
    """Plackett-Luce ratings of the entrants, updated game by game in game order (places as ranks)."""
    model = PlackettLuce()
    current = [model.rating(name=str(i)) for i in range(entrants)]
    for game in sorted(results, key=lambda g: g.index):
        teams = [[current[seat.entrant]] for seat in game.seats]
        rated = model.rate(teams, ranks=[float(p) for p in places(game.totals)])
        for seat, team in zip(game.seats, rated):
            current[seat.entrant] = team[0]
    return [Rating(r.mu, r.sigma, r.ordinal()) for r in current]


# --- the summary -----------------------------------------------------------------------


@dataclass(frozen=True)
class EntrantStats:
    """One row of the tournament table."""

    name: str
    spec: str
    games: int
    mean_score: float
    #: 95 % t-interval of the mean score, over deals (None with a single deal).
    ci95: tuple[float, float] | None
    #: Mean finishing place (1 = first; equal totals share the place).
    mean_rank: float
    #: Games won, a tie for first counting as a shared win (1/k each), over games played.
    win_rate: float
    #: Share of hands whose bid was made exactly.
    bids_made: float
    #: Bonus points scored per hand played.
    bonus_per_hand: float
    decisions: int
    #: Mean and longest thinking time per decision, in milliseconds.
    decision_ms_mean: float
    decision_ms_max: float
    faults: int
    fault_kinds: dict[str, int]
    first_faults: tuple[str, ...]
    rating: Rating
    #: The entrant's final total in each game it played (in game order).
    scores: tuple[int, ...] = field(repr=False)
    #: The mean score less the luck of the faces, and its interval over deals (None unless measured).
    mean_less_luck: float | None = None
    ci95_less_luck: tuple[float, float] | None = None


@dataclass(frozen=True)
class PairStats:
    """Entrant `a`'s mean score minus entrant `b`'s, paired by deal, with its 95 % t-interval."""

    a: str
    b: str
    mean_diff: float
    ci95: tuple[float, float] | None
    deals: int
    #: The same for the scores less the luck of the faces (None unless measured).
    mean_diff_less_luck: float | None = None
    ci95_less_luck: tuple[float, float] | None = None


@dataclass(frozen=True)
class Summary:
    """The whole tournament in numbers."""

    entrants: tuple[EntrantStats, ...]
    pairs: tuple[PairStats, ...]
    games: int
    deals: int
    seed: int
    duplicate: bool
    rules: dict[str, str]


def summarize(config: TournamentConfig, results: Sequence[GameResult]) -> Summary:
    """The statistics of a tournament's results (any order: they are sorted by game index first)."""
    results = sorted(results, key=lambda g: g.index)
    tallies = [_Tally() for _ in range(config.seats)]
    for game in results:
        place = places(game.totals)
        for seat, r in enumerate(game.seats):
            tallies[r.entrant].add(game, r, place[seat], place.count(1))
    rated = ratings(config.seats, results)
    deal_means = [t.deal_means() for t in tallies]
    less_luck = [t.deal_means(less_luck=True) for t in tallies]
    return Summary(
        entrants=tuple(t.row(entrant, rated[e]) for e, (entrant, t) in enumerate(zip(config.entrants, tallies))),
        pairs=tuple(_pairs(config, deal_means, less_luck)),
        games=len(results),
        deals=len({g.deal for g in results}),
        seed=config.seed,
        duplicate=config.duplicate,
        rules=config.rules.to_dict(),
    )


@dataclass
class _Tally:
    """One entrant's running totals over the games it played (in game order)."""

    scores: list[int] = field(default_factory=list)
    by_deal: dict[int, list[int]] = field(default_factory=dict)
    #: Each deal's totals less the luck of the faces, where every game measured it.
    less_luck: dict[int, list[float]] = field(default_factory=dict)
    unmeasured: bool = False
    rank_sum: int = 0
    wins: float = 0.0
    hands: int = 0
    made: int = 0
    bonus: int = 0
    decisions: int = 0
    seconds: float = 0.0
    longest: float = 0.0
    faults: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    messages: list[str] = field(default_factory=list)

    def add(self, game: GameResult, r: SeatResult, place: int, firsts: int) -> None:
        """Count one game in which the entrant finished `place` (`firsts` seats shared first place)."""
        self.scores.append(r.total)
        self.by_deal.setdefault(game.deal, []).append(r.total)
        if r.luck is None:
            self.unmeasured = True
        else:
            self.less_luck.setdefault(game.deal, []).append(r.total - r.luck)
        self.rank_sum += place
        if place == 1:
            self.wins += 1.0 / firsts
        self.hands += r.hands
        self.made += r.bids_made
        self.bonus += r.bonus
        self.decisions += r.decisions
        self.seconds += r.seconds
        self.longest = max(self.longest, r.max_seconds)
        self.faults += r.fault_count
        self.kinds.update(dict(r.fault_kinds))
        for _kind, message in r.faults:
            if len(self.messages) < FIRST_FAULTS:
                self.messages.append(f"game {game.index}: {message}")

    def deal_means(self, *, less_luck: bool = False) -> dict[int, float]:
        """The entrant's mean total per deal (duplicate play: a deal's rotations averaged); `less_luck`:
        of its totals less the luck of the faces (empty unless every game measured it)."""
        if less_luck and self.unmeasured:
            return {}
        by_deal: dict[int, list[float]] | dict[int, list[int]] = self.less_luck if less_luck else self.by_deal
        return {d: math.fsum(v) / len(v) for d, v in by_deal.items()}

    def row(self, entrant: Entrant, rating: Rating) -> EntrantStats:
        """The entrant's row of the tournament table."""
        games = len(self.scores)
        means = self.deal_means()
        _, ci = mean_ci([means[d] for d in sorted(means)])
        lucky = self.deal_means(less_luck=True)
        less_luck, ci_less_luck = mean_ci([lucky[d] for d in sorted(lucky)]) if lucky else (None, None)
        return EntrantStats(
            name=entrant.name,
            spec=entrant.spec,
            games=games,
            mean_score=math.fsum(self.scores) / games if games else math.nan,
            ci95=ci,
            mean_rank=self.rank_sum / games if games else math.nan,
            win_rate=self.wins / games if games else math.nan,
            bids_made=self.made / self.hands if self.hands else math.nan,
            bonus_per_hand=self.bonus / self.hands if self.hands else math.nan,
            decisions=self.decisions,
            decision_ms_mean=1000 * self.seconds / self.decisions if self.decisions else 0.0,
            decision_ms_max=1000 * self.longest,
            faults=self.faults,
            fault_kinds=dict(sorted(self.kinds.items())),
            first_faults=tuple(self.messages),
            rating=rating,
            scores=tuple(self.scores),
            mean_less_luck=less_luck,
            ci95_less_luck=ci_less_luck,
        )


def _pairs(config: TournamentConfig, deal_means: list[dict[int, float]],
           less_luck: list[dict[int, float]]) -> list[PairStats]:
    """Every ordered pair of entrants: the mean difference of their totals over the deals both played
    (and of their totals less the luck of the faces, where measured)."""
    pairs = []
    n = config.seats
    for a in range(n):
        for b in range(n):
            if a == b:
                continue
            common = sorted(set(deal_means[a]) & set(deal_means[b]))
            diff, ci = mean_ci([deal_means[a][d] - deal_means[b][d] for d in common])
            lucky = less_luck[a] and less_luck[b]
            diff_less, ci_less = (mean_ci([less_luck[a][d] - less_luck[b][d] for d in common]) if lucky
                                  else (None, None))
            pairs.append(PairStats(config.entrants[a].name, config.entrants[b].name, diff, ci, len(common),
                                   diff_less, ci_less))
    return pairs
