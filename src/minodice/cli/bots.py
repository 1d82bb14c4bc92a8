"""`minodice explain` and `minodice bots`: a search bot's reasons, and the list of built-in bots."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..dice import MAX_SEATS, MIN_SEATS

__all__ = ["bots", "explain", "register"]


def explain(
    bot: Annotated[str, typer.Option("--bot", "-b", help="The bot whose decision to explain: montecarlo or ismcts (with options).")] = "montecarlo",
    record_file: Annotated[
        Path | None, typer.Option("--record", "-r", help="Take the position from this host record.")
    ] = None,
    seats: Annotated[int, typer.Option(help="Seats of a fresh game (without --record).", min=MIN_SEATS, max=MAX_SEATS)] = 4,
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
    as_json: Annotated[bool, typer.Option("--json", help="Print the explanation as one line of JSON.")] = False,
) -> None:
    """Show a search bot's decision: the expected score of every bid or die it could choose.

    Exit status: 0 done; 2 the --record file is unreadable or invalid, or an option is wrong.
    """
    from .. import record as records
    from ..bots import BotSpecError
    from ..bots.explain import explain_command
    from ..preparing import preparing
    from .errors import fail

    rec = None
    if record_file is not None:
        try:
            rec = records.load(record_file)
        except records.RecordError as exc:
            fail("explain", f"{record_file}: {exc}")
    try:
        with preparing("the search bot", 5):  # the first of an install compiles the simulator
            explain_command(
                record=rec, seats=seats, game_seed=game_seed, hand=hand, trick=trick, roll=roll,
                seat=seat, spec=bot, seed=seed, bots=play_bots, as_json=as_json,
            )
    except (ValueError, BotSpecError) as exc:
        fail("explain", str(exc))


def bots() -> None:
    """List the built-in bots with their options and defaults (use them with --bot, --seat)."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from ..bots import BUILTIN, CHEATS

    table = Table(title="Bots", show_header=True, show_lines=True)
    table.add_column("spec", no_wrap=True)
    table.add_column("plays")
    for name in BUILTIN:
        info = BUILTIN.info(name)
        cell = Text(f"[{CHEATS}] " if info.cheats else "", style="bold red")
        cell.append(info.plays)
        for option in info.options:
            cell.append(f"\n{option}", style="bold")
            cell.append(f"  {option.help}")
            cell.append(f" [{option.accepts}]", style="dim")
        table.add_row(name, cell)
    table.add_row("cmd:PROGRAM ARGS", "an external program speaking minodice-bot/1 (see docs/bot-protocol.md)")
    Console().print(table)
    Console().print("Options go after a colon: --bot ismcts:sims=400,c=0.5 (no value shown: off; in brackets: what "
                    "it takes). A level's name is a spec too: --bot expert.")


def register(app: typer.Typer) -> None:
    """Add `explain` and `bots` to the command-line app."""
    app.command()(explain)
    app.command()(bots)
