"""Alembic environment: run migrations on the connection the server hands over."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from minodice.server.store import Base

config = context.config
target_metadata = Base.metadata


def run() -> None:
    """Migrate on `config.attributes["connection"]`, or on `sqlalchemy.url` from the command line."""
    connection = config.attributes.get("connection")
    if connection is None:
        url = config.get_main_option("sqlalchemy.url")
        if url is None:
            raise RuntimeError("no database: give sqlalchemy.url, or a connection in config.attributes")
        engine = create_engine(url)
        with engine.begin() as conn:
            context.configure(connection=conn, target_metadata=target_metadata, render_as_batch=True)
            context.run_migrations()
        return
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


run()
