"""Rollouts for search bots: finish the current hand many times, fast, from a fully known state.

A search bot (Monte Carlo, ISMCTS) samples what it cannot see with
`Game.determinize(seat, rng)` and then wants to know how the hand ends from
there. `finish_hand` encodes the game's current hand into a small int array
(a few microseconds) and plays the rest of it `n` times in a numba kernel
(`kernel.play_hand`), each time with fresh faces and every seat following the
rollout policy:

- ``"random"``: a uniformly random legal die (and a uniform bid 0..n);
- ``"greedy"``: `GreedyBot`'s heuristics re-expressed in the kernel — bid the
  score-maximising number of tricks given each die's `die_strength`
  (`analysis.strength`); while
  short of the bid roll the legal die most likely to take the trick (faces
  rolled so far, the seats still to roll drawing from the unseen dice),
  once the bid is reached (or on a zero bid) the most dangerous die that
  still loses.

Only the *current hand* is played: the result is each seat's hand score
(bonuses, landlubber and all rule options included), which is what a
decision within the hand changes.

>>> import random
>>> from minodice.game import Game
>>> game = Game(4, seed=1)
>>> scores = finish_hand(game.determinize(0, random.Random(2)), 200, seed=3)
>>> scores.shape
(200, 4)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..analysis.strength import die_strength
from ..dice import Die
from ..game import Game, Phase
from ..rules import Rules
from . import kernel as K
from .kernel import S_BIDS

__all__ = [
    "encode",
    "finish_hand",
    "finish_hand_tricks",
    "hand_start_state",
    "pack_state",
    "playout_values",
    "policy_bid",
    "policy_roll",
    "seat_objective",
]

_BID, _ROLL = Phase.BID, Phase.ROLL
_NO_STREAM = np.empty(0, dtype=np.float64)
_DIES: tuple[Die, ...] = tuple(Die)
_POLICY_CACHE: dict[tuple[object, int], np.ndarray] = {}
_STRENGTH_CACHE: dict[tuple[int, str, str], np.ndarray] = {}
_M64 = (1 << 64) - 1

Policy = str | Sequence[str]


def policy_array(policy: Policy, seats: int) -> np.ndarray:
    """The kernel's int64[seats] policy codes for `policy` (one name, or one per seat)."""
    key = (policy if isinstance(policy, str) else tuple(policy), seats)
    arr = _POLICY_CACHE.get(key)
    if arr is None:
        names = [policy] * seats if isinstance(policy, str) else list(policy)
        if len(names) != seats:
            raise ValueError(f"{seats} seats need {seats} policies, got {len(names)}")
        try:
            arr = np.array([K.POLICIES[p] for p in names], dtype=np.int64)
        except KeyError as e:
            raise ValueError(
                f"unknown rollout policy {e.args[0]!r}: choose one of {', '.join(K.POLICIES)}"
            ) from None
        arr.flags.writeable = False
        _POLICY_CACHE[key] = arr
    return arr


def strength_array(seats: int, rules: Rules) -> np.ndarray:
    """The greedy policy's per-die win chances (`analysis.strength.die_strength`) as a float64[7] array."""
    key = (seats, rules.all_specials, rules.all_flags)
    arr = _STRENGTH_CACHE.get(key)
    if arr is None:
        table = die_strength(seats, rules)
        arr = np.array([table[d] for d in _DIES], dtype=np.float64)
        arr.flags.writeable = False
        _STRENGTH_CACHE[key] = arr
    return arr


_ZERO_STRENGTH = np.zeros(7, dtype=np.float64)


def _strength_for(pol: np.ndarray, seats: int, rules: Rules) -> np.ndarray:
    return strength_array(seats, rules) if pol.any() else _ZERO_STRENGTH


def pack_state(
    n: int,
    leader: int,
    lead: int,
    bids: Sequence[int],
    won: Sequence[int],
    bonus: Sequence[int],
    faces: Sequence[int],
    held: Sequence[Sequence[int]],
    rolled: Sequence[int],
) -> np.ndarray:
    """The kernel's int64 state array of a hand of `n` dice (the one place that knows its layout).

    Layout (read back by `kernel.decode`): seats, n, leader, k, lead (-1: none),
    then per seat its bid (-1: still to choose; they start at `kernel.S_BIDS`),
    its tricks won and its bonus, the k faces (indices) of the trick in
    progress, then for each seat its count of held dice and their kinds, then
    the count and kinds of the dice rolled this hand.

    >>> pack_state(1, 0, -1, [-1] * 3, [0] * 3, [0] * 3, [], [[0], [1], [2]], []).tolist()
    [3, 1, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 1, 2, 0]
    """
    seats = len(held)
    if not len(bids) == len(won) == len(bonus) == seats:
        raise ValueError(f"bids, won and bonus need one entry per seat ({seats})")
    state = [seats, n, leader, len(faces), lead, *bids, *won, *bonus, *faces]
    for dice in held:
        state.append(len(dice))
        state += dice
    state.append(len(rolled))
    state += rolled
    return np.array(state, dtype=np.int64)


def hand_start_state(
    seats: int, n: int, known: dict[int, Sequence[Die]], start: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """The state of a hand of `n` dice just dealt, waiting for bids, `start` to roll first.

    The seats in `known` hold those dice; every other seat holds `n`
    placeholder dice whose places in the array come back second, for the
    caller to fill with die kinds (a fresh deal of the unseen dice each time).

    >>> from minodice.dice import Die
    >>> state, slots = hand_start_state(3, 1, {1: [Die.RED]})
    >>> state[slots].size, int(state[S_BIDS + 1])
    (2, -1)
    """
    held: list[list[int]] = []
    slots: list[int] = []
    pos = S_BIDS + 3 * seats  # where the held dice begin (no faces rolled yet)
    for s in range(seats):
        dice = [d.index for d in known[s]] if s in known else [0] * n
        if len(dice) != n:
            raise ValueError(f"seat {s} holds {len(dice)} dice, not {n}")
        if s not in known:
            slots += range(pos + 1, pos + 1 + n)
        held.append(dice)
        pos += 1 + n
    zeros = [0] * seats
    state = pack_state(n, start, -1, [-1] * seats, zeros, zeros, [], held, [])
    return state, np.array(slots, dtype=np.int64)


def encode(game: Game, bids: Sequence[int | None] | None = None) -> np.ndarray:
    """The current hand of `game` (phase BID or ROLL) as the kernel's int64 state array (see `pack_state`).

    `bids` overrides or fills the game's bids (None entries: keep).
    """
    phase = game.phase
    if phase is not _ROLL and phase is not _BID:
        raise ValueError(f"finish_hand needs a game waiting for a bid or a roll, not phase {phase.value!r}")
    seats = game.seats
    hand = game.log[-1]
    bid_list = _bid_list(game, bids)
    won = [0] * seats
    rolled: list[int] = []
    tricks = hand.tricks
    for t in tricks:
        w = t.winner
        if w is not None:
            won[w] += 1
        rolled += [r[1].index for r in t.rolls]
    held = [[d.index for d in game.held(s)] for s in range(seats)]
    if phase is _ROLL:
        current = tricks[-1]
        lead = game.lead_colour
        faces = [r[2].index for r in current.rolls]
        return pack_state(game.hand, current.leader, -1 if lead is None else lead.index,
                          bid_list, won, hand.bonus, faces, held, rolled)
    return pack_state(game.hand, hand.start, -1, bid_list, won, hand.bonus, [], held, rolled)


def _bid_list(game: Game, bids: Sequence[int | None] | None) -> list[int]:
    """The game's bids (-1: still to choose), overridden or filled by `bids` (None entries: keep)."""
    known = game.log[-1].bids
    if bids is None:
        return [-1 if b is None else b for b in known]
    if len(bids) != game.seats:
        raise ValueError(f"bids needs one entry per seat ({game.seats}), got {len(bids)}")
    bid_list = [(-1 if k is None else k) if b is None else b for b, k in zip(bids, known)]
    for b in bid_list:
        if not -1 <= b <= game.hand:
            raise ValueError(f"bids go from 0 to {game.hand}, not {b}")
    return bid_list


def _stream(uniforms: np.ndarray | None, need: int) -> np.ndarray:
    """`uniforms` as the kernels' stream (empty: use the generator); at least `need` of them."""
    if uniforms is None:
        return _NO_STREAM
    arr = np.ascontiguousarray(uniforms, dtype=np.float64)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError("uniforms must be a non-empty 1-D array of numbers in [0, 1)")
    if arr.size < need:
        raise ValueError(f"uniforms holds {arr.size} numbers; these playouts may draw {need}")
    return arr


def _run(
    game: Game,
    n: int,
    seed: int,
    bids: Sequence[int | None] | None,
    policy: Policy,
    forced: int,
    uniforms: np.ndarray | None,
) -> tuple[np.ndarray, np.ndarray]:
    seats = game.seats
    state = encode(game, bids)
    pol = policy_array(policy, seats)
    rules = game.rules
    scores = np.empty((n, seats), dtype=np.int64)
    won = np.empty((n, seats), dtype=np.int64)
    K.finish_kernel(
        n, state, K.encode_rules(rules), pol, _strength_for(pol, seats, rules),
        np.uint64(seed & _M64), _stream(uniforms, n * seats * (1 + 2 * game.hand)), forced, scores, won,
    )
    return scores, won


def finish_hand(
    game: Game,
    n: int,
    seed: int,
    *,
    bids: Sequence[int | None] | None = None,
    policy: Policy = "greedy",
    uniforms: np.ndarray | None = None,
) -> np.ndarray:
    """Play the rest of `game`'s current hand `n` times; each seat's hand score per playout.

    `game` is a fully known state (a determinization or `Game.from_view`)
    waiting for a bid or a roll. Its known bids count; `bids` (one entry per
    seat, None: keep) overrides or fills them; bids still missing are chosen
    by the policy (greedy: once, as GreedyBot; random: per playout). `policy`
    is "greedy" or "random", or one name per seat. Faces (and random choices)
    come from a generator seeded with `seed`, or from `uniforms` in the order
    `kernel` documents (for exact replays through the engine).

    Returns an int64 array [n, seats] of hand scores (the scores of this hand
    only, not game totals).
    """
    return _run(game, n, seed, bids, policy, -1, uniforms)[0]


def finish_hand_tricks(
    game: Game,
    n: int,
    seed: int,
    *,
    bids: Sequence[int | None] | None = None,
    policy: Policy = "greedy",
    uniforms: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """As `finish_hand`, also returning the tricks each seat won in the hand: (scores, won), each [n, seats]."""
    return _run(game, n, seed, bids, policy, -1, uniforms)


def playout_values(
    game: Game,
    seat: int,
    candidates: Sequence[Die | int],
    n: int,
    seed: int,
    *,
    bids: Sequence[int | None] | None = None,
    policy: Policy = "greedy",
    rivals: float = 0.0,
) -> np.ndarray:
    """Mean hand score of `seat` after each candidate action, over `n` playouts each (with `rivals`,
    its `seat_objective`).

    A `Die` candidate is rolled now (the game must wait for `seat` to roll,
    and the die must be legal); an int candidate is `seat`'s bid (the game
    must be bidding). Every candidate sees the same seed (common random
    numbers), so differences between candidates are less noisy.
    """
    out = np.empty(len(candidates), dtype=np.float64)
    for i, c in enumerate(candidates):
        if isinstance(c, Die):
            if game.phase is not _ROLL or game.turn != seat:
                raise ValueError(f"seat {seat} is not the seat to roll")
            if not any(a.die is c for a in game.legal_rolls()):
                raise ValueError(f"seat {seat} may not roll {c.value} now")
            scores = _run(game, n, seed, bids, policy, c.index, None)[0]
        else:
            if game.phase is not _BID:
                raise ValueError("bid candidates need a game that is bidding")
            over: list[int | None] = list(bids) if bids is not None else [None] * game.seats
            over[seat] = int(c)
            scores = _run(game, n, seed, over, policy, -1, None)[0]
        out[i] = seat_objective(scores, seat, rivals).mean()
    return out


def seat_objective(scores: np.ndarray, seat: int, rivals: float = 0.0) -> np.ndarray:
    """What each playout (a row of `finish_hand`'s scores) is worth to `seat`: its hand score minus `rivals`
    times the mean of the other seats' (0: its own score alone; 1: its lead over them, what decides a game).

    >>> seat_objective(np.array([[20, 40, -10, 0]]), 0, 1.0)
    array([10.])
    """
    own = scores[:, seat].astype(np.float64)
    if not rivals:
        return own
    others = (scores.sum(axis=1) - scores[:, seat]) / (scores.shape[1] - 1)
    return own - rivals * others


def policy_roll(game: Game, policy: str = "greedy", seed: int = 0) -> Die:
    """The die the rollout policy rolls now for `game.turn` (greedy: as GreedyBot would)."""
    if game.phase is not _ROLL:
        raise ValueError("policy_roll needs a game waiting for a roll")
    return _DIES[_choose(game, policy, seed)[0]]


def policy_bid(game: Game, seat: int, policy: str = "greedy", seed: int = 0) -> int:
    """The bid the rollout policy makes for `seat` (greedy: as GreedyBot would)."""
    if game.phase is not _BID:
        raise ValueError("policy_bid needs a game that is bidding")
    state = encode(game, None)
    # Only `seat` is chosen: the others count as having bid (their bids do not matter here).
    row = state[S_BIDS : S_BIDS + game.seats]
    row[row < 0] = 0
    row[seat] = -1
    return int(_choose_state(state, game, policy, seed)[seat])


def _choose(game: Game, policy: str, seed: int) -> np.ndarray:
    return _choose_state(encode(game, None), game, policy, seed)


def _choose_state(state: np.ndarray, game: Game, policy: str, seed: int) -> np.ndarray:
    pol = policy_array(policy, game.seats)
    return K.choose_kernel(
        state, K.encode_rules(game.rules), pol, _strength_for(pol, game.seats, game.rules),
        np.uint64(seed & _M64), _NO_STREAM,
    )
