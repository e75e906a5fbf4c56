"""The backstop's test, "could anyone act on some roll", against a brute force over every roll and help.

``KukulkanState.could_act`` answers from three facts (an undrawn segment, an
unmarked numbered block once all is drawn, a writable block over 2 or more, or
over 1 with same-value held). Here a brute force written from the rules alone
tries every roll 1..6 with every help the player still holds (none, plus/minus
one or its permanent form, super-six on a 6, same-value) and every Draw (trails
found by a depth-first search over the sheet's geometry), Write and Mark, on
thousands of random sheets: every segment drawn, blocks that can never be
written, one player and several. The engine's own legal actions at each roll
must agree too (something besides a pass exactly when the brute force can act).
"""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from ziggurat.games.kukulkan.rules import KukulkanGame, KukulkanState

from .helpers import game, position, random_sheet


class Brute:
    """The rules of one sheet written plainly: no masks, no tables, no caches."""

    def __init__(self, g: KukulkanGame):
        sh = g.sheet
        self.sheet = sh
        self.at: dict[tuple[float, float], list[tuple[int, tuple[float, float]]]] = defaultdict(list)
        for s, (x1, y1, x2, y2) in enumerate(sh.segments):
            self.at[(x1, y1)].append((s, (x2, y2)))
            self.at[(x2, y2)].append((s, (x1, y1)))

    def longest_trail(self, drawn: set[int]) -> int:
        """The most undrawn segments (up to 6) one trail can take, each starting where the last ended.

        A trail of n holds one of every shorter length (its beginning), so this says which n can be drawn.
        """
        best = 0

        def walk(point: tuple[float, float], used: set[int]) -> None:
            nonlocal best
            best = max(best, len(used))
            if best == 6:
                return
            for s, other in self.at[point]:
                if s not in drawn and s not in used:
                    walk(other, used | {s})

        for point in self.at:
            walk(point, set())
        return best

    def facts(self, st: KukulkanState, p: int) -> tuple[int, list[int], list[int], set[str], bool]:
        """What ``p``'s sheet allows whatever the roll: longest trail, writes' support sums, marks' values."""
        g = st.game
        view = st.view(p)["sheets"][p]
        drawn = set(view["drawn"])
        values = {b: v for b, v in enumerate(view["values"]) if v}
        marked = set(view["marked"])
        sh = self.sheet
        closed = {b for b in range(g.B) if set(sh.outline[b]) <= drawn}
        writes = [
            sum(values[x] for x in sh.supports[b])
            for b in range(g.B)
            if sh.blocks[b].row > 0 and b not in values and b in closed and all(x in values for x in sh.supports[b])
        ]
        marks = [v for b, v in values.items() if b not in marked and (sh.blocks[b].row > 0 or b in closed)]
        return self.longest_trail(drawn), writes, marks, set(view["helps_used"]), view["permanent_plus_minus"]

    @staticmethod
    def can_act(facts: tuple[int, list[int], list[int], set[str], bool], roll: int) -> bool:
        """Whether the sheet of ``facts`` can draw, write or mark on ``roll``, with no help or one help still held."""
        longest, writes, marks, used, permanent = facts

        def acts(n: int) -> bool:
            return n <= longest or any(t > n for t in writes) or n in marks

        tries = {roll}
        if "plus-one" not in used or permanent:
            tries |= {roll - 1 if roll > 1 else 6, roll + 1 if roll < 6 else 1}
        if roll == 6 and "super-six" not in used:
            tries |= {1, 2, 3, 4, 5}
        same = "same-value" not in used and any(t == roll for t in writes)
        return same or any(acts(n) for n in tries)


GAMES = {players: game(players) for players in (1, 2, 3)}


def _sheets(seed: int, count: int) -> list[tuple[int, list[dict]]]:  # type: ignore[type-arg]
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        players = rng.choice((1, 1, 2, 3))
        out.append((players, [random_sheet(GAMES[players], rng) for _ in range(players)]))
    return out


@pytest.mark.parametrize("seed", range(4))
def test_could_act_is_exact(seed: int) -> None:
    seen: dict[str, int] = defaultdict(int)
    brutes: dict[int, Brute] = {}
    for players, sheets in _sheets(seed, 800):
        st = position(players=players, sheets=sheets, g=GAMES[players])
        brute = brutes.setdefault(players, Brute(st.game))
        for p in range(players):
            expected = any(brute.can_act(brute.facts(st, p), n) for n in range(1, 7))
            assert st.could_act(p) == expected, (sheets[p], p)
            seen["could act" if expected else "could not act"] += 1
            if len(st.view(None)["sheets"][p]["drawn"]) == st.game.S:
                seen["every segment drawn"] += 1
                seen["every segment drawn, could act" if expected else "every segment drawn, stuck"] += 1
        assert st._anyone_could_act() == any(st.could_act(p) for p in range(players))
        seen[f"{players} players"] += 1
    for kind in ("could act", "could not act", "every segment drawn, could act", "every segment drawn, stuck",
                 "1 players", "3 players"):  # fmt: skip
        assert seen[kind] > 40, dict(seen)


def test_every_roll_agrees_with_the_engines_legal_actions() -> None:
    """At each roll the engine offers more than a pass exactly when the brute force finds an action."""
    seen: dict[str, int] = defaultdict(int)
    brutes: dict[int, Brute] = {}
    for players, sheets in _sheets(99, 500):
        facts = None
        for roll in range(1, 7):
            st = position(players=players, die=roll, sheets=sheets, g=GAMES[players])
            brute = brutes.setdefault(players, Brute(st.game))
            facts = facts or [brute.facts(st, p) for p in range(players)]
            for p in range(players):
                expected = brute.can_act(facts[p], roll)
                offered = st.legal_actions(p) != [st.game.pass_id]
                assert offered == expected, (sheets[p], roll, st.legal_action_texts(p))
                seen[f"{expected}"] += 1
                if expected and st.game.pass_id in st.legal_actions(p):
                    seen["only with a help"] += 1
    assert seen["True"] > 200 and seen["False"] > 200 and seen["only with a help"] > 20, dict(seen)


def test_blocks_that_can_never_be_written_are_found_by_the_sheets() -> None:
    """The random sheets hold writable blocks over a 1, the case only same-value can write."""
    found = 0
    for players, sheets in _sheets(7, 400):
        st = position(players=players, sheets=sheets, g=GAMES[players])
        for p in range(players):
            found += any(t == 1 for _, t in st._writable(p))
    assert found > 20
