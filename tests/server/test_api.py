"""The HTTP API in process: tables, seats, moves, resync, records, and every refusal.

Every refused request must name what was wrong and change nothing: the tests
compare the log and the state before and after.
"""

from __future__ import annotations

import html
import time

import pytest
from fastapi.testclient import TestClient

from tests.server.util import bearer, claim_all, create, frame, play_out, tokens_of
from ziggurat.core import GameRecord
from ziggurat.server.app import Settings, create_app


def snapshot(client: TestClient, table: str, tokens: dict[int, str]) -> list[dict]:
    """Everything every audience can see of a table."""
    return [frame(client, table, None)] + [frame(client, table, t) for _, t in sorted(tokens.items())]


# ----------------------------------------------------------------------------- creating
def test_create_lists_public_tables_only(client: TestClient) -> None:
    public = create(client, "kuhnah", ["me", "human"], public=True)
    hidden = create(client, "kuhnah", ["me", "human"])
    listed = [t["id"] for t in client.get("/api/tables").json()["tables"]]
    assert public["id"] in listed and hidden["id"] not in listed
    page = client.get("/")
    assert page.status_code == 200 and public["id"] in page.text and hidden["id"] not in page.text


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "chess", "seats": ["me", "random"]}, "no game called"),
        ({"game": "kuhnah", "seats": ["me"]}, "2 to 6 players"),
        ({"game": "kuhnah", "seats": ["me", "alphazero"]}, "the bots are"),
        ({"game": "kuhnah", "seats": ["me", "ismcts:9"]}, "level is 1 to 5"),
        ({"game": "kuhnah", "seats": ["me", "random:2"]}, "only ismcts has levels"),
        ({"game": "kuhnah", "seats": ["me", "me"]}, "only one seat"),
        ({"game": "kuhnah", "seats": ["me", "random"], "options": {"deck": "/etc/passwd"}}, "file on the server"),
        ({"game": "kuhnah", "seats": ["me", "random"], "options": {"open-jade": "maybe"}}, "true or false"),
        ({"game": "kuhnah", "seats": ["me", "random"], "options": {"colour": "red"}}, "no option"),
        ({"game": "kuhnah", "seats": ["me", "random"], "seed": -1}, "seed"),
        ({"game": "kuhnah", "seats": ["me", "random"], "seed": 1.5}, "seed"),
        ({"game": "kuhnah", "seats": [{"kind": "alien"}, "random"]}, "human or a bot"),
        ({"game": "kuhnah", "seats": ["me", "random"], "name": ""}, "your name"),
        ({"game": "kuhnah", "seats": ["me", "random"], "name": "x" * 41}, "at most 40"),
        ({"game": "kuhnah", "seats": ["me", "random"], "name": "a\x07b"}, "control characters"),
        ({"game": 3, "seats": ["me", "random"]}, "'game' must be"),
        ({"game": "kuhnah", "seats": "me,random"}, "'seats' must be a list"),
        ({"game": "kuhnah", "seats": ["me", "random"], "position": [1, 2]}, "saved state"),
        ({"game": "kuhnah", "seats": ["me", "random"], "position": {"format": "nope"}}, "start position"),
    ],
)
def test_bad_table_requests_are_refused_and_create_nothing(client: TestClient, body: dict, words: str) -> None:
    body.setdefault("name", "Ana")
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "bad_request"
    assert words in r.json()["message"]
    assert client.app.state.server.store.list_tables(public_only=False) == []


@pytest.mark.parametrize("raw", [b"{", b"[1, 2]", b'"text"', b"\xff\xfe", b"null"])
def test_bad_json_bodies(client: TestClient, raw: bytes) -> None:
    r = client.post("/api/tables", content=raw, headers={"Content-Type": "application/json"})
    assert r.status_code == 400
    assert r.json()["error"] == "bad_request" and r.json()["message"]


def test_unknown_tables_are_404(client: TestClient) -> None:
    for path in ("/api/tables/nosuchtable", "/api/tables/nosuchtable/frame", "/api/tables/../../etc/frame"):
        r = client.get(path)
        assert r.status_code == 404, path
    assert client.post("/api/tables/zzzzzzzzzz/act", json={"action": 0}).status_code == 404
    assert client.get("/t/zzzzzzzzzz").status_code == 404


# ------------------------------------------------------------------------------ seating
def test_invites_seat_players_and_the_game_waits_for_them(client: TestClient) -> None:
    created = create(client, "kuhnah", ["me", "human", "random"])
    table = created["id"]
    assert frame(client, table)["status"]["phase"] == "waiting"
    # nobody moves before every seat is taken
    r = client.post(f"/api/tables/{table}/act", json={"action": 0}, headers=bearer(created["token"]))
    assert r.status_code == 409 and r.json()["error"] == "not_started"
    invite = created["invites"][0]
    info = client.post("/api/seats/lookup", json={"token": invite["token"]}).json()
    assert info["seat"] == 1 and info["taken"] is False and info["game"] == "kuhnah"
    assert "seed" not in info
    r = client.post("/api/seats/claim", json={"token": invite["token"], "name": "  Bea  "})
    assert r.status_code == 200 and r.json()["seat"] == 1
    bea = r.json()["token"]  # the seat's own secret from now on: only Bea has it
    assert bea != invite["token"] and r.cookies.get(f"zg_{table}") == bea
    client.cookies.clear()
    f = frame(client, table)
    assert f["status"]["phase"] == "playing"
    assert [s.get("name") for s in f["seats"]] == ["Ana", "Bea", None]
    assert [e["kind"] for e in f["log"][:3]] == ["join", "join", "start"]
    # the invite link (which its sender knows too) opens nothing any more
    assert client.post("/api/seats/lookup", json={"token": invite["token"]}).status_code == 404
    assert client.post("/api/seats/claim", json={"token": invite["token"], "name": "Mallory"}).status_code == 404
    r = client.get(f"/api/tables/{table}/frame", headers=bearer(invite["token"]))
    assert r.status_code == 403
    # Bea's own secret opens her seat again (another device) without renaming it
    again = client.post("/api/seats/claim", json={"token": bea, "name": "Mallory"})
    assert again.status_code == 200 and again.json()["token"] == bea
    assert frame(client, table)["seats"][1]["name"] == "Bea"
    # and she can make a link that moves her seat to another device: an invite, which opens no seat by itself
    moved = client.post(f"/api/tables/{table}/link", headers=bearer(bea))
    link = moved.json()["token"]
    assert moved.status_code == 200 and moved.json()["url"].endswith("/join#" + link)
    assert client.get(f"/api/tables/{table}/frame", headers=bearer(link)).status_code == 403
    assert frame(client, table, bea)["seat"] == 1  # until it is used, she plays here
    there = client.post("/api/seats/claim", json={"token": link, "name": "Mallory"})
    assert there.status_code == 200 and there.json()["seat"] == 1
    client.cookies.clear()
    phone = there.json()["token"]  # the seat's new secret: only the other device has it
    assert phone not in (bea, link)
    assert frame(client, table, phone)["seat"] == 1 and frame(client, table)["seats"][1]["name"] == "Bea"
    assert client.get(f"/api/tables/{table}/frame", headers=bearer(bea)).status_code == 403
    assert client.post("/api/seats/claim", json={"token": link, "name": "Eve"}).status_code == 404  # spent
    assert client.post(f"/api/tables/{table}/link").status_code == 403  # a spectator has no seat


def test_bad_invites(client: TestClient) -> None:
    for token in ("", "short", "x" * 30, None, 5):
        r = client.post("/api/seats/lookup", json={"token": token})
        assert r.status_code == 404 and "not valid" in r.json()["message"]
    assert client.post("/api/seats/claim", json={"token": "y" * 32, "name": "Eve"}).status_code == 404


def test_new_invite_link_replaces_the_old_one(client: TestClient) -> None:
    created = create(client, "kuhnah", ["me", "human"])
    table, old = created["id"], created["invites"][0]["token"]
    r = client.post(f"/api/tables/{table}/seats/1/invite", headers=bearer(created["token"]))
    assert r.status_code == 200
    new = r.json()["token"]
    assert client.post("/api/seats/lookup", json={"token": old}).status_code == 404
    assert client.post("/api/seats/lookup", json={"token": new}).json()["seat"] == 1
    # a spectator cannot make invite links; a taken seat has none
    assert client.post(f"/api/tables/{table}/seats/1/invite").status_code == 403
    assert client.post(f"/api/tables/{table}/seats/0/invite", headers=bearer(created["token"])).status_code == 409


def test_open_seats_of_public_tables_can_be_taken_from_the_lobby(client: TestClient) -> None:
    public = create(client, "lucent", ["me", "human"], public=True)
    private = create(client, "lucent", ["me", "human"])
    r = client.post(f"/api/tables/{public['id']}/seats/1/claim", json={"name": "Cy"})
    assert r.status_code == 200 and r.json()["token"]
    client.cookies.clear()
    assert frame(client, public["id"])["status"]["phase"] == "playing"
    assert client.post(f"/api/tables/{public['id']}/seats/1/claim", json={"name": "Di"}).status_code == 409
    assert client.post(f"/api/tables/{private['id']}/seats/1/claim", json={"name": "Di"}).status_code == 403
    assert client.post(f"/api/tables/{public['id']}/seats/7/claim", json={"name": "Di"}).status_code == 404


# ------------------------------------------------------------------------------- acting
@pytest.fixture
def duel(client: TestClient) -> tuple[str, dict[int, str]]:
    """A two-human K'uh Nah table with both seats taken, seat 1 to move."""
    created = create(client, "kuhnah", ["me", "human"], seed=11)
    return created["id"], claim_all(client, created)


def test_every_refused_move_changes_nothing(client: TestClient, duel: tuple[str, dict[int, str]]) -> None:
    table, tokens = duel
    before = snapshot(client, table, tokens)
    mover = before[0]["status"]["to_move"][0]
    other = 1 - mover
    legal = frame(client, table, tokens[mover])["actions"][0]["id"]
    url = f"/api/tables/{table}/act"
    cases = [
        ({}, {"action": legal}, 403, "forbidden"),  # a spectator
        (bearer("not-a-seat-secret-at-all"), {"action": legal}, 403, "forbidden"),
        (bearer(tokens[other]), {"action": legal}, 409, "not_your_turn"),
        ({"Cookie": f"zg_{table}={tokens[mover]}"}, {"action": legal}, 403, "forbidden"),  # cookie without the header
        (bearer(tokens[mover]), {"action": 1.0}, 400, "bad_action"),
        (bearer(tokens[mover]), {"action": True}, 400, "bad_action"),
        (bearer(tokens[mover]), {"action": "3"}, 400, "bad_action"),
        (bearer(tokens[mover]), {"action": -1}, 400, "bad_action"),
        (bearer(tokens[mover]), {"action": 10**9}, 400, "bad_action"),
        (bearer(tokens[mover]), {"action": 40}, 409, "illegal"),
        (bearer(tokens[mover]), {"text": "fly away"}, 400, "bad_action"),
        (bearer(tokens[mover]), {"text": 7}, 400, "bad_action"),
        (bearer(tokens[mover]), {}, 400, "bad_request"),
        (bearer(tokens[mover]), {"action": legal, "text": "jade 1"}, 400, "bad_request"),
        (bearer(tokens[mover]), {"action": legal, "n": before[1 + mover]["n"] - 1}, 409, "stale"),
        (bearer(tokens[mover]), {"action": legal, "n": "now"}, 400, "bad_request"),
        (bearer(tokens[mover]), {"action": legal, "id": ""}, 400, "bad_request"),
        (bearer(tokens[mover]), {"action": legal, "id": "x" * 65}, 400, "bad_request"),
    ]
    for headers, body, status, code in cases:
        r = client.post(url, json=body, headers=headers)
        assert (r.status_code, r.json()["error"]) == (status, code), (body, r.text)
        assert r.json()["message"] and "Traceback" not in r.text
    r = client.post(url, content=b"{not json", headers={**bearer(tokens[mover]), "Content-Type": "application/json"})
    assert r.status_code == 400
    assert snapshot(client, table, tokens) == before
    # and the undo endpoint refuses spectators, strangers and cookies without the header the same way
    for headers in ({}, bearer("nope-nope-nope-nope"), {"Cookie": f"zg_{table}={tokens[mover]}"}):
        assert client.post(f"/api/tables/{table}/undo", json={}, headers=headers).status_code == 403
    assert snapshot(client, table, tokens) == before


def test_a_move_by_id_and_by_text(client: TestClient, duel: tuple[str, dict[int, str]]) -> None:
    table, tokens = duel
    f0 = frame(client, table)
    mover = f0["status"]["to_move"][0]
    mine = frame(client, table, tokens[mover])
    jade = next(a for a in mine["actions"] if a["text"].startswith("jade"))
    r = client.post(
        f"/api/tables/{table}/act", json={"text": jade["text"].upper(), "n": mine["n"]}, headers=bearer(tokens[mover])
    )
    assert r.status_code == 200 and r.json()["ok"] is True
    after = frame(client, table)
    last = after["log"][-1]
    assert {k: last[k] for k in ("kind", "seat", "text")} == {"kind": "move", "seat": mover, "text": jade["text"]}
    assert last["message"]["id"] == "kuhnah.jade"  # what moved, named (the page writes it in its language)
    assert after["status"]["to_move"] == [1 - mover]
    assert after["n"] == f0["n"] + 1


def test_a_retried_message_is_applied_once(client: TestClient, duel: tuple[str, dict[int, str]]) -> None:
    table, tokens = duel
    mover = frame(client, table)["status"]["to_move"][0]
    mine = frame(client, table, tokens[mover])
    body = {"action": mine["actions"][0]["id"], "n": mine["n"], "id": "msg-1"}
    first = client.post(f"/api/tables/{table}/act", json=body, headers=bearer(tokens[mover]))
    again = client.post(f"/api/tables/{table}/act", json=body, headers=bearer(tokens[mover]))
    assert first.status_code == again.status_code == 200
    assert again.json()["duplicate"] is True
    moves = [e for e in frame(client, table)["log"] if e["kind"] == "move"]
    assert len(moves) == 1


def test_resync_sends_the_log_from_where_the_client_was(client: TestClient, duel: tuple[str, dict[int, str]]) -> None:
    table, tokens = duel
    start = frame(client, table, tokens[0])["n"]
    for _ in range(3):
        mover = frame(client, table)["status"]["to_move"][0]
        mine = frame(client, table, tokens[mover])
        client.post(
            f"/api/tables/{table}/act", json={"action": mine["actions"][0]["id"]}, headers=bearer(tokens[mover])
        )
    full = frame(client, table, tokens[0])
    part = frame(client, table, tokens[0], since=start)
    assert part["n"] == full["n"] == start + 3
    assert part["log"] == full["log"][start:]
    assert frame(client, table, tokens[0], since=10**6)["log"] == []


# --------------------------------------------------------------------------------- undo
def test_undo_follows_the_bga_rule(client: TestClient, duel: tuple[str, dict[int, str]]) -> None:
    table, tokens = duel
    mover = frame(client, table)["status"]["to_move"][0]
    other = 1 - mover
    mine = frame(client, table, tokens[mover])
    assert mine["undo"] is False  # nothing to take back yet
    jade = next(a for a in mine["actions"] if a["text"].startswith("jade"))
    client.post(f"/api/tables/{table}/act", json={"action": jade["id"]}, headers=bearer(tokens[mover]))
    after = frame(client, table, tokens[mover])
    assert after["undo"] is True
    # the other player may not take it back for them
    r = client.post(f"/api/tables/{table}/undo", json={}, headers=bearer(tokens[other]))
    assert r.status_code == 409 and r.json()["error"] == "undo_refused"
    r = client.post(f"/api/tables/{table}/undo", json={"n": after["n"]}, headers=bearer(tokens[mover]))
    assert r.status_code == 200
    back = frame(client, table, tokens[mover])
    assert back["status"]["to_move"] == [mover]
    assert back["view"] == mine["view"]
    assert back["log"][-1] == {"kind": "undo", "seat": mover, "text": jade["text"]}
    # once the other player acted, it is too late
    client.post(f"/api/tables/{table}/act", json={"action": jade["id"]}, headers=bearer(tokens[mover]))
    theirs = frame(client, table, tokens[other])
    client.post(f"/api/tables/{table}/act", json={"action": theirs["actions"][0]["id"]}, headers=bearer(tokens[other]))
    r = client.post(f"/api/tables/{table}/undo", json={}, headers=bearer(tokens[mover]))
    assert r.status_code == 409 and "acted since" in r.json()["message"]


def test_no_undo_after_chance(client: TestClient, duel: tuple[str, dict[int, str]]) -> None:
    table, tokens = duel
    mover = frame(client, table)["status"]["to_move"][0]
    take = next(a for a in frame(client, table, tokens[mover])["actions"] if a["text"].startswith("take"))
    client.post(f"/api/tables/{table}/act", json={"action": take["id"]}, headers=bearer(tokens[mover]))
    assert frame(client, table, tokens[mover])["undo"] is True  # taken, not yet placed
    place = frame(client, table, tokens[mover])["actions"][0]
    client.post(f"/api/tables/{table}/act", json={"action": place["id"]}, headers=bearer(tokens[mover]))
    # the Quarry was refilled from the deck: a card was revealed
    assert frame(client, table, tokens[mover])["undo"] is False
    r = client.post(f"/api/tables/{table}/undo", json={}, headers=bearer(tokens[mover]))
    assert r.status_code == 409


# ------------------------------------------------------------------------ simultaneous
def test_simultaneous_choices_stay_private_until_everyone_has_chosen(client: TestClient) -> None:
    created = create(client, "kukulkan", ["me", "human"], seed=3)
    table = created["id"]
    tokens = claim_all(client, created)
    f = frame(client, table)
    assert f["status"]["simultaneous"] is True and sorted(f["status"]["to_move"]) == [0, 1]
    a = frame(client, table, tokens[0])
    first = a["actions"][0]
    client.post(f"/api/tables/{table}/act", json={"action": first["id"]}, headers=bearer(tokens[0]))
    mine = frame(client, table, tokens[0])
    theirs = frame(client, table, tokens[1])
    spectator = frame(client, table)
    assert mine["log"][-1]["text"] == first["text"] and mine["log"][-1]["private"] is True
    for other in (theirs, spectator):
        assert all(e.get("text") != first["text"] or e["seat"] != 0 for e in other["log"])
    # finish seat 1's round choice, then seat 2's: everything is shown
    while 0 in frame(client, table)["status"]["to_move"]:
        mine = frame(client, table, tokens[0])
        client.post(f"/api/tables/{table}/act", json={"action": mine["actions"][0]["id"]}, headers=bearer(tokens[0]))
    assert frame(client, table, tokens[1])["log"][-1] == {"kind": "ready", "seat": 0, "text": ""}
    assert frame(client, table)["status"]["ready"] == [0]
    while 1 in frame(client, table)["status"]["to_move"]:
        theirs = frame(client, table, tokens[1])
        client.post(f"/api/tables/{table}/act", json={"action": theirs["actions"][0]["id"]}, headers=bearer(tokens[1]))
    seen_by_2 = [e["text"] for e in frame(client, table, tokens[1])["log"] if e["kind"] == "move" and e["seat"] == 0]
    assert first["text"] in seen_by_2


# ---------------------------------------------------------------------- whole games
@pytest.mark.parametrize("game", ["kuhnah", "pyramix", "lucent", "kukulkan", "nakum"])
def test_whole_game_against_a_bot_then_records_and_replays(any_client: TestClient, game: str) -> None:
    client = any_client
    created = create(client, game, ["me", "random"], seed=5)
    table, tokens = created["id"], tokens_of(created)
    end = play_out(client, table, tokens, seed=1)
    assert end["status"]["outcome"]["ranks"]
    assert end["log"][-1]["kind"] == "end"
    # why it ended, for the final screen: one of the game's ends, in its words
    live_state = client.app.state.server.service.tables[table].state
    assert end["status"]["outcome"]["end"] == live_state.end_reason().to_json()
    # ... and the final screen says it, and says when the end is the site's and not the rulebook's
    reason = live_state.end_reason()
    status = frame(client, table, tokens[0], fmt="html")["html"]["status"]
    assert f'data-end="{reason.code}"' in status and html.escape(reason.text) in status
    assert ("not an end the rulebook gives" in status) is (not reason.printed)
    params = {"format": "html", "lang": "es"}
    spanish = client.get(f"/api/tables/{table}/frame", params=params, headers=bearer(tokens[0]))
    assert "La partida terminó:" in spanish.json()["html"]["status"]
    # the full record replays to the very state the server holds
    full = client.get(f"/api/tables/{table}/record", params={"full": True})
    assert full.status_code == 200
    record = GameRecord.from_json(full.json())
    live = client.app.state.server.service.tables[table].state
    assert record.replay() == live and record.seed is not None
    # a seat's record: only its own views
    mine = client.get(f"/api/tables/{table}/record", headers=bearer(tokens[0])).json()
    assert mine["format"] == "ziggurat-player-record" and mine["player"] == 0
    assert all(step["view"]["player"] == 0 for step in mine["steps"] if "player" in step["view"])
    assert sum(len(s["log"]) for s in mine["steps"]) == end["n"]
    # replay: one step per frame the audience could have been sent; the last is the end
    info = client.get(f"/api/tables/{table}/replay", params={"seat": "1"}).json()
    last = client.get(f"/api/tables/{table}/replay", params={"seat": "1", "step": info["steps"] - 1}).json()
    assert last["status"]["phase"] == "over" and last["n"] == frame(client, table, tokens[0])["n"]
    assert client.get(f"/api/tables/{table}/replay", params={"seat": "1", "step": info["steps"]}).status_code == 404
    # a fresh server process replays the stored log to the same state
    with TestClient(create_app(Settings(db_url=client.app.state.server.settings.db_url, bot_workers=0))) as fresh:
        assert fresh.get(f"/api/tables/{table}/frame").json() == frame(client, table)


def test_records_and_replays_during_play(client: TestClient, duel: tuple[str, dict[int, str]]) -> None:
    table, tokens = duel
    r = client.get(f"/api/tables/{table}/record", params={"full": True}, headers=bearer(tokens[0]))
    assert r.status_code == 403 and "over" in r.json()["message"]  # the seed stays secret while it runs
    assert client.get(f"/api/tables/{table}/record").status_code == 403  # spectators have no record
    assert client.get(f"/api/tables/{table}/replay", params={"seat": "1"}).status_code == 403
    assert client.get(f"/api/tables/{table}/replay", params={"seat": "spectator"}).status_code == 200
    assert client.get(f"/api/tables/{table}/replay", params={"seat": "9"}).status_code == 400
    record = client.get(f"/api/tables/{table}/record", headers=bearer(tokens[1])).json()
    assert record["player"] == 1 and "seed" not in str(record.keys())


def test_pages_render(client: TestClient, duel: tuple[str, dict[int, str]]) -> None:
    table, tokens = duel
    assert client.get("/").status_code == 200
    assert client.get("/join").status_code == 200
    page = client.get(f"/t/{table}")
    assert page.status_code == 200 and "You are watching" in page.text
    client.cookies.set(f"zg_{table}", tokens[0])
    seated = client.get(f"/t/{table}")
    assert "You play seat 1" in seated.text
    assert client.get(f"/t/{table}/replay").status_code == 200
    assert client.get("/static/table.js").status_code == 200
    client.cookies.set(f"zg_{table}", "forged-secret-value")
    bad = client.get(f"/t/{table}")  # a cookie that opens no seat (an old one, or forged) makes a spectator
    assert bad.status_code == 200 and "You are watching" in bad.text
    client.cookies.clear()


def test_idle_tables_leave_the_cache_and_come_back_the_same(
    client: TestClient, duel: tuple[str, dict[int, str]]
) -> None:
    table, tokens = duel
    mover = frame(client, table)["status"]["to_move"][0]
    mine = frame(client, table, tokens[mover])
    client.post(f"/api/tables/{table}/act", json={"action": mine["actions"][0]["id"]}, headers=bearer(tokens[mover]))
    before = [frame(client, table, t) for t in (None, tokens[0], tokens[1])]
    service = client.app.state.server.service
    assert service.evict_idle(idle=3600) == 0  # just used
    assert service.evict_idle(idle=-1) >= 1
    assert table not in service.tables
    assert [frame(client, table, t) for t in (None, tokens[0], tokens[1])] == before


def test_a_seat_taken_elsewhere_while_the_table_loads_here_is_shown_all_the_same(client: TestClient) -> None:
    """Another process seats someone and says so while this one is still reading the table: the notice is
    kept until the table is loaded, so the older snapshot is caught up instead of shown for ever."""
    created = create(client, "kuhnah", ["me", "human"], seed=11)
    table = created["id"]
    service = client.app.state.server.service
    assert service.evict_idle(idle=-1) >= 1 and table not in service.tables
    store = service.store
    original = store.load_table

    def load_while_someone_sits_down(table_id: str) -> object:
        record = original(table_id)  # the snapshot: seat 2 still open
        assert store.claim_seat(table_id, 1, "Bea", "0" * 64)  # seated by another process...
        client.portal.call(service.on_notice, f"s:{table_id}")  # ...which says so before this load ends
        return record

    store.load_table = load_while_someone_sits_down
    try:
        names = [s.get("name") for s in client.get(f"/api/tables/{table}").json()["seats"]]
    finally:
        store.load_table = original
    deadline = time.monotonic() + 10
    while "Bea" not in names:
        assert time.monotonic() < deadline, names
        time.sleep(0.02)
        names = [s.get("name") for s in client.get(f"/api/tables/{table}").json()["seats"]]
