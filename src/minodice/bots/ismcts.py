"""`ismcts`: information-set Monte Carlo tree search for the rolls (bids as `montecarlo`).

Single-observer ISMCTS (Cowling, Powley & Whitehouse, 2012) over the hand in
play, whose score for the seat is the objective:

1. every iteration samples a determinization — a game consistent with the
   seat's view, the other seats' hidden dice dealt from the dice it has not
   seen in proportion to how well they explain the others' bids and rolls
   (`bots.inference`), with fresh chance;
2. it descends one tree shared by all determinizations: a node is a history of
   the rolls made since the decision (which die each seat rolled, and the face
   it showed — faces are chance, drawn by the determinization as the game
   applies the roll, and the tree branches on them); at each node the seat to
   roll picks among the dice legal *in this determinization* by UCB1, where an
   action's exploration term counts the iterations in which it was available;
   opponents' nodes maximise their own score;
3. it adds the first untried action, then finishes the hand with `per`
   playouts of the fast greedy-like policy in the batch simulator
   (`montecarlo.rollout_scores`);
4. it backs up every seat's mean hand score (each node's statistics are those
   of the seat that acts there; UCB sees scores scaled to about [0, 1] by `score_scale`).

The die rolled is the root action visited most (ties: the higher mean).
Bids use `montecarlo`'s estimate (every legal bid played out on shared
determinizations).

Budget and model (options in the spec, e.g. `ismcts:sims=400,seconds=0.2`):

- `sims` (default 160): search iterations per roll; `per` (default 4 with the
  simulator, 1 without) playouts at each new leaf; `c` (default 0.3): the UCB1
  exploration constant;
- `bid_sims` (default 1600): playouts per legal bid, as `montecarlo`'s;
- `infer` (default 1), `roll_infer`, `bid_beta`, `roll_net` and `ambition` (default 5): as `montecarlo`'s — the
  determinizations follow the evidence of the other seats' bids and rolls,
  and bids get the play correction;
- `seconds`: a time budget per decision instead (timed decisions are not reproducible);
- `policy` (default `greedy`): the playout policy, `greedy` or `random`.

See `benchmarks/bench_bots.py` for its strength and decision times.
Every decision leaves its evidence in `last_explanation` (see `bots.explain`).
"""

from __future__ import annotations

import math
import random
import time

from .. import rules as R
from ..dice import Die, Face
from ..game import Game, HandLog, Roll, SeededChance
from ..view import View
from . import BUILTIN
from .base import Bot
from .defaults import (
    DEFAULT_AMBITION,
    DEFAULT_BID_PER,
    DEFAULT_BID_SIMS,
    DEFAULT_C,
    DEFAULT_INFER,
    DEFAULT_ITERATIONS,
    DEFAULT_LEAF_PER,
    DEFAULT_POLICY,
)
from .explain import ChoiceStat, Explanation
from .inference import PosteriorSampler, Trust
from .montecarlo import (
    BATCH,
    choose_bid,
    evidence_model,
    only_legal_roll,
    rollout_scores,
    seat_of,
    warm_simulator,
)

__all__ = ["DEFAULT_ITERATIONS", "IsmctsBot", "score_scale", "search"]


class _Edge:
    """An action at a node: visits, availability, score sums (of the acting seat), and its
    children by the face the die showed."""

    __slots__ = ("avail", "children", "n", "w", "w2")

    def __init__(self) -> None:
        self.n = 0
        self.avail = 0
        self.w = 0.0
        self.w2 = 0.0
        self.children: dict[Face, dict[Die, _Edge]] = {}


def search(
    view: View,
    rng: random.Random,
    *,
    sims: int | None = DEFAULT_ITERATIONS,
    per: int = DEFAULT_LEAF_PER,
    c: float = DEFAULT_C,
    seconds: float | None = None,
    policy: str = "greedy",
    infer: float | Trust = DEFAULT_INFER,
    reuse: int = 3,
    cache: dict | None = None,
) -> tuple[dict[Die, _Edge], int]:
    """Run the search for the roll `view` asks of its seat; the root's edges and the iterations run.

    Each iteration takes a determinization, selects down the tree and expands
    one new action (`_descend`), plays the hand out (`_playout`) and backs the
    scores up the path (`_back_up`). `infer` > 0 draws the determinizations in
    proportion to how well they explain the other seats' revealed bids and
    rolls (`bots.inference`).
    """
    deals = _Deals(view, rng, infer, reuse, cache)
    root: dict[Die, _Edge] = {}
    deadline = time.perf_counter() + seconds if seconds is not None else None
    limit = sims if sims is not None else (1 << 30 if seconds is not None else DEFAULT_ITERATIONS)
    ucb = _Ucb(c, *score_scale(view))
    done = 0
    while done < limit:
        if deadline is not None and done and time.perf_counter() >= deadline:
            break
        done += 1
        g = deals.next()
        hand = g.log[-1]  # the hand searched (a seeded game deals the next one once it is scored)
        path = _descend(g, hand, root, rng, ucb)
        _back_up(path, _playout(g, hand, per, rng, policy))
    return root, done


def score_scale(view: View) -> tuple[float, float]:
    """The offset and span UCB1 scales a hand's scores by, to about [0, 1].

    The offset is the hand's lowest score and the span its range without the
    bonus (`rules.hand_score_bounds` less `rules.max_hand_bonus`): bonuses are
    rare, and the exploration constant `c` is tuned on this scale.

    >>> from minodice.game import Game
    >>> score_scale(Game(4, seed=1).observe(0))  # hand 1: -10 .. 20
    (-10.0, 30.0)
    """
    lo, hi = R.hand_score_bounds(view.hand, view.seats, view.rules)
    return float(lo), float(hi - lo - R.max_hand_bonus(view.seats, view.rules))


class _Deals:
    """The search's determinizations: drawn by the evidence (each deal played `reuse` times, fresh
    chance each), or uniform from the view when there is no evidence to weigh."""

    def __init__(self, view: View, rng: random.Random, infer: float | Trust, reuse: int, cache: dict | None) -> None:
        self.view, self.rng, self.reuse = view, rng, reuse
        self.own_bid = view.bids[seat_of(view)]
        self.sampler = PosteriorSampler(view, infer, rng, cache)
        self.by_evidence = Trust.of(infer).active and not view.bidding
        self.pending: list[Game] = []

    def next(self) -> Game:
        if not self.by_evidence:
            return Game.from_view(self.view, self.rng, own_bid=self.own_bid)
        if not self.pending:
            self.pending = self.sampler.games(BATCH) * self.reuse
            self.pending.reverse()
        return self.pending.pop().clone(chance=SeededChance(self.rng.getrandbits(64)))


class _Ucb:
    """UCB1 on scaled scores: an edge's mean scaled by `lo` and `scale`, plus `c` × the exploration term."""

    __slots__ = ("c", "lo", "scale")

    def __init__(self, c: float, lo: float, scale: float) -> None:
        self.c, self.lo, self.scale = c, lo, scale

    def value(self, e: _Edge) -> float:
        return (e.w / e.n - self.lo) / self.scale + self.c * math.sqrt(math.log(e.avail) / e.n)


def _edge(node: dict[Die, _Edge], die: Die) -> _Edge:
    """The edge for rolling `die` at `node`, made on first sight; its availability counted."""
    edge = node.get(die)
    if edge is None:
        edge = node[die] = _Edge()
    edge.avail += 1
    return edge


def _select(node: dict[Die, _Edge], legal: list, rng: random.Random, ucb: _Ucb) -> tuple[Roll, _Edge, bool]:
    """The action to take at `node` among `legal`: an untried one at random (expanded: True), else UCB1's best."""
    if len(legal) == 1:
        return legal[0], _edge(node, legal[0].die), False
    untried: list[tuple[Roll, _Edge]] = []
    best: tuple[Roll, _Edge] | None = None
    best_u = -math.inf
    for a in legal:
        e = _edge(node, a.die)
        if e.n == 0:
            untried.append((a, e))
        elif not untried:
            u = ucb.value(e)
            if u > best_u:
                best_u, best = u, (a, e)
    if untried:
        action, edge = untried[int(rng.random() * len(untried))]
        return action, edge, True
    assert best is not None
    return best[0], best[1], False


def _descend(
    g: Game, hand: HandLog, root: dict[Die, _Edge], rng: random.Random, ucb: _Ucb
) -> list[tuple[_Edge, int]]:
    """Select and apply actions from the root until one is tried for the first time or `hand` ends;
    the path of (edge, seat acting). The tree branches on the face each die shows."""
    node = root
    path: list[tuple[_Edge, int]] = []
    while hand.scores is None:
        p = g.turn
        action, edge, expanded = _select(node, g.legal_actions(p), rng, ucb)
        trick = hand.tricks[-1]
        g.apply(action)
        path.append((edge, p))
        if expanded or hand.scores is not None:
            break
        node = edge.children.setdefault(trick.rolls[-1][2], {})
    return path


def _playout(g: Game, hand: HandLog, per: int, rng: random.Random, policy: str) -> list[float]:
    """Every seat's score for `hand`: as played, if it ended; else the mean of `per` playouts."""
    if hand.scores is not None:
        return [float(x) for x in hand.scores]
    scores = rollout_scores(g, per, rng.getrandbits(62), None, policy)
    return [float(x) for x in scores.mean(axis=0)]


def _back_up(path: list[tuple[_Edge, int]], result: list[float]) -> None:
    """Add each edge's acting seat's score to its statistics."""
    for edge, p in path:
        x = result[p]
        edge.n += 1
        edge.w += x
        edge.w2 += x * x


def _stderr(e: _Edge) -> float:
    if e.n < 2:
        return float("nan")
    var = max(0.0, (e.w2 - e.w * e.w / e.n) / (e.n - 1))
    return math.sqrt(var / e.n)


class IsmctsBot(Bot):
    """Single-observer ISMCTS over this hand's rolls; bids by flat Monte Carlo."""

    name = "ismcts"

    def __init__(
        self,
        rng: random.Random | None = None,
        *,
        sims: int | None = None,
        per: int | None = None,
        c: float | None = None,
        bid_sims: int | None = None,
        seconds: float | None = None,
        policy: str | None = None,
        infer: float | None = None,
        ambition: float | None = None,
        roll_infer: float | None = None,
        bid_beta: float | None = None,
        roll_net: str | None = None,
    ) -> None:
        super().__init__(rng)
        #: The spec that makes this bot again, its options checked by their declaration (`bots.spec`).
        self.spec = BUILTIN.spec(self.name, sims=sims, per=per, c=c, bid_sims=bid_sims, seconds=seconds,
                                 infer=infer, ambition=ambition, policy=policy, roll_infer=roll_infer,
                                 bid_beta=bid_beta, roll_net=roll_net)
        warm_simulator()
        self.ambition = ambition if ambition is not None else DEFAULT_AMBITION
        self.infer = infer if infer is not None else DEFAULT_INFER
        self.roll_infer, self.bid_beta, self.roll_net = roll_infer, bid_beta, roll_net
        #: The evidence model, as `montecarlo`'s.
        self.evidence = evidence_model(self.infer, roll_infer, bid_beta, roll_net)
        self.sims = sims if sims is not None or seconds is not None else DEFAULT_ITERATIONS
        self.per = per if per is not None else DEFAULT_LEAF_PER
        self.c = c if c is not None else DEFAULT_C
        self.bid_sims = bid_sims if bid_sims is not None or seconds is not None else DEFAULT_BID_SIMS
        self.bid_per = DEFAULT_BID_PER
        self.seconds = seconds
        self.policy = policy if policy is not None else DEFAULT_POLICY
        #: The evidence for the last decision (see `bots.explain`).
        self.last_explanation: Explanation | None = None
        self._cache: dict = {}  # each roll's miss under the evidence model, for inference within a hand

    def describe(self) -> str:
        return str(self.spec)

    def bid(self, view: View) -> int:
        return choose_bid(self, view, bid_sims=self.bid_sims, bid_per=self.bid_per)

    def roll(self, view: View) -> Die:
        began = time.perf_counter()
        seat = seat_of(view)
        legal = view.legal_dice
        if len(legal) == 1:
            return only_legal_roll(self, view, legal[0])
        root, iterations = search(
            view, self.rng, sims=self.sims, per=self.per, c=self.c, seconds=self.seconds,
            policy=self.policy, infer=self.evidence, cache=self._cache,
        )
        choices = []
        for d in legal:
            e = root.get(d)
            if e is None or e.n == 0:
                choices.append(ChoiceStat(d, float("nan"), float("nan"), 0))
            else:
                choices.append(ChoiceStat(d, e.w / e.n, _stderr(e), e.n))
        visited = [(ch, d) for ch, d in zip(choices, legal) if ch.n > 0]
        chosen = max(visited, key=lambda v: (v[0].n, v[0].mean))[1] if visited else legal[0]
        self.last_explanation = Explanation(
            kind="roll", seat=seat, bot=self.describe(), choices=tuple(choices), chosen=chosen,
            samples=iterations, seconds=time.perf_counter() - began,
            note=f"ISMCTS: {iterations} iterations, {self.per} playouts per leaf; samples = root visits",
        )
        return chosen
