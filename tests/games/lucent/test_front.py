"""Registration, rendering, the observation tensor, the greedy heuristic and the points match."""

from __future__ import annotations

import random

from rich.console import Console

from ziggurat.core import CHANCE, get_game, make_game
from ziggurat.games.lucent import RULES
from ziggurat.games.lucent.encode import tensor, tensor_size
from ziggurat.games.lucent.heuristic import heuristic
from ziggurat.games.lucent.match import PointsMatch, play_points_match, seat_of

from .helpers import deal


def test_registered_with_everything() -> None:
    entry = get_game("lucent")
    assert entry.rules == RULES and "Focus Gem" in RULES
    assert entry.render and entry.heuristic and entry.tensor and entry.tensor_size
    assert get_game("Lucent").id == "lucent"
    assert make_game("lucent", 2).spec.variants == ("wildcards", "geomancers", "geomancer-focus", "points")


def test_render_draws_the_view() -> None:
    game = make_game("lucent", 3, {"wildcards": True})
    rng = random.Random(2)
    state = deal(game, rng)  # type: ignore[arg-type]
    for _ in range(12):
        state.apply_action(rng.choice(state.legal_actions()))
    console = Console(width=120, record=True, color_system=None)
    console.print(get_game("lucent").render(state.view(1), 1))  # type: ignore[misc]
    text = console.export_text()
    assert "Your hand" in text and "Player 3" in text and "cards" in text
    assert "any" in text or "+" in text  # open slots say what may go there
    console.print(get_game("lucent").render(state.view(None), None))  # type: ignore[misc]


def test_tensor_has_a_fixed_size_and_depends_on_the_view_only() -> None:
    for players in (2, 5):
        game = make_game("lucent", players, {"geomancers": True})
        rng = random.Random(players)
        state = game.new_initial_state()
        size = tensor_size(game)
        while not state.is_terminal():
            v = state.view(0)
            t = tensor(game, v)
            assert len(t) == size and all(0.0 <= x <= 1.0 for x in t)
            assert tensor(game, state.resample(0, rng).view(0)) == t
            state.apply_action(
                state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
            )


def _play(game, greedy_seat: int, seed: int) -> bool:  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        cur = state.current_player()
        if cur == CHANCE:
            state.apply_action(state.sample_chance(rng))
        elif cur == greedy_seat:
            state.apply_action(heuristic(state.resample(cur, rng), cur, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state.outcome().ranks[greedy_seat] == 1


def test_greedy_beats_random() -> None:
    game = make_game("lucent", 3, {"points": True, "geomancers": True})
    wins = sum(_play(game, i % 3, i) for i in range(90))
    assert wins / 90 > 0.6  # 84% with these seeds; random would win about a third


def test_greedy_clearly_beats_random_with_two_players() -> None:
    game = make_game("lucent", 2)
    wins = sum(_play(game, i % 2, 1000 + i) for i in range(200))
    assert wins / 200 > 0.65  # 83.5% with these seeds; random against random wins half


def test_greedy_picks_a_legal_play() -> None:
    game = make_game("lucent", 4, {"wildcards": True})
    rng = random.Random(5)
    state = deal(game, rng)  # type: ignore[arg-type]
    for _ in range(10):
        p = state.current_player()
        a = heuristic(state.resample(p, rng), p, rng)
        assert a in state.legal_actions()
        state.apply_action(a)


def test_points_match_rotates_the_deal_and_adds_up() -> None:
    result = play_points_match(3, games=6, bots=["random"] * 3, seed=3, options={"geomancers": True})
    assert len(result.games) == 6
    assert result.totals == [sum(g[m] for g in result.games) for m in range(3)]
    assert all(sum(g) >= 1 for g in result.games)  # the last placer always scores
    assert result.leaders
    # deal rotation: in game i, match player i sits in seat 0 (goes first)
    assert [seat_of(i % 3, i, 3) for i in range(6)] == [0] * 6


def test_points_match_by_hand() -> None:
    match = PointsMatch(2)
    assert match.add_game([2.0, 1.0]) == [2.0, 1.0]  # game 0: player 1 in seat 1
    assert match.add_game([3.0, 0.0]) == [0.0, 3.0]  # game 1: player 2 in seat 1
    assert match.totals == [2.0, 4.0] and match.leaders == [1]
