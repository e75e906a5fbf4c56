"""Nakum: random games run to the end under every player count."""

import random

from ziggurat.core import make_game, random_playout


def test_random_games_end() -> None:
    for players in (2, 3, 4):
        game = make_game("nakum", players)
        rng = random.Random(players)
        for _ in range(5):
            state = random_playout(game.new_initial_state(), rng)
            assert state.is_terminal()
            assert len(state.history) <= game.max_game_length
