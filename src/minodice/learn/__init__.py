"""Training the learned bot (`neural`): self-play PPO in the vector environment, checkpoints, a learning log.

`minodice train` is the command; `Trainer` (`learn.ppo`) the loop; `train`
(`learn.run`) a whole run with its checkpoints and log. Playing the result
needs only numpy (`minodice.bots.neural`).
"""

from __future__ import annotations

from .ppo import TrainConfig, Trainer, evaluate_vs_greedy
from .run import train

__all__ = ["TrainConfig", "Trainer", "evaluate_vs_greedy", "train"]
