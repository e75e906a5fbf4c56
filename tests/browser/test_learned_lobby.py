"""The lobby's seat menus offer the learned bot only at a game and player count a shipped policy fits."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.util import ThreadedServer

OFFERED = "document.querySelectorAll('#zg-seat-list option[value=learned]:not([disabled])').length"


def test_the_lobby_offers_the_learned_bot_only_at_a_game_and_count_it_fits(browser: Any, web: ThreadedServer) -> None:
    pytest.importorskip("torch")
    page = browser.new_page()
    page.goto(web.url + "/")
    for game, players, want in (("kuhnah", 2, 2), ("kuhnah", 3, 0), ("pyramix", 2, 0), ("kuhnah", 2, 2)):
        page.select_option("#zg-game", game)
        page.select_option("#zg-players", str(players))
        assert page.evaluate(OFFERED) == want, (game, players)
    page.select_option("#zg-seat-list li:nth-child(2) select", "learned")
    page.select_option("#zg-players", "3")  # no policy for three: the seat falls back to a random bot
    assert page.eval_on_selector("#zg-seat-list li:nth-child(2) select", "s => s.value") == "random"
    page.close()
