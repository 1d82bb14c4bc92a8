"""Expert iteration's supervised step: games of a search bot, and the network trained on its decisions.

PPO (`learn.ppo`) trains the network against itself and greedy bots, so its
value head predicts a hand's score when the rest of the hand is played by
such players. A search that stops at the value head (`neural+search:policy=value`)
wants the score when it is played as at the table it sits at. Here a search
bot (`montecarlo` by default) plays every seat of whole games, or one seat
against other bots (`opponent`: the table it is to play at); each of its
decisions is kept with the seat's features, the legal moves, the move
chosen, the search's estimate of every move it searched, and the score the
seat made in that hand. `fit` then trains the network on them: the policy head towards the
search's choices (cross-entropy) and the value head towards the hand scores
(squared error), as in expert iteration (Anthony et al., 2017) and AlphaZero.
"""

from __future__ import annotations

import multiprocessing
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from ..bots import Bot, make_bot
from ..bots.clairvoyance import show_dice
from ..bots.explain import Explanation
from ..bots.network import FEATURES, VALUE_SCALE, PolicyValueNet, masked_log_softmax, view_features
from ..dice import Die
from ..encoding import NUM_ACTIONS, NUM_BIDS, action_mask
from ..game import Bid, Game, Phase, Roll
from ..view import View
from ..workers import start_worker
from .ppo import Adam, backprop

__all__ = ["ExpertData", "collect", "evaluate", "expert_seat", "fit", "held_out"]

_FIELDS = ("x", "mask", "action", "estimate", "score", "hand", "seat", "game")

#: The type each field of a decisions file holds (as `collect` makes it and `load` reads it).
_TYPES = {"x": np.float32, "mask": np.bool_, "action": np.int64, "estimate": np.float32, "score": np.float32,
          "hand": np.int16, "seat": np.int8, "game": np.int64}


@dataclass
class ExpertData:
    """Decisions of a search bot: features, legal mask, move, the search's estimates (nan: not searched),
    the seat's score for that hand, and which hand, seat and game each came from."""

    x: np.ndarray
    mask: np.ndarray
    action: np.ndarray
    estimate: np.ndarray
    score: np.ndarray
    hand: np.ndarray
    seat: np.ndarray
    game: np.ndarray

    def __len__(self) -> int:
        return len(self.action)

    def save(self, path: str) -> None:
        """Write the decisions to an .npz file."""
        np.savez_compressed(path, **{f: getattr(self, f) for f in _FIELDS})

    @classmethod
    def load(cls, *paths: str) -> ExpertData:
        """The decisions of one or more .npz files written by `save`, joined (ValueError naming a file that
        is not one)."""
        parts = [_read(p) for p in paths]
        return cls(*(np.concatenate([getattr(p, f) for p in parts]) for f in _FIELDS))

    def subset(self, rows: np.ndarray) -> ExpertData:
        """The decisions at `rows` (indices or a boolean mask)."""
        return ExpertData(*(getattr(self, f)[rows] for f in _FIELDS))


def _read(path: str) -> ExpertData:
    """One file of decisions (ValueError saying why it is not one)."""
    what = f"{path} is not a file of decisions (the .npz that `minodice train --expert ... --keep` writes)"
    try:
        with np.load(path, allow_pickle=False) as z:
            data = ExpertData(*(np.asarray(z[f], _TYPES[f]) for f in _FIELDS))
        n = len(data.action)
        shapes_fit = (data.x.shape == (n, FEATURES) and data.mask.shape == data.estimate.shape == (n, NUM_ACTIONS)
                      and all(getattr(data, f).shape == (n,) for f in ("action", "score", "hand", "seat", "game")))
    except FileNotFoundError:
        raise ValueError(f"no decisions file at {path}") from None
    except (OSError, ValueError, KeyError, EOFError, TypeError):
        raise ValueError(what) from None
    if not shapes_fit or ((data.action < 0) | (data.action >= NUM_ACTIONS)).any():
        raise ValueError(what)
    if not data.mask[np.arange(n), data.action].all():
        raise ValueError(f"{path}: a move recorded there is not legal in its position (the file is damaged)")
    return data


def held_out(data: ExpertData, share: int = 10) -> np.ndarray:
    """The decisions of the last 1/`share` of the games (by game seed, at least one game) as a mask: the
    games kept aside to judge the training on."""
    games = np.unique(data.game)
    kept = games[len(games) - max(1, len(games) // share):]
    return np.isin(data.game, kept)


def _estimates(bot: Bot) -> np.ndarray:
    """The search's estimate of every move it searched at its last decision (nan: not searched)."""
    estimate = np.full(NUM_ACTIONS, np.nan, np.float32)
    explanation: Explanation | None = getattr(bot, "last_explanation", None)
    if explanation is not None:
        for stat in explanation.choices:
            estimate[_action(stat.choice)] = stat.mean
    return estimate


def _action(move: int | Die) -> int:
    """The flat action id of a bid or a die kind."""
    return move if isinstance(move, int) else NUM_BIDS + move.index


def _move(game: Game, seat: int, bot: Bot, view: View) -> Bid | Roll:
    """The bot's bid or roll for `seat` in the phase the game is in."""
    return Bid(seat, bot.bid(view)) if game.phase is Phase.BID else Roll(seat, bot.roll(view))


def _decide(game: Game, seat: int, bot: Bot, rows: dict[str, list[Any]]) -> Bid | Roll:
    """The bot's move for `seat`, its decision appended to `rows`."""
    view = game.observe(seat)
    if hasattr(bot, "last_explanation"):
        bot.last_explanation = None
    move = _move(game, seat, bot, view)
    # Forced moves are kept too: they teach the value head (their cross-entropy is 0).
    rows["x"].append(view_features(view)[0])
    rows["mask"].append(action_mask(view).astype(bool))
    rows["action"].append(_action(move.bid if isinstance(move, Bid) else move.die))
    rows["estimate"].append(_estimates(bot))
    rows["hand"].append(len(game.log) - 1)
    rows["seat"].append(seat)
    return move


def expert_seat(seed: int, seats: int) -> int:
    """The seat the search bot takes in the game dealt from `seed` when the others are opponents: each seat in
    turn, so that no seat's place at the table favours the data."""
    return seed % seats


def _play(args: tuple[str, int, int, str | None]) -> dict[str, list[Any]]:
    """One game of `spec` at every seat, or at one seat among `opponent` bots: the search bot's decisions
    (the game's seed names the game)."""
    spec, seats, seed, opponent = args
    game = Game(seats, seed=seed)
    mine = set(range(seats)) if opponent is None else {expert_seat(seed, seats)}
    bots = [make_bot(spec if s in mine else str(opponent), seed=f"{seed}-{s}") for s in range(seats)]
    show_dice(bots, game)  # only a clairvoyant teacher (oracle) is shown them
    for s, bot in enumerate(bots):
        bot.start_game(game.setup_view(s))
    rows: dict[str, list[Any]] = {f: [] for f in _FIELDS}
    while not game.over:
        pending = game.to_act() if game.phase is Phase.BID else [game.turn]
        for seat in pending:
            if seat in mine:
                game.apply(_decide(game, seat, bots[seat], rows))
            else:
                game.apply(_move(game, seat, bots[seat], game.observe(seat)))
    rows["game"] = [seed] * len(rows["action"])
    rows["score"] = [_hand_score(game, h, s) for h, s in zip(rows["hand"], rows["seat"])]
    return rows


def _hand_score(game: Game, hand: int, seat: int) -> int:
    scores = game.log[hand].scores
    assert scores is not None, "every hand of a finished game is scored"
    return scores[seat]


def collect(spec: str = "montecarlo", games: int = 10, *, seats: int = 4, seed: int = 0, jobs: int = 1,
            opponent: str | None = None) -> ExpertData:
    """The decisions of `games` games with `spec` at every seat (game i dealt from seed `seed + i`); with an
    `opponent` bot spec, `spec` plays one seat (`expert_seat`) against it in every other, and only its own
    decisions are kept: the positions and hand scores of the table it is to play at."""
    work = [(spec, seats, seed + i, opponent) for i in range(games)]
    if jobs > 1:
        with multiprocessing.get_context("spawn").Pool(jobs, initializer=start_worker) as pool:
            results = pool.map(_play, work, chunksize=1)
    else:
        results = [_play(w) for w in work]
    joined = {f: [v for r in results for v in r[f]] for f in _FIELDS}
    return ExpertData(*(np.asarray(joined[f], _TYPES[f]) for f in _FIELDS))


def _gradients(net: PolicyValueNet, x: np.ndarray, mask: np.ndarray, action: np.ndarray, target: np.ndarray,
               policy_coef: float, value_coef: float) -> tuple[list[np.ndarray], dict[str, float]]:
    """Gradients of policy_coef * cross-entropy(search's move) + value_coef * squared error(hand score)."""
    acts = net.hidden(x)
    logits, value = net.heads(acts[-1])
    logp_all = masked_log_softmax(logits, mask)
    p = np.where(mask, np.exp(logp_all), 0.0)
    n = len(action)
    rows = np.arange(n)
    onehot = np.zeros_like(p)
    onehot[rows, action] = 1.0
    g_logits = np.where(mask, policy_coef * (p - onehot) / n, 0.0).astype(np.float32)
    g_value = (value_coef * 2.0 * (value - target) / n).astype(np.float32)
    grads = backprop(net, x, acts, g_logits, g_value)
    stats = {"policy_loss": float(-logp_all[rows, action].mean()),
             "value_loss": float(((value - target) ** 2).mean()),
             "agree": float((np.where(mask, logits, -np.inf).argmax(axis=1) == action).mean())}
    return [g.astype(np.float32) for g in grads], stats


def evaluate(net: PolicyValueNet, data: ExpertData) -> dict[str, float]:
    """How often the network's likeliest move is the search's, its cross-entropy, and its value's error
    (points, root mean square) on `data`."""
    logits, value = net.forward(data.x)
    logp = masked_log_softmax(logits, data.mask)
    rows = np.arange(len(data))
    return {"agree": float((np.where(data.mask, logits, -np.inf).argmax(axis=1) == data.action).mean()),
            "policy_loss": float(-logp[rows, data.action].mean()),
            "value_rmse": float(np.sqrt(((value * VALUE_SCALE - data.score) ** 2).mean()))}


def fit(net: PolicyValueNet, data: ExpertData, *, epochs: int = 4, lr: float = 1e-4, minibatch: int = 512,
        policy_coef: float = 1.0, value_coef: float = 1.0, seed: int = 0) -> list[dict[str, float]]:
    """Train `net` in place on `data` (numpy's BLAS on one thread); the training losses per epoch."""
    if not len(data):
        raise ValueError("no decisions to train on")
    rng = np.random.default_rng(seed)
    opt = Adam(net.params, lr)
    target = (data.score / VALUE_SCALE).astype(np.float32)
    history = []
    with threadpool_limits(limits=1, user_api="blas"):
        for epoch in range(epochs):
            began = time.perf_counter()
            order = rng.permutation(len(data))
            seen: list[dict[str, float]] = []
            for lo in range(0, len(order), minibatch):
                idx = order[lo:lo + minibatch]
                grads, stats = _gradients(net, data.x[idx], data.mask[idx], data.action[idx], target[idx],
                                          policy_coef, value_coef)
                opt.step(grads)
                seen.append(stats)
            history.append({"epoch": epoch + 1, "seconds": time.perf_counter() - began,
                            **{k: float(np.mean([s[k] for s in seen])) for k in seen[0]}})
    return history
