"""Environments for researchers: PettingZoo, OpenSpiel and Gymnasium (`pip install minodice[rl]`).

- `minodice.envs.pettingzoo`: `env()`, `raw_env` (AEC; agents ``player_0`` …).
- `minodice.envs.gymnasium`: ``gymnasium.make("minodice/Solo-v1")`` (you against bots).
- `minodice.envs.openspiel`: importing it registers ``python_mino_dice`` with pyspiel.
- `minodice.envs.vector`: `VectorTable`, N games stepped at once in compiled code (numpy
  observations, masks, rewards; ``minodice[fast]`` for the speed); `minodice.envs.vector_gym`:
  ``gymnasium.make_vec("minodice/Solo-v1", vectorization_mode="vector_entry_point")``.
- `minodice.envs.encoding`: the observation vector and flat action ids they all share.

Each interface is imported on demand, so having only some of the packages is fine.
"""

from __future__ import annotations

from .encoding import NUM_ACTIONS, encode, observation_size

__all__ = ["NUM_ACTIONS", "encode", "observation_size"]
