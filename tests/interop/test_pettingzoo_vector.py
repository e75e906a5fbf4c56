"""The batched multi-agent environment (``ZigguratBatchedAECEnv``) on the kernels.

Its games are :class:`ziggurat.fast.VectorGame`'s, checked against the engine step
by step in ``tests/fast/test_vector.py``; here: that the environment hands out
exactly those games in PettingZoo's AEC vocabulary (selection, observations,
masks, per-agent rewards, terminations and final observations), its spaces are the
AEC adapter's, it repeats from a seed, and it refuses bad input without moving.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")
pytest.importorskip("pettingzoo")

from ziggurat.core.errors import ZigguratError
from ziggurat.fast import VectorGame
from ziggurat.interop.pettingzoo import env as aec_env
from ziggurat.interop.pettingzoo_vector import ZigguratBatchedAECEnv


@pytest.mark.parametrize(("game", "players"), [("kuhnah", 3), ("pyramix", 2), ("lucent", 4)])
def test_the_batched_env_hands_out_the_vector_games(game: str, players: int) -> None:
    n = 12
    env = ZigguratBatchedAECEnv(game, num_envs=n, players=players, seed=5)
    ref = VectorGame(game, n, players=players, seed=5)
    out = ref.reset()
    agents = env.possible_agents
    assert agents == [f"player_{p}" for p in range(players)]
    ended = 0
    for _ in range(300):
        obs, reward, term, trunc, _info = env.last()
        assert np.array_equal(env.acting, out.player)
        assert list(env.agent_selection) == [agents[p] for p in out.player]
        assert np.array_equal(obs["observation"], out.obs)
        assert obs["action_mask"].dtype == np.int8 and np.array_equal(obs["action_mask"], out.mask.astype(np.int8))
        assert np.array_equal(term, out.terminated) and not trunc.any()
        assert np.array_equal(reward, out.rewards[np.arange(n), out.player])
        actions = ref.sample_actions()
        env.step(actions)
        out = ref.step(actions)
        for p, agent in enumerate(agents):
            assert np.array_equal(env.rewards[agent], out.rewards[:, p])
            assert np.array_equal(env.terminations[agent], out.terminated)
            if out.terminated.any():
                where = env.infos[agent]["final_index"]
                assert np.array_equal(where, np.flatnonzero(out.terminated))
                assert np.array_equal(env.infos[agent]["final_observation"], out.final_obs[where, p])
            else:
                assert "final_observation" not in env.infos[agent]
        ended += int(out.terminated.sum())
    assert ended > 0


def test_spaces_are_the_aec_adapters_and_every_row_fits_them() -> None:
    env = ZigguratBatchedAECEnv("lucent", num_envs=8, players=3, seed=2)
    single = aec_env(game="lucent", players=3, seed=2)
    single.reset()
    for agent in env.possible_agents:
        assert env.observation_space(agent) == single.observation_space(agent)
        assert env.action_space(agent) == single.action_space(agent)
    for _ in range(50):
        obs, *_ = env.last()
        space = env.observation_space("player_0")
        for i in range(env.num_envs):
            assert space.contains({"observation": obs["observation"][i], "action_mask": obs["action_mask"][i]})
        env.step(env.sample_actions())


def test_an_aec_style_loop_collects_zero_sum_returns_for_every_agent() -> None:
    env = ZigguratBatchedAECEnv("kuhnah", num_envs=32, players=4, seed=9)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    turns = dict.fromkeys(env.possible_agents, 0)
    games = 0
    for _ in range(2000):
        env.last()
        for agent in env.agent_selection:
            turns[str(agent)] += 1
        env.step(env.sample_actions())
        done = env.terminations["player_0"]
        games += int(done.sum())
        for agent in env.possible_agents:
            totals[agent] += float(env.rewards[agent].sum())
            assert (env.rewards[agent][~done] == 0).all()
        assert np.allclose(sum(env.rewards[a] for a in env.possible_agents)[done], 0.0)
    assert games >= 32 and all(t > 0 for t in turns.values())
    assert abs(sum(totals.values())) < 1e-6


def test_seeded_runs_repeat_and_reset_restarts_them() -> None:
    def run(env: ZigguratBatchedAECEnv) -> list[np.ndarray]:
        seen = []
        for _ in range(60):
            obs, *_ = env.last()
            seen.append(obs["observation"].copy())
            env.step(env.sample_actions())
        return seen

    a = ZigguratBatchedAECEnv("pyramix", num_envs=4, players=3, seed=11)
    b = ZigguratBatchedAECEnv("pyramix", num_envs=4, players=3, seed=11)
    first = run(a)
    assert all(np.array_equal(x, y) for x, y in zip(first, run(b), strict=True))
    a.reset(seed=11)
    assert all(np.array_equal(x, y) for x, y in zip(first, run(a), strict=True))
    fast = ZigguratBatchedAECEnv("pyramix", num_envs=4, players=3, seed=11, copy=False)
    assert all(np.array_equal(x, y) for x, y in zip(first, run(fast), strict=True))
    obs = fast.last()[0]
    assert not obs["observation"].flags.writeable and not obs["action_mask"].flags.writeable


def test_bad_input_is_refused_and_nothing_moves() -> None:
    env = ZigguratBatchedAECEnv("kuhnah", num_envs=3, players=2, seed=1)
    obs, *_ = env.last()
    before = obs["observation"].copy()
    illegal = np.array([int(np.flatnonzero(m == 0)[0]) for m in obs["action_mask"]])
    with pytest.raises(ZigguratError, match=r"game 0: action .* is not legal"):
        env.step(illegal)
    with pytest.raises(ZigguratError, match="shape"):
        env.step(np.zeros(2, np.int64))
    with pytest.raises(ZigguratError, match="no agent 'player_7'"):
        env.observation_space("player_7")
    assert np.array_equal(env.last()[0]["observation"], before)
