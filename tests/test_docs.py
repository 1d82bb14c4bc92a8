"""The repository carries its own docs: in step with the shared originals, and no link leads outside it.

The rules, the record format, the bot protocol and the conformance samples live in
`docs/`; where the project's shared folder is present, they must match it. No
Markdown link or image in README.md, docs/, examples/ or research/, and no path or URL in a
docstring under src/, may point outside the repository: a relative link resolves
to a file in it, and a link to the web is allowed only if listed in
`ALLOWED_EXTERNAL` (empty: none is needed).
"""

from __future__ import annotations

import ast
import importlib.util
import io
import re
import tokenize
from pathlib import Path

import pytest

from shared_files import CONFORMANCE, DOCS, ROOT, SHARED

#: Web addresses a page may link to. None: every reference the docs need is in the repository.
ALLOWED_EXTERNAL: tuple[str, ...] = ()

#: In-repo document -> its original in the shared folder.
FROM_SHARED = {
    "rules.md": "RULES.md",
    "record-format.md": "spec/record.md",
    "bot-protocol.md": "spec/bot-protocol.md",
    "conformance/README.md": "conformance/README.md",
}

MARKDOWN = sorted([ROOT / "README.md", *DOCS.rglob("*.md"), *(ROOT / "examples").rglob("*.md"),
                   *(ROOT / "research").rglob("*.md")])
SOURCES = sorted((ROOT / "src").rglob("*.py"))

FENCE = re.compile(r"^ {0,3}(```|~~~).*?^ {0,3}\1[^\n]*$", re.M | re.S)
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REF_DEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.M)
HTML_REF = re.compile(r"""\b(?:href|src)\s*=\s*["']([^"']+)["']""", re.I)
BARE_URL = re.compile(r"\b(?:https?://|www\.)[^\s)<>\]]+", re.I)
MD_PATH = re.compile(r"[\w./-]*[\w-]\.md\b")
WEB = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//)", re.I)


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def in_repo(path: Path) -> bool:
    """Whether `path` is an existing file or folder inside the repository."""
    path = path.resolve()
    return path.is_relative_to(ROOT) and path.exists()


# --- (a) in step with the shared folder ----------------------------------------------------------


def test_the_docs_and_the_conformance_set_are_in_the_repository():
    for name in ("index.md", *FROM_SHARED, "architecture.md", "server-protocol.md"):
        assert (DOCS / name).is_file(), f"docs/{name} is missing"
    assert len(list((CONFORMANCE / "valid").glob("*.json"))) >= 10
    assert len(list((CONFORMANCE / "invalid").glob("*.json"))) >= 10


needs_shared = pytest.mark.skipif(SHARED is None, reason="no shared folder beside the clone: nothing to compare")


@needs_shared
@pytest.mark.parametrize("kind", ["valid", "invalid"])
def test_conformance_samples_are_byte_identical_to_the_shared_set(kind):
    mine = {p.name: p.read_bytes() for p in (CONFORMANCE / kind).iterdir()}
    theirs = {p.name: p.read_bytes() for p in (SHARED / "conformance" / kind).iterdir()}
    assert sorted(mine) == sorted(theirs)
    assert [n for n in theirs if mine[n] != theirs[n]] == []


def headings(text: str) -> list[str]:
    """The Markdown headings of `text` (outside code blocks), as written."""
    return [line.strip() for line in FENCE.sub("", text).splitlines() if re.match(r"#{1,6} ", line)]


@needs_shared
@pytest.mark.parametrize("mine", sorted(FROM_SHARED))
def test_docs_carry_every_heading_of_their_shared_source(mine):
    ours = headings((DOCS / mine).read_text(encoding="utf-8"))
    theirs = headings((SHARED / FROM_SHARED[mine]).read_text(encoding="utf-8"))
    assert [h for h in theirs if h not in ours] == [], f"docs/{mine} lost headings of shared/{FROM_SHARED[mine]}"


# --- (b) links stay inside the repository --------------------------------------------------------


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    text = CODE_SPAN.sub(lambda m: m.group(2), heading.lstrip("#").strip()).lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    return {slug(h) for h in headings(path.read_text(encoding="utf-8"))}


def link_fault(source: Path, target: str) -> str | None:
    """Why `target`, linked from `source`, leads outside the repository or nowhere; None when it is fine."""
    if WEB.match(target) or target.startswith("/"):
        return None if target in ALLOWED_EXTERNAL else "points outside the repository"
    file, _, anchor = target.partition("#")
    path = (source.parent / file).resolve() if file else source
    if not path.is_relative_to(ROOT):
        return "points outside the repository"
    if not path.exists():
        return "names no file in the repository"
    if anchor and path.suffix == ".md" and anchor not in anchors(path):
        return f"names no heading #{anchor} of {rel(path)}"
    return None


def markdown_faults(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    faults = [f"{rel(path)} mentions ../shared" for _ in re.finditer(r"\.\./shared|/work/shared", text)]
    prose = FENCE.sub("", text)
    spans = [m.group(2).strip() for m in CODE_SPAN.finditer(prose)]
    prose = CODE_SPAN.sub("", prose)
    targets = LINK.findall(prose) + REF_DEF.findall(prose) + HTML_REF.findall(prose)
    for target in targets:
        if (why := link_fault(path, target)) is not None:
            faults.append(f"{rel(path)}: link {target!r} {why}")
    for url in BARE_URL.findall(REF_DEF.sub("", LINK.sub("", prose))):  # addresses GitHub would link
        if url not in ALLOWED_EXTERNAL:
            faults.append(f"{rel(path)}: bare address {url!r} points outside the repository")
    for span in spans:  # a file named in code: `docs/rules.md`, beside the page or from the root
        if MD_PATH.fullmatch(span) and not (in_repo(path.parent / span) or in_repo(ROOT / span)):
            faults.append(f"{rel(path)}: `{span}` names no file in the repository")
    return faults


@pytest.mark.parametrize("path", MARKDOWN, ids=[rel(p) for p in MARKDOWN])
def test_markdown_links_stay_inside_the_repository(path):
    assert markdown_faults(path) == []


def docstrings(source: str) -> list[str]:
    """The docstrings of a module (module, class, function and attribute ones) and its `#:` comments."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for stmt in body:
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
                found.append(stmt.value.value)
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    found += [tok.string for tok in tokens if tok.type == tokenize.COMMENT and tok.string.startswith("#:")]
    return found


def docstring_faults(path: Path) -> list[str]:
    faults = []
    for doc in docstrings(path.read_text(encoding="utf-8")):
        if "shared/" in doc:
            faults.append(f"{rel(path)}: a docstring mentions the shared folder")
        faults += [f"{rel(path)}: {url!r} in a docstring" for url in BARE_URL.findall(doc) if url not in ALLOWED_EXTERNAL]
        for name in MD_PATH.findall(doc):
            if not in_repo(ROOT / name):
                faults.append(f"{rel(path)}: {name!r} in a docstring names no file of the repository")
    return faults


def test_docstrings_under_src_name_only_files_of_the_repository():
    assert [f for path in SOURCES for f in docstring_faults(path)] == []


# --- the checks above catch what they are for ----------------------------------------------------


def test_the_link_check_catches_links_out_of_the_repository(tmp_path):
    page = DOCS / "rules.md"
    assert link_fault(page, "https://example.org/rules") == "points outside the repository"
    assert link_fault(page, "../../shared/RULES.md") == "points outside the repository"
    assert link_fault(page, "spec/record.md") == "names no file in the repository"
    assert link_fault(page, "record-format.md#fields") is None
    assert link_fault(page, "record-format.md#no-such-part") is not None
    assert link_fault(ROOT / "README.md", "#for-researchers") is None
    bad = tmp_path / "page.md"
    bad.write_text("See [it](../../shared/spec/record.md), ![x](http://a.b/c.png),\n"
                   "<https://x.org>, www.x.org and `spec/bot-protocol.md`.\n\n```\nhttp://in-code.example\n```\n")
    faults = "\n".join(markdown_faults(bad))
    for caught in ("mentions ../shared", "link '../../shared/spec/record.md' points outside",
                   "link 'http://a.b/c.png' points outside", "'https://x.org'", "'www.x.org'",
                   "`spec/bot-protocol.md` names no file"):
        assert caught in faults
    assert len(markdown_faults(bad)) == 6 and "in-code" not in faults


def test_the_docstring_check_catches_bad_references(tmp_path):
    source = '"""See `spec/record.md` and https://example.org."""\n#: As in ../shared/RULES.md\nX = 1\n'
    assert docstrings(source) == ["See `spec/record.md` and https://example.org.", "#: As in ../shared/RULES.md"]
    probe = tmp_path / "probe.py"
    probe.write_text(source)
    faults = "\n".join(docstring_faults(probe))
    for caught in ("'spec/record.md'", "'https://example.org.'", "mentions the shared folder", "'../shared/RULES.md'"):
        assert caught in faults
    good = tmp_path / "good.py"
    good.write_text('"""See `docs/rules.md` and README.md."""\n')
    assert docstring_faults(good) == []


def test_docstring_examples_become_code_blocks_on_the_site():
    spec = importlib.util.spec_from_file_location("doctest_blocks", DOCS / "hooks" / "doctest_blocks.py")
    if spec is None or spec.loader is None or importlib.util.find_spec("griffe") is None:
        pytest.skip("griffe (mkdocstrings) is not installed")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text = "Add:\n>>> 1 + 1\n2\n\nDone.\n    >>> x[1][0]\n    'a'"
    assert module.fence_doctests(text) == (
        "Add:\n\n```pycon\n>>> 1 + 1\n2\n```\n\nDone.\n\n    ```pycon\n    >>> x[1][0]\n    'a'\n    ```"
    )


# --- the site's build: strict for real, and the command-line reference generated -----------------


def test_the_strict_docs_build_is_not_silenced():
    """`mkdocs build --quiet` drops the warnings before `--strict` counts them (MkDocs 1.6), so a quiet strict
    build passes with a broken link: the Makefile's builds must not be quiet."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    builds = [line for line in makefile.splitlines()
              if "mkdocs build" in line and not line.lstrip("\t@").startswith(("#", "echo"))]
    assert builds, "the Makefile builds the docs"
    for line in builds:
        assert "--strict" in line and "--quiet" not in line and not re.search(r"\s-q\b", line), line


def test_the_command_line_reference_is_generated():
    """docs/cli.md holds the generator's directive, not a hand-written list, and the generator sees every command."""
    page = (DOCS / "cli.md").read_text(encoding="utf-8")
    assert "::: mkdocs-typer2" in page and ":module: minodice.cli" in page
    assert "| `" not in page, "no hand-written table of commands or options"
    assert "mkdocs_typer2.markdown" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    pretty = pytest.importorskip("mkdocs_typer2.pretty")
    from minodice.cli import COMMAND_GROUPS

    tree = pretty.build_tree_from_click_app("minodice.cli", "minodice")
    shown = {command.name for command in tree.commands}
    assert shown >= {name for names in COMMAND_GROUPS.values() for name in names}
