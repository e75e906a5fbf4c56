"""Playing a table page the way a person does: clicking highlighted parts of the board."""

from __future__ import annotations

import random
from typing import Any

TURN_OR_END = """() => {
  const r = document.getElementById('zg-table');
  return r.dataset.pending !== 'true' && (r.dataset.myTurn === 'true' || r.dataset.phase === 'over');
}"""
MOVED_OR_SELECTED = """(n0) => {
  const r = document.getElementById('zg-table');
  return Number(r.dataset.n) !== n0 || document.querySelector('#zg-board .zg-selected') !== null;
}"""


class TablePage:
    """One seat's (or a spectator's) table page in a browser tab."""

    def __init__(self, page: Any):
        self.page = page
        self.root = page.locator("#zg-table")

    def n(self) -> int:
        """The page's event number (log entries shown)."""
        return int(self.root.get_attribute("data-n") or 0)

    def phase(self) -> str:
        """waiting, playing or over."""
        return self.root.get_attribute("data-phase") or ""

    def wait_online(self, timeout: float = 15_000) -> None:
        """Until the socket says welcome."""
        self.page.wait_for_selector("#zg-conn[data-state=online]", timeout=timeout)

    def wait_turn_or_end(self, timeout: float = 30_000) -> str:
        """Until this seat must move or the game is over; returns the phase."""
        self.page.wait_for_function(TURN_OR_END, timeout=timeout)
        return self.phase()

    def play_one(self, rng: random.Random) -> str:
        """Make one move by clicks on the board (a move of several clicks is built click by click)."""
        n0 = self.n()
        for _ in range(8):
            legal = self.page.locator("#zg-board .zg-legal")
            count = legal.count()
            if count == 0:
                raise AssertionError("it is this seat's turn, but nothing on the board is highlighted")
            target = legal.nth(rng.randrange(count))
            key = target.get_attribute("data-key") or ""
            target.click()
            self.page.wait_for_function(MOVED_OR_SELECTED, arg=n0, timeout=15_000)
            if self.n() != n0:
                return key
        raise AssertionError("eight clicks did not make a move")

    def play_to_end(self, rng: random.Random, limit: int = 2000, shot: Any = None) -> int:
        """Play every turn of this seat by clicks until the game is over; returns the number of moves."""
        moves = 0
        while self.wait_turn_or_end() != "over":
            self.play_one(rng)
            moves += 1
            if shot is not None:
                shot(moves)
            assert moves < limit, "the game did not end"
        return moves
