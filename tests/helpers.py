"""Helpers shared by the tests of every game."""

from __future__ import annotations

import random

from ziggurat.core import CHANCE, SIMULTANEOUS, State


def random_step(state: State, rng: random.Random) -> None:
    """One step of a random game through the checked calls: a chance draw, or a uniform pick per player to move."""
    cur = state.current_player()
    if cur == CHANCE:
        state.apply_action(state.sample_chance(rng))
    elif cur == SIMULTANEOUS:
        for p in state.players_to_move():
            legal = state.legal_actions(p)
            state.apply_action(legal[int(rng.random() * len(legal))], p)
    else:
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.random() * len(legal))])
