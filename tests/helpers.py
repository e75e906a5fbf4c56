"""Helpers shared by the tests of every game."""

from __future__ import annotations

import random

import pytest

from ziggurat.core import CHANCE, SIMULTANEOUS, IllegalActionError, State
from ziggurat.core.message import Message


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


def refusal(state: State, action: int | str, player: int | None = None) -> Message:
    """The reason ``action`` (an id or an action text) of ``player`` is refused.

    Checks the contract on the way: the error carries the message (its English is
    the error's text), the state is left as it was, and for an id
    ``why_illegal`` gives the very same message.
    """
    before = state.to_json()
    with pytest.raises(IllegalActionError) as info:
        if isinstance(action, str):
            state.apply_text(action, player)
        else:
            state.apply_action(action, player)
    assert state.to_json() == before, "a refused action changed the state"
    message = info.value.message
    assert message is not None, "the refusal carries no message"
    assert str(info.value) == message.text
    if not isinstance(action, str):
        assert state.why_illegal(action, player) == message
    return message
