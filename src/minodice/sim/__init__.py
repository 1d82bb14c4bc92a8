"""Fast simulation: the rules re-expressed as numba kernels, batch games, and rollouts for search bots.

- `finish_hand` / `finish_hand_tricks` / `playout_values` (`playout`): play the
  rest of a known hand many times with a rollout policy (for Monte Carlo and
  ISMCTS bots);
- `simulate` (`batch`): many complete games at once (random or greedy seats);
- `encode` / `hand_start_state` / `pack_state` (`playout`): the kernels' state
  array of a hand, from a game or from a fresh deal (the advisor's);
- `vector` (kernels): many games stepped one decision at a time for a caller's seats,
  with the observations of `minodice.envs.encoding` (`minodice.envs.vector` drives it);
- `kernel`: the numba rules (lead colour, legal dice, trick winner, bonuses,
  hand score, the greedy policy, which bids by `analysis.strength.die_strength`);
  `tests/test_sim.py` checks them against the reference engine game by game.

Kernels compile on first use and are cached on disk (`cache=True`); call
`warmup()` to pay the compile time up front.
"""

from __future__ import annotations

from .batch import SimResult, simulate, simulate_from_stream, warmup
from .playout import finish_hand, finish_hand_tricks, playout_values, policy_bid, policy_roll

__all__ = [
    "SimResult",
    "finish_hand",
    "finish_hand_tricks",
    "playout_values",
    "policy_bid",
    "policy_roll",
    "simulate",
    "simulate_from_stream",
    "warmup",
]
