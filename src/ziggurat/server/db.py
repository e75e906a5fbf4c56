"""The database: tables, seats and the move log; accounts, jobs and ratings; engines; migrations.

The move log is the truth. ``moves`` is append-only: one row per applied action
(player moves, chance outcomes and take-backs), ordered by ``seq`` within a table;
``UNIQUE(table_id, seq)`` lets the database, not a server process, decide which of
two competing moves comes next, and ``UNIQUE(table_id, seat, client_msg_id)`` applies a
retried message once (message ids are chosen by each client, so they are unique per seat).
The schema is created and upgraded by Alembic
(``ziggurat/server/migrations``) when the server starts.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    create_engine,
    event,
    make_url,
)
from sqlalchemy import false as sa_false

metadata = MetaData()

tables = Table(
    "tables",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", JSON, nullable=False),
    Column("seed", BigInteger, nullable=False),  # secret while the game runs
    Column("engine_version", String(32), nullable=False),
    Column("position", JSON, nullable=True),  # a start position (state JSON); NULL: the game's own setup
    Column("public", Boolean, nullable=False, default=False),
    Column("status", String(16), nullable=False),  # waiting | playing | over | broken
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    # 0002: paces, clocks and ratings
    Column("pace", String(8), nullable=False, server_default="live"),  # live | realtime | turn
    Column("clock_initial", Integer, nullable=True),  # realtime: seconds on each clock at the start
    Column("clock_increment", Integer, nullable=True),  # realtime: seconds added after each decision
    Column("turn_seconds", Integer, nullable=True),  # turn-based: seconds allowed for each decision
    Column("rated", Boolean, nullable=False, server_default=sa_false()),
    Column("rated_at", DateTime(timezone=True), nullable=True),  # when its result went into the ratings
    # 0003: the creator chose the seed (they may know every hidden card: said on the table's page)
    Column("seed_chosen", Boolean, nullable=False, server_default=sa_false()),
    # 0005: who created it (quotas per client address and per account)
    Column("creator_addr", String(64), nullable=True),
    Column("creator_user_id", Integer, nullable=True),
)
Index("ix_tables_creator_addr", tables.c.creator_addr, tables.c.status)
Index("ix_tables_creator_user", tables.c.creator_user_id, tables.c.status)
Index("ix_tables_listing", tables.c.public, tables.c.status, tables.c.updated_at)

users = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(40), nullable=False),
    Column("name_key", String(40), nullable=False, unique=True),  # the name folded: names differ by more than case
    Column("email", String(254), nullable=True),
    Column("password_hash", String(200), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    # 0006: shut out by the site's operators (ziggurat admin ban): no log-in, no seat
    Column("banned_at", DateTime(timezone=True), nullable=True, index=True),
    Column("ban_reason", String(200), nullable=True),
    # 0007: the language of the site for them (their mails are written in it)
    Column("lang", String(8), nullable=True),
)

sessions = Table(
    "sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
)

seats = Table(
    "seats",
    metadata,
    Column("table_id", String(16), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # human | bot
    Column("bot", String(32), nullable=True),
    Column("bot_params", JSON, nullable=True),
    Column("name", String(40), nullable=True),
    Column("token_hash", String(64), nullable=True, unique=True),  # the secret of whoever sits there (only)
    Column("claimed_at", DateTime(timezone=True), nullable=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="SET NULL"), nullable=True, index=True),  # 0002
    # 0004: an invite: for an open seat, to sit down; for a taken one, its player's link to move to another device
    Column("invite_hash", String(64), nullable=True),
    UniqueConstraint("invite_hash", name="uq_seats_invite_hash"),
)

# 0005: counts and blocks of the abuse limits (server/limits.py), shared by every server process
limits = Table(
    "limits",
    metadata,
    Column("key", String(160), primary_key=True),
    Column("count", Integer, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("blocked_until", DateTime(timezone=True), nullable=True),
)

moves = Table(
    "moves",
    metadata,
    Column("table_id", String(16), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),  # -1: chance
    Column("kind", String(8), nullable=False),  # action | undo
    Column("action_id", Integer, nullable=True),  # NULL for an undo
    Column("client_msg_id", String(64), nullable=True),
    Column("at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("table_id", "seat", "client_msg_id", name="uq_moves_client_msg"),
)

jobs = Table(
    "jobs",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(16), ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
    Column("key", String(64), nullable=False),  # e.g. bot:1:37 (seat 1 at event 37): a job is made once
    Column("kind", String(16), nullable=False),  # bot | timeout | mail
    Column("seat", Integer, nullable=False),
    Column("due_at", DateTime(timezone=True), nullable=False),
    Column("claimed_by", String(64), nullable=True),
    Column("claimed_until", DateTime(timezone=True), nullable=True),
    Column("done_at", DateTime(timezone=True), nullable=True),
    Column("attempts", Integer, nullable=False, server_default="0"),  # 0003: failed tries so far
    UniqueConstraint("table_id", "key", name="uq_jobs_key"),
)
Index("ix_jobs_due", jobs.c.done_at, jobs.c.due_at)

ratings = Table(
    "ratings",
    metadata,
    Column("subject", String(64), primary_key=True),  # user:<id> or bot:<name>[:<level>]
    Column("game", String(32), primary_key=True),
    Column("players", Integer, primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

results = Table(
    "results",
    metadata,
    Column("table_id", String(16), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("subject", String(64), nullable=False, index=True),
    Column("game", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("rank", Integer, nullable=False),
    Column("score", Float, nullable=False),
    Column("left", Boolean, nullable=False),  # left the table (or ran out of time) before the end
    Column("counted", Boolean, nullable=False),  # whether this result moved the subject's rating
    Column("mu_before", Float, nullable=True),
    Column("mu_after", Float, nullable=True),
    Column("at", DateTime(timezone=True), nullable=False),
)

MIGRATIONS = Path(__file__).with_name("migrations")


def normalise_url(url: str) -> str:
    """``postgresql://`` and ``postgres://`` use the psycopg 3 driver; other URLs are kept."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


SQLITE_WAIT = 30.0
"""Seconds a SQLite writer waits for the database before "database is locked" (in the process and out)."""

_DML = ("INSERT", "UPDATE", "DELETE", "REPLACE")


class _WriterCursor(sqlite3.Cursor):
    """A cursor that takes its connection's process-wide write lock before a statement that writes."""

    connection: SerialWriteConnection

    def execute(self, sql: str, parameters: Any = (), /) -> _WriterCursor:
        took = self.connection._lock_for(sql)
        try:
            super().execute(sql, parameters)
            return self
        finally:
            self.connection._unlock_if_done(took)

    def executemany(self, sql: str, seq_of_parameters: Any, /) -> _WriterCursor:
        took = self.connection._lock_for(sql)
        try:
            super().executemany(sql, seq_of_parameters)
            return self
        finally:
            self.connection._unlock_if_done(took)


class SerialWriteConnection(sqlite3.Connection):
    """A SQLite connection whose write transactions, in one process, take turns on a Python lock.

    SQLite lets one connection write at a time. A connection that finds the database locked
    retries in SQLite's busy handler, which sleeps 1, 2, 5, 10, ... up to 100 ms between tries:
    a server's threads writing at once (the move log's group commits, tables being created,
    the throttles' counters) then wait far longer than the writes take, and a move's commit
    could wait a few hundred milliseconds (the p99 of ``benchmarks/server.py``). Here a
    connection takes the process's lock before its first writing statement (where Python's
    ``sqlite3`` begins the transaction) and gives it back when the transaction ends, so a
    writer waits only as long as the one before it writes, and wakes as soon as it is done.
    Another process still meets the busy handler (``SQLITE_WAIT`` seconds).
    """

    write_lock: threading.Lock = threading.Lock()  # replaced per engine by make_engine

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._holds_write = False

    def cursor(self, factory: Any = None) -> sqlite3.Cursor:  # type: ignore[override]
        """A cursor that takes the write lock when it writes."""
        return super().cursor(factory or _WriterCursor)

    # sqlite3's shortcuts run their statement in C, past the cursor's methods: route them through one
    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        """``cursor().execute(...)``, taking the write lock when it writes."""
        return self.cursor().execute(sql, parameters)

    def executemany(self, sql: str, seq_of_parameters: Any, /) -> sqlite3.Cursor:
        """``cursor().executemany(...)``, taking the write lock when it writes."""
        return self.cursor().executemany(sql, seq_of_parameters)

    def _lock_for(self, sql: str) -> bool:
        if self._holds_write or not sql.lstrip()[:7].upper().startswith(_DML):
            return False
        if not self.write_lock.acquire(timeout=SQLITE_WAIT):
            raise sqlite3.OperationalError("database is locked (another writer of this process held it)")
        self._holds_write = True
        return True

    def _unlock_if_done(self, took: bool) -> None:
        # a statement that wrote outside a transaction (or failed before one began) holds nothing after it
        if took:
            self._release_if_ended()

    def _release_if_ended(self) -> None:
        if not self.in_transaction:
            self._release()

    def _release(self) -> None:
        if self._holds_write:
            self._holds_write = False
            self.write_lock.release()

    def commit(self) -> None:
        """Commit, then let the next writer in."""
        try:
            super().commit()
        finally:
            self._release_if_ended()

    def rollback(self) -> None:
        """Roll back, then let the next writer in."""
        try:
            super().rollback()
        finally:
            self._release_if_ended()

    def close(self) -> None:
        """Close (a transaction still open is rolled back by SQLite) and let the next writer in."""
        try:
            super().close()
        finally:
            self._release()

    def __del__(self) -> None:
        # a connection dropped without close() (its transaction dies with it) must not keep the lock
        if getattr(self, "_holds_write", False):
            self._release()


_factories: dict[str, type[SerialWriteConnection]] = {}
_factories_lock = threading.Lock()


def _with_own_lock() -> type[SerialWriteConnection]:
    return type("SerialWriteConnection", (SerialWriteConnection,), {"write_lock": threading.Lock()})


def _serial_factory(url: str) -> type[SerialWriteConnection]:
    """The connection class of one SQLite database: one write lock per database file in the process."""
    database = make_url(url).database or ""
    if database in ("", ":memory:") or database.startswith("file:"):  # its own database, or one we can't name
        return _with_own_lock()
    key = str(Path(database).resolve())
    with _factories_lock:
        factory = _factories.get(key)
        if factory is None:
            factory = _factories[key] = _with_own_lock()
        return factory


def make_engine(url: str, **kwargs: Any) -> Engine:
    """An engine for ``url``; SQLite gets WAL, NORMAL sync, a busy timeout, foreign keys and
    write transactions that take turns within the process (:class:`SerialWriteConnection`).

    In WAL mode a committed transaction survives the process being killed (only a
    power cut can lose the last commits with ``synchronous=NORMAL``).
    """
    url = normalise_url(url)
    if url.startswith("sqlite"):
        factory = _serial_factory(url)
        connect_args = {"check_same_thread": False, "timeout": SQLITE_WAIT, "factory": factory}
        engine = create_engine(url, connect_args=connect_args, **kwargs)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute(f"PRAGMA busy_timeout={int(SQLITE_WAIT * 1000)}")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True, **kwargs)


def migrate(engine: Engine) -> None:
    """Bring the schema up to the newest migration (creates it in an empty database)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "head")
