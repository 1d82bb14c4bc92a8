"""Self-play training of the learned bot: proximal policy optimisation in the vector environment.

Why PPO: it is the method the published Skull King bots and most game
learners on a CPU use, it needs no model of the game, and the compiled vector
environment (`minodice.envs.vector`) gives it millions of decisions a minute.
Every seat of the self-play tables is the network being trained; a share of
the tables seats it against three kernel `greedy` bots instead, so it keeps
beating a fixed, sensible opponent and does not drift into habits only it
plays against. A new network reads the first version's inputs (those of the
shipped networks, without the hand's recall). The experiments that were
measured and dropped (tables against a fixed network, oracle guiding, a new
network that reads the recall) subclass `Trainer` and `Rollout` in the
repository's lab (`research/lab`).

A decision's return is the seat's score for the hand it belongs to (hands
are scored alone; the next hand starts afresh), its advantage that return
minus the value head's estimate. The gradients are written out by hand for the
small MLP of `bots.network` (numpy, float32), with Adam.

Training is deterministic for a seed on one machine: the environments, the
sampling and the minibatch order all draw from generators seeded by it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from ..bots.defaults import DEFAULT_HIDDEN, DEFAULT_TABLES
from ..bots.network import (
    FEATURES_V1,
    VALUE_SCALE,
    PolicyValueNet,
    features,
    masked_log_softmax,
)
from ..envs.vector import VectorTable

__all__ = [
    "Adam", "Batch", "Progress", "Rollout", "TrainConfig", "Trainer", "backprop", "evaluate_vs_greedy", "gradients",
    "hand_returns", "seat_zero",
]


@dataclass(frozen=True)
class TrainConfig:
    """What a training run does; every field has a sensible default for this machine (2 cores)."""

    seed: int = 0
    seats: int = 4
    hidden: tuple[int, ...] = DEFAULT_HIDDEN
    selfplay_envs: int = DEFAULT_TABLES[0]
    greedy_envs: int = DEFAULT_TABLES[1]
    steps: int = 128
    epochs: int = 3
    minibatch: int = 2048
    lr: float = 3e-4
    clip: float = 0.2
    value_coef: float = 0.5
    entropy_coef: float = 0.01
    max_grad_norm: float = 1.0


@dataclass
class Batch:
    """The decisions of one rollout with their old log-probabilities, values and returns."""

    x: np.ndarray
    mask: np.ndarray
    action: np.ndarray
    logp: np.ndarray
    value: np.ndarray
    ret: np.ndarray

    def __len__(self) -> int:
        return len(self.action)


@dataclass
class Progress:
    """After an update: decisions trained on so far, seconds, losses, and the mean hand score seen."""

    update: int
    decisions: int
    seconds: float
    policy_loss: float
    value_loss: float
    entropy: float
    mean_return: float
    extra: dict[str, float] = field(default_factory=dict)


class Adam:
    """The Adam optimiser over a list of arrays (updated in place)."""

    def __init__(self, params: list[np.ndarray], lr: float, b1: float = 0.9, b2: float = 0.999,
                 eps: float = 1e-8) -> None:
        self.params = params
        self.lr, self.b1, self.b2, self.eps = lr, b1, b2, eps
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.t = 0

    def step(self, grads: list[np.ndarray]) -> None:
        """Move every parameter against its gradient."""
        self.t += 1
        c1 = 1 - self.b1**self.t
        c2 = 1 - self.b2**self.t
        for p, g, m, v in zip(self.params, grads, self.m, self.v):
            m *= self.b1
            m += (1 - self.b1) * g
            v *= self.b2
            v += (1 - self.b2) * g * g
            p -= (self.lr * (m / c1) / (np.sqrt(v / c2) + self.eps)).astype(np.float32)


def gradients(net: PolicyValueNet, batch: Batch, adv: np.ndarray, cfg: TrainConfig) -> tuple[list[np.ndarray], dict]:
    """The PPO loss's gradients with respect to every parameter, for a minibatch (and the loss terms)."""
    acts = net.hidden(batch.x)
    logits, value = net.heads(acts[-1])
    logp_all = masked_log_softmax(logits, batch.mask)
    p = np.where(batch.mask, np.exp(logp_all), 0.0)
    rows = np.arange(len(batch))
    logp = logp_all[rows, batch.action]
    ratio = np.exp(logp - batch.logp)
    clipped = np.clip(ratio, 1 - cfg.clip, 1 + cfg.clip)
    surrogate = np.minimum(ratio * adv, clipped * adv)
    entropy = -(p * logp_all).sum(axis=1)
    target = batch.ret / VALUE_SCALE
    n = len(batch)
    # d(-surrogate)/d logp: -ratio*adv where the unclipped term is the smaller one, else 0.
    active = (ratio * adv) <= (clipped * adv)
    g_logp = np.where(active, -ratio * adv, 0.0) / n
    onehot = np.zeros_like(p)
    onehot[rows, batch.action] = 1.0
    g_logits = g_logp[:, None] * (onehot - p)
    # -entropy_coef * H: dH/dz_j = -p_j (log p_j + H).
    g_logits += cfg.entropy_coef * p * (logp_all + entropy[:, None]) / n
    g_logits = np.where(batch.mask, g_logits, 0.0).astype(np.float32)
    g_value = (cfg.value_coef * 2.0 * (value - target) / n).astype(np.float32)
    grads = backprop(net, batch.x, acts, g_logits, g_value)
    norm = float(np.sqrt(sum(float((g * g).sum()) for g in grads)))
    if norm > cfg.max_grad_norm:
        grads = [g * (cfg.max_grad_norm / norm) for g in grads]
    stats = {
        "policy_loss": float(-surrogate.mean()),
        "value_loss": float(((value - target) ** 2).mean()),
        "entropy": float(entropy.mean()),
    }
    return [g.astype(np.float32) for g in grads], stats


def backprop(net: PolicyValueNet, x: np.ndarray, acts: list[np.ndarray], g_logits: np.ndarray,
             g_value: np.ndarray) -> list[np.ndarray]:
    """Every parameter's gradient, given the loss's gradients at the logits and the values (inputs `x`, hidden
    activations `acts` from `net.hidden(x)`)."""
    P = net.params
    h = acts[-1]
    grads: list[np.ndarray] = [np.empty(0, np.float32)] * len(P)
    grads[-4] = h.T @ g_logits
    grads[-3] = g_logits.sum(axis=0)
    grads[-2] = h.T @ g_value[:, None]
    grads[-1] = np.array([g_value.sum()], np.float32)
    g_h = g_logits @ P[-4].T + g_value[:, None] @ P[-2].T
    for i in reversed(range(net.layers)):
        g_h = g_h * (acts[i] > 0)
        below = acts[i - 1] if i > 0 else net.inputs(x)
        grads[2 * i] = below.T @ g_h
        grads[2 * i + 1] = g_h.sum(axis=0)
        if i > 0:
            g_h = g_h @ P[2 * i].T
    return grads


class Rollout:
    """Steps one vector table with the network, keeping each decision until its hand is scored.

    `_inputs` and `_moves` are the hooks of the lab's experiments (`research/lab`): more inputs than the
    seat's view, other players than the network in some seats."""

    def __init__(self, table: VectorTable, agent_seats: np.ndarray, rng: np.random.Generator, seed: int) -> None:
        self.table = table
        self.rng = rng
        self.agent = agent_seats  # bool [seats]: seats the network plays
        self.obs, info = table.reset(seed=seed)
        self.info = info

    def _inputs(self, net: PolicyValueNet, seats: np.ndarray) -> np.ndarray:
        """The network's inputs at this step (`seats`: the seat to act in each game): the seat's features."""
        return features(self.obs, self.table.seats, self.info["hints"])

    def _moves(self, actions: np.ndarray, x: np.ndarray, mask: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """The actions played at this step, given the network's (`actions`) for every game: the network's."""
        return actions

    def collect(self, net: PolicyValueNet, steps: int) -> Batch:
        """At least `steps` steps, then on until every game's current hand is scored."""
        t_x, t_mask, t_a, t_logp, t_v, t_seat, t_over, t_rew = [], [], [], [], [], [], [], []
        start_hand = None
        t = 0
        while True:
            seats = self.info["seat"]
            mask = self.info["action_mask"].astype(bool)
            x = self._inputs(net, seats)
            logits, value = net.forward(x)
            logp_all = masked_log_softmax(logits, mask)
            p = np.where(mask, np.exp(logp_all), 0.0)
            u = self.rng.random(len(p))[:, None] * p.sum(axis=1, keepdims=True)
            a = np.minimum((p.cumsum(axis=1) < u).sum(axis=1), p.shape[1] - 1)
            a = np.where(mask[np.arange(len(a)), a], a, np.where(mask, logits, -np.inf).argmax(axis=1))
            a = self._moves(a, x, mask, seats)
            logp = logp_all[np.arange(len(a)), a]
            self.obs, rewards, _, _, self.info = self.table.step(a)
            over = self.info["hand_over"]
            t_x.append(x)
            t_mask.append(mask)
            t_a.append(a)
            t_logp.append(logp)
            t_v.append(value)
            t_seat.append(seats)
            t_over.append(over)
            t_rew.append(rewards)
            t += 1
            if t == steps:
                start_hand = np.zeros(len(a), bool)  # games whose hand in progress at `steps` has closed
            if start_hand is not None:
                start_hand |= over
                if start_hand.all():
                    break
        ret = hand_returns(t_seat, t_over, t_rew)
        keep = np.stack([self.agent[s] for s in t_seat])  # decisions of the network's seats
        keep &= _closed(t_over)
        sel = keep.reshape(-1)
        return Batch(
            x=np.concatenate(t_x)[sel], mask=np.concatenate(t_mask)[sel], action=np.concatenate(t_a)[sel],
            logp=np.concatenate(t_logp)[sel].astype(np.float32), value=np.concatenate(t_v)[sel],
            ret=ret.reshape(-1)[sel],
        )


def hand_returns(seat: list[np.ndarray], over: list[np.ndarray], rewards: list[np.ndarray]) -> np.ndarray:
    """Each decision's return, its seat's score for the hand it belongs to ([T, N], scanned from the end),
    from every step's seat to act [N], whether the step ended a hand [N] and the points it gave [N, seats]
    (0 for decisions whose hand has not ended)."""
    steps, games = len(seat), len(seat[0])
    ret = np.zeros((steps, games), np.float32)
    current = np.zeros_like(rewards[0], dtype=np.float32)
    for i in reversed(range(steps)):
        current[over[i]] = rewards[i][over[i]]
        ret[i] = current[np.arange(games), seat[i]]
    return ret


def _closed(over: list[np.ndarray]) -> np.ndarray:
    """[T, N]: whether a hand closed at or after each step (else the decision has no return yet)."""
    out = np.zeros((len(over), len(over[0])), bool)
    seen = np.zeros(len(over[0]), bool)
    for i in reversed(range(len(over))):
        seen |= over[i]
        out[i] = seen
    return out


class Trainer:
    """A training run: the network, its optimiser, the tables, and the count of decisions so far.

    The lab's trainer (`research/lab`) subclasses it through its hooks: `_width`, `_rollouts`, `_rollout`,
    `_update`, `playing_net` and `evaluation`."""

    def __init__(self, cfg: TrainConfig, net: PolicyValueNet | None = None) -> None:
        self.cfg = cfg
        self.rng = np.random.default_rng(cfg.seed)
        self.net = net or PolicyValueNet.initial(self.rng, cfg.hidden, self._width())
        self.net.meta.update({"config": asdict(cfg)})
        self.opt = Adam(self.net.params, cfg.lr)
        self.rollouts: list[Rollout] = self._rollouts()
        self.decisions = 0
        self.updates = 0
        self.seconds = 0.0

    def _width(self) -> int:
        """A new network's inputs: the first version's (the shipped networks', without the hand's recall)."""
        return FEATURES_V1

    def _rollouts(self) -> list[Rollout]:
        """The tables an update plays: self-play, and the network in seat 0 against greedy in every other seat."""
        cfg, seats = self.cfg, self.cfg.seats
        rollouts = []
        if cfg.selfplay_envs:
            table = VectorTable(cfg.selfplay_envs, seats, seed=cfg.seed, hints=True)
            rollouts.append(self._rollout(table, np.ones(seats, bool), cfg.seed))
        if cfg.greedy_envs:
            opponents = {s: "greedy" for s in range(1, seats)}
            table = VectorTable(cfg.greedy_envs, seats, opponents=opponents, seed=cfg.seed + 1, hints=True)
            rollouts.append(self._rollout(table, seat_zero(seats), cfg.seed + 1))
        return rollouts

    def _rollout(self, table: VectorTable, agent: np.ndarray, seed: int) -> Rollout:
        """The rollout of one table, the network at the seats `agent` marks."""
        return Rollout(table, agent, self.rng, seed)

    def playing_net(self) -> PolicyValueNet:
        """The network as it plays (and as it is written)."""
        return self.net

    def evaluation(self, playing: PolicyValueNet, games: int, seed: int) -> dict[str, float]:
        """What a log line says of the network as it plays (`playing_net`): its lead over greedy bots."""
        result = evaluate_vs_greedy(playing, games, seats=self.cfg.seats, seed=seed)
        return {"greedy_lead": result["lead"], "greedy_ci95": result["ci95"]}

    def update(self) -> Progress:
        """One rollout of every table, then `epochs` passes of minibatch PPO over it (numpy's BLAS on one thread)."""
        with threadpool_limits(limits=1, user_api="blas"):
            return self._update()

    def _update(self) -> Progress:
        began = time.perf_counter()
        parts = [r.collect(self.net, self.cfg.steps) for r in self.rollouts]
        batch = Batch(*(np.concatenate([getattr(b, f) for b in parts]) for f in
                        ("x", "mask", "action", "logp", "value", "ret")))
        adv = batch.ret / VALUE_SCALE - batch.value
        adv = ((adv - adv.mean()) / (adv.std() + 1e-8)).astype(np.float32)
        stats: dict[str, float] = {}
        for _ in range(self.cfg.epochs):
            order = self.rng.permutation(len(batch))
            for lo in range(0, len(order), self.cfg.minibatch):
                idx = order[lo : lo + self.cfg.minibatch]
                mb = Batch(*(getattr(batch, f)[idx] for f in ("x", "mask", "action", "logp", "value", "ret")))
                grads, stats = gradients(self.net, mb, adv[idx], self.cfg)
                self.opt.step(grads)
        self.decisions += len(batch)
        self.updates += 1
        self.seconds += time.perf_counter() - began
        self.net.meta.update({"decisions": self.decisions, "updates": self.updates})
        return Progress(self.updates, self.decisions, self.seconds, stats.get("policy_loss", 0.0),
                        stats.get("value_loss", 0.0), stats.get("entropy", 0.0), float(batch.ret.mean()))

    def run(self, *, updates: int | None = None, seconds: float | None = None,
            every: Callable[[Progress], None] | None = None) -> Iterator[Progress]:
        """Update until `updates` updates or `seconds` of training (whichever is given first comes)."""
        while (updates is None or self.updates < updates) and (seconds is None or self.seconds < seconds):
            progress = self.update()
            if every is not None:
                every(progress)
            yield progress


def seat_zero(seats: int) -> np.ndarray:
    """The agent seats of a table where the network plays seat 0 only (bool [seats])."""
    agent = np.zeros(seats, bool)
    agent[0] = True
    return agent


def evaluate_vs_greedy(net: PolicyValueNet, games: int = 2000, *, seats: int = 4, seed: int = 12345,
                       opponent: str | PolicyValueNet = "greedy") -> dict[str, Any]:
    """The network (its most likely legal action) in seat 0 against `opponent` in every other seat: a kernel
    policy ("greedy", "random") or another network (its most likely legal action); its lead per game.

    The lead is its mean total minus the other seats' mean total, in the same
    games, with a 95 % interval over games (fast: batched in the vector environment).
    """
    with threadpool_limits(limits=1, user_api="blas"):
        return _evaluate(net, games, seats, seed, opponent)


def _evaluate(net: PolicyValueNet, games: int, seats: int, seed: int, opponent: str | PolicyValueNet) -> dict[str, Any]:
    rival = opponent if isinstance(opponent, PolicyValueNet) else None
    kernel = None if isinstance(opponent, PolicyValueNet) else {s: opponent for s in range(1, seats)}
    table = VectorTable(games, seats, opponents=kernel, seed=seed, hints=True)
    obs, info = table.reset(seed=seed)
    done = np.zeros(games, bool)
    lead = np.zeros(games)
    while not done.all():
        x = features(obs, seats, info["hints"])
        mask = info["action_mask"].astype(bool)
        a = net.best_actions(x, mask)
        if rival is not None:
            a = np.where(info["seat"] == 0, a, rival.best_actions(x, mask))
        obs, _, terminated, _, info = table.step(a)
        new = terminated & ~done
        if new.any():
            final = info["final_totals"][new].astype(float)
            lead[new] = final[:, 0] - final[:, 1:].mean(axis=1)
            done |= terminated
    mean = float(lead.mean())
    half = float(1.96 * lead.std(ddof=1) / np.sqrt(games))
    return {"games": games, "lead": mean, "ci95": half}
