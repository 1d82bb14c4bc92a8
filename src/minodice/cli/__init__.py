"""The `minodice` command: play in the terminal, verify and replay game records."""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from .. import __version__
from .. import record as records

app = typer.Typer(
    help="Mino Dice: play in the terminal, check and replay game records.",
    no_args_is_help=True,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


class Scoring(str, Enum):
    standard = "standard"
    landlubber = "landlubber"


class AllSpecials(str, Enum):
    mermaid = "mermaid"
    minotaur = "minotaur"
    griffin = "griffin"


class AllFlags(str, Enum):
    first = "first"
    last = "last"


class HandStart(str, Enum):
    rotate = "rotate"
    last_winner = "last_winner"


def _version(value: bool) -> None:
    if value:
        typer.echo(f"minodice {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool | None,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit."),
    ] = None,
) -> None:
    """Mino Dice — the dice game of bids and tricks (first published as Skull King: Das Würfelspiel)."""


@app.command()
def play(
    bot: Annotated[
        list[str] | None,
        typer.Option(
            "--bot",
            "-b",
            help="A bot for one other seat (repeat: 2 to 5 times). Built-in: greedy, random; "
            "or cmd:PROGRAM for an external bot. Default: three greedy.",
        ),
    ] = None,
    name: Annotated[str, typer.Option("--name", "-n", help="Your name at the table.")] = "You",
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed for dice and bots: same seed, same game.")
    ] = None,
    seat: Annotated[
        int, typer.Option("--seat", help="Your seat (0 = start player of hand 1).", min=0, max=5)
    ] = 0,
    scoring: Annotated[Scoring, typer.Option(help="Score sheet.")] = Scoring.standard,
    all_specials: Annotated[
        AllSpecials, typer.Option(help="Which special face wins when all three are rolled.")
    ] = AllSpecials.mermaid,
    all_flags: Annotated[
        AllFlags, typer.Option(help="Who wins a trick of flags only.")
    ] = AllFlags.first,
    hand_start: Annotated[
        HandStart, typer.Option(help="Who starts each new hand.")
    ] = HandStart.rotate,
    save: Annotated[
        Path | None, typer.Option("--save", help="Save the game record here after every move.")
    ] = None,
    resume: Annotated[
        Path | None, typer.Option("--resume", help="Resume a game saved with --save.")
    ] = None,
    timeout: Annotated[
        float, typer.Option(help="Seconds an external bot has per decision.", min=0.1)
    ] = 10.0,
) -> None:
    """Play a game in the terminal against bots."""
    from ..rules import Rules
    from ..tui.session import PlaySettings, run

    settings = PlaySettings(
        bots=list(bot) if bot else ["greedy", "greedy", "greedy"],
        name=name,
        seed=seed,
        seat=seat,
        rules=Rules(scoring.value, all_specials.value, all_flags.value, hand_start.value),
        save=save,
        resume=resume,
        timeout=timeout,
    )
    raise typer.Exit(run(settings))


@app.command()
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


@app.command()
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


@app.command()
def explain(
    bot: Annotated[str, typer.Option("--bot", "-b", help="The bot whose decision to explain: montecarlo or ismcts (with options).")] = "montecarlo",
    record_file: Annotated[
        Path | None, typer.Option("--record", "-r", help="Take the position from this host record.")
    ] = None,
    seats: Annotated[int, typer.Option(help="Seats of a fresh game (without --record).", min=3, max=6)] = 4,
    game_seed: Annotated[int, typer.Option("--game-seed", help="Seed of the fresh game.")] = 0,
    play_bots: Annotated[
        str, typer.Option("--bots", help="Bot that plays every seat of the fresh game up to the position.")
    ] = "greedy",
    hand: Annotated[int, typer.Option(help="Hand (1-based).", min=1)] = 1,
    trick: Annotated[
        int | None, typer.Option(help="Trick (1-based) for a roll decision; omit for the bid.", min=1)
    ] = None,
    roll: Annotated[int, typer.Option(help="Which roll of the trick (1 = the leader's).", min=1)] = 1,
    seat: Annotated[int | None, typer.Option(help="The seat deciding a bid (default 0).", min=0)] = None,
    seed: Annotated[int, typer.Option("--seed", help="The explaining bot's seed.")] = 0,
) -> None:
    """Show a search bot's decision: the expected score of every bid or die it could choose."""
    from ..bots import BotSpecError
    from ..bots.explain import explain_command

    rec = None
    if record_file is not None:
        try:
            rec = records.load(record_file)
        except records.RecordError as exc:
            typer.echo(f"{record_file}: {exc}", err=True)
            raise typer.Exit(2) from None
    try:
        explain_command(
            record=rec, seats=seats, game_seed=game_seed, hand=hand, trick=trick, roll=roll,
            seat=seat, spec=bot, seed=seed, bots=play_bots,
        )
    except (ValueError, BotSpecError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None


@app.command()
def bots() -> None:
    """List the built-in bots (use their names with --bot)."""
    from ..bots import BUILTIN

    table = Table(title="Bots", show_header=True)
    table.add_column("spec")
    table.add_column("plays")
    for name, (_factory, blurb) in BUILTIN.items():
        table.add_row(name, blurb)
    table.add_row("cmd:PROGRAM ARGS", "an external program speaking minodice-bot/1 (see examples/README.md)")
    Console().print(table)


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


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0: let others on the network in).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = 8000,
    db: Annotated[
        str, typer.Option(help="Database URL: sqlite:///FILE or postgresql+psycopg://USER@HOST/DB.")
    ] = "sqlite:///minodice.db",
    turn_timeout: Annotated[
        float, typer.Option(help="Seconds before a bot plays for a player who is gone.", min=0)
    ] = 60.0,
    bot_delay: Annotated[float, typer.Option(help="Seconds a bot waits before each move.", min=0)] = 0.8,
    idle_minutes: Annotated[
        float, typer.Option(help="Minutes before a table nobody watches expires.", min=0)
    ] = 120.0,
    workers: Annotated[int, typer.Option(help="Threads the bots think in.", min=1)] = 4,
) -> None:
    """Play in the browser: start the web server (lobby, tables, bots; games saved to --db)."""
    from ..server.serve import run

    run(host=host, port=port, db=db, turn_timeout=turn_timeout, bot_delay=bot_delay,
        idle_minutes=idle_minutes, workers=workers)


def _register_subcommands() -> None:
    """Commands that live with their packages (tournaments, bot-check, the companion tools)."""
    from .odds import register as register_odds
    from .sheet import register as register_sheet
    from .table import register as register_companion
    from .tournament import register as register_tournament

    register_tournament(app)
    register_companion(app)
    register_odds(app)
    register_sheet(app)


_register_subcommands()

if __name__ == "__main__":  # pragma: no cover
    app()
