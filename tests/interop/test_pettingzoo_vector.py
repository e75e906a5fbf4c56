"""The batched multi-agent environment (``ZigguratVectorAgents``) on K'uh Nah.

Its rows are :class:`ziggurat.fast.VectorGame`'s with ``seat=None`` (checked against the
engine in ``tests/fast/test_vector.py``); here: each agent gets exactly the rows where it
decides, actions are routed by the deciding agent, and bad input changes nothing.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")
pytest.importorskip("gymnasium")

from ziggurat.core.errors import ZigguratError
from ziggurat.fast import VectorGame
from ziggurat.interop.pettingzoo_vector import ZigguratVectorAgents

N = 16


def _pick(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random legal action per row of a (games x actions) mask (0 where a row has none)."""
    out = np.zeros(len(masks), np.int64)
    for i, row in enumerate(masks):
        legal = np.flatnonzero(row)
        if len(legal):
            out[i] = legal[int(rng.integers(len(legal)))]
    return out


def test_rows_are_the_vector_games_split_by_the_deciding_agent() -> None:
    env = ZigguratVectorAgents("kuhnah", N, players=3, seed=5)
    raw = VectorGame("kuhnah", N, seed=5, players=3)
    obs, infos = env.reset()
    out = raw.reset()
    rng = np.random.default_rng(5)
    ended = 0
    for _ in range(200):
        active = np.stack([infos[a]["active"] for a in env.agents])
        assert (active.sum(axis=0) == 1).all()  # every game: exactly one agent decides
        for p, agent in enumerate(env.agents):
            rows = out.player == p
            assert np.array_equal(infos[agent]["active"], rows)
            assert np.array_equal(obs[agent][rows], out.obs[rows]) and not obs[agent][~rows].any()
            assert np.array_equal(infos[agent]["action_mask"][rows], out.mask[rows])
            assert not infos[agent]["action_mask"][~rows].any()
        # each agent's own choices; only the deciding agent's row counts
        per_agent = {a: _pick(infos[a]["action_mask"], rng) for a in env.agents}
        joint = sum(np.where(infos[a]["active"], per_agent[a], 0) for a in env.agents)
        obs, rewards, terminations, truncations, infos = env.step(per_agent)
        out = raw.step(joint)
        for p, agent in enumerate(env.agents):
            assert np.array_equal(rewards[agent], out.rewards[:, p])
            assert np.array_equal(terminations[agent], out.terminated)
            assert not truncations[agent].any()
            done = out.terminated
            assert np.array_equal(infos[agent]["final_observation"][done], out.final_obs[done, p])
        ended += int(out.terminated.sum())
    assert ended > 0  # games ended (and restarted) along the way
    total = sum(rewards[a] for a in env.agents)
    assert np.allclose(total[out.terminated], 0.0)  # zero-sum returns where a game just ended


def test_sample_actions_play_and_the_run_repeats_under_a_seed() -> None:
    def run(seed: int) -> list[np.ndarray]:
        env = ZigguratVectorAgents("kuhnah", N, players=2, seed=seed)
        env.reset()
        trace = []
        for _ in range(60):
            actions = env.sample_actions()
            obs, rewards, *_ = env.step(actions)
            trace += [obs["player_0"].copy(), rewards["player_1"].copy()]
        return trace

    a, b, c = run(3), run(3), run(4)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c, strict=True))


def test_bad_actions_are_refused_and_change_nothing() -> None:
    env = ZigguratVectorAgents("kuhnah", N, players=3, seed=2)
    with pytest.raises(ZigguratError, match="reset"):
        env.step(env.sample_actions())
    _obs, infos = env.reset()
    good = env.sample_actions()
    deciding = next(a for a in env.agents if infos[a]["active"].any())
    with pytest.raises(ZigguratError, match="no actions for"):
        env.step({a: x for a, x in good.items() if a != deciding})
    with pytest.raises(ZigguratError, match="shape"):
        env.step({**good, deciding: good[deciding][:-1]})
    with pytest.raises(ZigguratError, match="whole numbers"):
        env.step({**good, deciding: good[deciding].astype(np.float64)})
    with pytest.raises(ZigguratError, match="no such agent"):
        env.step({**good, "player_9": good[deciding]})
    illegal = {a: np.zeros(N, np.int64) for a in env.agents}
    for a in env.agents:  # in every game, an action id its deciding agent may not take
        masks = infos[a]["action_mask"]
        for i in np.flatnonzero(infos[a]["active"]):
            illegal[a][i] = int(np.flatnonzero(~masks[i])[0])
    with pytest.raises(ZigguratError, match="not legal"):
        env.step(illegal)
    # nothing moved: the same step as a fresh environment's
    fresh = ZigguratVectorAgents("kuhnah", N, players=3, seed=2)
    fresh.reset()
    mine, theirs = env.step(good), fresh.step(good)
    for agent in env.agents:
        assert np.array_equal(mine[0][agent], theirs[0][agent])


def test_spaces_and_agents() -> None:
    env = ZigguratVectorAgents("kuhnah", 4, players=4, seed=0)
    assert env.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    assert env.observation_space("player_1").shape == (env.vector.obs_size,)
    assert env.action_space("player_3").n == env.vector.num_actions
    obs, _ = env.reset()
    assert all(env.observation_space(a).contains(row) for a in env.agents for row in obs[a])
    with pytest.raises(ZigguratError):
        env.action_space("nobody")
