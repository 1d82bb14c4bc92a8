"""An analysis in the terminal: per seat, the totals, the luck/skill split, the worst decisions and
a line per decision (what `minodice analyze` and the terminal game's `review` print)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..codes import printable
from .analyze import THRESHOLDS, Analysis, Decision, SeatReview

if TYPE_CHECKING:
    from rich.console import RenderableType

__all__ = ["render_analysis", "render_seat"]

_STYLE = {"blunder": "bold red", "mistake": "red", "inaccuracy": "yellow", "fine": "", "forced": "dim"}


def _figure(mean: float | None, se: float | None) -> str:
    return "—" if mean is None or se is None else f"{mean:+.1f} ± {se:.1f}"


def _line(d: Decision) -> tuple[str, ...]:
    same = d.made == d.best
    return (
        d.where(), str(d.made), "" if same or d.forced else str(d.best),
        _figure(d.made_mean, d.made_se), "" if same or d.forced else _figure(d.best_mean, d.best_se),
        "" if d.forced else f"{d.loss:.1f} ± {d.loss_se:.1f}", d.label,
    )


def render_seat(seat: SeatReview, *, every: bool = True) -> RenderableType:
    """One seat's review: totals, the split of its score, the worst three, and (with `every`) each decision."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    split = seat.split()
    counts = ", ".join(f"{n} {label}" for label, n in seat.counts().items() if n)
    head = Text.assemble(
        (f"Seat {seat.seat} ({printable(seat.name)})", "bold"),
        f": expected loss {seat.loss:.1f} ± {seat.loss_se:.1f} points over {seat.chosen} decisions with a choice "
        f"({seat.mean_loss():.2f} a decision; {counts}).\n",
        f"Score {split['score']:+.0f} = the dice drawn {split['dice']:+.1f} (expected with best play) "
        f"+ decisions {split['decisions']:+.1f} + the faces {split['faces']:+.1f} (the luck) "
        f"+ the others' play {split['others']:+.1f}.",
    )
    parts: list[RenderableType] = [head]
    worst = seat.worst()
    if worst:
        parts.append(Text("Worst: " + "; ".join(f"{d.where()}: {d.made} (best {d.best}, −{d.loss:.1f})"
                                                for d in worst)))
    hands = Table(title="Hands", show_header=True)
    for name in ("hand", "score", "dice worth", "decisions cost", "faces (luck)", "others", "worst decision"):
        hands.add_column(name, justify="left" if name == "worst decision" else "right")
    for h in seat.hands:
        rest = None if h.score is None or h.dealt is None else h.score - h.dealt + h.loss
        faces = "—" if rest is None or h.luck is None else f"{h.luck:+.1f}"
        others = "—" if rest is None or h.luck is None else f"{rest - h.luck:+.1f}"
        worst = seat.worst(1, h.hand)
        hands.add_row(str(h.hand), "—" if h.score is None else f"{h.score:+d}", _figure(h.dealt, h.dealt_se),
                      f"{h.loss:.1f} ± {h.loss_se:.1f}", faces, others,
                      f"{worst[0].where().removeprefix(f'hand {h.hand}, ')}: {worst[0].made} "
                      f"(best {worst[0].best})" if worst else "")
    parts.append(hands)
    if every:
        table = Table(title="Decisions", show_header=True)
        for name in ("where", "made", "best", "made: expected", "best: expected", "loss", "label"):
            table.add_column(name, justify="right" if "expected" in name or name == "loss" else "left")
        for d in seat.decisions:
            table.add_row(*_line(d), style=_STYLE[d.label] or None)
        parts.append(table)
    return Group(*parts)


def render_analysis(analysis: Analysis, *, every: bool = True) -> RenderableType:
    """Every seat of an analysis, with the labels' thresholds."""
    from rich.console import Group
    from rich.text import Text

    limits = ", ".join(f"{name} ≥ {points:g}" for name, points in THRESHOLDS)
    note = Text(f"Judged by {analysis.bot} (seed {analysis.seed}); expected hand score in points; "
                f"loss = best − made ({limits}).", style="dim")
    return Group(note, *(render_seat(s, every=every) for s in analysis.seats))
