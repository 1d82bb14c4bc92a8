"""The package as a user gets it: the wheel and sdist carry what they need, the base install plays, and a
command whose optional part is missing names the extra to install (one line, exit 2, no traceback)."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest
import typer

from minodice.cli.options import need
from minodice.extras import EXTRAS, MissingExtra, require

ROOT = Path(__file__).resolve().parents[1]


def test_require_names_the_extra_and_the_module() -> None:
    with pytest.raises(MissingExtra) as caught:
        require("plots", "json", "no_such_module_for_minodice")
    assert caught.value.code == "missing_extra"
    assert caught.value.params == {"extra": "plots", "module": "no_such_module_for_minodice"}
    assert "pip install 'minodice[plots]'" in str(caught.value)
    assert isinstance(caught.value, ImportError)  # so `pytest.importorskip` and `except ImportError` still work


def test_require_refuses_an_extra_that_does_not_exist() -> None:
    with pytest.raises(ValueError, match="unknown extra 'gpu'"):
        require("gpu", "json")


def test_every_extra_named_in_the_code_is_declared_in_pyproject() -> None:
    import tomllib

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert set(EXTRAS) <= set(declared)
    assert set(declared["all"][0].partition("[")[2].rstrip("]").split(",")) == set(EXTRAS)


def test_need_exits_2_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(typer.Exit) as caught:
        need("server", "no_such_module_for_minodice")
    assert caught.value.exit_code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install 'minodice[server]'" in err


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist and the wheel, built from this tree as `python -m build` does."""
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
                   check=True, capture_output=True, timeout=600)
    return out


def test_the_wheel_carries_the_web_client_the_migrations_and_the_types(dist: Path) -> None:
    names = set(zipfile.ZipFile(next(dist.glob("*.whl"))).namelist())
    for wanted in ("minodice/py.typed", "minodice/server/static/index.html", "minodice/server/static/i18n/fr.json",
                   "minodice/server/migrations/script.py.mako", "minodice/server/migrations/versions/0001_initial.py", "minodice/cli/__init__.py"):
        assert wanted in names, wanted
    assert not any("__pycache__" in n for n in names)
    # Only the package and its metadata: no docs, tests, benchmarks or research data.
    assert {n.split("/", 1)[0] for n in names if not n.split("/", 1)[0].endswith(".dist-info")} == {"minodice"}


def test_the_sdist_carries_the_docs_the_samples_and_the_tests(dist: Path) -> None:
    with tarfile.open(next(dist.glob("*.tar.gz"))) as sdist:
        names = {n.split("/", 1)[1] for n in sdist.getnames() if "/" in n}
    for wanted in ("LICENSE", "README.md", "Makefile", "mkdocs.yml", "docs/rules.md", "docs/record-format.md",
                   "docs/bot-protocol.md", "docs/bots.md", "tests/test_rules.py", "benchmarks/bench_startup.py",
                   "research/learned-bot.md", "research/data/strength.jsonl"):
        assert wanted in names, wanted
    assert any(n.startswith("docs/conformance/valid/") for n in names)


def test_twine_accepts_both(dist: Path) -> None:
    twine = Path(sys.executable).parent / "twine"
    run = subprocess.run([str(twine), "check", "--strict", *map(str, dist.iterdir())],
                         capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_base_wheel_plays_in_a_fresh_venv_and_names_missing_extras(dist: Path, tmp_path: Path) -> None:
    """`pip install minodice` (no extras) in a new venv, run away from the source tree."""
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    bin_dir = env_dir / "bin"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "--quiet", str(next(dist.glob("*.whl")))],
                   check=True, capture_output=True, timeout=900, env=env, cwd=tmp_path)

    def run(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(argv, capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path, check=False)

    played = run(str(bin_dir / "minodice"), "play", "--help")
    assert played.returncode == 0 and "Usage: minodice play" in played.stdout, played.stderr
    served = run(str(bin_dir / "minodice"), "serve")
    assert served.returncode == 2
    assert served.stderr.strip().count("\n") == 0 and "Traceback" not in served.stderr
    assert "pip install 'minodice[server]'" in served.stderr
    env_check = run(str(bin_dir / "python"), "-c", "import minodice.envs.gymnasium")
    assert "pip install 'minodice[rl]'" in env_check.stderr
    location = run(str(bin_dir / "python"), "-c", "import minodice; print(minodice.__file__)")
    assert str(env_dir) in location.stdout  # the installed copy, not this source tree
    # No numba in the base install: the bid advisor still answers, and says how to get the speed.
    assert run(str(bin_dir / "python"), "-c", "import numba").returncode != 0
    advised = run(str(bin_dir / "minodice"), "advise", "red", "gray")
    assert advised.returncode == 0 and "expected score" in advised.stdout, advised.stderr
    assert "pip install 'minodice[fast]'" in advised.stderr and "Traceback" not in advised.stderr


def test_the_readme_lists_every_extra() -> None:
    import tomllib

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("| extra | adds | for |"):]
    for extra in [*EXTRAS, "all"]:
        assert f"| `{extra}` |" in table, extra
        assert extra in declared
