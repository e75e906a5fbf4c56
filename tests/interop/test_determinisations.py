"""Determinisations handed out by adapters and games hold nothing of the true hidden state."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from ziggurat.interop.openspiel import load  # noqa: E402


def _to_round(game, seed: int):  # type: ignore[no-untyped-def]
    """An OpenSpiel Kukulkán state at the start of a round (after some play)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(40):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    while not (state.current_player() == 0 and not state._core.pending and len(state.zstate.players_to_move()) == 2):
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[0])
    return state


def test_an_opponents_unrevealed_choices_do_not_survive_resampling() -> None:
    game = load("kukulkan", 2)
    checked = 0
    for seed in range(10):
        start = _to_round(game, seed)
        start.apply_action(start.legal_actions()[0])  # player 1 (the observer) chooses
        assert start.current_player() == 1
        twins = []
        for action in start.legal_actions():  # player 2's hidden choice: two the observer cannot tell apart
            state = start.clone()
            state.apply_action(action)
            if not twins or state.information_state_string(0) == twins[0].information_state_string(0):
                twins.append(state)
            if len(twins) == 2:
                break
        if len(twins) < 2:
            continue
        a, b = twins
        assert a.information_state_string(1) != b.information_state_string(1)
        for draw in (0.1, 0.5, 0.9):
            da = a.resample_from_infostate(0, lambda d=draw: d)
            db = b.resample_from_infostate(0, lambda d=draw: d)
            assert str(da) == str(db), "the determinisation depends on the opponent's hidden choice"
            assert da.information_state_string(1) == db.information_state_string(1), "the opponent's history leaked"
            assert da.information_state_string(0) == a.information_state_string(0)
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("players", [2, 3, 4])
def test_lucent_always_redeals_and_never_keeps_the_true_hands(players: int) -> None:
    from ziggurat.core import Match, make_game

    game = make_game("lucent", players)
    for seed in range(6):
        m = Match(game, seed)
        m.run_bots(["random"] * players, max_steps=25)
        state = m.state
        if state.is_terminal():
            continue
        hands = [tuple(h) for h in state.hands]
        rng = random.Random(seed)
        redealt = [state.resample(0, rng) for _ in range(30)]
        for r in redealt:
            assert r.view(0) == state.view(0)
        others = {tuple(tuple(r.hands[q]) for q in range(1, players)) for r in redealt}
        containers = (players - 1) + bool(state.deck) + bool(state.removed)
        if containers >= 2 and len({k for h in hands[1:] for k, n in enumerate(h) if n}) > 1:
            assert len(others) > 1, "resampling must redraw the other hands"


def test_lucent_assignment_is_exact_when_greedy_tries_fail() -> None:
    from ziggurat.games.lucent.rules import LucentState

    # kinds 0..2; container A takes only kind 0, B only kind 1, C anything: only one way to fill A and B
    pool = [0, 0, 1, 1, 2, 2]
    containers = [("A", 2, 0b001), ("B", 2, 0b010), ("C", 2, 0b111)]
    for seed in range(50):
        result = LucentState._assign(pool, containers, random.Random(seed), tries=0)
        assert result is not None
        assert sorted(result["A"]) == [0, 0] and sorted(result["B"]) == [1, 1] and sorted(result["C"]) == [2, 2]
    assert LucentState._assign([0, 1], [("A", 2, 0b001)], random.Random(0), tries=0) is None
