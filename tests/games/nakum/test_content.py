"""Nakum content files: the shipped reconstruction loads; bad files name file, entry and field."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from tests.games.nakum.helpers import game_with
from ziggurat.core import ConfigError, ContentError
from ziggurat.games.nakum.content import MARKET_ACTION, Effect, load_content


def _shipped(name: str) -> str:
    return resources.files("ziggurat.games.nakum").joinpath(f"data/{name}").read_text(encoding="utf-8")


def test_the_reconstruction_loads_and_says_so() -> None:
    content = load_content()
    assert len(content.tiles) == 8
    assert {t.name for t in content.tiles} >= {"El Maizal", "El Cazador"}
    assert all(2 <= len(t.camp) <= 3 for t in content.tiles)
    m1 = next(c for c in content.market if c.id == "m1")
    assert m1.effect.cost == (0, 0, 1) and m1.effect.gain[:3] == (2, 0, 0) and m1.end_points == 2
    assert m1.text() == "pay 1 mask: 2 maize, 2 points at the end"
    assert any(c.free_camp for c in content.market)
    assert content.family.limits == (9, 6, 4) and content.family.per_point == (3, 2, 1)
    for name in ("tiles.toml", "market.toml", "offerings.toml", "heritage.toml", "family.toml"):
        assert "RECONSTRUCTION" in _shipped(name)


def test_the_rulebooks_two_camp_examples_are_shipped() -> None:
    """La Aldea: "1 point and a mask, or a market card"; La Selva's camp offers "a skin or two maize"."""
    tiles = {t.key: t for t in load_content().tiles}
    assert tiles["aldea"].camp == (Effect(gain=(0, 0, 1, 1)), Effect(action=MARKET_ACTION))
    assert tiles["selva"].camp[:2] == (Effect(gain=(0, 1, 0, 0)), Effect(gain=(2, 0, 0, 0)))


def test_a_user_file_replaces_the_shipped_one(tmp_path: Path) -> None:
    path = tmp_path / "family.toml"
    path.write_text("[limits]\nmaize = 12\nskins = 6\nmasks = 4\n[per_point]\nmaize = 3\nskins = 2\nmasks = 1\n")
    game = game_with(2, family=str(path))
    assert game.limits == (12, 6, 4)
    market = tmp_path / "market.toml"
    market.write_text(_shipped("market.toml").replace('name = "Mercader de Jade"', 'name = "Mi Mercader"'))
    game = game_with(2, market=str(market))
    assert game.content.market[0].name == "Mi Mercader"


@pytest.mark.parametrize(
    ("option", "text", "message"),
    [
        ("tiles", '[[tile]]\nkey = "a"\nname = "A"\n', "has 1 tiles"),
        ("offerings", '[[offering]]\nid = "o1"\nname = "X"\npoints = 0\n', "entry #1 (o1), field 'points'"),
        ("offerings", '[[offering]]\nid = "o1"\nname = "X"\npoints = 3\nsacrifice = 3\n', "field 'sacrifice'"),
        ("market", '[[card]]\nid = "m1"\nname = "X"\ngain = { gold = 1 }\n', "field 'gain'"),
        ("market", '[[card]]\nid = "M 1"\nname = "X"\n', "field 'id'"),
        ("market", '[[card]]\nid = "m1"\nname = "X"\ncolour = 3\n', "field 'colour'"),
        ("heritage", '[[card]]\nid = "h1"\nname = "X"\ncost = { maize = 1 }\ngain = { masks = 1 }\n', "no cost"),
        ("family", "[limits]\nmaize = 0\n", "field 'limits.maize'"),
        ("family", "not toml [", "not valid TOML"),
    ],
)
def test_bad_files_are_clear_errors(tmp_path: Path, option: str, text: str, message: str) -> None:
    path = tmp_path / f"{option}.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        game_with(2, **{option: str(path)})
    assert str(path) in str(info.value)
    assert message in str(info.value)


def test_a_bad_tile_names_the_tile_and_field(tmp_path: Path) -> None:
    text = _shipped("tiles.toml").replace("gain = { skins = 3 }", "gain = { skins = -1 }")
    path = tmp_path / "tiles.toml"
    path.write_text(text)
    with pytest.raises(ContentError, match=r"entry #2 \(cazador\), field 'camp.options 1.gain.skins'"):
        load_content(tiles=str(path))


def test_too_few_heritage_cards_for_the_players(tmp_path: Path) -> None:
    text = "".join(f'[[card]]\nid = "h{i}"\nname = "H"\ngain = {{ maize = 1 }}\n' for i in range(9))
    path = tmp_path / "heritage.toml"
    path.write_text(text)
    game_with(3, heritage=str(path))
    with pytest.raises(ConfigError, match="too few for 4 players"):
        game_with(4, heritage=str(path))


def test_a_missing_file_is_a_clear_error() -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        game_with(2, tiles="/no/such/file.toml")
