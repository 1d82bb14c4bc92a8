"""The bid advisor's answer as a rich table (for `minodice advise` and the terminal game's hint)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.table import Table

if TYPE_CHECKING:
    from ..analysis.advisor import Advice

__all__ = ["advice_table"]


def advice_table(advice: Advice) -> Table:
    """A rich table: one row per bid with its expected score (± 95 %) and P(tricks = t)."""
    n = len(advice.dice)
    table = Table(title=f"{', '.join(d.value for d in advice.dice)} — {advice.players} players, "
                        f"you roll {_ordinal(advice.position)} in the first trick, opponents {advice.opponents}")
    table.add_column("bid", justify="right")
    table.add_column("expected score", justify="right")
    table.add_column("made", justify="right")
    for t in range(n + 1):
        table.add_column(f"P({t})", justify="right")
    best = advice.best
    for e in advice.bids:
        style = "bold green" if e.bid == best else None
        table.add_row(str(e.bid), f"{e.expected:+.1f} ± {e.half_width:.1f}", f"{e.made:.0%}",
                      *(f"{p:.1%}" if p else "·" for p in e.tricks), style=style)
    return table


def _ordinal(i: int) -> str:
    return ["first", "second", "third", "fourth", "fifth", "sixth"][i]
