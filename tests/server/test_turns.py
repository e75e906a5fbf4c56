"""Turns, clocks and taking back, as each audience sees them.

A turn lasts from when a seat is asked to decide until it is not any more, so
that clocks and deadlines change only with what everyone sees; a choice of a
simultaneous round may be taken back until the round is over, whatever the
others did; only the person at a seat takes back, and never a move that showed
them something hidden.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.test_community import Clock
from tests.server.util import bearer, claim_all, create, frame
from ziggurat.server.app import Settings, create_app


@pytest.fixture
def timed(sqlite_url: str) -> Iterator[tuple[TestClient, Clock]]:
    clock = Clock()
    with TestClient(create_app(Settings(db_url=sqlite_url, bot_delay=0, bot_workers=0))) as c:
        c.app.state.server.service.now = clock
        yield c, clock


def act(client: TestClient, table: str, token: str, text_start: str = "", index: int = 0) -> dict[str, Any]:
    mine = frame(client, table, token)
    choices = [a for a in mine["actions"] if a["text"].startswith(text_start)]
    r = client.post(
        f"/api/tables/{table}/act", json={"action": choices[index]["id"], "n": mine["n"]}, headers=bearer(token)
    )
    assert r.status_code == 200, r.text
    return choices[index]


def public(f: dict[str, Any]) -> tuple[Any, ...]:
    """What a frame says that is not the time of day."""
    clock = dict(f["status"].get("clock") or {})
    clock.pop("now", None)
    return f["n"], f["status"]["to_move"], f["status"]["ready"], clock, f["seats"], f["undo"]


def test_private_choices_move_no_clock_and_no_deadline(timed: tuple[TestClient, Clock]) -> None:
    client, clock = timed
    for pace in ({"pace": "realtime", "clock": 600, "increment": 30}, {"pace": "turn", "turn_seconds": 3600}):
        created = create(client, "kukulkan", ["me", "human"], seed=5, **pace)
        table = created["id"]
        tokens = claim_all(client, created)
        clock.advance(7)
        before = [public(frame(client, table, tokens[1])), public(frame(client, table))]
        for _ in range(2):  # seat 1 draws segment by segment: its own business until it is ready
            act(client, table, tokens[0], "draw")
            clock.advance(3)
            after = [public(frame(client, table, tokens[1])), public(frame(client, table))]
            assert after == before
        # its own clock has not restarted either: one turn, begun when the round began
        mine = frame(client, table, tokens[0])["status"]["clock"]
        theirs = frame(client, table, tokens[1])["status"]["clock"]
        assert mine["running"] == theirs["running"] and mine["running"]["0"] == mine["running"]["1"]


def test_a_turn_of_several_decisions_earns_one_increment(timed: tuple[TestClient, Clock]) -> None:
    client, clock = timed
    created = create(client, "kuhnah", ["me", "human"], seed=2, pace="realtime", clock=60, increment=5)
    table = created["id"]
    tokens = claim_all(client, created)
    clock.advance(10)
    act(client, table, tokens[0], "take")  # a card, then where it goes: one turn of two decisions
    assert frame(client, table)["status"]["clock"]["left_ms"] == [60_000, 60_000]  # still thinking
    clock.advance(4)
    act(client, table, tokens[0], "base")
    assert frame(client, table)["status"]["clock"]["left_ms"] == [60_000 - 14_000 + 5_000, 60_000]


def test_taking_back_the_decision_that_ended_a_turn_gives_no_time(timed: tuple[TestClient, Clock]) -> None:
    client, clock = timed
    created = create(client, "kuhnah", ["me", "human"], seed=2, pace="realtime", clock=60, increment=5)
    table = created["id"]
    tokens = claim_all(client, created)
    started = frame(client, table)["status"]["clock"]["running"]["0"]
    clock.advance(10)
    act(client, table, tokens[0], "jade")
    assert frame(client, table)["status"]["clock"]["left_ms"][0] == 55_000
    clock.advance(2)
    r = client.post(f"/api/tables/{table}/undo", json={}, headers=bearer(tokens[0]))
    assert r.status_code == 200, r.text
    status = frame(client, table)["status"]
    assert status["clock"]["left_ms"][0] == 60_000 and status["clock"]["running"]["0"] == started  # as before


def test_a_simultaneous_choice_is_taken_back_whatever_the_others_did(client: TestClient) -> None:
    created = create(client, "kukulkan", ["me", "human"], seed=3)
    table = created["id"]
    tokens = claim_all(client, created)
    mine = act(client, table, tokens[0], "draw")
    assert frame(client, table, tokens[0])["undo"] is True
    theirs = act(client, table, tokens[1], "draw")  # seat 2 chooses too, in private
    a = frame(client, table, tokens[0])
    assert a["undo"] is True  # nothing about seat 2 shows here
    r = client.post(f"/api/tables/{table}/undo", json={"n": a["n"]}, headers=bearer(tokens[0]))
    assert r.status_code == 200, r.text
    assert frame(client, table, tokens[0])["log"][-1] == {
        "kind": "undo",
        "seat": 0,
        "text": mine["text"],
        "private": True,
    }
    b = frame(client, table, tokens[1])  # seat 2's choice stands, and seat 2 saw nothing of seat 1's
    assert b["log"][-1]["text"] == theirs["text"] and all(e["seat"] != 0 for e in b["log"] if e["kind"] == "undo")
    assert b["n"] == 4 and frame(client, table)["n"] == 3
    live = client.app.state.server.service.tables[table]
    choices = [(p.row.seat, p.text) for p in live.played if p.simultaneous]
    assert choices == [(1, theirs["text"])]  # the state holds seat 2's choice only


def test_no_taking_back_a_play_that_showed_something_of_a_hidden_hand(client: TestClient) -> None:
    created = create(client, "lucent", ["me", "human", "human"], seed=1)
    table = created["id"]
    tokens = claim_all(client, created)
    live = client.app.state.server.service.tables[table]
    rng = random.Random(1)
    refused = allowed = 0
    for _ in range(60):
        f = frame(client, table)
        if f["status"]["phase"] == "over":
            break
        seat = f["status"]["to_move"][0]
        mine = frame(client, table, tokens[seat])
        choice = rng.choice(mine["actions"])
        before = live.state.clone()
        client.post(f"/api/tables/{table}/act", json={"action": choice["id"]}, headers=bearer(tokens[seat]))
        reveals = before.reveals_hidden(choice["id"], seat)
        if frame(client, table)["status"]["phase"] == "over":
            break
        assert frame(client, table, tokens[seat])["undo"] is (not reveals)  # the button is not even offered
        r = client.post(f"/api/tables/{table}/undo", json={}, headers=bearer(tokens[seat]))
        if reveals:
            assert r.status_code == 409 and "showed you something" in r.json()["message"]
            refused += 1
        elif r.status_code == 200:
            allowed += 1
            client.post(f"/api/tables/{table}/act", json={"action": choice["id"]}, headers=bearer(tokens[seat]))
    assert refused > 5


def test_a_player_who_left_takes_nothing_back(client: TestClient) -> None:
    created = create(client, "kuhnah", ["me", "human"], seed=4)
    table = created["id"]
    tokens = claim_all(client, created)
    act(client, table, tokens[0], "jade")
    assert client.post(f"/api/tables/{table}/leave", headers=bearer(tokens[1])).status_code == 200
    for _ in range(200):  # the bot plays seat 2 at once
        if frame(client, table)["status"]["to_move"] == [0]:
            break
    # whoever left holds the seat no more: its secret opens nothing, and a bot's decision is not theirs to undo
    r = client.get(f"/api/tables/{table}/frame", headers=bearer(tokens[1]))
    assert r.status_code == 403 and "you left this table" in r.json()["message"]
    r = client.post(f"/api/tables/{table}/undo", json={}, headers=bearer(tokens[1]))
    assert r.status_code == 403 and "a bot plays your seat" in r.json()["message"]
