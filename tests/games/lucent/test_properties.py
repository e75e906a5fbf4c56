"""Property tests: the placement rule and hidden information hold in every random game."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import random_step
from ziggurat.core import CHANCE, TERMINAL, make_game
from ziggurat.games.lucent.rules import FOCUS, NUM_SLOTS, OVER, PLAY, SUPPORTS, WIDTH, LucentState


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 5),
    wildcards=st.booleans(),
    geomancers=st.booleans(),
    points=st.booleans(),
    seed=st.integers(0, 10**6),
)
def test_random_games_keep_every_rule(players: int, wildcards: bool, geomancers: bool, points: bool, seed: int) -> None:
    game = make_game("lucent", players, {"wildcards": wildcards, "geomancers": geomancers, "points": points})
    rng = random.Random(seed)
    state = game.new_initial_state()
    assert isinstance(state, LucentState)
    wild = game.deck.wild_kind  # type: ignore[attr-defined]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        p = state.current_player()
        assert not state.out[p] and state.sizes[p] > 0
        for action in state.legal_actions():
            kind, slot = divmod(action, NUM_SLOTS)
            assert state.hands[p][kind] > 0 and state.pyramid[slot] < 0
            if slot >= WIDTH:
                a, b = (state.pyramid[s] for s in SUPPORTS[slot])
                assert a >= 0 and b >= 0
                assert kind >= wild or a >= wild or b >= wild or kind in (a, b)
            elif state.lo >= 0:
                assert slot in (state.lo - 1, state.hi + 1)
        q = rng.randrange(players)
        assert state.resample(q, rng).view(q) == state.view(q)
        state.apply_action(rng.choice(state.legal_actions()))
    # at the end everyone who still holds cards is out (they could not play when their turn came)
    for p in range(players):
        assert state.sizes[p] == 0 or state.out[p]
    filled = [s for s in range(NUM_SLOTS) if state.pyramid[s] >= 0]
    base = [s for s in filled if s < WIDTH]
    assert base == list(range(base[0], base[-1] + 1))


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 5), wildcards=st.booleans(), seed=st.integers(0, 10**6))
def test_open_slots_kept_move_by_move_equal_a_recount(players: int, wildcards: bool, seed: int) -> None:
    game = make_game("lucent", players, {"wildcards": wildcards})
    rng = random.Random(seed)
    state = game.new_initial_state()
    assert isinstance(state, LucentState)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
        if state.lo >= 0:
            assert state.opens == state.open_slots(), "the open slots kept move by move must equal a recount"
            fresh = game.state_from_json(state.to_json())
            assert isinstance(fresh, LucentState) and fresh.opens == state.opens


def _plays_by_the_rule(state: LucentState, player: int) -> list[int]:
    """Every card ``player`` holds at every slot where the placement rule lets it go, kind by kind, slot by slot."""
    g = state.game
    wild = g.deck.wild_kind
    pyr = state.pyramid
    plays = []
    for kind in range(g.num_kinds):
        if not state.hands[player][kind]:
            continue
        for slot in range(NUM_SLOTS):
            if pyr[slot] >= 0:
                continue
            if slot < WIDTH:
                fits = slot == FOCUS if state.lo < 0 else slot in (state.lo - 1, state.hi + 1)
            else:
                a, b = (pyr[s] for s in SUPPORTS[slot])
                fits = a >= 0 and b >= 0 and (kind >= wild or a >= wild or b >= wild or kind in (a, b))
            if fits:
                plays.append(kind * NUM_SLOTS + slot)
    return plays


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 5),
    wildcards=st.booleans(),
    geomancers=st.booleans(),
    seed=st.integers(0, 10**6),
)
def test_legal_plays_are_every_card_that_fits_in_order(
    players: int, wildcards: bool, geomancers: bool, seed: int
) -> None:
    """The plays listed from the open slots kept move by move are exactly those of the rule, ascending, also in a
    determinisation (whose hands were redealt) and in a state loaded from its record."""
    game = make_game("lucent", players, {"wildcards": wildcards, "geomancers": geomancers})
    rng = random.Random(seed)
    state = game.new_initial_state()
    assert isinstance(state, LucentState)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        p = state.current_player()
        assert state.legal_actions() == _plays_by_the_rule(state, p)
        det = state.resample(rng.randrange(players), rng)
        assert isinstance(det, LucentState)
        assert det.legal_actions() == _plays_by_the_rule(det, det.current_player())
        fresh = game.state_from_json(state.to_json())
        assert isinstance(fresh, LucentState) and fresh.legal_actions() == state.legal_actions()
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.random() * len(legal))])


def test_who_decides_is_kept_in_step_with_the_phase() -> None:
    """``current`` is a field set at every change of turn: it must say what the phase and the player to move say."""
    for players in (2, 5):
        game = make_game("lucent", players, {"wildcards": players == 5})
        rng = random.Random(players)
        for _ in range(20):
            state = game.new_initial_state()
            assert isinstance(state, LucentState)
            while True:
                phase = state.phase
                assert state.current == (state.to_move if phase == PLAY else TERMINAL if phase == OVER else CHANCE)
                if state.is_terminal():
                    break
                random_step(state, rng)
