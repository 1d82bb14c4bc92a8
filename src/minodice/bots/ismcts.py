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
   of the seat that acts there; UCB sees scores scaled by 30 × dice to about [0, 1]).

The die rolled is the root action visited most (ties: the higher mean).
Bids use `montecarlo`'s estimate (every legal bid played out on shared
determinizations).

Budget and model (options in the spec, e.g. `ismcts:sims=400,seconds=0.2`):

- `sims` (default 160): search iterations per roll; `per` (default 4 with the
  simulator, 1 without) playouts at each new leaf; `c` (default 0.3): the UCB1
  exploration constant;
- `bid_sims` (default 1600): playouts per legal bid, as `montecarlo`'s;
- `infer` (default 1) and `ambition` (default 5): as `montecarlo`'s — the
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

from ..dice import Die, Face
from ..game import Game, Roll, SeededChance
from ..view import View
from .base import Bot
from .explain import ChoiceStat, Explanation
from .inference import PosteriorSampler
from .montecarlo import (
    _BATCH,
    DEFAULT_AMBITION,
    DEFAULT_BID_PER,
    DEFAULT_BID_SIMS,
    DEFAULT_INFER,
    SLOW_SIMS,
    _seat,
    _spec,
    choose_bid,
    only_legal_roll,
    rollout_scores,
    simulator_available,
    warm_simulator,
)

__all__ = ["DEFAULT_ITERATIONS", "IsmctsBot", "search"]

#: Search iterations per roll when no budget is given.
DEFAULT_ITERATIONS = 160
#: UCB1 exploration constant (on scores scaled to about [0, 1]).
DEFAULT_C = 0.3


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
    per: int = 4,
    c: float = DEFAULT_C,
    seconds: float | None = None,
    policy: str = "greedy",
    infer: float = DEFAULT_INFER,
    reuse: int = 3,
    cache: dict | None = None,
) -> tuple[dict[Die, _Edge], int]:
    """Run the search for the roll `view` asks of its seat; the root's edges and the iterations run.

    `infer` > 0 draws the determinizations in proportion to how well they explain
    the other seats' revealed bids and rolls (`bots.inference`).
    """
    own_bid = view.bids[_seat(view)]
    pending: list[Game] = []
    sampler = PosteriorSampler(view, infer, rng, cache)
    root: dict[Die, _Edge] = {}
    deadline = time.perf_counter() + seconds if seconds is not None else None
    limit = sims if sims is not None else (1 << 30 if seconds is not None else DEFAULT_ITERATIONS)
    n_dice = view.hand
    lo, scale = -10.0 * n_dice, 30.0 * n_dice
    log = math.log
    sqrt = math.sqrt
    done = 0
    while done < limit:
        if deadline is not None and done and time.perf_counter() >= deadline:
            break
        done += 1
        if infer > 0 and not view.bidding:
            # Deals drawn by the evidence, each played `reuse` times (fresh chance).
            if not pending:
                pending = sampler.games(_BATCH) * reuse
                pending.reverse()
            g = pending.pop().clone(chance=SeededChance(rng.getrandbits(64)))
        else:
            g = Game.from_view(view, rng, own_bid=own_bid)
        hand = g.log[-1]
        node = root
        path: list[tuple[_Edge, int]] = []
        while hand.scores is None:
            p = g.turn
            legal = g.legal_actions(p)
            if len(legal) == 1:
                action = legal[0]
                edge = node.get(action.die)  # type: ignore[union-attr]
                if edge is None:
                    edge = node[action.die] = _Edge()  # type: ignore[union-attr]
                edge.avail += 1
                expanded = False
            else:
                untried: list[tuple[Roll, _Edge]] = []
                best: tuple[Roll, _Edge] | None = None
                best_u = -math.inf
                for a in legal:
                    e = node.get(a.die)  # type: ignore[union-attr]
                    if e is None:
                        e = node[a.die] = _Edge()  # type: ignore[union-attr]
                    e.avail += 1
                    if e.n == 0:
                        untried.append((a, e))  # type: ignore[arg-type]
                    elif not untried:
                        u = (e.w / e.n - lo) / scale + c * sqrt(log(e.avail) / e.n)
                        if u > best_u:
                            best_u, best = u, (a, e)  # type: ignore[assignment]
                if untried:
                    action, edge = untried[int(rng.random() * len(untried))]
                    expanded = True
                else:
                    action, edge = best  # type: ignore[misc]
                    expanded = False
            trick = hand.tricks[-1]
            g.apply(action)
            path.append((edge, p))
            if expanded or hand.scores is not None:
                break
            face = trick.rolls[-1][2]
            child = edge.children.get(face)
            if child is None:
                child = edge.children[face] = {}
            node = child
        if hand.scores is not None:
            result = [float(x) for x in hand.scores]
        else:
            scores = rollout_scores(g, per, rng.getrandbits(62), None, policy)
            result = [float(x) for x in scores.mean(axis=0)]
        for edge, p in path:
            x = result[p]
            edge.n += 1
            edge.w += x
            edge.w2 += x * x
    return root, done


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
        policy: str = "greedy",
        infer: float | None = None,
        ambition: float | None = None,
    ) -> None:
        super().__init__(rng)
        warm_simulator()
        self.ambition = ambition if ambition is not None else DEFAULT_AMBITION
        self.infer = infer if infer is not None else DEFAULT_INFER
        self.sims = sims if sims is not None or seconds is not None else DEFAULT_ITERATIONS
        self.per = per if per is not None else (4 if simulator_available() else 1)
        self.c = c if c is not None else DEFAULT_C
        fast = simulator_available()
        self.bid_sims = (
            bid_sims if bid_sims is not None or seconds is not None else (DEFAULT_BID_SIMS if fast else SLOW_SIMS)
        )
        self.bid_per = DEFAULT_BID_PER if fast else 1
        self.seconds = seconds
        self.policy = policy
        self._options: dict[str, int | float | str] = {
            k: v
            for k, v in (
                ("sims", sims), ("per", per), ("c", c), ("bid_sims", bid_sims), ("seconds", seconds),
                ("infer", infer), ("ambition", ambition),
            )
            if v is not None
        }
        if policy != "greedy":
            self._options["policy"] = policy
        #: The evidence for the last decision (see `bots.explain`).
        self.last_explanation: Explanation | None = None
        self._cache: dict = {}  # the greedy model's choices, for inference within a hand

    def describe(self) -> str:
        return _spec(self.name, self._options)

    def bid(self, view: View) -> int:
        return choose_bid(self, view, bid_sims=self.bid_sims, bid_per=self.bid_per)

    def roll(self, view: View) -> Die:
        began = time.perf_counter()
        seat = _seat(view)
        legal = [d for d in view.legal or () if isinstance(d, Die)]
        if len(legal) == 1:
            return only_legal_roll(self, view, legal[0])
        root, iterations = search(
            view, self.rng, sims=self.sims, per=self.per, c=self.c, seconds=self.seconds,
            policy=self.policy, infer=self.infer, cache=self._cache,
        )
        choices = []
        for d in legal:
            e = root.get(d)
            if e is None or e.n == 0:
                choices.append(ChoiceStat(d, float("nan"), float("nan"), 0))
            else:
                choices.append(ChoiceStat(d, e.w / e.n, _stderr(e), e.n))
        visited = [ch for ch in choices if ch.n > 0]
        chosen = max(visited, key=lambda ch: (ch.n, ch.mean)).choice if visited else legal[0]
        self.last_explanation = Explanation(
            kind="roll", seat=seat, bot=self.describe(), choices=tuple(choices), chosen=chosen,
            samples=iterations, seconds=time.perf_counter() - began,
            note=f"ISMCTS: {iterations} iterations, {self.per} playouts per leaf; samples = root visits",
        )
        return chosen  # type: ignore[return-value]
