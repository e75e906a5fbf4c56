"""On a 390-px phone: readable boards, targets a finger can hit, help by touch, and one's tables found again.

Every game's table is played a little on a phone-sized screen (touch on): the
page never scrolls sideways (only the board, inside its frame), every button,
link and field outside the board is at least 44 px high, the board's smallest
text is at least 11 px on screen (or the whole board at a glance, by choice),
and tapping a part of the board writes its help under it. A guest who goes back
to the lobby finds their table in "My tables"; an account finds it on any device.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.player import TablePage
from tests.browser.test_play import create_from_lobby, screenshot
from tests.server.util import ThreadedServer
from ziggurat.core import game_ids

PHONE = {"width": 390, "height": 844}

TARGETS = """() => {
  // what a finger must hit, outside the board: buttons, links, fields, and the labels of check boxes
  const seen = [...document.querySelectorAll('button, a[href], select, input, label')].filter((e) => {
    if (e.closest('#zg-board') || e.offsetParent === null) return false;
    if (e.tagName === 'INPUT' && (e.type === 'checkbox' || e.type === 'radio' || e.type === 'hidden')) return false;
    if (e.tagName === 'LABEL' && !e.querySelector('input[type=checkbox], input[type=radio]')) return false;
    if (e.tagName === 'A' && e.closest('p, li') && !e.closest('nav, #zg-mine, .zg-table-list, .zg-panel')) return false;
    return true;
  });
  return seen.filter((e) => e.getBoundingClientRect().height < 43.5)
    .map((e) => e.tagName + ' ' + (e.textContent || e.value || e.name || '').trim().slice(0, 40));
}"""
SIDEWAYS = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
SMALLEST_TEXT = """() => {
  const svg = document.querySelector('#zg-board svg.zg-board');
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  // every text but a glyph (a letter or sign on an icon, whose colour and shape say the same)
  const sizes = [...svg.querySelectorAll('text:not(.zg-glyph)')]
    .filter((t) => t.textContent.trim() && !t.getAttribute('transform'))
    .map((t) => Number(t.getAttribute('font-size')) * scale).filter((s) => s > 0);
  return Math.min(...sizes);
}"""


def phone_page(browser: Any) -> Any:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale="es-ES")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.js_errors = errors
    return page


def test_the_lobby_on_a_phone(browser: Any, web: ThreadedServer, shots: Path) -> None:
    page = phone_page(browser)
    page.goto(web.url + "/")
    assert page.evaluate(SIDEWAYS) <= 0
    assert page.evaluate(TARGETS) == []
    screenshot(page, shots, "lobby-390-es")
    page.context.close()


# every game with two players, and the widest tables (the most players) of the games whose board grows with them
PHONE_TABLES = [(g, 2) for g in game_ids()] + [("kuhnah", 6), ("kukulkan", 6), ("lucent", 5), ("nakum", 4)]


@pytest.mark.parametrize(("game", "players"), PHONE_TABLES, ids=[f"{g}-{n}p" for g, n in PHONE_TABLES])
def test_a_table_on_a_phone(browser: Any, web: ThreadedServer, shots: Path, game: str, players: int) -> None:
    page = phone_page(browser)
    create_from_lobby(page, web.url, game, ["me"] + ["random"] * (players - 1), name="Ana")
    table = TablePage(page)
    table.wait_online()
    rng = random.Random(game)
    for _ in range(3):
        if table.wait_turn_or_end() == "over":
            break
        table.play_one(rng)
    table.wait_turn_or_end()
    assert page.evaluate(SIDEWAYS) <= 0, "only the board scrolls sideways, never the page"
    assert page.evaluate(TARGETS) == []
    assert page.evaluate(SMALLEST_TEXT) >= 10.9, "the board is drawn big enough to read"
    screenshot(page, shots, f"{game}-{players}p-390-phone-readable")
    # the whole board at a glance, by choice (remembered), and back
    page.click("#zg-fit")
    fits = "() => { const w = document.getElementById('zg-board'); return w.scrollWidth <= w.clientWidth + 1; }"
    page.wait_for_function(fits)
    screenshot(page, shots, f"{game}-{players}p-390-phone-whole")
    page.reload()
    TablePage(page).wait_online()
    page.wait_for_function(fits)
    page.click("#zg-fit")
    assert page.evaluate(SMALLEST_TEXT) >= 10.9
    # a tap on a part of the board that is not a move shows its help under the board
    target = page.evaluate(
        """() => {
          const titled = (el) => {
            const has = (e) => e.tagName === 'g' && [...e.children].some((c) => c.tagName === 'title');
            while (el && !has(el)) el = el.parentElement;
            return el;
          };
          // a part with help that is no move and asks nothing: a tap there reaches it and nothing else
          const g = [...document.querySelectorAll('#zg-board svg g')].find((g) => {
            if (g.classList.contains('zg-legal') || g.dataset.why || !g.getBoundingClientRect().width) return false;
            if (![...g.children].some((c) => c.tagName === 'title')) return false;
            g.scrollIntoView({block: 'center', inline: 'center'});
            const r = g.getBoundingClientRect();
            const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return hit && titled(hit) === g && !hit.closest('.zg-legal, [data-why]');
          });
          g.scrollIntoView({block: 'center', inline: 'center'});
          const r = g.getBoundingClientRect();
          return [r.left + r.width / 2, r.top + r.height / 2,
                  [...g.children].find((c) => c.tagName === 'title').textContent];
        }"""
    )
    x, y, title = target
    page.touchscreen.tap(x, y)
    page.wait_for_function("() => document.getElementById('zg-board-help').textContent.trim() !== ''")
    shown = page.locator("#zg-board-help").inner_text()
    assert shown.strip(), "a tap shows some help"
    hit = page.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('g').querySelector(':scope > title')"
                        " ? document.elementFromPoint(x, y).closest('g').querySelector(':scope > title').textContent"
                        " : ''", [x, y])  # fmt: skip
    assert shown == (hit or title) or shown in (hit, title)
    assert page.js_errors == []
    page.context.close()


def test_a_guest_finds_their_table_again(browser: Any, web: ThreadedServer) -> None:
    page = phone_page(browser)
    table_id = create_from_lobby(page, web.url, "kuhnah", ["me", "human"], name="Ana")
    TablePage(page).wait_online()
    page.goto(web.url + "/")
    mine = page.locator(f"#zg-mine [data-table='{table_id}'] a")
    mine.wait_for()
    assert "K'uh Nah" in mine.inner_text()
    assert "esperando jugadores" in page.locator(f"#zg-mine [data-table='{table_id}']").inner_text()
    mine.click()
    page.wait_for_url(re.compile(rf".*/t/{table_id}$"))
    assert page.locator("#zg-table").get_attribute("data-seat") == "0", "back at their own seat"
    # forgetting it takes it off this browser's list
    page.goto(web.url + "/")
    page.locator(f"#zg-mine [data-table='{table_id}'] .zg-forget").click()
    page.wait_for_selector("#zg-mine", state="hidden")
    page.reload()
    page.wait_for_timeout(300)
    assert page.locator(f"#zg-mine [data-table='{table_id}']").count() == 0
    page.context.close()


def test_an_account_finds_its_tables_on_any_device(browser: Any, web: ThreadedServer) -> None:
    laptop = browser.new_page(viewport={"width": 1366, "height": 900})
    laptop.goto(web.url + "/signup")
    laptop.fill("input[name=name]", "Rosa")
    laptop.fill("input[name=password]", "long enough secret")
    laptop.click("button[type=submit]")
    laptop.wait_for_url(re.compile(r".*/u/Rosa$"))
    table_id = create_from_lobby(laptop, web.url, "pyramix", ["me", "random"], name="Rosa")
    laptop.close()
    phone = phone_page(browser)  # another device: nothing in its storage
    phone.goto(web.url + "/login")
    phone.fill("input[name=name]", "Rosa")
    phone.fill("input[name=password]", "long enough secret")
    phone.click("button[type=submit]")
    phone.wait_for_load_state()
    phone.goto(web.url + "/")
    row = phone.locator(f"#zg-mine [data-table='{table_id}']")
    assert row.is_visible() and "Pyramix" in row.inner_text()
    phone.context.close()
