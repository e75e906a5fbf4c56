"""Every content file of every game under hypothesis: damaged files are clear errors or play fine.

A damaged copy of each shipped file (one or two leaves replaced, nudged, dropped
or doubled) is passed as the user's own file. Setting the game up must either
fail with a ConfigError naming the file, or give a game that sets up, plays on
and draws without any other error. Raw bytes are fuzzed too.
"""

from __future__ import annotations

import io
import random
import tomllib
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from tests.fuzz.mutate import damaged
from tests.fuzz.test_loaders import play_on
from tests.fuzz.toml_out import dumps
from ziggurat.core import ZigguratError, get_game, make_game

FILES = [
    ("kuhnah", "deck", "cards.toml"),
    ("pyramix", "box", "cubes.toml"),
    ("lucent", "deck", "deck.toml"),
    ("kukulkan", "sheet", "sheet.toml"),
    ("nakum", "tiles", "tiles.toml"),
    ("nakum", "market", "market.toml"),
    ("nakum", "offerings", "offerings.toml"),
    ("nakum", "heritage", "heritage.toml"),
    ("nakum", "family", "family.toml"),
]


def _shipped(game_id: str, name: str) -> dict:
    return tomllib.loads(resources.files(f"ziggurat.games.{game_id}").joinpath(f"data/{name}").read_text())


def _setup_and_play(game_id: str, option: str, path: Path, seed: int) -> None:
    spec = get_game(game_id).game_class.spec
    try:
        game = make_game(game_id, spec.min_players, {option: str(path)})
    except ZigguratError as exc:
        assert str(path) in str(exc), f"the error must name the file: {exc}"
        return
    state = game.new_initial_state()
    play_on(state, seed, steps=60)
    console = Console(file=io.StringIO(), width=120)
    for p in [None, 0]:
        console.print(get_game(game_id).render(state.view(p), p))


@pytest.mark.parametrize(("game_id", "option", "name"), FILES, ids=[f"{g}-{n}" for g, _, n in FILES])
@given(data=st.data())
def test_damaged_content_files_are_clear_errors_or_play(
    game_id: str, option: str, name: str, data: st.DataObject, tmp_path_factory: pytest.TempPathFactory
) -> None:
    doc = data.draw(damaged(_shipped(game_id, name)))
    path = tmp_path_factory.mktemp("content") / name
    path.write_text(dumps(doc), encoding="utf-8")
    assert tomllib.loads(path.read_text(encoding="utf-8")) is not None  # the writer writes TOML
    _setup_and_play(game_id, option, path, data.draw(st.integers(0, 10**6)))


@pytest.mark.parametrize(("game_id", "option", "name"), FILES[:5], ids=[f"{g}-{n}" for g, _, n in FILES[:5]])
@given(raw=st.binary(max_size=300), seed=st.integers(0, 99))
def test_any_bytes_are_a_content_file_or_a_clear_error(
    game_id: str, option: str, name: str, raw: bytes, seed: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    path = tmp_path_factory.mktemp("raw") / name
    path.write_bytes(raw)
    _setup_and_play(game_id, option, path, seed)


def test_the_shipped_files_survive_the_writer(tmp_path: Path) -> None:
    for game_id, option, name in FILES:
        path = tmp_path / name
        path.write_text(dumps(_shipped(game_id, name)))
        spec = get_game(game_id).game_class.spec
        game = make_game(game_id, spec.min_players, {option: str(path)})
        play_on(game.new_initial_state(), random.Random(name).randrange(1000))
