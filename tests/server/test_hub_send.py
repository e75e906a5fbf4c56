"""The hub's writes: at once when nothing is queued, else in order behind what waits (server/hub.py)."""

from __future__ import annotations

import asyncio
import socket as net
import time
from typing import Any

import httpx
import orjson
import pytest
from websockets.sync.client import connect as ws_connect

from tests.server.util import ThreadedServer, claim_all, create, play_out
from ziggurat.server.connections import CompressingWebSocketProtocol
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

    async def send(self, data: bytes) -> None:
        self.writing += 1
        await self.open.wait()
        self.writing -= 1
        self.written.append(orjson.loads(data))

    async def close(self, code: int) -> None:
        self.closed_with = code


def connect(hub: Hub, socket: Socket) -> Connection:
    conn = Connection("t1", 0, "data", socket.send, close_socket=socket.close)
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
        hub._enqueue(conn, orjson.dumps({"k": 1}), timer)  # begun at once, then it waits
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
        hub._enqueue(conn, orjson.dumps({"secret": "for seat 1"}), timer)
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
            hub._enqueue(conn, b'{"type":"frame"}', timer)
            assert service.latencies == []
        hub._sent(timer)
        assert len(service.latencies) == 1 and timer.pending == 0
        for conn in conns:
            hub.detach(conn)
        await settle()

    asyncio.run(main())


def test_over_a_real_socket_frames_go_straight_in_until_the_client_stops_reading(
    wire_server: ThreadedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server writes a frame straight into the socket (no ASGI layers) while the socket takes it. A client
    that stops reading fills the socket's buffers: then a write says no, what follows waits in the queue,
    and once the client reads again every frame reaches it whole and in the order asked."""
    written = {True: 0, False: 0}
    straight = CompressingWebSocketProtocol.write_now

    def counted(self: CompressingWebSocketProtocol, data: bytes) -> bool:
        ok = straight(self, data)
        written[ok] += 1
        return ok

    monkeypatch.setattr(CompressingWebSocketProtocol, "write_now", counted)
    with httpx.Client(base_url=wire_server.url) as http:
        created = create(http, "kuhnah", ["me", "human"], seed=5)
        table = created["id"]
        play_out(http, table, claim_all(http, created))
    sock = net.create_connection(("127.0.0.1", wire_server.port))
    sock.setsockopt(net.SOL_SOCKET, net.SO_RCVBUF, 1 << 16)  # a small window: the server's buffers fill soon
    url = f"{wire_server.ws_url}/api/tables/{table}/ws"
    with ws_connect(url, sock=sock, compression=None, ping_interval=None) as ws:  # full frames, no pings of its own
        ws.send(orjson.dumps({"type": "hello", "format": "html"}).decode())
        assert orjson.loads(ws.recv(timeout=10))["type"] == "welcome"
        first = orjson.loads(ws.recv(timeout=10))
        n = first["n"]
        assert written[True] >= 1 and written[False] == 0  # the welcome and the first frame went straight in
        asked: list[int] = []
        deadline = time.monotonic() + 60
        while written[False] == 0 or len(asked) < 5:  # until a write was refused, and a few more behind it
            assert time.monotonic() < deadline and len(asked) < 1000, "the socket never filled"
            since = len(asked) % n
            asked.append(since)
            ws.send(orjson.dumps({"type": "sync", "since": since}).decode())
            time.sleep(0.005 if written[False] == 0 else 0.05)
        got: list[int] = []
        while len(got) < len(asked):
            message = orjson.loads(ws.recv(timeout=10))
            if message["type"] == "frame":
                assert message["n"] == n
                got.append(n - len(message["log"]))
        assert got == asked
