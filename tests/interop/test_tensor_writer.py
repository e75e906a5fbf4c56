"""The games' tensor writers (the adapters' fast path) write exactly what the readable ``tensor`` hooks list.

Every game, every player count, every boolean option alone: at every step of
seeded random games, for every seat and the spectator, the writer's float32
vector equals the list hook's values converted to float32, one by one.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.interop.cases import CASES, case_id, option_cases, random_step
from ziggurat.core import registry
from ziggurat.core.game import Game
from ziggurat.core.registry import game_ids, get_game, make_game
from ziggurat.interop.encoding import encode_array, encode_into, encode_view, tensor_size

GAMES = sorted(game_ids())


def _check_game(game: Game, seed: int) -> int:
    """Play one random game, comparing the writer with the list hook at every step; the steps compared."""
    entry = get_game(game.spec.id)
    assert entry.tensor is not None and entry.tensor_writer is not None
    write = entry.tensor_writer(game)
    size = tensor_size(game)
    rng = random.Random(seed)
    state = game.new_initial_state()
    steps = 0
    while True:
        for p in (None, *range(game.num_players)):
            view = state.view(p)
            out = np.zeros(size, np.float32)
            write(view, out)
            expected = np.asarray(entry.tensor(game, view), np.float32)
            assert out.tolist() == expected.tolist(), (
                f"{game.spec.id} seat {p} step {steps}: differ at {np.flatnonzero(out != expected).tolist()}"
            )
        if state.is_terminal():
            return steps
        random_step(state, rng)
        steps += 1


@pytest.mark.parametrize("gid", sorted(game_ids()))
def test_every_game_registers_a_writer(gid: str) -> None:
    assert get_game(gid).tensor_writer is not None


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_writer_equals_the_list_hook_at_every_step(case: tuple[str, int]) -> None:
    gid, players = case
    game = make_game(gid, players)
    for seed in range(4):
        assert _check_game(game, seed) > 0


@pytest.mark.parametrize("case", option_cases(GAMES), ids=lambda c: f"{c[0]}-{c[1]}p-{'-'.join(c[2])}")
def test_the_writer_equals_the_list_hook_with_each_option(case: tuple[str, int, dict[str, Any]]) -> None:
    gid, players, options = case
    assert _check_game(make_game(gid, players, options), seed=11) > 0


@settings(max_examples=15, deadline=None)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**32 - 1))
def test_the_writer_equals_the_list_hook_for_any_seed(case: tuple[str, int], seed: int) -> None:
    gid, players = case
    _check_game(make_game(gid, players), seed)


@pytest.mark.parametrize("gid", sorted(game_ids()))
def test_encode_into_overwrites_every_value_of_the_buffer(gid: str) -> None:
    game = make_game(gid, get_game(gid).game_class.spec.min_players)
    state = game.new_initial_state()
    rng = random.Random(5)
    for _ in range(30):
        if state.is_terminal():
            break
        random_step(state, rng)
    view = state.view(0)
    out = np.full(tensor_size(game), 7.0, np.float32)  # stale values from elsewhere
    encode_into(game, view, out)
    assert out.tolist() == np.asarray(encode_view(game, view), np.float32).tolist()
    assert out.tolist() == encode_array(game, view).tolist()


def test_encode_into_refuses_a_buffer_of_the_wrong_shape_or_type() -> None:
    game = make_game("kuhnah", 2)
    view = game.new_initial_state().view(0)
    size = tensor_size(game)
    for bad in (np.zeros(size + 1, np.float32), np.zeros(size, np.float64), np.zeros((1, size), np.float32)):
        before = bad.copy()
        with pytest.raises(ValueError, match="float32"):
            encode_into(game, view, bad)
        assert np.array_equal(bad, before)  # nothing written


def test_a_game_without_a_writer_is_encoded_from_its_list(monkeypatch: pytest.MonkeyPatch) -> None:
    entry = registry.get_game("lucent")
    monkeypatch.setitem(registry._games, "lucent", dataclasses.replace(entry, tensor_writer=None))
    game = make_game("lucent", 3)  # a new game object: no encoder cached for it
    view = game.new_initial_state().view(1)
    expected = np.asarray(entry.tensor(game, view), np.float32)
    assert encode_array(game, view).tolist() == expected.tolist()
    out = np.full(tensor_size(game), 3.0, np.float32)
    encode_into(game, view, out)
    assert out.tolist() == expected.tolist()


def test_a_writer_that_disagrees_with_the_list_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above can fail: a writer off by one value is found."""
    entry = registry.get_game("pyramix")
    assert entry.tensor_writer is not None
    real = entry.tensor_writer

    def off_by_one(game: Game) -> Any:
        write = real(game)

        def wrong(view: Any, out: np.ndarray) -> None:
            write(view, out)
            out[-1] = 0.5

        return wrong

    monkeypatch.setitem(registry._games, "pyramix", dataclasses.replace(entry, tensor_writer=off_by_one))
    with pytest.raises(AssertionError, match="differ at"):
        _check_game(make_game("pyramix", 2), seed=1)
