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

    Exit status: 0 done; 1 the record is invalid or hides dice; 2 the file is unreadable or an option is wrong;
    130 interrupted (nothing is saved: the review prints when every decision is judged).
    """
    import json

    from rich.console import Console

    from ..bots import BotSpecError
    from ..review import DEFAULT_BOT
    from ..review import analyze as run
    from ..review.analyze import judge_refusal
    from ..review.render import render_analysis
    from .errors import EXIT_FAULT, EXIT_INTERRUPTED, fail
    from .options import load_valid_record

    try:
        judge_refusal(bot or DEFAULT_BOT)  # a spec it cannot read, or a bot that cannot judge: bad usage
    except ValueError as exc:  # BotSpecError is one
        fail("analyze", str(exc))
    rec = load_valid_record(file)
    try:
        seats = _seats(seat, [str(s["name"]) for s in rec["seats"]])
    except ValueError as exc:
        fail("analyze", str(exc))
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    bar = Progress(TextColumn("judging the decisions"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                   console=Console(stderr=True), transient=True)
    judged = [0, 0]  # decisions judged, of how many
    try:
        with bar:
            task = bar.add_task("judging", total=None)

            def progress(done: int, total: int) -> None:
                judged[:] = done, total
                bar.update(task, completed=done, total=total)

            analysis = run(rec, seats, bot or DEFAULT_BOT, seed, jobs, progress)
    except BotSpecError as exc:
        fail("analyze", str(exc))
    except ValueError as exc:
        fail("analyze", f"{file}: {exc}", EXIT_FAULT)
    except KeyboardInterrupt:
        done = f" after judging {judged[0]} of {judged[1]} decisions" if judged[1] else ""
        fail("analyze", f"interrupted{done}; nothing was saved (the review prints when every decision is "
                        "judged)", EXIT_INTERRUPTED)
    if as_json:
        typer.echo(json.dumps(analysis.to_dict(), indent=1, ensure_ascii=False))
        return
    Console().print(render_analysis(analysis, every=not brief))


def register(app: typer.Typer) -> None:
    """Add `analyze` to the command-line app."""
    app.command()(analyze)
