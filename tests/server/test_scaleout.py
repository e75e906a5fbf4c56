"""Several server processes on one PostgreSQL: a table's moves reach every client, whichever process it is on.

Real ``ziggurat serve`` processes share a throwaway PostgreSQL server; changes
travel between them as notices (PostgreSQL's LISTEN/NOTIFY, or Redis pub/sub
with ``--bus``, each on a real server) and each process catches up from the
move log. Every client must see every move exactly once and in order, and
the clients of a process that is killed reconnect to another and lose nothing.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx
import pytest
import websockets

from tests.server.util import LiveServer


def seated_table(a: LiveServer, b: LiveServer, game: str = "kuhnah") -> tuple[str, dict[int, str]]:
    created = httpx.post(
        a.url + "/api/tables", json={"game": game, "seats": ["me", "human"], "name": "Ana", "seed": 21}
    ).json()
    invite = created["invites"][0]["token"]
    r = httpx.post(b.url + "/api/seats/claim", json={"token": invite, "name": "Bea"})  # seated through the other
    assert r.status_code == 200
    return created["id"], {0: created["token"], 1: r.json()["token"]}


class Client:
    """One audience's connection that survives its server: on a drop it reconnects elsewhere, from where it was."""

    def __init__(self, urls: list[str], table: str, token: str | None, seat: int | None, seed: int):
        self.urls = urls  # the servers to try, in order
        self.table = table
        self.token = token
        self.seat = seat
        self.rng = random.Random(seed)
        self.n = 0
        self.entries: list[dict[str, Any]] = []
        self.numbers: list[int] = []
        self.moves = 0
        self.reconnects = 0

    async def run(self) -> None:
        while True:
            for url in self.urls:
                try:
                    if await self._session(url):
                        return
                except (OSError, websockets.ConnectionClosed):
                    pass
                self.reconnects += 1
            await asyncio.sleep(0.2)

    async def _session(self, base: str) -> bool:
        ws_base = "ws" + base[len("http") :]
        async with websockets.connect(f"{ws_base}/api/tables/{self.table}/ws") as ws:
            hello: dict[str, Any] = {"type": "hello", "since": self.n, "format": "data"}
            if self.token:
                hello["token"] = self.token
            await ws.send(json.dumps(hello))
            async for text in ws:
                msg = json.loads(text)
                if msg["type"] != "frame":
                    continue
                self.entries.extend(msg["log"])
                self.numbers.append(msg["n"])
                self.n = msg["n"]
                if msg["status"]["phase"] == "over":
                    return True
                if msg["actions"]:
                    action = self.rng.choice(msg["actions"])["id"]
                    await ws.send(json.dumps({"type": "act", "action": action, "n": msg["n"], "id": f"{self.n}"}))
                    self.moves += 1
        return False


def full_log(url: str, table: str, token: str | None) -> list[dict[str, Any]]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.get(f"{url}/api/tables/{table}/frame", headers=headers).json()["log"]


def check(clients: list[Client], url: str, table: str) -> None:
    for c in clients:
        assert c.entries == full_log(url, table, c.token), f"client of seat {c.seat} missed or repeated entries"
        assert c.numbers == sorted(c.numbers), "event numbers never go back"
        if not c.reconnects:  # one frame per change (a reconnection's first frame repeats where it was)
            assert len(set(c.numbers)) == len(c.numbers)


def test_every_client_sees_every_move_once_in_order(
    pg_url: str, live_server: type[LiveServer], bus: str | None
) -> None:
    a = live_server(pg_url, bus=bus)
    b = live_server(pg_url, bus=bus)
    table, tokens = seated_table(a, b)
    clients = [
        Client([a.url], table, tokens[0], 0, 1),  # seat 1 plays on process A
        Client([b.url], table, tokens[1], 1, 2),  # seat 2 plays on process B
        Client([a.url], table, None, None, 3),  # a spectator on each process
        Client([b.url], table, None, None, 4),
    ]

    async def play() -> None:
        await asyncio.wait_for(asyncio.gather(*(c.run() for c in clients)), 120)

    asyncio.run(play())
    assert clients[0].moves > 5 and clients[1].moves > 5
    check(clients, a.url, table)
    check(clients, b.url, table)


def test_clients_of_a_killed_process_go_on_elsewhere(
    pg_url: str, live_server: type[LiveServer], bus: str | None
) -> None:
    a = live_server(pg_url, bus=bus)
    b = live_server(pg_url, bus=bus)
    table, tokens = seated_table(a, b)
    clients = [
        Client([a.url, b.url], table, tokens[0], 0, 5),
        Client([b.url, a.url], table, tokens[1], 1, 6),
        Client([b.url, a.url], table, None, None, 7),
    ]

    async def play() -> None:
        tasks = [asyncio.create_task(c.run()) for c in clients]

        async def four_moves_on_b() -> None:
            while clients[1].moves < 4:
                await asyncio.sleep(0.01)

        await asyncio.wait_for(four_moves_on_b(), 60)
        await asyncio.to_thread(b.kill)  # mid-game: B's clients must carry on through A
        await asyncio.wait_for(asyncio.gather(*tasks), 120)

    asyncio.run(play())
    assert clients[1].reconnects >= 1 and clients[2].reconnects >= 1
    check(clients, a.url, table)


def test_news_lost_while_redis_is_down_is_caught_up_when_it_is_back(pg_url: str, live_server: type[LiveServer]) -> None:
    """Moves go on without Redis (they are committed); the other process's clients get them once it returns."""
    from websockets.sync.client import connect

    from tests.server.redis_server import TempRedis

    redis = TempRedis().start()
    try:
        a = live_server(pg_url, bus=redis.url)
        b = live_server(pg_url, bus=redis.url)
        table, tokens = seated_table(a, b)

        def move_on_a() -> None:
            with a.client() as http:
                to_move = http.get(f"/api/tables/{table}/frame").json()["status"]["to_move"]
                auth = {"Authorization": f"Bearer {tokens[to_move[0]]}"}
                mine = http.get(f"/api/tables/{table}/frame", headers=auth).json()
                body = {"action": mine["actions"][0]["id"], "n": mine["n"]}
                r = http.post(f"/api/tables/{table}/act", json=body, headers=auth)
                assert r.status_code == 200, r.text

        with connect(f"{b.ws_url}/api/tables/{table}/ws") as spectator:  # watching through process B
            spectator.send(json.dumps({"type": "hello", "format": "data"}))

            def next_n(timeout: float) -> int:
                while True:
                    msg = json.loads(spectator.recv(timeout=timeout))
                    if msg["type"] == "frame":
                        return int(msg["n"])

            first = next_n(30)
            move_on_a()
            seen = next_n(30)
            assert seen > first, "the news went through Redis"
            redis.kill()
            move_on_a()  # committed all the same
            with pytest.raises(TimeoutError):
                next_n(1.5)  # B has not heard of it
            redis.start()  # on the same port: B's listener reconnects and catches up
            assert next_n(45) > seen  # the listener reconnects with a back-off; a loaded machine is slower
    finally:
        redis.stop()
