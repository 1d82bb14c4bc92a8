"""The README's Python example runs as written."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_examples_run() -> None:
    # Blocks may sit indented inside a list item: dedent each before running it.
    blocks = re.findall(r"```python\n(.*?)^ *```", README.read_text(encoding="utf-8"), re.S | re.M)
    assert blocks, "the README shows at least one Python example"
    for code in blocks:
        exec(compile(textwrap.dedent(code), "README.md", "exec"), {})
