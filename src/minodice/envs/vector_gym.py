"""minodice/Solo-v1 as a Gymnasium vector env: N games at the simulator's speed (`minodice[rl]`).

`SoloVectorEnv` is `gymnasium.vector.VectorEnv` over a `VectorTable`: one
learner seat against bots the kernel plays (``"greedy"`` or ``"random"``), so
a batch of N decisions is one compiled call. It is the ``vector_entry_point``
of ``minodice/Solo-v1``:

>>> import gymnasium as gym
>>> import minodice.envs.gymnasium  # registers minodice/Solo-v1
>>> envs = gym.make_vec("minodice/Solo-v1", num_envs=8, vectorization_mode="vector_entry_point")
>>> obs, info = envs.reset(seed=0)
>>> obs.shape, info["action_mask"].shape, envs.single_action_space
((8, 173), (8, 16), Discrete(16))

Rewards are float32 [N]: the learner's points from the hands that ended in
the step (an episode's return is its final total). Episodes end with the game
and restart in the same step (``metadata["autoreset_mode"]`` is
``AutoresetMode.SAME_STEP``): then ``info["final_obs"]`` holds the ended
game's last observation and ``info["final_info"]`` its ``"totals"`` and the
learner's ``"place"`` (1 = first), each with its ``_``-prefixed mask, as
Gymnasium's own vector envs do. ``info["action_mask"]`` flags the legal
actions; an illegal one raises ValueError naming the game and the legal ones.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from ..extras import require

require("rl", "gymnasium")  # a missing library is named with its extra

import numpy as np  # noqa: E402
from gymnasium import spaces  # noqa: E402
from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402
from gymnasium.vector.utils import batch_space  # noqa: E402

from .. import rules as R  # noqa: E402
from ..rules import Rules  # noqa: E402
from . import encoding as E  # noqa: E402
from .table import check_seats  # noqa: E402
from .vector import KERNEL_POLICIES, VectorTable  # noqa: E402

__all__ = ["SoloVectorEnv"]


class SoloVectorEnv(VectorEnv):
    """`num_envs` games: the learner in `seat`, `opponents` (one kernel policy name per other seat).

    `rules` (a `Rules` or mapping) or rule options as keywords, as `SoloEnv`.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}  # noqa: RUF012 - gymnasium's

    def __init__(
        self,
        num_envs: int = 8,
        opponents: Sequence[str] = ("greedy", "greedy", "greedy"),
        *,
        seat: int = 0,
        rules: Rules | Mapping[str, Any] | None = None,
        **rule_options: Any,
    ) -> None:
        if isinstance(opponents, str) or not all(isinstance(o, str) for o in opponents):
            raise ValueError("opponents must be a sequence of names, e.g. ('greedy', 'random')")
        seats = check_seats(len(opponents) + 1)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
            raise ValueError(f"seat must be a seat from 0 to {seats - 1}, not {seat!r}")
        unknown = [o for o in opponents if o not in KERNEL_POLICIES]
        if unknown:
            raise ValueError(
                f"the vector env plays {' and '.join(map(repr, KERNEL_POLICIES))} opponents inside its kernel, "
                f"not {unknown[0]!r}: for other bots use gymnasium.make_vec(..., vectorization_mode='sync')"
            )
        others = [s for s in range(seats) if s != seat]
        self.seat = seat
        self.table = VectorTable(num_envs, seats, dict(zip(others, opponents)), rules, final_obs=True,
                                 **rule_options)
        self.num_envs = num_envs
        low, high = E.observation_bounds(seats)
        self.single_observation_space = spaces.Box(low=low, high=high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(E.NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._mask = np.zeros((num_envs, E.NUM_ACTIONS), dtype=np.bool_)
        self._started = False

    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """New games everywhere: `seed` an int (game g from it and g) or one per game; None at first: random."""
        if seed is None and not self._started:
            seed = secrets.randbits(64)
        super().reset(seed=seed if isinstance(seed, int) else None)
        obs, info = self.table.reset(seed)
        self._started = True
        self._mask = info["action_mask"]
        return obs, {"action_mask": info["action_mask"], "totals": info["totals"]}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action id per game; the bots then play up to the learner's next turn in each."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        obs, rewards, terminated, truncated, info = self.table.step(actions)
        self._mask = info["action_mask"]
        out: dict[str, Any] = {"action_mask": info["action_mask"], "totals": info["totals"],
                               "hand_over": info["hand_over"]}
        if terminated.any():
            out.update(self._final(terminated, info))
        return obs, rewards[:, self.seat].copy(), terminated, truncated, out

    def action_masks(self) -> np.ndarray:
        """The legal actions now, per game (the name sb3-contrib's MaskablePPO looks for)."""
        return self._mask

    def _final(self, terminated: np.ndarray, info: dict[str, Any]) -> dict[str, Any]:
        """The ended games' last observations and infos, in Gymnasium's same-step convention."""
        ended = np.flatnonzero(terminated)
        final_obs = np.full(self.num_envs, None, dtype=object)
        place = np.zeros(self.num_envs, dtype=np.int64)
        for g in ended:
            final_obs[g] = info["final_obs"][g, 0]
            place[g] = R.places(info["final_totals"][g].tolist())[self.seat]
        mask = terminated.copy()
        final_info = {"totals": info["final_totals"], "_totals": mask, "place": place, "_place": mask}
        return {"final_obs": final_obs, "_final_obs": mask, "final_info": final_info, "_final_info": mask}
