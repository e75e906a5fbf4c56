"""Accounts, paces and clocks, leaving, ratings and "your turn" mails.

Time is the server's clock, which these tests move by hand (``service.now``);
mail goes to a real SMTP server (aiosmtpd) listening on loopback.
"""

from __future__ import annotations

import datetime as dt
import random
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from tests.server.util import bearer, frame
from ziggurat.server.app import Settings, create_app
from ziggurat.server.db import results, users
from ziggurat.server.ratings import new_ratings

H = {"X-Ziggurat": "1"}


def sign_up(client: TestClient, name: str, email: str | None = None) -> dict[str, Any]:
    body = {"name": name, "password": "correct horse"}
    if email:
        body["email"] = email
    r = client.post("/api/accounts", json=body, headers=H)
    assert r.status_code == 201, r.text
    return r.json()


def log_in(client: TestClient, name: str) -> None:
    client.cookies.clear()
    assert client.post("/api/sessions", json={"name": name, "password": "correct horse"}, headers=H).status_code == 200


class Clock:
    """The server's clock, moved by the test."""

    def __init__(self) -> None:
        self.at = dt.datetime(2026, 11, 23, 12, 0, tzinfo=dt.UTC)

    def __call__(self) -> dt.datetime:
        return self.at

    def advance(self, seconds: float) -> None:
        self.at += dt.timedelta(seconds=seconds)


@pytest.fixture
def clocked(sqlite_url: str) -> Iterator[tuple[TestClient, Clock]]:
    clock = Clock()
    with TestClient(create_app(Settings(db_url=sqlite_url, bot_delay=0, bot_workers=0))) as c:
        c.app.state.server.service.now = clock
        c.app.state.server.jobs.poll = 0.05
        yield c, clock


def wait_for(predicate: Any, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


# ------------------------------------------------------------------------------ accounts
def test_sign_up_log_in_and_out(client: TestClient) -> None:
    sign_up(client, "Ana", "ana@example.org")
    assert client.get("/api/me").json()["name"] == "Ana"
    cookie = client.cookies.jar._cookies  # type: ignore[attr-defined]
    session = next(c for d in cookie.values() for p in d.values() for c in p.values() if c.name == "zg_session")
    assert session.has_nonstandard_attr("HttpOnly")
    # names are unique whatever their case; bad names and passwords are refused clearly
    client.cookies.clear()
    assert client.post("/api/accounts", json={"name": "ANA", "password": "x" * 8}, headers=H).status_code == 409
    for body, words in [
        ({"name": "a", "password": "long enough"}, "user name"),
        ({"name": "<script>", "password": "long enough"}, "user name"),
        ({"name": "Bea", "password": "short"}, "password"),
        ({"name": "Bea", "password": "long enough", "email": "not-mail"}, "e-mail"),
    ]:
        r = client.post("/api/accounts", json=body, headers=H)
        assert r.status_code == 400 and words in r.json()["message"]
    # a wrong password and an unknown name get the same answer
    wrong = client.post("/api/sessions", json={"name": "Ana", "password": "incorrect"}, headers=H)
    nobody = client.post("/api/sessions", json={"name": "Zed", "password": "incorrect"}, headers=H)
    assert wrong.status_code == nobody.status_code == 403 and wrong.json() == nobody.json()
    log_in(client, "ana")
    assert client.get("/api/me").status_code == 200
    assert client.delete("/api/sessions").status_code == 403  # no X-Ziggurat header: refused
    assert client.delete("/api/sessions", headers=H).status_code == 200
    assert client.get("/api/me").status_code == 403
    # passwords are kept as Argon2id hashes only
    engine = client.app.state.server.engine
    with engine.connect() as conn:
        stored = conn.execute(select(users.c.password_hash)).scalars().all()
    assert stored and all(h.startswith("$argon2id$") and "correct horse" not in h for h in stored)


def test_forms_need_their_csrf_token(client: TestClient) -> None:
    page = client.get("/signup")
    token = client.cookies.get("zg_csrf")
    assert token and f'value="{token}"' in page.text
    forged = client.post("/signup", data={"name": "Cy", "password": "long enough", "csrf": "forged"})
    assert forged.status_code == 403 and client.get("/api/me").status_code == 403
    ok = client.post("/signup", data={"name": "Cy", "password": "long enough", "csrf": token}, follow_redirects=False)
    assert ok.status_code == 303 and ok.headers["location"] == "/u/Cy"
    assert client.get("/api/me").json()["name"] == "Cy"
    assert client.get("/u/Cy").status_code == 200
    out = client.post("/logout", data={"csrf": "forged"})
    assert out.status_code == 403 and client.get("/api/me").status_code == 200
    client.post("/logout", data={"csrf": token})
    assert client.get("/api/me").status_code == 403


def test_a_players_tables_and_turns(client: TestClient) -> None:
    sign_up(client, "Ana")
    r = client.post("/api/tables", json={"game": "kuhnah", "seats": ["me", "random"]}, headers=H)
    assert r.status_code == 201
    table = r.json()["id"]
    me = client.get("/api/me").json()
    assert [g["id"] for g in me["games"]] == [table] and me["your_turn"] == [table]
    page = client.get("/u/Ana")
    assert table in page.text and "Your turn" in page.text
    assert client.get("/u/Nobody").status_code == 404
    # a session cookie without the X-Ziggurat header cannot create tables (another site's page could)
    refused = client.post("/api/tables", json={"game": "kuhnah", "seats": ["me", "random"]})
    assert refused.status_code == 403


# ---------------------------------------------------------------------- rated games
def play_to_end(client: TestClient, table: str, tokens: dict[int, str], seed: int = 0) -> dict[str, Any]:
    rng = random.Random(seed)
    for _ in range(3000):
        f = frame(client, table)
        if f["status"]["phase"] == "over":
            return f
        for seat in f["status"]["to_move"]:
            if seat in tokens:
                mine = frame(client, table, tokens[seat])
                if mine["actions"]:
                    client.post(
                        f"/api/tables/{table}/act",
                        json={"action": rng.choice(mine["actions"])["id"], "n": mine["n"]},
                        headers=bearer(tokens[seat]),
                    )
        time.sleep(0.005)
    raise AssertionError("no end")


def rated_duel(client: TestClient, game: str = "lucent", **extra: Any) -> tuple[str, dict[int, str]]:
    sign_up(client, "Ana")
    body = {"game": game, "seats": ["me", "human"], "rated": True, **extra}
    created = client.post("/api/tables", json=body, headers=H).json()
    invite = created["invites"][0]["token"]
    client.cookies.clear()
    guest = client.post("/api/seats/claim", json={"token": invite, "name": "Guest"})
    assert guest.status_code == 403 and "log in" in guest.json()["message"]
    sign_up(client, "Bea")
    seated = client.post("/api/seats/claim", json={"token": invite}, headers=H)
    assert seated.status_code == 200
    client.cookies.clear()
    return created["id"], {0: created["token"], 1: seated.json()["token"]}


def test_a_rated_game_moves_the_ratings_once(client: TestClient) -> None:
    client.cookies.clear()
    r = client.post("/api/tables", json={"game": "kuhnah", "seats": ["me", "random"], "rated": True, "name": "G"})
    assert r.status_code == 403  # ratings belong to accounts
    table, tokens = rated_duel(client)
    end = play_to_end(client, table, tokens)
    ranks = end["status"]["outcome"]["ranks"]
    srv = client.app.state.server
    wait_for(lambda: len(srv.ratings.leaderboard("lucent", 2)) == 2)
    board = {r.subject: r for r in srv.ratings.leaderboard("lucent", 2)}
    expected = new_ratings([(25.0, 25 / 3), (25.0, 25 / 3)], ranks, [True, True])
    ana, bea = board["user:1"], board["user:2"]
    assert (ana.mu, ana.sigma) == pytest.approx(expected[0]) and (bea.mu, bea.sigma) == pytest.approx(expected[1])
    assert ana.games == bea.games == 1
    live = srv.service.tables[table]
    assert srv.ratings.rate_table(live) is False  # once only
    assert srv.ratings.leaderboard("lucent", 2)[0].games == 1
    page = client.get("/ratings", params={"game": "lucent", "players": 2})
    assert "Ana" in page.text and "Bea" in page.text
    assert [x["name"] for x in client.get("/api/ratings", params={"game": "lucent", "players": 2}).json()["ratings"]]


def test_a_player_who_leaves_is_replaced_and_rated_last(client: TestClient) -> None:
    table, tokens = rated_duel(client)
    assert client.post(f"/api/tables/{table}/leave").status_code == 403  # a spectator has no seat
    r = client.post(f"/api/tables/{table}/leave", headers=bearer(tokens[1]))
    assert r.status_code == 200
    f = frame(client, table)
    assert f["seats"][1]["state"] == "left" and f["log"][-1]["kind"] == "left"
    again = client.post(f"/api/tables/{table}/leave", headers=bearer(tokens[1]))  # the seat is not theirs now
    assert again.status_code == 403 and "you left this table" in again.json()["message"]
    end = play_to_end(client, table, {0: tokens[0]})  # the bot plays seat 2 to the end
    assert end["status"]["phase"] == "over"
    srv = client.app.state.server
    wait_for(lambda: srv.service.tables[table].status == "over" and len(srv.ratings.leaderboard("lucent", 2)) == 1)
    board = srv.ratings.leaderboard("lucent", 2)
    assert [r.subject for r in board] == ["user:2"] and board[0].mu < 25  # only the leaver moved, down
    with srv.engine.connect() as conn:
        rows = {r.seat: r for r in conn.execute(select(results).where(results.c.table_id == table))}
    assert rows[1].left and rows[1].counted and not rows[0].counted


# --------------------------------------------------------------------------- clocks
def test_a_realtime_clock_runs_out(clocked: tuple[TestClient, Clock]) -> None:
    client, clock = clocked
    body = {"game": "kuhnah", "seats": ["me", "human"], "name": "Ana", "pace": "realtime", "clock": 60, "increment": 5}
    created = client.post("/api/tables", json=body).json()
    client.cookies.clear()
    table, ana, invite = created["id"], created["token"], created["invites"][0]["token"]
    bea = client.post("/api/seats/claim", json={"token": invite, "name": "Bea"}).json()["token"]
    client.cookies.clear()
    clock.advance(10)  # Ana thinks for 10 s, then moves: 60 - 10 + 5
    mine = frame(client, table, ana)
    jade = next(a for a in mine["actions"] if a["text"].startswith("jade"))
    client.post(f"/api/tables/{table}/act", json={"action": jade["id"]}, headers=bearer(ana))
    status = frame(client, table)["status"]
    assert status["clock"]["left_ms"] == [55_000, 60_000] and list(status["clock"]["running"]) == ["1"]
    clock.advance(59)
    client.app.state.server.jobs.wake()
    time.sleep(0.3)
    assert frame(client, table)["seats"][1].get("state") is None  # 59 s: still in time
    theirs = frame(client, table, bea)  # what she could do while in time
    clock.advance(2)
    client.app.state.server.jobs.wake()
    wait_for(lambda: frame(client, table)["seats"][1].get("state") == "timeout")
    log = frame(client, table)["log"]
    assert [e["kind"] for e in log].count("timeout") == 1
    # out of time, Bea cannot move (her page offers nothing); Ana decides that a bot plays on for her
    assert frame(client, table, bea)["actions"] == []
    refused = client.post(f"/api/tables/{table}/act", json={"action": theirs["actions"][0]["id"]}, headers=bearer(bea))
    assert refused.status_code == 403 and "out of time" in refused.json()["message"]
    assert client.post(f"/api/tables/{table}/seats/1/replace", headers=bearer(bea)).status_code == 403
    assert client.post(f"/api/tables/{table}/seats/1/replace", headers=bearer(ana)).status_code == 200
    wait_for(lambda: frame(client, table)["status"]["to_move"] == [0])  # the bot moved for her
    assert frame(client, table)["seats"][1]["state"] == "replaced"


def test_a_seat_out_of_time_or_played_by_a_bot_is_never_told_it_is_its_turn(
    clocked: tuple[TestClient, Clock],
) -> None:
    """Its page shows no move, the board does not say "Your turn", the side panel says what happened."""
    client, clock = clocked
    body = {"game": "lucent", "seats": ["me", "human"], "name": "Ana", "pace": "realtime", "clock": 60, "increment": 0}
    created = client.post("/api/tables", json=body).json()
    client.cookies.clear()
    table, ana, invite = created["id"], created["token"], created["invites"][0]["token"]
    bea = client.post("/api/seats/claim", json={"token": invite, "name": "Bea"}).json()["token"]
    client.cookies.clear()
    mine = frame(client, table, ana, fmt="html")
    assert mine["actions"] and "Your turn" in mine["html"]["board"] and "Your turn." in mine["html"]["status"]
    clock.advance(61)
    client.app.state.server.jobs.wake()
    wait_for(lambda: frame(client, table)["seats"][0].get("state") == "timeout")
    late = frame(client, table, ana, fmt="html")
    assert late["status"]["to_move"] == [0] and late["actions"] == []
    assert "Your turn" not in late["html"]["board"] and "Your turn" not in late["html"]["status"]
    assert "You ran out of time" in late["html"]["status"]
    client.app.state.server.jobs.delay = 3600.0  # the bot that takes the seat waits: look at the seat meanwhile
    assert client.post(f"/api/tables/{table}/seats/0/replace", headers=bearer(bea)).status_code == 200
    # her secret opens the seat no more (her page reloads as a spectator's): it says why, and shows no move
    r = client.get(f"/api/tables/{table}/frame", headers=bearer(ana))
    assert r.status_code == 403 and r.json()["message"] == "a bot plays this seat now (its time ran out)"
    watched = frame(client, table, fmt="html")
    assert watched["seats"][0]["state"] == "replaced" and watched["status"]["to_move"] == [0]
    assert watched["actions"] == [] and "Your turn" not in watched["html"]["board"] + watched["html"]["status"]


def test_a_turn_deadline_against_bots_hands_the_seat_to_a_bot(clocked: tuple[TestClient, Clock]) -> None:
    client, clock = clocked
    body = {"game": "lucent", "seats": ["me", "random"], "name": "Ana", "pace": "turn", "turn_seconds": 3600}
    created = client.post("/api/tables", json=body).json()
    client.cookies.clear()
    table = created["id"]
    f = frame(client, table)
    assert f["status"]["clock"]["deadline"] == {"0": int((clock.at + dt.timedelta(hours=1)).timestamp() * 1000)}
    clock.advance(3601)
    client.app.state.server.jobs.wake()
    wait_for(lambda: frame(client, table)["seats"][0].get("state") == "replaced")  # nobody else to decide
    wait_for(lambda: frame(client, table)["status"]["phase"] == "over")  # bots finish the game
    kinds = [e["kind"] for e in frame(client, table)["log"]]
    assert kinds.count("timeout") == 1 and kinds.count("replaced") == 1


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"pace": "blitz"}, "pace"),
        ({"pace": "realtime"}, "clock"),
        ({"pace": "realtime", "clock": 5}, "clock"),
        ({"pace": "turn", "turn_seconds": 10}, "time for a move"),
        ({"pace": "live", "clock": 60}, "no clock"),
    ],
)
def test_bad_paces(client: TestClient, body: dict, words: str) -> None:
    r = client.post("/api/tables", json={"game": "kuhnah", "seats": ["me", "random"], "name": "A", **body})
    assert r.status_code == 400 and words in r.json()["message"]


# ----------------------------------------------------------------------------- mail
def test_your_turn_mails_in_turn_based_games(sqlite_url: str, smtp_sink: tuple[str, list[Any]]) -> None:
    address, received = smtp_sink
    settings = Settings(db_url=sqlite_url, bot_delay=0, bot_workers=0, smtp=address, public_url="https://zig.example")
    with TestClient(create_app(settings)) as client:
        client.app.state.server.jobs.poll = 0.05
        sign_up(client, "Ana", "ana@example.org")
        body = {"game": "lucent", "seats": ["me", "random"], "pace": "turn", "turn_seconds": 86400}
        created = client.post("/api/tables", json=body, headers=H).json()
        client.cookies.clear()
        table, token = created["id"], created["token"]
        wait_for(lambda: len(received) == 1)
        message = received[0]
        assert message.rcpt_tos == ["ana@example.org"]
        text = message.content.decode()
        assert "Your turn in Lucent" in text and f"https://zig.example/t/{table}" in text
        for _ in range(3):  # each new turn, one more mail
            before = len(received)
            mine = frame(client, table, token)
            client.post(f"/api/tables/{table}/act", json={"action": mine["actions"][0]["id"]}, headers=bearer(token))
            wait_for(
                lambda: (
                    frame(client, table)["status"]["to_move"] == [0]
                    or frame(client, table)["status"]["phase"] == "over"
                )
            )
            if frame(client, table)["status"]["phase"] == "over":
                break
            wait_for(lambda b=before: len(received) == b + 1)
        time.sleep(0.3)
        turns = sum(1 for e in frame(client, table, token)["log"] if e["kind"] == "move" and e["seat"] == 1)
        assert len(received) == turns + 1  # one mail for each of her turns, never two
    # a live table sends none
    with TestClient(create_app(settings)) as client:
        sign_up(client, "Cy", "cy@example.org")
        client.post("/api/tables", json={"game": "lucent", "seats": ["me", "random"]}, headers=H)
        time.sleep(0.5)
        assert all(m.rcpt_tos != ["cy@example.org"] for m in received)


def test_calibrated_bots_get_ratings(client: TestClient) -> None:
    from ziggurat.server.ratings import calibrate

    board = calibrate(client.app.state.server.ratings, "lucent", 2, ["random", "greedy"], games=20, seed=3)
    assert set(board) == {"bot:random", "bot:greedy"}
    assert board["bot:greedy"].mu > board["bot:random"].mu


def test_the_same_bot_at_two_seats_is_rated_once_by_its_better_seat(client: TestClient) -> None:
    sign_up(client, "Ana")
    body = {"game": "lucent", "seats": ["me", "greedy", "greedy"], "rated": True}
    created = client.post("/api/tables", json=body, headers=H).json()
    client.cookies.clear()
    end = play_to_end(client, created["id"], {0: created["token"]})
    ranks = end["status"]["outcome"]["ranks"]
    srv = client.app.state.server
    wait_for(lambda: len(srv.ratings.leaderboard("lucent", 3)) == 2)
    board = {r.subject: r for r in srv.ratings.leaderboard("lucent", 3)}
    assert board["bot:greedy"].games == board["user:1"].games == 1
    start = (25.0, 25 / 3)
    expected = new_ratings([start, start], [ranks[0], min(ranks[1], ranks[2])], [True, True])
    assert (board["user:1"].mu, board["bot:greedy"].mu) == pytest.approx((expected[0][0], expected[1][0]))
    with srv.engine.connect() as conn:
        rows = {r.seat: r for r in conn.execute(select(results).where(results.c.table_id == created["id"]))}
    assert len(rows) == 3 and sum(r.counted for r in rows.values()) == 2  # one result row per seat


def test_a_table_with_non_printed_parameters_is_never_rated(client: TestClient) -> None:
    sign_up(client, "Cai")
    body = {"game": "kuhnah", "seats": ["me", "random"], "rated": True, "options": {"start-jade": 5}}
    r = client.post("/api/tables", json=body, headers=H)
    assert r.status_code == 400 and "cannot be rated" in r.json()["message"]
    # unrated it may be played; the ratings never take it even if it were marked rated
    body["rated"] = False
    created = client.post("/api/tables", json=body, headers=H)
    assert created.status_code == 201, created.text
    srv = client.app.state.server
    live = srv.service.tables[created.json()["id"]]
    assert live.game.options["start-jade"] == 5
    marked = SimpleNamespace(status="over", record=SimpleNamespace(rated=True), game=live.game)
    assert srv.ratings.rate_table(marked) is False  # type: ignore[arg-type]
    page = client.get(f"/t/{created.json()['id']}")
    assert "not the printed rules: parameters changed" in page.text and "start-jade: 5" in page.text
    games = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    assert all(not o.get("param") and o["name"] != "start-jade" for o in games["kuhnah"]["options"])
