"""The shape the codebase keeps (DESIGN.md): small functions, public names across modules."""

from __future__ import annotations

import ast
from pathlib import Path

import minodice

SRC = Path(minodice.__file__).parent
MAX_LINES = 80


def _modules() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.py") if "migrations" not in p.parts)


def _is_numba_kernel(node: ast.AST) -> bool:
    """A function compiled by numba (the one sanctioned exception to the size limit)."""
    for dec in getattr(node, "decorator_list", []):
        target = dec.func if isinstance(dec, ast.Call) else dec
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name in ("njit", "jit", "vectorize", "guvectorize"):
            return True
    return False


def long_functions() -> list[str]:
    """Every function in src/ longer than MAX_LINES lines, numba kernels excepted."""
    out = []
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not _is_numba_kernel(node):
                lines = node.end_lineno - node.lineno + 1  # type: ignore[operator]
                if lines > MAX_LINES:
                    out.append(f"{path.relative_to(SRC)}:{node.lineno} {node.name} ({lines} lines)")
    return out


def private_imports() -> list[str]:
    """Every `from x import _name` or `module._name` use of another minodice module's private name."""
    out = []
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported_modules: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("minodice")):
                for alias in node.names:
                    if alias.name.startswith("_") and not alias.name.startswith("__"):
                        out.append(f"{path.relative_to(SRC)}:{node.lineno} imports {alias.name}")
                    imported_modules.add(alias.asname or alias.name)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("minodice"):
                        imported_modules.add(alias.asname or alias.name.split(".")[0])
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                    and isinstance(node.value, ast.Name) and node.value.id in imported_modules):
                out.append(f"{path.relative_to(SRC)}:{node.lineno} uses {node.value.id}.{node.attr}")
    return out


def test_no_function_over_80_lines_except_numba_kernels():
    assert long_functions() == []


def test_no_module_uses_another_modules_private_names():
    assert private_imports() == []
