"""The `minodice` command: one Typer app, one module per command group (play, records, bots, review, train, serve, tournament, table, odds, sheet, warm).

A command loads only its own group: `minodice trick red:6 gray:flag` imports the table
tools' module and builds their two commands, not the other ten, so the referee answers
at once (see `benchmarks/bench_startup.py`). With no command named (`minodice --help`,
`--version`, shell completion) the top level lists every command from its registration
and builds one only when it is asked for (`LazyCommands`). `app`, the whole command line,
is built on first use, for tests. Every group is a `group.Commands`: one-line refusals
(`errors`), Ctrl-C, completion and help alike.
"""

from __future__ import annotations

import inspect
import sys
import warnings
from importlib import import_module
from typing import Annotated, Any, TextIO

import typer

from .. import __version__
from .group import Commands, summary

__all__ = ["COMMAND_GROUPS", "LazyCommands", "app", "build_app", "group_of", "main", "top_level"]

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
    """Mino Dice, the dice game of bids and tricks (first published as Skull King: Das Würfelspiel): play it
    against bots in the terminal or with others in the browser; keep the score, referee the tricks and get bid
    advice at a table with real dice; see the odds; check, replay and review game records; and list, explain,
    train and test bots.

    `minodice COMMAND --help` shows a command's options. Exit status: 0 done; 1 a fault found (in a record, a
    trick or a bot); 2 bad usage or input, said in one line (`minodice COMMAND: what is wrong`); 130
    interrupted (Ctrl-C), with a line saying what was saved.
    """


def _typer(cls: type[Commands]) -> typer.Typer:
    """A Typer app of `cls` with the top level's options (`--version`, completion) and help, no commands yet."""
    new = typer.Typer(
        cls=cls,
        name="minodice",  # the program's name where none is given (tests' runners)
        no_args_is_help=True,
        context_settings={"help_option_names": ["-h", "--help"]},
        # Plain help, as git and pip print it: Typer's boxed help loads Markdown and Pygments (~40 ms a command).
        rich_markup_mode=None,
    )
    new.callback()(_main)
    return new


def build_app(groups: tuple[str, ...] = tuple(COMMAND_GROUPS)) -> typer.Typer:
    """A Typer app holding the commands of `groups` (all of them by default)."""
    new = _typer(Commands)
    for group in groups:
        import_module(f".{group}", __name__).register(new)
    return new


class LazyCommands(Commands):
    """The top level when no command is named: every command listed (with its help) from its registration,
    each built only when asked for (a completion, a typo's suggestions), so `minodice --help` is quick."""

    def list_commands(self, ctx: Any) -> list[str]:
        return [name for names in COMMAND_GROUPS.values() for name in names]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        group = group_of(cmd_name)
        if group is not None and cmd_name not in self.commands:
            built: Any = typer.main.get_command(build_app((group,)))  # a Typer app of commands builds a group
            self.commands.update(built.commands)
        return self.commands.get(cmd_name)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        if args and group_of(args[0]) is None:  # a typo: every command, for Typer's "did you mean"
            for name in self.list_commands(ctx):
                self.get_command(ctx, name)
        return super().resolve_command(ctx, args)

    def command_rows(self, ctx: Any) -> list[tuple[str, str]]:
        rows = []
        for info in build_app().registered_commands:  # registered, not built: no options are read
            if info.hidden or info.callback is None:
                continue
            name = info.name or info.callback.__name__.lower().replace("_", "-")
            rows.append((name, info.short_help or summary(info.help or inspect.getdoc(info.callback) or "")))
        return rows


def top_level() -> typer.Typer:
    """The app `main` runs when no command is named: every command listed, none built until asked for."""
    return _typer(LazyCommands)


def group_of(command: str) -> str | None:
    """The command group `command` belongs to (None if there is no such command)."""
    return next((group for group, names in COMMAND_GROUPS.items() if command in names), None)


def _group_of(argv: list[str]) -> str | None:
    """The command group of the command named in `argv` (the first word that is not an option), if any;
    none when the top level's help is asked for before it (`minodice --help play`: every command's help)."""
    for arg in argv:
        if arg in ("-h", "--help"):
            return None
        if not arg.startswith("-"):
            return group_of(arg)
    return None


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
    """The console script (and `python -m minodice`): runs the command asked for, loading only its group;
    with none named, the top level that builds a command only when asked for (`LazyCommands`)."""
    warnings.showwarning = _one_line
    group = _group_of(sys.argv[1:])
    top = build_app((group,)) if group else top_level()
    return top(prog_name="minodice")


def __getattr__(name: str) -> Any:
    """`app`, the whole command line, built on first use (PEP 562)."""
    if name == "app":
        globals()["app"] = whole = build_app()
        return whole
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":  # pragma: no cover
    main()
