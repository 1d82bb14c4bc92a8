"""Showing a tournament: the rich tables, the JSON object, and the plot.

The JSON object and the tables show the same numbers; `to_json` is the form
scripts should read (`minodice tournament --json`).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ..codes import printable
from .stats import EntrantStats, Summary

__all__ = ["TIMING_FIELDS", "faults_text", "pairs_table", "plot", "render", "results_table", "to_json"]

#: JSON fields that measure time (they differ from run to run; everything else is reproducible).
TIMING_FIELDS = ("decision_ms",)


def _num(x: float, digits: int = 4) -> float | None:
    return None if x is None or math.isnan(x) else round(x, digits)


def _interval(ci: tuple[float, float] | None) -> list[float] | None:
    return None if ci is None else [round(ci[0], 4), round(ci[1], 4)]


def to_json(summary: Summary) -> dict[str, Any]:
    """The tournament as one JSON-ready object (see `minodice tournament --help`)."""
    entrants = []
    for e in summary.entrants:
        entrants.append(
            {
                "name": e.name,
                "spec": e.spec,
                "games": e.games,
                "mean_score": _num(e.mean_score),
                "ci95": _interval(e.ci95),
                "mean_rank": _num(e.mean_rank),
                "win_rate": _num(e.win_rate),
                "bids_made": _num(e.bids_made),
                "bonus_per_hand": _num(e.bonus_per_hand),
                "decision_ms": {
                    "mean": _num(e.decision_ms_mean),
                    "max": _num(e.decision_ms_max),
                    "decisions": e.decisions,
                },
                "faults": {"count": e.faults, "kinds": e.fault_kinds, "first": list(e.first_faults)},
                "rating": {
                    "mu": _num(e.rating.mu),
                    "sigma": _num(e.rating.sigma),
                    "ordinal": _num(e.rating.ordinal),
                },
                **({} if e.mean_less_luck is None else
                   {"less_luck": {"mean_score": _num(e.mean_less_luck), "ci95": _interval(e.ci95_less_luck)}}),
            }
        )
    pairs = [
        {"a": p.a, "b": p.b, "mean_diff": _num(p.mean_diff), "ci95": _interval(p.ci95), "deals": p.deals,
         **({} if p.mean_diff_less_luck is None else
            {"less_luck": {"mean_diff": _num(p.mean_diff_less_luck), "ci95": _interval(p.ci95_less_luck)}})}
        for p in summary.pairs
    ]
    return {
        "entrants": entrants,
        "pairs": pairs,
        "games": summary.games,
        "deals": summary.deals,
        "seed": summary.seed,
        "duplicate": summary.duplicate,
        "rules": summary.rules,
    }


def _pm(mean: float, ci: tuple[float, float] | None, digits: int = 1) -> str:
    if ci is None:
        return f"{mean:+.{digits}f}"
    return f"{mean:+.{digits}f} ± {(ci[1] - ci[0]) / 2:.{digits}f}"


def _ranked(summary: Summary) -> list[EntrantStats]:
    return sorted(summary.entrants, key=lambda e: (-e.mean_score, e.name))


def results_table(summary: Summary) -> Table:
    """One row per entrant, best mean score first (fits 100 columns; with the luck measured, 112)."""
    mode = "duplicate" if summary.duplicate else "independent games"
    lucky = any(e.mean_less_luck is not None for e in summary.entrants)
    rules = ", ".join(f"{k} {v}" for k, v in summary.rules.items())
    specs = "; ".join(
        f"{_plain(e.name)} = {_plain(e.spec)}" for e in summary.entrants if e.spec != e.name.partition("#")[0]
    )
    table = Table(
        title=f"Tournament: {summary.games} games, {summary.deals} deals ({mode}), seed {summary.seed}",
        caption=(
            (f"{specs}\n" if specs else "")
            + f"rules: {rules}\n"
            "score: mean per game ± half its 95% t-interval over deals; rank: mean place (ties shared);\n"
            + ("less luck: the score less what the faces gave (unbiased, less noisy: --luck);\n" if lucky else "")
            + "win: a tie for first shares the win; bids made: share of hands; ms: time per decision;\n"
            "μ, σ, ordinal (μ − 3σ): openskill Plackett-Luce rating"
        ),
        caption_justify="left",
        box=box.SIMPLE_HEAVY,
        collapse_padding=True,
    )
    headers = ("entrant", "games", "score", "±95%", *(("less\nluck", "±95%") if lucky else ()), "rank", "win",
               "bids\nmade", "bonus\n/hand", "ms", "max\nms", "faults", "μ", "σ", "ordinal")
    for header in headers:
        table.add_column(header, justify="left" if header == "entrant" else "right", no_wrap=True)
    for e in _ranked(summary):
        less = () if not lucky else (
            "–" if e.mean_less_luck is None else f"{e.mean_less_luck:+.1f}",
            "–" if e.ci95_less_luck is None else f"{(e.ci95_less_luck[1] - e.ci95_less_luck[0]) / 2:.1f}",
        )
        table.add_row(
            _plain(e.name),
            str(e.games),
            f"{e.mean_score:+.1f}",
            "–" if e.ci95 is None else f"{(e.ci95[1] - e.ci95[0]) / 2:.1f}",
            *less,
            f"{e.mean_rank:.2f}",
            f"{100 * e.win_rate:.1f}%",
            f"{100 * e.bids_made:.1f}%",
            f"{e.bonus_per_hand:.2f}",
            f"{e.decision_ms_mean:.2f}",
            f"{e.decision_ms_max:.1f}",
            Text(str(e.faults), style="bold red" if e.faults else ""),
            f"{e.rating.mu:.1f}",
            f"{e.rating.sigma:.2f}",
            f"{e.rating.ordinal:.1f}",
        )
    return table


def pairs_table(summary: Summary, *, less_luck: bool = False) -> Table:
    """Row entrant's mean score minus column entrant's, paired by deal (green/red: CI clear of 0); with
    `less_luck`, of their scores less the luck of the faces."""
    ranked = _ranked(summary)
    pairs = {(p.a, p.b): p for p in summary.pairs}
    table = Table(
        title="Score difference per game (row − column) ± 95% paired t-interval over deals"
        + (", less the luck of the faces" if less_luck else ""),
        box=box.SIMPLE_HEAVY,
    )
    table.add_column("")
    for e in ranked:
        table.add_column(_plain(e.name), justify="right")
    for a in ranked:
        cells: list[Text | str] = []
        for b in ranked:
            if a is b:
                cells.append("·")
                continue
            p = pairs[a.name, b.name]
            mean, ci = (p.mean_diff_less_luck, p.ci95_less_luck) if less_luck else (p.mean_diff, p.ci95)
            if mean is None:
                cells.append("–")
                continue
            style = ""
            if ci is not None and ci[0] > 0:
                style = "green"
            elif ci is not None and ci[1] < 0:
                style = "red"
            cells.append(Text(_pm(mean, ci), style=style))
        table.add_row(_plain(a.name), *cells)
    return table


def faults_text(summary: Summary) -> Text | None:
    """The first fault messages of each entrant that had faults, each with the program's last
    stderr lines if it timed out or exited (None if nobody faulted)."""
    faulty = [e for e in summary.entrants if e.faults]
    if not faulty:
        return None
    text = Text()
    for e in faulty:
        kinds = ", ".join(f"{k} ×{n}" for k, n in e.fault_kinds.items())
        text.append(f"{printable(e.name)}: {e.faults} faults ({kinds})\n", style="bold red")
        for message in e.first_faults:
            first, *stderr = message.splitlines()
            text.append(f"  {printable(first[:300])}\n")
            for line in stderr:  # `Fault.report`: the program's last stderr lines
                text.append(f"    {printable(line[:300])}\n", style="dim")
    return text


def _plain(text: str) -> str:
    """A name or spec as rich markup shows it: as typed, control characters escaped."""
    return escape(printable(text))


def render(summary: Summary) -> Group:
    """Everything to print after a tournament."""
    parts: list[Any] = [results_table(summary), pairs_table(summary)]
    if any(p.mean_diff_less_luck is not None for p in summary.pairs):
        parts.append(pairs_table(summary, less_luck=True))
    faults = faults_text(summary)
    if faults is not None:
        parts.append(faults)
    return Group(*parts)


def plot(summary: Summary, path: Path) -> None:
    """Draw score distributions per entrant and rating intervals to an image file (Agg backend)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    ranked = _ranked(summary)
    names = [e.name for e in ranked]
    fig = Figure(figsize=(11, 0.6 * len(names) + 3), layout="constrained")
    FigureCanvasAgg(fig)
    left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [3, 2]})
    data = [e.scores or [0] for e in ranked]
    positions = list(range(len(names), 0, -1))
    try:
        left.violinplot(data, positions=positions, orientation="horizontal", showmedians=True)
    except TypeError:  # matplotlib before 3.10
        left.violinplot(data, positions=positions, vert=False, showmedians=True)
    for pos, e in zip(positions, ranked):
        left.plot([e.mean_score], [pos], "o", color="black", markersize=4)
        if e.ci95 is not None:
            left.hlines(pos, *e.ci95, color="black", linewidth=3)
    left.set_yticks(positions, names)
    left.set_xlabel("final score per game (dot, bar: mean and its 95% CI)")
    left.set_title("Score distributions")
    left.axvline(0, color="grey", linewidth=0.5)
    mus = [e.rating.mu for e in ranked]
    sigmas = [3 * e.rating.sigma for e in ranked]
    right.errorbar(mus, positions, xerr=sigmas, fmt="o", capsize=4)
    right.set_yticks(positions, names)
    right.set_xlabel("openskill μ ± 3σ (left end: the ordinal μ − 3σ)")
    for axes in (left, right):
        axes.set_ylim(0.5, len(names) + 0.5)
    right.set_title("Ratings")
    mode = "duplicate" if summary.duplicate else "independent"
    fig.suptitle(f"{summary.games} games, {summary.deals} deals ({mode}), seed {summary.seed}")
    fig.savefig(path, dpi=110)
