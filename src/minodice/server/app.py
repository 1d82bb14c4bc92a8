"""The FastAPI application: lobby API, table websockets, the web client's static files."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from concurrent.futures.process import BrokenProcessPool
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import __version__
from ..codes import render
from . import protocol as P
from .api import refused_handler, router, validation_handler, worker_failed_handler
from .manager import TableManager
from .settings import Settings
from .sheet_api import router as sheet_router
from .tables import Refused
from .ws import serve_socket

STATIC = Path(__file__).with_name("static")

#: The largest request body, in bytes. The lobby's bodies are a few hundred bytes.
BODY_LIMIT = 64 * 1024
#: The score sheet's and the referee's bodies are larger: the largest a real game makes, a
#: `/api/sheet/record` of 4 players, 8 hands (144 rolls) and 40-character names of 4-byte letters, is
#: 30 KB as a browser sends it and 85 KB ASCII-escaped and indented (`json.dumps(indent=2)`): 3 times that.
SHEET_BODY_LIMIT = 256 * 1024
SHEET_PATHS = ("/api/sheet/", "/api/trick")
#: A refused body up to this size is read to its end before the 413 (see `BodyLimit`), for at most
#: `DRAIN_SECONDS`; the 5 MB bodies of a flood are not.
DRAIN_LIMIT = 1024 * 1024
DRAIN_SECONDS = 2.0


class BodyLimit:
    """Refuse a request body over its limit with 413 `too_large`, before the app reads it: when its
    Content-Length says so, else (a chunked body) as soon as the bytes received pass the limit. The
    app then sees the client gone, and whatever it answers is dropped. Websockets pass through.

    A body up to `DRAIN_LIMIT` is read to its end and dropped before the reply (as nginx's lingering
    close does): a client or proxy still writing it would otherwise meet a reset connection, lose
    the 413 and show a 502 or a network error. A larger one is refused at once, unread."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        limit = SHEET_BODY_LIMIT if path.startswith(SHEET_PATHS) else BODY_LIMIT
        length = dict(scope.get("headers") or ()).get(b"content-length")
        if length is not None and length.isdigit():
            size = int(length) if len(length) <= 18 else float("inf")  # (no int() of a thousand digits)
            if size > limit:
                if size <= DRAIN_LIMIT:
                    await drain(receive, 0)
                await too_large(send, limit)
                return
        received = 0
        refused = started = False

        async def limited() -> Message:
            nonlocal received, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    refused = True
                    if not started:
                        if message.get("more_body", False):
                            await drain(receive, received)
                        await too_large(send, limit)
                    return {"type": "http.disconnect"}
            return message

        async def guarded(message: Message) -> None:
            nonlocal started
            if refused:
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        await self.app(scope, limited, guarded)


async def drain(receive: Receive, received: int) -> None:
    """Read and drop the rest of a refused body: until its end, `DRAIN_LIMIT` bytes in all or
    `DRAIN_SECONDS` (a client that stops sending gets its 413 then)."""
    deadline = asyncio.get_running_loop().time() + DRAIN_SECONDS
    while received <= DRAIN_LIMIT:
        left = deadline - asyncio.get_running_loop().time()
        if left <= 0:
            return
        try:
            message = await asyncio.wait_for(receive(), left)
        except TimeoutError:
            return
        if message["type"] != "http.request" or not message.get("more_body", False):
            return
        received += len(message.get("body", b""))


async def too_large(send: Send, limit: int) -> None:
    """The 413 reply, and the connection closed (what is left of the body is never read)."""
    body = json.dumps({"detail": P.http_error("too_large", render("too_large", {"limit": limit}), limit=limit)})
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
               (b"connection", b"close")]
    await send({"type": "http.response.start", "status": 413, "headers": headers})
    await send({"type": "http.response.body", "body": body.encode()})


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
    app.add_exception_handler(RequestValidationError, validation_handler)
    app.add_exception_handler(BrokenProcessPool, worker_failed_handler)
    app.add_middleware(BodyLimit)
    app.include_router(router)
    app.include_router(sheet_router)

    @app.get("/healthz", summary="Liveness")
    async def healthz(request: Request) -> dict[str, Any]:
        manager = request.app.state.manager
        health: dict[str, Any] = {"ok": True, "tables": len(manager.tables)}
        if manager.cluster is not None:  # sharing the database: this process, and the tables it drives
            health |= {"process": manager.cluster.id, "drives": sorted(manager.cluster.held)}
        return health

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
