"""The `minodice odds` command: trick-win chances (exact), greedy bids made and die values (sampled).

`register(app)` adds it to a Typer app. Usage errors print one plain sentence to stderr and
exit with status 2.
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..analysis import MAX_OPPONENTS, MIN_OPPONENTS
from ..dice import MAX_SEATS, MIN_SEATS
from ..rules import RuleError, Rules
from .options import DEFAULT_VALUES, choice_help, fail, need

if TYPE_CHECKING:  # the odds load numba: imported where the command runs, so `minodice --help` stays instant
    from ..analysis.odds import BidOdds, DieValues, HandSample, WinChances

__all__ = ["MAX_SAMPLES", "MIN_SAMPLES", "odds", "parse_opponents", "register"]

#: Fewest games `--samples` accepts (fewer gives standard errors too large to read).
MIN_SAMPLES = 1000
#: Most games `--samples` accepts: their hands are held in memory, up to 0.4 kB a game at 6 players.
MAX_SAMPLES = 2_000_000


def parse_opponents(text: str) -> list[int]:
    """Opponent counts from 'all', '3', '2,4' or '2..5' (each from 2 to 5); ValueError in words."""
    text = text.strip().lower()
    if text == "all":
        return list(range(MIN_OPPONENTS, MAX_OPPONENTS + 1))
    counts: set[int] = set()
    for part in text.split(","):
        lo, sep, hi = part.partition("..")
        try:
            first, last = int(lo), int(hi if sep else lo)
        except ValueError:
            raise ValueError(f"--opponents takes 'all', a number, a list '2,4' or a range '2..5', not {text!r}") from None
        if not MIN_OPPONENTS <= first <= last <= MAX_OPPONENTS:
            raise ValueError(f"--opponents must lie between {MIN_OPPONENTS} and {MAX_OPPONENTS}, not {part!r}")
        counts.update(range(first, last + 1))
    return sorted(counts)


def odds(
    players: Annotated[int, typer.Option("--players", "-p", help="Players at the table (3 to 6).")] = 4,
    opponents: Annotated[
        str, typer.Option("--opponents", help="Opponent counts for the win-chance table: all, 3, 2,4 or 2..5.")
    ] = "all",
    samples: Annotated[
        int, typer.Option("--samples", "-n", help=f"Games to simulate (one hand of each size each; {MIN_SAMPLES:,} to "
                                                        f"{MAX_SAMPLES:,}).")
    ] = 200_000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the simulation (same seed, same numbers), 0 or more.",
                                      min=0)] = 1,
    all_specials: Annotated[
        str, typer.Option("--all-specials", help=choice_help("all_specials"))
    ] = DEFAULT_VALUES["all_specials"],
    all_flags: Annotated[str, typer.Option("--all-flags", help=choice_help("all_flags"))] = DEFAULT_VALUES["all_flags"],
    scoring: Annotated[
        str, typer.Option("--scoring", help=choice_help("scoring") + " It changes greedy bids.")
    ] = DEFAULT_VALUES["scoring"],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")] = False,
    plot: Annotated[Path | None, typer.Option("--plot", help="Also draw the odds into this PNG file.")] = None,
    progress: Annotated[bool | None, typer.Option(
        "--progress/--no-progress", help="Show progress on stderr while sampling [default: when stderr is a terminal].",
        show_default=False)] = None,
) -> None:
    """The odds players ask about: a die's chance to win a trick, how often good bids are made, what a die is worth.

    Every table says whether it is exact or sampled and explains its cells below it; the tables fit 80 columns.
    """
    if not MIN_SEATS <= players <= MAX_SEATS:
        fail("odds", f"--players must be from {MIN_SEATS} to {MAX_SEATS}, not {players}")
    if samples < MIN_SAMPLES:
        fail("odds", f"--samples must be at least {MIN_SAMPLES:,} games, not {samples}")
    if samples > MAX_SAMPLES:
        fail("odds", f"--samples may be at most {MAX_SAMPLES:,} games (each game's hands are held in memory), "
                     f"not {samples:,}")
    if plot is not None and plot.suffix.lower() != ".png":
        fail("odds", f"--plot writes a PNG file: give a name ending in .png, not {str(plot)!r}")
    if plot is not None:
        need("plots", "matplotlib")
    try:
        counts = parse_opponents(opponents)
        rules = Rules(scoring=scoring, all_specials=all_specials, all_flags=all_flags)
    except (ValueError, RuleError) as exc:
        fail("odds", str(exc))
    from ..analysis.odds import bid_odds, die_values, win_chances
    from ..preparing import preparing

    started = time.perf_counter()
    tables = [win_chances(k, rules) for k in counts]
    position = win_chances(players - 1, rules)
    exact_seconds = time.perf_counter() - started
    with preparing("the simulator", 5):  # the first odds of an install compile it
        sample = _sample(players, samples, seed, rules, progress)
    bids, values = bid_odds(sample), die_values(sample)
    sampled_seconds = time.perf_counter() - started - exact_seconds
    if plot is not None:
        try:
            from ..tui.odds import plot_odds

            plot_odds(plot, tables, bids, players)
        except OSError as exc:
            fail("odds", f"cannot write {str(plot)!r}: {exc.strerror or exc}")
    if as_json:
        typer.echo(json.dumps(_as_json(players, rules, tables, position, bids, values, samples, seed)))
        return
    from rich.console import Console

    from ..tui.odds import odds_tables

    console = Console()
    for table in odds_tables(tables, position, bids, values, players):
        console.print(table)
        console.print()
    console.print(
        f"exact tables: {exact_seconds:.1f} s; sampled tables: {samples:,} games, seed {seed}, {sampled_seconds:.1f} s"
        + (f"; plot written to {plot}" if plot is not None else "")
    )


def _sample(players: int, games: int, seed: int, rules: Rules, show: bool | None) -> HandSample:
    """`simulate_hands`, with a progress bar on stderr if `show` (None: when stderr is a terminal)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TimeRemainingColumn

    from ..analysis.odds import simulate_hands

    err = Console(stderr=True)
    if not (err.is_terminal if show is None else show):
        return simulate_hands(players, games, seed, rules)
    columns = (SpinnerColumn(), "{task.description}", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=err, transient=err.is_terminal) as bar:
        task = bar.add_task(f"sampling games ({players} players)", total=games)
        return simulate_hands(players, games, seed, rules, progress=lambda done: bar.update(task, completed=done))


def _as_json(
    players: int,
    rules: Rules,
    tables: list[WinChances],
    position: WinChances,
    bids: list[BidOdds],
    values: list[DieValues],
    samples: int,
    seed: int,
) -> dict[str, object]:
    """Everything `odds` shows, as one JSON-ready object (NaN becomes null)."""

    def clean(x: Any) -> Any:  # JSON in, JSON out
        if isinstance(x, float) and math.isnan(x):
            return None
        if isinstance(x, dict):
            return {k: clean(v) for k, v in x.items()}
        if isinstance(x, list):
            return [clean(v) for v in x]
        return x

    return clean(
        {
            "players": players,
            "rules": rules.to_dict(),
            "win_chance": {"exact": True, "tables": [t.to_dict() for t in tables]},
            "by_position": position.to_dict(),
            "bids": {"sampled": True, "games": samples, "seed": seed, "hands": [b.to_dict() for b in bids]},
            "die_values": {"sampled": True, "games": samples, "seed": seed, "hands": [v.to_dict() for v in values]},
        }
    )


def register(app: typer.Typer) -> None:
    """Add the `odds` command to `app`."""
    app.command("odds")(odds)
