"""Helpers shared by the tests of every game."""

from __future__ import annotations

import random
from typing import NamedTuple

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


class Refusal(NamedTuple):
    """A hand-built refusal: ``action`` (an id or a text) of ``player`` in ``state``.

    ``fixed``: the same position with the rule met, where the action is legal
    (it checks the explanation against the rule: that rule, and nothing else,
    stood in the way).
    """

    state: State
    action: int | str
    player: int | None = None
    fixed: State | None = None


def message_ids(message: Message) -> set[str]:
    """The ids of ``message`` and of every message nested in its parameters."""
    ids = {message.id}
    for value in message.params.values():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, Message):
                ids |= message_ids(item)
    return ids


def check_refusal(case: Refusal, message_id: str) -> Message:
    """The refusal of ``case`` names ``message_id`` (itself or nested), and ``case.fixed`` makes the move legal."""
    why = refusal(case.state, case.action, case.player)
    assert message_id in message_ids(why), f"expected {message_id}, got {why.id}: {why.text}"
    if case.fixed is not None:
        fixed = case.fixed
        if isinstance(case.action, str):
            action = fixed.action_from_text(case.action, case.player)  # raises unless legal
        else:
            action = case.action
        assert fixed.why_illegal(action, case.player) is None, fixed.why_illegal(action, case.player)
    return why
