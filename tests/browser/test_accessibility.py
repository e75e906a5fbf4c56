"""Accessibility: axe-core finds nothing serious on the site, and every game is played with the keyboard alone.

axe-core is the copy that ``axe-playwright-python`` ships (no network at test
time); it checks the lobby and the account pages in both languages, a table of
every game in the middle of a game, the rules pages and tutorials, and a
replay, and no violation of impact
"serious" or "critical" may remain. Then a whole game of each game is played
against a bot by a person who only presses Tab and Enter: the highlighted parts
of the board (and the list of actions) are buttons the keyboard reaches.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tests.browser.player import TablePage
from tests.browser.test_play import create_from_lobby, new_page, screenshot
from tests.server.util import ThreadedServer
from ziggurat.core import game_ids

SERIOUS = ("serious", "critical")


def serious_violations(page: Any) -> list[str]:
    """What axe-core finds on the page that is serious or critical (rule, impact, where)."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in SERIOUS
    ]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_axe_finds_nothing_serious_on_the_pages(browser: Any, web: ThreadedServer, lang: str) -> None:
    page = new_page(browser)
    for path in ("/", "/login", "/signup", "/ratings", "/join"):
        page.goto(f"{web.url}{path}?lang={lang}")
        assert serious_violations(page) == [], path
    page.context.close()


def test_axe_finds_nothing_serious_at_the_tables(browser: Any, web: ThreadedServer) -> None:
    page = new_page(browser)
    for game in game_ids():
        table_id = create_from_lobby(page, web.url, game, ["me", "random"])
        table = TablePage(page)
        table.wait_online()
        rng = random.Random(game)
        for _ in range(3):
            if table.wait_turn_or_end() == "over":
                break
            table.play_one(rng)
        table.wait_turn_or_end()
        assert serious_violations(page) == [], game
    for path in ("/rules", "/rules/kuhnah", "/learn/lucent", "/learn/nakum"):
        page.goto(f"{web.url}{path}")
        assert serious_violations(page) == [], path
    page.goto(f"{web.url}/t/{table_id}/replay")
    page.wait_for_function("() => document.getElementById('zg-step').textContent.includes(' ')")
    assert serious_violations(page) == [], "replay"
    page.context.close()


def test_the_check_can_fail(browser: Any) -> None:
    page = browser.new_page()
    page.set_content('<html lang="en"><body><main><img src="x.png"><button></button></main></body></html>')
    found = serious_violations(page)
    page.close()
    assert any(v.startswith("image-alt") for v in found) and any(v.startswith("button-name") for v in found)


FOCUSED = """() => {
  const el = document.activeElement;
  if (!el) return null;
  if (el.matches('#zg-board [data-key].zg-legal')) return 'board';
  if (el.matches('#zg-actions button:not(:disabled)')) return 'list';
  return '';
}"""
LEGAL_COUNT = "() => document.querySelectorAll('#zg-board [data-key].zg-legal').length"


def keyboard_move(page: Any, table: TablePage, rng: random.Random) -> None:
    """One move with Tab and Enter only: reach a highlighted part of the board (a random one), press Enter; a
    move of several parts goes on the same way until it is made."""
    n0 = table.n()
    for _ in range(12):  # the parts of one move
        wanted = rng.randrange(max(1, page.evaluate(LEGAL_COUNT)))
        seen = 0
        for _ in range(600):
            page.keyboard.press("Tab")
            where = page.evaluate(FOCUSED)
            if where == "board":
                if seen == wanted:
                    break
                seen += 1
            elif where == "list" and page.evaluate(LEGAL_COUNT) == 0:
                break  # a move with no place on the board: its button in the list of actions
        else:
            raise AssertionError("Tab never reached a highlighted part of the board")
        page.keyboard.press("Enter")
        try:
            page.wait_for_function(
                f"() => Number(document.getElementById('zg-table').dataset.n) !== {n0}"
                " || document.querySelector('#zg-board .zg-selected') !== null",
                timeout=5_000,
            )
        except Exception:
            continue
        if table.n() != n0:
            return
    raise AssertionError("the keyboard did not make a move")


@pytest.mark.parametrize("game", game_ids())
def test_a_whole_game_with_the_keyboard_alone(browser: Any, web: ThreadedServer, shots: Path, game: str) -> None:
    page = new_page(browser)
    create_from_lobby(page, web.url, game, ["me", "random"], name="Ana")
    table = TablePage(page)
    table.wait_online()
    rng = random.Random(f"keys-{game}")
    moves = 0
    while table.wait_turn_or_end(timeout=60_000) != "over":
        keyboard_move(page, table, rng)
        moves += 1
        assert moves < 3000, "the game did not end"
    assert moves >= 3
    assert "Game over" in page.locator("[data-testid=banner]").inner_text()
    screenshot(page, shots, f"{game}-keyboard-end")
    assert page.js_errors == []
    page.context.close()
