"""The operators' tools against a running server: ziggurat admin, Prometheus metrics, JSON logs."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

from tests.server.pg import free_port
from tests.server.util import LiveServer, bearer
from tests.server.wire import Socket
from ziggurat.server.observe import Percentiles, watch_loop_lag

H = {"X-Ziggurat": "1"}
PASSWORD = "correct horse battery"


def admin(db: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ziggurat", "admin", *args, "--db", db],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "200"},
    )


async def told(sock: Socket, code: str) -> dict[str, Any]:
    """Read until the server says ``code`` and closes the socket."""
    said = None
    try:
        while True:
            message = await sock.receive(timeout=15)
            if message["type"] == "error" and message["code"] == code:
                said = message
    except websockets.ConnectionClosed:
        pass
    assert said is not None, f"the socket was closed without {code!r}"
    return said


def test_close_ban_unban_rename_and_export(tmp_path: Path, live_server: type[LiveServer]) -> None:
    db = f"sqlite:///{tmp_path / 'z.db'}"
    server = live_server(db, bot_delay=0.05, extra=["--no-ws-compression"])
    with httpx.Client(base_url=server.url) as ana:
        assert ana.post("/api/accounts", json={"name": "Ana", "password": PASSWORD}).status_code == 201
        mine = ana.post("/api/tables", json={"game": "lucent", "seats": ["me", "random"]}, headers=H).json()
        session = ana.cookies["zg_session"]
    other = httpx.post(server.url + "/api/tables", json={"game": "kuhnah", "seats": ["me", "random"], "name": "Bo"})
    other = other.json()

    listed = admin(db, "tables", "--status", "playing")
    assert listed.returncode == 0 and mine["id"] in listed.stdout and other["id"] in listed.stdout
    assert admin(db, "tables", "--status", "nonsense").returncode == 2

    async def run() -> None:
        # closing: everyone at the table is told, and no move is taken any more
        watcher = await Socket(server.ws_url, other["id"]).open()
        assert "Sec-WebSocket-Extensions" not in watcher.ws.response.headers  # --no-ws-compression
        closed = admin(db, "close", other["id"])
        assert closed.returncode == 0 and "was playing" in closed.stdout
        await told(watcher, "closed")
        f = httpx.get(f"{server.url}/api/tables/{other['id']}/frame", headers=bearer(other["token"])).json()
        assert f["status"]["phase"] == "closed" and f["actions"] == []
        r = httpx.post(f"{server.url}/api/tables/{other['id']}/act", json={"action": 0}, headers=bearer(other["token"]))
        assert r.status_code == 409 and "closed by the site's operators" in r.json()["message"]
        assert admin(db, "close", other["id"]).returncode == 2  # closed already: said clearly
        # a ban: the account's socket loses its seat (a bot plays it), its session ends, no log-in
        seat_socket = await Socket(server.ws_url, mine["id"], mine["token"]).open()
        banned = admin(db, "ban", "ana", "--reason", "played by a script")
        assert banned.returncode == 0
        await told(seat_socket, "seat_lost")
        me = httpx.get(server.url + "/api/me", cookies={"zg_session": session})
        assert me.status_code == 403
        r = httpx.post(server.url + "/api/sessions", json={"name": "Ana", "password": PASSWORD})
        assert r.status_code == 403 and "played by a script" in r.json()["message"]
        f = httpx.get(f"{server.url}/api/tables/{mine['id']}/frame").json()
        assert f["seats"][0]["state"] == "left"

    asyncio.run(run())
    assert admin(db, "unban", "Ana").returncode == 0
    assert admin(db, "unban", "Ana").returncode == 2  # not banned any more
    assert admin(db, "rename", "Ana", "Anna").returncode == 0
    assert admin(db, "rename", "Anna", "x").returncode == 2
    assert httpx.post(server.url + "/api/sessions", json={"name": "anna", "password": PASSWORD}).status_code == 200
    assert httpx.post(server.url + "/api/sessions", json={"name": "Ana", "password": PASSWORD}).status_code == 403

    out = tmp_path / "log.json"
    assert admin(db, "export", other["id"], "--out", str(out)).returncode == 0
    exported = json.loads(out.read_text())
    assert exported["table"]["id"] == other["id"] and exported["table"]["status"] == "closed"
    assert exported["rows"] and exported["record"]["seed"] == exported["table"]["seed"]
    assert "token_hash" not in out.read_text() and "invite_hash" not in out.read_text()
    missing = admin(db, "export", "nosuchtable")
    assert missing.returncode == 2 and "no table" in missing.stderr + missing.stdout


def test_an_operator_chooses_the_compression_window(tmp_path: Path, live_server: type[LiveServer]) -> None:
    """``--ws-window-bits 12``: frames are compressed with uvicorn's 4 KB window (less memory a socket)."""
    server = live_server(f"sqlite:///{tmp_path / 'z.db'}", bot_delay=0.0, extra=["--ws-window-bits", "12"])
    created = httpx.post(
        server.url + "/api/tables", json={"game": "kuhnah", "seats": ["me", "random"], "name": "A"}
    ).json()

    async def look() -> None:
        sock = await Socket(server.ws_url, created["id"], created["token"]).open()
        (deflate,) = sock.ws.protocol.extensions
        assert deflate.remote_max_window_bits == 12
        await sock.close()

    asyncio.run(look())


def test_metrics_on_a_private_listener_and_json_logs(tmp_path: Path, live_server: type[LiveServer]) -> None:
    port = free_port()
    log = tmp_path / "server.log"
    server = live_server(
        f"sqlite:///{tmp_path / 'z.db'}",
        bot_delay=0.0,
        log=log,
        extra=["--prometheus", f"127.0.0.1:{port}", "--log-format", "json"],
    )
    created = httpx.post(
        server.url + "/api/tables", json={"game": "kuhnah", "seats": ["me", "random"], "name": "A"}
    ).json()
    table, token = created["id"], created["token"]

    async def play() -> None:
        sock = await Socket(server.ws_url, table, token).open()
        # frames are compressed by default (permessage-deflate), as browsers ask
        assert "permessage-deflate" in sock.ws.response.headers.get("Sec-WebSocket-Extensions", "")
        # with a window that reaches back to the frame before (connections.DEFLATE_WINDOW_BITS)
        (deflate,) = sock.ws.protocol.extensions
        assert deflate.remote_max_window_bits == 15, "the server writes with a 32 KB window"
        assert deflate.local_max_window_bits == 12, "the client's moves keep a 4 KB window"
        for _ in range(3):
            if not (sock.last and sock.last["actions"]):
                await sock.until(lambda m: m["type"] == "frame" and bool(m["actions"]))
            assert sock.last is not None
            await sock.act(sock.last["actions"][0]["id"], sock.last["n"])
        await sock.close()

    asyncio.run(play())
    assert httpx.post(server.url + "/api/sessions", json={"name": "nobody", "password": "wrong"}).status_code == 403
    text = httpx.get(f"http://127.0.0.1:{port}/metrics").text
    for name in (
        "ziggurat_moves_total",
        "ziggurat_move_seconds_bucket",
        "ziggurat_http_requests_total",
        "ziggurat_http_request_seconds_bucket",
        "ziggurat_refusals_total",
        "ziggurat_jobs_total",
        "ziggurat_bot_thinking_seconds_bucket",
        "ziggurat_logins_total",
        "ziggurat_websocket_connections",
        "ziggurat_log_wait_seconds_bucket",
        "ziggurat_event_loop_lag_seconds_bucket",
    ):
        assert name in text, name
    timings = httpx.get(server.url + "/api/metrics").json()
    assert timings["latency_ms"]["n"] >= 3 and timings["log_wait_ms"]["n"] >= 6  # the person's moves, the bot's
    assert timings["loop_lag_ms"]["n"] >= 1 and timings["log_wait_ms"]["max"] < 30_000
    assert 'ziggurat_moves_total{by="person"}' in text and 'outcome="wrong"' in text
    assert httpx.get(server.url + "/metrics").status_code == 404  # not on the site's own port
    time.sleep(0.3)
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    events = {e.get("event") for e in lines}
    assert {"request", "move"} <= events
    request = next(e for e in lines if e.get("event") == "request" and e["route"] == "/api/tables")
    assert request["method"] == "POST" and request["status"] == 201 and request["client"] == "127.0.0.1"
    moves = [e for e in lines if e.get("event") == "move"]
    assert {m["by"] for m in moves} == {"person", "bot"} and all(m["table"] == table for m in moves)
    raw = log.read_text()
    assert token not in raw and "wrong" not in raw and "action" not in raw  # no secret, password or choice


def test_the_event_loop_lag_is_what_a_blocked_loop_made_a_timer_wait() -> None:
    kept = Percentiles()

    async def run() -> None:
        watcher = asyncio.create_task(watch_loop_lag(kept, every=0.02))
        await asyncio.sleep(0.1)
        time.sleep(0.3)  # the loop is blocked: the watcher's timer is late by about that much
        await asyncio.sleep(0.1)
        watcher.cancel()

    asyncio.run(run())
    summary = kept.summary()
    n, worst, median = summary["n"], summary["max"], summary["p50"]
    assert n is not None and n >= 4
    assert worst is not None and worst >= 250
    assert median is not None and median < 250  # the other wake-ups were on time
