"""Every game explains itself: why not, what happened, how the score comes about (the shared suite).

Over thousands of seeded random positions per game (every player count and
option set of the conformance suite):

* **why not**: every id of the action space, for every player, is legal or has
  an explanation, never both; the built-in games never fall back on the core's
  "not legal" (they name the rule); the explanation is the one ``apply_action``
  raises, and a refused action changes nothing; chance outcomes likewise;
* **what happened**: every legal action (and chance outcome) has a description
  for every audience, naming nothing it may not see: two chance outcomes that
  leave it the same view read the same (a card dealt to another hand), a move
  reads the same in every position consistent with its view, and another
  player's choice in a simultaneous round reads only "makes a choice";
* **score breakdown**: at the end every audience's terms sum to the final
  scores; before, a seat sees its own total, and what it sees is the same in
  every position consistent with its view.

Every message is made from its catalog's template, and is JSON-ready.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from tests.conformance.test_conformance import _option_sets
from ziggurat.core import CHANCE, SIMULTANEOUS, IllegalActionError, ParseActionError, State, game_ids, get_game
from ziggurat.core.message import Message, english, render
from ziggurat.core.registry import make_game

POSITIONS_PER_GAME = 2000
FALLBACKS = {"core.not_legal", "core.chance_impossible", "core.action"}


def _check_message(m: Message) -> None:
    english(m.id)  # every id is in a catalog
    assert m.text == render(m), f"{m.id}: the text is not its template's"
    assert Message.from_json(json.loads(json.dumps(m.to_json()))) == m, f"{m.id} is not JSON-ready"


def _games(game_id: str) -> Iterator[tuple[int, dict[str, Any], int]]:
    """(players, options, seed) round-robin over the game's cases, forever."""
    spec = get_game(game_id).game_class.spec
    cases = [(p, o) for o in _option_sets(game_id) for p in spec.player_counts]
    seed = 0
    while True:
        for players, options in cases:
            yield players, options, seed
        seed += 1


def _check_why_not(state: State, rng: random.Random) -> set[str]:
    """Every action of every player at this position: legal xor explained. Returns the ids seen."""
    game = state.game
    seen: set[str] = set()
    cur = state.current_player()
    movers = state.players_to_move()
    if cur == CHANCE:
        for outcome in range(game.max_chance_outcomes):
            why = state.why_illegal(outcome, CHANCE)
            assert (why is None) == state._chance_legal(outcome), outcome
            if why is not None:
                assert why.id not in FALLBACKS, f"chance outcome {outcome}: {why.text}"
                seen.add(why.id)
        with pytest.raises(ParseActionError):
            state.why_illegal(game.max_chance_outcomes, CHANCE)
    everything = range(game.num_actions)
    for p in range(state.num_players):
        legal = set(state.legal_actions(p))
        refused: list[tuple[int, Message]] = []
        # a player to move: every action; any other: a sample (they are all refused the same way, by the core)
        for action in everything if p in movers else rng.sample(everything, min(5, game.num_actions)):
            why = state.why_illegal(action, p)
            if p in movers:
                assert (why is None) == (action in legal), (p, action, why)
            else:
                assert why is not None, f"player {p + 1} is not to move, yet {action} is not refused"
            if why is not None:
                assert why.id not in FALLBACKS, f"player {p + 1}, {state.action_to_text(action, p)}: {why.text}"
                if why.id not in seen:
                    seen.add(why.id)
                    _check_message(why)
                refused.append((action, why))
        # the refusal is the explanation, and it changes nothing (a sample: applying is dearer than asking)
        before = state.to_json()
        for action, why in rng.sample(refused, min(3, len(refused))):
            with pytest.raises(IllegalActionError) as info:
                state.apply_action(action, p)
            assert info.value.message == why and str(info.value) == why.text
        assert state.to_json() == before
    for bad in (-1, game.num_actions):
        with pytest.raises(ParseActionError):
            state.why_illegal(bad, movers[0] if movers else 0)
    if cur >= 0 or cur == SIMULTANEOUS:
        assert state.why_illegal(state.legal_actions(movers[0])[0], movers[0]) is None
    return seen


def _described(state: State, action: int, actor: int, audience: int | None) -> tuple[Message, str]:
    """The description of ``action`` for ``audience`` and the audience's view once it is applied."""
    message = state.describe_action(action, actor, audience=audience)
    after = state.clone()
    after.apply_action(action, None if actor == CHANCE else actor)
    return message, json.dumps(after.view(audience), sort_keys=True)


def _check_descriptions(state: State, actor: int, rng: random.Random) -> set[str]:
    """Every legal action of ``actor`` (CHANCE: every outcome) described for every audience, leaking nothing.

    A chance outcome is what may be hidden: two outcomes that leave an audience
    the same view must read the same to it. A move is public (its text is in
    everyone's log): what it reads to an audience must be the same in every
    position consistent with that audience's view (a determinisation), so it
    names nothing the audience cannot see.
    """
    seen: set[str] = set()
    actions = [a for a, _ in state.chance_outcomes()] if actor == CHANCE else state.legal_actions(actor)
    for audience in [None, *range(state.num_players)]:
        told: dict[str, Message] = {}
        other = None
        if actor != CHANCE:
            seat = audience if audience is not None else (actor + 1) % state.num_players
            other = state.resample(seat, rng)  # consistent with the view of ``seat``, so with the spectator's too
        for action in actions:
            message, view = _described(state, action, actor, audience)
            assert message.id not in FALLBACKS, message.text
            if message.id not in seen:
                seen.add(message.id)
                _check_message(message)
            if state.current_player() == SIMULTANEOUS and audience != actor:
                assert message.id == "core.choice_hidden", "another player's choice is shown before the reveal"
            if actor == CHANCE:
                earlier = told.setdefault(view, message)
                assert earlier == message, f"audience {audience} is told {message.text!r} and {earlier.text!r} apart"
            elif other is not None and action in other.legal_actions(actor):
                there = other.describe_action(action, actor, audience=audience)
                assert there == message, f"audience {audience} is told {message.text!r}, or {there.text!r}"
    return seen


def _check_breakdowns(state: State, rng: random.Random, resample: bool) -> set[str]:
    seen: set[str] = set()
    over = state.is_terminal()
    for audience in [None, *range(state.num_players)]:
        breakdown = state.score_breakdown(audience)
        assert breakdown.final == over
        assert [p.player for p in breakdown.players] == list(range(state.num_players))
        assert json.loads(json.dumps(breakdown.to_json())) == breakdown.to_json()
        for ps in breakdown.players:
            points = [t.points for t in ps.terms]
            if None in points:
                assert ps.total is None and not over, "only a hidden term hides a total, and only before the end"
            else:
                assert ps.total == pytest.approx(sum(p for p in points if p is not None))
            for term in ps.terms:
                seen.add(term.label.id)
                _check_message(term.label)
        if over:
            assert [p.total for p in breakdown.players] == list(state.scores()), "the terms sum to the scores"
        elif audience is not None:
            assert breakdown.players[audience].total is not None, "a player sees all of their own score"
        if resample and audience is not None and not over:
            other = state.resample(audience, rng)
            assert other.score_breakdown(audience) == breakdown, "the breakdown shows what the view does not"
    return seen


@pytest.mark.parametrize("game_id", game_ids())
def test_every_action_is_legal_or_explained_and_every_move_described(game_id: str) -> None:
    rng = random.Random(f"explain-{game_id}")
    positions = 0
    why_ids: set[str] = set()
    for players, options, seed in _games(game_id):
        state = make_game(game_id, players, options).new_initial_state()
        game_rng = random.Random(seed)
        while not state.is_terminal():
            positions += 1
            why_ids |= _check_why_not(state, rng)
            cur = state.current_player()
            if positions % 5 == 0:
                _check_descriptions(state, cur if cur != SIMULTANEOUS else state.players_to_move()[0], rng)
            if positions % 11 == 0:
                _check_breakdowns(state, rng, resample=True)
            if cur == CHANCE:
                state.apply_action(state.sample_chance(game_rng))
            else:
                p = cur if cur >= 0 else game_rng.choice(state.players_to_move())
                state.apply_action(game_rng.choice(state.legal_actions(p)), p)
        _check_breakdowns(state, rng, resample=False)
        for p in range(state.num_players):
            assert state.why_illegal(0, p) is not None and state.why_illegal(0, p).id == "core.game_over"
        if positions >= POSITIONS_PER_GAME:
            break
    assert why_ids, "no explanation was ever asked for"


@pytest.mark.parametrize("game_id", game_ids())
def test_the_terms_sum_to_the_final_score_in_every_variant(game_id: str) -> None:
    """Random finished games of every player count and option set: each player's terms add up to their score."""
    spec = get_game(game_id).game_class.spec
    for options in _option_sets(game_id):
        for players in spec.player_counts:
            for seed in range(4):
                state = make_game(game_id, players, options).new_initial_state()
                rng = random.Random(seed)
                while not state.is_terminal():
                    if state.is_chance_node():
                        state.apply_action(state.sample_chance(rng))
                    else:
                        p = state.players_to_move()[0]
                        state.apply_action(rng.choice(state.legal_actions(p)), p)
                breakdown = state.score_breakdown(None)
                assert breakdown.final
                for ps, score in zip(breakdown.players, state.scores(), strict=True):
                    assert ps.total == score
                    assert sum(t.points for t in ps.terms if t.points is not None) == pytest.approx(score)
