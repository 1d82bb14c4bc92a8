"""The levels benchmark seats the tables its docstring names, and reads its saved results back."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from benchmark_scripts import BENCHMARKS, load

sys.path.insert(0, str(BENCHMARKS))  # it imports bench_learned's measure, as it does when run as a script
levels = load("bench_levels")


def test_the_mixed_tables_seat_one_of_each_level() -> None:
    assert levels.mixed_tables(3) == [["easy", "medium", "hard"], ["medium", "hard", "expert"]]
    assert levels.mixed_tables(4) == [["easy", "medium", "hard", "expert"]]
    assert levels.mixed_tables(6) == [["easy", "medium", "hard", "expert", "greedy", "greedy"]]


def test_saved_results_are_shown_again(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "levels.jsonl"
    below = {"format": "below", "level": "hard", "below": "medium", "seats": 3, "lead": 12.5, "ci95": 3.25,
             "lead_corrected": 11.0, "ci95_corrected": 2.0, "deals": 40, "decision_ms_mean": 4.2}
    mixed = {"format": "mixed", "seats": 4, "table": ["easy", "medium", "hard", "expert"], "deals": 40,
             "steps": [{"level": "expert", "below": "hard", "lead": 9.0, "ci95": [2.0, 16.0],
                        "less_luck": {"mean_diff": 8.0, "ci95": [4.0, 12.0]}}]}
    saved.write_text(json.dumps(below) + "\n" + json.dumps(mixed) + "\n", encoding="utf-8")
    assert levels.main(["--show", str(saved)]) == 0
    out = capsys.readouterr().out
    assert "hard vs 2 medium lead +12.5 ± 3.2, less the luck +11.0 ± 2.0" in out
    assert "expert over hard   at easy/medium/hard/expert: +9.0 (+2.0 … +16.0), less the luck +8.0" in out


def test_a_format_it_does_not_know_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert levels.main(["--formats", "sideways"]) == 2
    assert "--formats takes below and mixed, not sideways" in capsys.readouterr().err
