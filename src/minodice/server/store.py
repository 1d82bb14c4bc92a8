"""Persistence of tables: SQLAlchemy 2 models and the one repository the server writes through.

A table is stored as its configuration (seats, rules, the secret seed) plus its
ordered action log; the live game is rebuilt by replaying the actions through
the engine, so nothing but the actions needs saving while a game is played
(and the table's chat: its messages and muted seats, `chat.py`).
Tokens are stored only as SHA-256 hashes. The schema is created and upgraded
by Alembic migrations (`migrations/`), run when the store opens.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    event,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from .chat import HISTORY, ChatMessage

__all__ = ["ActionRow", "Base", "ChatRow", "SeatRow", "Store", "StoredSeat", "StoredTable", "TableRow", "utcnow"]


def utcnow() -> dt.datetime:
    """The current time, timezone-aware UTC (what every timestamp column holds)."""
    return dt.datetime.now(dt.UTC)


class Base(DeclarativeBase):
    """Declarative base of the server's tables."""


class TableRow(Base):
    """One table: configuration, status and outcome."""

    __tablename__ = "tables"

    code: Mapped[str] = mapped_column(String(12), primary_key=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    seats: Mapped[int] = mapped_column(Integer)
    rules: Mapped[str] = mapped_column(Text)  # JSON object of rule options
    seed: Mapped[str] = mapped_column(String(40))  # secret: never sent to a client
    first_start: Mapped[int] = mapped_column(Integer, default=0)
    host_hash: Mapped[str] = mapped_column(String(64))
    host_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rematch_of: Mapped[str | None] = mapped_column(String(12), nullable=True)
    rematch: Mapped[str | None] = mapped_column(String(12), nullable=True)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    finished: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True, index=True)
    totals: Mapped[str | None] = mapped_column(Text, nullable=True)  # JSON list once over
    hints: Mapped[bool] = mapped_column(Boolean, default=True)  # the bid advisor may be asked


class SeatRow(Base):
    """One seat of a table: open, a human (token hash) or a bot (its spec)."""

    __tablename__ = "seats"

    table_code: Mapped[str] = mapped_column(ForeignKey("tables.code", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # open | human | bot
    name: Mapped[str | None] = mapped_column(String(40), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(80), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    muted: Mapped[bool] = mapped_column(Boolean, default=False)  # the host muted this seat's chat


class ActionRow(Base):
    """One action of a table's game, in order (`n` from 0)."""

    __tablename__ = "actions"

    table_code: Mapped[str] = mapped_column(ForeignKey("tables.code", ondelete="CASCADE"), primary_key=True)
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))  # bid | roll
    value: Mapped[str] = mapped_column(String(16))  # the bid, or the die name
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class ChatRow(Base):
    """One chat message or reaction of a table, in order (`n` from 1); goes with its table."""

    __tablename__ = "chat"

    table_code: Mapped[str] = mapped_column(ForeignKey("tables.code", ondelete="CASCADE"), primary_key=True)
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(40))  # the seat's name when it was said
    kind: Mapped[str] = mapped_column(String(8))  # text | reaction
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


@dataclass
class StoredSeat:
    """A seat as stored."""

    seat: int
    kind: str
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    muted: bool = False  # the host muted this seat's chat


@dataclass
class StoredTable:
    """A table as stored: everything needed to rebuild it."""

    code: str
    status: str
    seats: int
    rules: dict[str, str]
    seed: str
    first_start: int
    host_hash: str
    host_seat: int | None
    players: list[StoredSeat]
    actions: list[tuple[int, str, str]] = field(default_factory=list)
    rematch_of: str | None = None
    rematch: str | None = None
    created: dt.datetime = field(default_factory=utcnow)
    updated: dt.datetime = field(default_factory=utcnow)
    finished: dt.datetime | None = None
    totals: list[int] | None = None
    hints: bool = True
    chat: list[ChatMessage] = field(default_factory=list)  # the last messages, oldest first


MIGRATIONS = Path(__file__).with_name("migrations")


def migrate(engine: Engine) -> None:
    """Bring the schema up to the newest Alembic revision (idempotent)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


def _aware(value: dt.datetime) -> dt.datetime:
    """SQLite drops the timezone: read naive timestamps back as UTC."""
    return value.replace(tzinfo=dt.UTC) if value.tzinfo is None else value


class Store:
    """The repository: every read and write of the server's database goes through here.

    Methods are synchronous and short; the server calls them from one worker
    thread so writes keep their order and never block the event loop.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
        self.engine = create_engine(url, **kwargs)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        migrate(self.engine)

    def close(self) -> None:
        """Release the connection pool."""
        self.engine.dispose()

    # --- writes ---------------------------------------------------------------------

    def create(self, table: StoredTable) -> None:
        """Insert a new table and its seats."""
        with Session(self.engine) as s, s.begin():
            s.add(
                TableRow(
                    code=table.code, status=table.status, seats=table.seats,
                    rules=json.dumps(table.rules), seed=table.seed, first_start=table.first_start,
                    host_hash=table.host_hash, host_seat=table.host_seat, rematch_of=table.rematch_of,
                    created=table.created, updated=table.updated, hints=table.hints,
                )
            )
            s.flush()
            for p in table.players:
                s.add(SeatRow(table_code=table.code, seat=p.seat, kind=p.kind, name=p.name,
                              bot=p.bot, token_hash=p.token_hash, muted=p.muted))

    def save_seat(self, code: str, seat: StoredSeat, host_seat: int | None = None) -> None:
        """Update one seat (a join, a bot takeover); optionally the host's seat too."""
        with Session(self.engine) as s, s.begin():
            s.execute(
                update(SeatRow)
                .where(SeatRow.table_code == code, SeatRow.seat == seat.seat)
                .values(kind=seat.kind, name=seat.name, bot=seat.bot, token_hash=seat.token_hash)
            )
            values: dict[str, Any] = {"updated": utcnow()}
            if host_seat is not None:
                values["host_seat"] = host_seat
            s.execute(update(TableRow).where(TableRow.code == code).values(**values))

    def set_status(
        self, code: str, status: str, *, totals: list[int] | None = None, rematch: str | None = None
    ) -> None:
        """Change a table's status (with final totals once over, or its rematch's code)."""
        values: dict[str, Any] = {"status": status, "updated": utcnow()}
        if status == "over":
            values["finished"] = utcnow()
        if totals is not None:
            values["totals"] = json.dumps(totals)
        if rematch is not None:
            values["rematch"] = rematch
        with Session(self.engine) as s, s.begin():
            s.execute(update(TableRow).where(TableRow.code == code).values(**values))

    def set_rematch(self, code: str, rematch: str) -> None:
        """Remember the code of a table's rematch."""
        with Session(self.engine) as s, s.begin():
            s.execute(update(TableRow).where(TableRow.code == code).values(rematch=rematch))

    def append_action(self, code: str, n: int, seat: int, kind: str, value: str) -> None:
        """Store action number `n` of a table (committed before anyone sees its result)."""
        with Session(self.engine) as s, s.begin():
            s.add(ActionRow(table_code=code, n=n, seat=seat, kind=kind, value=value, at=utcnow()))
            s.execute(update(TableRow).where(TableRow.code == code).values(updated=utcnow()))

    def add_chat(self, code: str, message: ChatMessage) -> None:
        """Store one chat message of a table (committed before anyone is sent it)."""
        with Session(self.engine) as s, s.begin():
            s.add(ChatRow(table_code=code, n=message.n, seat=message.seat, name=message.name,
                          kind=message.kind, text=message.text, at=message.at))

    def set_muted(self, code: str, seat: int, muted: bool) -> None:
        """Mute or unmute a seat's chat."""
        with Session(self.engine) as s, s.begin():
            s.execute(update(SeatRow).where(SeatRow.table_code == code, SeatRow.seat == seat).values(muted=muted))

    # --- reads ----------------------------------------------------------------------

    def chat(self, code: str, limit: int = HISTORY) -> list[ChatMessage]:
        """A table's last `limit` chat messages, oldest first."""
        with Session(self.engine) as s:
            return self._chat(s, code, limit)

    def _chat(self, s: Session, code: str, limit: int) -> list[ChatMessage]:
        rows = s.scalars(select(ChatRow).where(ChatRow.table_code == code).order_by(ChatRow.n.desc()).limit(limit))
        return [ChatMessage(r.n, r.seat, r.name, r.kind, r.text, _aware(r.at)) for r in reversed(list(rows))]

    def load(self, code: str) -> StoredTable | None:
        """A table with its seats and actions, or None."""
        with Session(self.engine) as s:
            row = s.get(TableRow, code)
            return None if row is None else self._stored(s, row)

    def load_status(self, *statuses: str) -> list[StoredTable]:
        """Every table whose status is one of `statuses` (to resume them at start-up)."""
        with Session(self.engine) as s:
            rows = s.scalars(select(TableRow).where(TableRow.status.in_(statuses)).order_by(TableRow.created))
            return [self._stored(s, r) for r in rows]

    def finished(self, limit: int = 50, offset: int = 0) -> list[StoredTable]:
        """Finished tables, newest first (without their actions)."""
        with Session(self.engine) as s:
            rows = s.scalars(
                select(TableRow).where(TableRow.status == "over")
                .order_by(TableRow.finished.desc(), TableRow.code).limit(limit).offset(offset)
            )
            return [self._stored(s, r, actions=False) for r in rows]

    def _stored(self, s: Session, row: TableRow, actions: bool = True) -> StoredTable:
        seats = s.scalars(select(SeatRow).where(SeatRow.table_code == row.code).order_by(SeatRow.seat))
        acts: list[tuple[int, str, str]] = []
        if actions:
            acts = [
                (a.seat, a.kind, a.value)
                for a in s.scalars(select(ActionRow).where(ActionRow.table_code == row.code).order_by(ActionRow.n))
            ]
        return StoredTable(
            code=row.code, status=row.status, seats=row.seats, rules=json.loads(row.rules), seed=row.seed,
            first_start=row.first_start, host_hash=row.host_hash, host_seat=row.host_seat,
            players=[StoredSeat(p.seat, p.kind, p.name, p.bot, p.token_hash, bool(p.muted)) for p in seats],
            actions=acts, rematch_of=row.rematch_of, rematch=row.rematch,
            created=_aware(row.created), updated=_aware(row.updated),
            finished=_aware(row.finished) if row.finished is not None else None,
            totals=json.loads(row.totals) if row.totals else None,
            hints=bool(row.hints),
            chat=self._chat(s, row.code, HISTORY) if actions else [],
        )


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """WAL: readers never wait for the writer, and a killed process loses no committed action."""
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
