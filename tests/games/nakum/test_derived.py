"""Nakum: the bit sets the placement listing reads are kept in step with the board, move by move."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.nakum.helpers import game_with, give, started, texts
from tests.helpers import random_step
from ziggurat.games.nakum.rules import NakumState


def _derived(state: NakumState) -> tuple[object, ...]:
    return (
        state._full,
        list(state._mine),
        state._active,
        state._on_board,
        state._explorable,
        state._free_camps,
        state._market_cards,
        state._offer_cards,
    )


@settings(max_examples=20, deadline=None)
@given(st.integers(2, 4), st.integers(0, 10**6))
def test_sets_kept_move_by_move_match_a_fresh_survey_of_the_board(players: int, seed: int) -> None:
    state = game_with(players).new_initial_state()
    assert isinstance(state, NakumState)
    rng = random.Random(seed)
    fresh = state._copy()
    fresh._survey()
    assert _derived(state) == _derived(fresh), "a new state's sets are those of its board"
    while not state.is_terminal():
        random_step(state, rng)
        assert not state._stale, "nothing outside touched the board lists"
        fresh = state._copy()
        fresh._survey()
        assert _derived(state) == _derived(fresh)
        copy = state.clone()
        assert isinstance(copy, NakumState)
        assert _derived(copy) == _derived(state)


def test_a_board_list_changed_by_hand_is_surveyed_again_before_the_next_listing() -> None:
    state = started(2)
    assert "place maizal basic 1" in texts(state)
    state.occ[state.game.tile_basics[0][0]] = 0b10  # the other player's worker, put there by hand
    state._legal = None  # the engine's own cache of the listing
    assert "place maizal basic 1" not in texts(state)
    assert "place maizal camp" in texts(state), "the worker opens the camp"
    state.cubes[0] = state.game.camp_full[0]
    state._legal = None  # the engine's own cache of the listing
    assert "place maizal camp" not in texts(state), "every option covered"


def test_offerings_changed_by_hand_are_surveyed_again_before_the_next_listing() -> None:
    state = started(2)
    give(state, state.current_player(), maize=9, skins=6, masks=4)  # enough for any offering
    assert "place pyramid" in texts(state)
    state.offers.clear()  # no active offering, put so by hand
    state._legal = None  # the engine's own cache of the listing
    assert "place pyramid" not in texts(state)
