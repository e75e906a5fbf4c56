"""Gymnasium adapter: check_env and whole episodes for every game, count and seat."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from tests.interop.cases import CASES, case_id
from ziggurat.core.errors import IllegalActionError

env_checker = pytest.importorskip("gymnasium.utils.env_checker")
zg = pytest.importorskip("ziggurat.interop.gymnasium")


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_check_env(case: tuple[str, int]) -> None:
    gid, players = case
    env = zg.ZigguratEnv(game=gid, players=players, seat=players - 1, illegal_action="penalty", render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # no spec for alternative render modes
        env_checker.check_env(env)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_masked_random_episode(case: tuple[str, int]) -> None:
    gid, players = case
    for seat in sorted({0, players - 1}):
        env = zg.ZigguratEnv(game=gid, players=players, seat=seat)
        obs, info = env.reset(seed=seat)
        rng = np.random.default_rng(seat)
        done, reward = False, 0.0
        while not done:
            assert env.observation_space.contains(obs)
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, reward, done, truncated, info = env.step(action)
            assert not truncated
        assert -1.0 <= reward <= 1.0
        with pytest.raises(RuntimeError):
            env.step(0)


def test_illegal_action_raises_clearly_by_default() -> None:
    env = zg.ZigguratEnv(game="kuhnah", players=2)
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    assert env.action_masks().tolist() == info["action_mask"].tolist()  # nothing changed


def test_illegal_action_penalty_ends_the_episode() -> None:
    env = zg.ZigguratEnv(game="kuhnah", players=2, illegal_action="penalty", illegal_penalty=-2.0)
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-2.0, True, True)


def test_same_seed_same_episode() -> None:
    def run() -> list[float]:
        env = zg.ZigguratEnv(game="kuhnah", players=3, seat=1, opponents="random")
        obs, info = env.reset(seed=9)
        trace = [float(obs.sum())]
        done = False
        while not done:
            obs, reward, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            trace.append(float(obs.sum()) + reward)
        return trace

    assert run() == run()


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="opponents"):
        zg.ZigguratEnv(game="kuhnah", players=3, opponents=["random"])
    with pytest.raises(ValueError, match="seat"):
        zg.ZigguratEnv(game="kuhnah", players=2, seat=2)
    with pytest.raises(ValueError, match="illegal_action"):
        zg.ZigguratEnv(game="kuhnah", players=2, illegal_action="ignore")


@pytest.mark.parametrize("bot", ["greedy", "ismcts"])
def test_registry_bots_as_opponents(bot: str) -> None:
    params = {"iterations": 5} if bot == "ismcts" else {}
    env = zg.ZigguratEnv(game="kuhnah", players=3, seat=1, opponents=bot, bot_params=params)
    _, info = env.reset(seed=2)
    done = False
    while not done:
        _, reward, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
    assert -1.0 <= reward <= 1.0
