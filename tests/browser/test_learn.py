"""The rules pages and tutorials in a real browser: every tutorial walked to its end by clicks on the board.

Each tutorial step is made the way a learner makes it: the board element of each click of the step's
move is clicked where a click really reaches it (the same board drawing and click paths as a real
table), or *Next* is pressed. A wrong click is answered with why; the last step starts a real game
against a bot. At a table the rules open in a drawer beside the board. Screenshots of the pages, at
1366 px and on a 390-px phone, land in ``test-artifacts/screenshots/``.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.player import KEY_POINT, TablePage
from tests.browser.test_play import create_from_lobby, new_page, screenshot
from tests.server.util import ThreadedServer
from ziggurat.core import game_ids
from ziggurat.web import learn

DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
AT_STEP = "(k) => document.getElementById('zg-tutorial').dataset.step === String(k)"
IDLE = "() => document.getElementById('zg-tutorial').dataset.busy !== 'true'"


def click_key(page: Any, key: str) -> None:
    """Click the board element ``key`` at a point nothing covers."""
    found = page.evaluate(KEY_POINT, key)
    assert found is not None, f"{key!r} is not on the board"
    _, x, y = found
    assert x is not None, f"{key!r} is on the board but something covers it"
    page.mouse.click(x, y)


def walk(page: Any, game: str, shots: Path | None = None, width: int = 1366) -> None:
    """Make every step of ``game``'s tutorial by clicks, as a learner does, up to its end."""
    run = learn.lessons(game).run()
    for k, step in enumerate(run.tutorial.steps):
        page.wait_for_function(AT_STEP, arg=k, timeout=10_000)
        assert page.locator("#zg-say").inner_text().strip(), f"step {k + 1} says nothing"
        if shots is not None and k in (0, len(run.tutorial.steps) // 2):
            screenshot(page, shots, f"learn-{game}-step{k + 1}-{width}")
        if step.do is None:
            page.click("#zg-next")
            continue
        path = run.board(k).paths[run.expected[k]]
        for key in path:
            page.wait_for_function(IDLE)
            click_key(page, key)
        page.wait_for_function(AT_STEP, arg=k + 1, timeout=10_000)
        assert page.locator("#zg-wrong").is_hidden(), f"step {k + 1}: the expected click was refused"
    page.wait_for_selector("#zg-end:not([hidden])")


@pytest.mark.parametrize("game", game_ids())
def test_every_tutorial_is_walked_to_its_end_by_clicks(
    browser: Any, web: ThreadedServer, shots: Path, game: str
) -> None:
    page = new_page(browser, DESKTOP)
    page.goto(web.url + "/")
    page.click(f"[data-testid=learn-{game}]")  # one click from the lobby
    page.wait_for_url(re.compile(rf".*/learn/{game}.*"))
    walk(page, game, shots)
    scores = page.locator("#zg-scores > li")
    run = learn.lessons(game).run()
    assert scores.count() == run.tutorial.start.players
    assert page.locator("#zg-scores > li li").count() >= 1  # the score broken down into the game's terms
    screenshot(page, shots, f"learn-{game}-end-1366")
    # the end: a real game against the tutorial's bot
    page.click("#zg-play")
    page.wait_for_url(re.compile(r".*/t/[a-z0-9]+$"))
    page.wait_for_selector("#zg-conn[data-state=online]")
    assert page.locator("#zg-board svg").count() == 1
    assert not page.js_errors, page.js_errors


def test_a_tutorial_on_a_phone_shows_what_to_do_before_the_board(
    browser: Any, web: ThreadedServer, shots: Path
) -> None:
    page = new_page(browser, PHONE)
    page.goto(web.url + "/learn/kuhnah?lang=es")
    coach = page.locator("#zg-coach").bounding_box()
    board = page.locator("#zg-board").bounding_box()
    assert coach["y"] < board["y"]
    assert "Bienvenido" in page.locator("#zg-say").inner_text()
    walk(page, "kuhnah", shots, width=390)
    assert not page.js_errors, page.js_errors


def test_a_wrong_click_is_told_why(browser: Any, web: ThreadedServer) -> None:
    page = new_page(browser, DESKTOP)
    page.goto(web.url + "/learn/kuhnah?step=1")
    page.wait_for_function(AT_STEP, arg=1)
    # a legal move, but not the one this step asks for: taking the 15 instead of putting a jade on the 28
    click_key(page, "take:15a")
    wrong = page.locator("#zg-wrong")
    wrong.wait_for(state="visible")
    assert "not the one this step asks for" in wrong.inner_text()
    assert "jade token" in wrong.inner_text()  # the step's hint
    assert page.locator("#zg-tutorial").get_attribute("data-step") == "1"
    # the place asked for is ringed now
    assert page.locator('#zg-board .zg-expected[data-key="jade:28b"]').count() == 1
    # an illegal click: while placing the 15, the other Quarry card; the engine says why
    page.goto(web.url + "/learn/kuhnah?step=3")
    page.wait_for_function(AT_STEP, arg=3)
    click_key(page, "take:28b")
    wrong.wait_for(state="visible")
    assert "not a legal move" in wrong.inner_text()
    assert "place it in your pyramid first" in wrong.inner_text()
    assert page.locator("#zg-tutorial").get_attribute("data-step") == "3"
    assert not page.js_errors, page.js_errors


@pytest.mark.parametrize("game", game_ids())
def test_rules_pages_show_boards_in_both_languages(browser: Any, web: ThreadedServer, shots: Path, game: str) -> None:
    for lang in learn.LANGUAGES:
        for width, viewport in ((1366, DESKTOP), (390, PHONE)):
            page = new_page(browser, viewport)
            page.goto(f"{web.url}/rules/{game}?lang={lang}")
            figures = page.locator("figure.zg-figure svg.zg-board")
            assert figures.count() == len(learn.lessons(game).figures)
            assert page.locator("article.zg-rules").get_attribute("lang") == lang
            # nothing wider than the screen: the figures scale down with it
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
            screenshot(page, shots, f"rules-{game}-{lang}-{width}")
            assert not page.js_errors, page.js_errors
            page.context.close()


def test_at_a_table_the_rules_open_beside_the_board(browser: Any, web: ThreadedServer, shots: Path) -> None:
    page = new_page(browser, DESKTOP)
    table_id = create_from_lobby(page, web.url, "pyramix", ["me", "random"])
    page.wait_for_selector("#zg-conn[data-state=online]")
    page.click("[data-testid=rules-link]")
    drawer = page.locator("#zg-rules-drawer")
    drawer.wait_for(state="visible")
    page.wait_for_selector("#zg-rules-drawer article.zg-rules figure svg")
    assert page.url.endswith(f"/t/{table_id}")  # still at the table
    assert page.locator("#zg-board svg").is_visible()
    board = page.locator("#zg-board").bounding_box()
    box = drawer.bounding_box()
    assert board["x"] + board["width"] <= box["x"] + 1, "the drawer covers the board on a wide screen"
    screenshot(page, shots, "table-rules-drawer-1366")
    # the game goes on with the rules open: a move by a click on the board, at a point of a highlighted
    # part that a click really reaches (a cube's outline may lie over its neighbour's middle)
    table = TablePage(page)
    assert table.wait_turn_or_end() == "playing"
    table.play_one(random.Random(0))
    page.keyboard.press("Escape")
    drawer.wait_for(state="hidden")
    assert not page.js_errors, page.js_errors
