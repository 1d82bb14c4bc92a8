"""The `minodice odds` command: trick-win chances (exact), greedy bids made and die values (sampled).

`register(app)` adds it to a Typer app. Usage errors print one plain sentence to stderr and
exit with status 2.
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.table import Table

from ..analysis.odds import (
    MAX_OPPONENTS,
    MIN_OPPONENTS,
    BidOdds,
    DieValues,
    WinChances,
    bid_odds,
    die_values,
    simulate_hands,
    win_chances,
)
from ..dice import BAG_COUNTS, MAX_SEATS, MIN_SEATS, Die
from ..rules import RuleError, Rules
from .options import DEFAULT_VALUES, choice_help

__all__ = ["MIN_SAMPLES", "odds", "parse_opponents", "register"]

#: Fewest games `--samples` accepts (fewer gives standard errors too large to read).
MIN_SAMPLES = 1000


def _usage(message: str) -> NoReturn:
    """Print a usage error in words and exit with status 2."""
    typer.echo(f"minodice odds: {message}", err=True)
    raise typer.Exit(2)


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


def _pct(p: float) -> str:
    return "—" if math.isnan(p) else f"{100 * p:.1f}%"


def _win_table(tables: list[WinChances]) -> Table:
    table = Table(title="Chance to win a trick with one die (exact; rolling position random)")
    table.add_column("die (in bag)")
    for t in tables:
        table.add_column(f"vs {t.opponents}", justify="right")
    for d in Die:
        table.add_row(f"{d.value} ({BAG_COUNTS[d]})", *(_pct(t.chance[d]) for t in tables))
    return table


def _position_table(t: WinChances) -> Table:
    players = t.opponents + 1
    table = Table(title=f"By rolling position, {players} players (exact)")
    table.add_column("die")
    for i in range(players):
        table.add_column("first" if i == 0 else "last" if i == players - 1 else f"#{i + 1}", justify="right")
    for d in Die:
        table.add_row(d.value, *(_pct(p) for p in t.by_position[d]))
    return table


def _bid_table(rows: list[BidOdds], players: int) -> Table:
    hands = len(rows)
    table = Table(
        title=f"Greedy bids by hand size, {players} players (sampled: {rows[0].games:,} games, "
        f"{rows[0].samples:,} bids per hand size)",
        caption="cell: share of bids · share of those bids made; ± one standard error on 'made'",
    )
    table.add_column("dice")
    for b in range(hands + 1):
        table.add_column(f"bid {b}", justify="right")
    table.add_column("made", justify="right")
    for r in rows:
        cells = []
        for b in range(hands + 1):
            if b > r.hand or r.share[b] == 0:
                cells.append("")
            else:
                cells.append(f"{_pct(r.share[b])} · {_pct(r.made[b])}")
        table.add_row(str(r.hand), *cells, f"{_pct(r.made_all)} ±{100 * r.made_all_se:.2f}")
    return table


def _value_table(rows: list[DieValues]) -> Table:
    table = Table(
        title=f"Tricks one die is worth, by hand size (sampled: {rows[0].samples:,} hands per size; greedy play)",
        caption="least squares of tricks won on the dice held; ± one standard error",
    )
    table.add_column("die")
    for r in rows:
        table.add_column(f"{r.hand}", justify="right")
    for d in Die:
        table.add_row(
            d.value,
            *(f"{r.value[d]:.3f} ±{r.se[d]:.3f}" if d in r.value else "—" for r in rows),
        )
    return table


def _plot(path: Path, tables: list[WinChances], bids: list[BidOdds], players: int) -> None:
    """Bars of win chance per kind per opponent count, and of bids made per hand size."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(13, 4.8))
    kinds = list(Die)
    width = 0.8 / max(len(tables), 1)
    for i, t in enumerate(tables):
        xs = [j + (i - (len(tables) - 1) / 2) * width for j in range(len(kinds))]
        ax1.bar(xs, [t.chance[d] for d in kinds], width, label=f"{t.opponents} opponents")
    ax1.set_xticks(range(len(kinds)), [d.value for d in kinds])
    ax1.set_ylabel("chance to win the trick")
    ax1.set_title("One die vs random dice from the bag (exact)")
    ax1.legend()
    ax2.bar(
        [r.hand for r in bids], [r.made_all for r in bids], yerr=[r.made_all_se for r in bids], color="tab:green"
    )
    ax2.set_xlabel("dice in the hand")
    ax2.set_ylabel("share of greedy bids made")
    ax2.set_ylim(0, 1)
    ax2.set_title(f"Greedy bids made, {players} players (sampled, {bids[0].games:,} games)")
    fig.tight_layout()
    fig.savefig(path, format="png", dpi=100)
    plt.close(fig)


def odds(
    players: Annotated[int, typer.Option("--players", "-p", help="Players at the table (3 to 6).")] = 4,
    opponents: Annotated[
        str, typer.Option("--opponents", help="Opponent counts for the win-chance table: all, 3, 2,4 or 2..5.")
    ] = "all",
    samples: Annotated[
        int, typer.Option("--samples", "-n", help=f"Games to simulate (one hand of each size each; >= {MIN_SAMPLES}).")
    ] = 200_000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the simulation (same seed, same numbers).")] = 1,
    all_specials: Annotated[
        str, typer.Option("--all-specials", help=choice_help("all_specials"))
    ] = DEFAULT_VALUES["all_specials"],
    all_flags: Annotated[str, typer.Option("--all-flags", help=choice_help("all_flags"))] = DEFAULT_VALUES["all_flags"],
    scoring: Annotated[
        str, typer.Option("--scoring", help=choice_help("scoring") + " It changes greedy bids.")
    ] = DEFAULT_VALUES["scoring"],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")] = False,
    plot: Annotated[Path | None, typer.Option("--plot", help="Also draw the odds into this PNG file.")] = None,
) -> None:
    """The odds players ask about: a die's chance to win a trick, how often good bids are made, what a die is worth."""
    if not MIN_SEATS <= players <= MAX_SEATS:
        _usage(f"--players must be from {MIN_SEATS} to {MAX_SEATS}, not {players}")
    if samples < MIN_SAMPLES:
        _usage(f"--samples must be at least {MIN_SAMPLES:,} games, not {samples}")
    if plot is not None and plot.suffix.lower() != ".png":
        _usage(f"--plot writes a PNG file: give a name ending in .png, not {str(plot)!r}")
    try:
        counts = parse_opponents(opponents)
        rules = Rules(scoring=scoring, all_specials=all_specials, all_flags=all_flags)
    except (ValueError, RuleError) as exc:
        _usage(str(exc))
    started = time.perf_counter()
    tables = [win_chances(k, rules) for k in counts]
    position = win_chances(players - 1, rules)
    exact_seconds = time.perf_counter() - started
    sample = simulate_hands(players, samples, seed, rules)
    bids, values = bid_odds(sample), die_values(sample)
    sampled_seconds = time.perf_counter() - started - exact_seconds
    if plot is not None:
        try:
            _plot(plot, tables, bids, players)
        except OSError as exc:
            _usage(f"cannot write {str(plot)!r}: {exc.strerror or exc}")
    if as_json:
        typer.echo(json.dumps(_as_json(players, rules, tables, position, bids, values, samples, seed)))
        return
    console = Console() if Console().is_terminal else Console(width=140)
    for table in (_win_table(tables), _position_table(position), _bid_table(bids, players), _value_table(values)):
        console.print(table)
    console.print(
        f"exact tables: {exact_seconds:.1f} s; sampled tables: {samples:,} games, seed {seed}, {sampled_seconds:.1f} s"
        + (f"; plot written to {plot}" if plot is not None else "")
    )


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

    def clean(x: object) -> object:
        if isinstance(x, float) and math.isnan(x):
            return None
        if isinstance(x, dict):
            return {k: clean(v) for k, v in x.items()}
        if isinstance(x, list):
            return [clean(v) for v in x]
        return x

    return clean(  # type: ignore[return-value]
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
