"""The `minodice` command: one Typer app, one module per command group (play, records, bots, serve, tournament, table, odds, sheet)."""

from __future__ import annotations

from typing import Annotated

import typer

from .. import __version__

app = typer.Typer(
    help="Mino Dice: play in the terminal, check and replay game records.",
    no_args_is_help=True,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


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


def _register_commands() -> None:
    """Every command group, one module each, in the order `minodice --help` lists them."""
    from . import bots, odds, play, records, serve, sheet, table, tournament

    for group in (play, records, bots, serve, tournament, table, odds, sheet):
        group.register(app)


_register_commands()

if __name__ == "__main__":  # pragma: no cover
    app()
