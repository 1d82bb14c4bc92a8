"""Where numba keeps the compiled kernels: a folder per version of their source, in the user's cache.

numba's `cache=True` stores a kernel's machine code with a hash of the kernel's own file only, so a
kernel that calls one in another file (`sim.vector` calls `sim.kernel`'s) or reads its tables keeps
its old code when only that other file changes. Here the folder is named after a hash of every
file the kernels may import (the package's core, `sim` and `analysis`: what the layer contract lets
them import), so any change there compiles them again, in a fresh folder, and the old folders are
removed after a day. The folder is `$XDG_CACHE_HOME/minodice/numba` (`~/.cache` when unset;
`%LOCALAPPDATA%` on Windows) and outlives reinstalls; `NUMBA_CACHE_DIR`, when the user sets it, wins.

`use_cache_dir` must run before numba is imported (`minodice.jit` calls it); `warmed` and `mark_warmed`
keep the stamp `minodice warm` leaves once every kernel is compiled (`minodice.warm`).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import shutil
import sys
import time
from importlib import metadata
from pathlib import Path

__all__ = ["cache_root", "fingerprint", "kernel_cache_dir", "mark_warmed", "use_cache_dir", "warmed"]

#: The folders (of the package) holding every file the kernels may import: the core, then `sim` and `analysis`.
SOURCES: tuple[str, ...] = (".", "sim", "analysis")
#: Files there that no kernel imports (`minodice.warm` calls the bots, a layer above the kernels).
NOT_SOURCES: tuple[str, ...] = ("warm.py",)
#: The folders of older sources are removed once unused this long (seconds), the newest few kept anyway.
STALE_AFTER = 24 * 3600
KEEP = 3

_PACKAGE = Path(__file__).resolve().parent


def cache_root() -> Path:
    """`$XDG_CACHE_HOME/minodice/numba` (`~/.cache` when unset; `%LOCALAPPDATA%\\minodice\\cache\\numba` on Windows)."""
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "minodice" / "cache" / "numba"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "minodice" / "numba"


@functools.cache
def fingerprint(package: Path = _PACKAGE) -> str:
    """A hash of the kernels' source: every `.py` file in `SOURCES` of `package` (about 300 KB, read in a
    millisecond)."""
    digest = hashlib.sha256()
    for folder in SOURCES:
        for path in sorted((package / folder).glob("*.py")):
            if path.name in NOT_SOURCES:
                continue
            digest.update(f"{folder}/{path.name}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def kernel_cache_dir() -> Path:
    """The folder for this source's kernels (it may not exist yet)."""
    return cache_root() / fingerprint()


def _ours(value: str) -> bool:
    """Whether a `NUMBA_CACHE_DIR` value is one of our folders (set by this function in a parent process)."""
    with contextlib.suppress(OSError, ValueError, RuntimeError):  # RuntimeError: no home folder
        return Path(value).resolve().parent == cache_root().resolve()
    return False


def use_cache_dir() -> Path | None:
    """Point numba at `kernel_cache_dir` (setting `NUMBA_CACHE_DIR`, which child processes inherit) unless the
    user set it or numba is already loaded; returns the folder in use, None: numba's own choice."""
    given = os.environ.get("NUMBA_CACHE_DIR")
    if given and not _ours(given):
        return Path(given)
    if "numba" in sys.modules:  # too late: numba read its settings when it was imported
        return Path(given) if given else None
    try:
        folder = kernel_cache_dir()
        new = not folder.is_dir()
        folder.mkdir(parents=True, exist_ok=True)
        if not os.access(folder, os.W_OK):
            return None  # numba's own choice then: next to the source, or its user folder
    except (OSError, RuntimeError):  # RuntimeError: no home folder
        return None
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    if new:
        _remove_stale(folder)
    return folder


def _remove_stale(keep: Path) -> None:
    """Remove the folders of older sources: all but the `KEEP` newest, and only those unused for a day."""
    with contextlib.suppress(OSError):
        others = sorted((p for p in keep.parent.iterdir() if p.is_dir() and p != keep),
                        key=lambda p: p.stat().st_mtime, reverse=True)
        now = time.time()
        for old in others[KEEP - 1:]:
            if now - old.stat().st_mtime > STALE_AFTER:
                shutil.rmtree(old, ignore_errors=True)


def _stamp() -> Path:
    """The file `minodice warm` leaves in the cache folder in use once every kernel is compiled there."""
    given = os.environ.get("NUMBA_CACHE_DIR")
    folder = Path(given) if given else kernel_cache_dir()
    return folder / f"warmed-{fingerprint()}"


def _versions() -> str:
    """What else the compiled code depends on: numba's and Python's versions."""
    try:
        numba = metadata.version("numba")
    except metadata.PackageNotFoundError:
        numba = "none"
    return f"numba {numba}, Python {sys.version_info.major}.{sys.version_info.minor}\n"


def warmed() -> bool:
    """Whether `minodice warm` compiled every kernel for this source, numba and Python (a file read)."""
    try:
        return _stamp().read_text() == _versions()
    except (OSError, RuntimeError):
        return False


def mark_warmed() -> None:
    """Record that every kernel is compiled (quietly nothing if the folder cannot be written)."""
    with contextlib.suppress(OSError, RuntimeError):
        stamp = _stamp()
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(_versions())
