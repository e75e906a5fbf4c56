"""A seat belongs to its current secret only: the attacker's view, over real sockets.

For every way a secret is issued, used, replaced or revoked, whoever holds the old one (the creator who
sent an invite, a device the seat moved away from, a player who left or whose seat a bot took over, a
browser that logged out) gets no private frame and makes no move: over HTTP, and on a WebSocket that
was open before the change (it is told why and closed at once, with nothing more that was built for the
seat). The same across server processes, on both carriers of the news (PostgreSQL's NOTIFY, Redis).
Lucent deals every hand when the table is made: the hidden information an invite must not show.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets

from tests.server.util import LiveServer, ThreadedServer
from tests.server.wire import Socket
from ziggurat.server.app import Settings, create_app
from ziggurat.server.hub import CLOSE_SEAT_LOST

H = {"X-Ziggurat": "1"}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Clock:
    """The server's clock, moved by the test."""

    def __init__(self) -> None:
        self.at = dt.datetime(2026, 11, 25, 12, 0, tzinfo=dt.UTC)

    def __call__(self) -> dt.datetime:
        return self.at


@pytest.fixture
def wire(db_url: str) -> Iterator[tuple[ThreadedServer, Clock]]:
    """The app on real loopback sockets (SQLite and PostgreSQL), its clock in the test's hands."""
    server = ThreadedServer(create_app(Settings(db_url=db_url, bot_delay=0, bot_workers=0)))
    clock = Clock()
    srv = server.app.state.server
    srv.service.now = clock
    srv.jobs.poll = 0.05
    try:
        yield server, clock
    finally:
        server.stop()


def new_table(url: str, players: int = 2, **extra: Any) -> dict[str, Any]:
    body = {"game": "lucent", "seats": ["me"] + ["human"] * (players - 1), "name": "Ana", **extra}
    r = httpx.post(url + "/api/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def claim(url: str, invite: str, name: str) -> str:
    r = httpx.post(url + "/api/seats/claim", json={"token": invite, "name": name})
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


def seated_pair(url: str, **extra: Any) -> tuple[str, str, str]:
    """A two-player Lucent table with Ana (its creator) and Bea seated: its id and their secrets."""
    created = new_table(url, **extra)
    return created["id"], created["token"], claim(url, created["invites"][0]["token"], "Bea")


def refused_everywhere(url: str, table: str, secret: str, seat: int) -> None:
    """``secret`` shows nothing of a seat and acts for none, whatever it is asked."""
    for method, path, body in [
        ("GET", "frame", None),
        ("GET", "frame?format=html", None),
        ("GET", "record", None),
        ("POST", "act", {"action": 0}),
        ("POST", "act", {"text": "x"}),
        ("POST", "undo", {}),
        ("POST", "leave", {}),
        ("POST", "link", {}),
        ("POST", f"seats/{seat}/invite", {}),
        ("POST", f"seats/{seat}/replace", {}),
    ]:
        r = httpx.request(method, f"{url}/api/tables/{table}/{path}", json=body, headers=bearer(secret))
        assert r.status_code == 403, (method, path, r.status_code, r.text)
        assert r.json()["error"] == "forbidden"


async def refused_socket(ws_url: str, table: str, secret: str) -> None:
    """A socket that says hello with ``secret`` is refused and closed before any frame."""
    async with websockets.connect(f"{ws_url}/api/tables/{table}/ws") as ws:
        await ws.send(json.dumps({"type": "hello", "token": secret}))
        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert message["type"] == "error" and message["code"] == "forbidden", message
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), 10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403


async def loses_its_seat(sock: Socket) -> list[dict[str, Any]]:
    """Read ``sock`` until the server closes it: the last message says the seat is lost, the close code too;
    returns what came after the last frame it was sent (nothing but that message)."""
    frames_before = len(sock.frames)
    tail: list[dict[str, Any]] = []
    with pytest.raises(websockets.ConnectionClosed) as closed:
        while True:
            message = await sock.receive(timeout=15)
            tail.append(message)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_SEAT_LOST
    after = [m for m in tail if m["type"] != "frame"]
    assert after and after[-1]["type"] == "error" and after[-1]["code"] == "seat_lost", tail
    # nothing built for the seat once it was lost: the frames that arrived came before the error
    last_frame = max((i for i, m in enumerate(tail) if m["type"] == "frame"), default=-1)
    assert last_frame < tail.index(after[-1])
    assert len(sock.frames) - frames_before == last_frame + 1
    return tail


async def play_one(sock: Socket) -> None:
    """The seat of ``sock`` makes its first legal move (it must be its turn)."""
    await sock.sync()
    mine = sock.last
    assert mine is not None and mine["actions"], "it must be this seat's turn"
    answer = await sock.act(mine["actions"][0]["id"], mine["n"])
    assert answer["type"] == "ack", answer


def to_move(url: str, table: str) -> list[int]:
    return list(httpx.get(f"{url}/api/tables/{table}/frame").json()["status"]["to_move"])


# --------------------------------------------------------------------------------------------- invites
def test_an_invite_only_lets_its_holder_sit_down(wire: tuple[ThreadedServer, Clock]) -> None:
    server, _ = wire
    url = server.url
    created = new_table(url, players=3)
    table, ana = created["id"], created["token"]
    invites = {i["seat"]: i["token"] for i in created["invites"]}

    # whoever created the table holds the invites: they open no view, make no move, open no socket
    for seat, invite in invites.items():
        refused_everywhere(url, table, invite, seat)
        asyncio.run(refused_socket(server.ws_url, table, invite))
    # a seated player's new invite replaces the old one; neither shows anything
    r = httpx.post(f"{url}/api/tables/{table}/seats/2/invite", headers=bearer(ana))
    assert r.status_code == 200
    fresh = r.json()["token"]
    for gone in ("lookup", "claim"):
        r = httpx.post(f"{url}/api/seats/{gone}", json={"token": invites[2], "name": "Eve"})
        assert r.status_code == 404, r.text
    refused_everywhere(url, table, fresh, 2)
    asyncio.run(refused_socket(server.ws_url, table, fresh))

    # used: the friend gets a secret of their own; the invite is spent
    bea = claim(url, invites[1], "Bea")
    assert bea != invites[1]
    refused_everywhere(url, table, invites[1], 1)
    assert httpx.post(url + "/api/seats/claim", json={"token": invites[1], "name": "Eve"}).status_code == 404
    mine = httpx.get(f"{url}/api/tables/{table}/frame", headers=bearer(bea)).json()
    assert mine["seat"] == 1 and mine["view"]["hand"]  # her hand, for her
    # a seat taken from the lobby (public tables) spends its invite too
    public = new_table(url, public=True)
    invite = public["invites"][0]["token"]
    r = httpx.post(f"{url}/api/tables/{public['id']}/seats/1/claim", json={"name": "Cy"})
    assert r.status_code == 200, r.text
    assert httpx.post(url + "/api/seats/claim", json={"token": invite, "name": "Eve"}).status_code == 404
    refused_everywhere(url, public["id"], invite, 1)


# ------------------------------------------------------------------------------------- open sockets
def test_a_seat_moved_to_another_device_leaves_the_old_one_nothing(wire: tuple[ThreadedServer, Clock]) -> None:
    server, _ = wire
    url = server.url
    table, ana, bea = seated_pair(url)

    async def run() -> None:
        laptop = await Socket(server.ws_url, table, ana).open()
        other = await Socket(server.ws_url, table, bea).open()
        # a link for another device is an invite: until it is used, the laptop plays on
        r = httpx.post(f"{url}/api/tables/{table}/link", headers=bearer(ana))
        link = r.json()["token"]
        refused_everywhere(url, table, link, 0)
        await refused_socket(server.ws_url, table, link)
        newer = httpx.post(f"{url}/api/tables/{table}/link", headers=bearer(ana)).json()["token"]
        assert httpx.post(url + "/api/seats/claim", json={"token": link, "name": "x"}).status_code == 404
        seat = to_move(url, table)[0]
        await play_one(laptop if seat == 0 else other)
        await laptop.sync()
        # the phone opens the link: the seat moves there, the laptop's socket is told and closed at once
        phone_secret = claim(url, newer, "Ana")
        await loses_its_seat(laptop)
        refused_everywhere(url, table, ana, 0)
        await refused_socket(server.ws_url, table, ana)
        phone = await Socket(server.ws_url, table, phone_secret).open()
        assert phone.last is not None and phone.last["seat"] == 0 and phone.last["view"]["hand"]
        for _ in range(4):  # the game goes on; the laptop is sent nothing
            seat = to_move(url, table)[0]
            await play_one(phone if seat == 0 else other)
        for s in (phone, other):
            await s.close()

    asyncio.run(run())


def test_a_player_who_leaves_keeps_no_seat_on_any_socket(wire: tuple[ThreadedServer, Clock]) -> None:
    server, _ = wire
    url = server.url
    table, ana, bea = seated_pair(url)

    async def run() -> None:
        mine = await Socket(server.ws_url, table, bea).open()
        twin = await Socket(server.ws_url, table, bea).open()  # the same secret in a second tab
        assert httpx.post(f"{url}/api/tables/{table}/leave", headers=bearer(bea)).status_code == 200
        await loses_its_seat(mine)
        await loses_its_seat(twin)
        r = httpx.get(f"{url}/api/tables/{table}/frame", headers=bearer(bea))
        assert r.status_code == 403 and "you left" in r.json()["message"]
        refused_everywhere(url, table, bea, 1)
        await refused_socket(server.ws_url, table, bea)

    asyncio.run(run())
    assert httpx.get(f"{url}/api/tables/{table}/frame", headers=bearer(ana)).json()["seat"] == 0


def test_a_seat_a_bot_takes_over_is_taken_from_its_sockets(wire: tuple[ThreadedServer, Clock]) -> None:
    server, clock = wire
    url = server.url
    table, ana, bea = seated_pair(url, pace="realtime", clock=60, increment=0)
    first = to_move(url, table)[0]
    late, waiting = (ana, bea) if first == 0 else (bea, ana)

    async def run() -> None:
        sock = await Socket(server.ws_url, table, late).open()
        clock.at += dt.timedelta(seconds=61)  # their clock runs out: they may still look, not move
        for _ in range(300):
            f = httpx.get(f"{url}/api/tables/{table}/frame").json()
            if f["seats"][first].get("state") == "timeout":
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("the clock did not run out")
        await sock.sync()
        assert httpx.get(f"{url}/api/tables/{table}/frame", headers=bearer(late)).json()["seat"] == first
        # the other player hands the seat to a bot: from then on it is nobody's
        r = httpx.post(f"{url}/api/tables/{table}/seats/{first}/replace", headers=bearer(waiting))
        assert r.status_code == 200, r.text
        await loses_its_seat(sock)
        r = httpx.get(f"{url}/api/tables/{table}/frame", headers=bearer(late))
        assert r.status_code == 403 and "a bot plays this seat" in r.json()["message"]
        refused_everywhere(url, table, late, first)

    asyncio.run(run())


def test_logging_out_takes_the_seat_from_sockets_it_opened(wire: tuple[ThreadedServer, Clock]) -> None:
    server, _ = wire
    url = server.url
    with httpx.Client(base_url=url) as browser:
        r = browser.post("/api/accounts", json={"name": "Ana", "password": "correct horse battery"})
        assert r.status_code == 201, r.text
        r = browser.post("/api/tables", json={"game": "lucent", "seats": ["me", "human"]}, headers=H)
        assert r.status_code == 201, r.text
        table = r.json()["id"]
        session = browser.cookies["zg_session"]

    async def run() -> None:
        # another device: logged in, without the seat's cookie; its socket holds the seat through the account
        headers = {"Cookie": f"zg_session={session}", "Origin": url}
        ws = await websockets.connect(f"{server.ws_url}/api/tables/{table}/ws", additional_headers=headers)
        sock = Socket(server.ws_url, table)
        sock.ws = ws
        await sock.send({"type": "hello"})
        welcome = await sock.until(lambda m: m["type"] == "welcome")
        assert welcome["seat"] == 0
        await sock.until(lambda m: m["type"] == "frame")
        r = httpx.delete(url + "/api/sessions", headers={**H, "Cookie": f"zg_session={session}"})
        assert r.status_code == 200
        await loses_its_seat(sock)
        f = httpx.get(f"{url}/api/tables/{table}/frame", headers={"Cookie": f"zg_session={session}"}).json()
        assert f["seat"] is None and f["view"].get("hand") is None  # a spectator now

    asyncio.run(run())


def test_a_move_checked_under_the_lock_needs_the_seat_still(client: Any) -> None:
    """A move read while its secret held the seat, applied after the seat moved on: refused, nothing changes."""
    from ziggurat.server.service import SeatProof, ServiceError

    created = client.post("/api/tables", json={"game": "lucent", "seats": ["me", "human"], "name": "Ana"}).json()
    client.cookies.clear()
    table, ana = created["id"], created["token"]
    client.post("/api/seats/claim", json={"token": created["invites"][0]["token"], "name": "Bea"})
    client.cookies.clear()
    service = client.app.state.server.service
    live = service.tables[table]
    proof = SeatProof(ana)
    assert service.holder(live, proof) == 0
    link = client.post(f"/api/tables/{table}/link", headers=bearer(ana)).json()["token"]
    client.post("/api/seats/claim", json={"token": link, "name": "Ana"})  # the seat moves on meanwhile
    client.cookies.clear()
    before = live.seq

    async def late_move() -> str:
        try:
            await service.act(live, 0, 0, proof=proof)
        except ServiceError as exc:
            return exc.code
        return "applied"

    assert client.portal.call(late_move) == "forbidden"
    assert live.seq == before


# --------------------------------------------------------------------------------- several processes
@pytest.mark.slow
def test_a_seat_lost_in_one_process_closes_its_sockets_in_another(
    pg_url: str, live_server: type[LiveServer], bus: str | None
) -> None:
    a, b = live_server(pg_url, bus=bus), live_server(pg_url, bus=bus)
    with httpx.Client(base_url=a.url) as browser:
        r = browser.post("/api/accounts", json={"name": "Ana", "password": "correct horse battery"})
        assert r.status_code == 201, r.text
        r = browser.post("/api/tables", json={"game": "lucent", "seats": ["me", "human"]}, headers=H)
        created = r.json()
        table, ana = created["id"], created["token"]
        session = browser.cookies["zg_session"]
    bea = claim(a.url, created["invites"][0]["token"], "Bea")

    async def run() -> None:
        # Bea's socket on B; her seat moves to another device through A
        on_b = await Socket(b.ws_url, table, bea).open()
        link = httpx.post(f"{a.url}/api/tables/{table}/link", headers=bearer(bea)).json()["token"]
        claim(a.url, link, "Bea")
        await loses_its_seat(on_b)
        refused_everywhere(b.url, table, bea, 1)
        # Ana's account proves her seat on B (no seat cookie there); she logs out through A
        headers = {"Cookie": f"zg_session={session}", "Origin": b.url}
        ws = await websockets.connect(f"{b.ws_url}/api/tables/{table}/ws", additional_headers=headers)
        sock = Socket(b.ws_url, table)
        sock.ws = ws
        await sock.send({"type": "hello"})
        assert (await sock.until(lambda m: m["type"] == "welcome"))["seat"] == 0
        await sock.until(lambda m: m["type"] == "frame")
        r = httpx.delete(a.url + "/api/sessions", headers={**H, "Cookie": f"zg_session={session}"})
        assert r.status_code == 200
        await loses_its_seat(sock)
        # Ana's own secret still holds her seat, on either process
        for server in (a, b):
            assert httpx.get(f"{server.url}/api/tables/{table}/frame", headers=bearer(ana)).json()["seat"] == 0

    asyncio.run(run())
