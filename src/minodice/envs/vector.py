"""Self-play at the simulator's speed: N games stepped at once in compiled code (`VectorTable`).

One `step` applies one action per game for the seat to act there, lets the
seats played inside the kernel (`"greedy"`, `"random"`) act up to the next
decision of a caller's seat, and hands back numpy arrays: observations laid
out exactly as `encoding.encode` (with ``sequential_bids=True``), legal-action
masks over the flat 16 action ids (bids 0..8, rolls 9..15), each seat's points
from the hands that ended, and flags. A game that ends starts again in the
same step (same-step autoreset): the observation then shows the new game's
first decision, and ``info["final_totals"]`` the ended game's totals. Bids are
taken one seat at a time from the hand's start player, as in the other
environments; a bid stays hidden from the other seats until all are in.

>>> vt = VectorTable(num_envs=4, seats=3, seed=7)
>>> obs, info = vt.reset()
>>> obs.shape, info["action_mask"].shape, info["seat"].tolist()
((4, 137), (4, 16), [0, 0, 0, 0])
>>> obs, rewards, terminated, truncated, info = vt.step(np.zeros(4, dtype=np.int64))  # everyone bids 0
>>> info["seat"].tolist(), rewards.shape
([1, 1, 1, 1], (4, 3))
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..dice import hands_for
from ..preparing import preparing
from ..rules import Rules
from ..sim import kernel as K
from ..sim import vector as V
from ..sim.playout import strength_array
from . import encoding as E
from .table import check_seats, make_rules

__all__ = ["KERNEL_POLICIES", "VectorTable", "warmup"]

#: What a first run says while it compiles the vector kernels (`minodice.preparing`), about how long (seconds).
_PREPARING = ("the vector tables", 15)
#: The die strengths of a table without greedy seats or hints (unused): read-only, as `strength_array`'s are,
#: so that the kernels compiled for one serve both (numba compiles read-only arrays apart).
_NO_STRENGTH = np.zeros(7)
_NO_STRENGTH.flags.writeable = False
#: The seat policies the kernel plays (the names `opponents` may use).
KERNEL_POLICIES: tuple[str, ...] = tuple(K.POLICIES)
_M64 = (1 << 64) - 1


def _policies(seats: int, opponents: Mapping[int, str] | None) -> np.ndarray:
    """int64[seats]: `sim.vector.AGENT` for the caller's seats, else the kernel policy code."""
    pol = np.full(seats, V.AGENT, dtype=np.int64)
    if opponents is None:
        return pol
    if not isinstance(opponents, Mapping):
        raise ValueError("opponents must be None (self-play) or a mapping {seat: 'greedy' | 'random'}")
    for seat, name in opponents.items():
        if not isinstance(seat, (int, np.integer)) or isinstance(seat, bool) or not 0 <= seat < seats:
            raise ValueError(f"opponent seat {seat!r} is not a seat from 0 to {seats - 1}")
        if name not in K.POLICIES:
            raise ValueError(
                f"unknown opponent {name!r} for seat {seat}: the vector table plays "
                f"{' or '.join(repr(p) for p in KERNEL_POLICIES)} inside its kernel "
                "(other bots: minodice.envs.gymnasium.SoloEnv or the PettingZoo env)"
            )
        pol[seat] = K.POLICIES[name]
    if (pol != V.AGENT).all():
        raise ValueError("every seat is an opponent: leave at least one seat to the caller")
    return pol


def _bits(flags: np.ndarray) -> int:
    """The set of seats where `flags` is true, as bits (bit s: seat s)."""
    return sum(1 << int(s) for s in np.flatnonzero(flags))


class VectorTable:
    """`num_envs` games of `seats` seats, stepped together; the caller acts for the agent seats.

    `opponents`: None (self-play: the caller acts for every seat) or
    ``{seat: "greedy" | "random"}``, seats played inside the kernel.
    `rules`: a `Rules` or a mapping, or rule options as keywords. `seed`: the
    games' seed (game g's generator is seeded from it and g, so a game does not
    depend on `num_envs`). `uniforms` (float64 [num_envs, L]): draw game g's
    random numbers from row g instead, in the order `sim.vector` documents (the
    hook the equality tests replay through the engine). `final_obs`: also give
    ``info["final_obs"]`` float32 [num_envs, agent seats, size], each agent
    seat's game-over observation in the games that ended (zeros elsewhere).
    `hints`: also give ``info["hints"]`` float32 [num_envs, 16], GreedyBot's
    view of each legal action of the seat to act (a bid's expected hand score,
    a die's chance to take the trick; 0 for the others): the learned bot's
    extra input, equal to `bots.network.greedy_hints` of the engine's view.
    """

    def __init__(
        self,
        num_envs: int = 1024,
        seats: int = 4,
        opponents: Mapping[int, str] | None = None,
        rules: Rules | Mapping[str, Any] | None = None,
        seed: int = 0,
        *,
        uniforms: np.ndarray | None = None,
        final_obs: bool = False,
        hints: bool = False,
        **rule_options: Any,
    ) -> None:
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number >= 1, not {num_envs!r}")
        self.num_envs: int = num_envs
        self.seats: int = check_seats(seats)
        self.rules: Rules = make_rules(rules, **rule_options)
        codes = _policies(self.seats, opponents)
        #: The seats played inside the kernel, and by which policy.
        self.opponents: dict[int, str] = {int(s): n for s, n in sorted((opponents or {}).items())}
        #: The seats whose decisions come back to the caller.
        self.agent_seats: tuple[int, ...] = tuple(int(s) for s in np.flatnonzero(codes == V.AGENT))
        self.observation_size: int = E.observation_size(self.seats)
        self.seed = seed
        self._hands = hands_for(self.seats)
        # The settings go to the kernels as tuples (no reference counting): the rules, the
        # observation's layout, and the seats as two bit sets (agents, greedy seats).
        self._rules = tuple(int(x) for x in K.encode_rules(self.rules))
        self._layout = V.section_offsets(self.seats)
        self._pol = (_bits(codes == V.AGENT), _bits(codes == K.GREEDY))
        self._hints = hints
        self._strength = strength_array(self.seats, self.rules) if self._pol[1] or hints else _NO_STRENGTH
        self._final_seats = np.array(self.agent_seats if final_obs else (), dtype=np.int64)
        #: Each game's state, one row a game (fields: `sim.vector`): the host's knowledge (every
        #: seat's dice), not a seat's; read it, do not write it.
        self.state = np.zeros((num_envs, V.STATE_SIZE), dtype=np.int64)
        self._rng = np.zeros((num_envs, 4), dtype=np.uint64)
        self._stream = _stream(uniforms, num_envs)
        self._started = False

    def reset(self, seed: int | Sequence[int] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a new game everywhere; returns (obs, info) of each game's first decision.

        `seed`: an int (game g seeded from it and g), one int per game (game g
        seeded as game 0 of that seed), or None: the constructor's seed on the
        first reset, later each game's generator goes on.
        """
        if seed is None and not self._started:
            seed = self.seed
        seeds, spread = self._seed_words(seed)
        obs, mask, actor = self._outputs()
        with preparing(*_PREPARING):
            V.reset_kernel(self.state, self._rng, self._stream, seeds, spread, self.seats, self._hands,
                           self._pol, self._rules, self._strength, self._layout, obs, mask, actor)
        self._started = True
        self._check_stream()
        return obs, self._with_hints(self._info(actor, mask), actor)

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Apply one action id per game; returns (obs, rewards, terminated, truncated, info).

        An illegal action raises ValueError naming the game, the action and the
        legal ones, and changes no game.
        """
        if not self._started:
            raise RuntimeError("call reset() before step()")
        acts = self._actions(actions)
        n, s = self.num_envs, self.seats
        obs, mask, actor = self._outputs()
        rewards = np.empty((n, s), dtype=np.float32)
        terminated = np.empty(n, dtype=np.bool_)
        hand_over = np.empty(n, dtype=np.bool_)
        final_totals = np.empty((n, s), dtype=np.int64)
        final_obs = self._final_obs_buffer()
        with preparing(*_PREPARING):
            bad = V.step_kernel(self.state, self._rng, self._stream, acts, s, self._hands, self._pol, self._rules,
                                self._strength, self._layout, self._final_seats, obs, mask, actor, rewards,
                                terminated, hand_over, final_totals, final_obs)
        if bad >= 0:
            raise self._illegal(int(bad), actions)
        self._check_stream()
        info = self._with_hints(self._info(actor, mask), actor)
        info["hand_over"] = hand_over
        info["final_totals"] = final_totals
        if final_obs.shape[0]:
            info["final_obs"] = final_obs.reshape(n, self._final_seats.size, self.observation_size)
        return obs, rewards, terminated, np.zeros(n, dtype=np.bool_), info

    def others_dice(self, seat: np.ndarray) -> np.ndarray:
        """The dice every other seat holds in each game g, by seat after `seat[g]` (uint8 [num_envs, 7 *
        (seats - 1)], counts per kind): the host's knowledge, which no observation shows. For privileged
        learning (a critic or a teacher that sees the deal), never for an agent's inputs at play."""
        seat = np.asarray(seat, dtype=np.int64)
        if seat.shape != (self.num_envs,) or ((seat < 0) | (seat >= self.seats)).any():
            raise ValueError(f"seat must give one seat 0..{self.seats - 1} per game ({self.num_envs})")
        kinds = len(E.DICE)
        rows = np.arange(self.num_envs)[:, None]
        blocks = [self.state[rows, K.H_COUNTS + kinds * ((seat + r) % self.seats)[:, None] + np.arange(kinds)]
                  for r in range(1, self.seats)]
        return np.concatenate(blocks, axis=1).astype(np.uint8)

    def observation(self, g: int, seat: int) -> np.ndarray:
        """`seat`'s observation of game `g` as it stands (any seat, not only the one to act)."""
        if not 0 <= g < self.num_envs or not 0 <= seat < self.seats:
            raise ValueError(f"no game {g} or seat {seat}: {self.num_envs} games of {self.seats} seats")
        out = np.zeros((1, self.observation_size), dtype=np.float32)
        V.encode_into(self.state, g, seat, self.seats, self._hands, self._layout, out, 0)
        return out[0]

    # --- helpers ------------------------------------------------------------------------

    def _with_hints(self, info: dict[str, Any], actor: np.ndarray) -> dict[str, Any]:
        """`info`, with ``"hints"`` if the table was made with `hints` (see the class docstring)."""
        if self._hints:
            out = np.empty((self.num_envs, E.NUM_ACTIONS), dtype=np.float32)
            V.hints_kernel(self.state, actor, self.seats, self._rules, self._strength, E.NUM_BIDS, out)
            info["hints"] = out
        return info

    def _check_stream(self) -> None:
        """With explicit `uniforms`: refuse to go on once a game has drawn past its row."""
        if self._stream.size:
            part = self._stream.size // self.num_envs
            used = self.state[:, V.V_POS] - part * np.arange(self.num_envs)
            if (used > part).any():
                g = int(np.argmax(used > part))
                raise RuntimeError(f"game {g} drew more than its {part} uniforms: give longer rows")

    def _outputs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        n = self.num_envs
        return (np.empty((n, self.observation_size), dtype=np.float32), np.empty((n, E.NUM_ACTIONS), dtype=np.bool_),
                np.empty(n, dtype=np.int64))

    def _final_obs_buffer(self) -> np.ndarray:
        """float32 [games * agent seats, size] zeros for the game-over observations (or none)."""
        rows = self.num_envs * self._final_seats.size
        return np.zeros((rows, self.observation_size if rows else 0), dtype=np.float32)

    def _info(self, actor: np.ndarray, mask: np.ndarray) -> dict[str, Any]:
        totals = self.state[:, V.V_TOTALS : V.V_TOTALS + self.seats].copy()
        return {"seat": actor, "action_mask": mask, "totals": totals}

    def _seed_words(self, seed: int | Sequence[int] | None) -> tuple[np.ndarray, bool]:
        """The uint64 seed of each game for `sim.vector.reset_kernel`, and whether game g mixes in g."""
        if seed is None:
            return np.zeros(0, dtype=np.uint64), False
        if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            return np.full(self.num_envs, int(seed) & _M64, dtype=np.uint64), True
        items = list(seed) if isinstance(seed, (Sequence, np.ndarray)) else []
        words = [int(x) & _M64 for x in items if isinstance(x, (int, np.integer)) and not isinstance(x, bool)]
        if not items or len(words) != len(items) or len(words) != self.num_envs:
            raise ValueError(f"seed must be an int, None, or {self.num_envs} ints (one per game), not {seed!r}")
        return np.array(words, dtype=np.uint64), False

    def _actions(self, actions: Any) -> np.ndarray:
        arr = np.asarray(actions)
        if arr.shape != (self.num_envs,) or arr.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be {self.num_envs} whole numbers (one action id per game), "
                f"not an array of shape {arr.shape} and dtype {arr.dtype}"
            )
        if arr.dtype.kind == "u" and arr.size and int(arr.max()) >= E.NUM_ACTIONS:
            arr = np.minimum(arr, E.NUM_ACTIONS)  # an id this large is illegal anyway; keep it from wrapping
        return np.ascontiguousarray(arr, dtype=np.int64)

    def _illegal(self, g: int, actions: Any) -> ValueError:
        """The error for game `g`'s illegal action (its legal ones from the unchanged state)."""
        seat, bidding = V.actor_of(self.state, g, self.seats)
        mask = np.zeros((1, E.NUM_ACTIONS), dtype=np.bool_)
        V.mask_into(self.state, g, seat, bidding, E.NUM_BIDS, mask, 0)
        action = np.asarray(actions)[g].item()
        names = ", ".join(f"{a} ({E.describe_action(a)})" for a in np.flatnonzero(mask[0]).tolist())
        return ValueError(f"game {g}: illegal action {action!r} for player_{seat}: legal actions are {names}")


def warmup() -> float:
    """Compile (or load from numba's on-disk cache) the vector kernels now; returns the seconds it took."""
    start = time.perf_counter()
    vt = VectorTable(2, 3, {1: "greedy", 2: "random"}, final_obs=True, hints=True)
    _, info = vt.reset()
    vt.step(np.argmax(info["action_mask"], axis=1))
    return time.perf_counter() - start


def _stream(uniforms: np.ndarray | None, games: int) -> np.ndarray:
    """float64 [games * L]: the games' explicit uniforms, row after row (empty: the generators)."""
    if uniforms is None:
        return np.zeros(0, dtype=np.float64)
    arr = np.ascontiguousarray(uniforms, dtype=np.float64)
    if arr.ndim != 2 or arr.shape[0] != games or arr.shape[1] == 0:
        raise ValueError(f"uniforms must be a [num_envs={games}, L > 0] array of numbers in [0, 1)")
    if not ((arr >= 0) & (arr < 1)).all():
        raise ValueError("uniforms must lie in [0, 1)")
    return arr.reshape(-1)
