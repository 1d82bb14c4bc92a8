"""`minodice serve`: print the URLs to open and share, then run uvicorn."""

from __future__ import annotations

import socket

import typer

from .settings import Settings


def lan_address() -> str | None:
    """This machine's address on the local network (None if it has none)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))  # no packet is sent: this only picks a route
            addr = s.getsockname()[0]
    except OSError:
        return None
    return None if addr.startswith("127.") else addr


def run(
    *, host: str, port: int, db: str, turn_timeout: float, bot_delay: float, idle_minutes: float, workers: int
) -> None:
    """Start the server (blocks until interrupted)."""
    import uvicorn

    from .app import create_app

    settings = Settings(
        db=db, turn_timeout=turn_timeout, bot_delay=bot_delay, idle_minutes=idle_minutes, workers=workers
    )
    app = create_app(settings)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    typer.echo(f"Mino Dice server: open http://{shown}:{port}/ in your browser")
    if host in ("0.0.0.0", "::"):
        lan = lan_address()
        if lan:
            typer.echo(f"Friends on your network join at http://{lan}:{port}/")
    typer.echo(f"API docs: http://{shown}:{port}/docs   games saved to {_safe_url(db)}")
    uvicorn.run(app, host=host, port=port, log_level="info", ws_max_size=65536, ws_ping_interval=20)


def _safe_url(url: str) -> str:
    """The database URL without its password."""
    try:
        from sqlalchemy.engine import make_url

        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return url.split("@")[-1]
