"""Bots at the table's pace: delays kept to within 100 ms, a turn's next steps quick, back within seconds of a
crash, worker processes that die with their server, bot-only tables that cannot starve people's tables."""

from __future__ import annotations

import datetime as dt
import itertools
import os
import signal
import sqlite3
import statistics
import time
from pathlib import Path

import httpx
import pytest

from tests.server.util import LiveServer, bearer


def moves_of(url: str, table: str) -> list[dict]:
    return [e for e in httpx.get(f"{url}/api/tables/{table}/frame").json()["log"] if e["kind"] == "move"]


def wait_for_moves(url: str, table: str, count: int, timeout: float = 30) -> float:
    """Seconds until the table's log has ``count`` moves."""
    started = time.monotonic()
    while len(moves_of(url, table)) < count:
        assert time.monotonic() - started < timeout, "the bot did not move"
        time.sleep(0.005)
    return time.monotonic() - started


def test_a_bot_moves_after_its_delay_not_at_the_next_poll(tmp_path: Path, live_server: type[LiveServer]) -> None:
    """Measured by the server's own clock (the rows' times), so that a busy test machine's HTTP polling does
    not blur it: the bot's move comes its delay after the person's, not at the next whole-second poll."""
    db = tmp_path / "z.db"
    server = live_server(f"sqlite:///{db}", bot_delay=0.3)
    created = httpx.post(
        server.url + "/api/tables", json={"game": "kuhnah", "seats": ["me", "random"], "name": "A", "seed": 3}
    ).json()
    table, token = created["id"], created["token"]
    for _ in range(8):
        f = httpx.get(f"{server.url}/api/tables/{table}/frame", headers=bearer(token)).json()
        if f["status"]["phase"] != "playing":
            break
        before = sum(1 for e in f["log"] if e["kind"] == "move")
        if 0 not in f["status"]["to_move"]:  # the rest of the bot's turn (a card taken, then placed)
            wait_for_moves(server.url, table, before + 1)
            continue
        jade = next((a for a in f["actions"] if a["text"].startswith("jade")), f["actions"][0])
        r = httpx.post(f"{server.url}/api/tables/{table}/act", json={"action": jade["id"]}, headers=bearer(token))
        assert r.status_code == 200
        wait_for_moves(server.url, table, before + 2)
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT seat, at FROM moves WHERE table_id = ? AND seat >= 0 ORDER BY seq", (table,))
        decisions = [(seat, dt.datetime.fromisoformat(at)) for seat, at in rows]
    waits = [(b[1] - a[1]).total_seconds() for a, b in itertools.pairwise(decisions) if (a[0], b[0]) == (0, 1)]
    assert len(waits) >= 4, waits
    assert 0.29 <= statistics.median(waits) <= 0.4, waits  # the delay, within 100 ms


def test_the_rest_of_a_bots_turn_follows_quickly(tmp_path: Path, live_server: type[LiveServer]) -> None:
    """Kukulkán: a bot draws its trail segment by segment; only the first waits the table's pace."""
    server = live_server(f"sqlite:///{tmp_path / 'z.db'}", bot_delay=1.0)
    created = httpx.post(
        server.url + "/api/tables", json={"game": "kukulkan", "seats": ["random"], "name": "A", "seed": 5}
    ).json()
    table = created["id"]
    stamps: list[float] = []
    seen = 0
    started = time.monotonic()
    while time.monotonic() - started < 8:
        count = len(moves_of(server.url, table))
        if count > seen:
            stamps.extend([time.monotonic()] * (count - seen))
            seen = count
        time.sleep(0.01)
    gaps = [b - a for a, b in itertools.pairwise(stamps)]
    quick = [g for g in gaps if g < 0.5]
    paced = [g for g in gaps if g >= 0.8]
    assert quick and paced, gaps  # segments of a turn come quickly; a new turn waits the table's pace
    assert len(stamps) > 8, "without the quick follow-ups a bot makes about one decision a second"


@pytest.mark.slow
def test_a_bot_thinking_when_its_server_died_moves_soon_after_the_restart(
    tmp_path: Path, live_server: type[LiveServer]
) -> None:
    server = live_server(f"sqlite:///{tmp_path / 'z.db'}", bot_delay=0.2, bot_workers=1)
    body = {"game": "kuhnah", "seats": ["me", "ismcts:4"], "name": "A", "seed": 8}  # level 4: 2 s a move
    created = httpx.post(server.url + "/api/tables", json=body).json()
    table, token = created["id"], created["token"]
    f = httpx.get(f"{server.url}/api/tables/{table}/frame", headers=bearer(token)).json()
    if 0 not in f["status"]["to_move"]:
        wait_for_moves(server.url, table, 1)
        f = httpx.get(f"{server.url}/api/tables/{table}/frame", headers=bearer(token)).json()
    before = len(moves_of(server.url, table))
    jade = next(a for a in f["actions"] if a["text"].startswith("jade"))
    httpx.post(f"{server.url}/api/tables/{table}/act", json={"action": jade["id"]}, headers=bearer(token))
    time.sleep(0.8)  # the bot's job is claimed: it is thinking
    server.kill()
    server.start()
    took = wait_for_moves(server.url, table, before + 2, timeout=40)
    assert took < 15, f"the bot moved {took:.1f} s after the restart (its job's claim must not hold it a minute)"


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(entry))
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_killed_server_takes_its_bot_processes_with_it(tmp_path: Path, live_server: type[LiveServer]) -> None:
    server = live_server(f"sqlite:///{tmp_path / 'z.db'}", bot_delay=0.0, bot_workers=1)
    created = httpx.post(
        server.url + "/api/tables", json={"game": "kuhnah", "seats": ["random", "random"], "name": "A"}
    ).json()
    wait_for_moves(server.url, created["id"], 4)  # the bot workers are up
    assert server.proc is not None
    workers = [p for p in _children(server.proc.pid) if _alive(p)]
    assert workers, "the bots run in worker processes"
    server.proc.send_signal(signal.SIGKILL)
    server.proc.wait(10)
    deadline = time.monotonic() + 10
    while any(_alive(p) for p in workers):
        assert time.monotonic() < deadline, "a bot process outlived its server"
        time.sleep(0.05)
