"""Each game's parameters change its rules as declared (the engine is the reference the kernels follow)."""

from __future__ import annotations

from typing import Any

import pytest

from ziggurat.core import CHANCE, Match, State, make_game


def played(gid: str, players: int, params: dict[str, object], seed: int, watch: Any = None) -> State:
    match = Match(make_game(gid, players, params), seed)
    match.run_bots(["random"] * players, on_action=watch)
    return match.state


def test_kuhnah_start_jade_and_removed_cards() -> None:
    g: Any = make_game("kuhnah", 3, {"start-jade": 2, "remove-3": 30})
    state: Any = g.new_initial_state()
    assert state.jade == [2, 2, 2]
    removals = 0
    while state.current_player() == CHANCE and state.phase == 0:
        state.apply_action(state.chance_outcomes()[0][0])
        removals += 1
    assert removals == 30 and len(state.removed) == 30
    # no jade at all: a player can only take
    g0: Any = make_game("kuhnah", 2, {"start-jade": 0})
    s0: Any = g0.new_initial_state()
    while s0.current_player() == CHANCE:
        s0.apply_action(s0.chance_outcomes()[0][0])
    assert s0.legal_actions() == [2, 3]
    # and the game's length follows the jade
    few = played("kuhnah", 3, {"start-jade": 1}, seed=4)
    many = played("kuhnah", 3, {"start-jade": 20}, seed=4)
    assert len(few.history) < len(many.history)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_pyramix_points_per_icon_score_linearly(seed: int) -> None:
    """Random play doesn't look at points: the same game scored with other points differs by the eyes scored."""
    printed = played("pyramix", 2, {}, seed)
    more = played("pyramix", 2, {"eye-points": 5}, seed)
    eyes = played("pyramix", 2, {"ankh-points": 0, "crane-points": 0, "eye-points": 1}, seed)
    assert printed.history == more.history == eyes.history
    a, b, e = printed.outcome().scores, more.outcome().scores, eyes.outcome().scores
    assert [y - x for x, y in zip(a, b, strict=True)] == [2 * z for z in e]
    assert sum(e) > 0  # eyes were scored: the check above is not empty


def test_pyramix_cube_counts_fill_the_pyramid() -> None:
    g: Any = make_game("pyramix", 3, {"ankhs": 6, "cranes": 5, "eyes": 2, "cobras": 4})
    box = g.box
    assert sum(box.counts) == 56 and box.counts[box.cobra] == 4
    assert [box.counts[k] for k in range(3)] == [6, 5, 2]
    state = played("pyramix", 3, {"ankhs": 6, "cranes": 5, "eyes": 2, "cobras": 4}, seed=9)
    setup = [a for p, a in state.history if p == CHANCE]
    assert len(setup) == 56 and sum(1 for k in setup if k == box.cobra) == 4
    assert sum(1 for k in setup if box.icon_of[k] == 2) == 8  # two eyes of each of four colours


def test_lucent_colours_and_gems() -> None:
    g: Any = make_game("lucent", 3, {"colours": 3, "gems": 6})
    assert g.kinds[:3] == ("red", "blue", "yellow") and len(g.gem_indices) == 18
    g7: Any = make_game("lucent", 4, {"colours": 7, "gems": 5, "wildcard-count": 3, "wildcards": True})
    assert g7.kinds[5:7] == ("orange", "white") and len(g7.gem_indices) == 35 and g7.removals == 3
    state = played("lucent", 4, {"colours": 7, "gems": 5, "wildcard-count": 3, "wildcards": True}, seed=2)
    assert state.is_terminal()
    geo: Any = make_game("lucent", 3, {"geomancer-count": 3, "geomancers": True})
    assert geo.in_play[geo.geo] == 3


def test_nakum_storage_limits_and_offering_points() -> None:
    highest = [0, 0, 0]

    def watch(state: Any, *_: Any) -> None:
        for i in range(3):
            highest[i] = max(highest[i], *state.res[i::3])

    state: Any = played("nakum", 2, {"maize-limit": 2, "skins-limit": 1, "masks-limit": 1}, seed=3, watch=watch)
    assert state.is_terminal() and highest[0] <= 2 and highest[1] <= 1 and highest[2] <= 1
    g: Any = make_game("nakum", 2, {"offering-bonus": 2, "masks-per-point": 3})
    printed: Any = make_game("nakum", 2)
    assert g.offer_points == [p + 2 for p in printed.offer_points] and g.per_point == (3, 2, 3)


def test_kukulkan_axis_bonus() -> None:
    """The same random game with the axis bonus worth more: each player who claimed it gains the difference."""
    seen = 0
    for seed in range(12):
        printed: Any = played("kukulkan", 2, {}, seed)
        more: Any = played("kukulkan", 2, {"axis-bonus": 7}, seed)
        assert printed.history == more.history
        for p in range(2):
            claimed = bool(printed.claims[p] & 2)
            seen += claimed
            assert more.outcome().scores[p] - printed.outcome().scores[p] == (4 if claimed else 0)
    assert seen
