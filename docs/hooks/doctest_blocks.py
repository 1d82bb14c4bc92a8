"""A griffe extension for the docs site: show docstring examples (`>>>` lines) as code.

The docstrings carry doctests as plain `>>>` lines (pytest runs them); Markdown
would read them as nested quotes, so this fences each example, with its output,
as a `pycon` code block before mkdocstrings renders the docstring.
"""

from __future__ import annotations

from typing import Any

import griffe


def fence_doctests(text: str) -> str:
    """`text` with every run of `>>>` lines and their output fenced as a `pycon` code block.

    An example ends at a blank line, as in doctest; the fence keeps the example's indentation.
    """
    out: list[str] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        stripped = lines[i].lstrip()
        if not stripped.startswith(">>>"):
            out.append(lines[i])
            i += 1
            continue
        indent = lines[i][: len(lines[i]) - len(stripped)]
        if out and out[-1].strip():
            out.append("")
        out.append(indent + "```pycon")
        while i < len(lines) and lines[i].strip():
            out.append(lines[i])
            i += 1
        out.append(indent + "```")  # the blank line that ended the example, if any, follows
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    """Fences the doctest examples of every docstring once the object tree is built."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Rewrite `obj`'s docstring, if it has examples."""
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)
