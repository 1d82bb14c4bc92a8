"""One registry of codes: every code the engine and the server can emit is in `codes.CODES`,
and every code there has its words in each language file of the web client.

The scan is real: it reads `src/minodice` with `ast`, finds every callable that
takes a `code` first (the engine's `IllegalAction`, the rules' `Reason`, the
server's `Refused`, `BadMessage`, `protocol.error`, the table tools' refusals,
and any added later), and follows each code argument back to its string
literals, so a new code without a registry entry fails here.
"""

from __future__ import annotations

import ast
import json
import re
import string
from collections.abc import Iterator
from pathlib import Path

import pytest

from minodice import codes

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "minodice"
I18N = SRC / "server" / "static" / "i18n"
LANGS = ("en", "es", "fr", "de")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, tuple[Path, ast.Module]]:
    """Every module of the package by dotted name: its path and syntax tree."""
    out = {}
    for path in sorted(SRC.rglob("*.py")):
        out[_module_name(path)] = (path, ast.parse(path.read_text(encoding="utf-8"), str(path)))
    return out


#: What takes a registry code first (their subclasses are found by the scan).
ROOTS = {
    "minodice.errors.IllegalAction",  # the engine's refusals
    "minodice.rules.Reason",  # the rules' reasons
    "minodice.codes.render",
    "minodice.server.tables.Refused",  # the server's refusals (HTTP and websocket)
    "minodice.server.protocol.BadMessage",
    "minodice.server.protocol.error",
    "minodice.server.protocol.http_error",
    "minodice.table.refusal.Refusal",  # the score sheet's and the referee's
    "minodice.bots.spec.BotSpecError",  # a bot spec's refusals
    "minodice.server.sealing.SeedKeyError",  # a server's secret key, at its start
}
#: What takes a `code` first that is not a registry code: a table's code, a websocket close code.
NOT_REGISTRY = {
    "minodice.server.chat.Table",
    "minodice.server.store.StoredTable",
    "minodice.server.store.TableRow",
    "minodice.server.ws.Closed",
}


class Package:
    """The package's modules, with imports followed, so a call's callee is known by its full name."""

    def __init__(self) -> None:
        self.modules = _modules()

    def imports(self, module: str) -> dict[str, str]:
        """Local name → full dotted name, for every import of `module`."""
        path, tree = self.modules[module]
        package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
        out: dict[str, str] = {}
        for node in tree.body:
            if isinstance(node, ast.Import):
                for a in node.names:
                    out[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
            elif isinstance(node, ast.ImportFrom):
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                source = (f"{base}.{node.module}" if node.module else base) if node.level else node.module or ""
                for a in node.names:
                    out[a.asname or a.name] = f"{source}.{a.name}"
        return out

    def canonical(self, name: str, depth: int = 0) -> str:
        """Where `name` (module.symbol) is defined, following re-exports."""
        module, _, symbol = name.rpartition(".")
        if name in self.modules or module not in self.modules or depth > 8:
            return name
        _path, tree = self.modules[module]
        defined = any(
            isinstance(n, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == symbol
            for n in tree.body
        )
        if defined:
            return name
        imported = self.imports(module).get(symbol)
        return self.canonical(imported, depth + 1) if imported else name

    def callee(self, module: str, call: ast.Call, local: set[str]) -> str | None:
        """The full name of what `call` calls, if it is defined in the package."""
        f = call.func
        names = self.imports(module)
        if isinstance(f, ast.Name):
            if f.id in local:
                return f"{module}.{f.id}"
            return self.canonical(names[f.id]) if f.id in names else None
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in names:
            return self.canonical(f"{names[f.value.id]}.{f.attr}")
        return None

    def code_callables(self) -> set[str]:
        """ROOTS, every class of the package derived from one, and every function passing its `code` on to one."""
        found = self._subclasses(set(ROOTS))
        grew = True
        while grew:  # wrappers: `def _refusal(code, **p): return IllegalAction(code, ...)`
            grew = False
            for name in self.takers_of_code() - found:
                if self._forwards_code(name, found):
                    found.add(name)
                    grew = True
        return found

    def _forwards_code(self, name: str, callables: set[str]) -> bool:
        module, _, symbol = name.rpartition(".")
        _path, tree = self.modules[module]
        fn = next((n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == symbol), None)
        if fn is None:
            return False
        local = {n.name for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
        return any(
            isinstance(c, ast.Call) and self.callee(module, c, local) in callables
            and isinstance(_code_arg(c), ast.Name) and _code_arg(c).id == "code"  # type: ignore[union-attr]
            for c in ast.walk(fn)
        )

    def _subclasses(self, found: set[str]) -> set[str]:
        """`found` and every class of the package derived from one of them."""
        classes: dict[str, list[str]] = {}
        for module, (_path, tree) in self.modules.items():
            local = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
            names = self.imports(module)
            for node in tree.body:
                if isinstance(node, ast.ClassDef):
                    bases = [b.id for b in node.bases if isinstance(b, ast.Name)]
                    classes[f"{module}.{node.name}"] = [
                        f"{module}.{b}" if b in local else self.canonical(names.get(b, b)) for b in bases
                    ]
        grew = True
        while grew:
            grew = False
            for name, bases in classes.items():
                if name not in found and found & set(bases):
                    found.add(name)
                    grew = True
        return found

    def takers_of_code(self) -> set[str]:
        """Every class (by `__init__` or first dataclass field) and module-level, undecorated
        function of the package whose first parameter is called `code`."""
        out = set()
        for module, (_path, tree) in self.modules.items():
            for node in tree.body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.decorator_list:
                    if _first_param(node) == "code":
                        out.add(f"{module}.{node.name}")
                elif isinstance(node, ast.ClassDef):
                    init = next((n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
                    fields = [n.target.id for n in node.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)]
                    if (init is not None and _first_param(init) == "code") or (init is None and fields[:1] == ["code"]):
                        out.add(f"{module}.{node.name}")
        return out


def _first_param(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    args = [a.arg for a in fn.args.posonlyargs + fn.args.args]
    if args and args[0] in ("self", "cls"):
        args = args[1:]
    return args[0] if args else None


def _code_arg(call: ast.Call) -> ast.expr | None:
    if call.args and not isinstance(call.args[0], ast.Starred):
        return call.args[0]
    return next((k.value for k in call.keywords if k.arg == "code"), None)


class Resolver:
    """Follows a code argument back to the string literals it can hold."""

    def __init__(self, tree: ast.Module, func: ast.AST | None) -> None:
        self.tree = tree
        self.func = func

    def codes(self, expr: ast.expr) -> set[str] | None:
        """The literals `expr` can be; None when it forwards a code checked elsewhere."""
        if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
            return {expr.value}
        if isinstance(expr, ast.IfExp):
            return self._union([expr.body, expr.orelse])
        if isinstance(expr, ast.Attribute) and expr.attr == "code":
            return None  # another value's code (an exception, a Reason): checked where it was made
        if isinstance(expr, ast.Subscript):
            key = expr.slice
            if isinstance(key, ast.Constant) and key.value == "code":
                return None  # a to_dict()'s code: forwarded
            return self._container(expr.value)
        if isinstance(expr, ast.Name):
            return self._name(expr.id)
        raise AssertionError(f"cannot follow the code {ast.unparse(expr)!r} back to a literal")

    def _union(self, exprs: list[ast.expr]) -> set[str] | None:
        out: set[str] = set()
        for e in exprs:
            got = self._container(e)
            if got is not None:
                out |= got
        return out

    def _container(self, expr: ast.expr) -> set[str] | None:
        if isinstance(expr, ast.Name):
            value = self._assigned(self.tree, expr.id)
            if value is None:
                raise AssertionError(f"cannot find {expr.id} holding codes")
            return self._container(value)
        if isinstance(expr, ast.Dict):
            return self._union([v for v in expr.values])
        if isinstance(expr, (ast.Tuple, ast.List, ast.Set)):
            return self._union(list(expr.elts))
        return self.codes(expr)

    def _name(self, name: str) -> set[str] | None:
        if self.func is not None:
            fn = self.func
            params = [a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs]  # type: ignore[attr-defined]
            value = self._assigned(fn, name)
            if value is not None:
                return self._container(value)
            if name in params:
                return None  # a code passed in: its callers' literals are scanned where they call
        value = self._assigned(self.tree, name)
        if value is None:
            raise AssertionError(f"cannot follow the code {name!r} back to a literal")
        return self._container(value)

    @staticmethod
    def _assigned(scope: ast.AST, name: str) -> ast.expr | None:
        for node in ast.walk(scope):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name) and target.id == name:
                        return node.value
                    if isinstance(target, ast.Tuple) and any(
                        isinstance(e, ast.Name) and e.id == name for e in target.elts
                    ):
                        return node.value
        return None


def emitted_codes(package: Package | None = None) -> Iterator[tuple[str, str]]:
    """(code, where) for every code literal passed to a code-carrying callable in `src/minodice`."""
    package = package or Package()
    callables = package.code_callables()
    for module, (path, tree) in package.modules.items():
        local = {n.name for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
        funcs = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        owner = {id(c): f for f in funcs for c in ast.walk(f) if isinstance(c, ast.Call)}  # innermost last
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or package.callee(module, node, local) not in callables:
                continue
            arg = _code_arg(node)
            if arg is None:
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            try:
                found = Resolver(tree, owner.get(id(node))).codes(arg)
            except AssertionError as exc:
                raise AssertionError(f"{where}: {exc}") from None
            for code in found or ():
                yield code, where


def test_every_taker_of_a_code_is_known() -> None:
    """A new class or function taking a `code` first must say whether it is a registry code."""
    package = Package()
    unknown = package.takers_of_code() - package.code_callables() - NOT_REGISTRY
    assert not unknown, f"add these to ROOTS (registry codes) or NOT_REGISTRY (other codes): {sorted(unknown)}"
    assert package.code_callables() >= ROOTS
    for name in ROOTS | NOT_REGISTRY:
        module = name.rpartition(".")[0]
        assert module in package.modules and package.canonical(name) == name, f"{name} is not defined"


def test_every_emitted_code_is_in_the_registry() -> None:
    found = list(emitted_codes())
    seen = {code for code, _ in found}
    # the scan sees the engine's, the rules', and the server's codes
    assert {"must_follow", "not_your_turn", "highest_number", "mermaid_took_minotaur"} <= seen
    assert {"no_table", "bad_message", "flood", "need_hello", "no_decision", "bad_bots"} <= seen
    missing = sorted({f"{code} ({where})" for code, where in found if code not in codes.CODES})
    assert not missing, "codes emitted but not in minodice.codes: " + ", ".join(missing)


def test_the_scan_is_real() -> None:
    """A made-up code in a made-up raise is caught: literal, through a variable, or through a wrapper."""
    package = Package()
    fake = (
        "from .errors import IllegalAction\n"
        "def _refusal(code, **params):\n"
        "    return IllegalAction(code, 'words', **params)\n"
        "def act(x):\n"
        "    raise _refusal('made_up_c' if x else 'must_follow')\n"
    )
    package.modules["minodice._fake"] = (SRC / "_fake.py", ast.parse(fake))
    assert "minodice._fake._refusal" in package.code_callables()
    assert ("made_up_c", "src/minodice/_fake.py:5") in set(emitted_codes(package))
    tree = ast.parse(
        "def f(x):\n"
        "    kind = 'made_up_a' if x else 'made_up_b'\n"
        "    raise Refused(kind, status=400)\n"
    )
    func = tree.body[0]
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call))
    assert Resolver(tree, func).codes(_code_arg(call)) == {"made_up_a", "made_up_b"}  # type: ignore[arg-type]


def test_no_code_is_in_two_groups() -> None:
    """`CODES` joins every group: a code in two groups would take one group's words for the other's."""
    seen: dict[str, str] = {}
    for name, group in (*codes.GROUPS.items(), *codes.TERMINAL_GROUPS.items()):
        for code in group:
            assert code not in seen, f"{code} is in both {seen[code]} and {name}"
            seen[code] = name
    assert len(codes.CODES) == len(seen)


def test_server_errors_are_rendered_from_the_registry() -> None:
    from minodice.server import protocol as P
    from minodice.server.tables import Refused

    assert Refused("not_host", status=403).message == codes.SERVER_ERRORS["not_host"]
    assert Refused("no_table", status=404, table="ZZ").message == "there is no table ZZ"
    frame = P.error("flood", params={"limit": 20})
    assert frame["message"].startswith("slow down: at most 20 messages") and frame["params"] == {"limit": 20}
    with pytest.raises(KeyError):
        Refused("not_a_registered_code")


# --- every code has its words in every language ----------------------------------------------


def _load(lang: str) -> dict:
    return json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("group", sorted(codes.GROUPS))
def test_every_code_is_translated_with_its_placeholders(lang: str, group: str) -> None:
    table = _load(lang)
    problems = []
    for code, template in codes.GROUPS[group].items():
        text = table.get(f"code.{code}")
        if not isinstance(text, str) or not text.strip():
            problems.append(f"code.{code} is missing")
            continue
        want, got = _fields(template), set(re.findall(r"\{(\w+)\}", text))
        if want != got:
            problems.append(f"code.{code}: placeholders {sorted(got)}, the template has {sorted(want)}")
    assert not problems, f"{lang}.json ({group}): " + "; ".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_the_tie_sentence_is_translated(lang: str) -> None:
    text = _load(lang)["code.tie"]
    assert set(re.findall(r"\{(\w+)\}", text)) == _fields(codes.TIE_SUFFIX)


def test_the_game_page_has_one_scheme_for_codes() -> None:
    """Server and engine codes are words under "code.*"; "error.*" keeps only the client's own messages."""
    for lang in LANGS:
        left = sorted(k for k in _load(lang) if k.startswith("error.") and k[6:] in codes.CODES)
        assert not left, f"{lang}.json: codes still under error.*: {left}"
