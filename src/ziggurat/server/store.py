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
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from sqlalchemy import Engine, and_, case, delete, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite

from ziggurat.server.db import jobs, moves, seats, tables
from ziggurat.server.notify import Publisher, notice_sql, notices_sql
from ziggurat.server.observe import LOG_WAIT_SECONDS, Percentiles

log = logging.getLogger("ziggurat.server")


def now() -> dt.datetime:
    """The current time (UTC)."""
    return dt.datetime.now(dt.UTC)


class Row(NamedTuple):
    """One entry of the move log.

    ``kind``: ``action`` (a player's decision, or chance when ``seat`` is -1),
    ``undo`` (the seat takes its last decision back), ``timeout`` (the seat ran out
    of time), ``leave`` (its player left) and ``replace`` (a bot plays the seat from
    now on). ``at`` is when it was written (the clocks are computed from it).
    """

    seq: int
    seat: int
    kind: str
    action_id: int | None
    client_msg_id: str | None = None
    at: dt.datetime | None = None


@dataclass
class SeatRecord:
    """A seat as stored: a human (claimed or open) or a bot."""

    seat: int
    kind: str
    bot: str | None = None
    bot_params: dict[str, Any] = field(default_factory=dict)
    name: str | None = None
    token_hash: str | None = None  # the secret of whoever sits there (None while the seat is open)
    claimed_at: dt.datetime | None = None
    user_id: int | None = None
    invite_hash: str | None = None  # an open seat's invite, or a taken seat's link to another device


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
    pace: str = "live"
    clock_initial: int | None = None
    clock_increment: int | None = None
    turn_seconds: int | None = None
    rated: bool = False
    seed_chosen: bool = False  # the creator chose the seed (so may know every hidden card)
    creator_addr: str | None = None  # the client address that created it (quotas)
    creator_user_id: int | None = None  # the account that created it (quotas)


def notices_in_db(engine: Engine, publisher: Publisher | None) -> bool:
    """Whether notices go out from the database itself (PostgreSQL's NOTIFY, in the change's transaction)."""
    return publisher is None and engine.dialect.name == "postgresql"


class Store:
    """Blocking access to the database (tables, seats, the move log).

    ``publisher`` carries notices to the other processes instead of the
    database's own NOTIFY (Redis; see :mod:`ziggurat.server.notify`).
    """

    def __init__(self, engine: Engine, publisher: Publisher | None = None):
        self.engine = engine
        self.publisher = publisher
        self.notices_in_db = notices_in_db(engine, publisher)

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
                    created_at=record.created_at,
                    updated_at=at,
                    pace=record.pace,
                    clock_initial=record.clock_initial,
                    clock_increment=record.clock_increment,
                    turn_seconds=record.turn_seconds,
                    rated=record.rated,
                    seed_chosen=record.seed_chosen,
                    creator_addr=record.creator_addr,
                    creator_user_id=record.creator_user_id,
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
                        "user_id": s.user_id,
                        "invite_hash": s.invite_hash,
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
            log_rows = conn.execute(select(*ROW_COLUMNS).where(moves.c.table_id == table_id).order_by(moves.c.seq))
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
                created_at=_utc(t["created_at"]),  # type: ignore[arg-type]
                pace=t["pace"],
                clock_initial=t["clock_initial"],
                clock_increment=t["clock_increment"],
                turn_seconds=t["turn_seconds"],
                rated=bool(t["rated"]),
                seed_chosen=bool(t["seed_chosen"]),
                seats=[_seat(s) for s in seat_rows],
                rows=[_row(r) for r in log_rows],
            )

    def rows_after(self, table_id: str, seq: int) -> list[Row]:
        """Log rows of ``table_id`` after ``seq`` (what another process appended)."""
        with self.engine.connect() as conn:
            result = conn.execute(
                select(*ROW_COLUMNS).where(moves.c.table_id == table_id, moves.c.seq > seq).order_by(moves.c.seq)
            )
            return [_row(r) for r in result]

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

    def tables_of_user(self, user_id: int, limit: int = 100) -> list[dict[str, Any]]:
        """The tables where a user sits, newest first: id, game, players, status, seat, pace, rated, public."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    tables.c.id,
                    tables.c.game,
                    tables.c.players,
                    tables.c.status,
                    tables.c.pace,
                    tables.c.rated,
                    tables.c.public,
                    tables.c.updated_at,
                    seats.c.seat,
                )
                .join(seats, seats.c.table_id == tables.c.id)
                .where(seats.c.user_id == user_id)
                .order_by(tables.c.updated_at.desc())
                .limit(limit)
            )
            return [dict(r._mapping) for r in rows]

    def tables_to_resume(self) -> list[str]:
        """Ids of the tables that may have work due after a restart: unfinished ones with a bot or a clock
        (a job not yet stored when the server stopped is planned again), finished rated ones not yet rated."""
        with_bot = select(seats.c.table_id).where(seats.c.kind == "bot")
        with self.engine.connect() as conn:
            result = conn.execute(
                select(tables.c.id).where(
                    or_(
                        and_(
                            tables.c.status.in_(("waiting", "playing")),
                            or_(tables.c.pace != "live", tables.c.id.in_(with_bot)),
                        ),
                        and_(tables.c.status == "over", tables.c.rated.is_(True), tables.c.rated_at.is_(None)),
                    )
                )
            )
            return [r.id for r in result]

    def open_tables_of(self, address: str, user_id: int | None) -> dict[str, int]:
        """What a client address and an account created that is not over: ``tables`` and ``search_bots``
        (IS-MCTS seats) of each, as ``addr_tables``, ``addr_search_bots``, ``user_tables``, ``user_search_bots``."""
        mine = tables.c.status.in_(("waiting", "playing"))
        search = (
            select(func.count())
            .where(seats.c.table_id == tables.c.id, seats.c.kind == "bot", seats.c.bot == "ismcts")
            .scalar_subquery()
        )
        out = {}
        with self.engine.connect() as conn:
            for who, condition in (
                ("addr", tables.c.creator_addr == address),
                ("user", tables.c.creator_user_id == user_id),
            ):
                if who == "user" and user_id is None:
                    out["user_tables"] = out["user_search_bots"] = 0
                    continue
                row = conn.execute(
                    select(func.count(), func.coalesce(func.sum(search), 0)).where(mine, condition)
                ).one()
                out[f"{who}_tables"], out[f"{who}_search_bots"] = int(row[0]), int(row[1])
        return out

    def expire_waiting(self, before: dt.datetime) -> list[str]:
        """Delete the tables still waiting for players that were created before ``before``; their ids."""
        with self.engine.begin() as conn:
            ids = [
                r.id
                for r in conn.execute(
                    select(tables.c.id).where(tables.c.status == "waiting", tables.c.created_at < before).limit(500)
                )
            ]
            if ids:
                for child in (moves, seats, jobs):
                    conn.execute(delete(child).where(child.c.table_id.in_(ids)))
                conn.execute(delete(tables).where(tables.c.id.in_(ids)))
        return ids

    # ------------------------------------------------------------------- seats
    def find_invite(self, secret_hash: str) -> tuple[str, int] | None:
        """``(table id, seat)`` of the seat an invite (or a seated player's link to another device) hashing to
        ``secret_hash`` opens; also of the seat whose own secret it is (its holder opening their seat again)."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(seats.c.table_id, seats.c.seat).where(
                    (seats.c.invite_hash == secret_hash) | (seats.c.token_hash == secret_hash)
                )
            ).first()
            return (row.table_id, row.seat) if row else None

    def claim_seat(
        self,
        table_id: str,
        seat: int,
        name: str,
        token_hash: str,
        at: dt.datetime | None = None,
        user_id: int | None = None,
        invite_hash: str | None = None,
        one_per_user: bool = False,
    ) -> bool:
        """Seat a person at the open ``seat`` with their new secret (any invite of the seat stops working):
        with ``invite_hash`` only if that is still the seat's invite (not replaced meanwhile), with
        ``one_per_user`` only if ``user_id`` has no other seat at the table (a rated table).

        The last holds across server processes: the table's row is locked first, so of two claims by
        one account at once the second waits and then sees the first.
        """
        with self.engine.begin() as conn:
            query = update(seats).where(
                seats.c.table_id == table_id,
                seats.c.seat == seat,
                seats.c.kind == "human",
                seats.c.claimed_at.is_(None),
            )
            if invite_hash is not None:
                query = query.where(seats.c.invite_hash == invite_hash)
            if one_per_user and user_id is not None:
                if self.engine.dialect.name == "postgresql":  # SQLite: one writer at a time already
                    conn.execute(select(tables.c.id).where(tables.c.id == table_id).with_for_update())
                other = select(seats.c.seat).where(seats.c.table_id == table_id, seats.c.user_id == user_id)
                query = query.where(~other.exists())
            values = {
                "name": name,
                "token_hash": token_hash,
                "claimed_at": at or now(),
                "user_id": user_id,
                "invite_hash": None,
            }
            return bool(conn.execute(query.values(**values)).rowcount)

    def move_seat(self, table_id: str, seat: int, token_hash: str, invite_hash: str) -> bool:
        """A taken seat's link to another device was used: the seat's secret becomes ``token_hash`` (whoever
        held the old one holds nothing any more), and the link is spent; only while ``invite_hash`` is that link."""
        with self.engine.begin() as conn:
            query = update(seats).where(
                seats.c.table_id == table_id,
                seats.c.seat == seat,
                seats.c.claimed_at.is_not(None),
                seats.c.invite_hash == invite_hash,
            )
            return bool(conn.execute(query.values(token_hash=token_hash, invite_hash=None)).rowcount)

    def notify(self, payload: str) -> None:
        """Tell the other server processes that something changed (PostgreSQL or Redis; see :mod:`notify`)."""
        if self.publisher is not None:
            self.publisher.publish([payload])
        elif self.notices_in_db:
            with self.engine.begin() as conn:
                conn.exec_driver_sql(notice_sql(self.engine.dialect.paramstyle), (payload,))

    def load_seats(self, table_id: str) -> list[SeatRecord]:
        """The seats of a table as stored now."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(seats).where(seats.c.table_id == table_id).order_by(seats.c.seat))
            return [_seat(s) for s in rows]

    # -------------------------------------------------------------------- jobs
    def schedule_jobs(self, new: Sequence[tuple[str, str, str, int, dt.datetime]]) -> None:
        """Add jobs ``(table_id, key, kind, seat, due_at)``; a key a table already has is left as it is."""
        if not new:
            return
        dialect = postgresql if self.engine.dialect.name == "postgresql" else sqlite
        stmt = dialect.insert(jobs).on_conflict_do_nothing()
        with self.engine.begin() as conn:
            conn.execute(
                stmt,
                [{"table_id": t, "key": k, "kind": kind, "seat": seat, "due_at": due} for t, k, kind, seat, due in new],
            )
            if self.notices_in_db:
                conn.exec_driver_sql(notice_sql(self.engine.dialect.paramstyle), ("j",))
        if self.publisher is not None:
            self.publisher.publish(["j"])

    def claim_jobs(self, worker: str, at: dt.datetime, lease: dt.timedelta, limit: int = 20) -> list[Job]:
        """Claim up to ``limit`` jobs due at ``at`` for ``worker`` (each job goes to exactly one worker).

        On PostgreSQL the candidates are locked with ``FOR UPDATE SKIP LOCKED``, so
        processes claiming at once never wait for or take each other's jobs; a
        claim runs out after ``lease`` (a worker that died gives its jobs back).
        """
        due = (
            select(jobs.c.id)
            .where(
                jobs.c.done_at.is_(None),
                jobs.c.due_at <= at,
                or_(jobs.c.claimed_until.is_(None), jobs.c.claimed_until < at),
            )
            .order_by(jobs.c.due_at)
            .limit(limit)
            .with_for_update(skip_locked=True)
        )
        with self.engine.begin() as conn:
            ids = [r.id for r in conn.execute(due)]
            if not ids:
                return []
            conn.execute(update(jobs).where(jobs.c.id.in_(ids)).values(claimed_by=worker, claimed_until=at + lease))
            claimed = conn.execute(
                select(jobs.c.id, jobs.c.table_id, jobs.c.key, jobs.c.kind, jobs.c.seat, jobs.c.due_at, jobs.c.attempts)
                .where(and_(jobs.c.id.in_(ids), jobs.c.claimed_by == worker))
                .order_by(jobs.c.due_at)
            )
            return [
                Job(r.id, r.table_id, r.key, r.kind, r.seat, _utc(r.due_at), r.attempts)  # type: ignore[arg-type]
                for r in claimed
            ]

    def finish_job(self, job_id: int, at: dt.datetime) -> None:
        """Mark a job done (it is never claimed again)."""
        with self.engine.begin() as conn:
            conn.execute(update(jobs).where(jobs.c.id == job_id).values(done_at=at))

    def next_job_due(self) -> dt.datetime | None:
        """When the earliest job not yet done is due (None: there is none)."""
        with self.engine.connect() as conn:
            return _utc(conn.execute(select(func.min(jobs.c.due_at)).where(jobs.c.done_at.is_(None))).scalar())

    def next_claimable(self) -> dt.datetime | None:
        """When the next job not yet done can be claimed: when it is due, or when its claim runs out."""
        free_at = case(
            (and_(jobs.c.claimed_until.is_not(None), jobs.c.claimed_until > jobs.c.due_at), jobs.c.claimed_until),
            else_=jobs.c.due_at,
        )
        with self.engine.connect() as conn:
            return _utc(conn.execute(select(func.min(free_at)).where(jobs.c.done_at.is_(None))).scalar())

    def renew_jobs(self, worker: str, ids: Sequence[int], until: dt.datetime) -> None:
        """``worker`` is still at these jobs: their claims run until ``until``."""
        if not ids:
            return
        with self.engine.begin() as conn:
            conn.execute(
                update(jobs)
                .where(jobs.c.id.in_(list(ids)), jobs.c.claimed_by == worker, jobs.c.done_at.is_(None))
                .values(claimed_until=until)
            )

    def set_invite(self, table_id: str, seat: int, invite_hash: str, holder_hash: str | None = None) -> bool:
        """Give a seat a new invite (the older one stops working): an open seat (``holder_hash`` None) a link
        to sit down, or a taken seat whose secret is still ``holder_hash`` a link to move to another device."""
        with self.engine.begin() as conn:
            query = update(seats).where(seats.c.table_id == table_id, seats.c.seat == seat, seats.c.kind == "human")
            if holder_hash is None:
                query = query.where(seats.c.claimed_at.is_(None))
            else:
                query = query.where(seats.c.claimed_at.is_not(None), seats.c.token_hash == holder_hash)
            return bool(conn.execute(query.values(invite_hash=invite_hash)).rowcount)

    def fail_job(self, job_id: int, at: dt.datetime, retry: dt.datetime | None) -> None:
        """A job that failed: tried again at ``retry`` (by any process), or given up (``None``)."""
        with self.engine.begin() as conn:
            values: dict[str, Any] = {"attempts": jobs.c.attempts + 1, "claimed_by": None, "claimed_until": None}
            if retry is None:
                values["done_at"] = at
            else:
                values["due_at"] = retry
            conn.execute(update(jobs).where(jobs.c.id == job_id).values(**values))


ROW_COLUMNS = (moves.c.seq, moves.c.seat, moves.c.kind, moves.c.action_id, moves.c.client_msg_id, moves.c.at)


def _row(r: Any) -> Row:
    return Row(r.seq, r.seat, r.kind, r.action_id, r.client_msg_id, _utc(r.at))


def _seat(s: Any) -> SeatRecord:
    return SeatRecord(
        seat=s.seat,
        kind=s.kind,
        bot=s.bot,
        bot_params=dict(s.bot_params or {}),
        name=s.name,
        token_hash=s.token_hash,
        claimed_at=_utc(s.claimed_at),
        user_id=s.user_id,
        invite_hash=s.invite_hash,
    )


def _utc(value: dt.datetime | None) -> dt.datetime | None:
    """A stored time as an aware UTC datetime (SQLite gives it back naive)."""
    if value is None or value.tzinfo is not None:
        return value
    return value.replace(tzinfo=dt.UTC)


@dataclass(frozen=True)
class Job:
    """Work due at a time, done by exactly one process: a bot's move, a timeout, a mail."""

    id: int
    table_id: str
    key: str
    kind: str
    seat: int
    due_at: dt.datetime
    attempts: int = 0  # how many times it failed before


def _row_values(table_id: str, row: Row, at: dt.datetime) -> dict[str, Any]:
    return {
        "table_id": table_id,
        "seq": row.seq,
        "seat": row.seat,
        "kind": row.kind,
        "action_id": row.action_id,
        "client_msg_id": row.client_msg_id,
        "at": row.at or at,
    }


@dataclass
class _Pending:
    table_id: str
    rows: Sequence[Row]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[bool]
    queued: float = 0.0  # perf_counter() when handed to the writer


class LogWriter:
    """Appends move groups from a thread, many per transaction (group commit).

    ``await writer.append(table_id, rows)`` is true once the rows are committed,
    false when the first row's ``seq`` or ``client_msg_id`` is already taken (the
    rows were not written; the caller catches up and decides again).

    This is the server's hottest path, so it talks to the database driver
    directly (the schema and every other query go through SQLAlchemy), and a
    batch costs three round trips whatever its size: the first row of every
    group in one ``INSERT ... ON CONFLICT DO NOTHING RETURNING``, the other rows
    of the groups that got their ``seq`` in one ``executemany``, and on
    PostgreSQL the notices in one statement.
    """

    BATCH = 512
    FIRSTS = 200  # first rows per INSERT (7 parameters each: far below SQLite's limit)

    def __init__(self, engine: Engine, publisher: Publisher | None = None):
        self.engine = engine
        self.publisher = publisher
        mark = "?" if engine.dialect.paramstyle == "qmark" else "%s"
        self._values = "(" + ", ".join([mark] * 7) + ")"
        self._columns = "table_id, seq, seat, kind, action_id, client_msg_id, at"
        self._firsts_sql: dict[int, str] = {}
        self.sql_rest = f"INSERT INTO moves ({self._columns}) VALUES {self._values}"
        self.at_value = moves.c.at.type.bind_processor(engine.dialect) or (lambda v: v)
        # PostgreSQL: tell the other processes which tables grew (sent when the transaction commits)
        self.sql_notices = notices_sql() if notices_in_db(engine, publisher) else None
        self._queue: queue.SimpleQueue[_Pending | None] = queue.SimpleQueue()
        self._connection: Any = None
        self._thread = threading.Thread(target=self._run, name="ziggurat-log-writer", daemon=True)
        self._thread.start()
        self.commits = 0
        self.groups = 0
        self.waits = Percentiles()  # each group's wait, from append() to its commit (what a move waits)

    async def append(self, table_id: str, rows: Sequence[Row]) -> bool:
        """Write ``rows`` (one move group of a table) in order; see the class docstring."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bool] = loop.create_future()
        self._queue.put(_Pending(table_id, rows, loop, future, time.perf_counter()))
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

    def _firsts(self, n: int) -> str:
        sql = self._firsts_sql.get(n)
        if sql is None:
            sql = self._firsts_sql[n] = _firsts_sql(self._columns, self._values, n)
        return sql

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
                # the first row of a group may lose the race for its seq (or be a retried message): then the
                # group is not written (one group per table in a batch: a process writes a table under its lock)
                taken: set[tuple[str, int]] = set()
                for start in range(0, len(batch), self.FIRSTS):
                    chunk = batch[start : start + self.FIRSTS]
                    params = [v for item in chunk for v in _row_tuple(item.table_id, item.rows[0], at, self.at_value)]
                    cur.execute(self._firsts(len(chunk)), params)
                    taken.update((table_id, seq) for table_id, seq in cur.fetchall())
                rest: list[tuple[Any, ...]] = []
                notices: list[str] = []
                for item in batch:
                    written = (item.table_id, item.rows[0].seq) in taken
                    results.append((item.future, written))
                    if written:
                        rest.extend(_row_tuple(item.table_id, r, at, self.at_value) for r in item.rows[1:])
                        notices.append(f"m:{item.table_id}:{item.rows[-1].seq}")
                if rest:
                    cur.executemany(self.sql_rest, rest)
                if notices and self.sql_notices is not None:
                    cur.execute(self.sql_notices, (notices,))
                conn.commit()
            finally:
                cur.close()
            self.commits += 1
            self.groups += len(batch)
            committed = time.perf_counter()
            for item in batch:
                wait = committed - item.queued
                self.waits.add(wait)
                LOG_WAIT_SECONDS.observe(wait)
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
        if self.publisher is not None:  # after the waiters: a round trip they need not wait for
            self.publisher.publish(notices)


def _firsts_sql(columns: str, values: str, n: int) -> str:
    return (
        f"INSERT INTO moves ({columns}) VALUES {', '.join([values] * n)} ON CONFLICT DO NOTHING RETURNING table_id, seq"
    )


def _row_tuple(table_id: str, row: Row, at: Any, to_db: Any) -> tuple[Any, ...]:
    return (table_id, row.seq, row.seat, row.kind, row.action_id, row.client_msg_id, to_db(row.at) if row.at else at)


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
