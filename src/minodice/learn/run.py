"""A whole training run: updates for a time or a count, a checkpoint and a log line at intervals.

The log (`log.jsonl` beside the checkpoints, one JSON object per
evaluation) holds what the learning curve plots: decisions and seconds of
training so far, the losses, and the network's lead over kernel `greedy`
bots at that point (`evaluate_vs_greedy`, 95 % interval), and whatever else the
trainer's `evaluation` adds (the lab's trainer: the lead over its fixed network).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ..bots.network import PolicyValueNet
from .ppo import Progress, TrainConfig, Trainer

__all__ = ["train"]


def train(
    cfg: TrainConfig,
    out: Path,
    *,
    updates: int | None = None,
    minutes: float | None = None,
    checkpoints: Path | None = None,
    every: int = 10,
    eval_games: int = 2000,
    start: PolicyValueNet | None = None,
    report: Callable[[dict[str, Any]], None] | None = None,
    make_trainer: Callable[[TrainConfig, PolicyValueNet | None], Trainer] = Trainer,
) -> PolicyValueNet:
    """Train from `cfg` (or on from `start`) and write the final network to `out`.

    Every `every` updates (and at the end) the network is evaluated against
    greedy; with `checkpoints`, it is saved there as `update-NNNNN.npz` and the
    evaluation appended to `checkpoints/log.jsonl`. `report` sees each record.
    `make_trainer` makes the run's `Trainer` from `cfg` and `start` (the lab passes its own).
    """
    if updates is None and minutes is None:
        raise ValueError("give a number of updates or of minutes")
    trainer = make_trainer(cfg, start)
    if checkpoints is not None:
        checkpoints.mkdir(parents=True, exist_ok=True)

    def record(progress: Progress) -> None:
        playing = trainer.playing_net()
        entry = {**asdict(progress), **trainer.evaluation(playing, eval_games, cfg.seed + 7919)}
        trainer.net.meta["greedy_lead"] = playing.meta["greedy_lead"] = entry["greedy_lead"]
        if checkpoints is not None:
            playing.save(checkpoints / f"update-{progress.update:05d}.npz")
            with (checkpoints / "log.jsonl").open("a", encoding="utf-8") as log:
                log.write(json.dumps(entry) + "\n")
        if report is not None:
            report(entry)

    last: Progress | None = None
    seconds = None if minutes is None else 60.0 * minutes
    for progress in trainer.run(updates=updates, seconds=seconds):
        last = progress
        if progress.update % every == 0:
            record(progress)
    if last is not None and last.update % every != 0:
        record(last)
    out.parent.mkdir(parents=True, exist_ok=True)
    playing = trainer.playing_net()
    playing.save(out)
    return playing
