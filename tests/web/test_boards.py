"""Every game's web board, checked the same way on random positions.

For each registered game, player count and audience: the board is well-formed
SVG, drawn the same twice, and every legal action of a seat to move has a click
path whose keys are on the board, with no path the start of another.
"""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from ziggurat.core import Match, game_ids, get_game, make_game
from ziggurat.core.svg import check_paths

GAMES = [g for g in game_ids() if get_game(g).board is not None]


def positions(game_id: str, players: int, seed: int, every: int):
    """States along one random game, every ``every`` decisions, the last one too."""
    match = Match(make_game(game_id, players), seed=seed)
    rng = random.Random(seed)
    match.resolve_chance()
    n = 0
    while not match.state.is_terminal():
        if n % every == 0:
            yield match.state
        for p in match.state.players_to_move():
            legal = match.state.legal_actions(p)
            match.state.apply_action(legal[rng.randrange(len(legal))], p)
            n += 1
        match.resolve_chance()
    yield match.state


def cases():
    for gid in GAMES:
        spec = get_game(gid).game_class.spec
        counts = sorted({spec.min_players, min(spec.min_players + 1, spec.max_players), spec.max_players})
        for players in counts:
            yield pytest.param(gid, players, id=f"{gid}-{players}p")


@pytest.mark.parametrize(("game_id", "players"), list(cases()))
def test_board_on_random_positions(game_id: str, players: int) -> None:
    entry = get_game(game_id)
    assert entry.board is not None
    for seed in (1, 2):
        for state in positions(game_id, players, seed, every=7):
            to_move = state.players_to_move()
            for seat in [None, *range(players)]:
                legal = state.legal_action_texts(seat) if seat is not None and seat in to_move else []
                view = state.view(seat)
                board = entry.board(view, seat, legal)
                root = ET.fromstring(board.svg)
                assert root.tag == "{http://www.w3.org/2000/svg}svg"
                assert entry.board(view, seat, legal) == board, "the same view must draw the same board"
                ids = [a for a, _ in legal]
                assert check_paths(board, ids) == [], (game_id, seat)
                missing = [t for a, t in legal if a not in board.paths]
                assert not missing, f"{game_id}: no click path for {missing}"
