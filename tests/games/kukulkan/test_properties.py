"""Property tests: trails (legality is exact and a player can never get stuck) and plus/minus one."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import random_step
from ziggurat.core import CHANCE, SIMULTANEOUS, TERMINAL, make_game
from ziggurat.games.kukulkan.rules import CHOOSE, DIE, OVER, ROLL, plus_minus

from .helpers import game, position

G = game()
SHEET = G.sheet


def brute_first_segments(drawn: set[int], n: int) -> list[int]:
    """Every segment that begins some trail of exactly n undrawn segments (plain enumeration)."""
    firsts: set[int] = set()

    def walk(point: int, used: frozenset[int], first: int | None) -> None:
        if len(used) == n:
            assert first is not None
            firsts.add(first)
            return
        for s in SHEET.point_segs[point]:
            if s in drawn or s in used:
                continue
            a, b = SHEET.seg_ends[s]
            walk(b if a == point else a, used | {s}, s if first is None else first)

    for p in range(len(SHEET.points)):
        walk(p, frozenset(), None)
    return sorted(firsts)


masks = st.sets(st.integers(0, len(SHEET.segments) - 1))
values = st.integers(1, DIE)


@settings(max_examples=150, deadline=None)
@given(drawn=masks, n=values)
def test_first_segments_are_exactly_the_starts_of_some_trail(drawn: set[int], n: int) -> None:
    mask = sum(1 << s for s in drawn)
    assert list(G.first_segments(mask, n)) == brute_first_segments(drawn, n)
    assert G.can_draw(mask, n) == bool(brute_first_segments(drawn, n))


@settings(max_examples=150, deadline=None)
@given(drawn=masks, n=values, choices=st.lists(st.integers(0, 10**6), min_size=6, max_size=6))
def test_a_trail_begun_legally_always_completes_to_exactly_n(drawn: set[int], n: int, choices: list[int]) -> None:
    state = position(die=n, sheets=[{"drawn": sorted(drawn)}], g=G)
    first = [a for a in state.legal_actions(0) if a < G.S]
    if not first:
        return
    trail: list[int] = []
    for i in range(n):
        legal = state.legal_actions(0)
        assert legal, "a player must never get stuck inside a trail"
        segs = [a for a in legal if a < G.S] if i == 0 else legal
        assert all(a < G.S for a in segs)
        action = segs[choices[i] % len(segs)]
        trail.append(action)
        state.apply_action(action, 0)
    assert state.is_chance_node() or state.is_terminal()
    # exactly n distinct undrawn segments, each touching the previous one
    assert len(set(trail)) == n and not set(trail) & drawn
    for a, b in itertools.pairwise(trail):
        assert set(SHEET.seg_ends[a]) & set(SHEET.seg_ends[b])
    # and the trail is a single continuous walk: the joint used never repeats backwards
    points = [set(SHEET.seg_ends[s]) for s in trail]
    if n >= 3:
        for i in range(1, n - 1):
            into = points[i - 1] & points[i]
            out = points[i] & points[i + 1]
            assert into != out or len(points[i]) == 1


@given(n=values)
def test_plus_minus_one_stays_on_the_die_and_wraps(n: int) -> None:
    lo, hi = plus_minus(n)
    assert 1 <= lo < hi <= DIE
    assert {(n - lo) % DIE, (hi - n) % DIE} <= {1, DIE - 1}
    assert {lo, hi} == {(n - 2) % DIE + 1, n % DIE + 1}


def test_who_decides_is_kept_in_step_with_the_phase() -> None:
    """``current`` is a field set with every change of phase: chance rolls, players choose together, then the end."""
    who = {ROLL: CHANCE, CHOOSE: SIMULTANEOUS, OVER: TERMINAL}
    for players in (1, 4):
        game = make_game("kukulkan", players)
        rng = random.Random(players)
        for _ in range(5):
            state = game.new_initial_state()
            while True:
                assert state.current == who[state.phase]
                again = game.state_from_json(state.to_json())
                assert again.current == state.current and state.clone().current == state.current
                if state.is_terminal():
                    break
                random_step(state, rng)
