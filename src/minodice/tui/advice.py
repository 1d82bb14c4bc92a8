"""The bid advisor's answer as a rich table (for `minodice advise` and the terminal game's hint)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich import box
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:
    from ..analysis.advisor import Advice

__all__ = ["advice_table"]


def advice_table(advice: Advice) -> Table:
    """A rich table: one row per bid with its expected score (± 95 %) and P(tricks = t), the bid's own
    P (the chance of making it) underlined.

    Whole percents and no column rules keep it within 80 columns with 8 dice (nine P columns).
    """
    n = len(advice.dice)
    table = Table(title=f"{', '.join(d.value for d in advice.dice)} — {advice.players} players, "
                        f"you roll {_ordinal(advice.position)} in the first trick, opponents {advice.opponents}",
                  caption="P(t): the chance of winning t tricks when you play for that bid; "
                          "P(bid), underlined, is the chance of making it",
                  box=box.SIMPLE_HEAD, padding=(0, 1), collapse_padding=True, show_edge=False)
    table.add_column("bid", justify="right")
    table.add_column("expected score", justify="right")
    for t in range(n + 1):
        table.add_column(f"P({t})", justify="right")
    best = advice.best
    for e in advice.bids:
        cells = [Text(_percent(p), style="underline" if t == e.bid else "") for t, p in enumerate(e.tricks)]
        table.add_row(str(e.bid), f"{e.expected:+.1f} ± {e.half_width:.1f}", *cells,
                      style="bold green" if e.bid == best else None)
    return table


def _percent(p: float) -> str:
    """A chance in whole percents: `·` for never, `<1%` for rarely, never `0%` or `100%` for what is not sure."""
    if p <= 0:
        return "·"
    if p < 0.005:
        return "<1%"
    return f"{min(p, 0.99):.0%}" if p < 1 else "100%"


def _ordinal(i: int) -> str:
    return ["first", "second", "third", "fourth", "fifth", "sixth"][i]
