"""Where the project's documents are: in the repository (`docs/`), and the shared originals if present.

The rules, the record format, the bot protocol and the conformance samples live
in `docs/`, so a clone or a source distribution is self-contained. The project's
shared folder (`../shared` beside the clone, as CI lays it out, or the
development machine's /work/shared) is where they come from; `test_docs.py`
checks the two stay in step when it is there.
"""

from __future__ import annotations

from pathlib import Path

#: The repository's root.
ROOT = Path(__file__).resolve().parents[1]
#: The documents of the repository.
DOCS = ROOT / "docs"
#: Sample records, valid and invalid, of the minodice/1 format (docs/conformance/README.md).
CONFORMANCE = DOCS / "conformance"

_BESIDE = ROOT.parent / "shared"
#: The shared folder the documents come from, or None where there is none (a clone elsewhere, an sdist).
SHARED: Path | None = next((p for p in (_BESIDE, Path("/work/shared")) if p.is_dir()), None)
