"""Connections that cannot hold the server: a time limit for a request's headers, a cap per client address.

uvicorn closes a keep-alive connection that stays idle after a response, but a connection that never
finishes its first request's headers (a slow-header, "slowloris", client; or one that sends nothing at
all) would stay open for ever, and enough of them use up the process's open files. This protocol gives
every request ``header_seconds`` to send its headers and lets one client address hold at most
``connections_per_address`` HTTP connections at a time in a process (a WebSocket, once upgraded, counts
under the hub's own limit instead). ``ziggurat serve`` uses it as uvicorn's HTTP protocol; the numbers
are :class:`~ziggurat.server.limits.Limits` an operator can change.
"""

from __future__ import annotations

import asyncio
import logging
import resource
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.server import ServerProtocol

from ziggurat.server.limits import Limits, client_key

log = logging.getLogger("ziggurat.server")


class GuardedHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a deadline for headers and a cap on connections per address."""

    header_seconds: ClassVar[float] = Limits.header_seconds
    per_address: ClassVar[int] = Limits.connections_per_address
    open_by_address: ClassVar[dict[str, int]] = {}

    @classmethod
    def configure(cls, limits: Limits) -> None:
        """Take the numbers from the server's limits (every process does, before it accepts connections)."""
        cls.header_seconds = limits.header_seconds
        cls.per_address = limits.connections_per_address

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._address = client_key(self.client[0] if self.client else None)
        self._counted = False
        self._header_timer: asyncio.TimerHandle | None = None
        held = self.open_by_address.get(self._address, 0)
        if held >= self.per_address:
            log.warning("refused a connection from %s: it holds %d already", self._address, held)
            transport.close()
            return
        self.open_by_address[self._address] = held + 1
        self._counted = True
        self._arm()

    def _arm(self) -> None:
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(self.header_seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _too_slow(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def _uncount(self) -> None:
        if self._counted:
            self._counted = False
            left = self.open_by_address.get(self._address, 1) - 1
            if left > 0:
                self.open_by_address[self._address] = left
            else:
                self.open_by_address.pop(self._address, None)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()  # the next request on a kept-alive connection has the same time for its headers

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        self._uncount()
        super().handle_websocket_upgrade()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._uncount()
        super().connection_lost(exc)


def raise_open_files_limit() -> int:
    """Let the process open as many files (connections) as the system allows it; the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = max(soft, 1 << 20)
    if soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    return int(soft)


# permessage-deflate as the server writes it. A table's frames repeat most of the one before (the same board
# with a move more), so a 32 KB window, which reaches back to the last frame, finds them: a browser's K'uh
# Nah frame is about 1.4 KB on the wire instead of 2.6, a bot's Nakum frame 0.4 KB instead of 1.0, and
# level 1 writes it 2-4 times faster than zlib's default level with the 4 KB window uvicorn chooses, no
# larger. It costs memory: about 150 KB of compressor state a socket instead of about 30 KB (memLevel 5
# keeps the hash table at uvicorn's size); ``ziggurat serve --ws-window-bits 12`` takes uvicorn's window
# back. What the client compresses (its moves, a few dozen bytes) keeps uvicorn's 4 KB window.
DEFLATE_WINDOW_BITS = 15
DEFLATE_LEVEL = 1
DEFLATE_MEM_LEVEL = 5
WINDOW_BITS_RANGE = (9, 15)  # what permessage-deflate allows (512 bytes to 32 KB)


def deflate_factory(window_bits: int = DEFLATE_WINDOW_BITS) -> ServerPerMessageDeflateFactory:
    """The permessage-deflate extension this server offers: it writes with a window of ``2**window_bits``
    bytes (see the figures above)."""
    low, high = WINDOW_BITS_RANGE
    if not low <= window_bits <= high:
        raise ValueError(f"the compression window is {low} to {high} bits (512 bytes to 32 KB), not {window_bits}")
    return ServerPerMessageDeflateFactory(
        server_max_window_bits=window_bits,
        client_max_window_bits=12,
        compress_settings={"level": DEFLATE_LEVEL, "memLevel": DEFLATE_MEM_LEVEL},
    )


# the key of a WebSocket's ASGI scope under which the app finds :meth:`CompressingWebSocketProtocol.write_now`
WRITE_NOW = "ziggurat.write_now"


class CompressingWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (websockets, sans-I/O) with this server's compression settings, and a
    way to write a message straight into the socket (:meth:`write_now`, in the scope under
    :data:`WRITE_NOW`)."""

    window_bits: ClassVar[int] = DEFLATE_WINDOW_BITS

    @classmethod
    def configure(cls, window_bits: int) -> None:
        """Compress with a window of ``2**window_bits`` bytes (every process does, before it accepts sockets)."""
        deflate_factory(window_bits)  # a window permessage-deflate does not allow is refused here
        cls.window_bits = window_bits

    def __init__(self, config: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(config, *args, **kwargs)
        if config.ws_per_message_deflate:  # the same connection as uvicorn's, with our extension's settings
            self.conn = ServerProtocol(
                extensions=[deflate_factory(self.window_bits)],
                max_size=config.ws_max_size,
                logger=logging.getLogger("uvicorn.error"),
            )

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:  # the handshake goes on to the app (not refused by the protocol)
            scope[WRITE_NOW] = self.write_now  # type: ignore[literal-required]

    def write_now(self, data: bytes) -> bool:
        """Write the text message ``data`` (UTF-8) now if the socket takes it without waiting; else False.

        It is what an ASGI ``websocket.send`` of the same text does when it need not wait, without the
        layers between (the app's middleware, Starlette's socket, the ASGI call) and without making the
        bytes a ``str`` and back. It says False, and writes nothing, when the handshake is not done, the
        socket is closing or gone, or its buffer is full (the client is not reading): then the ASGI
        send, which waits or fails as the app expects, is the way.
        """
        if (
            not self.handshake_complete
            or self.close_sent
            or self.disconnected
            or self.initial_response is not None
            or not self.writable.is_set()
            or self.transport.is_closing()
        ):
            return False
        try:
            self.conn.send_text(data)
        except InvalidState:
            return False
        self.transport.write(b"".join(self.conn.data_to_send()))
        return True


def uvicorn_options(limits: Limits, window_bits: int = DEFLATE_WINDOW_BITS) -> dict[str, Any]:
    """What ``ziggurat serve`` gives uvicorn so that connections cannot hold the server, and its WebSocket
    protocol (compressed with a window of ``2**window_bits`` bytes)."""
    GuardedHttpProtocol.configure(limits)
    CompressingWebSocketProtocol.configure(window_bits)
    return {"http": GuardedHttpProtocol, "ws": CompressingWebSocketProtocol, "timeout_keep_alive": 5}
