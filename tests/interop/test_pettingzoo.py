"""PettingZoo adapters: PettingZoo's own API, seed and parallel tests for every game and count."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from tests.interop.cases import CASES, case_id
from ziggurat.core.errors import IllegalActionError
from ziggurat.core.registry import get_game

pz_test = pytest.importorskip("pettingzoo.test")
zp = pytest.importorskip("ziggurat.interop.pettingzoo")


@pytest.fixture(autouse=True)
def _quiet() -> None:
    # PettingZoo's checks warn about things that are by design here (e.g. all-zero masks
    # for players not to move, unbounded observation boxes).
    warnings.simplefilter("ignore")


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_aec_api_test(case: tuple[str, int]) -> None:
    gid, players = case
    pz_test.api_test(zp.env(game=gid, players=players, seed=0), num_cycles=1000)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_aec_seed_test(case: tuple[str, int]) -> None:
    gid, players = case
    pz_test.seed_test(lambda: zp.env(game=gid, players=players), num_cycles=200)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_parallel_api_test(case: tuple[str, int]) -> None:
    gid, players = case
    pz_test.parallel_api_test(zp.parallel_env(game=gid, players=players, seed=0), num_cycles=1000)


def _play_parallel(gid: str, players: int, seed: int) -> list[object]:
    env = zp.parallel_env(game=gid, players=players, seed=seed)
    obs, _ = env.reset()
    rng = np.random.default_rng(seed)
    trace: list[object] = []
    while env.agents:
        actions = {}
        for agent in env.agents:
            legal = np.flatnonzero(obs[agent]["action_mask"])
            actions[agent] = int(rng.choice(legal)) if len(legal) else 0
        obs, rewards, *_ = env.step(actions)
        trace.append((sorted(actions.items()), sorted(rewards.items())))
    return trace


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_parallel_env_is_deterministic_under_a_seed(case: tuple[str, int]) -> None:
    gid, players = case
    assert _play_parallel(gid, players, 5) == _play_parallel(gid, players, 5)


@pytest.mark.parametrize("gid", sorted({g for g, _ in CASES if get_game(g).game_class.spec.has_simultaneous_moves}))
def test_parallel_env_asks_every_simultaneous_player_at_once(gid: str) -> None:
    spec = get_game(gid).game_class.spec
    players = max(2, spec.min_players)
    env = zp.parallel_env(game=gid, players=players, seed=1)
    obs, _ = env.reset()
    rng = np.random.default_rng(1)
    seen_together = False
    while env.agents:
        movers = [a for a in env.agents if obs[a]["action_mask"].any()]
        seen_together |= len(movers) > 1
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in movers}
        obs, *_ = env.step(actions)
    assert seen_together


def test_aec_illegal_action_raises_and_changes_nothing() -> None:
    env = zp.env(game="kuhnah", players=2, seed=3)
    env.reset()
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.table.state.to_json()
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    assert env.table.state.to_json() == before


def test_aec_chance_follows_the_seed() -> None:
    a, b = zp.env(game="kuhnah", players=3, seed=11), zp.env(game="kuhnah", players=3, seed=11)
    a.reset()
    b.reset()
    assert a.table.state.to_json() == b.table.state.to_json()
    a.reset(seed=12)
    b.reset(seed=12)
    assert a.table.state.to_json() == b.table.state.to_json()
