"""Playing a table page the way a person does: clicking highlighted parts of the board."""

from __future__ import annotations

import random
from typing import Any

TURN_OR_END = """() => {
  const r = document.getElementById('zg-table');
  return r.dataset.pending !== 'true' && (r.dataset.myTurn === 'true' || r.dataset.phase === 'over');
}"""
# a point of a board element that a click really reaches (nothing covers it there): [key, x, y] (x, y null if none)
REACH = """function reach(el) {
  el.scrollIntoView({block: 'center', inline: 'center'});
  const box = el.getBoundingClientRect();
  const steps = 9;
  for (let i = 0; i <= steps; i++) {
    for (let j = 0; j <= steps; j++) {
      const fx = 0.5 + (i % 2 ? -1 : 1) * Math.ceil(i / 2) / (steps + 1);
      const fy = 0.5 + (j % 2 ? -1 : 1) * Math.ceil(j / 2) / (steps + 1);
      const x = box.left + box.width * fx, y = box.top + box.height * fy;
      const hit = document.elementFromPoint(x, y);
      if (hit && hit.closest('[data-key]') === el) return [el.dataset.key, x, y];
    }
  }
  return [el.dataset.key, null, null];
}"""
PICK = (
    """(choice) => {
  // one highlighted part of the board, and a point of it a click really reaches
  const legal = [...document.querySelectorAll('#zg-board .zg-legal')];
  if (!legal.length) return null;
  return reach(legal[Math.floor(choice * legal.length)]);
  """
    + REACH
    + "\n}"
)
KEY_POINT = (
    """(key) => {
  // the board element with this data-key, and a point of it a click really reaches
  const el = [...document.querySelectorAll('#zg-board [data-key]')].find((e) => e.dataset.key === key);
  return el ? reach(el) : null;
  """
    + REACH
    + "\n}"
)
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
        for _ in range(12):
            picked = self.page.evaluate(PICK, rng.random())
            if picked is None:
                raise AssertionError("it is this seat's turn, but nothing on the board is highlighted")
            key, x, y = picked
            assert x is not None, f"the highlighted {key!r} cannot be clicked: something covers it"
            self.page.mouse.click(x, y)
            try:  # the board may have been drawn again under the mouse (another player's news): then pick again
                self.page.wait_for_function(MOVED_OR_SELECTED, arg=n0, timeout=3_000)
            except Exception:
                continue
            if self.n() != n0:
                return str(key)
        raise AssertionError("twelve clicks did not make a move")

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
