"""A server killed with SIGKILL loses no acknowledged move, and a bot that was about to move moves exactly once.

Real ``ziggurat serve`` processes, killed without warning and started again on
the same database (SQLite in WAL mode, and PostgreSQL).
"""

from __future__ import annotations

import random
import threading
import time

import httpx
import pytest

from tests.server.util import LiveServer, bearer


@pytest.fixture(params=["sqlite", "postgresql"])
def durable_url(request, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'ziggurat.db'}"
    return request.getfixturevalue("pg_url")


def test_no_acknowledged_move_is_lost(durable_url: str, live_server: type[LiveServer]) -> None:
    server = live_server(durable_url)
    created = httpx.post(
        server.url + "/api/tables", json={"game": "nakum", "seats": ["me", "human"], "name": "A", "seed": 4}
    ).json()
    table = created["id"]
    invite = created["invites"][0]["token"]
    seated = httpx.post(server.url + "/api/seats/claim", json={"token": invite, "name": "B"})
    tokens = {0: created["token"], 1: seated.json()["token"]}
    acked: list[str] = []
    stop = threading.Event()

    def player() -> None:
        rng = random.Random(1)
        with httpx.Client(base_url=server.url, timeout=5) as c:
            while not stop.is_set():
                try:
                    f = c.get(f"/api/tables/{table}/frame").json()
                    if f["status"]["phase"] != "playing":
                        return
                    seat = f["status"]["to_move"][0]
                    mine = c.get(f"/api/tables/{table}/frame", headers=bearer(tokens[seat])).json()
                    action = rng.choice(mine["actions"])
                    r = c.post(
                        f"/api/tables/{table}/act",
                        json={"action": action["id"], "n": mine["n"]},
                        headers=bearer(tokens[seat]),
                    )
                    if r.status_code == 200:
                        acked.append(action["text"])
                except httpx.HTTPError:
                    return  # the server is gone

    thread = threading.Thread(target=player)
    thread.start()
    deadline = time.monotonic() + 30
    while len(acked) < 15 and time.monotonic() < deadline:  # moves are flowing
        time.sleep(0.01)
    server.kill()
    stop.set()
    thread.join(10)
    assert len(acked) >= 5
    server.start()
    after = httpx.get(f"{server.url}/api/tables/{table}/frame").json()
    played = [e["text"] for e in after["log"] if e["kind"] == "move"]
    # every acknowledged move is there, in order; at most one more (sent, written, not yet acknowledged)
    assert played[: len(acked)] == acked
    assert len(played) - len(acked) in (0, 1)
    # and the game goes on
    seat = after["status"]["to_move"][0]
    mine = httpx.get(f"{server.url}/api/tables/{table}/frame", headers=bearer(tokens[seat])).json()
    r = httpx.post(
        f"{server.url}/api/tables/{table}/act", json={"action": mine["actions"][0]["id"]}, headers=bearer(tokens[seat])
    )
    assert r.status_code == 200


def test_a_pending_bot_move_is_made_exactly_once_after_a_restart(
    durable_url: str, live_server: type[LiveServer]
) -> None:
    server = live_server(durable_url, bot_delay=3)  # the bot waits 3 s before it moves: the kill comes first
    created = httpx.post(
        server.url + "/api/tables", json={"game": "kuhnah", "seats": ["me", "random"], "name": "A", "seed": 9}
    ).json()
    table, token = created["id"], created["token"]
    mine = httpx.get(f"{server.url}/api/tables/{table}/frame", headers=bearer(token)).json()
    assert mine["status"]["to_move"] == [0]
    jade = next(a for a in mine["actions"] if a["text"].startswith("jade"))
    assert httpx.post(
        f"{server.url}/api/tables/{table}/act", json={"action": jade["id"]}, headers=bearer(token)
    ).is_success
    waiting = httpx.get(f"{server.url}/api/tables/{table}/frame").json()
    assert waiting["status"]["to_move"] == [1]  # the bot is "thinking" (waiting out its delay)
    server.kill()
    server.start()
    deadline = time.monotonic() + 20
    while True:
        f = httpx.get(f"{server.url}/api/tables/{table}/frame").json()
        if f["status"]["to_move"] == [0]:
            break
        assert time.monotonic() < deadline, "the bot did not move after the restart"
        time.sleep(0.05)
    time.sleep(0.5)  # nothing more may come
    f = httpx.get(f"{server.url}/api/tables/{table}/frame").json()
    bot_moves = [e for e in f["log"] if e["kind"] == "move" and e["seat"] == 1]
    assert len(bot_moves) == 1
    assert f["status"]["to_move"] == [0]
    # a second restart does not make it move again
    server.restart()
    time.sleep(0.5)
    again = httpx.get(f"{server.url}/api/tables/{table}/frame").json()
    assert again["log"] == f["log"]


def test_a_clock_that_ran_out_while_the_servers_were_down_fires_once(
    durable_url: str, live_server: type[LiveServer]
) -> None:
    """Deadlines live in the database: after a restart the timeout fires, once, by one process of several."""
    from sqlalchemy import select

    from ziggurat.server.db import jobs, make_engine

    several = durable_url.startswith("postgresql")  # SQLite is one process's database
    servers = [live_server(durable_url) for _ in range(2 if several else 1)]
    body = {"game": "kuhnah", "seats": ["me", "human"], "name": "Ana", "pace": "realtime", "clock": 10, "seed": 3}
    created = httpx.post(servers[0].url + "/api/tables", json=body).json()
    table = created["id"]
    claimed = httpx.post(
        servers[-1].url + "/api/seats/claim", json={"token": created["invites"][0]["token"], "name": "Bea"}
    )
    assert claimed.status_code == 200  # the game starts: Ana's 10 s are running
    for s in servers:
        s.kill()
    engine = make_engine(durable_url)
    with engine.begin() as conn:  # as if the process died before it had stored the job of her clock
        conn.execute(jobs.delete().where(jobs.c.table_id == table))
    engine.dispose()
    time.sleep(10.5)  # her time runs out while no server is up
    for s in servers:
        s.start()
    deadline = time.monotonic() + 45  # generous: CI machines are busy
    while httpx.get(f"{servers[0].url}/api/tables/{table}/frame").json()["seats"][0].get("state") != "timeout":
        assert time.monotonic() < deadline, "the clock did not run out after the restart"
        time.sleep(0.1)
    time.sleep(1.5)  # every process has polled its jobs again by now
    for s in servers:
        log = httpx.get(f"{s.url}/api/tables/{table}/frame").json()["log"]
        assert [e["kind"] for e in log].count("timeout") == 1
    engine = make_engine(durable_url)
    try:
        with engine.connect() as conn:
            done = conn.execute(select(jobs).where(jobs.c.table_id == table, jobs.c.kind == "timeout")).all()
    finally:
        engine.dispose()
    assert len(done) == 1 and done[0].done_at is not None and done[0].key.startswith("timeout:0:")
    servers[0].restart()  # and a later restart does not fire it again
    time.sleep(1.5)
    log = httpx.get(f"{servers[0].url}/api/tables/{table}/frame").json()["log"]
    assert [e["kind"] for e in log].count("timeout") == 1
