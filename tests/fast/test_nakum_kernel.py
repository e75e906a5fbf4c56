"""Nakum's kernel: beyond the step-by-step replays of ``test_kernels.py``.

The replayed games must actually exercise the rules (every kind of space, the
camp opened by a basic space and exhausted by its cubes, two workers on a
marked space with four players, a card freeing a cube, both of Pituk's favours,
the clan grown, a worker sacrificed, a player with no legal space passing,
resources lost to the storage limits, decks running out, both ends of the
game, each tie-break); a user's content files must work too; and the kernel's
random play must be the engine's in distribution.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba")

from tests.fast.helpers import legal_set, replay_many
from ziggurat.core.game import CHANCE
from ziggurat.core.match import random_playout
from ziggurat.core.registry import make_game
from ziggurat.fast import play_random, run_seeds, trace
from ziggurat.games.nakum.rules import DAY, DRAW_MARKET, DRAW_OFFERING, NUM_TILES, OVER, NakumState


def _resources(st: NakumState, p: int) -> list[int]:
    return st.res[3 * p : 3 * p + 3]


def _coverage(players: int, options: dict[str, object], games: int, seen: Counter[str]) -> None:
    game = make_game("nakum", players, options)
    for seed in run_seeds(5, 0, games):
        t = trace(game, int(seed))
        st = game.new_initial_state()
        assert isinstance(st, NakumState)
        gm = st.game
        for i, (actor, action) in enumerate(t.history()):
            assert legal_set(st, actor) == t.legal_at(i), (seed, i)  # checked as the replay does
            if actor == CHANCE:
                head = st.draws[0]
                if head == DRAW_MARKET and st.round > 0:
                    seen["market_refilled"] += 1
                if head < NUM_TILES and st.round > 0:
                    seen["explored_tile_revealed_at_night"] += 1
                st.apply_action(action)
                continue
            if st.phase == DAY:
                text = gm.texts[action]
                if action == 0:
                    seen["pass"] += 1
                elif gm.A_BASIC <= action < gm.A_CAMP:
                    s = action - gm.A_BASIC
                    seen["basic"] += 1
                    if st.occ[s]:
                        seen["two_workers_on_a_marked_space"] += 1
                    effect = gm.basic_effect[s]
                    gained = [effect[3 + r] - effect[r] for r in range(3)]
                    if any(x + y > lim for x, y, lim in zip(_resources(st, actor), gained, gm.limits, strict=True)):
                        seen["resources_lost_to_the_limit"] += 1
                elif action < gm.A_EXPLORE:
                    seen["camp"] += 1
                elif action < gm.A_PYRAMID:
                    seen["explore"] += 1
                elif text == "place pyramid":
                    seen["pyramid"] += 1
                elif text == "place pituk":
                    seen["pituk"] += 1
                elif text == "place start":
                    seen["start"] += 1
                elif text == "place grow":
                    seen["grow"] += 1
                camps_closed = [t for t in range(NUM_TILES) if st.tile_pos[t] >= 0 and st.cubes[t] == gm.camp_full[t]]
                seen["camp_exhausted"] += bool(camps_closed)
            elif gm.A_FAVOUR <= action < gm.A_FREE:
                seen[gm.texts[action]] += 1
            elif gm.A_FREE <= action < gm.A_REVEAL:
                seen["cube_freed"] += 1
            elif gm.A_OFFER <= action < gm.A_HERITAGE and gm.offer_sacrifice[action - gm.A_OFFER]:
                seen["worker_sacrificed"] += 1
            elif gm.A_HERITAGE <= action < gm.A_FAVOUR and st.round > 0:
                seen["heritage_played_by_day"] += 1
            st.apply_action(action, actor)
        assert st.phase == OVER and st.is_terminal()
        seen["end_second_offering" if st.end_triggered else "end_max_rounds"] += 1
        seen["offering_deck_ran_out"] += not st.offer_deck
        seen["market_deck_ran_out"] += not st.market_deck
        keys = st._rank_keys()
        scores = st.scores()
        for p in range(players):
            for q in range(p + 1, players):
                if scores[p] == scores[q]:
                    same = [keys[p][i] == keys[q][i] for i in range(4)]
                    seen["tie_shared" if all(same) else f"tie_broken_by_key_{same.index(False)}"] += 1


TWO_OFFERINGS = """\
[[offering]]
id = "cheap"
name = "A cheap offering"
cost = { maize = 1 }
points = 2
[[offering]]
id = "dear"
name = "A dear offering"
cost = { masks = 1, skins = 1 }
sacrifice = 2
points = 6
"""

SMALL_MARKET = """\
[[card]]
id = "a"
name = "Free a camp"
cost = { maize = 1 }
free_camp = true
end_points = 1
[[card]]
id = "b"
name = "Skins"
gain = { skins = 2 }
[[card]]
id = "c"
name = "Mask"
cost = { skins = 2 }
gain = { masks = 1, points = 1 }
[[card]]
id = "d"
name = "Points"
cost = { maize = 3 }
end_points = 3
[[card]]
id = "e"
name = "Maize"
gain = { maize = 3 }
[[card]]
id = "f"
name = "Free another camp"
free_camp = true
"""

TIGHT_FAMILY = """\
[limits]
maize = 3
skins = 2
masks = 1
[per_point]
maize = 1
skins = 1
masks = 1
"""

# one basic space a tile, paid in masks (rare): players often find every space closed and pass
DEAR_TILES = "\n".join(
    f"""[[tile]]
key = "t{i}"
name = "Tile {i}"
[[tile.basic]]
cost = {{ masks = 1 }}
gain = {{ points = 1, maize = {i % 3} }}
double = {str(i % 2 == 0).lower()}
[tile.camp]
options = [{{ gain = {{ masks = 1 }} }}, {{ action = "market" }}{', { action = "heritage" }' if i < 4 else ""}]
double = {str(i % 2 == 1).lower()}
"""
    for i in range(8)
)


def _files(tmp_path: Path, **texts: str) -> dict[str, object]:
    options: dict[str, object] = {}
    for name, text in texts.items():
        path = tmp_path / f"{name}.toml"
        path.write_text(text)
        options[name] = str(path)
    return options


def test_replayed_games_exercise_every_rule(tmp_path: Path) -> None:
    seen: Counter[str] = Counter()
    small = _files(tmp_path, offerings=TWO_OFFERINGS, market=SMALL_MARKET, family=TIGHT_FAMILY, tiles=DEAR_TILES)
    setups: list[tuple[int, dict[str, object]]] = [(2, {}), (4, {}), (3, {"max-rounds": 40}), (4, {"max-rounds": 1}),
                                                   (3, small)]  # fmt: skip
    for players, options in setups:
        _coverage(players, options, 120, seen)
    expected = [
        "basic", "camp", "camp_exhausted", "explore", "pyramid", "pituk", "start", "grow", "pass",
        "two_workers_on_a_marked_space", "pituk market", "pituk offerings", "cube_freed", "worker_sacrificed",
        "heritage_played_by_day", "resources_lost_to_the_limit", "market_refilled", "explored_tile_revealed_at_night",
        "offering_deck_ran_out", "market_deck_ran_out", "end_second_offering", "end_max_rounds", "tie_shared",
        "tie_broken_by_key_1", "tie_broken_by_key_2", "tie_broken_by_key_3",
    ]  # fmt: skip
    missing = [name for name in expected if not seen[name]]
    assert not missing, (missing, dict(seen))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_users_content_files_replay(tmp_path: Path, players: int) -> None:
    options = _files(tmp_path, offerings=TWO_OFFERINGS, market=SMALL_MARKET, family=TIGHT_FAMILY, tiles=DEAR_TILES)
    assert replay_many("nakum", players, {**options, "max-rounds": 6}, 150) > 0
    assert replay_many("nakum", players, {"offerings": options["offerings"]}, 100) > 0


def test_chance_draws_every_card_alike() -> None:
    """The first draw of every game is an offering: each of the twelve alike."""
    game = make_game("nakum", 3)
    g = game
    counts = np.zeros(len(g.content.offerings))  # type: ignore[attr-defined]
    for seed in run_seeds(3, 0, 3000):
        t = trace(game, int(seed))
        assert t.actors[0] == CHANCE and t.legal_at(0) == list(range(len(counts)))
        counts[t.actions[0]] += 1
    expected = counts.sum() / len(counts)
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < 38  # 11 degrees of freedom: p < 1e-4 above 38


def test_the_first_draws_follow_the_engines_queue() -> None:
    """Two offerings, five market cards, three heritage cards a player dealt round the table."""
    game = make_game("nakum", 4)
    t = trace(game, 12345)
    state = game.new_initial_state()
    assert isinstance(state, NakumState)
    heads = list(state.draws)
    assert heads[:2] == [DRAW_OFFERING] * 2 and heads[2:7] == [DRAW_MARKET] * 5 and len(heads) == 7 + 12
    assert all(a == CHANCE for a in t.actors[: len(heads)]) and t.actors[len(heads)] >= 0


def test_kernel_plays_like_the_engines_random_playouts() -> None:
    """Means of the kernel's 40,000 games within 4.5 standard errors of 1,500 engine playouts."""
    players = 4
    game = make_game("nakum", players)
    rng = random.Random(11)
    lengths, scores = [], []
    for _ in range(1500):
        state = random_playout(game.new_initial_state(), rng)
        lengths.append(sum(1 for p, _ in state.history if p >= 0))
        scores.append(state.scores())
    engine_len = np.asarray(lengths, float)
    engine_scores = np.asarray(scores)
    batch = play_random(game, games=40_000, seed=11)
    for mine, theirs in [(batch.decisions.astype(float), engine_len)] + [
        (batch.scores[:, p], engine_scores[:, p]) for p in range(players)
    ]:
        se = np.sqrt(mine.var() / len(mine) + theirs.var() / len(theirs))
        assert abs(mine.mean() - theirs.mean()) < 4.5 * se, (mine.mean(), theirs.mean(), se)
