"""Positions to fuzz from: seeded random games of every game, stopped at many points."""

from __future__ import annotations

import functools
import random

from ziggurat.core import CHANCE, SIMULTANEOUS, State, game_ids, get_game, make_game


def _players(game_id: str) -> int:
    spec = get_game(game_id).game_class.spec
    return max(spec.min_players, min(3, spec.max_players))


@functools.cache
def positions(game_id: str, games: int = 2, every: int = 7) -> tuple[State, ...]:
    """States met in ``games`` random games: every ``every``-th, each mid-simultaneous one, and the end."""
    game = make_game(game_id, _players(game_id))
    out: list[State] = []
    for seed in range(games):
        rng = random.Random(f"fuzz/{game_id}/{seed}")
        state = game.new_initial_state()
        step = 0
        while not state.is_terminal():
            cur = state.current_player()
            if step % every == 0 or (cur == SIMULTANEOUS and len(out) < 200 and rng.random() < 0.2):
                out.append(state.clone())
            if cur == CHANCE:
                state.apply_action(state.sample_chance(rng))
            else:
                p = state.players_to_move()[0]
                state.apply_action(rng.choice(state.legal_actions(p)), p)
            step += 1
        out.append(state.clone())
    return tuple(out)


GAMES = game_ids()
