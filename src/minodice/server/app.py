"""The FastAPI application: lobby API, table websockets, the web client's static files."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse
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
        docs_url=None,  # served below from the package, not from a CDN: they work without internet
        redoc_url=None,
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

    _add_api_docs(app)
    STATIC.mkdir(exist_ok=True)
    app.mount("/", StaticFiles(directory=STATIC, html=True), name="static")
    logging.getLogger("minodice.server").setLevel(logging.INFO)
    return app


#: Where the API pages' scripts are served from (static/vendor/, with their licences).
VENDOR = "/vendor"


def _add_api_docs(app: FastAPI) -> None:
    """`/docs` (Swagger UI) and `/redoc` (ReDoc), their scripts served by this server (offline networks too)."""
    openapi_url = app.openapi_url or "/openapi.json"

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=openapi_url, title=f"{app.title} — API",
            swagger_js_url=f"{VENDOR}/swagger-ui/swagger-ui-bundle.js",
            swagger_css_url=f"{VENDOR}/swagger-ui/swagger-ui.css",
            swagger_favicon_url=f"{VENDOR}/swagger-ui/favicon-32x32.png",
            swagger_ui_parameters={"validatorUrl": None},  # no badge fetched from swagger.io
        )

    @app.get("/redoc", include_in_schema=False)
    async def redoc() -> HTMLResponse:
        return get_redoc_html(
            openapi_url=openapi_url, title=f"{app.title} — API",
            redoc_js_url=f"{VENDOR}/redoc/redoc.standalone.js",
            redoc_favicon_url=f"{VENDOR}/swagger-ui/favicon-32x32.png", with_google_fonts=False,
        )
