"""`minodice.cli.tournament`: the `minodice tournament` and `minodice bot-check` commands.

`register(app)` adds both to a Typer app (the `minodice` command calls it); the
work is done by `minodice.tournament` and `minodice.tournament.botcheck`. The
rule options are Typer choices derived from `rules.RULE_OPTIONS` (`cli.options`).
Usage errors print one line to stderr, `minodice tournament: what is wrong`, and exit with status 2.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..analysis import DEFAULT_LUCK_PLAYOUTS, MAX_LUCK_PLAYOUTS
from ..bots import BUILTIN
from ..dice import MAX_SEATS, MIN_SEATS
from .errors import EXIT_FAULT, EXIT_INTERRUPTED, NOTHING_SAVED
from .options import (
    DEFAULTS,
    AllFlagsOption,
    AllSpecialsOption,
    Finite,
    HandStartOption,
    ScoringOption,
    fail,
    need,
    rules_from,
)

#: Seconds an external bot may take a decision (`--timeout`): 0.1 to an hour.
TIMEOUT = Finite(0.1, 3600)

if TYPE_CHECKING:
    from rich.console import Console

    from ..rules import Rules
    from ..tournament.config import TournamentConfig
    from ..tournament.run import Outcome

__all__ = ["register"]


class Backend(str, Enum):
    local = "local"
    ray = "ray"


def _console() -> Console:
    """The console for reports: the terminal's width, or 120 columns when piped (tables stay whole)."""
    from rich.console import Console

    out = Console()
    return out if out.is_terminal else Console(width=max(out.width, 120))


def tournament(
    seat: Annotated[
        list[str] | None,
        typer.Option(
            "--seat",
            "-s",
            help=f"An entrant, one per seat (3 to 6): a built-in bot ({BUILTIN.names()}; options and "
            "defaults: `minodice bots`), or 'cmd:PROGRAM ARGS' for an external bot.",
            show_default=False,
        ),
    ] = None,
    games: Annotated[
        int, typer.Option("--games", "-g", help="Games to play (duplicate mode: a multiple of the seat count).")
    ] = 240,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed of every deal and bot (default: a random one, shown).")
    ] = None,
    duplicate: Annotated[
        bool,
        typer.Option(
            "--duplicate/--no-duplicate",
            help="Duplicate play: every deal once per rotation of the entrants, same dice and faces "
            "per seat position (luck cancels); --no-duplicate: independent random games.",
        ),
    ] = True,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Games played at once (worker processes or Ray actors).")] = 1,
    backend: Annotated[
        Backend, typer.Option(help="local: this machine (a process pool when --jobs > 1); ray: Ray tasks.")
    ] = Backend.local,
    address: Annotated[
        str | None, typer.Option(help="With --backend ray: the address of a Ray cluster to join.")
    ] = None,
    timeout: Annotated[float, typer.Option(help="Seconds an external bot has per decision.", click_type=TIMEOUT)] = 10.0,
    scoring: ScoringOption = DEFAULTS["scoring"],
    all_specials: AllSpecialsOption = DEFAULTS["all_specials"],
    all_flags: AllFlagsOption = DEFAULTS["all_flags"],
    hand_start: HandStartOption = DEFAULTS["hand_start"],
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as one JSON object.")] = False,
    records: Annotated[
        Path | None, typer.Option("--records", help="Write every game as a minodice/1 record into this directory.")
    ] = None,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Draw score distributions and ratings to this image (.png).")
    ] = None,
    luck: Annotated[
        bool,
        typer.Option(
            "--luck",
            help="Also report every score less the luck of its faces (what each face rolled gave a seat, judged "
            "by greedy playouts on the full deal): unbiased, and several times less noisy. Costs about 0.1 s "
            "a game.",
        ),
    ] = False,
    luck_playouts: Annotated[
        int,
        typer.Option("--luck-playouts", help=f"With --luck: playouts that judge each face (1 to {MAX_LUCK_PLAYOUTS:,})."),
    ] = DEFAULT_LUCK_PLAYOUTS,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Play a tournament between bots and report honest statistics.

    Statistics per entrant: mean score per game with a 95% t-interval over deals (paired: luck cancels),
    mean place, win rate, bids made, bonus per hand, decision times, faults and an openskill rating; and
    every pair's mean score difference with its paired 95% interval. With --luck, the same less the luck of
    the faces. Exit status: 0 done; 1 a failure while playing (a worker, Ray) or drawing the plot; 2 an
    option is wrong; 130 interrupted (the line says how many games were played, and where their records are).
    """
    specs = list(seat or [])
    _check_options(specs, jobs, backend, address, plot)
    _check_luck(luck, luck_playouts)
    if seed is None:
        import secrets

        seed = secrets.randbelow(2**31)
    rules = rules_from(scoring, all_specials, all_flags, hand_start)
    with _preparing(specs, luck):
        config = _config(specs, games=games, seed=seed, duplicate=duplicate, rules=rules, timeout=timeout,
                         records=records, luck=luck_playouts if luck else 0)
    outcome = _run(config, jobs=jobs, backend=backend, address=address, records=records, quiet=quiet)
    _report(outcome, as_json=as_json, quiet=quiet, jobs=jobs, backend=backend, records=records, plot=plot)


@contextlib.contextmanager
def _preparing(specs: list[str], luck: bool) -> Iterator[None]:
    """Around setting up: on a first run (before `minodice warm`) the entrants' kernels (and luck's, the
    simulator's) are compiled here, a line saying so, not while the progress bar waits."""
    from ..jitcache import warmed
    from ..preparing import preparing
    from ..warm import prepare_bots, prepare_seconds

    with preparing("the bots", prepare_seconds(specs)):
        yield
        if not warmed():
            prepare_bots([*specs, *(["montecarlo"] if luck else [])], len(specs))


def _check_options(specs: list[str], jobs: int, backend: Backend, address: str | None, plot: Path | None) -> None:
    """Refuse, as a usage error, options that cannot work together (before any game is played)."""
    if not MIN_SEATS <= len(specs) <= MAX_SEATS:
        fail(
            "tournament",
            f"a tournament needs {MIN_SEATS} to {MAX_SEATS} entrants, one --seat each "
            f"(e.g. --seat greedy --seat random --seat random), not {len(specs)}",
        )
    if jobs < 1:
        fail("tournament", f"--jobs must be at least 1, not {jobs}")
    if address and backend is not Backend.ray:
        fail("tournament", "--address joins a Ray cluster: use it with --backend ray")
    if backend is Backend.ray:
        need("ray", "ray")
    if plot is not None:
        need("plots", "matplotlib")
        from matplotlib.backend_bases import FigureCanvasBase

        kinds = FigureCanvasBase.get_supported_filetypes()
        if plot.suffix.lower().lstrip(".") not in kinds:
            fail("tournament", f"--plot {plot}: name an image file ending in one of "
                   + ", ".join(f".{k}" for k in sorted(kinds)))
        if not plot.parent.is_dir():
            fail("tournament", f"--plot {plot}: the directory {str(plot.parent)!r} does not exist")


def _check_luck(luck: bool, playouts: int) -> None:
    """Refuse, as a usage error, a luck budget out of range or given without --luck."""
    if not luck and playouts != DEFAULT_LUCK_PLAYOUTS:
        fail("tournament", "--luck-playouts sets how the luck is measured: give it with --luck")
    if luck and not 1 <= playouts <= MAX_LUCK_PLAYOUTS:
        fail("tournament", f"--luck-playouts must be 1 to {MAX_LUCK_PLAYOUTS:,}, not {playouts}")


def _config(
    specs: list[str], *, games: int, seed: int, duplicate: bool, rules: Rules, timeout: float, records: Path | None,
    luck: int = 0,
) -> TournamentConfig:
    """The tournament to play (and the records directory made ready); a usage error if it cannot be."""
    from ..tournament.config import TournamentConfig, TournamentError, entrants_from_specs
    from ..tournament.run import prepare_records_dir

    try:
        config = TournamentConfig(
            entrants_from_specs(specs, timeout=timeout),
            games=games, seed=seed, duplicate=duplicate, rules=rules, timeout=timeout, luck=luck,
        )
        if records is not None:
            prepare_records_dir(records)
    except TournamentError as exc:
        fail("tournament", str(exc))
    return config


def _run(
    config: TournamentConfig, *, jobs: int, backend: Backend, address: str | None, records: Path | None, quiet: bool
) -> Outcome:
    """Play the tournament with a progress bar on a terminal; exit 1 on a failure while running, 130 on Ctrl-C."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from ..tournament.config import TournamentError
    from ..tournament.run import run_tournament

    err = Console(stderr=True)
    progress = Progress(
        TextColumn("[bold]tournament"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
        TimeRemainingColumn(), console=err, disable=quiet or not err.is_terminal, transient=True,
    )
    task = progress.add_task("games", total=config.games)
    played = 0

    def on_game(_result: object) -> None:
        nonlocal played
        played += 1
        progress.advance(task)

    try:
        with progress:
            return run_tournament(
                config, jobs=jobs, backend=backend.value, address=address, records_dir=records, on_game=on_game
            )
    except TournamentError as exc:  # found while running (Ray, a worker): not a usage error
        fail("tournament", str(exc), EXIT_FAULT)
    except KeyboardInterrupt:
        kept = f"the records of those games are in {records}" if records is not None and played else NOTHING_SAVED
        fail("tournament", f"interrupted after {played} of {config.games} games; {kept}", EXIT_INTERRUPTED)


def _report(
    outcome: Outcome, *, as_json: bool, quiet: bool, jobs: int, backend: Backend,
    records: Path | None, plot: Path | None,
) -> None:
    """Print the results (a table, or JSON), the timing line unless quiet, and draw the plot if asked."""
    from rich.console import Console

    from ..tournament.report import plot as draw_plot
    from ..tournament.report import render, to_json

    summary = outcome.summary
    if as_json:
        typer.echo(json.dumps(to_json(summary), ensure_ascii=False))
    else:
        _console().print(render(summary))
    if not quiet:
        Console(stderr=True).print(
            f"{summary.games} games in {outcome.seconds:.1f} s "
            f"({outcome.games_per_second:.1f} games/s, {jobs} job{'s' if jobs > 1 else ''}, {backend.value})"
            + (f"; records in {records}" if records is not None else ""),
            highlight=False,
        )
    if plot is not None:
        try:
            draw_plot(summary, plot)
        except (OSError, ValueError) as exc:
            fail("tournament", f"could not draw the plot {plot}: {exc}", EXIT_FAULT)


def bot_check(
    spec: Annotated[
        str,
        typer.Argument(help="The bot to check: 'cmd:PROGRAM ARGS' (or a built-in bot's name).", show_default=False),
    ],
    games: Annotated[int | None, typer.Option("--games", "-g", help="Games to play (default: one of each check game, 6).")] = None,
    timeout: Annotated[float, typer.Option(help="Seconds the bot has per decision.", click_type=TIMEOUT)] = 10.0,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the dice and the opponents.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as one JSON object.")] = False,
) -> None:
    """Check a bot against the protocol: faults, decision times, a PASS/FAIL verdict.

    Plays a few games (3 to 6 seats, several rule options, awkward positions) with
    one process, against the built-in bots. Exit status: 0 PASS, 1 FAIL, 2 usage error.
    """
    from ..tournament.botcheck import BotCheckError, check_bot, render, to_json

    try:
        report = check_bot(spec, games=games, timeout=timeout, seed=seed)
    except BotCheckError as exc:
        fail("bot-check", str(exc))
    if as_json:
        typer.echo(json.dumps(to_json(report), ensure_ascii=False))
    else:
        _console().print(render(report))
    raise typer.Exit(0 if report.passed else 1)


def register(app: typer.Typer) -> None:
    """Add the `tournament` and `bot-check` commands to `app`."""
    app.command("tournament")(tournament)
    app.command("bot-check")(bot_check)


if __name__ == "__main__":  # pragma: no cover - `python -m minodice.cli.tournament tournament ...`
    from . import build_app

    build_app(("tournament",))(prog_name="minodice")
