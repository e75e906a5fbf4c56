"""The adapters' lean paths: every shortcut answers what the long way answers, and no cache goes stale."""

from __future__ import annotations

import copy
import pickle
import random
import warnings

import numpy as np
import pytest

from tests.interop.cases import CASES, case_id
from ziggurat.core.errors import IllegalActionError, ParseActionError
from ziggurat.core.game import CHANCE, TERMINAL
from ziggurat.core.match import random_playout
from ziggurat.core.registry import make_game
from ziggurat.interop.encoding import action_id, action_mask, encode_array, encode_view


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.simplefilter("ignore")


# ----------------------------------------------------------------- encoding
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_encode_array_is_encode_view_as_float32(case: tuple[str, int]) -> None:
    gid, players = case
    game = make_game(gid, players)
    end = random_playout(game.new_initial_state(), random.Random(3))
    for state in (game.new_initial_state(), end):
        for p in (None, *range(players)):
            view = state.view(p)
            array = encode_array(game, view)
            assert array.dtype == np.float32
            assert array.tolist() == np.asarray(encode_view(game, view), dtype=np.float32).tolist()
    a, b = encode_array(game, end.view(0)), encode_array(game, end.view(0))
    a[:] = -1.0
    assert not np.array_equal(a, b)  # a fresh array every call: the caller may write in it


def test_encode_array_of_a_game_that_cannot_be_cached() -> None:
    game = make_game("pyramix", 2)

    class Unhashable(type(game)):  # type: ignore[misc]
        __hash__ = None  # type: ignore[assignment]

    odd = Unhashable(2)
    view = odd.new_initial_state().view(0)
    assert encode_array(odd, view).tolist() == encode_array(game, view).tolist()


@pytest.mark.parametrize("legal", [[], [0], [1, 5, 9], list(range(0, 120, 3)), list(range(100))])
def test_action_mask_marks_exactly_the_legal_ids(legal: list[int]) -> None:
    mask = action_mask(legal, 120)
    assert mask.dtype == np.int8 and mask.shape == (120,)
    assert np.flatnonzero(mask).tolist() == legal
    mask[:] = 1  # writable, and the next mask is new
    assert np.flatnonzero(action_mask(legal, 120)).tolist() == legal


@pytest.mark.parametrize("value", [np.int64(4), np.int32(4), np.uint8(4), np.array(4), np.array([4]), 4])
def test_action_id_takes_every_integer_kind(value: object) -> None:
    assert action_id(value) == 4 and type(action_id(value)) is int


@pytest.mark.parametrize("value", [np.float64(4), np.bool_(True), True, 4.0, "4", np.array([1, 2])])
def test_action_id_refuses_anything_else(value: object) -> None:
    with pytest.raises(ParseActionError):
        action_id(value)


# ---------------------------------------------------------------- OpenSpiel
pyspiel = pytest.importorskip("pyspiel")
zo = pytest.importorskip("ziggurat.interop.openspiel")


def _cpp(state: object, name: str, *args: object) -> object:
    """What pyspiel's C++ base answers (the adapter's Python methods set aside)."""
    return getattr(pyspiel.State, name)(state, *args)


def _same_as_cpp(state: object, players: int) -> None:
    assert state.current_player() == _cpp(state, "current_player")
    assert state.is_terminal() == _cpp(state, "is_terminal")
    assert state.is_chance_node() == _cpp(state, "is_chance_node")
    assert state.is_player_node() == _cpp(state, "is_player_node")
    assert state.legal_actions() == _cpp(state, "legal_actions")
    if not state.is_chance_node() and not state.is_terminal():
        for p in range(players):
            assert state.legal_actions(p) == _cpp(state, "legal_actions", p)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_openspiel_python_answers_equal_the_cpp_ones(case: tuple[str, int]) -> None:
    gid, players = case
    game = zo.load(gid, players)
    rng = np.random.default_rng(7)
    state = game.new_initial_state()
    steps = 0
    while steps < 400:
        _same_as_cpp(state, players)
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
        steps += 1
    clone = state.clone()
    _same_as_cpp(clone, players)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_openspiel_legal_list_is_the_new_positions_after_apply_and_clone(case: tuple[str, int]) -> None:
    gid, players = case
    game = zo.load(gid, players)
    rng = np.random.default_rng(11)
    state = game.new_initial_state()
    for _ in range(60):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        legal.append(-99)  # a caller may change its list: the state's answer stays right
        assert -99 not in state.legal_actions()
        action = state.legal_actions()[int(rng.integers(len(legal) - 1))]
        before = state.clone()
        state.apply_action(action)
        fresh = game.deserialize_state(state.serialize())  # rebuilt from the history: no cache in it
        assert state.legal_actions() == fresh.legal_actions()
        assert state.current_player() == fresh.current_player()
        # the clone taken before the move still answers for its own position
        assert before.legal_actions() == _cpp(before, "legal_actions")
        assert action in before.legal_actions() or before.is_chance_node()


@pytest.mark.parametrize("gid", ["kukulkan", "nakum"])
def test_openspiel_simultaneous_legal_lists_follow_the_engine(gid: str) -> None:
    """At a simultaneous node the adapter keeps each player's list while choices are collected: never stale."""
    game = zo.load(gid, 3)
    state = game.new_initial_state()
    rng = np.random.default_rng(8)
    checked = 0
    while not state.is_terminal() and checked < 40:
        zs = state.zstate
        if zs.is_simultaneous_node():
            p = state.current_player()
            fresh = zs.clone()  # a clone's lists are worked out anew by the engine
            assert state.legal_actions() == fresh.legal_actions(p) == _cpp(state, "legal_actions")
            checked += 1
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    assert checked > 0


def test_openspiel_legal_actions_of_a_player_not_to_move() -> None:
    game = zo.load("kuhnah", 3)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    mover = state.current_player()
    other = (mover + 1) % 3
    assert state.legal_actions(other) == [] == _cpp(state, "legal_actions", other)
    with pytest.raises(pyspiel.SpielError):
        state.legal_actions(CHANCE)


def test_openspiel_terminal_and_chance_answers() -> None:
    game = zo.load("kuhnah", 2)
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.legal_actions() == [a for a, _ in state.chance_outcomes()]
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    assert state.current_player() == TERMINAL
    assert state.legal_actions() == [] and state.legal_actions(0) == []


# --------------------------------------------------------------- PettingZoo
zp = pytest.importorskip("ziggurat.interop.pettingzoo")


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_pettingzoo_info_mask_is_the_selected_agents_mask_after_every_step(case: tuple[str, int]) -> None:
    gid, players = case
    env = zp.env(game=gid, players=players, seed=2)
    env.reset()
    rng = np.random.default_rng(2)
    old_obs: dict[str, np.ndarray] | None = None
    for agent in env.agent_iter(max_iter=300):
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            assert not info["action_mask"].any()
            env.step(None)
            continue
        assert np.array_equal(info["action_mask"], obs["action_mask"])
        for other in env.agents:
            if other != agent:  # the others' masks in infos: all zeros, never a stale list
                assert not env.infos[other]["action_mask"].any()
        if old_obs is not None:
            kept = old_obs["observation"].copy()
        legal = np.flatnonzero(info["action_mask"])
        env.step(legal[int(rng.integers(len(legal)))])
        if old_obs is not None:
            assert np.array_equal(old_obs["observation"], kept)  # what was handed out is not changed later
        old_obs = obs
        if not env.agents:
            break
        # an observation asked for after the move is the new position's
        now = env.agent_selection
        if not (env.terminations[now] or env.truncations[now]):
            state = env.table.state
            player = env.table.index[now]
            new = env.observe(now)
            assert np.array_equal(new["observation"], encode_array(env.table.game, state.view(player)))
            assert np.flatnonzero(new["action_mask"]).tolist() == state.legal_actions(player)


def test_pettingzoo_lean_loop_plays_the_same_game_as_the_observing_one() -> None:
    def play(observe: bool) -> list[int]:
        env = zp.env(game="kukulkan", players=3, seed=4)
        env.reset()
        rng = np.random.default_rng(4)
        for _ in env.agent_iter():
            obs, _, terminated, truncated, info = env.last(observe)
            if terminated or truncated:
                env.step(None)
                continue
            mask = obs["action_mask"] if observe else info["action_mask"]
            legal = np.flatnonzero(mask)
            env.step(legal[int(rng.integers(len(legal)))])
        return [a for _, a in env.table.state.history]

    assert play(True) == play(False)


@pytest.mark.parametrize("bad_seat", [0, 1, 2])
def test_pettingzoo_parallel_bad_choice_of_any_mover_changes_nothing(bad_seat: int) -> None:
    env = zp.parallel_env(game="kukulkan", players=3, seed=3)
    obs, _ = env.reset()
    rng = np.random.default_rng(3)
    while len([a for a in env.agents if obs[a]["action_mask"].any()]) < 3:  # a node where all three decide
        movers = [a for a in env.agents if obs[a]["action_mask"].any()]
        obs, *_ = env.step({a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in movers})
    actions = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in env.agents}
    bad = env.agents[bad_seat]
    actions[bad] = int(np.flatnonzero(obs[bad]["action_mask"] == 0)[0])
    before = env.table.state.to_json()
    with pytest.raises(IllegalActionError):
        env.step(actions)
    assert env.table.state.to_json() == before
    with pytest.raises(ParseActionError):
        env.step({**actions, bad: 1.5})
    assert env.table.state.to_json() == before


def test_pettingzoo_shared_zero_mask_cannot_be_written() -> None:
    env = zp.env(game="kuhnah", players=3, seed=1)
    env.reset()
    other = next(a for a in env.agents if a != env.agent_selection)
    with pytest.raises(ValueError):
        env.infos[other]["action_mask"][0] = 1


# ---------------------------------------------------------------- Gymnasium
zg = pytest.importorskip("ziggurat.interop.gymnasium")


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_gymnasium_observation_and_mask_are_the_new_positions(case: tuple[str, int]) -> None:
    gid, players = case
    env = zg.ZigguratEnv(game=gid, players=players, seat=0)
    obs, info = env.reset(seed=6)
    rng = np.random.default_rng(6)
    done = env.state.is_terminal()
    while not done:
        state = env.state
        assert np.array_equal(obs, encode_array(env.game, state.view(0)))
        assert np.flatnonzero(info["action_mask"]).tolist() == state.legal_actions(0)
        legal = np.flatnonzero(info["action_mask"])
        kept = obs.copy()
        obs2, _, done, _, info = env.step(legal[int(rng.integers(len(legal)))])
        assert np.array_equal(obs, kept)  # the previous observation is not rewritten
        obs = obs2


def test_pickled_and_copied_adapter_states_keep_their_answers() -> None:
    game = zo.load("lucent", 3)
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    for _ in range(25):
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    for other in (state.clone(), copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert other.legal_actions() == state.legal_actions()
        assert other.current_player() == state.current_player()
