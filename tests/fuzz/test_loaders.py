"""Every loader under hypothesis: records and saved states of every game.

Any exception other than the project's own errors is a defect, and so is a
document that loads but then fails in play: whatever loads is played on
(every view, every player's legal actions, a random continuation, saved again).
The number of cases per test is the hypothesis profile's (tests/conftest.py).
"""

from __future__ import annotations

import contextlib
import json
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz.mutate import damaged
from tests.fuzz.positions import GAMES, positions
from ziggurat.core import CHANCE, SIMULTANEOUS, GameRecord, RecordError, State, ZigguratError
from ziggurat.interop.encoding import encode_array, encode_state, encode_view, tensor_size, value_bounds


def play_on(state: State, seed: int, steps: int = 80) -> None:
    """Use a loaded state as a front end, a bot and a learner would: never anything but our errors.

    Every view is also encoded as the adapters' observation (its length the game's, its values in
    their bounds), so content the encoding cannot hold fails here.
    """
    rng = random.Random(seed)
    size = tensor_size(state.game)
    low, high = value_bounds(state.game)
    for _ in range(steps):
        for p in [None, *range(state.num_players)]:
            view = state.view(p)
            json.dumps(view)
            tensor = encode_view(state.game, view)
            assert len(tensor) == size and all(low <= x <= high for x in tensor), f"the tensor of view {p}"
            # the adapters' fast paths (the writers, from the view and from the state) give the same values
            expected = np.asarray(tensor, np.float32).tolist()
            assert encode_array(state.game, view).tolist() == expected, f"the view writer of view {p}"
            assert encode_state(state.game, state, p).tolist() == expected, f"the state writer of view {p}"
        state.game.state_from_json(json.dumps(state.to_json()))
        if state.history_from_start:
            GameRecord.from_state(state, seed=None)
        else:  # loaded without its history: a position with no record
            with pytest.raises(RecordError):
                GameRecord.from_state(state, seed=None)
        str(state)
        cur = state.current_player()
        if state.is_terminal():
            state.outcome()
            return
        if cur == CHANCE:
            outcomes = state.chance_outcomes()
            assert outcomes, "a chance node without outcomes"
            state.apply_action(state.sample_chance(rng))
            continue
        movers = state.players_to_move()
        assert movers, "nobody to move in a state that is not over"
        for p in movers:
            legal = state.legal_action_texts(p)
            assert legal, f"player {p + 1} is to move with no legal action"
            for p2 in range(state.num_players):
                state.resample(p2, rng)
        p = movers[0]
        action = rng.choice(state.legal_actions(p))
        state.apply_action(action, p if cur == SIMULTANEOUS else None)


def _documents(game_id: str) -> list[dict]:
    return [s.to_json() for s in positions(game_id)[::3]]


@pytest.mark.parametrize("game_id", GAMES)
@settings(suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_saved_states_either_load_and_play_or_are_clear_errors(game_id: str, data: st.DataObject) -> None:
    good = data.draw(st.sampled_from(_documents(game_id)))
    doc = data.draw(damaged(good))
    game = positions(game_id)[0].game
    try:
        state = game.state_from_json(json.dumps(doc))
    except ZigguratError:
        return
    play_on(state, data.draw(st.integers(0, 10**6)))


@pytest.mark.parametrize("game_id", GAMES)
@given(data=st.data())
def test_records_either_replay_and_play_or_are_clear_errors(game_id: str, data: st.DataObject) -> None:
    final = positions(game_id)[-1]
    good = GameRecord.from_state(final, seed=1).to_json()
    doc = data.draw(damaged(good, times=3))
    try:
        state = GameRecord.from_json(json.dumps(doc)).replay()
    except ZigguratError:
        return
    play_on(state, data.draw(st.integers(0, 10**6)), steps=20)


@given(text=st.one_of(st.text(max_size=200), st.binary(max_size=200).map(lambda b: b.decode("latin-1"))))
def test_any_text_is_a_record_or_a_clear_error(text: str) -> None:
    with contextlib.suppress(ZigguratError):
        GameRecord.from_json(text).replay()
