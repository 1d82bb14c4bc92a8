"""The `minodice odds` tables for the terminal: rich tables of at most 80 columns, each with a legend in
plain words, and the optional plot (matplotlib, `minodice[plots]`)."""

from __future__ import annotations

import math
from pathlib import Path

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from ..analysis.odds import BidOdds, DieValues, WinChances
from ..dice import BAG_COUNTS, Die

__all__ = ["odds_tables", "plot_odds"]


def _pct(p: float) -> str:
    return "—" if math.isnan(p) else f"{100 * p:.1f}%"


def _whole(p: float) -> str:
    """A share in whole percents, `<1%` when small but not nil."""
    return "—" if math.isnan(p) else "<1%" if 0 < p < 0.005 else f"{p:.0%}"


def _table(title: str) -> Table:
    """The odds' table style: no column rules, so the widest table (9 bids, 8 hand sizes) fits 80 columns."""
    return Table(title=title, box=box.SIMPLE_HEAD, padding=(0, 1), collapse_padding=True, show_edge=False)


def _explained(table: Table, legend: str) -> Group:
    """`table` with what its cells mean in plain words below it (wrapped to the screen, not to the table)."""
    return Group(table, Text(legend, style="dim"))


def _win_table(tables: list[WinChances]) -> Group:
    table = _table("Chance to win a trick with one die (exact; rolling position random)")
    table.add_column("die (in bag)")
    for t in tables:
        table.add_column(f"vs {t.opponents}", justify="right")
    for d in Die:
        table.add_row(f"{d.value} ({BAG_COUNTS[d]})", *(_pct(t.chance[d]) for t in tables))
    return _explained(table, "How often one die of each kind wins the trick when each opponent (vs 2: two "
                             "opponents, ...) rolls one die drawn at random from the rest of the bag. "
                             "(n): how many dice of that kind the bag holds.")


def _position_table(t: WinChances) -> Group:
    players = t.opponents + 1
    table = _table(f"By rolling position, {players} players (exact)")
    table.add_column("die")
    for i in range(players):
        table.add_column("first" if i == 0 else "last" if i == players - 1 else f"#{i + 1}", justify="right")
    for d in Die:
        table.add_row(d.value, *(_pct(p) for p in t.by_position[d]))
    return _explained(table, "The same chance when the die is rolled first (leading the trick), second, ... "
                             "or last: a later roll wins ties.")


def _bid_columns(table: Table, rows: list[BidOdds]) -> range:
    """Add a column for each bid from 0 to the highest greedy play made in the sample; those bids."""
    bids = range(max(b for r in rows for b, share in r.share.items() if share > 0) + 1)
    for b in bids:
        table.add_column(f"bid\n{b}", justify="right")
    return bids


def _bid_share_table(rows: list[BidOdds], players: int) -> Group:
    table = _table(f"What greedy play bids, {players} players (sampled: {rows[0].games:,} games, "
                   f"{rows[0].samples:,} bids per hand size)")
    table.add_column("dice")
    bids = _bid_columns(table, rows)
    for r in rows:
        table.add_row(str(r.hand), *(_whole(r.share[b]) if r.share.get(b) else "" for b in bids))
    return _explained(table, "Each row: the players' bids with that many dice, as shares of 0, 1, 2, ... "
                             "(a row adds up to 100 %; blank: never bid). Every player bids greedily, "
                             "like the greedy bot.")


def _bid_made_table(rows: list[BidOdds], players: int) -> Group:
    table = _table(f"How often those bids are made, {players} players (sampled)")
    table.add_column("dice")
    bids = _bid_columns(table, rows)
    table.add_column("all\nbids", justify="right")
    for r in rows:
        cells = [_whole(r.made[b]) if b in r.made else "" for b in bids]
        table.add_row(str(r.hand), *cells, f"{_pct(r.made_all)} ±{100 * r.made_all_se:.1f}")
    return _explained(table, "Each cell: the share of those bids won exactly (blank: never bid). All bids: "
                             "every bid with that many dice, ± one standard error (in percentage points).")


def _value_table(rows: list[DieValues]) -> Group:
    se = max((e for r in rows for e in r.se.values() if not math.isnan(e)), default=math.nan)
    table = _table(f"Tricks one die is worth, by hand size (sampled: {rows[0].samples:,} hands per size; "
                   "greedy play)")
    table.add_column("die")
    for r in rows:
        table.add_column(f"{r.hand} dice" if r.hand > 1 else "1 die", justify="right")
    for d in Die:
        table.add_row(d.value, *(f"{r.value[d]:.2f}".replace("-0.00", "0.00") if d in r.value else "—" for r in rows))
    return _explained(table, "Each cell: the tricks a die of that kind adds to a hand of that many dice, "
                             "fitted so that a hand's dice add up to the tricks it wins (least squares). "
                             f"Standard errors: at most ±{se:.3f}.")


def odds_tables(
    tables: list[WinChances], position: WinChances, bids: list[BidOdds], values: list[DieValues], players: int
) -> list[Group]:
    """The five tables `odds` prints, each a rich table (at most 80 columns wide) and its legend in words."""
    return [_win_table(tables), _position_table(position), _bid_share_table(bids, players),
            _bid_made_table(bids, players), _value_table(values)]


def plot_odds(path: Path, tables: list[WinChances], bids: list[BidOdds], players: int) -> None:
    """Bars of win chance per kind per opponent count, and of bids made per hand size."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(13, 4.8))
    kinds = list(Die)
    width = 0.8 / max(len(tables), 1)
    for i, t in enumerate(tables):
        xs = [j + (i - (len(tables) - 1) / 2) * width for j in range(len(kinds))]
        ax1.bar(xs, [t.chance[d] for d in kinds], width, label=f"{t.opponents} opponents")
    ax1.set_xticks(range(len(kinds)), [d.value for d in kinds])
    ax1.set_ylabel("chance to win the trick")
    ax1.set_title("One die vs random dice from the bag (exact)")
    ax1.legend()
    ax2.bar(
        [r.hand for r in bids], [r.made_all for r in bids], yerr=[r.made_all_se for r in bids], color="tab:green"
    )
    ax2.set_xlabel("dice in the hand")
    ax2.set_ylabel("share of greedy bids made")
    ax2.set_ylim(0, 1)
    ax2.set_title(f"Greedy bids made, {players} players (sampled, {bids[0].games:,} games)")
    fig.tight_layout()
    fig.savefig(path, format="png", dpi=100)
    plt.close(fig)
