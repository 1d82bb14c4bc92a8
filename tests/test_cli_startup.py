"""The command line starts light: each command loads only its own group, and the quick commands never
import numba, numpy, matplotlib or the server (timings are in benchmarks/bench_startup.py, not here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from minodice.cli import COMMAND_GROUPS, build_app

HEAVY = ("numba", "numpy", "matplotlib", "fastapi", "sqlalchemy", "pydantic", "minodice.sim", "minodice.analysis.advisor")
SAMPLE = sorted((Path(__file__).resolve().parents[1] / "docs" / "conformance" / "valid").glob("*.json"))


def _names(app: typer.Typer) -> list[str]:
    return [c.name or (c.callback.__name__ if c.callback else "") for c in app.registered_commands]


def test_the_group_table_matches_what_each_module_registers() -> None:
    for group, commands in COMMAND_GROUPS.items():
        assert tuple(_names(build_app((group,)))) == commands, group
    assert _names(build_app()) == [name for names in COMMAND_GROUPS.values() for name in names]


def _loaded(argv: list[str]) -> tuple[int, set[str]]:
    """Run the console script's `main` with `argv` in a fresh interpreter: exit status and modules loaded."""
    script = (
        "import json, sys\n"
        f"sys.argv = ['minodice', *{argv!r}]\n"
        "from minodice.cli import main\n"
        "try:\n    main()\nexcept SystemExit as e:\n    code = e.code or 0\n"
        "print(json.dumps([code, sorted(sys.modules)]), file=sys.stderr)\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False)
    code, modules = json.loads(run.stderr.strip().splitlines()[-1])
    return code, set(modules)


@pytest.mark.parametrize("argv", [
    ["--help"],
    ["--version"],
    ["trick", "red:6", "gray:flag"],
    ["sheet", "--help"],
    ["play", "--help"],
    ["verify", *(str(p) for p in SAMPLE[:1])],
])
def test_quick_commands_load_nothing_heavy(argv: list[str]) -> None:
    code, modules = _loaded(argv)
    assert code == 0
    assert not [m for m in HEAVY if m in modules]


def test_a_command_loads_only_its_group() -> None:
    _, modules = _loaded(["trick", "red:6", "gray:flag"])
    assert "minodice.cli.table" in modules
    assert not {"minodice.cli.sheet", "minodice.cli.records", "minodice.cli.tournament"} & modules


def test_the_whole_app_and_the_package_face_load_on_first_use() -> None:
    import minodice

    assert minodice.Game.__name__ == "Game" and "Game" in dir(minodice)
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        _ = minodice.Nope  # type: ignore[attr-defined]  # the refusal of an unknown name is what is tested
