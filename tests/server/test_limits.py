"""Abuse limits: login throttling (one process and across processes), quotas, expiry, slow connections."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets
from fastapi.testclient import TestClient

from tests.server.util import LiveServer, ThreadedServer, bearer, create, frame
from tests.server.wire import Socket
from ziggurat.server.app import Settings, create_app
from ziggurat.server.limits import Limits, failure_wait

H = {"X-Ziggurat": "1"}
PASSWORD = "correct horse battery"


class Clock:
    def __init__(self) -> None:
        self.at = dt.datetime(2026, 11, 25, 12, 0, tzinfo=dt.UTC)

    def __call__(self) -> dt.datetime:
        return self.at

    def advance(self, seconds: float) -> None:
        self.at += dt.timedelta(seconds=seconds)


def limited(url: str, clock: Clock | None = None, **limits: Any) -> TestClient:
    settings = Settings(db_url=url, bot_delay=0, bot_workers=0, limits={k: str(v) for k, v in limits.items()})
    client = TestClient(create_app(settings))
    client.__enter__()
    if clock is not None:
        client.app.state.server.service.now = clock
    return client


@pytest.fixture
def clocked(sqlite_url: str) -> Iterator[tuple[TestClient, Clock]]:
    clock = Clock()
    client = limited(sqlite_url, clock)
    try:
        yield client, clock
    finally:
        client.__exit__(None, None, None)


def sign_up(client: Any, name: str) -> None:
    r = client.post("/api/accounts", json={"name": name, "password": PASSWORD}, headers=H)
    assert r.status_code == 201, r.text
    client.cookies.clear()


def try_login(client: Any, name: str, password: str) -> httpx.Response:
    r = client.post("/api/sessions", json={"name": name, "password": password}, headers=H)
    client.cookies.clear()
    return r


# ---------------------------------------------------------------------------------------- logins
def test_wrong_passwords_wait_longer_and_longer_then_lock(clocked: tuple[TestClient, Clock]) -> None:
    client, clock = clocked
    sign_up(client, "Ana")
    limits = Limits()
    for _ in range(limits.login_free):  # the first few are free
        assert try_login(client, "Ana", "wrong password").status_code == 403
    waits = []
    for failures in range(limits.login_free + 1, limits.login_lock_after + 1):
        r = try_login(client, "Ana", "wrong password")
        assert r.status_code == 403 and r.json()["message"] == "wrong name or password"
        blocked = try_login(client, "ana", PASSWORD)  # even the right password must wait now
        assert blocked.status_code == 429 and "try again in" in blocked.json()["message"]
        wait = int(blocked.headers["Retry-After"])
        assert wait == failure_wait(failures, limits.login_free, limits.login_lock_after, limits)
        waits.append(wait)
        clock.advance(wait - 0.5)
        assert try_login(client, "Ana", PASSWORD).status_code == 429  # not yet
        clock.advance(0.5)
    assert waits[:4] == [1, 2, 4, 8] and waits == sorted(waits) and waits[-1] == limits.login_lock_seconds
    # the lock is over: the right password opens a session and forgets the account's failures
    assert try_login(client, "Ana", PASSWORD).status_code == 200
    assert try_login(client, "Ana", "wrong password").status_code == 403
    assert try_login(client, "Ana", PASSWORD).status_code == 200


def test_one_address_guessing_many_accounts_is_stopped(sqlite_url: str) -> None:
    clock = Clock()
    client = limited(sqlite_url, clock, address_login_free=6, address_login_lock_after=10)
    try:
        sign_up(client, "Ana")
        for i in range(6):
            assert try_login(client, f"user{i}", "guess").status_code == 403
        assert try_login(client, "user6", "guess").status_code == 403
        r = try_login(client, "Ana", PASSWORD)  # another account, the same address: must wait too
        assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
        # the log-in form answers the same, with its page
        form = client.get("/login")
        csrf = form.cookies.get("zg_csrf") or client.cookies.get("zg_csrf")
        r = client.post("/login", data={"name": "Ana", "password": PASSWORD, "csrf": csrf})
        assert r.status_code == 429 and "Retry-After" in r.headers and "try again in" in r.text
    finally:
        client.__exit__(None, None, None)


def test_sign_ups_per_address(sqlite_url: str) -> None:
    client = limited(sqlite_url, Clock(), signups_per_hour=3)
    try:
        r = client.post("/api/accounts", json={"name": "x", "password": PASSWORD}, headers=H)
        assert r.status_code == 400  # a form filled in wrong costs nothing
        for name in ("Ana", "Bea", "Cy"):
            sign_up(client, name)
        r = client.post("/api/accounts", json={"name": "Dee", "password": PASSWORD}, headers=H)
        assert r.status_code == 429 and 0 < int(r.headers["Retry-After"]) <= 3600
    finally:
        client.__exit__(None, None, None)


@pytest.mark.slow
def test_throttling_holds_across_processes(pg_url: str, live_server: type[LiveServer], bus: str | None) -> None:
    a, b = live_server(pg_url, bus=bus), live_server(pg_url, bus=bus)
    assert httpx.post(a.url + "/api/accounts", json={"name": "Ana", "password": PASSWORD}).status_code == 201
    free = Limits().login_free
    for i in range(free + 1):  # wrong passwords through both processes
        server = (a, b)[i % 2]
        r = httpx.post(server.url + "/api/sessions", json={"name": "Ana", "password": "wrong"})
        assert r.status_code == 403
    for server in (a, b):
        r = httpx.post(server.url + "/api/sessions", json={"name": "Ana", "password": PASSWORD})
        assert r.status_code == 429 and "Retry-After" in r.headers
    time.sleep(1.2)
    assert httpx.post(b.url + "/api/sessions", json={"name": "Ana", "password": PASSWORD}).status_code == 200


# ------------------------------------------------------------------------------------------ quotas
def test_tables_per_hour_open_tables_and_search_bots(sqlite_url: str) -> None:
    clock = Clock()
    client = limited(sqlite_url, clock, tables_per_hour=4, open_tables=3, search_bots=2)
    try:
        made = [create(client, "kuhnah", ["me", "random"]) for _ in range(3)]
        r = client.post("/api/tables", json={"game": "kuhnah", "seats": ["me", "random"], "name": "Ana"})
        assert r.status_code == 429 and "not over" in r.json()["message"]
        # one of them ends (its player leaves a game against a bot... a bot plays it to the end)
        table = made[0]["id"]
        assert client.post(f"/api/tables/{table}/leave", headers=bearer(made[0]["token"])).status_code == 200
        deadline = time.monotonic() + 30
        while frame(client, table)["status"]["phase"] != "over":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        create(client, "kuhnah", ["me", "random"])  # the fourth this hour
        assert client.post(f"/api/tables/{made[1]['id']}/leave", headers=bearer(made[1]["token"])).status_code == 200
        while frame(client, made[1]["id"])["status"]["phase"] != "over":
            time.sleep(0.05)
        r = client.post("/api/tables", json={"game": "kuhnah", "seats": ["me", "random"], "name": "Ana"})
        assert r.status_code == 429 and "this hour" in r.json()["message"]
        assert 0 < int(r.headers["Retry-After"]) <= 3600
        clock.advance(3600)  # a new hour
        seats = ["me", "ismcts:1", "ismcts:1", "ismcts:1"]
        r = client.post("/api/tables", json={"game": "kuhnah", "seats": seats, "name": "Ana"})
        assert r.status_code == 429 and "IS-MCTS" in r.json()["message"]
        create(client, "kuhnah", ["me", "ismcts:1", "ismcts:1"])
    finally:
        client.__exit__(None, None, None)


def test_take_backs_in_a_row_are_bounded(sqlite_url: str) -> None:
    client = limited(sqlite_url, None, takebacks_in_a_row=3)
    try:
        created = create(client, "kuhnah", ["me", "human"], seed=5)
        table, ana = created["id"], created["token"]
        r = client.post("/api/seats/claim", json={"token": created["invites"][0]["token"], "name": "Bea"})
        bea = r.json()["token"]
        client.cookies.clear()
        mover = ana if frame(client, table)["status"]["to_move"] == [0] else bea
        for i in range(4):
            mine = frame(client, table, mover)
            jade = next(a for a in mine["actions"] if a["text"].startswith("jade"))
            r = client.post(f"/api/tables/{table}/act", json={"action": jade["id"]}, headers=bearer(mover))
            assert r.status_code == 200
            r = client.post(f"/api/tables/{table}/undo", json={}, headers=bearer(mover))
            if i < 3:
                assert r.status_code == 200, r.text
            else:
                assert r.status_code == 409 and "3 times in a row" in r.json()["message"]
    finally:
        client.__exit__(None, None, None)


def test_tables_that_never_start_are_deleted(clocked: tuple[TestClient, Clock]) -> None:
    client, clock = clocked
    waiting = create(client, "lucent", ["me", "human"])
    started = create(client, "lucent", ["me", "random"])
    service = client.app.state.server.service
    with client.websocket_connect(f"/api/tables/{waiting['id']}/ws") as ws:
        ws.send_json({"type": "hello", "token": waiting["token"]})
        assert ws.receive_json()["type"] == "welcome"
        clock.advance(23 * 3600)
        assert client.portal.call(service.expire_waiting) == []
        clock.advance(3600 + 1)
        assert client.portal.call(service.expire_waiting) == [waiting["id"]]
        while (m := ws.receive_json())["type"] != "error":
            pass
        assert m["code"] == "gone"
    assert client.get(f"/api/tables/{waiting['id']}").status_code == 404
    assert client.post("/api/seats/lookup", json={"token": waiting["invites"][0]["token"]}).status_code == 404
    assert client.get(f"/api/tables/{started['id']}").status_code == 200


# --------------------------------------------------------------------------------------- sockets
def test_sockets_per_address_and_presence_in_one_message(sqlite_url: str) -> None:
    server = ThreadedServer(
        create_app(Settings(db_url=sqlite_url, bot_delay=0, bot_workers=0, limits={"sockets_per_address": "12"}))
    )
    try:
        created = httpx.post(
            server.url + "/api/tables", json={"game": "kuhnah", "seats": ["me", "random"], "name": "A"}
        )
        created = created.json()
        table = created["id"]

        async def run() -> None:
            seat = await Socket(server.ws_url, table, created["token"]).open()
            await seat.sync()
            before = sum(1 for m in seat.messages if m["type"] == "presence")
            watchers = [await Socket(server.ws_url, table).open() for _ in range(11)]
            extra = await websockets.connect(f"{server.ws_url}/api/tables/{table}/ws")
            said = []
            with pytest.raises(websockets.ConnectionClosed) as closed:
                while True:
                    said.append(json.loads(await asyncio.wait_for(extra.recv(), 10)))
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
            assert [m["code"] for m in said] == ["too_many"]
            await asyncio.sleep(0.3)
            await seat.sync()
            # spectators coming and going change nobody's presence: the seat heard nothing about them
            assert sum(1 for m in seat.messages if m["type"] == "presence") == before
            for w in watchers:
                await w.close()

        asyncio.run(run())
    finally:
        server.stop()


def test_slow_headers_and_idle_connections_are_closed(tmp_path: Any) -> None:
    server = LiveServer(
        f"sqlite:///{tmp_path / 'z.db'}", extra=["--limit", "header_seconds=1", "--limit", "connections_per_address=20"]
    )
    try:
        idle = socket.create_connection(("127.0.0.1", server.port))
        slow = socket.create_connection(("127.0.0.1", server.port))
        slow.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # and never the end of the headers
        many = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(18)]
        over = socket.create_connection(("127.0.0.1", server.port))  # the 21st from this address
        over.settimeout(5)
        assert over.recv(1) == b"", "a connection over the cap is closed at once"
        for s in (idle, slow):
            s.settimeout(5)
            started = time.monotonic()
            assert s.recv(1) == b""
            assert time.monotonic() - started < 3
        for s in many:
            s.close()
        assert httpx.get(server.url + "/api/games", timeout=5).status_code == 200  # others are served
    finally:
        server.kill()


def test_tables_of_one_game_share_its_set_up(client: TestClient) -> None:
    """A table holds its own state, not its own copy of the game's rules tables (Lucent's: about 1.5 MB)."""
    a = create(client, "lucent", ["me", "human", "human", "human"])
    b = create(client, "lucent", ["me", "human", "human", "human"])
    c = create(client, "lucent", ["me", "human", "human", "human"], options={"points": True})
    tables = client.app.state.server.service.tables
    assert tables[a["id"]].game is tables[b["id"]].game
    assert tables[a["id"]].game is not tables[c["id"]].game
    assert tables[a["id"]].state is not tables[b["id"]].state
