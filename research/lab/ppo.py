"""The lab's PPO: `minodice.learn`'s trainer with the experiments that lost (`research/learned-bot.md`).

- Tables against a fixed network (`LabConfig.against`): the network in seat 0, that network's likeliest
  moves in every other seat (e.g. one trained to imitate `montecarlo`), so PPO learns its best reply to a
  stronger opponent than greedy; each evaluation also gives the lead over it.
- Oracle guiding (`LabConfig.guide`, as Suphx was trained for Mahjong: Li et al., 2020): for the first
  `guide` updates the network also sees the dice every other seat holds, at each decision with a chance
  falling linearly from 1 to 0; then never, and the network it plays and writes has no such inputs
  (`PolicyValueNet.honest`).
- A network that reads the hand's recall (`LabConfig.recall`: observation version 2's `rolled` and
  `void` sections, `FEATURES` inputs): a new one, or a given one of the first version grown to it (its new
  inputs start with no weight), as every run of the experiments did before the recall left the product.

Unguided and without a fixed network, a run with `recall` False is the product's, bit for bit.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from minodice.bots.network import FEATURES, FEATURES_V1, PRIVILEGED, PolicyValueNet, load_network, privileged
from minodice.envs.vector import VectorTable
from minodice.learn import TrainConfig, Trainer, evaluate_vs_greedy
from minodice.learn.ppo import Progress, Rollout, seat_zero

__all__ = ["DEFAULT_AGAINST_TABLES", "LabConfig", "LabRollout", "LabTrainer"]

#: The lab's tables per update when a fixed network to play against is given: self-play, against greedy,
#: against it (half of them).
DEFAULT_AGAINST_TABLES: tuple[int, int, int] = (96, 32, 128)


@dataclass(frozen=True)
class LabConfig(TrainConfig):
    """A training run of the lab: the product's fields, then the experiments' (all off by default)."""

    #: A new network sees the hand's recall (`FEATURES` inputs); False: the first version's, as the product's.
    recall: bool = False
    #: Tables where the network sits in seat 0 against `against`, a fixed network in every other seat.
    against_envs: int = 0
    #: That fixed network's file (its likeliest moves; e.g. one trained to imitate montecarlo).
    against: str | None = None
    #: Oracle guiding: for the first `guide` updates the network also sees the dice every other seat holds,
    #: at each decision with a chance falling linearly from 1 to 0; then never (0: off).
    guide: int = 0


class LabRollout(Rollout):
    """A table of the lab: the other seats' dice shown to a guided network (with chance `show`), and a fixed
    network (`others`) in the seats the trained one does not play."""

    def __init__(self, table: VectorTable, agent_seats: np.ndarray, rng: np.random.Generator, seed: int,
                 others: PolicyValueNet | None = None) -> None:
        super().__init__(table, agent_seats, rng, seed)
        self.others = others
        #: The chance that a guided network sees the other seats' dice at a decision (set at each update).
        self.show = 0.0

    def _inputs(self, net: PolicyValueNet, seats: np.ndarray) -> np.ndarray:
        x = super()._inputs(net, seats)
        if net.width > FEATURES:
            x = np.concatenate([x, self._privileged(seats)], axis=1)
        return x

    def _privileged(self, seats: np.ndarray) -> np.ndarray:
        """The other seats' dice for the rows drawn to be shown (chance `show`; none, and no draw, at 0)."""
        shown = self.rng.random(len(seats)) < self.show if self.show > 0 else np.zeros(len(seats), bool)
        return privileged(self.table.others_dice(seats)) * shown[:, None]

    def _moves(self, actions: np.ndarray, x: np.ndarray, mask: np.ndarray, seats: np.ndarray) -> np.ndarray:
        if self.others is None:
            return actions
        return np.where(~self.agent[seats], self.others.best_actions(x, mask), actions)


def _width(cfg: LabConfig) -> int:
    """The inputs of the network `cfg` trains: the first version's, the recall's, or those and the other seats'
    dice (oracle guiding)."""
    if not cfg.recall:
        return FEATURES_V1
    return FEATURES + PRIVILEGED if cfg.guide else FEATURES


class LabTrainer(Trainer):
    """The product's trainer with the lab's tables and inputs (`LabConfig`)."""

    cfg: LabConfig

    def __init__(self, cfg: LabConfig, net: PolicyValueNet | None = None) -> None:
        if cfg.guide and (not cfg.recall or (net is not None and net.width != FEATURES)):
            raise ValueError("oracle guiding (guide) trains a network that sees the hand's recall")
        if (cfg.against is None) != (cfg.against_envs == 0):
            raise ValueError("tables against a fixed network (against_envs) and its file (against) go together")
        #: The fixed network some tables seat against the one being trained, if any.
        self.against = None if cfg.against is None else load_network(cfg.against)
        width = _width(cfg)
        if net is not None and net.width < width:  # a given network grows the inputs it lacks, with no weight
            grown = np.zeros((width, net.params[0].shape[1]), np.float32)
            grown[: net.width] = net.params[0]
            net.params[0] = grown
        super().__init__(cfg, net)

    def _width(self) -> int:
        return _width(self.cfg)

    def _rollouts(self) -> list[Rollout]:
        rollouts = super()._rollouts()
        if self.against is not None:
            cfg = self.cfg
            table = VectorTable(cfg.against_envs, cfg.seats, seed=cfg.seed + 2, hints=True)
            rollouts.append(LabRollout(table, seat_zero(cfg.seats), self.rng, cfg.seed + 2, self.against))
        return rollouts

    def _rollout(self, table: VectorTable, agent: np.ndarray, seed: int) -> Rollout:
        return LabRollout(table, agent, self.rng, seed)

    def _update(self) -> Progress:
        show = max(0.0, 1.0 - self.updates / self.cfg.guide) if self.cfg.guide else 0.0
        for rollout in self.rollouts:
            if isinstance(rollout, LabRollout):
                rollout.show = show
        return super()._update()

    def playing_net(self) -> PolicyValueNet:
        """The network as it plays: without the privileged inputs of oracle guiding (which it then sees as 0)."""
        return self.net.honest() if self.net.width > FEATURES else self.net

    def evaluation(self, playing: PolicyValueNet, games: int, seed: int) -> dict[str, float]:
        """The product's evaluation, and with a fixed network its lead over that network in every other seat."""
        entry = super().evaluation(playing, games, seed)
        if self.against is not None:
            fixed = evaluate_vs_greedy(playing, games, seats=self.cfg.seats, seed=seed, opponent=self.against)
            entry.update(against_lead=fixed["lead"], against_ci95=fixed["ci95"])
        return entry
