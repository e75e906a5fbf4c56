"""Each game's parameters change its rules as declared (the engine is the reference the kernels follow)."""

from __future__ import annotations

from typing import Any

import pytest

from ziggurat.core import CHANCE, Match, State, make_game
from ziggurat.games.nakum.rules import DAY


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


def test_kukulkan_block_points() -> None:
    """The same random game with each marked block worth 3: every score gains twice its marked blocks."""
    for seed in range(6):
        printed: Any = played("kukulkan", 3, {}, seed)
        more: Any = played("kukulkan", 3, {"block-points": 3}, seed)
        assert printed.history == more.history
        for p in range(3):
            marked = printed.marked[p].bit_count()
            assert marked and more.outcome().scores[p] - printed.outcome().scores[p] == 2 * marked


@pytest.mark.parametrize(("start", "reserve"), [(3, 1), (1, 0), (4, 3)])
def test_nakum_workers(start: int, reserve: int) -> None:
    """A clan starts with ``start-workers`` and a reserve of ``reserve-workers``; the total never changes."""
    g: Any = make_game("nakum", 3, {"start-workers": start, "reserve-workers": reserve})
    s: Any = g.new_initial_state()
    assert s.workers == [start] * 3 and s.hand == [start] * 3 and s.reserve == [reserve] * 3
    placed = [0]

    def watch(state: Any, *_: Any) -> None:
        for p in range(3):
            assert state.workers[p] + state.reserve[p] + state.sacrificed[p] == start + reserve
            assert state.hand[p] <= state.workers[p] <= start + reserve
        placed[0] = max(placed[0], max(state.workers))

    state: Any = played("nakum", 3, {"start-workers": start, "reserve-workers": reserve}, seed=start, watch=watch)
    assert state.is_terminal() and placed[0] >= start


@pytest.mark.parametrize("to_end", [1, 3])
def test_nakum_offerings_to_end(to_end: int) -> None:
    """The end is triggered exactly when a player completes ``offerings-to-end`` offerings."""
    most = [0]

    def watch(state: Any, *_: Any) -> None:
        made = max(len(m) for m in state.made)
        most[0] = max(most[0], made)
        assert state.end_triggered == (made >= to_end)

    for seed in range(3):
        state: Any = played("nakum", 2, {"offerings-to-end": to_end}, seed=seed, watch=watch)
        assert state.is_terminal()
    assert most[0] >= to_end


def test_nakum_offerings_to_end_needs_the_cards() -> None:
    from ziggurat.core.errors import ConfigError

    with pytest.raises(ConfigError, match="offerings-to-end=13: there are only 12"):
        make_game("nakum", 2, {"offerings-to-end": 13})


def test_kuhnah_jade_points() -> None:
    """The same random game with each jade worth 3: every score drops by twice the jade left."""
    for seed in range(6):
        printed: Any = played("kuhnah", 3, {}, seed)
        more: Any = played("kuhnah", 3, {"jade-points": 3}, seed)
        assert printed.history == more.history
        for p in range(3):
            assert more.outcome().scores[p] - printed.outcome().scores[p] == -2 * printed.jade[p]
    assert any(played("kuhnah", 2, {}, s).jade[0] for s in range(6))  # jade was left (else the test proves nothing)


def test_lucent_points() -> None:
    """Points for the last placer, an emptied hand and a last Geomancer are the parameters' numbers."""
    options = {"points": True, "geomancers": True}
    seen = [0, 0, 0]
    for seed in range(20):
        printed: Any = played("lucent", 5, options, seed)
        more: Any = played(
            "lucent", 5, {**options, "last-points": 5, "all-played-points": 3, "geomancer-points": 7}, seed
        )
        assert printed.history == more.history
        g = printed.game
        for p in range(5):
            last = p == printed.last_placer
            emptied = printed.sizes[p] == 0
            geo = printed.last_kind[p] == g.geo
            seen[0] += last
            seen[1] += emptied
            seen[2] += geo
            assert printed.outcome().scores[p] == last + emptied + geo
            assert more.outcome().scores[p] == 5 * last + 3 * emptied + 7 * geo
    assert all(seen)
    # without the points variant only the last placer scores, with its parameter's points
    plain: Any = played("lucent", 2, {"last-points": 4, "all-played-points": 9}, seed=1)
    assert sorted(plain.outcome().scores) == [0, 4]


@pytest.mark.parametrize(("market", "offers"), [(3, 1), (8, 4)])
def test_nakum_rows(market: int, offers: int) -> None:
    """The market and offerings rows hold ``market-size`` and ``offerings-size`` cards, refilled to them each Night."""
    sizes: set[tuple[int, int]] = set()

    def watch(state: Any, *_: Any) -> None:
        m, o = len(state._market), len(state._offers)
        assert m <= market and o <= offers
        if state.phase == DAY:
            sizes.add((m, o))

    for seed in range(3):
        played("nakum", 3, {"market-size": market, "offerings-size": offers}, seed=seed, watch=watch)
    assert (market, offers) in sizes  # full rows at the start of a Day
