"""Every `--pool` and `--paired` command the pages give on `research/data/strength.jsonl` runs, and every
figure it prints is in the page that cites it: a figure copied wrong, or a line number gone stale, fails.

The pages are the product's (README.md, docs/*.md) and the experiment log's (research/*.md): the data lives
in research/, and a figure the product quotes from it is checked like the log's own."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "bench_learned.py"
PRODUCT = (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")))
RESEARCH = tuple(sorted((ROOT / "research").glob("*.md")))
PAGES = (*PRODUCT, *RESEARCH)
#: `--pool R ...` or `--paired A B`, each result a line list of the repository's strength record.
COMMAND = re.compile(r"--(pool|paired) ((?:research/data/strength\.jsonl:[\d,]+ ?)+)")
#: A figure as the benchmark prints it: a signed mean and its 95 % half-width.
FIGURE = re.compile(r"([+-]\d+\.\d) ± (\d+\.\d)")


def _commands() -> list[tuple[Path, tuple[str, ...]]]:
    found = []
    for page in PAGES:
        for kind, results in sorted(set(COMMAND.findall(page.read_text(encoding="utf-8")))):
            found.append((page, (f"--{kind}", *results.split())))
    return found


def _as_written(figure: tuple[str, str]) -> str:
    """A printed figure as the pages write it (a minus sign, not a hyphen)."""
    mean, half = figure
    return f"{mean.replace('-', '−')} ± {half}"


COMMANDS = _commands()


def test_the_pages_cite_saved_results() -> None:
    """The experiment log cites its figures this way, and the product's bots page the ones it quotes from it
    (so a path or a pattern gone stale, which would find nothing to check, fails here)."""
    cited = {page.relative_to(ROOT).as_posix() for page, _ in COMMANDS}
    assert sum(page in RESEARCH for page, _ in COMMANDS) >= 70, cited
    assert sum(page in PRODUCT for page, _ in COMMANDS) >= 8, cited
    assert "docs/bots.md" in cited and "research/learned-bot.md" in cited


@pytest.mark.parametrize(("page", "args"), COMMANDS, ids=[" ".join(a) for _, a in COMMANDS])
def test_a_cited_comparison_runs_and_its_figures_are_in_the_page(page: Path, args: tuple[str, ...]) -> None:
    run = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, cwd=ROOT,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    figures = FIGURE.findall(run.stdout)
    assert figures, run.stdout
    text = page.read_text(encoding="utf-8")
    missing = [_as_written(f) for f in figures if _as_written(f) not in text]
    assert not missing, f"{page.name} cites `{' '.join(args)}` but not its figures {missing}"


def test_a_figure_missing_from_the_page_is_caught() -> None:
    printed = FIGURE.findall("lead +4.6 ± 2.0\n  less the luck of the faces: -0.2 ± 5.2")
    assert [_as_written(f) for f in printed] == ["+4.6 ± 2.0", "−0.2 ± 5.2"]
    assert "−0.2 ± 5.2" not in "+0.2 ± 5.2"
