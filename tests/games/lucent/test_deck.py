"""The deck file: the shipped reconstruction and a user's own deck."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from ziggurat.core import ConfigError, ContentError, make_game
from ziggurat.games.lucent.deck import load_deck, parse_deck


def test_the_shipped_deck_is_the_reconstruction() -> None:
    deck = load_deck()
    assert deck.colours == ("red", "blue", "yellow", "green", "purple")
    assert deck.gem_counts == (9, 9, 9, 9, 9)
    assert (deck.wildcards, deck.geomancers) == (2, 5)
    assert len(deck.card_kind) == 52
    header = resources.files("ziggurat.games.lucent").joinpath("data/deck.toml").read_text()
    assert "RECONSTRUCTION" in header.splitlines()[0]


def test_a_user_deck_is_loaded_through_the_deck_option(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('colours = ["ruby", "jade"]\nwildcards = 0\ngeomancers = 0\n[gems]\nruby = 10\njade = 11\n')
    game = make_game("lucent", 2, {"deck": str(path)})
    assert game.num_actions == 4 * 45  # two colours + wildcard + geomancer kinds
    state = game.new_initial_state()
    assert len(state.chance_outcomes()) == 21
    assert state.action_to_text(0) == "deal ruby1 to player 1"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("colours = 3", "colours"),
        ('colours = ["red", "red"]\n[gems]\nred = 1', "listed twice"),
        ('colours = ["Red"]\n[gems]\nRed = 1', "not a colour name"),
        ('colours = ["base"]\n[gems]\nbase = 1', "reserved"),
        ('colours = ["red"]', "gems"),
        ('colours = ["red", "blue"]\n[gems]\nred = 3', "field 'blue'"),
        ('colours = ["red"]\n[gems]\nred = -1', "whole number"),
        ('colours = ["red"]\n[gems]\nred = 0', "no gems"),
        ('colours = ["red"]\n[gems]\nred = 2\nblue = 2', "not one of the colours"),
        ('colours = ["red"]\nwildcards = "two"\n[gems]\nred = 2', "field 'wildcards'"),
        ('colours = ["red"]\nextra = 1\n[gems]\nred = 2', "not a deck field"),
        ("colours = [", "not valid TOML"),
    ],
)
def test_bad_deck_files_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(ContentError, match=message):
        parse_deck(text.encode(), "bad.toml")


def test_a_bad_deck_option_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        make_game("lucent", 2, {"deck": str(tmp_path / "missing.toml")})
    path = tmp_path / "few.toml"
    path.write_text('colours = ["red"]\ngeomancers = 2\n[gems]\nred = 20\n')
    with pytest.raises(ConfigError, match="one Geomancer to each of 3 players"):
        make_game("lucent", 3, {"deck": str(path), "geomancers": True})
    path.write_text('colours = ["red"]\nwildcards = 2\n[gems]\nred = 1\n')
    with pytest.raises(ConfigError, match="removes 2 gems"):
        make_game("lucent", 2, {"deck": str(path), "wildcards": True})
