"""Whether each level is what its name promises: each level against the one below, at every table size.

Two formats per table size (duplicate games, so luck cancels; paired 95 % intervals over deals, also less the
luck of the faces, `minodice.analysis.luck`):

- ``below``: each level in a table of the level below (``medium`` against N-1 ``easy``, ``hard`` against
  N-1 ``medium``, ``expert`` against N-1 ``hard``): its lead over the other seats' mean;
- ``mixed``: one seat of each level, the table filled with ``greedy`` (at 3 seats two tables: ``easy``,
  ``medium``, ``hard`` and ``medium``, ``hard``, ``expert``): each level's lead over the one below, paired.

A level's name is a bot spec (`minodice.bots.levels`), so these are the bots people meet. Results are appended
as JSON lines with ``--save``; ``--show FILE`` prints the tables of saved results again (no games).

    .venv/bin/python benchmarks/bench_levels.py --seats 3 4 5 6 --deals 50 --jobs 2 --save docs/results/levels.jsonl
    .venv/bin/python benchmarks/bench_levels.py --show docs/results/levels.jsonl
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path

from bench_learned import measure  # the same lead and interval as every strength figure

from minodice.analysis import DEFAULT_LUCK_PLAYOUTS
from minodice.bots.levels import level_names
from minodice.tournament import TournamentConfig, entrants_from_specs, run_tournament
from minodice.tournament.report import to_json


def below(seats: int, deals: int, seed: int, jobs: int, luck: int) -> list[dict]:
    """Each level (from the second) against `seats - 1` of the level below."""
    names = level_names()
    out = []
    for lower, upper in itertools.pairwise(names):
        result = measure(upper, [lower] * (seats - 1), deals, seed=seed, jobs=jobs, luck_playouts=luck)
        out.append({"format": "below", "level": upper, "below": lower, **result})
        print(_below_line(out[-1]), flush=True)
    return out


def mixed_tables(seats: int) -> list[list[str]]:
    """The mixed tables at `seats`: one seat of each level (filled with greedy), or two tables at 3 seats."""
    names = list(level_names())
    if seats >= len(names):
        return [names + ["greedy"] * (seats - len(names))]
    return [names[i:i + seats] for i in range(len(names) - seats + 1)]


def mixed(seats: int, deals: int, seed: int, jobs: int, luck: int) -> list[dict]:
    """Each mixed table's tournament, and each level's paired lead over the level below at it."""
    out = []
    for specs in mixed_tables(seats):
        config = TournamentConfig(entrants_from_specs(specs), games=deals * seats, seed=seed, luck=luck)
        began = time.perf_counter()
        summary = to_json(run_tournament(config, jobs=jobs).summary)
        pairs = {(p["a"], p["b"]): p for p in summary["pairs"]}
        levels = [s for s in specs if s in level_names()]
        steps = []
        for lower, upper in itertools.pairwise(levels):
            pair = pairs[(upper, lower)]
            steps.append({"level": upper, "below": lower, "lead": pair["mean_diff"], "ci95": pair["ci95"],
                          "less_luck": pair.get("less_luck")})
        entry = {"format": "mixed", "seats": seats, "table": specs, "seed": seed, "deals": deals, "steps": steps,
                 "wall_seconds": round(time.perf_counter() - began, 1), "tournament": summary}
        out.append(entry)
        for step in steps:
            print(_mixed_line(entry, step), flush=True)
    return out


def _interval(ci: list[float] | None) -> str:
    return "" if not ci else f" ({ci[0]:+.1f} … {ci[1]:+.1f})"


def _below_line(r: dict) -> str:
    text = (f"{r['seats']} seats  {r['level']:>6} vs {r['seats'] - 1} {r['below']:<6} lead {r['lead']:+.1f} ± "
            f"{r['ci95']:.1f}")
    if "lead_corrected" in r:
        text += f", less the luck {r['lead_corrected']:+.1f} ± {r['ci95_corrected']:.1f}"
    return text + f"  ({r['deals']} deals, {r['decision_ms_mean']:.1f} ms a decision)"


def _mixed_line(entry: dict, step: dict) -> str:
    text = (f"{entry['seats']} seats  {step['level']:>6} over {step['below']:<6} at {'/'.join(entry['table'])}: "
            f"{step['lead']:+.1f}{_interval(step['ci95'])}")
    if step.get("less_luck"):
        text += f", less the luck {step['less_luck']['mean_diff']:+.1f}{_interval(step['less_luck']['ci95'])}"
    return text + f"  ({entry['deals']} deals)"


def show(path: Path) -> None:
    """Print the lines of results saved by --save."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        r = json.loads(line)
        if r["format"] == "below":
            print(_below_line(r))
        else:
            for step in r["steps"]:
                print(_mixed_line(r, step))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seats", type=int, nargs="+", default=[4], choices=range(3, 7), metavar="{3..6}")
    ap.add_argument("--formats", default="below,mixed", help="comma-separated: below, mixed")
    ap.add_argument("--deals", type=int, default=50, help="deals per table (each played once per rotation)")
    ap.add_argument("--seed", type=int, default=2040)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--luck-playouts", type=int, default=DEFAULT_LUCK_PLAYOUTS, metavar="N")
    ap.add_argument("--save", type=Path, help="append the results as JSON lines to this file")
    ap.add_argument("--show", type=Path, help="print saved results (no games)")
    args = ap.parse_args(argv)
    if args.show:
        show(args.show)
        return 0
    formats = [f.strip() for f in args.formats.split(",") if f.strip()]
    unknown = sorted(set(formats) - {"below", "mixed"})
    if unknown or not formats:
        print(f"bench_levels: --formats takes below and mixed, not {', '.join(unknown) or 'nothing'}", file=sys.stderr)
        return 2
    for seats in args.seats:
        results = []
        if "below" in formats:
            results += below(seats, args.deals, args.seed, args.jobs, args.luck_playouts)
        if "mixed" in formats:
            results += mixed(seats, args.deals, args.seed, args.jobs, args.luck_playouts)
        if args.save:
            with args.save.open("a", encoding="utf-8") as out:
                for r in results:
                    out.write(json.dumps(r) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
