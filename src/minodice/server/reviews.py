"""The analysis of finished games for the replay page (`GET /api/tables/{code}/analysis`).

A review takes seconds of CPU (every decision of every seat judged by a search bot), so it runs in a
worker process of its own — never on the event loop, never holding the bots' GIL — one at a time;
asking again for a game being reviewed waits for the same result; the last few results are kept.
Only finished games are reviewed: a game in progress would show each seat the others' dice.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from .botpool import WorkerProcess

__all__ = ["Reviews", "judge_of"]


def judge_of(spec: str) -> dict[str, str | None]:
    """Who judges, in words a page can put in a player's sentence: `level`, the level whose bot the
    spec is (`minodice.bots.levels`: "expert"), else None; `bot`, the built-in bot it is ("montecarlo")."""
    from ..bots import BUILTIN
    from ..bots.levels import LEVELS, find_level

    level = find_level(spec)
    if level is not None:
        return {"level": level.name, "bot": level.spec.name}
    try:
        parsed = BUILTIN.parse(spec)
    except ValueError:
        return {"level": None, "bot": None}
    same = next((lv for lv in LEVELS if lv.spec == parsed), None)
    return {"level": same.name if same else None, "bot": parsed.name}


def _review(record: Mapping[str, Any], bot: str) -> dict[str, Any]:
    from ..review import analyze

    return analyze(record, None, bot, seed=0).to_dict()


class Reviews:
    """Reviews of finished games by code: made in a worker process, the last `keep` kept."""

    def __init__(self, bot: str, keep: int = 32) -> None:
        self.bot, self.keep = bot, keep
        self._done: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._running: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._worker = WorkerProcess()

    async def of(self, code: str, record: Mapping[str, Any]) -> dict[str, Any]:
        """The analysis document of the finished game `code` whose record is `record`."""
        done = self._done.get(code)
        if done is not None:
            self._done.move_to_end(code)
            return done
        running = self._running.get(code)
        if running is None:
            running = asyncio.ensure_future(self._reviewed(dict(record)))
            self._running[code] = running
            running.add_done_callback(lambda f: self._finish(code, f))
        return await asyncio.shield(running)

    async def _reviewed(self, record: dict[str, Any]) -> dict[str, Any]:
        """`record` reviewed in the worker process; if that process had died, in a new one."""
        return await self._worker.run_retried(_review, record, self.bot)

    def _finish(self, code: str, future: asyncio.Future[dict[str, Any]]) -> None:
        self._running.pop(code, None)
        if not future.cancelled() and future.exception() is None:
            self._done[code] = future.result()
            while len(self._done) > self.keep:
                self._done.popitem(last=False)

    def judge(self) -> dict[str, str | None]:
        """The judge of these reviews as `judge_of` names it."""
        return judge_of(self.bot)

    def close(self) -> None:
        """Stop the worker process (not waiting: a review under way may take seconds)."""
        self._worker.close(wait=False)
