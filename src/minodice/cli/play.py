"""`minodice play`: a game in the terminal against bots."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..analysis import MAX_OPPONENTS, MIN_OPPONENTS
from ..bots import BUILTIN
from ..bots.levels import find_level, level_names
from ..bots.levels import summary as level_summary
from ..dice import MAX_SEATS, MIN_SEATS
from .options import (
    DEFAULTS,
    AllFlagsOption,
    AllSpecialsOption,
    Finite,
    HandStartOption,
    ScoringOption,
    fail,
    rules_from,
)

if TYPE_CHECKING:
    from ..tui.runnable import Runnable

__all__ = ["play", "register", "runnable_here"]


if TYPE_CHECKING:  # built at run time from the levels: to a type checker, just an Enum
    LevelName = Enum
else:
    LevelName = Enum("LevelName", {name: name for name in level_names()}, type=str)

#: Options a resumed game takes from its file: given with --resume they are refused, not ignored.
SET_BY_THE_SAVE = ("bot", "level", "opponents", "name", "seat", "scoring", "all_specials", "all_flags", "hand_start")

#: Bots at the table when they are not named one by one (--level, or the default greedy).
DEFAULT_OPPONENTS = 3

OpponentsOption = Annotated[
    int | None,
    typer.Option(
        "--opponents",
        "-o",
        min=MIN_OPPONENTS,
        max=MAX_OPPONENTS,
        help=f"How many bots sit with you when --level (or the default, greedy) chooses them: "
        f"{MIN_OPPONENTS} to {MAX_OPPONENTS}, a table of {MIN_SEATS} to {MAX_SEATS}. "
        f"[default: {DEFAULT_OPPONENTS}] Not with --bot: each --bot is one seat.",
    ),
]


def _refuse_options_a_save_sets(ctx: typer.Context) -> None:
    """Exit 2 naming the options given with --resume that the saved game already fixes."""
    given = [name for name in SET_BY_THE_SAVE
             if (source := ctx.get_parameter_source(name)) is not None and source.name != "DEFAULT"]
    if given:
        flags = ", ".join("--" + name.replace("_", "-") for name in given)
        fail("play", f"{flags} cannot change a resumed game: its players, seats and rules "
                     "come from the save file (leave them out)")


def play(
    ctx: typer.Context,
    bot: Annotated[
        list[str] | None,
        typer.Option(
            "--bot",
            "-b",
            help=f"A bot for one other seat (repeat: {MIN_OPPONENTS} to {MAX_OPPONENTS} times). Built-in, with "
            f"their options' defaults: {BUILTIN.summary()}; or cmd:PROGRAM for an external bot (see "
            f"`minodice bots`). Default: {DEFAULT_OPPONENTS} greedy.",
        ),
    ] = None,
    level: Annotated[
        LevelName | None,
        typer.Option(
            "--level",
            "-l",
            help=f"Play against bots of one level instead of choosing them (each level's bot and "
            f"budget: {level_summary()}). Not with --bot.",
        ),
    ] = None,
    opponents: OpponentsOption = None,
    name: Annotated[str, typer.Option("--name", "-n", help="Your name at the table.")] = "You",
    seed: Annotated[
        int | None,
        typer.Option("--seed", help="Seed for dice and bots: same seed, same game. A game saved by play "
                     "resumes with its own seed (a different --seed is refused)."),
    ] = None,
    seat: Annotated[
        int, typer.Option("--seat", help="Your seat (0 = start player of hand 1).", min=0, max=MAX_SEATS - 1)
    ] = 0,
    scoring: ScoringOption = DEFAULTS["scoring"],
    all_specials: AllSpecialsOption = DEFAULTS["all_specials"],
    all_flags: AllFlagsOption = DEFAULTS["all_flags"],
    hand_start: HandStartOption = DEFAULTS["hand_start"],
    save: Annotated[
        Path | None, typer.Option("--save", help="Save the game record here after every move.")
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option("--resume", help="Resume a saved game (--save, quit or Ctrl-C): the same dice "
                     "and bots' choices as if it had never stopped."),
    ] = None,
    timeout: Annotated[
        float, typer.Option(help="Seconds an external bot has per decision (0.1 to 3600).",
                            click_type=Finite(0.1, 3600))
    ] = 10.0,
    trust_bots: Annotated[
        bool, typer.Option("--trust-bots", help="With --resume: start the external programs (cmd: bots) the "
                           "save file names. Without it such a file is refused: a file can name any program.")
    ] = False,
) -> None:
    """Play a game in the terminal against bots.

    Exit status: 0 the game ended, or you left it (quit, end of input: it is saved, and a line says how to
    resume it); 2 the game cannot be set up as asked (a wrong option, a save file that cannot be resumed);
    130 interrupted (Ctrl-C: saved the same way).
    """
    from ..tui.session import PlaySettings, run

    if resume is not None:
        _refuse_options_a_save_sets(ctx)

    settings = PlaySettings(
        bots=_bots(bot, level, opponents),
        level=None if level is None else level.value,
        name=name,
        seed=seed,
        seat=seat,
        rules=rules_from(scoring, all_specials, all_flags, hand_start),
        save=save,
        resume=resume,
        timeout=timeout,
        trust_bots=trust_bots,
        runnable=runnable_here(),
    )
    raise typer.Exit(run(settings))


def runnable_here() -> Runnable:
    """How the person who started this program runs minodice from where they are, for the lines the game
    prints them to run next: `minodice` when that is this program on their PATH, else this program's path
    (relative when it lies below the current folder), and make's target when `make play` started the game
    (the Makefile says so in MINODICE_MAKE; make itself sets MAKELEVEL)."""
    from ..tui.runnable import Runnable

    make = os.environ.get("MINODICE_MAKE") if "MAKELEVEL" in os.environ else None
    return Runnable(_program(), make=make or None)


def _program() -> str:
    """This program as the person can type it here (see `runnable_here`)."""
    script = Path(sys.argv[0])
    on_path = shutil.which("minodice")
    if script.stem == "minodice" and script.is_file():  # the console script
        if on_path is not None and os.path.samefile(on_path, script):
            return "minodice"
        return shlex.quote(_typed(script))
    if on_path is not None:  # e.g. `python -m minodice`, with the console script on the PATH
        return "minodice"
    return f"{shlex.quote(_typed(Path(sys.executable)))} -m minodice"


def _typed(path: Path) -> str:
    """`path` as a shell runs it from here: relative below the current folder (`.venv/bin/minodice`), else whole."""
    whole = path.absolute()  # not resolved: a venv's python is a link that must stay the venv's
    try:
        below = whole.relative_to(Path.cwd())
    except ValueError:
        return str(whole)
    return str(below) if len(below.parts) > 1 else f"./{below}"


def _bots(bots: list[str] | None, level: Enum | None, opponents: int | None) -> list[str]:
    """The other seats' bot specs: those given with --bot, or `opponents` (default 3) of --level's bot
    or of greedy."""
    if bots and level is not None:
        fail("play", "--level chooses every other seat's bot: give --level or --bot, not both")
    if bots and opponents is not None:
        fail("play", "--opponents sets how many bots --level (or the default, greedy) seats; with --bot each "
                     "--bot is one seat: give --opponents or --bot, not both")
    if bots:
        return list(bots)
    count = DEFAULT_OPPONENTS if opponents is None else opponents
    if level is None:
        return ["greedy"] * count
    found = find_level(level.value)
    assert found is not None  # Typer checked the choice
    return [str(found.spec)] * count


def register(app: typer.Typer) -> None:
    """Add `play` to the command-line app."""
    app.command()(play)
