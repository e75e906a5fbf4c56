"""OpenSpiel adapter: every game at every player count passes OpenSpiel's own checks."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from tests.interop.cases import CASES, VARIANTS, case_id
from ziggurat.core.registry import get_game, make_game

pyspiel = pytest.importorskip("pyspiel")
zo = pytest.importorskip("ziggurat.interop.openspiel")
ismcts = pytest.importorskip("open_spiel.python.algorithms.ismcts")
mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
uniform_random = pytest.importorskip("open_spiel.python.bots.uniform_random")


def _num_sims(gid: str, players: int) -> int:
    # random_sim_test on a Python game costs roughly a millisecond per action.
    length = make_game(gid, players).max_game_length
    return 3 if length < 600 else 2 if length < 3000 else 1


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_random_sim_test_with_serialization(case: tuple[str, int]) -> None:
    gid, players = case
    game = pyspiel.load_game(f"python_{gid}(players={players})")
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=_num_sims(gid, players), serialize=True, verbose=False)


@pytest.mark.parametrize("case", VARIANTS, ids=case_id)
def test_variants_load_as_bool_params(case: tuple[str, str]) -> None:
    gid, variant = case
    spec = get_game(gid).game_class.spec
    name = variant.replace("-", "_")
    game = pyspiel.load_game(f"python_{gid}(players={spec.min_players},{name}=True)")
    assert game.zgame.options[variant] is True
    assert f"{name}=True" in str(game)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_load_by_registry_name_and_options() -> None:
    game = zo.load("K'uh Nah", 3, {"jade-wild": True, "start-player": "2"})
    assert game.get_type().short_name == "python_kuhnah"
    assert game.zgame.options["start-player"] == "2"
    again = pyspiel.load_game(str(game))
    assert again.zgame.options == game.zgame.options


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_game_type_matches_the_game(case: tuple[str, int]) -> None:
    gid, players = case
    game = zo.load(gid, players)
    spec = get_game(gid).game_class.spec
    gtype = game.get_type()
    assert gtype.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert gtype.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    chance = pyspiel.GameType.ChanceMode
    assert gtype.chance_mode == (chance.EXPLICIT_STOCHASTIC if spec.has_chance else chance.DETERMINISTIC)
    imperfect = spec.has_hidden_information or spec.has_simultaneous_moves
    info = pyspiel.GameType.Information
    assert gtype.information == (info.IMPERFECT_INFORMATION if imperfect else info.PERFECT_INFORMATION)
    utility = pyspiel.GameType.Utility
    assert gtype.utility == (utility.GENERAL_SUM if players == 1 else utility.ZERO_SUM)
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert game.num_distinct_actions() == game.zgame.num_actions
    # a random game ends with returns in range (and summing to zero with opponents)
    rng = np.random.RandomState(1)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    returns = state.returns()
    assert all(-1.0 <= r <= 1.0 for r in returns)
    if players > 1:
        assert sum(returns) == pytest.approx(0.0)


def _play_to_decision(game: Any, rng: np.random.RandomState, steps: int) -> Any:
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        if decisions >= steps:
            return state
        state.apply_action(int(rng.choice(state.legal_actions())))
        decisions += 1
    return state


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_resampled_states_share_the_information_state(case: tuple[str, int]) -> None:
    gid, players = case
    game = zo.load(gid, players)
    rng = np.random.RandomState(3)
    for steps in (0, 3, 11, 25):
        state = _play_to_decision(game, rng, steps)
        if state.is_terminal():
            continue
        player = state.current_player()
        key = state.information_state_string(player)
        obs = state.observation_tensor(player)
        for _ in range(3):
            sample = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
            assert sample.current_player() == player
            assert sample.information_state_string(player) == key
            assert sample.observation_tensor(player) == obs
            assert sample.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_openspiel_search_bot_beats_nothing_but_plays(case: tuple[str, int]) -> None:
    """OpenSpiel's MCTS (perfect information) or IS-MCTS plays a whole game against random bots."""
    gid, players = case
    game = zo.load(gid, players)
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    perfect = game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    if perfect:
        searcher = mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=rng)
    else:
        searcher = ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=rng)
    bots = [searcher] + [uniform_random.UniformRandomBot(p, rng) for p in range(1, players)]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            action = int(bots[state.current_player()].step(state))
            assert action in state.legal_actions()
            state.apply_action(action)
    assert len(state.returns()) == players


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_observations_come_from_the_view(case: tuple[str, int]) -> None:
    gid, players = case
    game = zo.load(gid, players)
    state = _play_to_decision(game, np.random.RandomState(5), 4)
    zstate = state.zstate
    for p in range(players):
        assert json.loads(state.observation_string(p)) == json.loads(json.dumps(zstate.view(p)))
        assert len(state.observation_tensor(p)) == game.observation_tensor_size()
        assert len(state.information_state_tensor(p)) == game.information_state_tensor_size()


SIMULTANEOUS_CASES = [(g, n) for g, n in CASES if get_game(g).game_class.spec.has_simultaneous_moves and n >= 2]


@pytest.mark.parametrize("case", SIMULTANEOUS_CASES, ids=case_id)
def test_simultaneous_choices_stay_hidden_until_all_are_in(case: tuple[str, int]) -> None:
    """The turn-based presentation: a pending choice changes nothing the next player can see."""
    gid, players = case
    game = zo.load(gid, players)
    rng = np.random.RandomState(2)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal() and checked < 3:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        zstate = state.zstate
        if zstate.is_simultaneous_node() and len(zstate.players_to_move()) > 1 and not state._core.pending:
            first = state.current_player()
            legal = state.legal_actions()
            if len(legal) > 1:
                a, b = state.clone(), state.clone()
                a.apply_action(legal[0])
                b.apply_action(legal[-1])
                nxt = a.current_player()
                assert nxt == b.current_player() != first
                assert a.information_state_string(nxt) == b.information_state_string(nxt)
                assert a.observation_tensor(nxt) == b.observation_tensor(nxt)
                assert a.information_state_string(first) != b.information_state_string(first)
                # a determinisation for the next player redraws the pending choice
                sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
                seen = {str(a.resample_from_infostate(nxt, sampler)._core.pending) for _ in range(20)}
                assert len(seen) > 1
                checked += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked > 0, "no simultaneous decision with a real choice in a random game"


def test_games_and_states_pickle() -> None:
    import pickle

    game = zo.load("kuhnah", 3)
    state = _play_to_decision(game, np.random.RandomState(0), 5)
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state) and again.history() == state.history()
    assert str(pickle.loads(pickle.dumps(game))) == str(game)


def test_kukulkans_length_bound_counts_rounds_up_to_its_safeguard() -> None:
    """Under the revised end no bound exists without the round limit: R + P (R + S + progress)."""
    for rounds, players in ((1000, 2), (6, 3)):
        game = pyspiel.load_game(f"python_kukulkan(players={players},max_rounds={rounds})")
        assert game.max_game_length() == rounds + players * (rounds + 62 + 91) == game.zgame.max_game_length
    rng = np.random.default_rng(3)
    for _ in range(5):  # games cut by the limit stay inside the bound, and end after its last round
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.integers(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.integers(len(legal))])
        assert len(state.history()) <= game.max_game_length()
        assert state.zstate.end_reason().code == "round-limit"


def test_parameters_load_as_int_params() -> None:
    game = pyspiel.load_game("python_kuhnah(players=2,start_jade=4,remove_2=25)")
    assert game.zgame.options["start-jade"] == 4 and game.zgame.removed_count == 25
    assert zo.load("pyramix", 2, {"ankhs": 7, "cobras": 8}).zgame.options["cobras"] == 8
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
