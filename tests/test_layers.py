"""The layers of DESIGN.md hold: import-linter's contracts (pyproject.toml) pass, and would catch a bad import."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import minodice

SRC = Path(minodice.__file__).parent
ROOT = SRC.parent.parent
PYPROJECT = ROOT / "pyproject.toml"
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def _contracts() -> dict[str, dict]:
    config = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["importlinter"]
    return {c["id"]: c for c in config["contracts"]}


def _lint(cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo", str(cwd / "pyproject.toml")],
        cwd=cwd, env=dict(env or os.environ, COLUMNS="200"), capture_output=True, text=True, timeout=120,
        check=False,
    )


def test_the_contracts_hold() -> None:
    """`lint-imports` on the package as it is: every contract kept."""
    run = _lint(ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"Contracts: {len(_contracts())} kept, 0 broken." in run.stdout


def test_every_module_sits_in_a_layer() -> None:
    """A new package or module must be placed in the layers contract (else it escapes every layer)."""
    layers = [
        name.strip()
        for row in _contracts()["layers"]["layers"]
        for name in row.replace(":", "|").split("|")
    ]
    containers = {"minodice", "minodice.analysis"}  # package faces that import nothing of their own
    loose = []
    for path in SRC.rglob("*.py"):
        parts = path.relative_to(SRC.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        if name not in containers and not any(name == lay or name.startswith(lay + ".") for lay in layers):
            loose.append(name)
    assert loose == []


@pytest.fixture(scope="module")
def package_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the package's Python files and of pyproject.toml, to break on purpose."""
    root = tmp_path_factory.mktemp("layers")
    shutil.copytree(SRC, root / "minodice", ignore=shutil.ignore_patterns("__pycache__", "static", "*.nbi", "*.nbc"))
    shutil.copy(PYPROJECT, root / "pyproject.toml")
    return root


# (module that gains the import, the import, a contract that must break)
BAD_IMPORTS = [
    ("sim/batch.py", "from ..bots import greedy", "sim"),
    ("analysis/strength.py", "from ..sim import kernel", "layers"),
    ("rules.py", "from .analysis import strength", "core"),
    ("game.py", "from . import record", "layers"),
    ("bots/greedy.py", "from ..tui import render", "interfaces"),
    ("tui/render.py", "from .. import cli", "entry-points"),
    ("server/app.py", "from ..tui import render", "tui-server"),
    ("server/chat.py", "from .tables import Table", "server-acyclic"),
]


@pytest.mark.parametrize(("module", "line", "contract"), BAD_IMPORTS)
def test_a_bad_import_breaks_a_contract(package_copy: Path, module: str, line: str, contract: str) -> None:
    """The same contracts, run on a copy of the package with one import that points the wrong way
    (inside a function, where it is easiest to slip in), report it broken."""
    target = package_copy / "minodice" / module
    original = target.read_text(encoding="utf-8")
    target.write_text(original + f"\n\ndef _layer_breaker() -> None:\n    {line}  # noqa\n", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(package_copy))
    try:
        run = _lint(package_copy, env)
    finally:
        target.write_text(original, encoding="utf-8")
    name = _contracts()[contract]["name"]
    assert run.returncode == 1, run.stdout + run.stderr
    assert _words(f"{name} BROKEN") in _words(run.stdout), run.stdout
    importer = "minodice." + module.removesuffix(".py").replace("/", ".")
    # A layer's report names the importer in full; an import loop's names the module to cut, in its package.
    assert importer in run.stdout or f"- .{importer.rsplit('.', 1)[1]} -> " in run.stdout, run.stdout


def _words(text: str) -> str:
    """`text` with every run of white space (line wraps included) made one space."""
    return " ".join(text.split())
