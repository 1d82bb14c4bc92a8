"""`minodice analyze`: every decision of a recorded game judged against a searching bot."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

__all__ = ["analyze", "register"]


def _seats(value: str, names: list[str]) -> list[int] | None:
    """`--seat`: a number, a name, or `all` (None)."""
    if value.strip().lower() == "all":
        return None
    if value.strip().isdigit():
        return [int(value)]
    found = [i for i, name in enumerate(names) if name.casefold() == value.strip().casefold()]
    if not found:
        raise ValueError(f"no seat is called {value!r}: the seats are " + ", ".join(
            f"{i} {name}" for i, name in enumerate(names)))
    return found[:1]


def analyze(
    file: Annotated[Path, typer.Argument(help="A host record of a game (.json).", show_default=False)],
    seat: Annotated[str, typer.Option("--seat", "-s", help="The seat to review: its number, its name, or all.")] = "all",
    bot: Annotated[
        str | None,
        typer.Option("--bot", "-b", help="The judging bot (montecarlo or ismcts, with options); default: montecarlo "
                     "with four times the playouts it uses in play."),
    ] = None,
    seed: Annotated[int, typer.Option(help="The judging bot's seed: the same seed gives the same analysis.")] = 0,
    jobs: Annotated[int, typer.Option(help="Worker processes.", min=1)] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the analysis document (minodice-analysis/1).")] = False,
    brief: Annotated[bool, typer.Option("--brief", help="Totals and the worst decisions only.")] = False,
) -> None:
    """Review a game: each bid and roll of a seat against the bot's best choice, with what it cost.

    Exit status: 0 done; 1 the record is invalid or hides dice; 2 the file is unreadable or an option is wrong.
    """
    import json

    from rich.console import Console

    from ..bots import BotSpecError
    from ..codes import printable
    from ..review import DEFAULT_BOT
    from ..review import analyze as run
    from ..review.render import render_analysis
    from .options import load_valid_record

    rec = load_valid_record(file)
    try:
        seats = _seats(seat, [str(s["name"]) for s in rec["seats"]])
    except ValueError as exc:
        typer.echo(printable(f"error: {exc}"), err=True)
        raise typer.Exit(2) from None
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    bar = Progress(TextColumn("judging the decisions"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                   console=Console(stderr=True), transient=True)
    try:
        with bar:
            task = bar.add_task("judging", total=None)

            def progress(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            analysis = run(rec, seats, bot or DEFAULT_BOT, seed, jobs, progress)
    except BotSpecError as exc:
        typer.echo(printable(f"error: {exc}"), err=True)
        raise typer.Exit(2) from None
    except ValueError as exc:
        typer.echo(printable(f"{file}: {exc}"), err=True)
        raise typer.Exit(1) from None
    if as_json:
        typer.echo(json.dumps(analysis.to_dict(), indent=1, ensure_ascii=False))
        return
    Console().print(render_analysis(analysis, every=not brief))


def register(app: typer.Typer) -> None:
    """Add `analyze` to the command-line app."""
    app.command()(analyze)
