"""Estimates of a move's hand score with the learned network in the playouts (`neural+search:policy=...`).

`montecarlo` plays every seat of its playouts by the kernel's greedy policy,
so it judges a move by how greedy would follow it up. With these policies
`neural+search` judges it by how the network follows it up, in the vector
simulator (`sim.positions`: each determinization loaded as a row, all rows
stepped at once, the network's decisions one batched matrix product a step):

- ``network``: the network plays the seat's later moves; the kernel's greedy policy the other seats.
- ``network-all``: the network plays every seat (the others as if they were the network too).
- ``value``: the seat's move, the other seats' greedy moves up to the seat's next decision, then the
  network's value head (its estimate of the seat's points for the hand) instead of the rest of the hand.

The bid pruning and `ambition` correction of montecarlo are not used: the playouts already play the
seat as the network does.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from ..codes import quoted
from ..game import Game
from ..sim.positions import CALLER, Chooser, finish_hands, position_row
from .defaults import NETWORK_POLICIES, ROLLOUT_POLICIES
from .montecarlo import Estimate
from .network import VALUE_SCALE, PolicyValueNet, features

__all__ = ["NETWORK_POLICIES", "likeliest_moves", "network_estimates", "playout_estimates", "value_leaf"]


def likeliest_moves(net: PolicyValueNet, seats: int) -> Chooser:
    """`net`'s likeliest legal move in each row: a network playing in `sim.finish_hands`."""
    def choose(obs: np.ndarray, mask: np.ndarray, hints: np.ndarray) -> np.ndarray:
        logits, _ = net.forward(features(obs, seats, hints))
        return np.where(mask, logits, -np.inf).argmax(axis=1)

    return choose


def value_leaf(net: PolicyValueNet, seats: int) -> Chooser:
    """`net`'s value head in points: the leaf of a lookahead in `sim.finish_hands`."""
    def leaf(obs: np.ndarray, mask: np.ndarray, hints: np.ndarray) -> np.ndarray:
        _, value = net.forward(features(obs, seats, hints))
        return value * VALUE_SCALE

    return leaf


def network_estimates(
    dets: Sequence[Game], seat: int, moves: Sequence[int], net: PolicyValueNet, policy: str, per: int,
    rng: random.Random, rivals: float = 0.0,
) -> list[Estimate]:
    """Each move's (flat action id: a bid, or NUM_BIDS + a die kind) estimate of `seat`'s hand score:
    `per` playouts by `policy` from each determinization in `dets`, the same seeds for every move.
    With `rivals` (policies ``network`` and ``network-all``, which play the hand out), each playout counts
    as `sim.playout.seat_objective` of its scores."""
    if policy not in NETWORK_POLICIES:
        raise ValueError(f"policy must be one of {', '.join(NETWORK_POLICIES)}, not {quoted(policy)}")
    if rivals and policy not in ROLLOUT_POLICIES:
        raise ValueError(f"policy={policy} ends in the value head, which estimates the seat's own points only: "
                         f"rivals needs {' or '.join(p for p in NETWORK_POLICIES if p in ROLLOUT_POLICIES)}")
    seats = dets[0].seats
    others: Chooser | str = CALLER if policy == "network-all" else "greedy"
    leaf = value_leaf(net, seats) if policy == "value" else None
    return playout_estimates(dets, seat, moves, likeliest_moves(net, seats), others, leaf, per, rng, rivals)


def playout_estimates(
    dets: Sequence[Game], seat: int, moves: Sequence[int], choose: Chooser, others: Chooser | str,
    leaf: Chooser | None, per: int, rng: random.Random, rivals: float = 0.0,
) -> list[Estimate]:
    """Each move's estimate of `seat`'s hand score by `per` playouts from each determinization in `dets` (the
    same seeds for every move): the move, then `choose` playing the seat and `others` the other seats (a
    `Chooser`, `sim.positions.CALLER` for `choose` too, or a kernel policy's name), to the end of the hand
    (counted by `rivals`, as `sim.playout.seat_objective`) or, with `leaf`, to the seat's next decision, which
    `leaf` judges. The policies of `network_estimates` are made of these parts; so are the lab's variants."""
    k, a = len(dets), len(moves)
    rows = np.stack([position_row(d) for d in dets])
    state = np.broadcast_to(rows[None, :, None, :], (a, k, per, rows.shape[1])).reshape(a * k * per, -1)
    base = rng.getrandbits(62)
    seeds = np.tile(np.arange(base, base + k * per, dtype=np.uint64), a)
    first = np.repeat(np.asarray(moves, dtype=np.int64), k * per)
    rules = dets[0].rules
    if leaf is not None:
        values = finish_hands(state, seeds, seat, first, choose, rules, others=others, leaf=leaf, depth=1)
    else:
        values = finish_hands(state, seeds, seat, first, choose, rules, others=others, rivals=rivals)
    means = values.reshape(a, k, per).mean(axis=2)
    out = []
    for i in range(a):
        est = Estimate()
        for j in range(k):
            est.add(float(means[i, j]), per)
        out.append(est)
    return out
