"""Mino Dice as a single-agent Gymnasium environment: you against chosen bots (`minodice[rl]`).

Importing this module registers ``minodice/Solo-v1``:

>>> import gymnasium as gym
>>> import minodice.envs.gymnasium  # registers minodice/Solo-v1
>>> env = gym.make("minodice/Solo-v1", opponents=("greedy", "random"))
>>> obs, info = env.reset(seed=0)
>>> obs.shape, info["action_mask"].shape
((137,), (16,))

The agent plays one seat (`seat`, default 0) against `opponents` (bot specs
for `minodice.bots.make_bot`, one per other seat). Observations and actions
are those of `minodice.envs.encoding`; the legal actions are flagged in
``info["action_mask"]``. The reward of a step is the points the agent scored
in the hands that finished during it (0 in mid-hand), so an episode's return
is its final total; the episode ends with the game. ``info`` also carries
``"totals"`` (every seat's points) and, at the end, ``"place"`` (1 = first).
An illegal action raises ValueError naming the legal ones (or, with
``illegal="terminate"``, ends the episode with a penalty).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..extras import require

require("rl", "gymnasium")  # a missing library is named with its extra

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from .. import rules as R
from ..bots import Bot, make_bot
from ..rules import Rules
from . import encoding as E
from .table import Table, check_seats, make_rules

__all__ = ["ENV_ID", "SoloEnv"]

#: The id this module registers with Gymnasium.
ENV_ID = "minodice/Solo-v1"


class SoloEnv(gym.Env[np.ndarray, int | np.integer]):  # Discrete samples NumPy ints
    """One learning seat against bots.

    `opponents`: bot specs, one per other seat (2 to 5; default three greedy
    bots). `seat`: the agent's seat. `rules` (a `Rules` or mapping) or rule
    options as keywords. `render_mode`: None or ``"ansi"``.
    `illegal`: ``"raise"`` (an illegal action raises ValueError naming the
    legal ones) or ``"terminate"`` (it ends the episode with reward
    `illegal_reward` and ``info["illegal_action"]``, as PettingZoo's
    TerminateIllegalWrapper does; generic tools such as Gymnasium's env
    checker step unmasked random actions and need this).
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 - an instance attribute in gymnasium.Env

    def __init__(
        self,
        opponents: Sequence[str] = ("greedy", "greedy", "greedy"),
        *,
        seat: int = 0,
        rules: Rules | Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        illegal: str = "raise",
        illegal_reward: float = -100.0,
        **rule_options: Any,
    ) -> None:
        if illegal not in ("raise", "terminate"):
            raise ValueError(f"illegal must be 'raise' or 'terminate', not {illegal!r}")
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        if isinstance(opponents, str) or not all(isinstance(o, str) for o in opponents):
            raise ValueError("opponents must be a sequence of bot specs, e.g. ('greedy', 'random')")
        self.opponents = tuple(opponents)
        self.seats = check_seats(len(self.opponents) + 1)
        if not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise ValueError(f"seat must be a seat from 0 to {self.seats - 1}, not {seat!r}")
        for spec in self.opponents:  # fail now, with the bot factory's own words, not at reset
            make_bot(spec, seed=0).close()
        self.seat = seat
        self.rules = make_rules(rules, **rule_options)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        low, high = E.observation_bounds(self.seats)
        self.observation_space = spaces.Box(low=low, high=high, dtype=np.float32)
        self.action_space = spaces.Discrete(E.NUM_ACTIONS)
        self._rng = random.Random()
        self.table: Table | None = None
        self.bots: dict[int, Bot] = {}
        self._ended_illegally = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a new game; `seed` fixes the dice and the bots' choices (and later resets)."""
        super().reset(seed=seed)
        if seed is not None:
            self._rng.seed(seed)
        game_seed = self._rng.getrandbits(64)
        self._close_bots()
        self._ended_illegally = False
        self.table = Table(self.seats, self.rules, seed=game_seed)
        others = [s for s in range(self.seats) if s != self.seat]
        self.bots = {
            s: make_bot(spec, seed=f"{game_seed}:bot:{s}") for s, spec in zip(others, self.opponents)
        }
        for s, bot in self.bots.items():
            bot.start_game(self.table.game.setup_view(s))
        self._play_bots()  # every seat bids each hand: no hand ends before the agent's first turn
        return self._observe(), self._info()

    def step(self, action: int | np.integer) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Take `action` (an id of `encoding`), then let the bots play up to the agent's next turn."""
        table = self._table()
        if table.over or self._ended_illegally:
            raise ValueError("the episode is over: call reset() to start a new one")
        try:
            scores = table.step(self.seat, action)  # ValueError naming the legal actions if illegal
        except ValueError as exc:
            if self.illegal == "raise":
                raise
            # PettingZoo's TerminateIllegalWrapper convention: the episode ends, with a penalty.
            self._ended_illegally = True
            info = self._info()
            info["illegal_action"] = str(exc)
            return self._observe(), self.illegal_reward, True, False, info
        reward = scores[self.seat] if scores is not None else 0
        reward += self._play_bots()
        terminated = table.over
        if terminated:
            for s, bot in self.bots.items():
                bot.end_game(table.game.observe(s))
        return self._observe(), float(reward), terminated, False, self._info()

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``), as a spectator sees it."""
        if self.render_mode is None:
            return None
        return self._table().render()

    def close(self) -> None:
        """Release the bots (an external bot is a program)."""
        self._close_bots()

    def action_masks(self) -> np.ndarray:
        """The legal actions now as flags (the name sb3-contrib's MaskablePPO looks for)."""
        return self._table().mask(self.seat)

    # --- helpers ------------------------------------------------------------------------


    def _table(self) -> Table:
        if self.table is None:
            raise RuntimeError("call reset() before step()")
        return self.table

    def _play_bots(self) -> int:
        """Let the bots act until it is the agent's turn or the game ends; the agent's points."""
        table = self._table()
        reward = 0
        while True:
            seat = table.actor()
            if seat is None or seat == self.seat:
                return reward
            view = table.view(seat)
            bot = self.bots[seat]
            move = bot.bid(view) if view.bidding else bot.roll(view)
            action = E.bid_action(move) if isinstance(move, int) else E.roll_action(move)
            scores = table.step(seat, action)
            if scores is not None:
                reward += scores[self.seat]

    def _observe(self) -> np.ndarray:
        return self._table().observation(self.seat)

    def _info(self) -> dict[str, Any]:
        table = self._table()
        info: dict[str, Any] = {
            "action_mask": table.mask(self.seat),
            "totals": tuple(table.game.totals),
        }
        if table.over:
            info["place"] = R.places(table.game.totals)[self.seat]
        return info

    def _close_bots(self) -> None:
        for bot in self.bots.values():
            bot.close()
        self.bots = {}


if ENV_ID not in gym.registry:
    # make_vec(..., vectorization_mode="vector_entry_point"): N games in one compiled step (envs/vector_gym.py).
    gym.register(id=ENV_ID, entry_point=SoloEnv, vector_entry_point="minodice.envs.vector_gym:SoloVectorEnv",
                 disable_env_checker=False)
