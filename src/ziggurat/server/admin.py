"""The operators' tools, over the server's database: list and close tables, ban, unban and rename accounts,
export a table's full log (``ziggurat admin``).

They write to the database only; the running server processes learn of it by themselves (every process
looks every few seconds for tables closed and accounts banned since it last looked: :class:`Watch`), so
the tools work the same with SQLite and one process as with PostgreSQL and many. A closed table accepts
no move and says so to everyone at it; a banned account cannot log in, its sessions end at once, and its
seats at unfinished tables are handed to bots, so that the others can finish.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from ziggurat.server.accounts import check_name, name_key
from ziggurat.server.db import seats, sessions, tables, users
from ziggurat.server.service import ServiceError

STATUSES = ("waiting", "playing", "over", "closed", "broken")


def now() -> dt.datetime:
    """The time, UTC."""
    return dt.datetime.now(dt.UTC)


@dataclass
class Admin:
    """What an operator can do to the data of a site."""

    engine: Engine

    # ------------------------------------------------------------------ tables
    def tables(self, status: str | None = None, limit: int = 50) -> list[dict[str, Any]]:
        """The newest tables (of one status), with their seats' names and who created them."""
        if status is not None and status not in STATUSES:
            raise ServiceError("bad_request", f"a status is one of {', '.join(STATUSES)}, not {status!r}")
        query = select(
            tables.c.id,
            tables.c.game,
            tables.c.players,
            tables.c.status,
            tables.c.public,
            tables.c.rated,
            tables.c.created_at,
            tables.c.updated_at,
            tables.c.creator_addr,
        ).order_by(tables.c.updated_at.desc())
        if status is not None:
            query = query.where(tables.c.status == status)
        with self.engine.connect() as conn:
            rows = [dict(r._mapping) for r in conn.execute(query.limit(limit))]
            ids = [r["id"] for r in rows]
            names: dict[str, list[str]] = {i: [] for i in ids}
            for s in conn.execute(
                select(seats.c.table_id, seats.c.kind, seats.c.bot, seats.c.name)
                .where(seats.c.table_id.in_(ids))
                .order_by(seats.c.table_id, seats.c.seat)
            ):
                names[s.table_id].append(s.name or (s.bot if s.kind == "bot" else "(open)") or "?")
        for r in rows:
            r["seats"] = names[r["id"]]
        return rows

    def close(self, table_id: str) -> str:
        """End a table that is not over: no more moves (the servers tell everyone at it); its former status."""
        with self.engine.begin() as conn:
            status = conn.execute(select(tables.c.status).where(tables.c.id == table_id)).scalar()
            if status is None:
                raise ServiceError("not_found", f"there is no table {table_id!r}")
            if status not in ("waiting", "playing"):
                raise ServiceError("bad_request", f"table {table_id} is {status} already")
            conn.execute(update(tables).where(tables.c.id == table_id).values(status="closed", updated_at=now()))
        return str(status)

    def export(self, table_id: str) -> dict[str, Any]:
        """A table's full log for an operator: the table, its seats (no secrets), every row, and the game's
        record (with the seed) when it replays."""
        from ziggurat.server.live import LiveTable, TableBroken
        from ziggurat.server.records import full_record
        from ziggurat.server.store import Store

        record = Store(self.engine).load_table(table_id)
        if record is None:
            raise ServiceError("not_found", f"there is no table {table_id!r}")
        out: dict[str, Any] = {
            "format": "ziggurat-table-log",
            "version": 1,
            "table": {
                "id": record.id,
                "game": record.game,
                "players": record.players,
                "options": record.options,
                "seed": record.seed,
                "engine_version": record.engine_version,
                "position": record.position,
                "public": record.public,
                "status": record.status,
                "created_at": record.created_at.isoformat(),
                "pace": record.pace,
                "clock_initial": record.clock_initial,
                "clock_increment": record.clock_increment,
                "turn_seconds": record.turn_seconds,
                "rated": record.rated,
                "seed_chosen": record.seed_chosen,
                "creator_addr": record.creator_addr,
                "creator_user_id": record.creator_user_id,
            },
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "bot": s.bot,
                    "bot_params": s.bot_params,
                    "name": s.name,
                    "user_id": s.user_id,
                    "claimed_at": s.claimed_at.isoformat() if s.claimed_at else None,
                }
                for s in record.seats
            ],
            "rows": [
                {
                    "seq": r.seq,
                    "seat": r.seat,
                    "kind": r.kind,
                    "action_id": r.action_id,
                    "client_msg_id": r.client_msg_id,
                    "at": r.at.isoformat() if r.at else None,
                }
                for r in record.rows
            ],
        }
        try:
            live = LiveTable(record)
            out["record"] = full_record(live) if record.position is None else None
        except (TableBroken, ServiceError) as exc:
            out["record"] = None
            out["replay_error"] = str(exc)
        return out

    # ---------------------------------------------------------------- accounts
    def _user_id(self, conn: Any, name: str) -> int:
        user_id = conn.execute(select(users.c.id).where(users.c.name_key == name_key(name))).scalar()
        if user_id is None:
            raise ServiceError("not_found", f"there is no account called {name!r}")
        return int(user_id)

    def ban(self, name: str, reason: str | None = None) -> int:
        """Shut an account out: no log-in, its sessions end now, its seats go to bots; its id."""
        if reason is not None and len(reason) > 200:
            raise ServiceError("bad_request", "a reason has at most 200 characters")
        with self.engine.begin() as conn:
            user_id = self._user_id(conn, name)
            conn.execute(update(users).where(users.c.id == user_id).values(banned_at=now(), ban_reason=reason))
            conn.execute(delete(sessions).where(sessions.c.user_id == user_id))
        return user_id

    def unban(self, name: str) -> int:
        """Let a banned account log in again (the seats it lost stay with the bots); its id."""
        with self.engine.begin() as conn:
            user_id = self._user_id(conn, name)
            banned = conn.execute(select(users.c.banned_at).where(users.c.id == user_id)).scalar()
            if banned is None:
                raise ServiceError("bad_request", f"{name!r} is not banned")
            conn.execute(update(users).where(users.c.id == user_id).values(banned_at=None, ban_reason=None))
        return user_id

    def rename(self, old: str, new: str) -> None:
        """Give an account another name (names differ by more than their case; ratings stay with it)."""
        new = check_name(new)
        with self.engine.begin() as conn:
            user_id = self._user_id(conn, old)
            try:
                conn.execute(update(users).where(users.c.id == user_id).values(name=new, name_key=name_key(new)))
            except IntegrityError:
                raise ServiceError("name_taken", f"the name {new!r} is taken") from None

    def banned_since(self, since: dt.datetime) -> list[tuple[int, dt.datetime]]:
        """Accounts banned after ``since``: ``(id, when)``."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(users.c.id, users.c.banned_at).where(users.c.banned_at > since))
            return [(int(r.id), _utc(r.banned_at)) for r in rows]

    def closed_since(self, since: dt.datetime) -> list[tuple[str, dt.datetime]]:
        """Tables closed after ``since``: ``(id, when)``."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tables.c.id, tables.c.updated_at).where(tables.c.status == "closed", tables.c.updated_at > since)
            )
            return [(str(r.id), _utc(r.updated_at)) for r in rows]

    def unfinished_seats(self, user_id: int) -> list[tuple[str, int]]:
        """``(table, seat)`` of an account at tables not over."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(seats.c.table_id, seats.c.seat)
                .join(tables, tables.c.id == seats.c.table_id)
                .where(seats.c.user_id == user_id, tables.c.status.in_(("waiting", "playing")))
            )
            return [(str(r.table_id), int(r.seat)) for r in rows]

    def latest(self) -> dt.datetime:
        """The database's newest ban or closing (where a process starts watching from)."""
        with self.engine.connect() as conn:
            a = conn.execute(select(func.max(users.c.banned_at))).scalar()
            b = conn.execute(select(func.max(tables.c.updated_at)).where(tables.c.status == "closed")).scalar()
        times = [_utc(t) for t in (a, b) if t is not None]
        return max(times, default=dt.datetime(1970, 1, 1, tzinfo=dt.UTC))


def _utc(value: dt.datetime) -> dt.datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=dt.UTC)
