"""Duplicate and conflicting moves: exactly one is applied, the log stays contiguous, replay equals the live state.

Over real sockets to one process (SQLite), and across two server processes that
share one PostgreSQL database (the database decides which move comes first).
"""

from __future__ import annotations

import asyncio
import threading
import time

import httpx
import sqlalchemy

from tests.server.util import LiveServer, ThreadedServer, bearer
from tests.server.wire import Socket
from ziggurat.core import CHANCE, make_game


def new_duel(base: str, game: str = "kuhnah", seed: int = 3) -> tuple[str, dict[int, str]]:
    r = httpx.post(base + "/api/tables", json={"game": game, "seats": ["me", "human"], "name": "A", "seed": seed})
    created = r.json()
    invite = created["invites"][0]
    seated = httpx.post(base + "/api/seats/claim", json={"token": invite["token"], "name": "B"})
    return created["id"], {0: created["token"], 1: seated.json()["token"]}


def stored_rows(store, table: str) -> list:
    return store.load_table(table).rows


def check_log(record) -> None:
    """The log is 1..N without a gap and replays (checked) to a state."""
    assert [r.seq for r in record.rows] == list(range(1, len(record.rows) + 1))
    game = make_game(record.game, record.players, record.options)
    state = game.new_initial_state()
    for r in record.rows:
        state.apply_action(r.action_id, None if r.seat == CHANCE else r.seat)
    return state


def test_two_sockets_of_one_seat(wire_server: ThreadedServer) -> None:
    table, tokens = new_duel(wire_server.url)

    async def race() -> None:
        one = await Socket(wire_server.ws_url, table, tokens[0]).open()
        two = await Socket(wire_server.ws_url, table, tokens[0]).open()
        assert one.last["status"]["to_move"] == [0]  # type: ignore[index]
        n = one.last["n"]  # type: ignore[index]
        actions = [x["id"] for x in one.last["actions"]]  # type: ignore[index]
        # the same message twice at once: applied once, both answered
        same = await asyncio.gather(one.act(actions[0], n, "dup-1"), two.act(actions[0], n, "dup-1"))
        assert [m["type"] for m in same] == ["ack", "ack"]
        assert sorted(bool(m.get("duplicate")) for m in same) == [False, True]
        # two different moves chosen at the same moment: one wins, the other is refused and resynced
        await one.sync()
        await two.sync()
        if one.last["actions"]:  # type: ignore[index]
            n = one.last["n"]  # type: ignore[index]
            ids = [x["id"] for x in one.last["actions"]]  # type: ignore[index]
            res = await asyncio.gather(one.act(ids[0], n, "c-1"), two.act(ids[-1], n, "c-2"))
            assert sorted(m["type"] for m in res) == ["ack", "error"]
            loser = two if res[1]["type"] == "error" else one
            assert res[0 if loser is one else 1]["code"] in ("stale", "not_your_turn", "illegal")
            await loser.until(lambda m: m["type"] == "frame")  # the resync
        await one.close()
        await two.close()

    asyncio.run(race())
    record = wire_server.app.state.server.store.load_table(table)
    check_log(record)
    ids = [r.client_msg_id for r in record.rows if r.client_msg_id]
    assert ids.count("dup-1") == 1 and len(set(ids)) == len(ids)


def test_two_processes_on_postgresql_never_fork_a_game(pg_url: str, live_server: type[LiveServer]) -> None:
    """Two processes take two different moves for the same turn at once; one wins, the other is refused.

    In odd rounds the race is left to the clock, so the loser is often refused from memory (it heard of
    the winner first). In even rounds the test holds a lock on the moves table until both processes are
    waiting to write, so both pass their own checks and the database has to decide: each such round must
    end in one conflict.
    """
    a = live_server(pg_url)
    b = live_server(pg_url)
    db = sqlalchemy.create_engine(pg_url, poolclass=sqlalchemy.pool.NullPool)
    table, tokens = new_duel(a.url, seed=8)
    applied = forced = 0
    for round_no in range(30):
        fa = httpx.get(f"{a.url}/api/tables/{table}/frame").json()
        if fa["status"]["phase"] == "over":
            break
        seat = fa["status"]["to_move"][0]
        mine = httpx.get(f"{b.url}/api/tables/{table}/frame", headers=bearer(tokens[seat])).json()
        ids = [x["id"] for x in mine["actions"]]
        answers: list[httpx.Response] = []

        def send(url: str, action: int, msg: str, n: int = mine["n"], s: int = seat, out: list = answers) -> None:
            body = {"action": action, "n": n, "id": msg}
            out.append(httpx.post(f"{url}/api/tables/{table}/act", json=body, headers=bearer(tokens[s])))

        threads = [
            threading.Thread(target=send, args=(a.url, ids[0], f"a{round_no}")),
            threading.Thread(target=send, args=(b.url, ids[-1], f"b{round_no}")),
        ]
        if round_no % 2 == 0:
            with db.connect() as holder:
                holder.execute(sqlalchemy.text("LOCK TABLE moves IN SHARE MODE"))
                for t in threads:
                    t.start()
                _wait_for_blocked_inserts(db, 2)
                holder.rollback()  # both writers go on; the second finds its seq taken
            forced += 1
        else:
            for t in threads:
                t.start()
        for t in threads:
            t.join()
        codes = sorted(r.status_code for r in answers)
        assert codes == [200, 409], [r.text for r in answers]
        applied += 1
    db.dispose()
    assert applied >= 10 and forced >= 5
    conflicts = (
        httpx.get(f"{a.url}/api/metrics").json()["conflicts"] + httpx.get(f"{b.url}/api/metrics").json()["conflicts"]
    )
    assert conflicts >= forced, "a race the database had to decide was not counted as a conflict"
    # both processes show the same table, and it is the replay of the stored log
    sa = httpx.get(f"{a.url}/api/tables/{table}/frame", headers=bearer(tokens[0])).json()
    sb = httpx.get(f"{b.url}/api/tables/{table}/frame", headers=bearer(tokens[0])).json()
    assert sa == sb
    from ziggurat.server.db import make_engine
    from ziggurat.server.store import Store

    engine = make_engine(pg_url)
    record = Store(engine).load_table(table)
    engine.dispose()
    state = check_log(record)
    assert state.view(0) == sa["view"]
    players_rows = [r for r in record.rows if r.seat != CHANCE]
    assert len(players_rows) == applied


def test_one_account_takes_one_seat_of_a_rated_table_even_through_two_processes(
    pg_url: str, live_server: type[LiveServer]
) -> None:
    """Both claims at once, each through its own process: the database lets exactly one through."""
    a = live_server(pg_url)
    b = live_server(pg_url)
    csrf = {"X-Ziggurat": "1"}
    with httpx.Client(timeout=30) as ana, httpx.Client(timeout=30) as bea:
        for who, client in (("Ana", ana), ("Bea", bea)):
            r = client.post(f"{a.url}/api/accounts", json={"name": who, "password": "correct horse"}, headers=csrf)
            assert r.status_code == 201, r.text
        for round_no in range(5):
            body = {"game": "pyramix", "seats": ["me", "human", "human"], "rated": True}
            created = ana.post(f"{a.url}/api/tables", json=body, headers=csrf).json()
            invites = [i["token"] for i in created["invites"]]
            answers: list[httpx.Response] = []

            def claim(url: str, token: str, out: list[httpx.Response] = answers) -> None:
                out.append(bea.post(f"{url}/api/seats/claim", json={"token": token}, headers=csrf))

            threads = [threading.Thread(target=claim, args=pair) for pair in zip((a.url, b.url), invites, strict=True)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            codes = sorted(r.status_code for r in answers)
            assert codes == [200, 403], (round_no, [r.text for r in answers])
            refused = next(r for r in answers if r.status_code == 403)
            assert "one seat each" in refused.json()["message"]
            for server in (a, b):  # each process shows her once (the other's news may take a moment)
                deadline = time.monotonic() + 30  # generous: a loaded machine delays the news
                while True:
                    shown = httpx.get(f"{server.url}/api/tables/{created['id']}").json()["seats"]
                    beas = sum(1 for s in shown if s.get("name") == "Bea")
                    assert beas <= 1, shown
                    if beas == 1:
                        break
                    assert time.monotonic() < deadline, shown
                    time.sleep(0.05)


def _wait_for_blocked_inserts(db: sqlalchemy.engine.Engine, count: int, timeout: float = 20.0) -> None:
    """Wait until ``count`` sessions are waiting on a lock to insert into the moves table."""
    query = sqlalchemy.text(
        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO moves%'"
    )
    deadline = time.monotonic() + timeout
    with db.connect() as watcher:
        while time.monotonic() < deadline:
            if watcher.execute(query).scalar_one() >= count:
                return
            watcher.rollback()
            time.sleep(0.01)
    raise AssertionError(f"fewer than {count} writers reached the database within {timeout} s")
