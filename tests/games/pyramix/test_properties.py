"""Pyramix property tests (hypothesis): the rules in their general form, over random games."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.pyramix.helpers import build, game, oracle_legal, unsupported
from tests.helpers import random_step
from ziggurat.core import CHANCE, TERMINAL, random_playout
from ziggurat.games.pyramix.geometry import LABELS, NUM_BASE, NUM_POSITIONS
from ziggurat.games.pyramix.rules import MAX_REMOVALS, PyramixState

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def _stack(seed: int, players: int) -> PyramixState:
    s = game(players).new_initial_state()
    rng = random.Random(seed)
    while s.is_chance_node():
        s.apply_action(s.sample_chance(rng))
    return s


def _cubes(s: PyramixState) -> list[int]:
    """Every cube in play or taken, counted by kind."""
    k = s.game.num_kinds
    return [s.grid.count(i) + sum(s.coll[p * k + i] for p in range(s.num_players)) for i in range(k)]


@settings(max_examples=40, deadline=None)
@given(seed=seeds, players=st.integers(2, 4))
def test_every_cube_above_the_tray_rests_on_three_cubes_at_every_step(seed, players):
    s = _stack(seed, players)
    rng = random.Random(seed ^ 0x5EED)
    total = _cubes(s)
    steps = 0
    while not s.is_terminal():
        assert s.legal_actions() == oracle_legal(s)
        assert unsupported(s) == []
        occupied = sum(1 for k in s.grid if k >= 0)
        mover = s.current_player()
        taken = sum(s.collection(mover))
        legal = s.legal_actions()
        s.apply_action(legal[int(rng.random() * len(legal))])
        steps += 1
        # one cube leaves the pyramid, into the mover's collection; no cube is lost or made
        assert sum(1 for k in s.grid if k >= 0) == occupied - 1
        assert sum(s.collection(mover)) == taken + 1
        assert _cubes(s) == total
    assert unsupported(s) == []
    assert oracle_legal(s) == []
    assert steps <= MAX_REMOVALS
    assert len(s.history) <= s.game.max_game_length


@settings(max_examples=40, deadline=None)
@given(seed=seeds, players=st.integers(2, 4))
def test_without_cobras_every_game_removes_exactly_35_cubes(seed, players):
    rng = random.Random(seed)
    codes = [c for c in (["ba", "bc", "be", "pa", "pc", "pe", "oa", "oc", "oe", "ga", "gc", "ge"]) for _ in range(5)][
        :NUM_POSITIONS
    ]
    rng.shuffle(codes)
    s = build(dict(zip(LABELS, codes, strict=True)), players=players)
    random_playout(s, rng)
    assert len(s.history) == 35 == NUM_POSITIONS - NUM_BASE
    assert all(k >= 0 for k in s.grid[:NUM_BASE]) and all(k < 0 for k in s.grid[NUM_BASE:])


@settings(max_examples=25, deadline=None)
@given(seed=seeds)
def test_incremental_bookkeeping_matches_a_recount(seed):
    s = _stack(seed, 3)
    rng = random.Random(seed + 1)
    while not s.is_terminal():
        legal = s.legal_actions()
        s.apply_action(legal[int(rng.random() * len(legal))])
        fresh = s.game.state_from_json(s.to_json())
        assert isinstance(fresh, PyramixState)
        assert fresh.cover == s.cover and fresh.legal_actions() == s.legal_actions()
        assert fresh.near == s.near, "the cobra counts kept move by move must equal a recount"


@settings(max_examples=25, deadline=None)
@given(seed=seeds, players=st.integers(2, 4))
def test_scores_follow_the_ruling(seed, players):
    s = _stack(seed, players)
    random_playout(s, random.Random(seed))
    box = s.game.box
    out = set(s.tray_out())
    expected = [sum(n * box.points[k] for k, n in enumerate(s.collection(p))) for p in range(players)]
    for colour in range(len(box.colours)):
        ankhs = [s.collection(p)[box.kind_of(colour, box.majority_icon)] for p in range(players)]
        best = max(ankhs)
        if best == 0 or ankhs.count(best) > 1:
            continue
        winner = ankhs.index(best)
        for p in range(NUM_BASE):
            if p not in out and box.colour_of[s.grid[p]] == colour:
                expected[winner] += box.points[s.grid[p]]
    assert list(s.scores()) == expected
    # cobras in the tray and their neighbours are out; nothing else is
    for p in range(NUM_BASE):
        if s.grid[p] == s.game.cobra:
            assert p in out


def test_who_decides_is_kept_in_step_with_the_position() -> None:
    """``current`` is a field: chance while cubes are stacked, then whoever is to move while a cube can be taken."""
    for players in (2, 4):
        rng = random.Random(players)
        for _ in range(10):
            s = game(players).new_initial_state()
            assert isinstance(s, PyramixState)
            while True:
                expected = CHANCE if s.fill < NUM_POSITIONS else s.to_move if s.moves else TERMINAL
                assert s.current == expected
                assert s.game.state_from_json(s.to_json()).current == expected and s.clone().current == expected
                if s.is_terminal():
                    break
                random_step(s, rng)
