"""The fan-out: every open connection of a table, each sent the frames of its own audience.

A connection belongs to one audience (a seat, or ``None`` for a spectator) and
wants frames as ``data`` (view and actions) or ``html`` (with the drawn board).
After every change of a table, each connection whose audience has new log
entries is sent one frame with those entries; a connection that has nothing
new is sent nothing (so what a seat receives never tells it about a change it
cannot see). Frames go through a per-connection queue and sender task, so a slow
client never holds up the table; one that falls too far behind is closed and
catches up when it reconnects.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from ziggurat.core.journal import Audience
from ziggurat.server import frames
from ziggurat.server.live import LiveTable
from ziggurat.server.service import MoveTimer, TableService

log = logging.getLogger("ziggurat.server")

QUEUE_LIMIT = 256


@dataclass(eq=False)
class Connection:
    """One open socket: whose eyes it has, the format it wants, what it has been sent."""

    table_id: str
    audience: Audience
    fmt: str
    send_text: Callable[[str], Awaitable[None]]
    sent: int = 0  # the audience's event number as of the last frame sent
    queue: asyncio.Queue[tuple[str, MoveTimer | None] | None] = field(default_factory=lambda: asyncio.Queue())
    task: asyncio.Task[None] | None = None
    closed: bool = False
    on_overflow: Callable[[], Awaitable[None]] | None = None


class Hub:
    """Open connections by table; listens to the service for changes."""

    def __init__(self, service: TableService):
        self.service = service
        self.by_table: dict[str, set[Connection]] = {}
        service.listeners.append(self)

    def attach(self, conn: Connection) -> None:
        """Start sending ``conn`` the frames of its table."""
        self.by_table.setdefault(conn.table_id, set()).add(conn)
        conn.task = asyncio.create_task(self._sender(conn))
        self._presence(conn.table_id)

    def detach(self, conn: Connection) -> None:
        """Stop (the socket is gone)."""
        conn.closed = True
        conns = self.by_table.get(conn.table_id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.by_table[conn.table_id]
        conn.queue.put_nowait(None)
        self._presence(conn.table_id)

    def send_now(self, conn: Connection, table: LiveTable, since: int) -> None:
        """Send ``conn`` a full frame with the log from ``since`` (on connect and after an error)."""
        frame = frames.build(table, conn.audience, since, conn.fmt)
        conn.sent = frame["n"]
        self._enqueue(conn, frames.encode(frame), None)

    def send_message(self, conn: Connection, message: dict[str, Any]) -> None:
        """Send ``conn`` a small message (an acknowledgement or an error)."""
        self._enqueue(conn, frames.encode(message), None)

    def changed(self, table: LiveTable, timer: MoveTimer | None) -> None:
        """Send every connection of ``table`` whose audience saw something new its frame."""
        conns = self.by_table.get(table.id)
        if not conns:
            if timer is not None:
                self.service.record_latency(time.perf_counter() - timer.started)
            return
        built: dict[tuple[Audience, int, str], str] = {}
        for conn in list(conns):
            n = table.journal.count(conn.audience)
            if n <= conn.sent:
                continue
            key = (conn.audience, conn.sent, conn.fmt)
            text = built.get(key)
            if text is None:
                text = built[key] = frames.encode(frames.build(table, conn.audience, conn.sent, conn.fmt))
            conn.sent = n
            if timer is not None:
                timer.pending += 1
                if conn is timer.origin and timer.msg_id is not None:
                    # the move's own connection: its frame is also the acknowledgement
                    text = text[:-1] + ',"ack":' + frames.encode(timer.msg_id) + "}"  # type: ignore[arg-type]
                    timer.acked = True
            self._enqueue(conn, text, timer)
        if timer is not None and timer.pending == 0:
            self.service.record_latency(time.perf_counter() - timer.started)

    def _enqueue(self, conn: Connection, text: str, timer: MoveTimer | None) -> None:
        if conn.closed:
            return
        if conn.queue.qsize() >= QUEUE_LIMIT:
            log.warning("closing a connection of table %s that fell behind", conn.table_id)
            conn.closed = True
            if conn.on_overflow is not None:
                conn.task = asyncio.ensure_future(conn.on_overflow())
            return
        conn.queue.put_nowait((text, timer))

    async def _sender(self, conn: Connection) -> None:
        while True:
            item = await conn.queue.get()
            if item is None:
                return
            text, timer = item
            try:
                await conn.send_text(text)
            except Exception:  # the socket went away; the receive loop detaches it
                conn.closed = True
                with contextlib.suppress(Exception):
                    self.detach(conn)
                return
            finally:
                if timer is not None:
                    timer.pending -= 1
                    if timer.pending == 0:
                        self.service.record_latency(time.perf_counter() - timer.started)

    def holds(self, table_id: str) -> bool:
        """Whether a connection of this table is open (its table must stay in the cache)."""
        return table_id in self.by_table

    def online(self, table_id: str) -> list[int]:
        """Seats with at least one open connection."""
        return sorted({c.audience for c in self.by_table.get(table_id, ()) if c.audience is not None})

    def _presence(self, table_id: str) -> None:
        message = frames.encode({"type": "presence", "online": self.online(table_id)})
        for conn in self.by_table.get(table_id, ()):
            self._enqueue(conn, message, None)
