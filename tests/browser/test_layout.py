"""Boards and pages laid out for people, in both languages: no text over another, nothing outside its box.

Measured in Chromium (the real fonts): every text of every game's board at
positions along whole games, for several audiences, in English and Spanish,
neither covers another text nor leaves the board; and the glitches of issue 25
stay fixed on the table page (a waiting table, a clock, the invite links, the
end of a game, the replay's step buttons), at 1366 px and on a 390-px phone.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.player import TablePage
from tests.browser.test_play import create_from_lobby, new_page, screenshot
from tests.server.util import ThreadedServer
from ziggurat.core import Match, game_ids, get_game, make_game
from ziggurat.web import i18n, pages
from ziggurat.web.preview import static_text

PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1366, "height": 900}

TEXT_LAYOUT = """(svgText) => {
  const wrap = document.getElementById('board');
  wrap.innerHTML = svgText;
  const svg = wrap.querySelector('svg');
  const box = svg.getBoundingClientRect();
  const rects = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim()).map((t) => {
    // a text's box holds its line's spacing too: the glyphs lie within the middle of its height
    const r = t.getBoundingClientRect(), pad = (r.bottom - r.top) * 0.18;
    return {l: r.left, t: r.top, r: r.right, b: r.bottom, gt: r.top + pad, gb: r.bottom - pad, s: t.textContent.trim()};
  });
  const out = [];
  for (const a of rects) {
    const out_x = a.l < box.left - 1 || a.r > box.right + 1, out_y = a.t < box.top - 1 || a.b > box.bottom + 1;
    if (out_x || out_y) out.push('outside: ' + a.s);
  }
  for (let i = 0; i < rects.length; i++) {
    for (let j = i + 1; j < rects.length; j++) {
      const a = rects[i], b = rects[j];
      const w = Math.min(a.r, b.r) - Math.max(a.l, b.l), h = Math.min(a.gb, b.gb) - Math.max(a.gt, b.gt);
      const small = Math.min((a.r - a.l) * (a.gb - a.gt), (b.r - b.l) * (b.gb - b.gt));
      if (w > 1 && h > 1 && w * h > 0.04 * small) out.push('overlap: ' + a.s + ' | ' + b.s);
    }
  }
  return out;
}"""


def positions(game_id: str, players: int, seed: int, every: int):
    """States along one random game, every ``every`` decisions, and the end."""
    match = Match(make_game(game_id, players), seed=seed)
    rng = random.Random(seed)
    match.resolve_chance()
    n = 0
    while not match.state.is_terminal():
        if n % every == 0:
            yield match.state
        for p in match.state.players_to_move():
            legal = match.state.legal_actions(p)
            match.state.apply_action(legal[rng.randrange(len(legal))], p)
            n += 1
        match.resolve_chance()
    yield match.state


@pytest.mark.parametrize("game", game_ids())
def test_board_texts_neither_overlap_nor_leave_the_board(browser: Any, game: str) -> None:
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    page.set_content(
        f"<html><head><style>{static_text('style.css')}</style></head>"
        "<body><div id='board' class='zg-board-wrap'></div></body></html>"
    )
    entry = get_game(game)
    spec = entry.game_class.spec
    found: dict[str, int] = {}
    boards = 0
    for players in sorted({spec.min_players, spec.max_players}):
        for lang in i18n.LANGUAGES:
            tr = i18n.translator(lang)
            for state in positions(game, players, seed=11, every=9):
                to_move = state.players_to_move()
                for seat in {None, 0, *to_move[:1]}:
                    legal = state.legal_action_texts(seat) if seat is not None and seat in to_move else []
                    svg, _ = pages.board(entry, state.view(seat), seat, legal, tr)
                    boards += 1
                    for problem in page.evaluate(TEXT_LAYOUT, svg):
                        found[f"{lang}: {problem}"] = found.get(f"{lang}: {problem}", 0) + 1
    page.close()
    assert boards > 20
    assert found == {}


def test_the_check_finds_texts_that_overlap(browser: Any) -> None:
    page = browser.new_page()
    page.set_content("<div id='board'></div>")
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 60" width="400">'
        '<text x="10" y="30" font-size="16">4 tray</text><text x="40" y="30" font-size="16">22 pts</text>'
        '<text x="150" y="58" font-size="16">outside</text></svg>'
    )
    problems = page.evaluate(TEXT_LAYOUT, svg)
    page.close()
    assert "overlap: 4 tray | 22 pts" in problems and "outside: outside" in problems


def _inside(page: Any, outer: str, inner: str) -> list[str]:
    """Elements matching ``inner`` that stick out of ``outer`` (or the page), and ``outer``'s own overflow."""
    return page.evaluate(
        """([outer, inner]) => {
          const box = document.querySelector(outer);
          const b = box.getBoundingClientRect();
          const out = [...box.querySelectorAll(inner)].filter((e) => e.offsetParent !== null).filter((e) => {
            const r = e.getBoundingClientRect();
            return r.left < b.left - 1 || r.right > b.right + 1 || r.right > document.documentElement.clientWidth;
          }).map((e) => e.tagName + ' ' + (e.textContent || e.value || '').slice(0, 30));
          if (box.scrollWidth > box.clientWidth + 1) out.push('the panel scrolls sideways');
          return out;
        }""",
        [outer, inner],
    )


def test_a_waiting_table_invites_nobody_and_its_links_fit(browser: Any, web: ThreadedServer, shots: Path) -> None:
    page = new_page(browser, WIDE)
    create_from_lobby(page, web.url, "lucent", ["me", "human", "human"], name="Ana")
    table = TablePage(page)
    table.wait_online()
    assert table.phase() == "waiting"
    assert "Waiting for players to sit down." in page.locator("[data-testid=banner]").inner_text()
    board = page.locator("#zg-board").text_content() or ""
    assert "Your turn" not in board and "Your turn" not in page.title()
    assert page.locator("#zg-board .zg-legal").count() == 0
    assert not page.locator("#zg-leave-row").is_visible(), "no leaving (nor its note) before the game starts"
    assert not page.locator("#zg-device-link").is_visible(), "the link to one's seat shows once it is asked for"
    assert page.locator("text=(a bot plays on for you)").count() == 0 or not page.is_visible(
        "text=(a bot plays on for you)"
    )
    for size, name in ((WIDE, "1366"), (PHONE, "390")):
        page.set_viewport_size(size)
        assert _inside(page, "#zg-invites", "input, button, span") == [], name
        screenshot(page, shots, f"waiting-table-{name}")
    assert page.js_errors == []
    page.context.close()


def test_a_clock_has_a_space_before_its_words(browser: Any, web: ThreadedServer) -> None:
    page = new_page(browser, WIDE)
    page.goto(web.url + "/")
    page.select_option("#zg-game", "kuhnah")
    page.check("input[name=pace][value=realtime]")
    page.fill("#zg-name", "Ana")
    page.click("#zg-create-button")
    page.wait_for_url(re.compile(r".*/t/[a-z0-9]+.*"))
    table = TablePage(page)
    table.wait_online()
    table.wait_turn_or_end()
    page.wait_for_function("() => document.querySelector('[data-clock-seat=\"0\"]').textContent !== ''")
    words = page.locator(".zg-seats li[data-seat='0'] .zg-muted").inner_text()
    assert re.fullmatch(r"\d+:\d\d to move", " ".join(words.split())), words
    page.context.close()


def test_the_end_of_a_game_and_its_replay(browser: Any, web: ThreadedServer, shots: Path) -> None:
    page = new_page(browser, WIDE)
    table_id = create_from_lobby(page, web.url, "lucent", ["me", "random"], name="Ana")
    table = TablePage(page)
    table.wait_online()
    table.play_to_end(random.Random(5))
    page.wait_for_selector("#zg-table[data-phase=over]")
    assert not page.locator("#zg-leave-row").is_visible(), "the note that a bot plays on goes with the button"
    assert page.locator("#zg-actions").inner_text().strip() == "The game is over."
    page.goto(f"{web.url}/t/{table_id}/replay")
    page.wait_for_function("() => document.getElementById('zg-step').textContent.startsWith('step 1 of')")
    for button in ("#zg-first", "#zg-prev", "#zg-next", "#zg-last"):
        icon = page.locator(f"{button} svg")
        box = icon.bounding_box()
        assert box is not None and box["width"] >= 10 and box["height"] >= 10, button
        assert page.locator(button).get_attribute("aria-label"), button
    page.click("#zg-last")
    page.wait_for_function(
        "() => { const t = document.getElementById('zg-step').textContent.split(' '); return t[1] === t[3]; }"
    )
    page.click("#zg-first")
    page.wait_for_function("() => document.getElementById('zg-step').textContent.startsWith('step 1 of')")
    for size, name in ((WIDE, "1366"), (PHONE, "390")):
        page.set_viewport_size(size)
        assert _inside(page, ".zg-replay-bar", "button, select, a") == [], name
        screenshot(page, shots, f"replay-{name}")
    assert page.js_errors == []
    page.context.close()


# words of each game's reasons in Spanish (the engine's own explanations, translated)
WHY_WORDS = {"pyramix": ("cara", "cobra", "hueco"), "lucent": ("Gema Foco", "ocupad", "debajo", "base", "color")}


@pytest.mark.parametrize("game", sorted(WHY_WORDS))
def test_clicking_a_part_that_is_no_move_says_why(browser: Any, web: ThreadedServer, shots: Path, game: str) -> None:
    page = new_page(browser, WIDE)
    page.goto(web.url + "/?lang=es")
    create_from_lobby(page, web.url, game, ["me", "random"], name="Ana")
    table = TablePage(page)
    table.wait_online()
    table.wait_turn_or_end()
    n0 = table.n()
    where = page.evaluate(
        """() => {
          const cube = [...document.querySelectorAll('#zg-board [data-why]')].find((g) => {
            const r = g.getBoundingClientRect();
            const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return hit && hit.closest('[data-why]') === g;
          });
          const r = cube.getBoundingClientRect();
          return [r.left + r.width / 2, r.top + r.height / 2, cube.dataset.why];
        }"""
    )
    page.mouse.click(where[0], where[1])
    page.wait_for_function("() => document.getElementById('zg-board-help').dataset.why === 'true'")
    said = page.locator("#zg-board-help").inner_text()
    assert said and table.n() == n0, "a click on a part that is no move says why and moves nothing"
    assert any(word in said for word in WHY_WORDS[game]), said  # the game's reasons, in Spanish
    screenshot(page, shots, f"{game}-why-not-1366")
    page.context.close()


def test_the_other_players_moves_are_marked_and_announced(browser: Any, web: ThreadedServer, shots: Path) -> None:
    page = new_page(browser, WIDE)
    create_from_lobby(page, web.url, "kuhnah", ["me", "random"], name="Ana")
    table = TablePage(page)
    table.wait_online()
    rng = random.Random(2)
    for _ in range(4):
        table.wait_turn_or_end()
        table.play_one(rng)
        table.wait_turn_or_end()  # the bot has moved
        if page.locator("#zg-board .zg-news").count():
            break
    assert page.locator("#zg-board .zg-news").count() >= 1, "what the bot's move changed is marked"
    news = page.locator("[data-testid=news]").text_content() or ""
    assert news.startswith("random (bot 2) "), news  # its move, named, for screen readers
    assert page.locator("[data-testid=news]").get_attribute("aria-live") == "polite"
    screenshot(page, shots, "kuhnah-news-1366")
    page.context.close()
