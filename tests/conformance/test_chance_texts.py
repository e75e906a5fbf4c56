"""A chance text names one legal outcome of the node it is given at, or it is refused: every game.

The outcome ids of different kinds of chance node overlap (Nakum's market and
offering draws both count from 0; K'uh Nah's start player and its cards), so a
parser that reads the number and not the kind applies another outcome than the
one written (``market m6`` taken as ``offering o6``). Here every chance text a
game writes anywhere is tried at every chance node of random games: it must
parse to the outcome whose text it is, or raise a ParseActionError or an
IllegalActionError and change nothing.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from ziggurat.core import CHANCE, ActionError, State, game_ids, get_game, make_game

from .test_conformance import _option_sets


def _texts_here(state: State) -> set[str]:
    """The text of every outcome id at this chance node (legal or not), where the game can write one."""
    out = set()
    for a in range(state.game.max_chance_outcomes):
        try:
            out.add(state.action_to_text(a, CHANCE))
        except (ActionError, LookupError, ValueError, TypeError):
            continue
    return out


def _chance_nodes(game_id: str, players: int, options: dict[str, Any], seed: int) -> list[State]:
    """A copy of every chance node of one random game."""
    state = make_game(game_id, players, options).new_initial_state()
    rng = random.Random(seed)
    nodes = []
    while not state.is_terminal():
        if state.is_chance_node():
            nodes.append(state.clone())
            state.apply_action(state.sample_chance(rng))
            continue
        for p in state.players_to_move():
            legal = state.legal_actions(p)
            state.apply_action(legal[int(rng.random() * len(legal))], p)
            if state.is_chance_node() or state.is_terminal():
                break
    return nodes


@pytest.mark.parametrize("game_id", game_ids())
def test_a_chance_text_names_a_legal_outcome_here_or_is_refused(game_id: str) -> None:
    spec = get_game(game_id).game_class.spec
    setups = [
        (players, options) for players in (spec.min_players, spec.max_players) for options in _option_sets(game_id)
    ]
    nodes = [n for i, (players, options) in enumerate(setups) for n in _chance_nodes(game_id, players, options, i)]
    assert nodes, f"{game_id} has no chance nodes"
    every = set().union(*(_texts_here(n) for n in nodes))
    refused = 0
    for node in nodes:
        legal = {a for a, _ in node.chance_outcomes()}
        before = node.to_json()
        for text in every:
            try:
                outcome = node.action_from_text(text, CHANCE)
            except ActionError:
                refused += 1
                continue
            assert outcome in legal and node.action_to_text(outcome, CHANCE) == text, (
                f"{text!r} was taken as {node.action_to_text(outcome, CHANCE)!r}"
            )
        assert node.to_json() == before
    # where some node has fewer outcomes than the game has texts (all but Kukulkán's die), some were refused
    assert refused or all(len(n.chance_outcomes()) == len(every) for n in nodes)
