"""The shared view encoding (no optional library needed)."""

from __future__ import annotations

import dataclasses
import math
import random

import pytest

from tests.interop.cases import CASES, case_id
from ziggurat.core import registry
from ziggurat.core.match import random_playout
from ziggurat.core.registry import make_game
from ziggurat.interop.encoding import GENERIC_TENSOR_SIZE, encode_view, generic_encoding, tensor_size, value_bounds


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_every_view_encodes_to_the_same_length(case: tuple[str, int]) -> None:
    gid, players = case
    game = make_game(gid, players)
    size = tensor_size(game)
    state = game.new_initial_state()
    for p in (None, *range(players)):
        assert len(encode_view(game, state.view(p))) == size
    end = random_playout(state, random.Random(4))
    for p in (None, *range(players)):
        assert len(encode_view(game, end.view(p))) == size


def test_generic_encoding_is_deterministic_and_sees_every_field() -> None:
    view = {"a": 1, "b": [True, False, None], "c": {"d": "x", "e": 2.5}}
    one = generic_encoding(view)
    assert len(one) == GENERIC_TENSOR_SIZE
    assert one == generic_encoding(dict(reversed(list(view.items()))))
    assert generic_encoding({**view, "a": 2}) != one
    assert generic_encoding({**view, "c": {"d": "y", "e": 2.5}}) != one


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_hooked_encodings_stay_within_the_declared_bounds(case: tuple[str, int]) -> None:
    gid, players = case
    game = make_game(gid, players)
    assert value_bounds(game) == (0.0, 1.0)
    end = random_playout(game.new_initial_state(), random.Random(9))
    for p in (None, *range(players)):
        assert all(0.0 <= x <= 1.0 for x in encode_view(game, end.view(p)))


def test_the_generic_encoding_is_unbounded(monkeypatch: pytest.MonkeyPatch) -> None:
    entry = registry.get_game("pyramix")
    monkeypatch.setitem(registry._games, "pyramix", dataclasses.replace(entry, tensor=None, tensor_size=None))
    game = make_game("pyramix", 2)
    assert value_bounds(game) == (-math.inf, math.inf)
    assert tensor_size(game) == GENERIC_TENSOR_SIZE
