"""The trusted fast path against the checked path, for every registered game x player count x variant.

``apply_trusted`` skips the legality check and the chance samplers skip the
outcome list; the checked ``apply_action`` and ``chance_outcomes`` are the
reference. Every step of many seeded games is played on two states, one by
each path, and the states must stay identical; every chance node's direct test
(``_chance_legal``) and one-draw sampler must agree with its outcome list.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.conformance.test_conformance import CASES
from ziggurat.core import CHANCE, SIMULTANEOUS, State, make_game, random_playout

GAMES_PER_CASE = 40


def _check_chance_node(state: State, rng: random.Random) -> None:
    outcomes = state.chance_outcomes()
    ids = {a for a, _ in outcomes}
    for a in range(state.game.max_chance_outcomes):
        assert state._chance_legal(a) == (a in ids), f"chance outcome {a}: direct test disagrees with the list"
    # the game's one-draw sampler picks what the generic one picks from the same number
    seed = rng.random()
    assert state.sample_chance(random.Random(seed)) == State.sample_chance(state, random.Random(seed))


def play_both_ways(game_id: str, players: int, options: dict[str, Any], seed: int) -> int:
    """Play one seeded random game on a checked and a trusted state side by side; return its length."""
    game = make_game(game_id, players, options)
    rng = random.Random(f"fast-path/{seed}")
    checked = game.new_initial_state()
    trusted = game.new_initial_state()
    steps = 0
    while not checked.is_terminal():
        cur = checked.current_player()
        assert trusted.current_player() == cur
        if cur == CHANCE:
            _check_chance_node(checked, rng)
            moves = [(CHANCE, checked.sample_chance(rng))]
        else:
            movers = checked.players_to_move()
            assert trusted.players_to_move() == movers
            moves = []
            for p in movers:
                legal = checked.legal_actions(p)
                assert trusted.legal_actions(p) == legal
                moves.append((p, legal[int(rng.random() * len(legal))]))
                if cur == SIMULTANEOUS:
                    break  # one submission at a time: the next mover's choices may depend on it
        for p, action in moves:
            checked.apply_action(action, None if cur >= 0 or cur == CHANCE else p)
            trusted.apply_trusted(action, p if cur == SIMULTANEOUS else None)
        steps += 1
        assert trusted.history == checked.history
        assert trusted._dump() == checked._dump(), f"step {steps}: the trusted path left a different state"
    assert trusted.is_terminal()
    assert trusted.outcome() == checked.outcome()
    return steps


@pytest.mark.parametrize(("game_id", "players", "options"), CASES)
def test_trusted_path_gives_the_checked_states(game_id: str, players: int, options: dict[str, Any]) -> None:
    lengths = [play_both_ways(game_id, players, options, seed) for seed in range(GAMES_PER_CASE)]
    assert min(lengths) > 0


@pytest.mark.parametrize(("game_id", "players", "options"), CASES)
def test_random_playout_equals_a_checked_playout(game_id: str, players: int, options: dict[str, Any]) -> None:
    game = make_game(game_id, players, options)
    for seed in range(GAMES_PER_CASE):
        fast = random_playout(game.new_initial_state(), random.Random(seed))
        rng = random.Random(seed)
        slow = game.new_initial_state()
        while not slow.is_terminal():  # the loop random_playout had before the fast path
            cur = slow.current_player()
            if cur >= 0:
                legal = slow.legal_actions()
                slow.apply_action(legal[int(rng.random() * len(legal))])
            elif cur == CHANCE:
                slow.apply_action(State.sample_chance(slow, rng))
            else:
                for p in slow.players_to_move():
                    legal = slow.legal_actions(p)
                    slow.apply_action(legal[int(rng.random() * len(legal))], p)
        assert fast.history == slow.history
        assert fast == slow


def test_trusted_path_needs_the_player_at_a_simultaneous_node() -> None:
    from ziggurat.core import IllegalActionError

    state = make_game("kukulkan", 2).new_initial_state()
    state.apply_trusted(3)  # the die: a 4
    assert state.current_player() == SIMULTANEOUS
    before = state._dump()
    with pytest.raises(IllegalActionError, match="say which player"):
        state.apply_trusted(state.legal_actions(0)[0])
    assert state._dump() == before


def test_checked_chance_outcomes_are_still_refused() -> None:
    from ziggurat.core import IllegalActionError, ParseActionError

    for game_id, players in (("kuhnah", 3), ("pyramix", 2), ("lucent", 3), ("kukulkan", 2), ("nakum", 2)):
        state = make_game(game_id, players).new_initial_state()
        assert state.current_player() == CHANCE
        ids = {a for a, _ in state.chance_outcomes()}
        before = state._dump()
        impossible = [a for a in range(state.game.max_chance_outcomes) if a not in ids]
        for bad in impossible[:3]:
            with pytest.raises(IllegalActionError):
                state.apply_action(bad)
        for bad in (-1, state.game.max_chance_outcomes, "1", None, 1.5):
            with pytest.raises(ParseActionError):
                state.apply_action(bad)  # type: ignore[arg-type]
        assert state._dump() == before and state.history == []
