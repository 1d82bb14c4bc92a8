"""`minodice serve`: print the URLs to open and share, then run uvicorn."""

from __future__ import annotations

import errno
import socket

import typer

from .settings import Settings, default_workers

#: The SQLite file's one-server lock, held while this process serves (`store.serve_lock`).
_held: object = None


def lan_address() -> str | None:
    """This machine's address on the local network (None if it has none)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))  # no packet is sent: this only picks a route
            addr = s.getsockname()[0]
    except OSError:
        return None
    return None if addr.startswith("127.") else addr


def listen_problem(host: str, port: int) -> str | None:
    """Why this server could not listen on `host`:`port` (None: it can), found by binding a socket there
    for a moment — before the database is opened, so a port in use costs nothing and says so."""
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError as exc:
        return f"cannot listen on {host}: {exc.strerror or exc}"
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            probe.bind(address)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            hint = " (another program, or another minodice serve, uses it: give --port)" \
                if exc.errno == errno.EADDRINUSE else ""
            return f"cannot listen on {host}:{port}: {reason}{hint}"
    return None


def run(
    *, host: str, port: int, db: str, turn_timeout: float, bot_delay: float, idle_minutes: float,
    trick_pause: float, hand_pause: float, clock_scale: float, workers: int | None = None,
    secret_file: str | None = None, review_bot: str | None = None, old_secret_file: str | None = None,
) -> None:
    """Start the server (blocks until interrupted); exit 2 with the reason when the database or its key will not do."""
    import uvicorn

    from ..bots import make_bot
    from ..jitcache import warmed
    from ..preparing import preparing
    from ..review import DEFAULT_BOT
    from ..review.analyze import judge_refusal
    from ..warm import prepare_hints
    from .app import create_app

    # A first run (before `minodice warm`) compiles here what this process runs: the review bot's simulator
    # and the bid hint's advisor (the bots' worker processes prepare theirs: `botwarm`).
    with preparing("the review bot and the bid hint", 10, say=typer.echo):
        try:
            judge_refusal(review_bot or DEFAULT_BOT)  # a judge of every decision, before the server starts
            make_bot(review_bot or DEFAULT_BOT).close()
        except ValueError as exc:  # BotSpecError is one
            typer.echo(f"--review-bot: {exc}", err=True)
            raise typer.Exit(2) from None
        if not warmed():
            prepare_hints()
    problem = listen_problem(host, port)
    if problem is not None:
        typer.echo(f"minodice serve: {problem}", err=True)
        raise typer.Exit(2)
    settings = Settings(
        db=db, turn_timeout=turn_timeout, bot_delay=bot_delay, idle_minutes=idle_minutes,
        trick_pause=trick_pause, hand_pause=hand_pause, clock_scale=clock_scale,
        workers=workers if workers is not None else default_workers(), secret_file=secret_file,
        review_bot=review_bot or DEFAULT_BOT,
    )
    open_store(settings, old_secret_file)
    app = create_app(settings)
    from .collector import quiet_collector

    quiet_collector()
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    typer.echo(f"Mino Dice server: open http://{shown}:{port}/ in your browser")
    if host in ("0.0.0.0", "::"):
        lan = lan_address()
        if lan:
            typer.echo(f"Friends on your network join at http://{lan}:{port}/")
    typer.echo(f"API docs: http://{shown}:{port}/docs   games saved to {_safe_url(db)}")
    # No per-message compression: deflating every frame for every client was the largest CPU cost of
    # a busy server (benchmarks/bench_server.py under py-spy); the frames are a few KB of JSON.
    uvicorn.run(
        app, host=host, port=port, log_level="info", ws_max_size=65536, ws_ping_interval=20,
        ws_per_message_deflate=False,
    )


def open_store(settings: Settings, old_secret_file: str | None = None) -> None:
    """Open the database once before serving: migrate it, read (or create) the seed key, re-seal an older
    version's seeds and bids — or all of them with a new key, given the `old_secret_file` (key rotation) —
    and say so; or stop with the reason in one line (a missing or wrong key: never deal other dice)."""
    from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

    from .store import DatabaseBusy, SeedKeyError, Store, serve_lock

    global _held
    try:
        _held = serve_lock(settings.db)
        store = Store(settings.db, settings.secret_file, need_key=True, old_secret_file=old_secret_file)
    except (SeedKeyError, DatabaseBusy) as exc:
        typer.echo(f"minodice serve: {exc}", err=True)
        raise typer.Exit(2) from None
    except (ArgumentError, NoSuchModuleError, ImportError, DBAPIError, OSError) as exc:
        typer.echo(f"minodice serve: cannot open the database {_safe_url(settings.db)}: {_why(exc)}", err=True)
        raise typer.Exit(2) from None
    try:
        if store.key_created:
            typer.echo(
                f"New secret key written to {store.key_file} (readable by you only). It seals each table's seed "
                "and hidden bids in the database: keep it with the database, and give it to every server process "
                "on it — without it the games in progress cannot resume."
            )
        elif store.key_file is not None:
            typer.echo(f"Seeds and bids sealed with the secret key in {store.key_file}")
        if store.rekeyed:
            typer.echo(f"Re-sealed {store.rekeyed} seeds and bids with the new key in {store.key_file}: "
                       f"the old key ({old_secret_file}) is no longer needed.")
        elif old_secret_file is not None and store.key_file is not None:
            typer.echo(f"The database is sealed with the key in {store.key_file} already: "
                       f"--old-secret-file {old_secret_file} is not needed.")
        if store.sealed_old:
            typer.echo(f"Sealed {store.sealed_old} seeds and bids saved by an older version.")
    finally:
        store.close()


def _why(exc: BaseException) -> str:
    """The first line of why a database would not open, without SQLAlchemy's links and statements."""
    from sqlalchemy.exc import DBAPIError, NoSuchModuleError

    if isinstance(exc, NoSuchModuleError):
        return "not a kind of database this server knows (give sqlite:///FILE, a file, or postgresql+psycopg://...)"
    if isinstance(exc, ImportError):
        return f"its driver is not installed ({exc})"
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.strerror} ({exc.filename})" if exc.filename else exc.strerror
    text = str(exc.orig if isinstance(exc, DBAPIError) else exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _safe_url(url: str) -> str:
    """The database URL without its password."""
    try:
        from sqlalchemy.engine import make_url

        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return url.split("@")[-1]
