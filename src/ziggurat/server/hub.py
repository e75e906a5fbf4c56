"""The fan-out: every open connection of a table, each sent the frames of its own audience.

A connection belongs to one audience (a seat, or ``None`` for a spectator) and
wants frames as ``data`` (view and actions) or ``html`` (with the drawn board,
written in the connection's language).
After every change of a table, each connection whose audience has new log
entries is sent one frame with those entries; a connection that has nothing
new is sent nothing (so what a seat receives never tells it about a change it
cannot see). A frame for a connection with nothing queued is written at once
(the socket's write does not wait unless the client is not reading); else, and
whenever a write has to wait, frames go through a per-connection queue and
sender task, in order, so a slow client never holds up the table; one that falls
too far behind is closed and catches up when it reconnects.

A connection that holds a seat keeps what proved it (its :class:`SeatProof`) and
is checked again whenever that may have changed: the table's seats moved on
(a claim, a seat opened on another device, a player who left, a bot taking
over; in this process or, through the notices, another) or its account's
sessions did (a logout). One that no longer holds its seat is sent nothing
more that was built for the seat: what is queued is dropped, it is told why,
and it is closed (a page reconnects as a spectator).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine, Generator
from dataclasses import dataclass, field
from typing import Any

from ziggurat.core.i18n import N_
from ziggurat.core.journal import Audience
from ziggurat.server import frames
from ziggurat.server.live import LiveTable
from ziggurat.server.observe import CONNECTIONS
from ziggurat.server.service import MoveTimer, SeatProof, TableService
from ziggurat.web import i18n

log = logging.getLogger("ziggurat.server")

QUEUE_LIMIT = 256
CLOSE_BEHIND = 4408  # the socket's close code when it fell too far behind
CLOSE_SEAT_LOST = 4403  # ... when it no longer holds its seat
CLOSE_GONE = 4404  # ... when its table was deleted
PRESENCE_DELAY = 0.05  # seconds: joins and leaves in this time make one presence message


@dataclass(frozen=True)
class _Close:
    """Queued last: close the socket with ``code``."""

    code: int


class _Unfinished:
    """A send begun at once that had to wait (the client was not reading): the sender task finishes it,
    before anything queued after it. Awaiting it goes on with the coroutine where it stopped."""

    def __init__(self, coro: Coroutine[Any, Any, None], waiting_on: Any, timer: MoveTimer | None):
        self.coro = coro
        self.waiting_on = waiting_on  # what the coroutine yielded to its task when it stopped
        self.timer = timer

    def __await__(self) -> Generator[Any, Any, None]:
        pending = self.waiting_on
        while True:
            try:
                value = yield pending
            except BaseException as exc:  # the task is cancelled: the coroutine hears it where it waits
                try:
                    pending = self.coro.throw(exc)
                except StopIteration:
                    return
                continue
            try:
                pending = self.coro.send(value)
            except StopIteration:
                return


@dataclass(eq=False)
class Connection:
    """One open socket: whose eyes it has, the format it wants, what it has been sent, what proved its seat."""

    table_id: str
    audience: Audience
    fmt: str
    send: Callable[[bytes], Coroutine[Any, Any, None]]  # a text message (its UTF-8 bytes); waits while the client
    # is not reading
    lang: str = "en"  # the language of its html frames and messages
    sent: int = 0  # the audience's event number as of the last frame sent
    queue: asyncio.Queue[tuple[bytes, MoveTimer | None] | _Unfinished | _Close | None] = field(
        default_factory=lambda: asyncio.Queue()
    )
    task: asyncio.Task[None] | None = None
    closed: bool = False
    close_socket: Callable[[int], Awaitable[None]] | None = None
    proof: SeatProof | None = None  # what showed its seat: checked again whenever that may have changed
    proof_version: int = 0  # the table's ``seats_version`` when it was last checked
    address: str = ""  # the client's address (the number of sockets per address is limited)
    presence: list[int] | None = None  # the seats online it was last told of
    busy: bool = False  # its sender task is sending (what comes now must queue behind that)
    # writes a text message at once if the socket takes it without waiting, else says False (then ``send``):
    # the server's own WebSocket protocol, without the ASGI layers between a frame and its socket
    write_now: Callable[[bytes], bool] | None = None


class Hub:
    """Open connections by table; listens to the service for changes."""

    def __init__(self, service: TableService):
        self.service = service
        self.by_table: dict[str, set[Connection]] = {}
        self.by_user: dict[int, set[Connection]] = {}  # connections whose proof includes an account's session
        # whether a login session (its secret) is still open; set by the server (the accounts' database)
        self.session_open: Callable[[str], Awaitable[bool]] | None = None
        self._closing: set[asyncio.Future[None]] = set()
        self.by_address: dict[str, int] = {}  # open sockets per client address
        self._presence_due: set[str] = set()  # tables whose presence may have changed
        self._presence_timer: asyncio.TimerHandle | None = None
        service.listeners.append(self)

    def admits(self, address: str, limit: int) -> bool:
        """Whether one more socket from ``address`` is allowed (``limit`` per address in this process)."""
        return self.by_address.get(address, 0) < limit

    def attach(self, conn: Connection) -> None:
        """Start sending ``conn`` the frames of its table."""
        self.by_table.setdefault(conn.table_id, set()).add(conn)
        self.by_address[conn.address] = self.by_address.get(conn.address, 0) + 1
        if conn.proof is not None and conn.proof.user_id is not None:
            self.by_user.setdefault(conn.proof.user_id, set()).add(conn)
        conn.task = asyncio.create_task(self._sender(conn))
        CONNECTIONS.inc()
        conn.presence = self.online(conn.table_id)
        self._enqueue(conn, frames.dump({"type": "presence", "online": conn.presence}), None)
        self._presence(conn.table_id)

    def detach(self, conn: Connection) -> None:
        """Stop (the socket is gone)."""
        conn.closed = True
        conns = self.by_table.get(conn.table_id)
        if conns is not None and conn in conns:
            CONNECTIONS.dec()
            conns.discard(conn)
            if not conns:
                del self.by_table[conn.table_id]
            left = self.by_address.get(conn.address, 1) - 1
            if left > 0:
                self.by_address[conn.address] = left
            else:
                self.by_address.pop(conn.address, None)
        self._forget_user(conn)
        conn.queue.put_nowait(None)
        self._presence(conn.table_id)

    def closed(self, table_id: str) -> None:
        """The operators closed the table: every socket of it is told and closed (a page reloads it, closed)."""
        for conn in list(self.by_table.get(table_id, ())):
            self._end(conn, "closed", "the site's operators closed this table: no more moves", CLOSE_GONE)

    def gone(self, table_id: str) -> None:
        """The table was deleted: every socket of it is told and closed."""
        for conn in list(self.by_table.get(table_id, ())):
            self._end(conn, "gone", N_("this table was deleted: its seats were not all taken in time"), CLOSE_GONE)

    def _forget_user(self, conn: Connection) -> None:
        user_id = conn.proof.user_id if conn.proof is not None else None
        mine = self.by_user.get(user_id) if user_id is not None else None
        if mine is not None:
            mine.discard(conn)
            if not mine:
                del self.by_user[user_id]  # type: ignore[arg-type]

    # ------------------------------------------------------- seats proven again
    def _recheck(self, table: LiveTable, conns: set[Connection]) -> None:
        """Every connection of ``table`` that holds a seat, checked against the seats as they are now."""
        version = table.seats_version
        for conn in list(conns):
            if conn.proof_version == version:
                continue
            conn.proof_version = version
            if conn.audience is not None and self.service.holder(table, conn.proof) != conn.audience:
                self.revoke(
                    conn, N_("this seat is no longer yours here: it was opened elsewhere, or a bot plays it now")
                )

    async def sessions_changed(self, user_id: int) -> None:
        """An account's sessions changed (a logout, maybe in another process): a connection whose seat came
        from a session that is no longer open keeps only what its seat secret proves."""
        for conn in list(self.by_user.get(user_id, ())):
            proof = conn.proof
            if proof is None or proof.session is None or self.session_open is None:
                continue
            if await self.session_open(proof.session):
                continue
            self._forget_user(conn)
            conn.proof = proof.without_session()
            table = self.service.tables.get(conn.table_id)
            if conn.audience is not None and (table is None or self.service.holder(table, conn.proof) != conn.audience):
                self.revoke(conn, N_("you logged out: this page no longer plays your seat"))

    def revoke(self, conn: Connection, reason: str) -> None:
        """``conn`` no longer holds its seat: nothing queued for the seat is sent; it is told why, and closed."""
        self._end(conn, "seat_lost", reason, CLOSE_SEAT_LOST)

    def _end(self, conn: Connection, code: str, reason: str, close_code: int) -> None:
        """Send ``conn`` nothing more of what is queued: only an error saying why, then close it."""
        if conn.closed:
            return
        conn.closed = True
        conn.audience = None
        while not conn.queue.empty():
            item = conn.queue.get_nowait()
            timer = item.timer if isinstance(item, _Unfinished) else item[1] if isinstance(item, tuple) else None
            if isinstance(item, _Unfinished):
                item.coro.close()  # it stopped before writing anything: nothing of it goes out
            if timer is not None:
                self._sent(timer)
        message = i18n.translator(conn.lang).gettext(reason)
        conn.queue.put_nowait((frames.dump({"type": "error", "code": code, "message": message}), None))
        conn.queue.put_nowait(_Close(close_code))
        self._presence(conn.table_id)

    def send_now(self, conn: Connection, table: LiveTable, since: int) -> None:
        """Send ``conn`` a full frame with the log from ``since`` (on connect and after an error)."""
        frame = frames.build(table, conn.audience, since, conn.fmt, conn.lang)
        conn.sent = frame["n"]
        self._enqueue(conn, frames.dump(frame), None)

    def send_message(self, conn: Connection, message: dict[str, Any]) -> None:
        """Send ``conn`` a small message (an acknowledgement or an error)."""
        self._enqueue(conn, frames.dump(message), None)

    def changed(self, table: LiveTable, timer: MoveTimer | None) -> None:
        """Send every connection of ``table`` whose audience saw something new its frame."""
        conns = self.by_table.get(table.id)
        if not conns:
            if timer is not None:
                self.service.record_latency(time.perf_counter() - timer.started)
            return
        self._recheck(table, conns)
        if timer is not None:
            timer.pending += 1  # held while the frames are handed over (some may be written at once)
        built: dict[tuple[Audience, int, str, str], bytes] = {}
        for conn in list(conns):
            n = table.journal.count(conn.audience)
            if n <= conn.sent or conn.closed:
                continue
            key = (conn.audience, conn.sent, conn.fmt, conn.lang if conn.fmt == "html" else "")
            data = built.get(key)
            if data is None:
                data = built[key] = frames.dump(frames.build(table, conn.audience, conn.sent, conn.fmt, conn.lang))
            conn.sent = n
            if timer is not None:
                timer.pending += 1
                if conn is timer.origin and timer.msg_id is not None:
                    # the move's own connection: its frame is also the acknowledgement
                    data = data[:-1] + b',"ack":' + frames.dump(timer.msg_id) + b"}"
                    timer.acked = True
            self._enqueue(conn, data, timer)
        if timer is not None:
            self._sent(timer)

    def _enqueue(self, conn: Connection, data: bytes, timer: MoveTimer | None) -> None:
        if conn.closed:
            return
        if not conn.busy and conn.queue.empty():
            self._write_now(conn, data, timer)
            return
        if conn.queue.qsize() >= QUEUE_LIMIT:
            log.warning("closing a connection of table %s that fell behind", conn.table_id)
            conn.closed = True
            if conn.close_socket is not None:  # at once: not behind what it could not take
                task = asyncio.ensure_future(conn.close_socket(CLOSE_BEHIND))
                self._closing.add(task)
                task.add_done_callback(self._closing.discard)
            return
        conn.queue.put_nowait((data, timer))

    def _write_now(self, conn: Connection, data: bytes, timer: MoveTimer | None) -> None:
        """Send ``data`` now, without a trip through the queue and the sender task (nothing is queued before
        it): straight into the socket when it can take it, else the send runs until it would wait (the
        socket's buffer is full); then the sender task finishes it, and what comes later queues behind it."""
        if conn.write_now is not None and conn.write_now(data):
            if timer is not None:
                self._sent(timer)
            return
        coro = conn.send(data)
        try:
            waiting_on = coro.send(None)
        except StopIteration:
            if timer is not None:
                self._sent(timer)
            return
        except Exception:  # the socket went away; the receive loop detaches it
            conn.closed = True
            if timer is not None:
                self._sent(timer)
            with contextlib.suppress(Exception):
                self.detach(conn)
            return
        conn.queue.put_nowait(_Unfinished(coro, waiting_on, timer))  # type: ignore[arg-type]

    def _sent(self, timer: MoveTimer) -> None:
        """One more connection has the move's result (or will never get it): the move's latency once all have."""
        timer.pending -= 1
        if timer.pending == 0:
            self.service.record_latency(time.perf_counter() - timer.started)

    async def _sender(self, conn: Connection) -> None:
        try:
            await self._send_queued(conn)
        finally:
            conn.busy = False

    async def _send_queued(self, conn: Connection) -> None:
        while True:
            conn.busy = False
            item = await conn.queue.get()
            conn.busy = True
            if item is None:
                return
            if isinstance(item, _Close):
                if conn.close_socket is not None:
                    await conn.close_socket(item.code)
                return
            if isinstance(item, _Unfinished):
                sending: Awaitable[None] = item
                timer = item.timer
            else:
                data, timer = item
                sending = conn.send(data)
            try:
                await sending
            except Exception:  # the socket went away; the receive loop detaches it
                conn.closed = True
                with contextlib.suppress(Exception):
                    self.detach(conn)
                return
            finally:
                if timer is not None:
                    self._sent(timer)

    def holds(self, table_id: str) -> bool:
        """Whether a connection of this table is open (its table must stay in the cache)."""
        return table_id in self.by_table

    def online(self, table_id: str) -> list[int]:
        """Seats with at least one open connection."""
        return sorted({c.audience for c in self.by_table.get(table_id, ()) if c.audience is not None and not c.closed})

    def _presence(self, table_id: str) -> None:
        """Someone came or went: the table's sockets hear who is online, once for all the comings and goings
        of a moment, and only if the seats online changed (a spectator coming or going changes nothing)."""
        self._presence_due.add(table_id)
        if self._presence_timer is None:
            self._presence_timer = asyncio.get_running_loop().call_later(PRESENCE_DELAY, self._send_presence)

    def _send_presence(self) -> None:
        self._presence_timer = None
        due, self._presence_due = self._presence_due, set()
        for table_id in due:
            conns = self.by_table.get(table_id, ())
            online = self.online(table_id)
            message = None
            for conn in conns:
                if conn.presence != online:
                    conn.presence = online
                    message = message or frames.dump({"type": "presence", "online": online})
                    self._enqueue(conn, message, None)
