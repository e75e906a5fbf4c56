"""Parameters: declared once per game, checked, carried by records, marked where not printed."""

from __future__ import annotations

import json

import pytest

from ziggurat.core import ConfigError, GameRecord, Match, OptionError, RecordError, make_game
from ziggurat.core.params import (
    changed_params,
    find_param,
    grid,
    is_printed,
    non_printed_note,
    param,
    param_values,
    parse_assignments,
    parse_sweep,
    setting_label,
)
from ziggurat.core.registry import game_ids, get_game
from ziggurat.core.spec import OptionSpec

GAMES = ["kuhnah", "pyramix", "lucent", "kukulkan", "nakum"]


def test_every_game_declares_its_numbers() -> None:
    assert set(game_ids()) == set(GAMES)
    for gid in GAMES:
        spec = get_game(gid).game_class.spec
        assert len(spec.params) >= 1, gid
        for p in spec.params:
            assert p.kind in ("int", "float") and p.help and p.param and not p.variant
            assert p.minimum is not None and p.maximum is not None and p.minimum <= p.default <= p.maximum  # type: ignore[operator]


@pytest.mark.parametrize("gid", GAMES)
def test_printed_values_are_the_default_game(gid: str) -> None:
    """Setting every parameter to its printed value is the game as it was: same options, same play."""
    spec = get_game(gid).game_class.spec
    players = max(2, spec.min_players)
    plain = make_game(gid, players)
    printed = make_game(gid, players, {p.name: p.default for p in spec.params})
    assert is_printed(plain) and is_printed(printed) and changed_params(printed) == {}
    assert plain.options == printed.options and non_printed_note(printed) is None
    a = Match(plain, 5)
    a.run_bots(["random"] * players)
    b = Match(printed, 5)
    b.run_bots(["random"] * players)
    assert a.state.history == b.state.history


def test_param_declaration_is_checked() -> None:
    p = param("x", "int", 3, 0, 5, "a number")
    assert isinstance(p, OptionSpec) and p.param and p.parse("4") == 4
    with pytest.raises(ValueError, match="outside its range"):
        param("x", "int", 9, 0, 5, "a number")
    with pytest.raises(ValueError, match="kind must be int or float"):
        param("x", "bool", 1, 0, 5, "a number")
    with pytest.raises(ValueError, match="documentation"):
        param("x", "int", 1, 0, 5, "")


def test_float_parameters_parse_and_check() -> None:
    p = param("rate", "float", 0.5, 0.0, 1.0, "a share")
    assert p.parse("0.25") == 0.25 and p.parse(1) == 1.0
    for bad in ("much", "nan", "inf", True, 1.5, -0.1):
        with pytest.raises(OptionError):
            p.parse(bad)


def test_values_out_of_range_are_clear_errors() -> None:
    with pytest.raises(OptionError, match=r"'start-jade' must be between 0 and 50, not 51"):
        make_game("kuhnah", 2, {"start-jade": 51})
    with pytest.raises(OptionError, match="whole number"):
        make_game("kuhnah", 2, {"start-jade": "lots"})
    with pytest.raises(OptionError, match="between 1 and 20"):
        make_game("nakum", 2, {"maize-limit": 0})


@pytest.mark.parametrize(
    ("gid", "players", "params", "words"),
    [
        ("pyramix", 2, {"ankhs": 7}, "make 52 cubes"),
        ("pyramix", 2, {"cobras": 0}, "the pyramid has 56 places"),
        ("kuhnah", 2, {"remove-2": 48}, "between 0 and 47"),
        ("lucent", 3, {"geomancer-count": 2, "geomancers": True}, "deals one Geomancer to each of 3 players"),
        ("lucent", 3, {"geomancer-count": 0, "geomancer-focus": True}, "has none"),
    ],
)
def test_inconsistent_values_are_clear_errors(gid: str, players: int, params: dict[str, object], words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        make_game(gid, players, params)


def test_params_with_a_content_file_are_refused() -> None:
    from importlib.resources import files

    box = str(files("ziggurat.games.pyramix") / "data" / "cubes.toml")
    assert make_game("pyramix", 2, {"box": box}).box.counts[0] == 8  # type: ignore[attr-defined]
    with pytest.raises(ConfigError, match="with box=FILE set the numbers in the file"):
        make_game("pyramix", 2, {"box": box, "ankhs": 7, "cobras": 8})
    deck = str(files("ziggurat.games.lucent") / "data" / "deck.toml")
    with pytest.raises(ConfigError, match="with deck=FILE set the numbers in the file"):
        make_game("lucent", 2, {"deck": deck, "gems": 8})
    family = str(files("ziggurat.games.nakum") / "data" / "family.toml")
    with pytest.raises(ConfigError, match="with family=FILE set the numbers in the file"):
        make_game("nakum", 2, {"family": family, "maize-limit": 5})
    # the offering bonus goes with any family card
    g = make_game("nakum", 2, {"family": family, "offering-bonus": 2})
    assert g.limits == (9, 6, 4)  # type: ignore[attr-defined]


def test_a_non_printed_game_says_so() -> None:
    g = make_game("kuhnah", 3, {"start-jade": 6})
    assert not is_printed(g) and changed_params(g) == {"start-jade": 6}
    assert non_printed_note(g) == "non-printed parameters: start-jade=6 (printed 8)"
    assert "not the printed rules" in g.describe()
    # an option is not a parameter
    assert "not the printed" not in make_game("kuhnah", 3, {"open-jade": True}).describe()
    assert param_values(g)["start-jade"] == 6 and param_values(g)["remove-3"] == 19


def test_assignments_and_sweeps_are_checked() -> None:
    spec = get_game("kuhnah").game_class.spec
    assert parse_assignments(spec, ["start-jade=7", "remove_2 = 20"]) == {"start-jade": 7, "remove-2": 20}
    for items, words in (
        (["start-jade"], "NAME=VALUE"),
        (["jade=3"], "no parameter 'jade'"),
        (["open-jade=true"], "an option of K'uh Nah, not a parameter"),
        (["start-jade=3", "start-jade=4"], "twice"),
        (["start-jade=-1"], "between 0 and 50"),
    ):
        with pytest.raises(OptionError, match=words):
            parse_assignments(spec, items)
    assert parse_sweep(spec, ["start-jade=6, 8,10", "remove-2=19,29"]) == [
        ("start-jade", [6, 8, 10]),
        ("remove-2", [19, 29]),
    ]
    for items, words in ((["start-jade="], "separated by commas"), (["start-jade=6,,8"], "separated by commas"),
                         (["start-jade=6,6"], "twice"), (["start-jade=6", "start-jade=7"], "twice"),
                         (["start-jade=6,99"], "between 0 and 50")):  # fmt: skip
        with pytest.raises(OptionError, match=words):
            parse_sweep(spec, items)
    assert find_param(spec, "start_jade").name == "start-jade"


def test_grid_and_labels() -> None:
    g = grid([("a", [1, 2]), ("b", [3, 4, 5])])
    assert len(g) == 6 and g[0] == {"a": 1, "b": 3} and g[-1] == {"a": 2, "b": 5}
    assert grid([]) == [{}]
    assert setting_label({"a": 1, "b": 0.5}) == "a=1 b=0.5" and setting_label({}) == "printed"


def test_a_record_carries_its_params_and_replays_with_them() -> None:
    game = make_game("kuhnah", 2, {"start-jade": 3, "remove-2": 25})
    match = Match(game, 11)
    match.run_bots(["random", "random"])
    record = match.record(["random", "random"])
    assert record.options == {"start-jade": 3, "remove-2": 25}
    doc = json.dumps(record.to_json())
    again = GameRecord.from_json(doc)
    state = again.replay()
    assert state.game.options["start-jade"] == 3 and state.game.removed_count == 25  # type: ignore[attr-defined]
    assert state.history == match.state.history
    # the printed game cannot replay it: the removed cards differ
    plain = GameRecord.from_json(doc.replace('"remove-2": 25', '"remove-2": 29'))
    with pytest.raises(RecordError):
        plain.replay()
