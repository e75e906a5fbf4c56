"""Bad actions never give a traceback and never change the state (hypothesis over every game)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.positions import GAMES, positions
from ziggurat.core import IllegalActionError, ParseActionError, State

NON_ASCII_DIGITS = "٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹०१२३४५६७८९０１２３４５６７８９²³¹⁴₀₁²"


def _snapshot(state: State) -> Any:
    return state.to_json()


def _words(state: State) -> list[str]:
    words = {"row", "pos", "slot", "base", "b", "s", "take", "put", "-", "-1", "0", "99999999999999999999"}
    for p in state.players_to_move():
        for _, text in state.legal_action_texts(p):
            words.update(text.split())
    return sorted(words)


def _texts(state: State) -> st.SearchStrategy[str]:
    """Arbitrary text, and near-misses of real action texts (words shuffled, digits swapped for other digits)."""
    word = st.sampled_from(_words(state))
    other_digit = st.sampled_from(NON_ASCII_DIGITS)
    mangled = st.tuples(word, other_digit, st.integers(0, 3)).map(lambda t: t[0][: t[2]] + t[1] + t[0][t[2] :])
    near = st.lists(st.one_of(word, mangled), min_size=1, max_size=5).map(" ".join)
    texts = [t for p in state.players_to_move() for _, t in state.legal_action_texts(p)] or ["x"]
    swapped = st.tuples(st.sampled_from(texts), st.lists(other_digit, min_size=8, max_size=8)).map(
        lambda t: "".join(t[1][i % 8] if ch.isdigit() else ch for i, ch in enumerate(t[0]))
    )
    return st.one_of(st.text(max_size=40), near, swapped)


@pytest.mark.parametrize("game_id", GAMES)
@given(data=st.data())
def test_every_malformed_text_is_a_parse_error_and_changes_nothing(game_id: str, data: st.DataObject) -> None:
    states = [s for s in positions(game_id) if s.players_to_move()]
    state = data.draw(st.sampled_from(states))
    player = data.draw(st.sampled_from(state.players_to_move()))
    text = data.draw(_texts(state))
    before = _snapshot(state)
    try:
        action = state.action_from_text(text, player)
    except (ParseActionError, IllegalActionError):
        pass
    else:
        assert action in state.legal_actions(player)
        assert all(ch.isascii() for ch in text if ch.isnumeric()), f"{text!r} parsed with non-ASCII digits"
    assert _snapshot(state) == before


@pytest.mark.parametrize("game_id", GAMES)
def test_non_ascii_digits_never_parse(game_id: str) -> None:
    for state in positions(game_id)[:20]:
        for p in state.players_to_move():
            for action, text in state.legal_action_texts(p):
                if not any(ch.isdigit() for ch in text):
                    continue
                for digit in ("٣", "３", "²"):
                    bad = "".join(digit if ch.isdigit() else ch for ch in text)
                    with pytest.raises(ParseActionError, match="digits 0-9"):
                        state.action_from_text(bad, p)
                assert state.action_from_text(text, p) == action


@pytest.mark.parametrize("game_id", GAMES)
def test_apply_action_refuses_ids_that_are_not_integers_first(game_id: str) -> None:
    for state in positions(game_id)[:10] + positions(game_id)[-1:]:
        before = _snapshot(state)
        movers = state.players_to_move() or (None,)
        legal = state.legal_actions(movers[0]) or [1]
        a = legal[0]
        for bad in (float(a), True, False, str(a), None, [a], complex(a), np.float64(a), np.bool_(True)):
            with pytest.raises(ParseActionError, match="whole number"):
                state.apply_action(bad, movers[0])  # type: ignore[arg-type]
            assert _snapshot(state) == before
        for bad_player in (0.0, True, "0"):
            if state.players_to_move():
                with pytest.raises(ParseActionError):
                    state.apply_action(a, bad_player)  # type: ignore[arg-type]
                assert _snapshot(state) == before
        if state.players_to_move():
            other = state.clone()
            other.apply_action(np.int64(a), movers[0])  # type: ignore[arg-type]
            assert type(other.history[-1][1]) is int, "an integer of another type is stored as a plain int"
