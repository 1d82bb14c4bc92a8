"""Where the project's shared documents are: `../shared` beside the clone (as CI lays it out)."""

from __future__ import annotations

from pathlib import Path

_BESIDE = Path(__file__).resolve().parents[2] / "shared"
#: The shared folder: beside the clone if there, else the development machine's /work/shared.
SHARED = _BESIDE if _BESIDE.is_dir() or not Path("/work/shared").is_dir() else Path("/work/shared")
#: Sample records, valid and invalid, of the minodice/1 format.
CONFORMANCE = SHARED / "conformance"
