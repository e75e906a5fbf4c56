"""The RL adapters' inputs under hypothesis: whatever an agent passes to step or reset is used or refused cleanly."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from ziggurat.core import ZigguratError
from ziggurat.interop.gymnasium import ZigguratEnv
from ziggurat.interop.pettingzoo import ZigguratParallelEnv, raw_env

ACTIONS = st.one_of(
    st.integers(-5, 400),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True),
    st.booleans(),
    st.none(),
    st.text(max_size=5),
    st.lists(st.integers(0, 5), max_size=3),
    st.integers(0, 300).map(np.int64),
    st.integers(0, 300).map(lambda a: np.array([a])),
    st.integers(0, 300).map(lambda a: np.array([a, a])),
    st.floats(0, 300).map(np.float32),
    st.integers(0, 300).map(lambda a: np.array(a, dtype=np.float64)),
    st.just(np.bool_(True)),
)
SEEDS = st.one_of(st.none(), st.integers(-10, 2**64), st.floats(), st.text(max_size=3), st.booleans())
GAMES = ["kuhnah", "kukulkan", "lucent"]


def _whole_number(action: Any) -> bool:
    if isinstance(action, np.ndarray | np.generic):
        return action.size == 1 and action.dtype.kind in "iu"
    return isinstance(action, int) and not isinstance(action, bool)


def _snapshot(state: Any) -> str:
    return json.dumps(state.to_json())


@pytest.mark.parametrize("game", GAMES)
@given(steps=st.lists(st.one_of(ACTIONS, st.just("legal")), min_size=1, max_size=25), seed=SEEDS)
def test_gymnasium_step_and_reset_take_any_input(game: str, steps: list[Any], seed: Any) -> None:
    env = ZigguratEnv(game=game, players=2, opponents="random")
    try:
        env.reset(seed=seed)
    except ZigguratError:
        env.reset(seed=0)
    for action in steps:
        if env._done:
            env.reset(seed=1)
        if isinstance(action, str) and action == "legal":
            action = int(np.flatnonzero(env.action_masks())[0])
        before = _snapshot(env.state)
        try:
            obs, reward, _, _, _ = env.step(action)
        except ZigguratError:
            assert _snapshot(env.state) == before, f"a refused action {action!r} changed the game"
            continue
        assert _whole_number(action), f"{action!r} was taken for an action"
        assert env.observation_space.contains(obs) and -1 <= reward <= 1


@pytest.mark.parametrize("game", GAMES)
@given(steps=st.lists(st.one_of(ACTIONS, st.just("legal")), min_size=1, max_size=25), seed=SEEDS)
def test_pettingzoo_step_and_reset_take_any_input(game: str, steps: list[Any], seed: Any) -> None:
    env = raw_env(game=game, players=2)
    try:
        env.reset(seed=seed)
    except ZigguratError:
        env.reset(seed=0)
    par = ZigguratParallelEnv(game=game, players=2)
    par.reset(seed=3)
    for action in steps:
        if not env.agents:
            env.reset(seed=1)
        agent = env.agent_selection
        legal = isinstance(action, str) and action == "legal"
        choice = int(np.flatnonzero(env.observe(agent)["action_mask"])[0]) if legal else action
        before = _snapshot(env.table.state)
        try:
            env.step(choice)
        except ZigguratError:
            assert _snapshot(env.table.state) == before
        else:
            assert _whole_number(choice), f"{choice!r} was taken for an action"
        if not par.agents:
            par.reset(seed=2)
        movers = [par.table.agents[p] for p in par.table.state.players_to_move()]
        first = {a: int(np.flatnonzero(par.table.observe(par.table.index[a])["action_mask"])[0]) for a in movers}
        if movers and not legal:
            first[movers[-1]] = action
        before = _snapshot(par.table.state)
        try:
            par.step(first)
        except ZigguratError:
            assert _snapshot(par.table.state) == before
