"""The examples of the README and of the docs pages run as written.

Every ```python block runs (a page's blocks in order, in one namespace). The getting-started pages
(docs/start/) are tutorials: each must show at least one example that runs, and the `$ minodice ...`
commands of their ```console blocks are run too, their output compared with the page's.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = sorted(p.relative_to(ROOT) for p in (ROOT / "docs").rglob("*.md"))
#: The tutorials: one getting-started page per audience.
TUTORIALS = sorted(p.relative_to(ROOT) for p in (ROOT / "docs" / "start").glob("*.md"))
MINODICE = Path(sys.executable).parent / "minodice"


def python_blocks(path: Path) -> list[str]:
    """The ```python blocks of a Markdown file (blocks may sit indented inside a list item: each dedented)."""
    blocks = re.findall(r"```python\n(.*?)^ *```", path.read_text(encoding="utf-8"), re.S | re.M)
    return [textwrap.dedent(code) for code in blocks]


def console_commands(path: Path) -> list[tuple[str, str]]:
    """The `$ minodice ...` commands of a Markdown file's ```console blocks, each with the output shown under it."""
    found = []
    for block in re.findall(r"^```console\n(.*?)^```", path.read_text(encoding="utf-8"), re.S | re.M):
        for chunk in re.split(r"^(?=\$ )", block, flags=re.M):
            if chunk.startswith("$ minodice "):
                command, _, output = chunk.partition("\n")
                found.append((command[2:], output))
    return found


def _lines(text: str) -> list[str]:
    """Output as compared: trailing spaces and trailing blank lines dropped."""
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def test_readme_python_examples_run() -> None:
    blocks = python_blocks(README)
    assert blocks, "the README shows at least one Python example"
    for code in blocks:
        exec(compile(code, "README.md", "exec"), {})


@pytest.mark.parametrize("page", [p for p in PAGES if python_blocks(ROOT / p)], ids=str)
def test_docs_python_examples_run(page: Path) -> None:
    """Each page's blocks run in order in one namespace (a later block may use an earlier one's names)."""
    namespace: dict = {}
    for code in python_blocks(ROOT / page):
        exec(compile(code, str(page), "exec"), namespace)


def test_every_audience_has_a_tutorial_that_runs() -> None:
    names = {p.stem for p in TUTORIALS}
    assert names >= {"player", "table", "bot-author", "researcher", "host"}, names
    runnable = {p.stem for p in TUTORIALS if python_blocks(ROOT / p) or console_commands(ROOT / p)}
    assert runnable >= {"player", "table", "bot-author", "researcher"}, runnable


COMMANDS = [(p, c, o) for p in TUTORIALS for c, o in console_commands(ROOT / p)]


@pytest.mark.parametrize(("page", "command", "shown"), COMMANDS, ids=[f"{p.name}: {c}" for p, c, _ in COMMANDS])
def test_tutorial_commands_print_what_the_page_shows(page: Path, command: str, shown: str) -> None:
    argv = [str(MINODICE), *shlex.split(command)[1:]]
    env = {**os.environ, "COLUMNS": "80", "NO_COLOR": "1", "TERM": "dumb"}
    run = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, env=env, timeout=120, check=False)
    assert "Traceback" not in run.stderr, run.stderr
    assert _lines(run.stdout) == _lines(shown), f"{page}: `{command}` printed\n{run.stdout}"


def test_console_commands_are_found(tmp_path: Path) -> None:
    probe = tmp_path / "page.md"
    probe.write_text("Run it:\n\n```console\n$ minodice trick red:6\nroll 1 wins  \n\n$ make serve\nignored\n```\n",
                     encoding="utf-8")
    assert console_commands(probe) == [("minodice trick red:6", "roll 1 wins  \n\n")]
    assert _lines("roll 1 wins  \n\n") == ["roll 1 wins"]


def test_the_readme_is_a_short_tour_that_starts_with_the_two_commands() -> None:
    """The rest lives in docs/: the README stays under 250 lines and opens with `make play` and `make test`."""
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250, len(lines)
    first_block = lines[lines.index("```sh") + 1:lines.index("```", lines.index("```sh") + 1)]
    assert [line.split()[:2] for line in first_block] == [["make", "play"], ["make", "test"]]
