"""Persistence of tables: SQLAlchemy 2 models and the one repository the server writes through.

A table is stored as its configuration (seats, rules, its sealed seed) plus its
ordered action log; the live game is rebuilt by replaying the actions through
the engine, so nothing but the actions needs saving while a game is played
(and the table's chat: its messages and muted seats, `chat.py`).
Tokens are stored only as SHA-256 hashes. The schema is created and upgraded
by Alembic migrations (`migrations/`), run when the store opens.

**What the database does not hold.** The seed deals every die of a game, and a
bid is hidden until the hand's bids are all in, so whoever reads the database
must learn neither: the store seals every seed and every bid on the way in
and opens them on the way out (`sealing.py`: AES-256-GCM with a key derived
from a secret key file kept outside the database — `--secret-file`, by default
the SQLite file's name + `.key`, created readable by its owner only). We chose
this over storing the dealt dice and the generator's state because that state
would still predict every later hand and roll. The key's fingerprint (which
reveals nothing of the key) is kept in the `meta` table: a server started with
no key or another key refuses to start rather than deal different dice. Seeds
and bids of an older version (plain, or sealed by the older hand-made `s1:`
construction) are re-sealed when a keyed store first opens the database, and
every value is re-sealed with a new key when the old one is given
(`old_secret_file`: key rotation); SQLite is then vacuumed and its write-ahead
log truncated, so the old text leaves the file.
A SQLite database file (and its -wal, -shm and -journal files, which SQLite
creates with the database's mode) is created readable and writable by its
owner only (0600); an older, wider one is narrowed when the store opens it.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import logging
import os
import secrets
import stat
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import constant_time
from sqlalchemy import (
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    text,
    tuple_,
    update,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from .chat import HISTORY, ChatMessage
from .sealing import SEALED, Sealer, SeedKeyError, new_key_file, read_key

__all__ = [
    "ActionRow",
    "Base",
    "ChatRow",
    "DatabaseBusy",
    "MetaRow",
    "PresenceRow",
    "ProcessRow",
    "SeatRow",
    "SeedKeyError",
    "SharedAction",
    "Store",
    "StoredSeat",
    "StoredTable",
    "TableRow",
    "database_url",
    "key_path",
    "libpq_url",
    "read_key",
    "seal_seed",
    "serve_lock",
    "unseal_seed",
    "utcnow",
]

log = logging.getLogger("minodice.server")


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
    seed: Mapped[str] = mapped_column(String(64))  # sealed (`Sealer.seal_seed`); s1: or plain before 0007
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
    clock: Mapped[str] = mapped_column(String(16), default="off")  # the move clock's speed (clocks.py)
    level: Mapped[str | None] = mapped_column(String(16), nullable=True)  # whose bot stands in (None: medium)


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
    # Shared by several server processes (one process keeps them in memory): a bot stands in for the
    # absent player; when the absent player's turn timer started.
    autoplay: Mapped[bool] = mapped_column(Boolean, default=False)
    waiting_since: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # The seconds left in the seat's move-clock bank (None: all of it), stored when a decision dips into it.
    bank: Mapped[float | None] = mapped_column(Float, nullable=True)
    ready: Mapped[bool] = mapped_column(Boolean, default=False)  # its person asked for the rematch


class ActionRow(Base):
    """One action of a table's game, in order (`n` from 0)."""

    __tablename__ = "actions"

    table_code: Mapped[str] = mapped_column(ForeignKey("tables.code", ondelete="CASCADE"), primary_key=True)
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))  # bid | roll
    value: Mapped[str] = mapped_column(String(64))  # the bid (sealed: `Sealer.seal_bid`), or the die name
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


class ProcessRow(Base):
    """A running server process on a shared database, and when it last said it was alive."""

    __tablename__ = "processes"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seen: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class PresenceRow(Base):
    """How many sockets a server process has open at a table's seat (seat -1: spectators)."""

    __tablename__ = "presence"

    process: Mapped[str] = mapped_column(String(32), primary_key=True)
    table_code: Mapped[str] = mapped_column(String(12), primary_key=True, index=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    conns: Mapped[int] = mapped_column(Integer)


class MetaRow(Base):
    """A fact about the database itself: `seed_key` → the fingerprint of the key its seeds and bids are sealed
    with; `sealing` → `s2:` once every one is sealed that way."""

    __tablename__ = "meta"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


@dataclass
class StoredSeat:
    """A seat as stored."""

    seat: int
    kind: str
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    muted: bool = False  # the host muted this seat's chat
    autoplay: bool = False  # a bot stands in for the absent player (kept here only by shared processes)
    waiting_since: dt.datetime | None = None  # the absent player's turn timer started (shared processes)
    bank: float | None = None  # seconds left in the move clock's bank (None: the whole bank)
    ready: bool = False  # its person asked for the rematch of this finished table


@dataclass
class StoredTable:
    """A table as stored: everything needed to rebuild it.

    `seed` is the plain seed (the store seals it on the way in and unseals it
    on the way out); empty in the list of finished games, which needs none.
    """

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
    clock: str = "off"  # the move clock's speed (`clocks.CLOCKS`)
    level: str | None = None  # the level standing in for people (None: `clocks.DEFAULT_LEVEL`)


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


# --- the seed key -----------------------------------------------------------------------

#: The `meta` row naming the key the seeds and bids are sealed with (its fingerprint).
KEY_ROW = "seed_key"
#: The `meta` row saying every seed and bid is sealed the newest way (`SEALED`): no scan at opening.
SEALING_ROW = "sealing"
#: How many bids one step of a re-sealing reads (`Store._reseal`).
RESEAL_CHUNK = 5000
#: The PostgreSQL notification channel server processes on one database tell each other news on.
CHANNEL = "minodice"
#: An action for `Store.commit_actions`: (code, n, seat, kind, value, final totals or None, notes to send).
SharedAction = tuple[str, int, int, str, str, list[int] | None, tuple[str, ...]]


def database_url(text: str) -> str:
    """The SQLAlchemy URL `minodice serve --db` means: a URL as it is, a bare path the SQLite file there.

    >>> database_url("games/club.db")
    'sqlite:///games/club.db'
    >>> database_url("postgresql+psycopg://minodice@/minodice")
    'postgresql+psycopg://minodice@/minodice'
    """
    text = text.strip()
    if not text:
        raise ValueError("--db is empty: give a SQLite file (a path) or a database URL")
    return text if "://" in text else f"sqlite:///{text}"


def libpq_url(url: str) -> str:
    """A SQLAlchemy PostgreSQL URL (`postgresql+psycopg://…`) as psycopg's own connection string."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite URL (None: in memory, or not SQLite)."""
    parsed = make_url(url)
    if not parsed.drivername.startswith("sqlite"):
        return None
    db = parsed.database
    if not db or db == ":memory:" or db.startswith("file:"):
        return None
    return Path(db)


class DatabaseBusy(RuntimeError):
    """Another server process serves this SQLite file already."""


def serve_lock(url: str) -> Any:
    """Take the one-server lock of a SQLite file (an open file holding a `flock`; keep it while serving),
    or DatabaseBusy. None for any other database: several processes may share PostgreSQL.

    Two processes on one SQLite file would each keep their own copy of the games in memory
    and deal with the same table differently; PostgreSQL is the way to run several.
    """
    import fcntl

    db = sqlite_file(url)
    if db is None:
        return None
    db.parent.mkdir(parents=True, exist_ok=True)
    handle = open(os.open(db, os.O_RDWR | os.O_CREAT, 0o600), "rb")  # noqa: SIM115 (held while serving)
    try:
        # A BSD lock (flock) on the file itself: independent of the POSIX locks SQLite takes.
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise DatabaseBusy(
            f"another server process already serves {db}: a SQLite file serves one process at a time "
            "(several processes share a PostgreSQL database; see docs/deploy.md)"
        ) from None
    return handle


def key_path(url: str, secret_file: str | os.PathLike[str] | None) -> Path | None:
    """Where the seed key of `url` lives: `secret_file`, else beside a SQLite file (`minodice.db.key`).

    None when there is no such place (SQLite in memory, or another database without `secret_file`).
    """
    if secret_file:
        return Path(secret_file)
    db = sqlite_file(url)
    return None if db is None else db.with_name(db.name + ".key")


def seal_seed(key: bytes, code: str, seed: str) -> str:
    """Table `code`'s seed sealed with `key` (`Sealer.seal_seed`; a store keeps its own `Sealer`)."""
    return Sealer(key).seal_seed(code, seed)


def unseal_seed(key: bytes, code: str, stored: str) -> str:
    """Table `code`'s seed from its stored form (`Sealer.open_seed`); SeedKeyError for another key's."""
    return Sealer(key).open_seed(code, stored)


def owner_only(db: Path) -> None:
    """Create the SQLite file `db` readable and writable by its owner only, or narrow an old one (and its
    -wal, -shm and -journal files, which SQLite creates with the database's mode)."""
    try:
        fd = os.open(db, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # an empty file is an empty database
        os.close(fd)
    except FileExistsError:
        pass
    except OSError:
        return  # SQLite will say what is wrong with the path
    for path in (db, *(db.with_name(db.name + end) for end in ("-wal", "-shm", "-journal"))):
        try:
            mode = stat.S_IMODE(path.stat().st_mode)
            if mode & 0o077:
                path.chmod(mode & 0o700)
                log.info("%s was readable by others: now by its owner only", path)
        except FileNotFoundError:
            continue
        except OSError as exc:
            log.warning("cannot narrow the permissions of %s: %s", path, exc.strerror)


class Store:
    """The repository: every read and write of the server's database goes through here.

    Methods are synchronous and short; the server calls them from one worker
    thread so writes keep their order and never block the event loop.
    """

    def __init__(
        self, url: str, secret_file: str | os.PathLike[str] | None = None, *, key: bytes | None = None,
        need_key: bool = False, old_secret_file: str | os.PathLike[str] | None = None,
    ) -> None:
        """Open (create, migrate) the database and its seed key.

        The key is `key`, else read from `secret_file` or the file beside a SQLite
        database (created when missing, unless the database's seeds are already
        sealed: then SeedKeyError, as for a key that is not the database's).
        Where there is no place for a key (SQLite in memory; another database
        without `secret_file`), a throwaway key seals what this store writes —
        unless `need_key` (a server), which then refuses a database that outlives it.
        `old_secret_file` rotates the key: if the database is sealed with that
        key, every seed and bid is re-sealed with the new one (`secret_file`,
        created when missing) before the store opens; if it is sealed with the
        new one already, nothing changes.
        """
        self.url = url
        self._pg: list[Any] = []  # PostgreSQL: the group commit's own connections, idle (`commit_actions`)
        self._pg_lock = threading.Lock()
        self.key_file = None if key is not None else key_path(url, secret_file)
        self.old_key_file = Path(old_secret_file) if old_secret_file else None
        self.key_created = False  # a new key file was written
        self.sealed_old = 0  # seeds and bids of an older version re-sealed on opening
        self.rekeyed = 0  # seeds and bids re-sealed with a new key (`old_secret_file`)
        db_file = sqlite_file(url)
        if need_key and key is None and self.key_file is None and not url.startswith("sqlite"):
            raise SeedKeyError("key_needed")
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
            if db_file is not None:
                owner_only(db_file)
        self.engine = create_engine(url, **kwargs)
        self.autocheckpoint = True  # SQLite: commits checkpoint the WAL themselves (`checkpoint_apart`)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", self._sqlite_pragmas)
        migrate(self.engine)
        old = Sealer(read_key(self.old_key_file)) if self.old_key_file is not None else None
        self._sealer = self._open_key(key, old)
        if key is not None or self.key_file is not None:
            self.sealed_old = self._seal_old()

    def _meta(self, name: str) -> str | None:
        with Session(self.engine) as s:
            row = s.get(MetaRow, name)
            return row.value if row is not None else None

    def _open_key(self, key: bytes | None, old: Sealer | None) -> Sealer:
        """The sealer of the seed key, checked against (or recorded as) the one the database is sealed with;
        with the `old` key of a rotation, the database re-sealed with the new one first."""
        known = self._meta(KEY_ROW)
        path = self.key_file
        rotating = old is not None and old.fingerprint == known
        if key is None:
            if path is None:
                if not self.url.startswith("sqlite"):
                    log.warning("no secret key file: seeds are sealed with a throwaway key (no restart resumes them)")
                return Sealer(secrets.token_bytes(32))
            if path.exists():
                key = read_key(path)
            elif known is not None and not rotating:
                raise self._wrong_key(known, "") if old is not None else SeedKeyError("key_missing", path=str(path))
            else:
                key = new_key_file(path)
                self.key_created = True
        sealer = Sealer(key)
        if known is None:
            known = self._record_key(sealer.fingerprint)
        if rotating and known != sealer.fingerprint:
            assert old is not None
            self.rekeyed = self._reseal(old, sealer, everything=True)
            known = sealer.fingerprint
        if not constant_time.bytes_eq(known.encode(), sealer.fingerprint.encode()):
            raise self._wrong_key(known, sealer.fingerprint)
        return sealer

    def _wrong_key(self, known: str, mine: str) -> SeedKeyError:
        path = str(self.key_file) if self.key_file is not None else "the key given"
        if self.old_key_file is not None:
            return SeedKeyError("old_key_wrong", path=path, old=str(self.old_key_file), known=known[:8])
        return SeedKeyError("key_wrong", path=path, known=known[:8], mine=mine[:8])

    def _record_key(self, mine: str) -> str:
        """Record the fingerprint of the key of a database that has none yet; the one recorded."""
        try:
            with Session(self.engine) as s, s.begin():
                s.add(MetaRow(name=KEY_ROW, value=mine))
            return mine
        except IntegrityError:  # another process recorded its key first
            known = self._meta(KEY_ROW)
            if known is None:  # it was there a moment ago: let the next start try again
                raise
            return known

    def _seal_old(self) -> int:
        """Re-seal the seeds and bids an older version stored (plain, or `s1:`) unless the `sealing` row
        says there are none. How many."""
        if self._meta(SEALING_ROW) == SEALED:
            return 0
        done = self._reseal(self._sealer, self._sealer, everything=False)
        if done:
            log.info("sealed %d seeds and bids stored by an older version", done)
        return done

    def _reseal(self, old: Sealer, new: Sealer, everything: bool) -> int:
        """Seal with `new` the seeds and bids `old` opens — every one (a new key), or those not sealed the
        newest way (an older version's) — in one transaction that records `new` as the database's key;
        then scrub the old text from a SQLite file. How many. A value that does not open stays as it is
        (its table stays shut, as before)."""
        tables = Base.metadata.tables["tables"]
        done = 0
        with self.engine.begin() as conn:
            q = select(tables.c.code, tables.c.seed)
            rows = conn.execute(q if everything else q.where(~tables.c.seed.startswith(SEALED))).all()
            seeds = []
            for code, seed in rows:
                try:
                    seeds.append({"c": code, "v": new.seal_seed(code, old.open_seed(code, seed))})
                except SeedKeyError as exc:
                    log.error("%s: left as it is", exc)
            if seeds:
                conn.execute(update(tables).where(tables.c.code == bindparam("c")).values(seed=bindparam("v")), seeds)
            done += len(seeds)
            done += self._reseal_bids(conn, old, new, everything)
            meta = Base.metadata.tables["meta"]
            for name, value in ((KEY_ROW, new.fingerprint), (SEALING_ROW, SEALED)):
                if not _count(conn.execute(update(meta).where(meta.c.name == name).values(value=value))):
                    conn.execute(insert(meta).values(name=name, value=value))
        if done:
            self._scrub()
        return done

    def _reseal_bids(self, conn: Any, old: Sealer, new: Sealer, everything: bool) -> int:
        """`_reseal`'s bids, a chunk at a time (a database may hold millions). How many."""
        actions = Base.metadata.tables["actions"]
        done, last = 0, ("", -1)
        while True:
            q = (select(actions.c.table_code, actions.c.n, actions.c.seat, actions.c.value)
                 .where(actions.c.kind == "bid", tuple_(actions.c.table_code, actions.c.n) > last)
                 .order_by(actions.c.table_code, actions.c.n).limit(RESEAL_CHUNK))
            rows = conn.execute(q if everything else q.where(~actions.c.value.startswith(SEALED))).all()
            if not rows:
                return done
            last = (rows[-1][0], rows[-1][1])
            bids = []
            for code, n, seat, value in rows:
                try:
                    bids.append({"c": code, "k": n, "v": new.seal_bid(code, n, seat, old.open_bid(code, n, seat, value))})
                except SeedKeyError as exc:
                    log.error("%s: left as it is", exc)
            if bids:
                where = (actions.c.table_code == bindparam("c"), actions.c.n == bindparam("k"))
                conn.execute(update(actions).where(*where).values(value=bindparam("v")), bids)
            done += len(bids)

    def _scrub(self) -> None:
        """SQLite: rewrite the file and truncate its write-ahead log, so no old row's bytes are left in it."""
        if self.url.startswith("sqlite"):
            with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
                conn.exec_driver_sql("VACUUM")  # the old rows' bytes leave free pages too
                conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")

    def _sqlite_pragmas(self, dbapi_conn: Any, _record: Any) -> None:
        """WAL: readers never wait for the writer, and a killed process loses no committed action."""
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA foreign_keys=ON")
        if not self.autocheckpoint:
            cur.execute("PRAGMA wal_autocheckpoint=0")
        cur.close()

    def checkpoint_apart(self) -> None:
        """SQLite: commits no longer copy the write-ahead log into the database themselves — a copy
        (with its fsync) every ~1,000 pages held up every action waiting on that commit, up to a
        second on a busy server — so call `checkpoint` from a thread of its own now and then."""
        if self.url.startswith("sqlite") and self.autocheckpoint:
            self.autocheckpoint = False
            self.engine.dispose()  # connections made from now on have the setting

    def checkpoint(self) -> None:
        """Copy the committed log into the database file without holding up writers (SQLite; else nothing)."""
        if self.url.startswith("sqlite"):
            with self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    def close(self) -> None:
        """Release the connection pool (and the group commit's connection)."""
        with self._pg_lock:
            idle, self._pg = self._pg, []
        for conn in idle:
            with contextlib.suppress(Exception):
                conn.close()
        self.engine.dispose()

    # --- writes ---------------------------------------------------------------------

    def create(self, table: StoredTable) -> None:
        """Insert a new table and its seats."""
        with Session(self.engine) as s, s.begin():
            s.add(
                TableRow(
                    code=table.code, status=table.status, seats=table.seats,
                    rules=json.dumps(table.rules), seed=self._sealer.seal_seed(table.code, table.seed),
                    first_start=table.first_start,
                    host_hash=table.host_hash, host_seat=table.host_seat, rematch_of=table.rematch_of,
                    created=table.created, updated=table.updated, hints=table.hints,
                    clock=table.clock, level=table.level,
                )
            )
            s.flush()
            for p in table.players:
                s.add(SeatRow(table_code=table.code, seat=p.seat, kind=p.kind, name=p.name,
                              bot=p.bot, token_hash=p.token_hash, muted=p.muted, bank=p.bank))

    def save_seat(
        self, code: str, seat: StoredSeat, host_seat: int | None = None, *, was: str | None = None,
        note: str | None = None,
    ) -> bool:
        """Update one seat (a join, a bot takeover); optionally the host's seat too. With `was`, only if
        the seat's kind is still `was` (another server process may have taken it): whether it was
        updated. `note` is sent to every process on commit (`notify`)."""
        with Session(self.engine) as s, s.begin():
            where = [SeatRow.table_code == code, SeatRow.seat == seat.seat]
            if was is not None:
                where.append(SeatRow.kind == was)
            done = _count(s.execute(
                update(SeatRow).where(*where)
                .values(kind=seat.kind, name=seat.name, bot=seat.bot, token_hash=seat.token_hash,
                        autoplay=seat.autoplay, waiting_since=seat.waiting_since)
            ))
            if not done:
                return False
            values: dict[str, Any] = {"updated": utcnow()}
            if host_seat is not None:
                values["host_seat"] = host_seat
            s.execute(update(TableRow).where(TableRow.code == code).values(**values))
            self._notify(s, note)
        return True

    def set_status(
        self, code: str, status: str, *, totals: list[int] | None = None, rematch: str | None = None,
        was: str | None = None, note: str | None = None,
    ) -> bool:
        """Change a table's status (with final totals once over, or its rematch's code). With `was`, only
        if the status is still `was`: whether it changed. `note` goes to every process on commit."""
        values: dict[str, Any] = {"status": status, "updated": utcnow()}
        if status == "over":
            values["finished"] = utcnow()
        if totals is not None:
            values["totals"] = json.dumps(totals)
        if rematch is not None:
            values["rematch"] = rematch
        where = [TableRow.code == code] + ([TableRow.status == was] if was is not None else [])
        with Session(self.engine) as s, s.begin():
            done = _count(s.execute(update(TableRow).where(*where).values(**values)))
            if done:
                self._notify(s, note)
        return bool(done)

    def set_rematch(self, code: str, rematch: str, note: str | None = None) -> None:
        """Remember the code of a table's rematch."""
        with Session(self.engine) as s, s.begin():
            s.execute(update(TableRow).where(TableRow.code == code).values(rematch=rematch))
            self._notify(s, note)

    def append_action(self, code: str, n: int, seat: int, kind: str, value: str,
                      totals: list[int] | None = None) -> None:
        """Store action number `n` of a table (committed before anyone sees its result); `totals` when it
        ended the game: the table is over in the same transaction."""
        self.append_actions([(code, n, seat, kind, value)], [] if totals is None else [(code, totals)])

    def append_actions(self, actions: Sequence[tuple[str, int, int, str, str]],
                       finished: Sequence[tuple[str, list[int]]] = ()) -> None:
        """Store actions `(code, n, seat, kind, value)` of any tables in one transaction (a group commit),
        and mark the tables in `finished` `(code, totals)` over: their last action ended the game.

        The group commit of one process alone on its database (SQLite). A server on PostgreSQL, which
        other processes may share, commits through `commit_actions`, which refuses an action another
        process numbered first."""
        if not actions and not finished:
            return
        actions = [(c, n, seat, k, self._seal_action(c, n, seat, k, v)) for c, n, seat, k, v in actions]
        now = utcnow()
        ended = {c for c, _ in finished}
        codes = sorted({c for c, *_ in actions} - ended)
        if self.engine.dialect.name == "sqlite":
            # The busiest write of a server, on its hottest path: straight to the driver. Through the
            # ORM it cost ~1 ms of CPU a batch — holding the GIL the event loop needs — and ~0.12 ms
            # this way. Timestamps in the text form SQLAlchemy writes (and reads back) on SQLite.
            at = now.strftime("%Y-%m-%d %H:%M:%S.%f")
            with self.engine.begin() as conn:
                if actions:
                    conn.exec_driver_sql(
                        "INSERT INTO actions (table_code, n, seat, kind, value, at) VALUES (?, ?, ?, ?, ?, ?)",
                        [(c, n, seat, k, v, at) for c, n, seat, k, v in actions],
                    )
                if codes:
                    conn.exec_driver_sql("UPDATE tables SET updated = ? WHERE code = ?", [(at, c) for c in codes])
                if finished:
                    conn.exec_driver_sql(
                        "UPDATE tables SET status = 'over', updated = ?, finished = ?, totals = ? WHERE code = ?",
                        [(at, at, json.dumps(totals), c) for c, totals in finished],
                    )
            return
        rows = [{"table_code": c, "n": n, "seat": seat, "kind": k, "value": v, "at": now} for c, n, seat, k, v in actions]
        with Session(self.engine) as s, s.begin():
            if rows:
                s.execute(insert(ActionRow), rows)
            if codes:
                s.execute(update(TableRow).where(TableRow.code.in_(codes)).values(updated=now))
            for c, totals in finished:
                s.execute(update(TableRow).where(TableRow.code == c).values(
                    status="over", updated=now, finished=now, totals=json.dumps(totals)))

    def add_chat(self, code: str, message: ChatMessage, note: str | None = None) -> bool:
        """Store one chat message of a table (committed before anyone is sent it); False if its number is
        taken (another server process stored one first)."""
        try:
            with Session(self.engine) as s, s.begin():
                s.add(ChatRow(table_code=code, n=message.n, seat=message.seat, name=message.name,
                              kind=message.kind, text=message.text, at=message.at))
                s.flush()
                self._notify(s, note)
        except IntegrityError:
            return False
        return True

    def save_bank(self, code: str, seat: int, bank: float | None, note: str | None = None) -> None:
        """Store the seconds left in a seat's move-clock bank (None: the whole bank)."""
        with Session(self.engine) as s, s.begin():
            s.execute(update(SeatRow).where(SeatRow.table_code == code, SeatRow.seat == seat).values(bank=bank))
            self._notify(s, note)

    def set_ready(self, code: str, seat: int, note: str | None = None) -> None:
        """A seat's person asked for the rematch of the finished table `code`."""
        with Session(self.engine) as s, s.begin():
            s.execute(update(SeatRow).where(SeatRow.table_code == code, SeatRow.seat == seat).values(ready=True))
            self._notify(s, note)

    def set_muted(self, code: str, seat: int, muted: bool, note: str | None = None) -> None:
        """Mute or unmute a seat's chat."""
        with Session(self.engine) as s, s.begin():
            s.execute(update(SeatRow).where(SeatRow.table_code == code, SeatRow.seat == seat).values(muted=muted))
            self._notify(s, note)

    # --- several server processes on one database (PostgreSQL; `cluster.py`) -------------------------

    @property
    def shared(self) -> bool:
        """Whether several server processes may share this database (PostgreSQL: locks and notifications)."""
        return self.engine.dialect.name == "postgresql"

    def commit_action(
        self, code: str, n: int, seat: int, kind: str, value: str, note: str | None = None,
    ) -> list[tuple[int, str, str]]:
        """Store action `n` of a table unless another process stored an action `n` first (`commit_actions`
        for one action); `note` goes to every process on commit.

        Returns [] once committed; else stores nothing and returns the actions from `n` on, which
        another process stored first.
        """
        notes = (note,) if note is not None else ()
        if self.commit_actions([(code, n, seat, kind, value, None, notes)]):
            return self.actions_from(code, n)
        return []

    def commit_actions(self, actions: Sequence[SharedAction]) -> set[tuple[str, int]]:
        """The group commit of processes sharing a PostgreSQL database: store actions `(code, n, seat, kind,
        value, totals, notes)` of any tables, each only if no other process stored its table's action `n`
        first; returns the `(code, n)` refused (nothing of them is stored).

        One statement does it all, in a transaction of its own (`_GROUP_COMMIT`, straight through the
        driver on a connection of its own: no ORM, one round trip): it inserts every action (arrays
        unnested), the primary key `(table_code, n)` deciding per row (`ON CONFLICT DO NOTHING`), in the
        order of (code, n) so that two processes' batches never wait on each other in a cycle; marks the
        tables whose stored action has `totals` over; and sends the stored actions' `notes` to every
        listening process (a batch's notes joined by newlines in few notifications; `cluster.py` splits
        them), delivered on commit. A table's second action in a batch goes in a second transaction,
        refused if its first was (its number would follow another process's action)."""
        refused: set[tuple[str, int]] = set()
        rounds: list[list[SharedAction]] = []
        count: dict[str, int] = {}
        for row in sorted(actions, key=lambda a: (a[0], a[1])):
            k = count[row[0]] = count.get(row[0], -1) + 1
            if k == len(rounds):
                rounds.append([])
            rounds[k].append(row)
        for rows in rounds:
            lost = {c for c, _ in refused}
            refused.update((r[0], r[1]) for r in rows if r[0] in lost)
            rows = [r for r in rows if r[0] not in lost]
            if rows:
                refused |= self._commit_round(rows)
        return refused

    def _commit_round(self, rows: Sequence[SharedAction]) -> set[tuple[str, int]]:
        now = utcnow()
        over = [(r[0], r[1], json.dumps(r[5])) for r in rows if r[5] is not None]
        notes = [(r[0], r[1], note) for r in rows for note in r[6]]
        params: dict[str, Any] = {
            "now": now, "c": [r[0] for r in rows], "n": [r[1] for r in rows], "s": [r[2] for r in rows],
            "k": [r[3] for r in rows], "v": [self._seal_action(*r[:5]) for r in rows],
            "oc": [o[0] for o in over], "on": [o[1] for o in over], "ot": [o[2] for o in over],
            "ch": CHANNEL, "nc": [x[0] for x in notes], "nn": [x[1] for x in notes], "nt": [x[2] for x in notes],
        }
        for attempt in range(3):
            try:
                got = self._pg_execute(_GROUP_COMMIT, params)
                break
            except Exception as exc:  # two transactions waiting on each other: PostgreSQL aborted ours
                if attempt == 2 or getattr(exc, "sqlstate", None) not in ("40P01", "40001"):
                    raise
                log.info("a group commit met another process's and is tried again")
        stored = {(c, n) for c, n in got if c is not None}
        return {(r[0], r[1]) for r in rows if (r[0], r[1]) not in stored}

    def _pg_execute(self, sql: str, params: dict[str, Any]) -> list[Any]:
        """Run one statement on one of the store's own autocommit psycopg connections (an idle one, else a
        new one: the manager runs one group commit at a time, but any thread may call); its rows. A broken
        connection is dropped."""
        import psycopg

        with self._pg_lock:
            conn = self._pg.pop() if self._pg else None
        if conn is None or conn.closed:
            conn = psycopg.connect(libpq_url(self.url), autocommit=True, prepare_threshold=0)
        try:
            rows = conn.execute(sql, params).fetchall()
        except psycopg.OperationalError:
            with contextlib.suppress(Exception):
                conn.close()
            raise
        with self._pg_lock:
            self._pg.append(conn)
        return rows

    def actions_from(self, code: str, n: int = 0) -> list[tuple[int, str, str]]:
        """A table's actions `(seat, kind, value)` from number `n` on, in order."""
        with Session(self.engine) as s:
            return self._actions(s, code, n)

    def _actions(self, s: Session, code: str, n: int) -> list[tuple[int, str, str]]:
        rows = s.execute(
            select(ActionRow.n, ActionRow.seat, ActionRow.kind, ActionRow.value)
            .where(ActionRow.table_code == code, ActionRow.n >= n).order_by(ActionRow.n)
        )
        return [(seat, kind, self._open_action(code, i, seat, kind, value)) for i, seat, kind, value in rows]

    def _seal_action(self, code: str, n: int, seat: int, kind: str, value: str) -> str:
        """How action `n` of a table is stored: a bid sealed (hidden until revealed; sealed always), a roll
        as it is (everyone sees it)."""
        return self._sealer.seal_bid(code, n, seat, value) if kind == "bid" else value

    def _open_action(self, code: str, n: int, seat: int, kind: str, value: str) -> str:
        return self._sealer.open_bid(code, n, seat, value) if kind == "bid" else value

    def chat_after(self, code: str, n: int) -> list[ChatMessage]:
        """A table's chat messages numbered above `n`, oldest first (at most `HISTORY`)."""
        with Session(self.engine) as s:
            return [m for m in self._chat(s, code, HISTORY) if m.n > n]

    def lobby(self, code: str) -> StoredTable | None:
        """A table without its actions, chat or seed: what another process may have changed in its lobby."""
        with Session(self.engine) as s:
            row = s.get(TableRow, code)
            return None if row is None else self._stored(s, row, actions=False)

    def notify(self, note: str) -> None:
        """Send `note` to every server process listening on this database (PostgreSQL; else nothing)."""
        if self.shared:
            with Session(self.engine) as s, s.begin():
                self._notify(s, note)

    def _notify(self, s: Session, note: str | None) -> None:
        """`pg_notify` inside the transaction `s`: delivered when (and only if) it commits."""
        if note is not None and self.shared:
            s.execute(text("SELECT pg_notify(:channel, :note)"), {"channel": CHANNEL, "note": note})

    def heartbeat(self, process: str, forget: float) -> None:
        """Say `process` is alive now; forget processes silent for `forget` seconds, and their sockets."""
        now = utcnow()
        old = now - dt.timedelta(seconds=forget)
        with Session(self.engine) as s, s.begin():
            if not _count(s.execute(update(ProcessRow).where(ProcessRow.id == process).values(seen=now))):
                s.add(ProcessRow(id=process, seen=now))
            gone = select(ProcessRow.id).where(ProcessRow.seen < old)
            s.execute(delete(PresenceRow).where(PresenceRow.process.in_(gone)))
            s.execute(delete(ProcessRow).where(ProcessRow.seen < old))

    def drop_process(self, process: str, note: str | None = None) -> None:
        """A process stops: forget it and its sockets."""
        with Session(self.engine) as s, s.begin():
            s.execute(delete(PresenceRow).where(PresenceRow.process == process))
            s.execute(delete(ProcessRow).where(ProcessRow.id == process))
            self._notify(s, note)

    def save_flags(self, code: str, seats: Sequence[StoredSeat], note: str | None = None) -> None:
        """Store the turn timers and stand-in flags of `seats` (nothing else of them)."""
        with Session(self.engine) as s, s.begin():
            for seat in seats:
                s.execute(
                    update(SeatRow).where(SeatRow.table_code == code, SeatRow.seat == seat.seat)
                    .values(autoplay=seat.autoplay, waiting_since=seat.waiting_since)
                )
            self._notify(s, note)

    def set_presence(self, process: str, code: str, seat: int, conns: int, note: str | None = None) -> None:
        """How many sockets `process` has at a table's seat (-1: spectators) now."""
        with Session(self.engine) as s, s.begin():
            key = (PresenceRow.process == process, PresenceRow.table_code == code, PresenceRow.seat == seat)
            if conns <= 0:
                s.execute(delete(PresenceRow).where(*key))
            elif not _count(s.execute(update(PresenceRow).where(*key).values(conns=conns))):
                s.add(PresenceRow(process=process, table_code=code, seat=seat, conns=conns))
            self._notify(s, note)

    def presence(self, code: str, process: str, alive: float) -> dict[int, int]:
        """Sockets per seat (-1: spectators) at a table held by the *other* processes heard from in the
        last `alive` seconds."""
        cutoff = utcnow() - dt.timedelta(seconds=alive)
        with Session(self.engine) as s:
            rows = s.execute(
                select(PresenceRow.seat, func.sum(PresenceRow.conns))
                .join(ProcessRow, ProcessRow.id == PresenceRow.process)
                .where(PresenceRow.table_code == code, PresenceRow.process != process, ProcessRow.seen > cutoff)
                .group_by(PresenceRow.seat)
            )
            return {int(seat): int(n) for seat, n in rows if n}

    def presence_at(self, codes: Sequence[str], process: str, alive: float) -> dict[str, dict[int, int]]:
        """`presence` of several tables in one query: table code → sockets per seat (tables with none left
        out)."""
        cutoff = utcnow() - dt.timedelta(seconds=alive)
        out: dict[str, dict[int, int]] = {}
        with Session(self.engine) as s:
            rows = s.execute(
                select(PresenceRow.table_code, PresenceRow.seat, func.sum(PresenceRow.conns))
                .join(ProcessRow, ProcessRow.id == PresenceRow.process)
                .where(PresenceRow.table_code.in_(codes), PresenceRow.process != process, ProcessRow.seen > cutoff)
                .group_by(PresenceRow.table_code, PresenceRow.seat)
            )
            for code, seat, n in rows:
                if n:
                    out.setdefault(code, {})[int(seat)] = int(n)
        return out

    def playing(self) -> list[str]:
        """The codes of the tables being played."""
        with Session(self.engine) as s:
            return list(s.scalars(select(TableRow.code).where(TableRow.status == "playing")))

    # --- reads ----------------------------------------------------------------------

    def chat(self, code: str, limit: int = HISTORY) -> list[ChatMessage]:
        """A table's last `limit` chat messages, oldest first."""
        with Session(self.engine) as s:
            return self._chat(s, code, limit)

    def _chat(self, s: Session, code: str, limit: int) -> list[ChatMessage]:
        rows = s.scalars(select(ChatRow).where(ChatRow.table_code == code).order_by(ChatRow.n.desc()).limit(limit))
        return [ChatMessage(r.n, r.seat, r.name, r.kind, r.text, _aware(r.at)) for r in reversed(list(rows))]

    def load(self, code: str) -> StoredTable | None:
        """A table with its seats and actions, or None (SeedKeyError: its seed is sealed with another key)."""
        with Session(self.engine) as s:
            row = s.get(TableRow, code)
            return None if row is None else self._stored(s, row)

    def load_status(self, *statuses: str) -> list[StoredTable]:
        """Every table whose status is one of `statuses` (to resume them at start-up)."""
        with Session(self.engine) as s:
            rows = s.scalars(select(TableRow).where(TableRow.status.in_(statuses)).order_by(TableRow.created))
            out = []
            for r in rows:
                try:
                    out.append(self._stored(s, r))
                except SeedKeyError as exc:  # only that table stays shut; the others resume
                    log.error("table %s is not resumed: %s", r.code, exc)
            return out

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
        acts = self._actions(s, row.code, 0) if actions else []
        return StoredTable(
            code=row.code, status=row.status, seats=row.seats, rules=json.loads(row.rules),
            seed=self._sealer.open_seed(row.code, row.seed) if actions else "",
            first_start=row.first_start, host_hash=row.host_hash, host_seat=row.host_seat,
            players=[
                StoredSeat(p.seat, p.kind, p.name, p.bot, p.token_hash, bool(p.muted), bool(p.autoplay),
                           _aware(p.waiting_since) if p.waiting_since is not None else None,
                           p.bank, bool(p.ready))
                for p in seats
            ],
            actions=acts, rematch_of=row.rematch_of, rematch=row.rematch,
            created=_aware(row.created), updated=_aware(row.updated),
            finished=_aware(row.finished) if row.finished is not None else None,
            totals=json.loads(row.totals) if row.totals else None,
            hints=bool(row.hints),
            chat=self._chat(s, row.code, HISTORY) if actions else [],
            clock=row.clock or "off", level=row.level,
        )


#: `Store.commit_actions`'s one statement: insert the actions not taken, touch or end their tables, send
#: their notes (200 a notification: ~6 KB, under PostgreSQL's 8,000 bytes), and return the actions
#: stored (and a last row counting the notifications, so that its part always runs).
_GROUP_COMMIT = """
WITH ins AS (
    INSERT INTO actions (table_code, n, seat, kind, value, at)
    SELECT c, n, s, k, v, %(now)s
    FROM unnest(%(c)s::varchar[], %(n)s::int[], %(s)s::int[], %(k)s::varchar[], %(v)s::varchar[]) AS u(c, n, s, k, v)
    ORDER BY c, n
    ON CONFLICT DO NOTHING
    RETURNING table_code, n
), touched AS (
    UPDATE tables SET updated = %(now)s
    WHERE code IN (SELECT table_code FROM ins) AND code <> ALL(%(oc)s::varchar[])
), ended AS (
    UPDATE tables SET status = 'over', updated = %(now)s, finished = %(now)s, totals = f.t
    FROM unnest(%(oc)s::varchar[], %(on)s::int[], %(ot)s::text[]) AS f(c, n, t)
    WHERE code = f.c AND (f.c, f.n) IN (SELECT table_code, n FROM ins)
), told AS (
    SELECT pg_notify(%(ch)s, string_agg(x.note, E'\\n' ORDER BY x.i))
    FROM unnest(%(nc)s::varchar[], %(nn)s::int[], %(nt)s::text[]) WITH ORDINALITY AS x(c, n, note, i)
    WHERE (x.c, x.n) IN (SELECT table_code, n FROM ins)
    GROUP BY (x.i - 1) / 200
)
SELECT table_code, n FROM ins
UNION ALL SELECT NULL, count(*) FROM told
"""


def _count(result: Any) -> int:
    """The rows an UPDATE or DELETE matched."""
    return int(result.rowcount)



