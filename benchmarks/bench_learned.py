"""A candidate bot's strength the way the field measures it: duplicate 4-seat games in three table
compositions, with paired 95 % intervals and its decision times; and the learning curve of a training run.
``--seats N`` plays the tables at another size (the same bots in turn: see `table`).

Tables (one candidate against three others; every deal is played once per rotation, so the candidate
sits in every seat with the same dice and faces — luck cancels):

- ``greedy``:     the candidate and three `greedy`;
- ``montecarlo``: the candidate and three `montecarlo` (default budgets);
- ``mixed``:      the candidate, `greedy`, `montecarlo` and `ismcts`.

The figure per table is the candidate's lead: its mean total minus the mean total of the other three
seats, averaged over the rotations of a deal, with a t-interval over deals (paired by deal); and the same less
the luck of the faces (`minodice.analysis.luck`: unbiased, its interval about half as wide; ``--luck-playouts 0``
leaves it out). Each result saved holds its table size (``seats``).

    .venv/bin/python benchmarks/bench_learned.py neural --tables greedy,montecarlo,mixed --deals 100 --jobs 2
    .venv/bin/python benchmarks/bench_learned.py --curve CHECKPOINTS --deals 40 --plot research/data/learning-curve.png
    .venv/bin/python benchmarks/bench_learned.py --paired A.jsonl B.jsonl   # two --save results, deal by deal
    .venv/bin/python benchmarks/bench_learned.py --pool S16.jsonl S17.jsonl  # one bot on two seeds, as one figure
    .venv/bin/python benchmarks/bench_learned.py --paired R.jsonl:22,23 R.jsonl:12,16  # two seeds a side, paired

A result is named ``FILE`` (its last line), ``FILE:N`` (line N) or ``FILE:N,M,...`` (one candidate's lines
on different seeds, pooled). Deals are paired by seed and number, so only deals both sides played match.

A candidate may be one of the lab's bots too (`research.lab`, e.g. ``neural+search-lab``: the options the
experiments dropped), which this script registers when it runs, in its spawned workers as well.

``--curve DIR`` reads a run of ``minodice train --checkpoints DIR``: its log (the lead over kernel greedy
bots at every evaluation, 2,000 games each); for up to ``--points`` checkpoints spread over the run it
plays ``neural:weights=CHECKPOINT`` against three `montecarlo` (``--deals`` each), and for up to
``--selfplay-points`` it plays the run's last checkpoint against three copies of that checkpoint
(``--selfplay-deals`` each: the strength against its own past); then it draws the curves against the
decisions trained on.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import json
import math
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from minodice.analysis import DEFAULT_LUCK_PLAYOUTS, MAX_LUCK_PLAYOUTS
from minodice.tournament import SeatResult, TournamentConfig, entrants_from_specs, run_tournament
from minodice.tournament.stats import mean_ci


def register_lab() -> None:
    """Let a candidate name the lab's bots: `research.lab` imported (it registers them into minodice's
    registry), the repository's root on the path as `python -m` from there would put it."""
    root = str(Path(__file__).resolve().parents[1])
    if root not in sys.path:
        sys.path.append(root)
    importlib.import_module("research.lab")


if __name__ in ("__main__", "__mp_main__"):  # run as a script, or as its spawned workers' main; not when imported
    register_lab()

TABLES: dict[str, tuple[str, ...]] = {
    "greedy": ("greedy", "greedy", "greedy"),
    "montecarlo": ("montecarlo", "montecarlo", "montecarlo"),
    "mixed": ("greedy", "montecarlo", "ismcts"),
}


def table(name: str, seats: int = 4) -> tuple[str, ...]:
    """The candidate's `seats - 1` opponents at table `name` (at 4 seats, `TABLES[name]`; at other sizes
    its bots in turn: three greedy become two or five, the mixed table repeats greedy, montecarlo, ismcts).

    >>> table("mixed", 6)
    ('greedy', 'montecarlo', 'ismcts', 'greedy', 'montecarlo')
    """
    return tuple(itertools.islice(itertools.cycle(TABLES[name]), seats - 1))

def mean_half(values: Sequence[float]) -> tuple[float, float]:
    """The mean of `values` and the half-width of its 95 % t-interval (inf with one value)."""
    mean, ci = mean_ci(values)
    return mean, (ci[1] - mean if ci is not None else math.inf)


def measure(candidate: str, others: Sequence[str], deals: int, *, seed: int = 16, jobs: int = 1,
            luck_playouts: int = DEFAULT_LUCK_PLAYOUTS) -> dict:
    """The candidate's lead over the other seats per game, its interval, and its decision times; with
    `luck_playouts`, also the lead less the luck of the faces (`analysis.luck`: unbiased, and far less noisy)."""
    specs = [candidate, *others]
    config = TournamentConfig(entrants_from_specs(specs), games=deals * len(specs), seed=seed, luck=luck_playouts)
    began = time.perf_counter()
    outcome = run_tournament(config, jobs=jobs)  # the workers measure the luck after each game
    per_deal: dict[int, list[float]] = defaultdict(list)
    per_deal_corrected: dict[int, list[float]] = defaultdict(list)
    decisions = 0
    seconds = 0.0
    slowest = 0.0
    for game in outcome.results:
        per_deal[game.deal].append(candidate_lead(game.seats, [s.total for s in game.seats]))
        if luck_playouts > 0:
            less_luck = [s.total - s.luck for s in game.seats if s.luck is not None]  # every seat's, or a mismatch
            per_deal_corrected[game.deal].append(candidate_lead(game.seats, less_luck))
        mine = [s for s in game.seats if s.entrant == 0]
        decisions += mine[0].decisions
        seconds += mine[0].seconds
        slowest = max(slowest, mine[0].max_seconds)
    leads = [statistics.fmean(v) for v in per_deal.values()]
    mean, half = mean_half(leads)
    result = {
        "candidate": candidate, "others": list(others), "deals": len(leads), "games": len(outcome.results),
        "lead": round(mean, 2), "ci95": round(half, 2),
        "decision_ms_mean": round(1000 * seconds / max(decisions, 1), 3), "decision_ms_max": round(1000 * slowest, 1),
        "wall_seconds": round(time.perf_counter() - began, 1),
        "seed": seed, "seats": len(specs),
        # The lead per deal, so two candidates measured on the same seed can be compared deal by deal.
        "per_deal": {str(deal): round(statistics.fmean(v), 3) for deal, v in sorted(per_deal.items())},
    }
    if luck_playouts > 0:
        mean, half = mean_half([statistics.fmean(v) for v in per_deal_corrected.values()])
        result |= {
            "lead_corrected": round(mean, 2), "ci95_corrected": round(half, 2), "luck_playouts": luck_playouts,
            "per_deal_corrected": {str(d): round(statistics.fmean(v), 3) for d, v in sorted(per_deal_corrected.items())},
        }
    return result


def candidate_lead(seats: Sequence[SeatResult], totals: Sequence[float]) -> float:
    """The candidate's (entrant 0's) total less the mean of the other seats' totals."""
    mine = [t for s, t in zip(seats, totals, strict=True) if s.entrant == 0]
    return mine[0] - statistics.fmean(t for s, t in zip(seats, totals, strict=True) if s.entrant != 0)


def deal_leads(result: dict, key: str = "per_deal") -> dict[tuple[int, int], float]:
    """A saved result's lead per deal (`key` "per_deal_corrected": less the luck of the faces), keyed by
    (seed, deal): deal numbers restart at every seed, so the seed is what says two results played the same dice."""
    name, leads, seed = result.get("candidate"), result.get(key), result.get("seed")
    if leads is None:
        raise SystemExit(f"{name}: saved without its leads per deal (measured before they were kept)")
    if not isinstance(seed, int):
        raise SystemExit(f"{name}: saved without its seed, so its deals cannot be matched")
    try:
        return {(seed, int(deal)): float(lead) for deal, lead in leads.items()}
    except (AttributeError, TypeError, ValueError):
        raise SystemExit(f"{name}: its leads per deal are not deal numbers and points") from None


def _one_side(results: Sequence[dict], key: str = "per_deal") -> tuple[str, dict[tuple[int, int], float]]:
    """One candidate's results on different seeds against one table, as its name and its leads per deal."""
    if len({(r["candidate"], tuple(r.get("others", ()))) for r in results}) != 1:
        raise SystemExit("pool results of one candidate against one table only")
    leads: dict[tuple[int, int], float] = {}
    for r in results:
        mine = deal_leads(r, key)
        if mine.keys() & leads.keys():
            raise SystemExit("two results share a seed: they played the same deals, pool results of different seeds")
        leads |= mine
    return results[0]["candidate"], leads


def _corrected(*sides: Sequence[dict]) -> bool:
    """Whether every result given holds its leads less the luck of the faces (measured since they were kept)."""
    return all("per_deal_corrected" in r for side in sides for r in side)


def paired(first: Sequence[dict], second: Sequence[dict]) -> dict:
    """How much the first candidate's lead exceeds the second's, deal by deal over the deals both played (the
    same seed deals the same dice, so the difference is far less noisy than either lead); each side is one
    result or one candidate's results on several seeds. Where both sides hold them, the same for the leads
    less the luck of the faces (`difference_corrected`)."""
    (a, mine), (b, theirs) = _one_side(first), _one_side(second)
    common = sorted(mine.keys() & theirs.keys())
    if len(common) < 2:
        raise SystemExit("the two results share fewer than two deals: measure them with the same --seed")
    mean, half = mean_half([mine[d] - theirs[d] for d in common])
    out = {"first": a, "second": b, "deals": len(common), "difference": round(mean, 2), "ci95": round(half, 2)}
    if _corrected(first, second):
        (_, mine), (_, theirs) = _one_side(first, "per_deal_corrected"), _one_side(second, "per_deal_corrected")
        mean, half = mean_half([mine[d] - theirs[d] for d in common])
        out |= {"difference_corrected": round(mean, 2), "ci95_corrected": round(half, 2)}
    return out


def pooled(results: Sequence[dict]) -> dict:
    """One candidate's results on different seeds (different deals) as one lead over all their deals (and
    less the luck of the faces, where every result holds it)."""
    name, leads = _one_side(results)
    mean, half = mean_half(list(leads.values()))
    out = {"candidate": name, "others": results[0].get("others", []), "deals": len(leads),
           "lead": round(mean, 2), "ci95": round(half, 2)}
    if _corrected(results):
        mean, half = mean_half(list(_one_side(results, "per_deal_corrected")[1].values()))
        out |= {"lead_corrected": round(mean, 2), "ci95_corrected": round(half, 2)}
    return out


def results_named(spec: str) -> list[dict]:
    """The results saved by --save that `spec` names: FILE (its last line), FILE:N (line N, from 1) or
    FILE:N,M,... (several lines); SystemExit saying what is wrong."""
    where, colon, numbers = spec.rpartition(":")
    if not (colon and numbers and all(n.isdigit() for n in numbers.split(","))):
        where, numbers = spec, ""
    try:
        lines = [x for x in Path(where).read_text(encoding="utf-8").splitlines() if x.strip()]
    except (OSError, UnicodeDecodeError) as exc:
        raise SystemExit(f"{spec}: cannot read the results ({exc.__class__.__name__})") from None
    if not lines:
        raise SystemExit(f"{where}: holds no results")
    picked = [int(n) for n in numbers.split(",")] if numbers else [len(lines)]
    out = []
    for number in picked:
        if not 1 <= number <= len(lines):
            raise SystemExit(f"{where}:{number}: no such result (the file holds {len(lines)})")
        try:
            result = json.loads(lines[number - 1])
        except json.JSONDecodeError:
            result = None
        if not isinstance(result, dict) or "candidate" not in result:
            raise SystemExit(f"{where}:{number}: not a result saved by --save")
        if "per_deal" not in result:
            raise SystemExit(f"{where}:{number}: saved without its leads per deal (measured before they were kept)")
        out.append(result)
    return out


def _spread(log: list[dict], points: int) -> set[int]:
    """About `points` updates spread over the log, the last one included."""
    step = max(1, math.ceil(len(log) / max(points, 1)))
    return {e["update"] for e in log[step - 1 :: step]} | {log[-1]["update"]}


def curve(directory: Path, deals: int, points: int, jobs: int, seed: int, selfplay_deals: int = 50,
          selfplay_points: int = 10) -> list[dict]:
    """The learning curve of a training run: its log, the lead over montecarlo at some checkpoints, and the
    last checkpoint's lead over earlier ones."""
    log = [json.loads(line) for line in (directory / "log.jsonl").read_text().splitlines() if line.strip()]
    if not log:
        raise SystemExit(f"{directory}/log.jsonl is empty")
    last = directory / f"update-{log[-1]['update']:05d}.npz"
    ckpt = {e["update"]: directory / f"update-{e['update']:05d}.npz" for e in log}
    for entry in log:
        if entry["update"] in _spread(log, selfplay_points) and selfplay_deals > 0:
            past = f"neural:weights={ckpt[entry['update']]}"
            result = measure(f"neural:weights={last}", (past, past, past), selfplay_deals, seed=seed, jobs=jobs)
            entry["final_lead"], entry["final_ci95"] = result["lead"], result["ci95"]
            print(f"update {entry['update']:5d}: the last network leads it by {result['lead']:+.1f} ± "
                  f"{result['ci95']:.1f}", flush=True)
    for entry in log:
        if entry["update"] in _spread(log, points) and deals > 0:
            path = ckpt[entry["update"]]
            result = measure(f"neural:weights={path}", TABLES["montecarlo"], deals, seed=seed, jobs=jobs)
            entry["montecarlo_lead"], entry["montecarlo_ci95"] = result["lead"], result["ci95"]
            print(f"update {entry['update']:5d}: lead over montecarlo {result['lead']:+.1f} ± {result['ci95']:.1f}",
                  flush=True)
    return log


def plot(log: list[dict], path: Path, other: list[dict] | None = None, other_label: str = "") -> None:
    """The curves against millions of decisions trained on (matplotlib, no screen); `other`: another run's
    log, whose lead over greedy is drawn for comparison."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5.2), dpi=110)
    x = [e["decisions"] / 1e6 for e in log]
    ax.errorbar(x, [e["greedy_lead"] for e in log], yerr=[e["greedy_ci95"] for e in log], fmt="-o", ms=3,
                label="lead over 3 greedy (kernel, 2,000 games)")
    if other:
        ax.plot([e["decisions"] / 1e6 for e in other], [e["greedy_lead"] for e in other], "--", color="grey",
                label=f"lead over 3 greedy, {other_label}")
    mc = [e for e in log if "montecarlo_lead" in e]
    if mc:
        ax.errorbar([e["decisions"] / 1e6 for e in mc], [e["montecarlo_lead"] for e in mc],
                    yerr=[e["montecarlo_ci95"] for e in mc], fmt="-s", ms=4, capsize=3,
                    label="lead over 3 montecarlo (engine, duplicate)")
    past = [e for e in log if "final_lead" in e]
    if past:
        ax.errorbar([e["decisions"] / 1e6 for e in past], [e["final_lead"] for e in past],
                    yerr=[e["final_ci95"] for e in past], fmt=":^", ms=4, capsize=3,
                    label="the last network's lead over this checkpoint (3 copies)")
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("decisions trained on (millions)")
    ax.set_ylabel("points per game over the table")
    ax.set_title("neural: learning curve (4 seats, 95 % intervals)")
    ax.grid(alpha=0.3)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, fontsize=8)
    fig.tight_layout()
    fig.savefig(path)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("candidate", nargs="?", default="neural", help="the candidate's bot spec")
    ap.add_argument("--tables", default="greedy,montecarlo,mixed", help=f"comma-separated: {', '.join(TABLES)}")
    ap.add_argument("--deals", type=int, default=100, help="deals per table (each played once per seat)")
    ap.add_argument("--seats", type=int, default=4, choices=range(3, 7), metavar="{3..6}",
                    help="players at the table (the candidate and seats - 1 of the table's bots)")
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--save", help="append the results as JSON lines to this file")
    ap.add_argument("--luck-playouts", type=int, default=DEFAULT_LUCK_PLAYOUTS, metavar="N",
                    help="playouts that judge each face when taking the luck of the faces out of the leads "
                    "(0: report the plain leads only)")
    ap.add_argument("--curve", type=Path, help="a checkpoints directory of `minodice train`")
    ap.add_argument("--points", type=int, default=6, help="with --curve: checkpoints measured against montecarlo")
    ap.add_argument("--selfplay-deals", type=int, default=50, help="with --curve: deals of the last network "
                    "against each earlier checkpoint")
    ap.add_argument("--selfplay-points", type=int, default=10, help="with --curve: checkpoints it meets")
    ap.add_argument("--plot", type=Path, help="with --curve: draw the curve to this .png")
    ap.add_argument("--replot", type=Path, help="draw the curve of a JSON saved by --curve --save (no games)")
    ap.add_argument("--compare", help="with --plot: LOG.jsonl:LABEL, another run's log to draw beside it")
    ap.add_argument("--paired", nargs=2, metavar="RESULT", help="compare two results saved by --save (FILE, "
                    "FILE:LINE, or FILE:LINE,LINE for one bot on several seeds) deal by deal, and play nothing")
    ap.add_argument("--pool", nargs="+", metavar="RESULT", help="one candidate's results saved by --save on "
                    "different seeds, as one lead over all their deals (plays nothing)")
    args = ap.parse_args(argv)
    if args.deals < 1:
        ap.error(f"--deals must be at least 1, not {args.deals}")
    if not 0 <= args.luck_playouts <= MAX_LUCK_PLAYOUTS:
        ap.error(f"--luck-playouts must be 0 (off) to {MAX_LUCK_PLAYOUTS:,}, not {args.luck_playouts}")
    if args.pool is not None:
        results = [r for spec in args.pool for r in results_named(spec)]
        p = pooled(results)
        print(f"{p['candidate']} vs {', '.join(p['others'])}: lead {p['lead']:+.1f} ± {p['ci95']:.1f} "
              f"({p['deals']} deals pooled from {len(results)} results)")
        if "lead_corrected" in p:
            print(f"  less the luck of the faces: {p['lead_corrected']:+.1f} ± {p['ci95_corrected']:.1f}")
        return 0
    if args.paired is not None:
        d = paired(results_named(args.paired[0]), results_named(args.paired[1]))
        print(f"{d['first']} leads by {d['difference']:+.1f} ± {d['ci95']:.1f} more than {d['second']} "
              f"(paired over {d['deals']} deals)")
        if "difference_corrected" in d:
            print(f"  less the luck of the faces: {d['difference_corrected']:+.1f} ± {d['ci95_corrected']:.1f}")
        return 0
    if args.curve is not None or args.replot is not None:
        if args.replot is not None:
            log = json.loads(args.replot.read_text())
        else:
            log = curve(args.curve, args.deals, args.points, args.jobs, args.seed, args.selfplay_deals,
                        args.selfplay_points)
        if args.save:
            Path(args.save).write_text(json.dumps(log, indent=1))
        if args.plot:
            other = None
            if args.compare:
                where, _, label = args.compare.partition(":")
                other = [json.loads(line) for line in Path(where).read_text().splitlines() if line.strip()]
            plot(log, args.plot, other, label)
        return 0
    for name in args.tables.split(","):
        if name not in TABLES:
            ap.error(f"unknown table {name!r}: choose from {', '.join(TABLES)}")
        result = measure(args.candidate, table(name, args.seats), args.deals, seed=args.seed, jobs=args.jobs,
                         luck_playouts=args.luck_playouts)
        print(f"{args.candidate} vs {name:<10} ({args.seats} seats) lead {result['lead']:+7.1f} ± {result['ci95']:5.1f}   "
              f"({result['deals']} deals, {result['games']} games; decision mean {result['decision_ms_mean']} ms, "
              f"max {result['decision_ms_max']} ms; {result['wall_seconds']} s)", flush=True)
        if "lead_corrected" in result:
            print(f"  less the luck of the faces: {result['lead_corrected']:+7.1f} ± {result['ci95_corrected']:5.1f}   "
                  f"({result['luck_playouts']} playouts a face)", flush=True)
        if args.save:
            with open(args.save, "a", encoding="utf-8") as f:
                f.write(json.dumps({"table": name, **result}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
