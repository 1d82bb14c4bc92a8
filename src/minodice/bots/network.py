"""The learned bot's network: features from the shared observation, and a small numpy MLP.

One network plays every seat count: `features` places an S-seat observation
(`minodice.encoding`) into the 6-seat layout (missing seats stay 0), scales
counts to about [0, 1], drops what does not bear on a seat's own points (the
running totals) or differs between how games take bids (who has bid so far,
who bids next: the engine takes bids at once, the training envs in turn),
and appends three derived numbers (tricks still needed, dice left, tricks
left) and GreedyBot's view of every legal action (`greedy_hints`: a bid's
expected hand score, a die's chance to take the trick), so the network
starts from a sound player's estimates and learns what they miss, and last
the hand's recall (each seat's dice rolled this hand, the colours it has
shown it lacks). A network of the first version (`FEATURES_V1` inputs)
reads the features before the recall, as it was trained.

`PolicyValueNet` maps features to action logits (masked to the legal
actions) and the value of the position: the seat's expected points for the
hand, in units of `VALUE_SCALE`. Plain numpy, float32: playing needs no
deep-learning framework (the trainer, `minodice.learn`, adds the gradients).

>>> import numpy as np
>>> net = PolicyValueNet.initial(np.random.default_rng(0), hidden=(8, 8))
>>> x = features(np.zeros((2, 173), np.float32), 4, np.zeros((2, 16), np.float32))
>>> x.shape == (2, FEATURES)
True
>>> logits, value = net.forward(x)
>>> logits.shape, value.shape
((2, 16), (2,))
"""

from __future__ import annotations

import functools
import io
import itertools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from ..codes import quoted
from ..dice import MAX_SEATS, MIN_SEATS, Die
from ..encoding import (
    COUNT_SECTIONS,
    DICE,
    MAX_HANDS,
    NUM_ACTIONS,
    NUM_BIDS,
    OBSERVATION_VERSION,
    encode,
    layout,
    observation_size,
    offsets,
    roll_action,
)
from ..view import View
from .defaults import DEFAULT_HIDDEN, SHIPPED_FAMILIES
from .greedy import bid_values, roll_chances

__all__ = [
    "FEATURES",
    "FEATURES_V1",
    "MAX_NETWORK_BYTES",
    "PRIVILEGED",
    "SHIPPED_FAMILIES",
    "VALUE_SCALE",
    "PolicyRolls",
    "PolicyValueNet",
    "features",
    "greedy_hints",
    "load_network",
    "masked_log_softmax",
    "masked_softmax",
    "privileged",
    "shipped_weights",
    "view_features",
]

#: Points per unit of the value head (hand scores are tens of points).
VALUE_SCALE = 50.0
#: Sections of the observation the network does not see (see the module docstring).
_DROPPED = ("scores",)
_BIDDING_ONLY_DROPPED = ("to_act", "bid_placed")
#: The hand's recall (observation version 2): placed after the hints, so a network of the first
#: version, whose inputs stop before them, reads the same numbers as it was trained on.
_RECALL = ("rolled", "void")
_EXTRA = 3
#: Where the derived numbers start: after the 6-seat observation without the recall sections.
_BASE = sum(size for name, size in layout(MAX_SEATS) if name not in _RECALL)
#: Inputs of a first-version network: the 6-seat observation without the recall, the derived numbers,
#: the greedy hints.
FEATURES_V1 = _BASE + _EXTRA + NUM_ACTIONS
#: Length of the feature vector: the first version's, then the 6-seat recall sections.
FEATURES = FEATURES_V1 + sum(size for name, size in layout(MAX_SEATS) if name in _RECALL)
#: Inputs after FEATURES that only training may fill (oracle guiding, the lab's, `research/lab`): the dice each
#: other seat holds, by relative seat in the 6-seat layout. A network is saved and plays without them.
PRIVILEGED = len(DICE) * (MAX_SEATS - 1)


@functools.cache
def _plan(seats: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, int]]:
    """For `seats`: where each observation entry goes in the 6-seat layout, its scale,
    the target positions zeroed while bidding, and each section's start in the source."""
    src_at = offsets(seats)
    dst_at: dict[str, int] = {}
    o = 0
    for name, size in layout(MAX_SEATS):
        if name not in _RECALL:
            dst_at[name] = o
            o += size
    o = FEATURES_V1
    for name, size in layout(MAX_SEATS):
        if name in _RECALL:
            dst_at[name] = o
            o += size
    where = np.empty(observation_size(seats), np.int64)
    scale = np.ones(observation_size(seats), np.float32)
    bidding_zero: list[int] = []
    sizes6 = dict(layout(MAX_SEATS))
    for name, size in layout(seats):
        # Per-seat sections are blocks by relative seat, so entry i keeps its offset in the section:
        # relative seat r's block lands in slot r of the 6-seat layout; slots beyond `seats` stay 0.
        where[src_at[name] : src_at[name] + size] = np.arange(dst_at[name], dst_at[name] + size)
        if name in COUNT_SECTIONS:
            scale[src_at[name] : src_at[name] + size] = 1.0 / MAX_HANDS
        if name in _DROPPED:
            scale[src_at[name] : src_at[name] + size] = 0.0
        if name in _BIDDING_ONLY_DROPPED:
            bidding_zero.extend(range(dst_at[name], dst_at[name] + sizes6[name]))
    return where, scale, np.array(bidding_zero, np.int64), src_at


def greedy_hints(view: View) -> np.ndarray:
    """GreedyBot's view of each legal action of `view`'s seat, by action id (float32 [NUM_ACTIONS]):
    a bid's expected hand score, a die's chance to take the trick, 0 for the rest. The vector
    environment computes the same in its kernel (`VectorTable(..., hints=True)`; a test holds them equal)."""
    out = np.zeros(NUM_ACTIONS, np.float32)
    if view.legal and isinstance(view.legal[0], Die):
        for d, chance in roll_chances(view).items():
            out[NUM_BIDS + d.index] = chance
    elif view.legal:
        for b, value in bid_values(view).items():
            out[b] = value
    return out


def features(obs: np.ndarray, seats: int, hints: np.ndarray) -> np.ndarray:
    """The network's input (float32 [B, FEATURES]) from observations [B, observation_size(seats)] and
    the greedy hints [B, NUM_ACTIONS] of the same positions."""
    obs = np.asarray(obs, np.float32)
    hints = np.asarray(hints, np.float32)
    if obs.ndim == 1:
        obs, hints = obs[None, :], hints[None, :]
    if obs.ndim != 2 or obs.shape[1] != observation_size(seats) or hints.shape != (obs.shape[0], NUM_ACTIONS):
        raise ValueError(
            f"features take observations of {observation_size(seats)} numbers for {seats} seats (observation "
            f"version {OBSERVATION_VERSION}) and {NUM_ACTIONS} hints each, not shapes {obs.shape} and {hints.shape}"
        )
    where, scale, bidding_zero, src = _plan(seats)
    out = np.zeros((obs.shape[0], FEATURES), np.float32)
    out[:, where] = obs * scale
    bidding = obs[:, src["phase"]] > 0
    if bidding.any():
        rows = np.flatnonzero(bidding)
        out[np.ix_(rows, bidding_zero)] = 0.0
    hand = obs[:, src["hand"] : src["hand"] + MAX_HANDS].argmax(axis=1) + 1
    own_bid = obs[:, src["bids"]]
    known = obs[:, src["bid_known"]] > 0
    won_all = obs[:, src["won"] : src["won"] + seats]
    base = _BASE
    out[:, base] = np.where(known, own_bid - won_all[:, 0], 0.0) / MAX_HANDS  # tricks still needed
    out[:, base + 2] = (hand - won_all.sum(axis=1)) / MAX_HANDS  # tricks left
    _put_dice_and_hints(out, obs[:, src["dice"] : src["dice"] + 7], seats, hints)
    return out


def privileged(held: np.ndarray) -> np.ndarray:
    """The privileged inputs (oracle guiding) from the dice each other seat holds (`VectorTable.others_dice`,
    uint8 [B, 7 * (seats - 1)]): float32 [B, PRIVILEGED], each relative seat's slot of the 6-seat layout,
    scaled as the observation's counts."""
    out = np.zeros((len(held), PRIVILEGED), np.float32)
    out[:, : held.shape[1]] = held / MAX_HANDS
    return out


def _put_dice_and_hints(out: np.ndarray, dice: np.ndarray, seats: int, hints: np.ndarray) -> None:
    """Write the columns of `out` that depend on the seat's own dice: the dice (counts [B, 7], float32),
    how many are left, and the greedy hints [B, NUM_ACTIONS]."""
    where, scale, _, src = _plan(seats)
    at = slice(src["dice"], src["dice"] + 7)
    out[:, where[at]] = dice * scale[at]
    base = _BASE
    out[:, base + 1] = dice.sum(axis=1) / MAX_HANDS  # dice left
    out[:, base + 3 : base + 3 + NUM_BIDS] = hints[:, :NUM_BIDS] / VALUE_SCALE  # a bid's expected score
    out[:, base + 3 + NUM_BIDS : FEATURES_V1] = hints[:, NUM_BIDS:]  # a die's chance to take the trick


def view_features(view: View) -> np.ndarray:
    """The network's input [1, FEATURES] for one seat's view, as the engine shows it (bids taken at once):
    what `neural` plays from and what expert iteration trains on."""
    return features(encode(view, sequential_bids=False), view.seats, greedy_hints(view))


def masked_log_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Row-wise log-probabilities of the actions `mask` allows (0 elsewhere), exact even where a
    probability underflows to 0 (so no log(0) reaches a gradient)."""
    z = np.where(mask, logits, -np.inf)
    top = z.max(axis=1, keepdims=True)
    lse = top + np.log(np.exp(z - top).sum(axis=1, keepdims=True))
    return np.where(mask, logits - lse, 0.0)


def masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Row-wise softmax of `logits` over the actions `mask` allows (0 elsewhere)."""
    return np.where(mask, np.exp(masked_log_softmax(logits, mask)), 0.0)


@dataclass
class PolicyValueNet:
    """A multilayer perceptron (ReLU) with a policy head (NUM_ACTIONS logits) and a value head.

    `params` holds the weights in order: per hidden layer W, b; then the policy
    head's W, b; then the value head's W, b. `meta` says how it was trained.
    """

    params: list[np.ndarray]
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def initial(cls, rng: np.random.Generator, hidden: Sequence[int] = DEFAULT_HIDDEN,
                inputs: int = FEATURES) -> PolicyValueNet:
        """Fresh weights (He-scaled hidden layers, small heads so the first policy is near uniform);
        `inputs`: FEATURES, or FEATURES_V1 for a network that does not see the hand's recall, or
        FEATURES + PRIVILEGED for one trained by oracle guiding (`honest` drops those inputs)."""
        if inputs not in (FEATURES_V1, FEATURES, FEATURES + PRIVILEGED):
            raise ValueError(f"a network reads {FEATURES} inputs (or {FEATURES_V1}, the first version), not {inputs}")
        sizes = [inputs, *hidden]
        params: list[np.ndarray] = []
        for a, b in itertools.pairwise(sizes):
            params += [(rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32), np.zeros(b, np.float32)]
        last = sizes[-1]
        params += [(rng.standard_normal((last, NUM_ACTIONS)) * 0.01).astype(np.float32),
                   np.zeros(NUM_ACTIONS, np.float32)]
        params += [(rng.standard_normal((last, 1)) * 0.01).astype(np.float32), np.zeros(1, np.float32)]
        return cls(params, {"hidden": list(hidden)})

    def copy(self) -> PolicyValueNet:
        """An independent copy (its own arrays and meta), to train without touching the original."""
        return PolicyValueNet([p.copy() for p in self.params], dict(self.meta))

    @property
    def layers(self) -> int:
        """Number of hidden layers."""
        return (len(self.params) - 4) // 2

    @property
    def width(self) -> int:
        """How many input columns the network reads: FEATURES_V1, FEATURES, or FEATURES + PRIVILEGED."""
        return int(self.params[0].shape[0])

    @property
    def recall(self) -> bool:
        """Whether the network sees the hand's recall (`rolled`, `void`: FEATURES inputs), or is of the
        first version (FEATURES_V1 inputs, the features before them)."""
        return self.width >= FEATURES

    def inputs(self, x: np.ndarray) -> np.ndarray:
        """The columns of features `x` [B, FEATURES or more] this network reads (its first `width`)."""
        return x if x.shape[1] == self.width else x[:, : self.width]

    def honest(self) -> PolicyValueNet:
        """The network without its privileged inputs (a copy): what it plays when they are 0, as at play."""
        out = self.copy()
        out.params[0] = out.params[0][:FEATURES].copy()
        return out

    def hidden(self, x: np.ndarray) -> list[np.ndarray]:
        """The activations of every hidden layer for features `x` (kept for the gradients)."""
        acts = []
        h = self.inputs(x)
        for i in range(self.layers):
            h = np.maximum(h @ self.params[2 * i] + self.params[2 * i + 1], 0.0)
            acts.append(h)
        return acts

    def heads(self, h: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Logits [B, NUM_ACTIONS] and values [B] from the last hidden layer."""
        p = self.params
        return h @ p[-4] + p[-3], (h @ p[-2] + p[-1])[:, 0]

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Logits and values for features `x` [B, FEATURES]."""
        return self.heads(self.hidden(x)[-1])

    def best_actions(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The most likely legal action of each row."""
        logits, _ = self.forward(x)
        return np.where(mask, logits, -np.inf).argmax(axis=1)

    def to_bytes(self) -> bytes:
        """The weights and `meta` as an .npz file's bytes."""
        buf = io.BytesIO()
        arrays = {f"p{i}": a for i, a in enumerate(self.params)}
        save: Any = np.savez_compressed  # its stub types **arrays like its bool keyword allow_pickle
        save(buf, meta=np.array(json.dumps(self.meta)), **arrays)
        return buf.getvalue()

    def save(self, path: Path) -> None:
        """Write the weights to `path` (.npz)."""
        Path(path).write_bytes(self.to_bytes())

    @classmethod
    def from_bytes(cls, data: bytes) -> PolicyValueNet:
        """Weights saved by `to_bytes` (ValueError if they are not a network of this shape)."""
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as z:
                meta = json.loads(str(z["meta"]))
                params = [z[f"p{i}"].astype(np.float32) for i in range(len(z.files) - 1)]
        except (OSError, EOFError, ValueError, KeyError, json.JSONDecodeError):  # EOFError: an empty file
            raise ValueError("not a minodice network file (expected the .npz that `minodice train` writes)") from None
        if (len(params) < 6 or len(params) % 2 or params[0].shape[0] not in (FEATURES_V1, FEATURES)
                or params[-4].shape[1] != NUM_ACTIONS):
            raise ValueError("not a minodice network of this version (its layer sizes do not fit)")
        return cls(params, meta)

    @classmethod
    def load(cls, path: Path) -> PolicyValueNet:
        """Weights written by `save`."""
        return cls.from_bytes(Path(path).read_bytes())


#: A network file larger than this is refused unread (a shipped one is 0.16 MB).
MAX_NETWORK_BYTES = 64 << 20


#: The file name of each family of shipped networks (`defaults.SHIPPED_FAMILIES`): `self-play` trained by PPO
#: in self-play (`minodice train`), `expert` those after one step of expert iteration on `neural+search`'s
#: games at that size (`minodice train --expert neural+search --seats N`).
_FAMILY_FILES = {"self-play": "neural", "expert": "expert"}


def shipped_weights(seats: int, family: str = SHIPPED_FAMILIES[0]) -> str:
    """The package file (in `minodice/bots/weights/`) of the `family` network shipped for tables of `seats`.

    >>> shipped_weights(4), shipped_weights(6, "expert")
    ('neural-4.npz', 'expert-6.npz')
    """
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValueError(f"no network is shipped for {seats} seats (tables have {MIN_SEATS} to {MAX_SEATS})")
    if family not in _FAMILY_FILES:
        raise ValueError(f"no {quoted(family)} networks are shipped: the families are {', '.join(SHIPPED_FAMILIES)}")
    return f"{_FAMILY_FILES[family]}-{seats}.npz"


@functools.lru_cache(maxsize=16)
def _shipped(seats: int, family: str = SHIPPED_FAMILIES[0]) -> PolicyValueNet:
    data = resources.files(__package__).joinpath("weights", shipped_weights(seats, family)).read_bytes()
    return PolicyValueNet.from_bytes(data)


@functools.lru_cache(maxsize=8)
def _load(path: str) -> PolicyValueNet:
    file = Path(path)
    if file.stat().st_size > MAX_NETWORK_BYTES:
        raise ValueError(f"{quoted(path)} is larger than {MAX_NETWORK_BYTES >> 20} MB: not a network of minodice train")
    return PolicyValueNet.load(file)


def load_network(path: str | Path | None = None, *, seats: int = 4, family: str = SHIPPED_FAMILIES[0]) -> PolicyValueNet:
    """The `family` network shipped for tables of `seats`, or the one in file `path` (ValueError with the
    reason if it cannot be read)."""
    if path is None:
        return _shipped(seats, family)
    try:
        return _load(str(Path(path).expanduser()))
    except FileNotFoundError:
        raise ValueError(f"no network file at {quoted(str(path))}") from None
    except OSError as exc:
        raise ValueError(f"cannot read the network file {quoted(str(path))}: {exc.strerror or exc}") from None


@dataclass(frozen=True, eq=False)
class PolicyRolls:
    """Another seat's rolls as a network's policy would choose them: a roll model for the inference
    (`bots.inference.RollModel`), e.g. a network trained on the moves of the players at the table.

    `path` is the network file (`load_network`); `surprise` is minus the log-probability of a roll.
    """

    path: str
    net: PolicyValueNet = field(repr=False)

    @classmethod
    def from_file(cls, path: str) -> PolicyRolls:
        """The roll model of the network in file `path` (ValueError with the reason if it cannot be read)."""
        return cls(path, load_network(path))

    def at(self, position: View) -> Callable[[tuple[Die, ...], tuple[Die, ...], Die], float]:
        """The model at `position`, a seat's turn to roll with its dice left out: a function of the dice it
        may hold, the legal ones among them and a die, giving minus the log-probability of that roll.

        The position's network input is built once; each holding then only fills in the columns that
        depend on the dice (the same numbers `view_features` gives, a test holds them equal).
        """
        blank = replace(position, dice=(), legal=None)
        prepared = view_features(blank)
        seats = position.seats

        def surprise(dice: tuple[Die, ...], legal: tuple[Die, ...], die: Die) -> float:
            x = prepared.copy()
            counts = np.zeros((1, 7), np.float32)
            for d in dice:
                counts[0, d.index] += 1
            hints = greedy_hints(replace(blank, dice=dice, legal=legal))[None, :]
            _put_dice_and_hints(x, counts, seats, hints)
            mask = np.zeros((1, NUM_ACTIONS), bool)
            for d in legal:
                mask[0, roll_action(d)] = True
            logits, _ = self.net.forward(x)
            return -float(masked_log_softmax(logits, mask)[0, roll_action(die)])

        return surprise

    def surprise(self, view: View, die: Die) -> float:
        """Minus the log-probability that `view`'s seat, holding `view.dice`, rolls `die` of `view.legal`."""
        return self.at(view)(view.dice, view.legal_dice, die)
