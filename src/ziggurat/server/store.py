"""Reading and writing the move log (blocking calls; the server runs them off the event loop).

Moves are appended by :class:`LogWriter`, a thread that commits whatever moves
are waiting as one transaction (group commit): each move group (a player's
action and the chance outcomes that follow it) is inserted with ``ON CONFLICT DO
NOTHING``, so a group whose ``seq`` another process took first, or whose
``client_msg_id`` is already in the log, is refused alone and reported back.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import queue
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from sqlalchemy import Engine, func, select, update

from ziggurat.server.db import moves, seats, tables

log = logging.getLogger("ziggurat.server")


def now() -> dt.datetime:
    """The current time (UTC)."""
    return dt.datetime.now(dt.UTC)


class Row(NamedTuple):
    """One entry of the move log (a tuple: the garbage collector need not follow it)."""

    seq: int
    seat: int
    kind: str  # "action" | "undo"
    action_id: int | None
    client_msg_id: str | None = None


@dataclass
class SeatRecord:
    """A seat as stored: a human (claimed or open) or a bot."""

    seat: int
    kind: str
    bot: str | None = None
    bot_params: dict[str, Any] = field(default_factory=dict)
    name: str | None = None
    token_hash: str | None = None
    claimed_at: dt.datetime | None = None


@dataclass
class TableRecord:
    """A table as stored: its game, options, secret seed, seats and whole log."""

    id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    engine_version: str
    position: dict[str, Any] | None
    public: bool
    status: str
    created_at: dt.datetime
    seats: list[SeatRecord]
    rows: list[Row]


class Store:
    """Blocking access to the database (tables, seats, the move log)."""

    def __init__(self, engine: Engine):
        self.engine = engine

    # ------------------------------------------------------------------ tables
    def create_table(self, record: TableRecord) -> None:
        """Store a new table with its seats and first rows (its setup's chance outcomes)."""
        at = now()
        with self.engine.begin() as conn:
            conn.execute(
                tables.insert().values(
                    id=record.id,
                    game=record.game,
                    players=record.players,
                    options=record.options,
                    seed=record.seed,
                    engine_version=record.engine_version,
                    position=record.position,
                    public=record.public,
                    status=record.status,
                    created_at=at,
                    updated_at=at,
                )
            )
            conn.execute(
                seats.insert(),
                [
                    {
                        "table_id": record.id,
                        "seat": s.seat,
                        "kind": s.kind,
                        "bot": s.bot,
                        "bot_params": s.bot_params or None,
                        "name": s.name,
                        "token_hash": s.token_hash,
                        "claimed_at": s.claimed_at,
                    }
                    for s in record.seats
                ],
            )
            if record.rows:
                conn.execute(moves.insert(), [_row_values(record.id, r, at) for r in record.rows])

    def load_table(self, table_id: str) -> TableRecord | None:
        """The table with its seats and whole log, or ``None``."""
        with self.engine.connect() as conn:
            t = conn.execute(select(tables).where(tables.c.id == table_id)).mappings().first()
            if t is None:
                return None
            seat_rows = conn.execute(select(seats).where(seats.c.table_id == table_id).order_by(seats.c.seat))
            log_rows = conn.execute(
                select(moves.c.seq, moves.c.seat, moves.c.kind, moves.c.action_id, moves.c.client_msg_id)
                .where(moves.c.table_id == table_id)
                .order_by(moves.c.seq)
            )
            return TableRecord(
                id=t["id"],
                game=t["game"],
                players=t["players"],
                options=dict(t["options"] or {}),
                seed=int(t["seed"]),
                engine_version=t["engine_version"],
                position=t["position"],
                public=bool(t["public"]),
                status=t["status"],
                created_at=t["created_at"],
                seats=[
                    SeatRecord(
                        seat=s.seat,
                        kind=s.kind,
                        bot=s.bot,
                        bot_params=dict(s.bot_params or {}),
                        name=s.name,
                        token_hash=s.token_hash,
                        claimed_at=s.claimed_at,
                    )
                    for s in seat_rows
                ],
                rows=[Row(r.seq, r.seat, r.kind, r.action_id, r.client_msg_id) for r in log_rows],
            )

    def rows_after(self, table_id: str, seq: int) -> list[Row]:
        """Log rows of ``table_id`` after ``seq`` (what another process appended)."""
        with self.engine.connect() as conn:
            result = conn.execute(
                select(moves.c.seq, moves.c.seat, moves.c.kind, moves.c.action_id, moves.c.client_msg_id)
                .where(moves.c.table_id == table_id, moves.c.seq > seq)
                .order_by(moves.c.seq)
            )
            return [Row(r.seq, r.seat, r.kind, r.action_id, r.client_msg_id) for r in result]

    def last_seq(self, table_id: str) -> int:
        """The newest ``seq`` of a table's log (0 when empty)."""
        with self.engine.connect() as conn:
            value = conn.execute(select(func.max(moves.c.seq)).where(moves.c.table_id == table_id)).scalar()
            return int(value or 0)

    def set_status(self, table_id: str, status: str) -> None:
        """Record a table's status (for the lobby listing)."""
        with self.engine.begin() as conn:
            conn.execute(update(tables).where(tables.c.id == table_id).values(status=status, updated_at=now()))

    def list_tables(self, public_only: bool = True, limit: int = 100) -> list[dict[str, Any]]:
        """The newest tables (public ones by default) with their seats, for the lobby."""
        with self.engine.connect() as conn:
            query = select(tables.c.id, tables.c.game, tables.c.players, tables.c.options, tables.c.status)
            query = query.add_columns(tables.c.updated_at, tables.c.public)
            if public_only:
                query = query.where(tables.c.public.is_(True))
            query = query.where(tables.c.status != "broken").order_by(tables.c.updated_at.desc()).limit(limit)
            rows = [dict(r) for r in conn.execute(query).mappings()]
            if not rows:
                return rows
            ids = [r["id"] for r in rows]
            by_table: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
            for s in conn.execute(
                select(seats.c.table_id, seats.c.seat, seats.c.kind, seats.c.bot, seats.c.bot_params, seats.c.name)
                .add_columns(seats.c.claimed_at)
                .where(seats.c.table_id.in_(ids))
                .order_by(seats.c.seat)
            ).mappings():
                by_table[s["table_id"]].append(dict(s))
            for r in rows:
                r["seats"] = by_table[r["id"]]
            return rows

    def unfinished_tables(self) -> list[str]:
        """Ids of the tables whose game is not over (to resume bots after a restart)."""
        with self.engine.connect() as conn:
            result = conn.execute(select(tables.c.id).where(tables.c.status.in_(("waiting", "playing"))))
            return [r.id for r in result]

    # ------------------------------------------------------------------- seats
    def find_seat(self, token_hash: str) -> tuple[str, int] | None:
        """``(table id, seat)`` of the seat whose secret hashes to ``token_hash``."""
        with self.engine.connect() as conn:
            row = conn.execute(select(seats.c.table_id, seats.c.seat).where(seats.c.token_hash == token_hash)).first()
            return (row.table_id, row.seat) if row else None

    def claim_seat(self, table_id: str, seat: int, name: str, token_hash: str, only_open: bool) -> bool:
        """Give ``seat`` a name (and a new secret); with ``only_open`` only if nobody sat there yet."""
        with self.engine.begin() as conn:
            query = update(seats).where(seats.c.table_id == table_id, seats.c.seat == seat, seats.c.kind == "human")
            if only_open:
                query = query.where(seats.c.claimed_at.is_(None))
            result = conn.execute(query.values(name=name, token_hash=token_hash, claimed_at=now()))
            return bool(result.rowcount)

    def claim_seat_secret(self, table_id: str, seat: int, token_hash: str) -> bool:
        """Give an open seat a new secret (a new invite link; the old one stops working)."""
        with self.engine.begin() as conn:
            result = conn.execute(
                update(seats)
                .where(seats.c.table_id == table_id, seats.c.seat == seat, seats.c.kind == "human")
                .where(seats.c.claimed_at.is_(None))
                .values(token_hash=token_hash)
            )
            return bool(result.rowcount)


def _row_values(table_id: str, row: Row, at: dt.datetime) -> dict[str, Any]:
    return {
        "table_id": table_id,
        "seq": row.seq,
        "seat": row.seat,
        "kind": row.kind,
        "action_id": row.action_id,
        "client_msg_id": row.client_msg_id,
        "at": at,
    }


@dataclass
class _Pending:
    table_id: str
    rows: Sequence[Row]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[bool]


class LogWriter:
    """Appends move groups from a thread, many per transaction (group commit).

    ``await writer.append(table_id, rows)`` is true once the rows are committed,
    false when the first row's ``seq`` or ``client_msg_id`` is already taken (the
    rows were not written; the caller catches up and decides again).

    This is the server's hottest path, so it talks to the database driver
    directly with two fixed statements (the schema and every other query go
    through SQLAlchemy).
    """

    BATCH = 512

    def __init__(self, engine: Engine):
        self.engine = engine
        mark = "?" if engine.dialect.paramstyle == "qmark" else "%s"
        values = ", ".join([mark] * 7)
        columns = "table_id, seq, seat, kind, action_id, client_msg_id, at"
        # the first row of a group may lose the race for its seq (or be a retried message)
        self.sql_first = f"INSERT INTO moves ({columns}) VALUES ({values}) ON CONFLICT DO NOTHING RETURNING seq"
        self.sql_rest = f"INSERT INTO moves ({columns}) VALUES ({values})"
        self.at_value = moves.c.at.type.bind_processor(engine.dialect) or (lambda v: v)
        self._queue: queue.SimpleQueue[_Pending | None] = queue.SimpleQueue()
        self._connection: Any = None
        self._thread = threading.Thread(target=self._run, name="ziggurat-log-writer", daemon=True)
        self._thread.start()
        self.commits = 0
        self.groups = 0

    async def append(self, table_id: str, rows: Sequence[Row]) -> bool:
        """Write ``rows`` (one move group of a table) in order; see the class docstring."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bool] = loop.create_future()
        self._queue.put(_Pending(table_id, rows, loop, future))
        return await future

    def close(self) -> None:
        """Finish what is queued and stop the thread."""
        self._queue.put(None)
        self._thread.join(timeout=10)

    def _run(self) -> None:
        try:
            while True:
                first = self._queue.get()
                if first is None:
                    return
                batch = [first]
                while len(batch) < self.BATCH:
                    try:
                        item = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    if item is None:
                        self._write(batch)
                        return
                    batch.append(item)
                self._write(batch)
        finally:
            if self._connection is not None:
                self._connection.close()

    def _write(self, batch: list[_Pending]) -> None:
        # one lock order for every process: by table, then seq (no deadlock between writers)
        batch.sort(key=lambda p: (p.table_id, p.rows[0].seq))
        results: list[tuple[asyncio.Future[bool], bool]] = []
        try:
            if self._connection is None:
                self._connection = self.engine.raw_connection()
            conn = self._connection
            at = self.at_value(now())
            cur = conn.cursor()
            try:
                for item in batch:
                    head, *rest = item.rows
                    cur.execute(self.sql_first, _row_tuple(item.table_id, head, at))
                    written = cur.fetchone() is not None
                    if written and rest:
                        cur.executemany(self.sql_rest, [_row_tuple(item.table_id, r, at) for r in rest])
                    results.append((item.future, written))
                conn.commit()
            finally:
                cur.close()
            self.commits += 1
            self.groups += len(batch)
        except Exception as exc:  # the database is gone or refused the batch: every waiter hears it
            log.exception("writing %d move groups failed", len(batch))
            if self._connection is not None:
                with contextlib.suppress(Exception):
                    self._connection.invalidate()  # a new connection next time
                self._connection = None
            for item in batch:
                item.loop.call_soon_threadsafe(_fail, item.future, exc)
            return
        for loop, done in _by_loop(batch, results).items():
            loop.call_soon_threadsafe(_resolve_all, done)


def _row_tuple(table_id: str, row: Row, at: Any) -> tuple[Any, ...]:
    return (table_id, row.seq, row.seat, row.kind, row.action_id, row.client_msg_id, at)


def _by_loop(
    batch: list[_Pending], results: list[tuple[asyncio.Future[bool], bool]]
) -> dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[bool], bool]]]:
    out: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[bool], bool]]] = {}
    for item, result in zip(batch, results, strict=True):
        out.setdefault(item.loop, []).append(result)
    return out


def _resolve_all(done: list[tuple[asyncio.Future[bool], bool]]) -> None:
    for future, ok in done:
        _resolve(future, ok)


def _resolve(future: asyncio.Future[bool], ok: bool) -> None:
    if not future.done():
        future.set_result(ok)


def _fail(future: asyncio.Future[bool], exc: BaseException) -> None:
    if not future.done():
        future.set_exception(exc)
