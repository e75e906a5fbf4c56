"""Helpers for the server tests: create tables, play over HTTP, run real server processes."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from tests.server.pg import free_port


def bearer(token: str) -> dict[str, str]:
    """The header that proves a seat."""
    return {"Authorization": f"Bearer {token}"}


def create(client: Any, game: str, seats: list[Any], **extra: Any) -> dict[str, Any]:
    """Create a table (the response must be 201) and return its JSON."""
    body = {"game": game, "seats": seats, "name": "Ana", **extra}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    client.cookies.clear()  # act as whoever a test says (a Bearer secret), never as the creator's browser
    return r.json()


def tokens_of(created: dict[str, Any]) -> dict[int, str]:
    """Seat -> secret for every human seat of a created table."""
    out = {i["seat"]: i["token"] for i in created["invites"]}
    if created.get("seat") is not None:
        out[created["seat"]] = created["token"]
    return out


def claim_all(client: Any, created: dict[str, Any]) -> dict[int, str]:
    """Sit someone at every invited seat; returns every human seat's secret (a seat's own, given when its
    player sat down: the invite link stops working then)."""
    out = tokens_of(created)
    for inv in created["invites"]:
        r = client.post("/api/seats/claim", json={"token": inv["token"], "name": f"P{inv['seat'] + 1}"})
        assert r.status_code == 200, r.text
        out[inv["seat"]] = r.json()["token"]
        client.cookies.clear()
    return out


def frame(client: Any, table: str, token: str | None = None, since: int = 0, fmt: str = "data") -> dict[str, Any]:
    """The frame of ``token``'s seat (a spectator's without a token)."""
    r = client.get(
        f"/api/tables/{table}/frame", params={"since": since, "format": fmt}, headers=bearer(token) if token else {}
    )
    assert r.status_code == 200, r.text
    return r.json()


def play_out(client: Any, table: str, tokens: dict[int, str], seed: int = 0, limit: int = 5000) -> dict[str, Any]:
    """Play random legal moves for the human seats until the game is over (bots move by themselves)."""
    rng = random.Random(seed)
    for _ in range(limit):
        f = frame(client, table)
        if f["status"]["phase"] == "over":
            return f
        moved = False
        for seat in f["status"]["to_move"]:
            if seat not in tokens:
                continue
            mine = frame(client, table, tokens[seat])
            if not mine["actions"]:
                continue
            action = rng.choice(mine["actions"])["id"]
            r = client.post(
                f"/api/tables/{table}/act", json={"action": action, "n": mine["n"]}, headers=bearer(tokens[seat])
            )
            assert r.status_code in (200, 409), r.text
            moved = True
        if not moved:
            time.sleep(0.01)  # a bot is thinking
    raise AssertionError("the game did not end")


class LiveServer:
    """A real ``ziggurat serve`` process on a free port (killed, restarted, as a test likes)."""

    def __init__(
        self,
        db_url: str,
        bot_delay: float = 0.0,
        bot_workers: int = 0,
        log: Path | None = None,
        bus: str | None = None,
        extra: list[str] | None = None,
    ):
        self.db_url = db_url
        self.bus = bus
        self.extra = list(extra or [])
        self.bot_delay = bot_delay
        self.bot_workers = bot_workers
        self.port = free_port()
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        """The base URL."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        """The base WebSocket URL."""
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start the process and wait until it answers."""
        cmd = [
            sys.executable,
            "-m",
            "ziggurat",
            "serve",
            "--port",
            str(self.port),
            "--db",
            self.db_url,
            "--bot-delay",
            str(self.bot_delay),
            "--bot-workers",
            str(self.bot_workers),
            "--log-level",
            "warning",
            "--metrics",
            *(["--bus", self.bus] if self.bus else []),
            *self.extra,
        ]
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115
        self.proc = subprocess.Popen(
            cmd, stdout=out, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"}
        )
        deadline = time.monotonic() + 60  # a busy CI machine imports slowly
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}")
            try:
                if httpx.get(self.url + "/api/games", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.kill()  # not left running behind the error
        raise RuntimeError("the server did not start in 60 s")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flushing."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def restart(self) -> None:
        """Start again on the same port and database."""
        self.kill()
        self.start()

    def client(self) -> httpx.Client:
        """An HTTP client for this server."""
        return httpx.Client(base_url=self.url, timeout=30)


def dumps(message: dict[str, Any]) -> str:
    """A WebSocket message."""
    return json.dumps(message)


class ThreadedServer:
    """uvicorn serving an app on a free loopback port from a thread (real sockets, one process)."""

    def __init__(self, app: Any):
        import threading

        import uvicorn

        from ziggurat.server.connections import CompressingWebSocketProtocol

        self.port = free_port()
        self.app = app
        # the WebSocket protocol ``ziggurat serve`` runs (its compression, frames written straight into the socket)
        config = uvicorn.Config(
            app, host="127.0.0.1", port=self.port, log_level="warning", ws=CompressingWebSocketProtocol
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)

    @property
    def url(self) -> str:
        """The base URL."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        """The base WebSocket URL."""
        return f"ws://127.0.0.1:{self.port}"

    def stop(self) -> None:
        """Shut uvicorn down and wait for the thread."""
        self.server.should_exit = True
        self.thread.join(20)
