"""The learned bot's strength benchmark runs end to end, keeps each deal's lead, and compares two saved
results deal by deal."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_learned.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300)


def test_bench_learned_saves_leads_per_deal_and_pairs_them(tmp_path: Path) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for candidate, out in (("neural", first), ("random", second)):
        run = _run(candidate, "--tables", "greedy", "--deals", "3", "--save", str(out))
        assert run.returncode == 0, run.stderr
        assert f"{candidate} vs greedy" in run.stdout
    a, b = (json.loads(p.read_text().splitlines()[-1]) for p in (first, second))
    assert a["deals"] == 3 and sorted(a["per_deal"]) == sorted(b["per_deal"])
    assert abs(sum(a["per_deal"].values()) / 3 - a["lead"]) < 0.01  # the lead is the mean of the deals' leads
    same = _run("--paired", str(first), f"{first}:1")
    assert same.returncode == 0 and "leads by +0.0 ± 0.0 more than neural (paired over 3 deals)" in same.stdout
    versus = _run("--paired", str(first), str(second))
    gap = round(a["lead"] - b["lead"], 1)
    assert versus.returncode == 0 and f"neural leads by {gap:+.1f}" in versus.stdout, versus.stdout


def test_bench_learned_refuses_results_without_leads_per_deal(tmp_path: Path) -> None:
    old = tmp_path / "old.jsonl"
    old.write_text(json.dumps({"candidate": "neural", "lead": 1.0}) + "\n")
    run = _run("--paired", str(old), str(old))
    assert run.returncode != 0 and "without its leads per deal" in run.stderr
    unseeded = tmp_path / "unseeded.jsonl"
    unseeded.write_text(json.dumps({"candidate": "neural", "others": [], "per_deal": {"0": 1.0, "1": 2.0}}) + "\n")
    run = _run("--paired", str(unseeded), str(unseeded))
    assert run.returncode != 0 and "without its seed" in run.stderr
    garbled = tmp_path / "garbled.jsonl"
    garbled.write_text(json.dumps({"candidate": "neural", "seed": 1, "per_deal": {"first": "many"}}) + "\n")
    run = _run("--pool", str(garbled))
    assert run.returncode != 0 and "not deal numbers and points" in run.stderr
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    run = _run("--paired", str(empty), str(empty))
    assert run.returncode != 0 and "holds no results" in run.stderr


def test_bench_learned_pools_one_bot_over_seeds(tmp_path: Path) -> None:
    saved = tmp_path / "runs.jsonl"
    for seed in ("1", "2"):
        run = _run("neural", "--tables", "greedy", "--deals", "3", "--seed", seed, "--save", str(saved))
        assert run.returncode == 0, run.stderr
    first, second = (json.loads(line) for line in saved.read_text().splitlines())
    assert (first["seed"], second["seed"]) == (1, 2) and first["per_deal"] != second["per_deal"]
    both = _run("--pool", f"{saved}:1", f"{saved}:2")
    mean = (sum(first["per_deal"].values()) + sum(second["per_deal"].values())) / 6
    assert both.returncode == 0 and "6 deals pooled" in both.stdout, both.stdout
    assert abs(float(both.stdout.split("lead ")[1].split(" ±")[0]) - mean) < 0.06
    twice = _run("--pool", f"{saved}:1", f"{saved}:1")
    assert twice.returncode != 0 and "same deals" in twice.stderr


def test_bench_learned_plays_other_table_sizes(tmp_path: Path) -> None:
    out = tmp_path / "six.jsonl"
    run = _run("neural", "--tables", "mixed", "--seats", "6", "--deals", "1", "--save", str(out))
    assert run.returncode == 0, run.stderr
    assert "(6 seats)" in run.stdout
    result = json.loads(out.read_text())
    assert result["seats"] == 6 and result["games"] == 6  # one deal, the candidate once in every seat
    assert result["others"] == ["greedy", "montecarlo", "ismcts", "greedy", "montecarlo"]
    bad = _run("neural", "--seats", "7")
    assert bad.returncode == 2 and "--seats" in bad.stderr


def test_bench_learned_pairs_by_seed_and_pools_each_side(tmp_path: Path) -> None:
    saved = tmp_path / "runs.jsonl"
    for candidate, seed in (("neural", "1"), ("neural", "2"), ("random", "1"), ("random", "2")):
        run = _run(candidate, "--tables", "greedy", "--deals", "2", "--seed", seed, "--save", str(saved))
        assert run.returncode == 0, run.stderr
    rows = [json.loads(line) for line in saved.read_text().splitlines()]
    apart = _run("--paired", f"{saved}:1", f"{saved}:4")  # neural on seed 1, random on seed 2: other dice
    assert apart.returncode != 0 and "fewer than two deals" in apart.stderr
    both = _run("--paired", f"{saved}:1,2", f"{saved}:3,4")
    diffs = [a - b for x, y in ((0, 2), (1, 3)) for a, b in zip(rows[x]["per_deal"].values(),
                                                                 rows[y]["per_deal"].values())]
    assert both.returncode == 0 and "paired over 4 deals" in both.stdout, both.stdout
    assert abs(float(both.stdout.split("leads by ")[1].split(" ±")[0]) - sum(diffs) / 4) < 0.06
    mixed = _run("--paired", f"{saved}:1,3", f"{saved}:2")
    assert mixed.returncode != 0 and "one candidate" in mixed.stderr
    assert "4 deals pooled from 2 results" in _run("--pool", f"{saved}:1,2").stdout
    for bad in (f"{saved}:9", f"{saved}:1,x"):
        run = _run("--pool", bad)
        assert run.returncode != 0 and "Traceback" not in run.stderr, run.stderr


def test_bench_learned_takes_the_luck_of_the_faces_out_of_the_leads(tmp_path: Path) -> None:
    saved = tmp_path / "luck.jsonl"
    for candidate, playouts in (("neural", "32"), ("random", "32"), ("random", "0")):
        run = _run(candidate, "--tables", "greedy", "--deals", "3", "--luck-playouts", playouts, "--save", str(saved))
        assert run.returncode == 0, run.stderr
        assert ("less the luck of the faces" in run.stdout) == (playouts != "0")
    neural, rand, plain = (json.loads(line) for line in saved.read_text().splitlines())
    assert plain["per_deal"] == rand["per_deal"] and "per_deal_corrected" not in plain  # the same games
    corrected = neural["per_deal_corrected"]
    assert sorted(corrected) == sorted(neural["per_deal"]) and corrected != neural["per_deal"]
    assert abs(sum(corrected.values()) / 3 - neural["lead_corrected"]) < 0.01
    both = _run("--paired", f"{saved}:1", f"{saved}:2")
    gap = round(neural["lead_corrected"] - rand["lead_corrected"], 1)
    assert both.returncode == 0 and f"less the luck of the faces: {gap:+.1f}" in both.stdout, both.stdout
    one_side = _run("--paired", f"{saved}:1", f"{saved}:3")  # the plain result holds no corrected leads
    assert one_side.returncode == 0 and "less the luck" not in one_side.stdout
    assert "less the luck of the faces" in _run("--pool", f"{saved}:1").stdout
    bad = _run("neural", "--luck-playouts", "-1")
    assert bad.returncode == 2 and "--luck-playouts" in bad.stderr
    bad = _run("neural", "--luck-playouts", "100000")
    assert bad.returncode == 2 and "--luck-playouts" in bad.stderr
