"""The `minodice` command: one Typer app, one module per command group (play, records, bots, review, train, serve, tournament, table, odds, sheet, warm).

A command loads only its own group: `minodice trick red:6 gray:flag` imports the table
tools' module and builds their two commands, not the other ten, so the referee answers
at once (see `benchmarks/bench_startup.py`). `app`, the whole command line, is built on
first use, for `minodice --help` and for tests.
"""

from __future__ import annotations

import sys
import warnings
from importlib import import_module
from typing import Annotated, Any, TextIO

import typer

from .. import __version__

__all__ = ["COMMAND_GROUPS", "app", "build_app", "main"]

#: The command groups in the order `minodice --help` lists them, each with its commands.
#: `tests/test_cli_startup.py` checks this against what each module registers.
COMMAND_GROUPS: dict[str, tuple[str, ...]] = {
    "play": ("play",),
    "records": ("verify", "replay"),
    "bots": ("explain", "bots"),
    "review": ("analyze",),
    "train": ("train",),
    "serve": ("serve",),
    "tournament": ("tournament", "bot-check"),
    "table": ("advise", "trick"),
    "odds": ("odds",),
    "sheet": ("sheet",),
    "warm": ("warm",),  # hidden: `make play` and `make serve` run it once per install
}


def _version(value: bool) -> None:
    if value:
        typer.echo(f"minodice {__version__}")
        raise typer.Exit()


def _main(
    version: Annotated[
        bool | None,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit."),
    ] = None,
) -> None:
    """Mino Dice — the dice game of bids and tricks (first published as Skull King: Das Würfelspiel)."""


def build_app(groups: tuple[str, ...] = tuple(COMMAND_GROUPS)) -> typer.Typer:
    """A Typer app holding the commands of `groups` (all of them by default)."""
    new = typer.Typer(
        help="Mino Dice: play in the terminal, check and replay game records.",
        no_args_is_help=True,
        add_completion=False,
        context_settings={"help_option_names": ["-h", "--help"]},
        # Plain help, as git and pip print it: Typer's boxed help loads Markdown and Pygments (~40 ms a command).
        rich_markup_mode=None,
    )
    new.callback()(_main)
    for group in groups:
        import_module(f".{group}", __name__).register(new)
    return new


def _group_of(argv: list[str]) -> str | None:
    """The command group of the command named in `argv` (the first word that is not an option), if any."""
    word = next((arg for arg in argv if not arg.startswith("-")), None)
    return next((group for group, names in COMMAND_GROUPS.items() if word in names), None)


_show_warning = warnings.showwarning


def _one_line(
    message: Warning | str, category: type[Warning], filename: str, lineno: int,
    file: TextIO | None = None, line: str | None = None,
) -> None:
    """minodice's own warnings (e.g. running without numba) as one plain line on stderr; others as Python shows them."""
    if category.__module__.startswith("minodice"):
        print(f"minodice: {message}", file=sys.stderr)
    else:
        _show_warning(message, category, filename, lineno, file, line)


def main() -> Any:
    """The console script: runs the command asked for, loading only its group (all of them for help)."""
    warnings.showwarning = _one_line
    group = _group_of(sys.argv[1:])
    return (build_app((group,)) if group else build_app())()


def __getattr__(name: str) -> Any:
    """`app`, the whole command line, built on first use (PEP 562)."""
    if name == "app":
        globals()["app"] = whole = build_app()
        return whole
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":  # pragma: no cover
    main()
