"""The Gymnasium vector environment on the kernels (``ZigguratVectorEnv``).

Its observations, masks and rewards are :class:`ziggurat.fast.VectorGame`'s with a
learning seat, checked against the engine step by step in ``tests/fast/test_vector.py``;
here: Gymnasium's contract (spaces, same-step autoreset, Gymnasium's own episode
statistics wrapper), seeding, and refusals.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")
pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.wrappers.vector import RecordEpisodeStatistics

from ziggurat.core.errors import ZigguratError
from ziggurat.interop.gymnasium_vector import ZigguratVectorEnv


def test_spaces_and_a_random_run() -> None:
    envs = ZigguratVectorEnv("kuhnah", num_envs=8, players=3, seat=1)
    assert isinstance(envs, VectorEnv) and envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    obs, info = envs.reset(seed=4)
    assert obs.dtype == np.float32 and envs.observation_space.contains(obs)
    assert info["action_mask"].shape == (8, envs.single_action_space.n)
    ended = 0
    for _ in range(300):
        actions = envs.sample_actions()
        assert envs.action_space.contains(actions)
        assert info["action_mask"][np.arange(8), actions].all()
        obs, rewards, terminated, truncated, info = envs.step(actions)
        assert envs.observation_space.contains(obs)
        assert not truncated.any() and rewards.dtype == np.float64
        assert (rewards[~terminated] == 0).all()
        assert ((rewards[terminated] >= -1) & (rewards[terminated] <= 1)).all()
        if terminated.any():
            assert (info["_final_obs"] == terminated).all()
            for i in np.flatnonzero(terminated):
                final = info["final_obs"][i]
                assert final.shape == obs[i].shape and final[2] == 1.0  # K'uh Nah's phase "over"
                assert not np.array_equal(final, obs[i])  # the new game's first view is already there
            ended += int(terminated.sum())
        assert (envs.action_masks() == info["action_mask"]).all()
    assert ended >= 8


def test_gymnasium_episode_statistics() -> None:
    envs = RecordEpisodeStatistics(ZigguratVectorEnv("kuhnah", num_envs=16, players=2, seat=0))
    envs.reset(seed=2)
    inner = envs.unwrapped
    assert isinstance(inner, ZigguratVectorEnv)
    episodes, total = 0, 0.0
    steps = np.zeros(16, np.int64)
    for _ in range(400):
        _, rewards, terminated, _, info = envs.step(inner.sample_actions())
        steps += 1
        if terminated.any():
            assert (info["_episode"] == terminated).all()
            assert np.array_equal(info["episode"]["r"][terminated], rewards[terminated])
            assert np.array_equal(info["episode"]["l"][terminated], steps[terminated])
            steps[terminated] = 0
            episodes += int(terminated.sum())
            total += float(rewards[terminated].sum())
    assert episodes > 100
    # a random seat against a random opponent wins about half the time (the game is symmetric)
    assert abs(total / episodes) < 0.3


def test_seeded_runs_repeat() -> None:
    def run(seed: int) -> list[np.ndarray]:
        envs = ZigguratVectorEnv("kuhnah", num_envs=4, players=4, seat=3)
        obs, _ = envs.reset(seed=seed)
        seen = [obs]
        for _ in range(100):
            obs, rewards, *_ = envs.step(envs.sample_actions())
            seen += [obs, rewards]
        return seen

    a, b, c = run(7), run(7), run(8)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c, strict=True))


def test_illegal_actions_change_nothing() -> None:
    envs = ZigguratVectorEnv("kuhnah", num_envs=3, players=2)
    _, info = envs.reset(seed=0)
    actions = envs.sample_actions()
    actions[1] = int(np.flatnonzero(~info["action_mask"][1])[0])
    with pytest.raises(ZigguratError, match="game 1"):
        envs.step(actions)
    with pytest.raises(ZigguratError, match="shape"):
        envs.step(np.zeros(2, np.int64))
    assert (envs.action_masks() == info["action_mask"]).all()
    with pytest.raises(ZigguratError, match="seat"):
        ZigguratVectorEnv("kuhnah", num_envs=2, players=2, seat=2)
