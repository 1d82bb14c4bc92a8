"""The web client's modules (server/static/js) import one another without a loop, and only files that exist.

import-linter checks the Python package (tests/test_layers.py); this is its counterpart for the
ES modules of the browser client. The statements are read with regular expressions, not a JS
parser: the files are our own, in one style, and none is installed. What counts as an import:
`import … from "./x.js"` (the list of names may run over several lines), `import "./x.js"`,
`export … from "./x.js"` and `import("./x.js")`. Comments are left out first, so a comment that
quotes an import is not one.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

import pytest

STATIC = Path(__file__).resolve().parents[1] / "src" / "minodice" / "server" / "static"
JS = STATIC / "js"

# A string or template literal (kept whole, so that "//" or "/*" inside one is not a comment),
# else a comment: `//` at the start of a line or after white space, or `/* … */`.
_COMMENT = re.compile(
    r"""("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`)"""
    r"""|(?:(?<=\s)|^)//[^\n]*|/\*.*?\*/""",
    re.DOTALL | re.MULTILINE,
)
_SPEC = r"""(?P<q>["'])(?P<spec>[^"'\n]+)(?P=q)"""
# At the start of a statement (a line): `import` with an optional clause (default, `* as x`,
# `{ a, b as c }` over any number of lines) and `from`, then the module's name.
_IMPORT = re.compile(r"^[ \t]*import\s*(?:[\w$*{}\s,]+?\s*\bfrom\s*)?" + _SPEC, re.MULTILINE)
# `export * from`, `export * as x from`, `export { a, b as c } from`.
_EXPORT_FROM = re.compile(r"^[ \t]*export\s*(?:\*(?:\s*as\s+[\w$]+)?|\{[\w$\s,]*\})\s*from\s*" + _SPEC, re.MULTILINE)
# `import(…)` anywhere; its argument must be a plain string to be followed.
_DYNAMIC = re.compile(r"(?<![\w$.])import\s*\(\s*(?:" + _SPEC + r"\s*\)|(?P<other>[^)\n]*\)?))")


def _code(text: str) -> str:
    """`text` without its comments (each block comment leaves its line breaks, so lines keep their numbers)."""
    return _COMMENT.sub(lambda m: m.group(1) or "\n" * m.group(0).count("\n"), text)


def imports_of(text: str) -> tuple[list[str], list[str]]:
    """The module names one file imports, in order, and the `import(…)` calls it has that name none."""
    code = _code(text)
    found: list[tuple[int, str]] = []
    unreadable = []
    for pattern in (_IMPORT, _EXPORT_FROM, _DYNAMIC):
        for m in pattern.finditer(code):
            if m.group("spec") is not None:
                found.append((m.start(), m.group("spec")))
            else:
                unreadable.append(m.group(0).strip())
    return [spec for _, spec in sorted(found)], unreadable


def module_graph(root: Path) -> tuple[dict[str, list[str]], list[str]]:
    """Each module under `root` (by its path from root) → the modules it imports; and what is wrong:
    an import of a file that does not exist, of a name that is no file of the client, or one that
    cannot be followed."""
    graph: dict[str, list[str]] = {}
    problems = []
    for path in sorted(root.rglob("*.js")):
        name = path.relative_to(root).as_posix()
        specs, unreadable = imports_of(path.read_text(encoding="utf-8"))
        problems += [f"{name}: {call} — an import() of a computed name cannot be checked" for call in unreadable]
        targets = graph[name] = []
        for spec in specs:
            if not spec.startswith(("./", "../")):
                problems.append(f'{name}: imports "{spec}", which is not a file of the client (no bundler: "./x.js")')
                continue
            target = _normal(PurePosixPath(name).parent / spec)
            if target is None or not (root / target).is_file():
                problems.append(f'{name}: imports "{spec}", which does not exist')
            elif target not in targets:
                targets.append(target)
    return graph, problems


def _normal(path: PurePosixPath) -> str | None:
    """`path` with its `.` and `..` resolved; None if it leaves the root."""
    parts: list[str] = []
    for part in path.parts:
        if part == "..":
            if not parts:
                return None
            parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts)


def import_loops(graph: dict[str, list[str]]) -> list[tuple[list[str], list[str]]]:
    """Every import loop: each set of modules that reach one another (a strongly connected
    component, Tarjan's), sorted, with one shortest loop through its first module, `[a, b, …, a]`."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:  # recursion is fine: the client has a few dozen modules
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, []):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1 or node in graph.get(node, []):
                components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [(comp, _shortest_loop(graph, comp)) for comp in sorted(components)]


def _shortest_loop(graph: dict[str, list[str]], component: list[str]) -> list[str]:
    """A shortest path from the component's first module back to itself (breadth first)."""
    start, inside = component[0], set(component)
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt_frontier = []
        for node in frontier:
            for nxt in graph[node]:
                if nxt == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [*reversed(path), start]
                if nxt in inside and nxt not in came_from:
                    came_from[nxt] = node
                    nxt_frontier.append(nxt)
        frontier = nxt_frontier
    raise AssertionError(f"no loop through {start}")  # a component always has one


def check(root: Path) -> list[str]:
    """What is wrong with the modules under `root`: missing files, and each loop named with its modules."""
    graph, problems = module_graph(root)
    for modules, loop in import_loops(graph):
        more = f" ({len(modules)} modules reach one another: {', '.join(modules)})" if len(modules) > len(loop) - 1 else ""
        problems.append("import loop: " + " → ".join(loop) + more)
    return problems


# --- the client as it is ----------------------------------------------------------------------


def test_the_client_has_no_import_loop_and_no_missing_module() -> None:
    assert check(JS) == []


def test_every_module_is_loaded_by_a_page() -> None:
    """Every module is reached from a page's <script type="module"> (which also shows that the
    reading above finds the real imports: a missed one would leave its module unreached)."""
    graph, _ = module_graph(JS)
    entries = set()
    for page in STATIC.glob("*.html"):
        entries |= set(re.findall(r'<script type="module" src="js/([\w./-]+)"', page.read_text(encoding="utf-8")))
    assert entries >= {"app.js", "replay.js", "rules.js", "sheet.js"}
    reached, todo = set(), sorted(entries)
    while todo:
        node = todo.pop()
        if node not in reached:
            reached.add(node)
            todo += graph.get(node, [])
    assert sorted(set(graph) - reached) == []


# --- the check catches what it is for -------------------------------------------------------


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_every_form_of_import_is_read() -> None:
    text = """// A header: import { no } from "./comment.js";
/* import "./block.js"; */
import * as api from "./api.js";
import main, { a, b as c } from './both.js';
import {
  d,
  e, // a comment in the list
} from "./multi.js";
import "./side.js";
import"./tight.js";
export { f, g as h } from "./reexport.js";
export * from "./star.js";
export * as ns from "./starns.js";
const url = new URL(`../i18n/x.json`, import.meta.url); // import.meta is no import
const s = "import x from './in-a-string.js'";
async function later() {
  const m = await import("./dynamic.js");
  return [m, fetch("http://host//path")];
}
"""
    specs, unreadable = imports_of(text)
    assert specs == [
        "./api.js", "./both.js", "./multi.js", "./side.js", "./tight.js",
        "./reexport.js", "./star.js", "./starns.js", "./dynamic.js",
    ]
    assert unreadable == []
    assert imports_of("const m = await import(name);")[1] == ["import(name)"]


def test_a_loop_is_caught_and_named(tmp_path: Path) -> None:
    """A loop of three modules, closed by a multi-line import, a re-export and a dynamic import,
    beside modules that are fine (a diamond, which is no loop): the check names the loop."""
    root = _tree(tmp_path, {
        "main.js": 'import { a } from "./a.js";\nimport { x } from "./x.js";\nimport { y } from "./y.js";\n',
        "a.js": 'import {\n  b,\n} from "./b.js";\nexport const a = 1;\n',
        "b.js": 'export { c } from "./sub/c.js";\n',
        "sub/c.js": 'export async function c() {\n  return import("../a.js");\n}\n',
        "x.js": 'import { z } from "./z.js";\nexport const x = z;\n',
        "y.js": 'import { z } from "./z.js";\nexport const y = z;\n',
        "z.js": "export const z = 1;\n",
    })
    assert check(root) == ["import loop: a.js → b.js → sub/c.js → a.js"]
    (root / "z.js").write_text('import "./z.js";\n', encoding="utf-8")  # a module that imports itself
    assert check(root) == ["import loop: a.js → b.js → sub/c.js → a.js", "import loop: z.js → z.js"]


def test_the_loop_named_is_a_shortest_one(tmp_path: Path) -> None:
    """Two loops through one module, of 2 and 3 files, make one set that reach one another: the
    check reports it once, by its shortest loop and all its modules."""
    root = _tree(tmp_path, {
        "a.js": 'import "./c.js";\nimport "./b.js";\n',
        "b.js": 'import "./a.js";\n',
        "c.js": 'import "./d.js";\n',
        "d.js": 'import "./a.js";\n',
    })
    assert check(root) == ["import loop: a.js → b.js → a.js (4 modules reach one another: a.js, b.js, c.js, d.js)"]


@pytest.mark.parametrize(("line", "problem"), [
    ('import { gone } from "./gone.js";', 'main.js: imports "./gone.js", which does not exist'),
    ('import "../outside.js";', 'main.js: imports "../outside.js", which does not exist'),
    ('export * from "./gone.js";', 'main.js: imports "./gone.js", which does not exist'),
    ('import("./gone.js");', 'main.js: imports "./gone.js", which does not exist'),
    ('import { h } from "htm";', 'main.js: imports "htm", which is not a file of the client (no bundler: "./x.js")'),
])
def test_an_import_of_a_missing_file_is_caught(tmp_path: Path, line: str, problem: str) -> None:
    root = _tree(tmp_path / "js", {"main.js": line + "\n", "ok.js": "export const ok = 1;\n"})
    (tmp_path / "outside.js").write_text("", encoding="utf-8")  # exists, but is not under the root
    assert check(root) == [problem]
