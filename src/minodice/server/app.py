"""The FastAPI application: lobby API, table websockets, the web client's static files."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.staticfiles import StaticFiles

from .. import __version__
from .api import refused_handler, router
from .manager import TableManager
from .settings import Settings
from .sheet_api import router as sheet_router
from .tables import Refused
from .ws import serve_socket

STATIC = Path(__file__).with_name("static")


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the app; the store is opened (and migrated) and tables resumed at start-up."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        manager = TableManager(settings)
        app.state.manager = manager
        await manager.startup()
        try:
            yield
        finally:
            await manager.shutdown()

    app = FastAPI(
        title="Mino Dice server",
        version=__version__,
        description="Lobby API of `minodice serve`; play happens on the websocket `/ws/{code}` "
        "(see docs/server-protocol.md).",
        lifespan=lifespan,
    )
    app.add_exception_handler(Refused, refused_handler)
    app.include_router(router)
    app.include_router(sheet_router)

    @app.get("/healthz", summary="Liveness")
    async def healthz(request: Request) -> dict[str, Any]:
        return {"ok": True, "tables": len(request.app.state.manager.tables)}

    @app.websocket("/ws/{code}")
    async def table_socket(ws: WebSocket, code: str) -> None:
        await serve_socket(ws, code, ws.app.state.manager)

    STATIC.mkdir(exist_ok=True)
    app.mount("/", StaticFiles(directory=STATIC, html=True), name="static")
    logging.getLogger("minodice.server").setLevel(logging.INFO)
    return app
