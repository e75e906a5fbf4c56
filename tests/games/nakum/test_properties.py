"""Nakum: properties of random games, hidden information, the heuristic and the encoding."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.nakum.helpers import game_with
from tests.helpers import random_step
from ziggurat.core import CHANCE, get_game
from ziggurat.games.nakum.balance import Figures, play
from ziggurat.games.nakum.rules import DAY, NakumState


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 4), st.integers(0, 10**6))
def test_random_games_keep_the_invariants(players: int, seed: int) -> None:
    game = game_with(players)
    state = game.new_initial_state()
    assert isinstance(state, NakumState)
    rng = random.Random(seed)
    steps = 0
    last_round = 0
    end_round = 0
    while not state.is_terminal():
        random_step(state, rng)
        steps += 1
        for p in range(players):
            assert state.workers[p] + state.reserve[p] + state.sacrificed[p] == 4
            assert 0 <= state.hand[p] <= state.workers[p]
            for i, lim in enumerate(game.limits):
                assert 0 <= state.res[3 * p + i] <= lim
            if not state.end_triggered:
                assert len(state.made[p]) <= 1, "a second offering makes its round the last"
        assert len(state.market) <= 5 and len(state.offers) <= 2
        assert state.round <= game.max_rounds
        if state.end_triggered:
            end_round = end_round or state.round
            assert state.round == end_round, "no round follows the one of a second offering"
        if state.phase == DAY and state.round > last_round:
            # a new Day: the Night filled the market and the offerings, as far as the decks allow
            last_round = state.round
            assert len(state.market) == 5 or not state.market_deck
            assert len(state.offers) == 2 or not state.offer_deck
            assert state.hand == state.workers and not any(state.occ) and state.explorer == [-1] * 8
    assert steps <= game.max_game_length
    assert state.end_triggered or state.round == game.max_rounds
    assert all(s >= 0 for s in state.scores())


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 4), st.integers(0, 10**6), st.integers(0, 300))
def test_resampling_keeps_the_view_and_redeals_only_hidden_cards(players: int, seed: int, upto: int) -> None:
    state = game_with(players).new_initial_state()
    assert isinstance(state, NakumState)
    rng = random.Random(seed)
    for _ in range(upto):
        if state.is_terminal():
            break
        random_step(state, rng)
    for p in range(players):
        sample = state.resample(p, rng)
        assert sample.view(p) == state.view(p)
        assert sample.view(None) == state.view(None)
        assert sample.hands[p] == state.hands[p]
        assert sample.layout == state.layout and sample.market == state.market and sample.offers == state.offers
        unseen = sorted(state.box + [c for q in range(players) if q != p for c in state.hands[q]])
        unseen += [c for q in range(players) if q != p and state.choice[q] >= 0 for c in [state.choice[q]]]
        redealt = sorted(sample.box + [c for q in range(players) if q != p for c in sample.hands[q]])
        redealt += [c for q in range(players) if q != p and sample.choice[q] >= 0 for c in [sample.choice[q]]]
        assert sorted(unseen) == sorted(redealt)


def test_greedy_clearly_beats_random() -> None:
    figures = Figures()
    for i in range(12):
        seats = ["greedy", "random"] if i % 2 == 0 else ["random", "greedy"]
        play(2, seats, 100 + i, figures)
    assert figures.wins["greedy"] >= 11


def test_greedy_games_end_by_offerings_in_a_sensible_number_of_rounds() -> None:
    figures = Figures()
    for i in range(8):
        play(2, ["greedy", "greedy"], 200 + i, figures)
    assert figures.by_offering >= 6
    assert 4 <= sum(figures.rounds) / len(figures.rounds) <= 10


def test_heuristic_returns_a_legal_action_at_every_kind_of_node() -> None:
    entry = get_game("nakum")
    assert entry.heuristic is not None
    game = game_with(3)
    state = game.new_initial_state()
    assert isinstance(state, NakumState)
    rng = random.Random(5)
    while not state.is_terminal():
        cur = state.current_player()
        if cur == CHANCE:
            state.apply_action(state.sample_chance(rng))
            continue
        movers = state.players_to_move()
        for p in movers:
            a = entry.heuristic(state.resample(p, rng), p, rng)
            assert a in state.legal_actions(p)
            state.apply_action(a, p)


def test_tensor_has_a_fixed_size_and_depends_only_on_the_view() -> None:
    entry = get_game("nakum")
    assert entry.tensor is not None and entry.tensor_size is not None
    for players in (2, 4):
        game = game_with(players)
        state = game.new_initial_state()
        assert isinstance(state, NakumState)
        rng = random.Random(players)
        while not state.is_terminal():
            for p in range(players):
                vec = entry.tensor(game, state.view(p))
                assert len(vec) == entry.tensor_size(game)
                assert vec == entry.tensor(game, state.resample(p, rng).view(p))
            random_step(state, rng)
