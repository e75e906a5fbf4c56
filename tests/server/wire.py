"""A WebSocket client for the tests: it records every frame a seat (or a spectator) is sent."""

from __future__ import annotations

import itertools
import json
from typing import Any

import websockets

_ids = itertools.count(1)


class Socket:
    """One connection to a table, as one audience; ``frames`` keeps the raw text of every frame."""

    def __init__(self, base: str, table: str, token: str | None = None, fmt: str = "data", since: int = 0):
        self.url = f"{base}/api/tables/{table}/ws"
        self.token = token
        self.fmt = fmt
        self.since = since
        self.frames: list[str] = []
        self.messages: list[dict[str, Any]] = []
        self.last: dict[str, Any] | None = None
        self.ws: Any = None

    async def open(self) -> Socket:
        """Connect, say hello, wait for the first frame."""
        self.ws = await websockets.connect(self.url, max_size=2**24)
        hello: dict[str, Any] = {"type": "hello", "since": self.since, "format": self.fmt}
        if self.token is not None:
            hello["token"] = self.token
        await self.ws.send(json.dumps(hello))
        await self.until(lambda m: m["type"] == "frame")
        return self

    async def close(self) -> None:
        """Close the connection."""
        await self.ws.close()

    async def receive(self, timeout: float = 20) -> dict[str, Any]:
        """The next message (frames are recorded)."""
        import asyncio

        text = await asyncio.wait_for(self.ws.recv(), timeout)
        message = json.loads(text)
        self.messages.append(message)
        if message["type"] == "frame":
            self.frames.append(text)
            self.last = message
        return message

    async def until(self, predicate: Any, timeout: float = 20) -> dict[str, Any]:
        """Read messages until one matches."""
        while True:
            message = await self.receive(timeout)
            if predicate(message):
                return message

    async def send(self, message: dict[str, Any]) -> None:
        """Send one message as JSON."""
        await self.ws.send(json.dumps(message))

    async def act(self, action: int, n: int | None = None, msg_id: str | None = None) -> dict[str, Any]:
        """Play ``action``; returns the ack or error that answers it."""
        msg_id = msg_id or f"m{next(_ids)}"
        body: dict[str, Any] = {"type": "act", "action": action, "id": msg_id}
        if n is not None:
            body["n"] = n
        await self.send(body)
        answer = await self.until(
            lambda m: (m.get("id") == msg_id and m["type"] in ("ack", "error")) or m.get("ack") == msg_id
        )
        return {"type": "ack", "id": msg_id} if answer["type"] == "frame" else answer

    async def sync(self) -> None:
        """Wait until everything the server queued for this connection so far has arrived."""
        await self.send({"type": "ping"})
        await self.until(lambda m: m["type"] == "pong")
