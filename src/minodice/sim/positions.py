"""Finish hands from the engine's positions in the vector simulator, one seat's moves chosen by the caller.

`playout.finish_hand` plays a hand out with the kernel's policies for every
seat. A search that wants its own seat played by something the kernel does
not know — a learned network — loads each position (a determinization, a
fully known `Game` waiting for a bid or a roll) into a row of `sim.vector`'s
state (`position_row`), and `finish_hands` steps all the rows at once: the
caller's `choose` picks the seat's moves from batched observations (the
layout of `envs.encoding.encode`), legal-action masks and the greedy hints,
while the kernel plays the other seats, until the hand ends. Only the
current hand is played; the result is the seat's hand score in every row.

>>> import random
>>> from minodice.game import Game
>>> game = Game(4, seed=1).determinize(0, random.Random(2))
>>> rows = np.repeat(position_row(game)[None, :], 3, axis=0)
>>> first = np.zeros(3, dtype=np.int64)  # seat 0 bids 0 (the hand has one die)
>>> lowest = lambda obs, mask, hints: mask.argmax(axis=1)
>>> finish_hands(rows, np.arange(3, dtype=np.uint64), 0, first, lowest, game.rules).shape
(3,)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import numpy as np

from .. import rules as R
from ..dice import NUMBER_DICE, hands_for
from ..encoding import NUM_ACTIONS, NUM_BIDS, observation_size
from ..game import Game, Phase
from ..rules import Rules
from . import kernel as K
from . import vector as V
from .playout import encode, seat_objective, strength_array

__all__ = ["CALLER", "Chooser", "finish_hands", "position_row", "warmup"]

#: `finish_hands(others=CALLER)`: the caller's `choose` plays every seat, not only `seat`.
CALLER = "caller"

#: The caller's policy: (observations, legal-action masks, greedy hints) -> one action id per row.
Chooser = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]

def position_row(game: Game) -> np.ndarray:
    """`game`'s current hand as a row of `sim.vector`'s state (int64 [STATE_SIZE]); `game` waits for a
    bid (no bid placed: the seats then bid in turn from the start player) or a roll."""
    if game.phase not in (Phase.BID, Phase.ROLL):
        raise ValueError(f"a position to finish must wait for a bid or a roll, not phase {game.phase.value!r}")
    row = np.zeros(V.STATE_SIZE, dtype=np.int64)
    packed = encode(game)
    seats, n, leader, k, lead = K.decode(packed, row[: K.H_SIZE])
    hand = game.log[-1]
    winners = [t.winner for t in hand.tricks if t.winner is not None]
    for i, w in enumerate(winners):
        row[K.H_WINNERS + i] = w
    row[V.V_N] = n
    row[V.V_START] = hand.start
    row[V.V_LEADER] = leader
    row[V.V_K] = k
    row[V.V_LEAD] = lead
    row[V.V_TRICKS] = len(winners)
    row[V.V_BIDS_IN] = seats if game.phase is Phase.ROLL else 0
    if game.phase is Phase.BID and any(b is not None for b in hand.bids):
        raise ValueError("a bidding position to finish must have no bid placed yet")
    row[V.V_TOTALS : V.V_TOTALS + seats] = game.totals
    if game.phase is Phase.ROLL and k:
        for i, (_seat, die, _face) in enumerate(hand.tricks[-1].rolls):
            row[V.V_DICE + i] = die.index
    for trick in hand.tricks:
        for seat, die, _face in trick.rolls:
            row[V.V_ROLLED + 7 * seat + die.index] += 1
    voids = R.voids_shown(([(seat, die) for seat, die, _face in t.rolls] for t in hand.tricks), seats)
    for seat, colours in enumerate(voids):
        row[V.V_VOID + seat] = sum(1 << NUMBER_DICE.index(c) for c in colours)
    return row


def finish_hands(
    rows: np.ndarray,
    seeds: np.ndarray,
    seat: int,
    first: np.ndarray,
    choose: Chooser,
    rules: Rules,
    *,
    others: str | Chooser = "greedy",
    uniforms: np.ndarray | None = None,
    leaf: Chooser | None = None,
    depth: int = 0,
    rivals: float = 0.0,
) -> np.ndarray:
    """Finish the hand of every row of `rows` (positions by `position_row`, one seat count); `seat`'s
    hand score in each (float64 [games]).

    Row g's faces come from a generator seeded with `seeds[g]` (uint64; equal seeds, equal faces
    while the rows' moves agree: common random numbers). `seat`'s first move in row g is `first[g]`
    (an action id: a bid 0..8, or NUM_BIDS + a die kind); its later ones come from `choose`; the
    other seats play the kernel policy `others` ("greedy" or "random"), or with `others` "caller"
    `choose` plays them too, or `others` is a second `Chooser` that plays them (observations of the
    seat to act in each row, only the rows where another seat acts). `uniforms` (float64
    [games, L]): draw row g's random numbers from its row instead, in the order `sim.vector`
    documents (the hook the equality tests replay through the engine). With `leaf` and `depth` >= 1,
    a row stops at `seat`'s move after its first `depth` moves (if the hand lasts that long): its
    result is then the points of the hands ended so far plus `leaf`'s estimate of the rest, from
    the same arrays `choose` gets (one number per row). With `rivals` > 0 each row's result is
    `playout.seat_objective` of its hand scores instead (the seat's less `rivals` times the others' mean);
    a `leaf` estimates the seat's own points only, so the two do not go together.
    """
    reply = choose if others == CALLER else others if callable(others) else None
    if reply is None and others not in K.POLICIES:
        raise ValueError(f"others must be {', '.join(K.POLICIES)}, {CALLER} or a chooser, not {others!r}")
    if rivals and leaf is not None:
        raise ValueError("a leaf estimates the seat's own points only: rivals needs the hands played out")
    run = _Rows(rows, seeds, seat, rules, CALLER if reply is not None else str(others), uniforms)
    games = run.games
    first = np.ascontiguousarray(first, dtype=np.int64)
    if first.shape != (games,):
        raise ValueError(f"first needs one action id per row ({games}), not shape {first.shape}")
    forced = np.zeros(games, dtype=np.bool_)  # whether `seat` has made its first move, per row
    moves = np.zeros(games, dtype=np.int64)  # `seat`'s moves made, per row
    score = np.zeros(games, dtype=np.float64)
    done = np.zeros(games, dtype=np.bool_)  # the hand is over, or the leaf has judged the rest
    while True:
        mine = (run.actor == seat) & ~done
        inputs = run.inputs() if (mine & forced).any() or reply is not None else None
        if leaf is not None and depth >= 1 and inputs is not None:
            stop = mine & (moves >= depth)
            if stop.any():
                score[stop] += _subset(leaf, inputs, stop).astype(np.float64)
                done |= stop
                mine &= ~stop
        if done.all():
            return score
        moves += mine
        due = ~forced & mine
        actions = run.mask.argmax(axis=1).astype(np.int64)  # rows already done: any legal move
        actions[due] = first[due]
        asked = mine & ~due
        if asked.any() and inputs is not None:
            actions[asked] = _subset(choose, inputs, asked)
        theirs = ~mine & ~done
        if reply is not None and inputs is not None and theirs.any():
            actions[theirs] = _subset(reply, inputs, theirs)
        forced |= due
        bad = run.step(actions)
        if bad >= 0:
            who = (f"seat {seat}'s first move" if due[bad] else "the move choose gave" if mine[bad]
                   else "the move others gave")
            raise ValueError(f"row {bad}: {who}, action {int(actions[bad])}, is not legal there")
        score += np.where(done, 0.0, seat_objective(run.rewards, seat, rivals))
        done |= run.hand_over


def _subset(f: Chooser, inputs: tuple[np.ndarray, np.ndarray, np.ndarray], rows: np.ndarray) -> np.ndarray:
    """`f` on the `rows` (a boolean mask) of `inputs` only: one number per row picked."""
    out = np.asarray(f(*(x[rows] for x in inputs))).reshape(-1)
    if out.shape[0] != int(rows.sum()):
        raise ValueError(f"a chooser must give one number per row ({int(rows.sum())}), not {out.shape[0]}")
    return out


class _Rows:
    """The rows being finished and the vector kernels' arguments and outputs (see `finish_hands`)."""

    def __init__(self, rows: np.ndarray, seeds: np.ndarray, seat: int, rules: Rules, others: str,
                 uniforms: np.ndarray | None) -> None:
        self.state = state = np.array(rows, dtype=np.int64, order="C")
        self.games = games = state.shape[0]
        self.seats = seats = _seats_of(state)
        self.rng = np.zeros((games, 4), dtype=np.uint64)
        V.seed_rows(self.rng, np.asarray(seeds, dtype=np.uint64))
        self.hands = hands_for(seats)
        everyone = (1 << seats) - 1
        if others == CALLER:
            self.pol = (everyone, 0)
        else:
            self.pol = (1 << seat, everyone & ~(1 << seat) if K.POLICIES[others] == K.GREEDY else 0)
        self.rules = tuple(int(x) for x in K.encode_rules(rules))
        self.strength = strength_array(seats, rules)
        self.lay = V.section_offsets(seats)
        self.obs = np.empty((games, observation_size(seats)), dtype=np.float32)
        self.mask = np.empty((games, NUM_ACTIONS), dtype=np.bool_)
        self.actor = np.empty(games, dtype=np.int64)
        self.rewards = np.empty((games, seats), dtype=np.float32)
        self.terminated = np.empty(games, dtype=np.bool_)
        self.hand_over = np.empty(games, dtype=np.bool_)
        self.final_totals = np.empty((games, seats), dtype=np.int64)
        self.hints = np.empty((games, NUM_ACTIONS), dtype=np.float32)
        self.stream = np.zeros(0, dtype=np.float64)
        if uniforms is not None:
            self.stream = np.ascontiguousarray(uniforms, dtype=np.float64).reshape(-1)
            state[:, V.V_POS] = np.arange(games) * (self.stream.size // games)
        V.play_on_kernel(state, self.rng, self.stream, seats, self.hands, self.pol, self.rules, self.strength,
                         self.lay, self.obs, self.mask, self.actor)

    def inputs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """What the seat to act in each row sees: observations, legal-action masks, greedy hints."""
        V.hints_kernel(self.state, self.actor, self.seats, self.rules, self.strength, NUM_BIDS, self.hints)
        return self.obs, self.mask, self.hints

    def step(self, actions: np.ndarray) -> int:
        """Apply one action per row and play on to the next agent decision (-1, or the first illegal row)."""
        return int(V.step_kernel(
            self.state, self.rng, self.stream, actions, self.seats, self.hands, self.pol, self.rules, self.strength,
            self.lay, _NO_SEATS, self.obs, self.mask, self.actor, self.rewards, self.terminated, self.hand_over,
            self.final_totals, _NO_OBS,
        ))


_NO_SEATS = np.zeros(0, dtype=np.int64)
_NO_OBS = np.zeros((0, 0), dtype=np.float32)


def _seats_of(state: np.ndarray) -> int:
    """The seat count of the rows, which must be positions of one hand and seat count: every seat was
    dealt the hand's n dice, held or rolled since."""
    dealt = state[:, K.H_COUNTS : K.H_COUNTS + 42].sum(axis=1) + state[:, K.H_ROLLED : K.H_ROLLED + 7].sum(axis=1)
    n = state[:, V.V_N]
    if state.ndim != 2 or state.shape[0] == 0 or (n != n[0]).any() or (dealt != dealt[0]).any() or n[0] < 1:
        raise ValueError("rows must be positions (position_row) of one hand and one seat count")
    return int(dealt[0] // n[0])


def warmup() -> float:
    """Compile (or load from numba's cache) the vector kernels as `finish_hands` calls them (every argument
    is converted there, so any position and chooser compile the same code); returns the seconds it took."""
    start = time.perf_counter()
    game = Game(3, seed=0).determinize(0, random.Random(0))
    rows = np.repeat(position_row(game)[None, :], 2, axis=0)
    seeds, first = np.arange(2, dtype=np.uint64), np.zeros(2, dtype=np.int64)

    def lowest(obs: np.ndarray, mask: np.ndarray, hints: np.ndarray) -> np.ndarray:
        return mask.argmax(axis=1)

    finish_hands(rows, seeds, 0, first, lowest, game.rules)
    finish_hands(rows, seeds, 0, first, lowest, game.rules, others=CALLER, rivals=1.0)
    finish_hands(rows, seeds, 0, first, lowest, game.rules, leaf=lambda o, m, h: np.zeros(len(o)), depth=1)
    return time.perf_counter() - start
