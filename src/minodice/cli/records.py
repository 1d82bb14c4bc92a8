"""`minodice verify` and `minodice replay`: check game records and show their score sheets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:  # rich and the engine load when a command runs, not for `minodice --help`
    from rich.table import Table

__all__ = ["register", "replay", "score_sheet", "verify"]


def verify(
    files: Annotated[list[Path], typer.Argument(help="Game records (.json) to check.", show_default=False)],
) -> None:
    """Check game records: prints `FILE: ok` or the first fault of each.

    Exit status: 0 all valid; 1 some record is invalid; 2 some file is not a readable minodice/1 record.
    Every line is one file's: names and paths are printed with control characters escaped.
    """
    from .. import record as records
    from ..codes import printable

    status = 0
    for path in files:
        try:
            rec = records.load(path)
        except records.RecordError as exc:
            typer.echo(printable(f"{path}: {exc}"))
            status = 2
            continue
        fault = records.check(rec)
        if fault is None:
            typer.echo(printable(f"{path}: ok"))
        else:
            typer.echo(printable(f"{path}: {fault}"))
            status = max(status, 1)
    raise typer.Exit(status)


def replay(
    file: Annotated[Path, typer.Argument(help="A game record (.json).", show_default=False)],
    write: Annotated[
        bool, typer.Option("--write", help="Fill in the derived fields (winners, scores, totals) in the file.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the filled-in record instead.")] = False,
) -> None:
    """Show a record's hand-by-hand score sheet (and optionally fill in its derived fields).

    Exit status: 0 done; 1 the record is invalid; 2 the file is not a readable minodice/1 record
    (or, with --write, cannot be written); each said in one line, `minodice replay: FILE: what is wrong`.
    """
    from rich.console import Console
    from rich.markup import escape

    from .. import record as records
    from ..codes import printable
    from .options import fail, load_valid_record

    console = Console()
    rec = load_valid_record(file)
    filled = records.fill(rec)
    if write:
        try:
            records.save(filled, file)
        except OSError as exc:
            fail("replay", f"{file}: cannot write the file: {exc.strerror or exc}")
    if as_json:
        typer.echo(_json_text(filled))
        return
    console.print(score_sheet(filled))
    if write:
        console.print(f"[green]wrote the derived fields to {escape(printable(str(file)))}[/]")


def _json_text(rec: dict) -> str:
    """A record as indented JSON; in ASCII escapes if a string holds a character a terminal acts on."""
    from ..codes import printable

    compact = json.dumps(rec, ensure_ascii=False)
    return json.dumps(rec, ensure_ascii=printable(compact) != compact, indent=1)


def score_sheet(rec: dict) -> Table:
    """A rich table: one row per hand (bid/won and points per seat), totals at the foot."""
    from rich.markup import escape
    from rich.table import Table

    from .. import record as records
    from ..codes import printable

    names = [escape(printable(s["name"])) for s in rec["seats"]]
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
