"""Whole games in a real browser: the lobby, clicks on the board, bots, two browsers, a dropped connection.

Every move a person makes here is a click on a highlighted part of the board
(a move of several clicks is built click by click). Screenshots of each board
are kept (see conftest) at the start, in the middle and at the end, on a
1280x800 screen and on a 390-px-wide phone.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser.player import TablePage
from tests.server.util import LiveServer, ThreadedServer, bearer

GAMES = ["kuhnah", "pyramix", "lucent", "kukulkan", "nakum"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def new_page(browser: Any, viewport: dict[str, int] = DESKTOP) -> Any:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.js_errors = errors
    return page


def create_from_lobby(page: Any, base: str, game: str, seats: list[str], name: str = "Ana") -> str:
    """Fill the lobby form and create the table; returns the table id."""
    page.goto(base + "/")
    page.select_option("#zg-game", game)
    page.select_option("#zg-players", str(len(seats)))
    selects = page.locator("#zg-seat-list select")
    for i, seat in enumerate(seats):
        selects.nth(i).select_option(seat)
    page.fill("#zg-name", name)
    page.click("#zg-create-button")
    page.wait_for_url(re.compile(r".*/t/[a-z0-9]+.*"))
    return page.url.split("/t/")[1].split("#")[0].split("?")[0]


def screenshot(page: Any, folder: Path, name: str) -> None:
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("game", GAMES)
def test_whole_game_by_clicks_against_a_bot(browser: Any, web: ThreadedServer, shots: Path, game: str) -> None:
    page = new_page(browser)
    table_id = create_from_lobby(page, web.url, game, ["me", "random"])
    table = TablePage(page)
    table.wait_online()
    screenshot(page, shots, f"{game}-1280-start")
    rng = random.Random(game)
    moves = 0
    middle_taken = False
    while table.wait_turn_or_end() != "over":
        if moves == 0:  # the tab says it is your turn (for a player looking at another tab)
            assert page.title().startswith("\u25b6 Your turn"), page.title()
        table.play_one(rng)
        moves += 1
        if not middle_taken and moves >= 8:
            screenshot(page, shots, f"{game}-1280-middle")
            phone = new_page(browser, PHONE)
            phone.goto(f"{web.url}/t/{table_id}")  # a spectator on a phone
            TablePage(phone).wait_online()
            screenshot(phone, shots, f"{game}-390-middle-spectator")
            assert phone.js_errors == []
            phone.context.close()
            middle_taken = True
        assert moves < 3000
    screenshot(page, shots, f"{game}-1280-end")
    assert "Your turn" not in page.title()
    banner = page.locator("[data-testid=banner]").inner_text()
    assert "Game over" in banner
    assert moves >= 3
    # the server agrees: the game is over and every move is in the log
    frame = httpx.get(f"{web.url}/api/tables/{table_id}/frame").json()
    assert frame["status"]["phase"] == "over"
    log_items = page.locator("#zg-log li").count()
    assert log_items == table.n(), "the page shows each log entry once"
    assert page.js_errors == []
    page.context.close()


def _claim_in_browser(page: Any, invite_url: str, name: str) -> None:
    page.goto(invite_url)
    page.wait_for_selector("#zg-join-form:not([hidden])")
    page.fill("#zg-join-name", name)
    page.click("#zg-join-button")
    page.wait_for_url(re.compile(r".*/t/[a-z0-9]+$"))


@pytest.mark.parametrize("game", ["kuhnah", "kukulkan"])
def test_two_browsers_play_each_other(browser: Any, web: ThreadedServer, shots: Path, game: str) -> None:
    ana = new_page(browser)
    table_id = create_from_lobby(ana, web.url, game, ["me", "human"], name="Ana")
    invite = ana.locator("[data-invite-seat='1']").input_value()
    assert invite.startswith(web.url + "/join#")
    assert "#" not in ana.url, "the invite secret is taken out of the address bar"
    bea = new_page(browser, PHONE)
    _claim_in_browser(bea, invite, "Bea")
    pages = {0: TablePage(ana), 1: TablePage(bea)}
    for p in pages.values():
        p.wait_online()
    ana.wait_for_selector("#zg-table[data-phase=playing]")
    ana.wait_for_selector("#zg-invites", state="hidden")  # Bea's invite link opens nothing any more
    rng = random.Random(7)
    rounds = 0
    while pages[0].phase() != "over":
        moved = False
        for seat, p in pages.items():
            p.page.wait_for_function(
                "() => document.getElementById('zg-table').dataset.pending !== 'true'", timeout=15_000
            )
            if p.root.get_attribute("data-my-turn") == "true":
                p.play_one(rng)
                moved = True
                if game == "kukulkan" and seat == 0:
                    # Bea sees only that Ana is choosing or ready, never Ana's lines, until the round is over
                    other_log = bea.locator("#zg-log").inner_text()
                    mine = ana.locator("#zg-log li.zg-private")
                    if mine.count():
                        line = mine.last.inner_text().split(" (only you see")[0].strip()
                        assert line not in other_log or rounds > 0
        if not moved:
            ana.wait_for_timeout(30)
        rounds += 1
        if rounds == 6:
            screenshot(ana, shots, f"{game}-two-browsers-seat1-1280")
            screenshot(bea, shots, f"{game}-two-browsers-seat2-390")
        assert rounds < 4000
    for p in pages.values():
        p.page.wait_for_selector("#zg-table[data-phase=over]")
        assert p.page.js_errors == []
    # both browsers show the same log length as the server gives each seat
    assert pages[0].n() > 5 and pages[1].n() > 5
    assert httpx.get(f"{web.url}/api/tables/{table_id}/frame").json()["status"]["phase"] == "over"


def test_reconnect_after_the_server_restarts(browser: Any, tmp_path: Path, live_server: type[LiveServer]) -> None:
    server = live_server(f"sqlite:///{tmp_path / 'r.db'}")
    created = httpx.post(
        server.url + "/api/tables", json={"game": "lucent", "seats": ["me", "human"], "name": "Ana", "seed": 3}
    ).json()
    table_id, ana_token = created["id"], created["token"]
    invite = created["invites"][0]["token"]
    bea_token = httpx.post(server.url + "/api/seats/claim", json={"token": invite, "name": "Bea"}).json()["token"]
    page = new_page(browser)
    page.context.add_cookies([{"name": f"zg_{table_id}", "value": ana_token, "url": server.url}])
    page.goto(f"{server.url}/t/{table_id}")
    table = TablePage(page)
    table.wait_online()
    rng = random.Random(1)
    table.wait_turn_or_end()
    table.play_one(rng)  # Ana moves; now Bea is to move
    seen = table.n()
    server.kill()
    page.wait_for_selector("#zg-conn[data-state=offline]", timeout=10_000)
    server.start()
    # Bea moves while Ana's page is still reconnecting
    mine = httpx.get(f"{server.url}/api/tables/{table_id}/frame", headers=bearer(bea_token)).json()
    r = httpx.post(
        f"{server.url}/api/tables/{table_id}/act",
        json={"action": mine["actions"][0]["id"]},
        headers=bearer(bea_token),
    )
    assert r.status_code == 200
    table.wait_online(timeout=20_000)
    page.wait_for_function(f"() => Number(document.getElementById('zg-table').dataset.n) > {seen}")
    assert page.locator("#zg-log li").count() == table.n(), "caught up without repeating the log"
    assert page.locator("#zg-log li").last.inner_text().startswith("Bea ")  # her move, named
    # and the game goes on from the page
    table.wait_turn_or_end()
    table.play_one(rng)
    assert page.js_errors == [] or all("WebSocket" in e or "ERR_CONNECTION" in e for e in page.js_errors)


def test_a_seat_moved_to_another_device_leaves_the_first_page_watching(browser: Any, web: ThreadedServer) -> None:
    """Play on another device: the link moves the seat; the page it was made on becomes a spectator's."""
    laptop = new_page(browser)
    table_id = create_from_lobby(laptop, web.url, "lucent", ["me", "random"], name="Ana")
    first = TablePage(laptop)
    first.wait_online()
    laptop.click("#zg-device")
    laptop.wait_for_selector("#zg-device-link:not([hidden])")
    link = laptop.locator("#zg-device-link").input_value()
    assert link.startswith(web.url + "/join#")
    laptop.wait_for_timeout(300)
    assert laptop.locator("#zg-table").get_attribute("data-seat") == "0"  # until the link is opened
    phone = new_page(browser, PHONE)
    phone.goto(link)
    phone.wait_for_selector("#zg-join-form:not([hidden])")
    assert phone.locator("#zg-join-name").is_disabled()  # the seat is taken: its player continues here
    phone.click("#zg-join-button")
    phone.wait_for_url(re.compile(r".*/t/[a-z0-9]+$"))
    TablePage(phone).wait_online()
    assert phone.locator("#zg-table").get_attribute("data-seat") == "0"
    # the laptop's socket is told and closed; the page draws itself again, as a spectator, once
    laptop.wait_for_function("() => document.getElementById('zg-table').dataset.seat === ''", timeout=15_000)
    TablePage(laptop).wait_online()
    assert laptop.locator("#zg-actions").count() == 0
    laptop.wait_for_timeout(1500)
    assert laptop.url.endswith(f"/t/{table_id}")
    assert laptop.locator("#zg-table").get_attribute("data-seat") == "", "no reload loop"
    assert laptop.js_errors == [] and phone.js_errors == []
    laptop.context.close()
    phone.context.close()
