"""`minodice verify` and `minodice replay`: check game records and show their score sheets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from .. import record as records

__all__ = ["register", "replay", "score_sheet", "verify"]


def verify(
    files: Annotated[list[Path], typer.Argument(help="Game records (.json) to check.", show_default=False)],
) -> None:
    """Check game records: prints `FILE: ok` or the first fault of each.

    Exit status: 0 all valid; 1 some record is invalid; 2 some file is not a readable minodice/1 record.
    """
    status = 0
    for path in files:
        try:
            rec = records.load(path)
        except records.RecordError as exc:
            typer.echo(f"{path}: {exc}")
            status = 2
            continue
        fault = records.check(rec)
        if fault is None:
            typer.echo(f"{path}: ok")
        else:
            typer.echo(f"{path}: {fault}")
            status = max(status, 1)
    raise typer.Exit(status)


def replay(
    file: Annotated[Path, typer.Argument(help="A game record (.json).", show_default=False)],
    write: Annotated[
        bool, typer.Option("--write", help="Fill in the derived fields (winners, scores, totals) in the file.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the filled-in record instead.")] = False,
) -> None:
    """Show a record's hand-by-hand score sheet (and optionally fill in its derived fields)."""
    console = Console()
    try:
        rec = records.load(file)
    except records.RecordError as exc:
        typer.echo(f"{file}: {exc}", err=True)
        raise typer.Exit(2) from None
    fault = records.check(rec)
    if fault is not None:
        typer.echo(f"{file}: {fault}", err=True)
        raise typer.Exit(1)
    filled = records.fill(rec)
    if write:
        records.save(filled, file)
    if as_json:
        typer.echo(json.dumps(filled, ensure_ascii=False, indent=1))
        return
    console.print(score_sheet(filled))
    if write:
        console.print(f"[green]wrote the derived fields to {file}[/]")


def score_sheet(rec: dict) -> Table:
    """A rich table: one row per hand (bid/won and points per seat), totals at the foot."""
    names = [s["name"] for s in rec["seats"]]
    rows = records.summary(rec)
    table = Table(title="Score sheet", show_footer=True)
    table.add_column("hand", footer="total", justify="right")
    finals = rows[-1].totals if rows else [0] * len(names)
    for name, total in zip(names, finals):
        table.add_column(name, footer=str(total), justify="right")
    for row in rows:
        cells = []
        for s in range(len(names)):
            bid = "–" if row.bids[s] is None else str(row.bids[s])
            pts = "" if row.scores is None else f"{row.scores[s]:+d}"
            cells.append(f"{bid}/{row.won[s]}  {pts}".rstrip())
        table.add_row(str(row.hand) + ("" if row.scores is not None else "…"), *cells)
    table.caption = "each cell: bid/tricks won, then points for the hand (… = hand in progress)"
    return table


def register(app: typer.Typer) -> None:
    """Add `verify` and `replay` to the command-line app."""
    app.command()(verify)
    app.command()(replay)
