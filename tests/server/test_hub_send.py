"""The hub's writes: at once when nothing is queued, else in order behind what waits (server/hub.py)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import orjson

from ziggurat.server.hub import CLOSE_SEAT_LOST, Connection, Hub
from ziggurat.server.service import MoveTimer


class FakeService:
    """What the hub asks of the service here: its listeners and the moves' latencies."""

    def __init__(self) -> None:
        self.listeners: list[Any] = []
        self.latencies: list[float] = []

    def record_latency(self, seconds: float) -> None:
        self.latencies.append(seconds)


class Socket:
    """A socket whose writes can be made to wait (a client that does not read), like a full buffer."""

    def __init__(self) -> None:
        self.written: list[Any] = []
        self.open = asyncio.Event()
        self.open.set()
        self.closed_with: int | None = None
        self.writing = 0  # writes begun and not finished

    async def send_text(self, text: str) -> None:
        self.writing += 1
        await self.open.wait()
        self.writing -= 1
        self.written.append(orjson.loads(text))

    async def close(self, code: int) -> None:
        self.closed_with = code


def connect(hub: Hub, socket: Socket) -> Connection:
    conn = Connection("t1", 0, "data", socket.send_text, close_socket=socket.close)
    hub.attach(conn)
    return conn


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


def test_a_frame_is_written_at_once_when_nothing_waits() -> None:
    async def main() -> None:
        hub = Hub(FakeService())  # type: ignore[arg-type]
        socket = Socket()
        conn = connect(hub, socket)
        assert socket.written == [{"type": "presence", "online": [0]}]  # before any task ran
        hub.send_message(conn, {"type": "pong"})
        assert socket.written[-1] == {"type": "pong"}
        assert conn.queue.empty()
        hub.detach(conn)
        await settle()
        assert conn.task is not None and conn.task.done()

    asyncio.run(main())


def test_a_write_that_waits_keeps_the_order_of_everything_after_it() -> None:
    async def main() -> None:
        service = FakeService()
        hub = Hub(service)  # type: ignore[arg-type]
        socket = Socket()
        conn = connect(hub, socket)
        socket.open.clear()  # the client stops reading
        timer = MoveTimer(time.perf_counter(), pending=1)
        hub._enqueue(conn, orjson.dumps({"k": 1}).decode(), timer)  # begun at once, then it waits
        assert socket.writing == 1 and conn.queue.qsize() == 1
        for k in (2, 3):
            hub.send_message(conn, {"k": k})  # queued behind it, not written past it
        await settle()
        assert [m.get("k") for m in socket.written] == [None]  # only the presence so far
        assert service.latencies == []  # the move is not out yet
        socket.open.set()
        await settle()
        assert [m.get("k") for m in socket.written] == [None, 1, 2, 3]
        assert len(service.latencies) == 1
        # the sender is done with the queue: the next frame is written at once again
        hub.send_message(conn, {"k": 4})
        assert socket.written[-1] == {"k": 4}
        hub.detach(conn)
        await settle()

    asyncio.run(main())


def test_a_frame_waiting_to_be_written_is_dropped_when_the_seat_is_lost() -> None:
    async def main() -> None:
        service = FakeService()
        hub = Hub(service)  # type: ignore[arg-type]
        socket = Socket()
        conn = connect(hub, socket)
        socket.open.clear()
        timer = MoveTimer(time.perf_counter(), pending=1)
        hub._enqueue(conn, orjson.dumps({"secret": "for seat 1"}).decode(), timer)
        hub.send_message(conn, {"secret": "also for seat 1"})
        hub.revoke(conn, "gone")
        assert len(service.latencies) == 1  # the move's latency is closed: that frame will never go
        socket.open.set()
        await settle()
        assert [m.get("type") for m in socket.written] == ["presence", "error"]
        assert all("secret" not in m for m in socket.written)
        assert socket.closed_with == CLOSE_SEAT_LOST

    asyncio.run(main())


def test_a_move_is_timed_once_every_frame_is_out() -> None:
    """Frames written at once count down the move's timer; its latency is taken once, after the last."""

    async def main() -> None:
        service = FakeService()
        hub = Hub(service)  # type: ignore[arg-type]
        sockets = [Socket(), Socket()]
        conns = [connect(hub, s) for s in sockets]
        timer = MoveTimer(time.perf_counter())
        timer.pending += 1  # held while frames are handed over, as Hub.changed does
        for conn in conns:
            timer.pending += 1
            hub._enqueue(conn, '{"type":"frame"}', timer)
            assert service.latencies == []
        hub._sent(timer)
        assert len(service.latencies) == 1 and timer.pending == 0
        for conn in conns:
            hub.detach(conn)
        await settle()

    asyncio.run(main())
