"""The Stable-Baselines3 vector environment over the kernel games: seats, masks, rewards, episodes, seeds."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("numba")

from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

from ziggurat.core import ZigguratError
from ziggurat.fast import VectorGame
from ziggurat.interop.sb3 import KernelVecEnv, part_seed


def play(env: KernelVecEnv, steps: int, seed: int) -> tuple[list[np.ndarray], list[dict]]:
    """Random legal moves for ``steps`` steps: every observation, and the finished games' episode infos."""
    rng = np.random.default_rng(seed)
    seen, episodes = [env.reset()], []
    for _ in range(steps):
        masks = get_action_masks(env)
        assert np.array_equal(masks, env.action_masks())
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = env.step(actions)
        seen.append(obs)
        for i in np.flatnonzero(dones):
            ep = infos[i]["episode"]
            assert ep["r"] == rewards[i] and -1.0 <= rewards[i] <= 1.0
            assert infos[i]["terminal_observation"].shape == obs.shape[1:]
            episodes.append(ep)
        assert not rewards[~dones].any()  # a reward only where a game ends
    return seen, episodes


def test_seats_are_spread_and_each_block_is_the_vector_game() -> None:
    env = KernelVecEnv("kuhnah", num_envs=6, players=2, seed=4)
    assert list(env.seat_of) == [0, 0, 0, 1, 1, 1]
    assert is_masking_supported(env)
    obs = env.reset()
    for k, seat in enumerate((0, 1)):
        ref = VectorGame("kuhnah", 3, seed=part_seed(4, k), players=2, seat=seat).reset()
        assert np.array_equal(obs[3 * k : 3 * k + 3], ref.obs)
        assert np.array_equal(env.action_masks()[3 * k : 3 * k + 3], ref.mask)


def test_games_end_with_the_seat_return_and_repeat_by_seed() -> None:
    a, eps = play(KernelVecEnv("kuhnah", num_envs=4, players=2, seed=1), 120, 0)
    b, _ = play(KernelVecEnv("kuhnah", num_envs=4, players=2, seed=1), 120, 0)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert len(eps) >= 4 and all(e["l"] > 5 for e in eps)
    assert {e["r"] for e in eps} & {-1.0, 1.0}  # games are won and lost
    c, _ = play(KernelVecEnv("kuhnah", num_envs=4, players=2, seed=2), 5, 0)
    assert not np.array_equal(a[0], c[0])
    env = KernelVecEnv("kuhnah", num_envs=4, players=2, seed=9)
    env.seed(1)  # as Stable-Baselines3 seeds it: the next reset starts the run of seed 1
    d, _ = play(env, 120, 0)
    assert all(np.array_equal(x, y) for x, y in zip(a, d, strict=True))


def test_bad_setups_and_actions_are_refused() -> None:
    with pytest.raises(ZigguratError, match="seats must name"):
        KernelVecEnv("kuhnah", num_envs=4, players=2, seats=[0, 0])
    with pytest.raises(ZigguratError, match="num_envs must be a whole number from 2"):
        KernelVecEnv("kuhnah", num_envs=1, players=2)
    env = KernelVecEnv("kuhnah", num_envs=2, players=2, seats=[1])
    env.reset()
    illegal = np.array([int(np.flatnonzero(~m)[0]) for m in env.action_masks()])
    with pytest.raises(ZigguratError, match="is not legal"):
        env.step(illegal)
    with pytest.raises(AttributeError):
        env.env_method("render")
