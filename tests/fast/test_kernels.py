"""Every compiled kernel against the Python engine, move for move (the engine is the reference).

Each case replays thousands of seeded kernel games through the engine's checked
``apply_action``: at every step the kernel's actor and its whole set of legal
actions (or chance outcomes) must equal the engine's, and at the end the end
reason, the scores and the ranks. ``test_mutants.py`` shows that a kernel with a rule changed fails.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from tests.fast.helpers import replay_many
from ziggurat.core.registry import get_game, make_game
from ziggurat.fast import fast_games, kernel_for, play_random, run_seeds, trace

# (players, options, games) per game: every player count, every option that changes play
CASES: dict[str, list[tuple[int, dict[str, object], int]]] = {
    "kuhnah": [
        *[(p, {}, 400) for p in range(2, 7)],
        *[(p, {"jade-wild": True, "start-player": "random"}, 400) for p in range(2, 7)],
        *[(p, {"jade-wild": True}, 100) for p in range(2, 7)],
        (3, {"open-jade": True, "start-player": "3"}, 100),
    ],
    "pyramix": [(p, {}, 600) for p in range(2, 5)],
    "lucent": [
        *[(p, {}, 400) for p in range(2, 6)],
        *[(p, {"wildcards": True, "geomancers": True, "points": True}, 400) for p in range(2, 6)],
        (3, {"wildcards": True}, 200),
        (4, {"geomancers": True}, 200),
        (2, {"points": True}, 200),
        *[(p, {"geomancer-focus": True}, 300) for p in range(2, 6)],
        *[(p, {"geomancer-focus": True, "wildcards": True, "points": True}, 200) for p in range(2, 6)],
    ],
    "kukulkan": [*[(p, {}, 400) for p in range(1, 7)], (3, {"max-rounds": 60}, 200), (2, {"max-rounds": 3}, 100)],
    "nakum": [
        *[(p, {}, 600) for p in range(2, 5)],
        (3, {"max-rounds": 40}, 300),
        (4, {"max-rounds": 2}, 300),
    ],
}


def _cases() -> list[tuple[str, int, dict[str, object], int]]:
    return [(g, *case) for g, cases in CASES.items() for case in cases]


def test_every_kernel_has_cases() -> None:
    assert set(fast_games()) == set(CASES)
    for game_id in CASES:
        counts = {p for p, _, _ in CASES[game_id]}
        assert counts == set(get_game(game_id).game_class.spec.player_counts)


@pytest.mark.parametrize(("game_id", "players", "options", "games"), _cases())
def test_kernel_replays_in_the_engine(game_id: str, players: int, options: dict[str, object], games: int) -> None:
    steps = replay_many(game_id, players, options, games, run_seed=players)
    assert steps > games * 10


@pytest.mark.parametrize("game_id", sorted(CASES))
def test_random_players_choose_uniformly(game_id: str) -> None:
    """Where a kernel player picks among n legal actions, each is picked about 1/n of the time."""
    players, options, _ = CASES[game_id][0]
    game = make_game(game_id, players, options)
    positions = []
    for seed in run_seeds(99, 0, 300):
        t = trace(game, int(seed))
        for i in range(len(t)):
            legal = t.legal_at(i)
            if t.actors[i] >= 0 and len(legal) > 1:
                positions.append((legal.index(int(t.actions[i])) + 0.5) / len(legal))
    u = np.asarray(positions)
    assert len(u) > 2000
    # the mean of uniform positions is 1/2 with sd below 0.29/sqrt(n); allow 5 sd
    assert abs(u.mean() - 0.5) < 5 * 0.29 / np.sqrt(len(u))
    assert abs((u < 0.5).mean() - 0.5) < 0.05


@pytest.mark.parametrize("game_id", sorted(CASES))
def test_same_seed_same_games_in_any_split(game_id: str) -> None:
    players, options, _ = CASES[game_id][0]
    whole = play_random(game_id, players, 300, seed=5, options=options)
    again = play_random(game_id, players, 300, seed=5, options=options)
    head = play_random(game_id, players, 120, seed=5, options=options)
    tail = play_random(game_id, players, 180, seed=5, options=options, start=120)
    for field in ("scores", "ranks", "decisions", "steps", "ends", "seeds"):
        a = getattr(whole, field)
        assert np.array_equal(a, getattr(again, field))
        assert np.array_equal(a, np.concatenate([getattr(head, field), getattr(tail, field)]))
    other = play_random(game_id, players, 300, seed=6, options=options)
    assert not np.array_equal(whole.scores, other.scores)


@pytest.mark.parametrize("game_id", sorted(CASES))
def test_ranks_follow_scores(game_id: str) -> None:
    players, options, _ = CASES[game_id][0]
    batch = play_random(game_id, players, 500, seed=2, options=options)
    assert batch.ranks.min() == 1 and (batch.ranks.min(axis=1) == 1).all()
    assert ((batch.ranks >= 1) & (batch.ranks <= players)).all()
    lower = make_game(game_id, players, options).spec.lower_score_wins
    best = batch.scores.min(axis=1) if lower else batch.scores.max(axis=1)
    winners = batch.ranks == 1
    # a winner's score is the best score (tie-breaks aside, which only split equal scores)
    assert (batch.scores[winners] == np.repeat(best, winners.sum(axis=1))).all()
    assert kernel_for(make_game(game_id, players, options)).game_id == game_id
