"""Every registered game at every player count, for the adapter tests."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ziggurat.core.errors import ConfigError
from ziggurat.core.game import CHANCE, State
from ziggurat.core.registry import game_ids, get_game, make_game

# numeric options that change the encoding's scales and sizes (jade, rounds, box, colours)
NUMERIC_OPTIONS: list[tuple[str, int, dict[str, Any]]] = [
    ("kuhnah", 4, {"start-jade": 3, "jade-points": 2}),
    ("pyramix", 3, {"ankhs": 7, "cobras": 8, "eye-points": 5}),
    ("lucent", 3, {"colours": 4, "gems": 7}),
    ("kukulkan", 3, {"max-rounds": 8}),
    ("kukulkan", 2, {"block-points": 2, "axis-bonus": 5}),
    ("nakum", 3, {"max-rounds": 6, "start-workers": 3}),
]


def game_player_cases() -> list[tuple[str, int]]:
    """(game id, players) for every registered game and allowed count."""
    return [(gid, n) for gid in game_ids() for n in get_game(gid).game_class.spec.player_counts]


def variant_cases() -> list[tuple[str, str]]:
    """(game id, variant) for every boolean rule variant."""
    return [(gid, v) for gid in game_ids() for v in get_game(gid).game_class.spec.variants]


def option_cases(games: Sequence[str]) -> list[tuple[str, int, dict[str, Any]]]:
    """Each of ``games`` at its smallest and largest count with each boolean option flipped alone, and the
    numeric options of :data:`NUMERIC_OPTIONS`."""
    cases = []
    for gid in games:
        spec = get_game(gid).game_class.spec
        for option in spec.options:
            if option.kind != "bool":
                continue
            for players in sorted({spec.min_players, spec.max_players}):
                options = {option.name: not option.default}
                try:
                    make_game(gid, players, options)
                except ConfigError:  # an option this player count does not allow
                    continue
                cases.append((gid, players, options))
    return cases + [case for case in NUMERIC_OPTIONS if case[0] in games]


def random_step(state: State, rng: random.Random) -> None:
    """One random step: a chance draw, or a random legal action of every player to move."""
    if state.current_player() == CHANCE:
        state.apply_action(state.sample_chance(rng), CHANCE)
        return
    for p in state.players_to_move():
        state.apply_action(rng.choice(state.legal_actions(p)), p)


def case_id(case: tuple[object, ...]) -> str:
    return "-".join(str(c) for c in case)


CASES = game_player_cases()
VARIANTS = variant_cases()
