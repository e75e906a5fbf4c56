"""Every registered game at every player count, for the adapter tests."""

from __future__ import annotations

from ziggurat.core.registry import game_ids, get_game


def game_player_cases() -> list[tuple[str, int]]:
    """(game id, players) for every registered game and allowed count."""
    return [(gid, n) for gid in game_ids() for n in get_game(gid).game_class.spec.player_counts]


def variant_cases() -> list[tuple[str, str]]:
    """(game id, variant) for every boolean rule variant."""
    return [(gid, v) for gid in game_ids() for v in get_game(gid).game_class.spec.variants]


def case_id(case: tuple[object, ...]) -> str:
    return "-".join(str(c) for c in case)


CASES = game_player_cases()
VARIANTS = variant_cases()
