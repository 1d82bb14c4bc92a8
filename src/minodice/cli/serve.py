"""`minodice serve`: the web server for browser play."""

from __future__ import annotations

from typing import Annotated

import typer

from .options import Finite, fail, need

__all__ = ["register", "serve"]


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0: let others on the network in).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = 8000,
    db: Annotated[
        str, typer.Option(help="Database: a SQLite file (a path, or sqlite:///FILE) or "
                          "postgresql+psycopg://USER@HOST/DB.")
    ] = "minodice.db",
    turn_timeout: Annotated[
        float, typer.Option(help="Seconds before a bot plays for a player who is gone.", click_type=Finite(0))
    ] = 60.0,
    bot_delay: Annotated[
        float, typer.Option(help="Seconds from a bot's turn to its move, however long it thought.",
                            click_type=Finite(0))
    ] = 0.6,
    trick_pause: Annotated[
        float, typer.Option(help="Seconds a trick's result stays before the next bot rolls (and a move clock starts).",
                            click_type=Finite(0))
    ] = 1.5,
    hand_pause: Annotated[
        float, typer.Option(help="Seconds more after a hand's last trick, for its summary, before the bots bid.",
                            click_type=Finite(0))
    ] = 3.0,
    clock_scale: Annotated[
        float, typer.Option(help="Multiply the move clocks' seconds (relaxed, normal, fast) by this: 0.5 halves them.",
                            click_type=Finite(0.001))
    ] = 1.0,
    idle_minutes: Annotated[
        float, typer.Option(help="Minutes before a table nobody watches expires.", click_type=Finite(0))
    ] = 120.0,
    workers: Annotated[int | None, typer.Option(
        help="Processes the searching bots think in (each started when a table first needs one; "
        "about 50 MB each, beside the 110 MB they are forked from; at most 64). Default: one per core, up to 4.", min=1, max=64,
        show_default=False)] = None,
    review_bot: Annotated[
        str | None,
        typer.Option(help="The bot that judges finished games for the replay page's analysis (default: the one "
                     "minodice analyze uses)."),
    ] = None,
    secret_file: Annotated[
        str | None,
        typer.Option(
            help="File with the secret key that seals each table's seed and bids in the database (created, readable by "
            "you only, when missing). Default: the SQLite file's name + .key; needed for PostgreSQL.",
            envvar="MINODICE_SECRET_FILE",
        ),
    ] = None,
    old_secret_file: Annotated[
        str | None,
        typer.Option(
            help="Rotate the secret key: the file with the key the database is sealed with now. Every seed and "
            "bid is re-sealed with the key of --secret-file (created when missing) before the server starts; "
            "stop every other server process on the database first.",
        ),
    ] = None,
) -> None:
    """Play in the browser: start the web server (lobby, tables, bots; games saved to --db)."""
    need("server", "fastapi", "uvicorn", "sqlalchemy", "alembic", "pydantic", "cryptography")
    from ..server.serve import run
    from ..server.store import database_url

    try:
        url = database_url(db)
    except ValueError as exc:
        fail("serve", str(exc))
    run(host=host, port=port, db=url, turn_timeout=turn_timeout, bot_delay=bot_delay, trick_pause=trick_pause,
        hand_pause=hand_pause, clock_scale=clock_scale, idle_minutes=idle_minutes, workers=workers, secret_file=secret_file, review_bot=review_bot,
        old_secret_file=old_secret_file)


def register(app: typer.Typer) -> None:
    """Add `serve` to the command-line app."""
    app.command()(serve)
