"""`minodice warm` (not in the help): compile every kernel now, so that no game, hint or command waits for it.

`make play` and `make serve` run it once per install. The compiled kernels go to numba's cache
(`minodice.jitcache`), where every later process loads them in milliseconds.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Annotated

import typer

from .errors import interrupted, line

__all__ = ["register", "warm"]


def _silent(line: str) -> None:
    """Say nothing (`preparing`'s line, where the step's own line says it)."""


def _vector_tables() -> None:
    from ..envs.vector import warmup

    warmup()


def warm(
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing (errors still go to stderr).")] = False,
) -> None:
    """Compile the bots', hints' and tools' kernels for this computer (about half a minute, once per install).

    Exit status: 0 done; 1 a step failed (its kernels compile where they are first used); 130 interrupted.
    """
    from ..jit import HAVE_NUMBA
    from ..jitcache import mark_warmed, use_cache_dir
    from ..preparing import preparing
    from ..warm import STEPS

    def say(text: str, nl: bool = True) -> None:
        if not quiet:
            typer.echo(text, nl=nl)

    if not HAVE_NUMBA:
        say("Nothing to compile: the kernels run as plain Python here (numba is not installed, or "
            "MINODICE_NO_NUMBA is set).")
        return
    folder = use_cache_dir()
    kept = f"kept in {folder}" if folder is not None else "kept where numba keeps them"
    say(f"Preparing the compiled kernels for this computer (once per install: about half a minute the first "
        f"time, seconds after; {kept}):")
    steps: tuple[tuple[str, Callable[[], None]], ...] = (
        *STEPS, ("the vector tables (minodice.envs)", _vector_tables))
    began = time.perf_counter()
    failed = []
    for what, step in steps:
        say(f"  {what}… ", nl=False)
        started = time.perf_counter()
        try:
            with preparing(what, say=_silent):  # each step's line says it already: no second line
                step()
        except KeyboardInterrupt:
            say("interrupted")
            interrupted("warm", f"the kernels compiled so far are {kept}; minodice warm compiles the rest")
        except Exception as exc:  # the rest is still worth preparing; the step compiles again where it is used
            failed.append(what)
            say("failed")
            typer.echo(line("warm", f"{what}: {type(exc).__name__}: {exc}"), err=True)
            continue
        say(f"{time.perf_counter() - started:.1f} s")
    if failed:
        raise typer.Exit(1)
    mark_warmed()
    say(f"Ready in {time.perf_counter() - began:.1f} s.")


def register(app: typer.Typer) -> None:
    """Add `warm` (hidden) to the command-line app."""
    app.command(hidden=True)(warm)
