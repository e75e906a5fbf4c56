"""The WebSocket protocol: hello, acting for a seat, refusals that are answered and resynced, cross-site cookies."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.util import claim_all, create, frame
from ziggurat.server.app import Settings, create_app


@pytest.fixture
def duel(client: TestClient) -> tuple[str, dict[int, str]]:
    created = create(client, "kuhnah", ["me", "human"], seed=11)
    return created["id"], claim_all(client, created)


def hello(ws: Any, **extra: Any) -> dict:
    ws.send_json({"type": "hello", "since": 0, "format": "data", **extra})
    assert ws.receive_json()["type"] == "welcome"
    first = ws.receive_json()
    assert first["type"] == "frame"
    return first


def next_of(ws: Any, kind: str) -> dict:
    while True:
        m = ws.receive_json()
        if m["type"] == kind:
            return m


def test_hello_first(client: TestClient, duel: tuple[str, dict[int, str]]) -> None:
    table, _ = duel
    with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
        ws.send_json({"type": "act", "action": 0})
        assert ws.receive_json()["code"] == "bad_request"
    with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
        ws.send_json({"type": "hello", "format": "xml"})
        assert ws.receive_json()["code"] == "bad_request"


def test_a_wrong_secret_is_refused(client: TestClient, duel: tuple[str, dict[int, str]]) -> None:
    table, _ = duel
    with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
        ws.send_json({"type": "hello", "token": "not-a-secret-of-this-table"})
        m = ws.receive_json()
        assert m["type"] == "error" and m["code"] == "forbidden"
    with client.websocket_connect("/api/tables/nosuchtable/ws") as ws:
        assert ws.receive_json()["code"] == "not_found"


def test_refusals_are_answered_and_the_connection_stays(client: TestClient, duel: tuple[str, dict[int, str]]) -> None:
    table, tokens = duel
    before = frame(client, table)
    with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
        spectator = hello(ws)
        assert spectator["seat"] is None and spectator["actions"] == []
        ws.send_json({"type": "act", "action": 0, "id": "s1"})
        m = next_of(ws, "error")
        assert m["code"] == "forbidden" and m["id"] == "s1"
        ws.send_text("{not json")
        assert next_of(ws, "error")["code"] == "bad_request"
        ws.send_bytes(b"\x00\x01")
        assert next_of(ws, "error")["code"] == "bad_request"
        ws.send_json({"type": "dance"})
        assert next_of(ws, "error")["code"] == "bad_request"
        ws.send_json({"type": "ping"})
        assert next_of(ws, "pong")["type"] == "pong"
    with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
        mine = hello(ws, token=tokens[0])
        ws.send_json({"type": "act", "action": mine["actions"][0]["id"], "n": mine["n"] - 1, "id": "late"})
        m = next_of(ws, "error")
        assert m["code"] == "stale" and m["id"] == "late"
        resync = next_of(ws, "frame")  # a refused move is followed by the table as it is
        assert resync["n"] == mine["n"] and resync["actions"] == mine["actions"]
        ws.send_json({"type": "act", "action": 99, "id": "x"})
        assert next_of(ws, "error")["code"] in ("illegal", "bad_action")
    assert frame(client, table) == before


def test_moves_and_undo_over_the_socket(client: TestClient, duel: tuple[str, dict[int, str]]) -> None:
    table, tokens = duel
    with (
        client.websocket_connect(f"/api/tables/{table}/ws") as a,
        client.websocket_connect(f"/api/tables/{table}/ws") as b,
    ):
        mine = hello(a, token=tokens[0])
        hello(b, token=tokens[1])
        jade = next(x for x in mine["actions"] if x["text"].startswith("jade"))
        a.send_json({"type": "act", "action": jade["id"], "n": mine["n"], "id": "j1"})
        seen = next_of(b, "frame")  # the other seat sees the move live
        (entry,) = seen["log"]
        assert {k: entry[k] for k in ("kind", "seat", "text")} == {"kind": "move", "seat": 0, "text": jade["text"]}
        assert entry["message"]["id"] == "kuhnah.jade" and "ack" not in seen
        assert next_of(a, "frame")["ack"] == "j1"  # the mover's frame answers the move
        a.send_json({"type": "act", "action": jade["id"], "n": mine["n"], "id": "j1"})  # sent again
        again = next_of(a, "ack")
        assert again["id"] == "j1" and again["duplicate"] is True
        a.send_json({"type": "undo", "id": "u1"})
        assert next_of(b, "frame")["log"] == [{"kind": "undo", "seat": 0, "text": jade["text"]}]


def test_a_cookie_from_another_site_does_not_open_a_seat(client: TestClient, duel: tuple[str, dict[int, str]]) -> None:
    table, tokens = duel
    client.cookies.set(f"zg_{table}", tokens[0])
    evil = {"origin": "https://evil.example"}
    with client.websocket_connect(f"/api/tables/{table}/ws", headers=evil) as ws:
        assert hello(ws)["seat"] is None
    same = {"origin": "http://testserver"}
    with client.websocket_connect(f"/api/tables/{table}/ws", headers=same) as ws:
        assert hello(ws)["seat"] == 0
    client.cookies.clear()


def test_behind_a_proxy_the_public_address_is_this_site(sqlite_url: str) -> None:
    """A proxy passes requests on with its own ``Host``: the page's origin is then ``--public-url``."""
    settings = Settings(db_url=sqlite_url, bot_delay=0, bot_workers=0, public_url="https://Games.example/")
    with TestClient(create_app(settings)) as client:
        created = create(client, "kuhnah", ["me", "human"], seed=11)
        table, tokens = created["id"], claim_all(client, created)
        client.cookies.set(f"zg_{table}", tokens[0])
        for origin, seat in (("https://games.example", 0), ("https://evil.example", None), ("http://testserver", 0)):
            with client.websocket_connect(f"/api/tables/{table}/ws", headers={"origin": origin}) as ws:
                assert hello(ws)["seat"] == seat, origin
