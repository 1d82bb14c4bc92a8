"""`minodice serve`: play Mino Dice in the browser — lobby API, websocket play, persistence.

`create_app` builds the FastAPI application; see `docs/server-protocol.md` for
the protocol the web client speaks.
"""

from __future__ import annotations

from ..extras import require

# The server's libraries come with `pip install 'minodice[server]'`: without them, say so in words.
require("server", "fastapi", "uvicorn", "sqlalchemy", "alembic", "pydantic")

from .settings import Settings

__all__ = ["Settings", "create_app"]


def create_app(settings: Settings | None = None):
    """The FastAPI application (imported lazily so `import minodice.server` stays light)."""
    from .app import create_app as _create

    return _create(settings)
