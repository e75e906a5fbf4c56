"""The kernels under non-printed parameters, move for move against the engine (the reference).

Every parameter a kernel honours is replayed here at values other than the
printed ones; a parameter it does not honour yet must make it refuse the game
(``unsupported``), so that ``--engine fast`` never plays printed rules silently.
"""

from __future__ import annotations

import pytest

pytest.importorskip("numba")

from tests.fast.helpers import replay_many
from ziggurat.core.errors import ConfigError
from ziggurat.core.registry import get_game, make_game
from ziggurat.fast import kernel_for

# (game, players, parameters, games): each honoured parameter away from its printed value
CASES: list[tuple[str, int, dict[str, object], int]] = [
    ("kuhnah", 2, {"start-jade": 3, "remove-2": 20}, 300),
    ("kuhnah", 3, {"start-jade": 12, "remove-3": 30}, 300),
    ("kuhnah", 4, {"start-jade": 0, "remove-4": 0}, 100),
    ("kuhnah", 5, {"remove-5": 40, "jade-wild": True}, 200),
    ("kuhnah", 6, {"remove-6": 12, "start-jade": 5}, 100),
    ("pyramix", 2, {"ankhs": 7, "cobras": 8, "ankh-points": 2, "eye-points": 5}, 300),
    ("pyramix", 3, {"ankhs": 6, "cranes": 5, "eyes": 2, "cobras": 4, "crane-points": 0}, 300),
    ("lucent", 3, {"gems": 8}, 300),
    ("lucent", 4, {"colours": 7, "gems": 6, "wildcard-count": 3, "wildcards": True}, 300),
    ("lucent", 2, {"colours": 3, "gems": 12, "geomancer-count": 2, "geomancers": True, "points": True}, 300),
    ("lucent", 5, {"geomancer-count": 1, "geomancer-focus": True}, 200),
    ("nakum", 2, {"maize-limit": 12, "skins-limit": 3, "masks-per-point": 2, "offering-bonus": 2}, 200),
    ("nakum", 3, {"masks-limit": 8, "maize-per-point": 1, "skins-per-point": 4, "offering-bonus": 5}, 200),
    ("nakum", 4, {"maize-limit": 1, "skins-limit": 1, "masks-limit": 1}, 100),
]


@pytest.mark.parametrize(("game_id", "players", "params", "games"), CASES)
def test_kernel_replays_non_printed_params(game_id: str, players: int, params: dict[str, object], games: int) -> None:
    game = make_game(game_id, players, params)
    assert kernel_for(game).unsupported(game) is None
    assert replay_many(game_id, players, params, games, run_seed=players) > games


def test_params_change_what_the_kernel_plays() -> None:
    """A parameter reaches the kernel: the same seeds play differently (else the cases above prove nothing)."""
    from ziggurat.fast import play_random

    printed = play_random(make_game("kuhnah", 3), games=200, seed=1)
    fewer = play_random(make_game("kuhnah", 3, {"start-jade": 2}), games=200, seed=1)
    assert fewer.decisions.mean() < printed.decisions.mean()


def test_every_kernel_honours_or_refuses_each_param() -> None:
    """Each parameter is replayed above, or its kernel refuses it with a reason naming it."""
    covered = {(g, name) for g, _, params, _ in CASES for name in params}
    for game_id in ("kuhnah", "pyramix", "lucent", "kukulkan", "nakum"):
        spec = get_game(game_id).game_class.spec
        for p in spec.params:
            if (game_id, p.name) in covered:
                continue
            value = p.maximum if p.default != p.maximum else p.minimum
            try:
                game = make_game(game_id, spec.min_players if spec.min_players > 1 else 2, {p.name: value})
            except ConfigError:
                continue  # an inconsistent value alone (checked in the games' tests)
            loader = get_game(game_id).kernel
            assert loader is not None
            reason = loader().unsupported(game)
            assert reason is not None and p.name in reason, (game_id, p.name)
