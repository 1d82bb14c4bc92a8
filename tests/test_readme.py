"""The Python examples of the README and of the docs pages run as written."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = sorted(p.relative_to(ROOT) for p in (ROOT / "docs").rglob("*.md"))


def python_blocks(path: Path) -> list[str]:
    """The ```python blocks of a Markdown file (blocks may sit indented inside a list item: each dedented)."""
    blocks = re.findall(r"```python\n(.*?)^ *```", path.read_text(encoding="utf-8"), re.S | re.M)
    return [textwrap.dedent(code) for code in blocks]


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
