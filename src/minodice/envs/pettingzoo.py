"""Mino Dice as a PettingZoo AEC environment (`minodice[rl]`).

>>> from minodice.envs.pettingzoo import env
>>> e = env(seats=3, scoring="landlubber")
>>> e.reset(seed=1)
>>> e.agent_selection
'player_0'

Agents are ``player_0`` … ``player_{seats-1}`` (seat numbers). Each observation
is ``{"observation": float32 vector, "action_mask": int8 vector}`` laid out as
in `minodice.envs.encoding` (the observing seat first); actions are the flat
ids of that module: ``0..8`` bid, ``9..15`` roll a die kind. Bids are turns in
seat order from the hand's start player; a bid stays hidden from the others
until all are in, so the turns carry the same information as the rulebook's
simultaneous bids. Rewards are the points each seat scores in a hand, given to
every agent when the hand is scored (so an episode's returns are the final
totals). An illegal action raises ValueError naming the legal ones.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from ..extras import require

require("rl", "pettingzoo", "gymnasium")  # a missing library is named with its extra

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..rules import Rules
from . import encoding as E
from .table import Table, check_seats, make_rules

__all__ = ["env", "raw_env"]


def env(**kwargs: Any) -> AECEnv:
    """The environment wrapped in PettingZoo's order-enforcing wrapper (the usual entry point).

    Keyword arguments are those of `raw_env`.
    """
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


class raw_env(AECEnv, EzPickle):  # lower case: PettingZoo's naming convention
    """The unwrapped AEC environment.

    `seats`: 3 to 6 players. `rules`: a `Rules` or a mapping of rule options;
    rule options may also be given as keywords (``scoring="landlubber"``,
    ``all_specials``, ``all_flags``, ``hand_start``). `render_mode`: None or
    ``"ansi"`` (`render()` returns the table as a spectator sees it).
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "minodice_v1", "is_parallelizable": False}

    def __init__(
        self,
        seats: int = 4,
        *,
        rules: Rules | Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        **rule_options: Any,
    ) -> None:
        EzPickle.__init__(self, seats, rules=rules, render_mode=render_mode, **rule_options)
        super().__init__()
        self.seats = check_seats(seats)
        self.rules = make_rules(rules, **rule_options)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(self.seats)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        low, high = E.observation_bounds(self.seats)
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low=low, high=high, dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(E.NUM_ACTIONS,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(E.NUM_ACTIONS) for a in self.possible_agents}
        self._rng = random.Random()
        self.table: Table | None = None

    # --- PettingZoo API -----------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space:
        """The observation space of `agent` (the same for every agent)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """The flat action space (`encoding.NUM_ACTIONS` ids)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; `seed` makes it (and every later reset) reproducible."""
        if seed is not None:
            self._rng.seed(seed)
        self.table = Table(self.seats, self.rules, seed=self._rng.getrandbits(64))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._agent(self.table.actor())

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """`agent`'s observation: its own knowledge only, and its action mask."""
        seat = self._seat(agent)
        table = self._table()
        return {"observation": table.observation(seat), "action_mask": table.mask(seat)}

    def step(self, action: int | None) -> None:
        """The selected agent takes `action` (None for an agent already terminated)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self._table()
        seat = self.agent_name_mapping[agent]
        scores = table.step(seat, action)  # ValueError naming the legal actions if illegal
        self._cumulative_rewards[agent] = 0
        self._clear_rewards()
        if scores is not None:
            for s, points in enumerate(scores):
                self.rewards[self.possible_agents[s]] = points
        if table.over:
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = agent
        else:
            self.agent_selection = self._agent(table.actor())
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``); None without a render mode."""
        if self.render_mode is None:
            return None
        return self._table().render()

    def close(self) -> None:
        """Nothing to release (no windows, no processes)."""

    # --- helpers ------------------------------------------------------------------------

    def _table(self) -> Table:
        if self.table is None:
            raise RuntimeError("call reset() before using the environment")
        return self.table

    def _seat(self, agent: str) -> int:
        try:
            return self.agent_name_mapping[agent]
        except KeyError:
            raise ValueError(
                f"unknown agent {agent!r}: the agents are {', '.join(self.possible_agents)}"
            ) from None

    def _agent(self, seat: int | None) -> str:
        return self.possible_agents[seat if seat is not None else 0]
