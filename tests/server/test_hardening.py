"""What an attacker or a careless client tries: borrowed secrets, chosen seeds, ids that mimic the server's
jobs, forged bodies, huge bodies, a second seat at a rated table, a job that fails once."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.test_community import H, sign_up
from tests.server.util import bearer, claim_all, create, frame
from ziggurat.server.app import Settings, create_app


def wait_for(predicate: Any, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_whoever_sent_the_invite_cannot_use_the_seat_afterwards(client: TestClient) -> None:
    created = create(client, "lucent", ["me", "human"])
    table, invite = created["id"], created["invites"][0]["token"]
    bea = client.post("/api/seats/claim", json={"token": invite, "name": "Bea"}).json()["token"]
    client.cookies.clear()
    assert client.get(f"/api/tables/{table}/frame", headers=bearer(invite)).status_code == 403
    with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
        ws.send_json({"type": "hello", "token": invite})
        assert ws.receive_json()["code"] == "forbidden"
    assert frame(client, table, bea)["seat"] == 1  # Bea's hand is for Bea


def test_a_logged_in_player_finds_their_seat_on_any_device(client: TestClient) -> None:
    sign_up(client, "Ana")
    created = client.post("/api/tables", json={"game": "kuhnah", "seats": ["me", "random"]}, headers=H).json()
    table = created["id"]
    client.cookies.delete(f"zg_{table}")  # another device: logged in, but without the seat's cookie
    assert client.get(f"/api/tables/{table}/frame").json()["seat"] == 0
    jade = next(a for a in client.get(f"/api/tables/{table}/frame").json()["actions"] if a["text"].startswith("jade"))
    assert client.post(f"/api/tables/{table}/act", json={"action": jade["id"]}).status_code == 403  # no header
    assert client.post(f"/api/tables/{table}/act", json={"action": jade["id"]}, headers=H).status_code == 200
    with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json() == {"type": "welcome", "seat": 0, "table": table}
    client.cookies.clear()
    assert client.get(f"/api/tables/{table}/frame").json()["seat"] is None  # logged out: a spectator


def test_an_old_seat_cookie_makes_a_spectator_not_an_error(client: TestClient) -> None:
    created = create(client, "kuhnah", ["me", "human"])
    table, ana = created["id"], created["token"]
    claim_all(client, created)
    link = client.post(f"/api/tables/{table}/link", headers=bearer(ana)).json()["token"]
    new = client.post("/api/seats/claim", json={"token": link, "name": "Ana"}).json()["token"]  # the other device
    client.cookies.clear()
    client.cookies.set(f"zg_{table}", ana)  # the first device still holds the old secret
    assert client.get(f"/t/{table}").status_code == 200
    assert client.get(f"/api/tables/{table}/frame").json()["seat"] is None
    client.cookies.clear()
    client.cookies.set(f"zg_{table}", new)
    assert client.get(f"/api/tables/{table}/frame").json()["seat"] == 0


def test_a_rated_table_cannot_have_a_chosen_seed_and_others_say_so(client: TestClient) -> None:
    sign_up(client, "Ana")
    body = {"game": "lucent", "seats": ["me", "human"], "rated": True, "seed": 12345}
    r = client.post("/api/tables", json=body, headers=H)
    assert r.status_code == 400 and "chosen seed" in r.json()["message"]
    client.cookies.clear()
    chosen = create(client, "lucent", ["me", "human"], seed=12345)
    assert client.get(f"/api/tables/{chosen['id']}").json()["seed_chosen"] is True
    assert 'data-testid="seed-chosen"' in client.get(f"/t/{chosen['id']}").text
    drawn = create(client, "lucent", ["me", "human"])
    assert client.get(f"/api/tables/{drawn['id']}").json()["seed_chosen"] is False
    assert 'data-testid="seed-chosen"' not in client.get(f"/t/{drawn['id']}").text


def test_one_seat_per_account_at_a_rated_table(client: TestClient) -> None:
    sign_up(client, "Ana")
    body = {"game": "pyramix", "seats": ["me", "human", "random"], "rated": True}
    created = client.post("/api/tables", json=body, headers=H).json()
    r = client.post("/api/seats/claim", json={"token": created["invites"][0]["token"]}, headers=H)
    assert r.status_code == 403 and "one seat each" in r.json()["message"]
    assert frame(client, created["id"])["status"]["phase"] == "waiting"


@pytest.mark.parametrize("msg_id", ["bot:1:7", "timeout:0:31", "mail:0:3", "rate", "a b", "é", "x" * 65])
def test_message_ids_cannot_pass_for_the_servers_jobs(client: TestClient, msg_id: str) -> None:
    created = create(client, "kuhnah", ["me", "human"])
    tokens = claim_all(client, created)
    mine = frame(client, created["id"], tokens[0])
    body = {"action": mine["actions"][0]["id"], "id": msg_id}
    r = client.post(f"/api/tables/{created['id']}/act", json=body, headers=bearer(tokens[0]))
    if msg_id == "rate":  # a plain word is a fine id
        assert r.status_code == 200
    else:
        assert r.status_code == 400 and "message id" in r.json()["message"]
        assert frame(client, created["id"])["n"] == mine["n"]


@pytest.mark.parametrize("n", ["x", 1.5, True, [1], {"a": 1}])
def test_undo_with_a_bad_event_number_is_a_clear_error(client: TestClient, n: Any) -> None:
    created = create(client, "kuhnah", ["me", "human"])
    tokens = claim_all(client, created)
    r = client.post(f"/api/tables/{created['id']}/undo", json={"n": n}, headers=bearer(tokens[0]))
    assert r.status_code == 400 and "'n'" in r.json()["message"]
    with client.websocket_connect(f"/api/tables/{created['id']}/ws") as ws:
        ws.send_json({"type": "hello", "token": tokens[0]})
        assert ws.receive_json()["type"] == "welcome"
        assert ws.receive_json()["type"] == "frame"
        ws.send_json({"type": "undo", "n": n, "id": "u1"})
        answers: list[dict[str, Any]] = []
        while len([a for a in answers if a["type"] != "presence"]) < 2:
            answers.append(ws.receive_json())  # presence notices may come in between
        kinds = [a["type"] for a in answers if a["type"] != "presence"]
        error = next(a for a in answers if a["type"] == "error")
        assert error["code"] == "bad_request" and error["id"] == "u1"
        assert kinds == ["error", "frame"]  # and a fresh frame: nothing wrong stays on the screen


def test_a_body_that_does_not_say_it_is_json_is_refused(client: TestClient) -> None:
    """A form of another site can post text/plain that looks like JSON (log a victim into your account)."""
    sign_up(client, "Mallory")
    client.cookies.clear()
    forged = b'{"name":"Mallory","password":"correct horse","x":"="}'
    r = client.post("/api/sessions", content=forged, headers={"content-type": "text/plain"})
    assert r.status_code == 400 and "Content-Type: application/json" in r.json()["message"]
    assert "zg_session" not in r.cookies
    r = client.post("/api/tables", content=b'{"game":"kuhnah","seats":["me","random"]}')
    assert r.status_code == 400


def test_a_huge_body_is_refused_before_it_is_read(client: TestClient) -> None:
    big = b'{"game": "' + b"k" * 200_000 + b'"}'
    r = client.post("/api/tables", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 400 and "too large" in r.json()["message"]

    def chunks():  # no Content-Length: read only up to the limit
        for _ in range(100):
            yield b" " * 10_000

    r = client.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 400 and "too large" in r.json()["message"]


def test_metrics_are_off_unless_asked_for(client: TestClient, sqlite_url: str) -> None:
    assert client.get("/api/metrics").status_code == 404
    assert client.post("/api/metrics/reset").status_code == 404
    with TestClient(create_app(Settings(db_url=sqlite_url, bot_delay=0, bot_workers=0, metrics=True))) as c:
        assert c.get("/api/metrics").json()["moves"] == 0


def test_whoever_creates_a_table_without_a_seat_gets_the_links(client: TestClient) -> None:
    created = create(client, "kuhnah", ["human", "human"])
    assert created["seat"] is None and len(created["invites"]) == 2
    page = client.get(f"/t/{created['id']}").text
    assert page.count("data-invite-seat=") == 2 and "data-unseated" in page  # filled from the address's fragment
    assert "data-reissue" not in page  # only a seated player makes new links


def test_a_players_page_shows_unlisted_tables_to_them_only(client: TestClient) -> None:
    sign_up(client, "Ana")
    hidden = client.post("/api/tables", json={"game": "kuhnah", "seats": ["me", "random"]}, headers=H).json()["id"]
    listed = client.post(
        "/api/tables", json={"game": "kuhnah", "seats": ["me", "random"], "public": True}, headers=H
    ).json()["id"]
    own = client.get("/u/Ana").text
    assert hidden in own and listed in own
    client.cookies.clear()
    other = client.get("/u/Ana").text
    assert hidden not in other and listed in other


def test_a_job_that_fails_is_tried_again(client: TestClient) -> None:
    """A database hiccup while a bot moves: the bot moves a little later, once."""
    srv = client.app.state.server
    srv.jobs.poll = 0.05
    created = client.post("/api/tables", json={"game": "lucent", "seats": ["me", "random"], "name": "Ana"}).json()
    client.cookies.clear()
    table, token = created["id"], created["token"]
    real = srv.writer.append
    failures = []

    async def flaky(table_id: str, rows: Any) -> bool:
        if rows and rows[0].seat == 1 and not failures:
            failures.append(rows[0].seq)
            raise OSError("the database went away (once)")
        return await real(table_id, rows)

    srv.writer.append = flaky
    mine = frame(client, table, token)
    client.post(f"/api/tables/{table}/act", json={"action": mine["actions"][0]["id"]}, headers=bearer(token))
    wait_for(lambda: frame(client, table)["status"]["to_move"] == [0] and failures)
    bot_moves = [e for e in frame(client, table)["log"] if e["kind"] == "move" and e["seat"] == 1]
    assert len(bot_moves) == 1


HOSTILE_BODIES = {
    "deep lists": b"[" * 30_000 + b"]" * 30_000,
    "deep objects": b'{"a":' * 10_000 + b"1" + b"}" * 10_000,
    "a huge integer": b'{"game": "kuhnah", "seats": ["me"], "seed": ' + b"9" * 5000 + b"}",
    "not a number": b'{"game": "kuhnah", "seats": ["me"], "seed": NaN}',
    "a lone surrogate": b'{"name": "\\ud800"}',
}


@pytest.mark.parametrize("body", list(HOSTILE_BODIES), ids=list(HOSTILE_BODIES))
def test_hostile_json_bodies_are_clear_400s(client: TestClient, body: str) -> None:
    json_header = {"Content-Type": "application/json", **H}
    for path in ("/api/tables", "/api/sessions", "/api/accounts", "/api/seats/claim"):
        r = client.post(path, content=HOSTILE_BODIES[body], headers=json_header)
        assert r.status_code == 400, (path, r.status_code, r.text)
        assert r.json()["error"] == "bad_request" and "JSON" in r.json()["message"]


@pytest.mark.parametrize("body", list(HOSTILE_BODIES), ids=list(HOSTILE_BODIES))
def test_hostile_socket_messages_get_an_error_frame_and_the_socket_stays(client: TestClient, body: str) -> None:
    created = create(client, "kuhnah", ["me", "random"])
    with client.websocket_connect(f"/api/tables/{created['id']}/ws") as ws:
        ws.send_json({"type": "hello", "token": created["token"]})
        while ws.receive_json()["type"] != "frame":
            pass
        raw = HOSTILE_BODIES[body]
        if len(raw) <= 16 * 1024:
            ws.send_text(raw.decode())
            while (m := ws.receive_json())["type"] != "error":
                pass
            assert m["code"] == "bad_request"
        ws.send_json({"type": "ping"})  # still served
        while ws.receive_json()["type"] != "pong":
            pass


def test_a_player_count_beyond_any_game_is_a_400(client: TestClient) -> None:
    r = client.get("/api/ratings", params={"game": "kuhnah", "players": "99999999999999999999999"})
    assert r.status_code == 400
    r = client.get("/api/ratings", params={"game": "kuhnah", "players": "7"})
    assert r.status_code == 400 and "2 to 6" in r.json()["message"]
    assert client.get("/ratings", params={"game": "kuhnah", "players": "99999999999999999999999"}).status_code in (
        200,
        400,
    )
