"""A seated player's hint (`GET /api/tables/{code}/hint`): the bid advisor's table while the seat bids
(`analysis.advisor.bid_hint`), and the value of each die it may roll when it is its turn to roll
(`bots.explain.roll_hint`), both from the seat's own view only.

One question, one computation: each seat's last answer is kept with the view it answers, and the
same view asked again, or again while it is worked out, gets that answer, so asking often costs
the server nothing more. The bid advisor runs in a thread (its kernel lets go of the GIL); the roll
hint's search holds the GIL, so it runs in the process that holds the table's bots.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from concurrent.futures import Executor
from typing import Any

from ..analysis.advisor import bid_hint
from ..view import View
from .botpool import BotPool

__all__ = ["KEEP", "Hints", "hint_kind"]

#: The most seats whose last answer is kept (the oldest asked goes first).
KEEP = 4096


def hint_kind(view: View) -> str | None:
    """The decision a hint would advise the seat of `view` on now: "bid", "roll", or None (not its turn)."""
    if view.seat is None or not view.legal:
        return None
    return "bid" if view.bidding else "roll"


def _failed(future: asyncio.Future[Any]) -> bool:
    return future.done() and (future.cancelled() or future.exception() is not None)


class Hints:
    """The hints of every table this server process serves, each seat's last one kept."""

    def __init__(self, threads: Executor, bots: BotPool) -> None:
        self._threads = threads
        self._bots = bots
        self._asked: OrderedDict[tuple[str, int], tuple[View, asyncio.Future[dict[str, Any]]]] = OrderedDict()

    async def of(self, table: str, view: View) -> dict[str, Any]:
        """The hint for the seat of `view` at `table` as JSON-ready data (`kind` "bid" or "roll").
        ValueError if the view asks no decision of its seat."""
        if view.seat is None or hint_kind(view) is None:
            raise ValueError("a hint needs the view of a seat whose turn it is")
        key = (table, view.seat)
        held = self._asked.get(key)
        if held is not None and held[0] == view and not _failed(held[1]):
            future = held[1]
            self._asked.move_to_end(key)
        else:
            future = asyncio.ensure_future(self._worked_out(table, view))
            self._asked[key] = (view, future)
            self._asked.move_to_end(key)
            while len(self._asked) > KEEP:
                self._asked.popitem(last=False)
        return await asyncio.shield(future)

    async def _worked_out(self, table: str, view: View) -> dict[str, Any]:
        if hint_kind(view) == "bid":
            advice = await asyncio.get_running_loop().run_in_executor(self._threads, bid_hint, view)
            return {"kind": "bid", **advice.to_dict()}
        explanation = await self._bots.roll_hint(table, view, seed=f"{table}:{view.hand}")
        return explanation.to_dict()
