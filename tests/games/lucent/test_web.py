"""Lucent's web board: the pyramid and the hand drawn from the view, and the two clicks of each play."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.games.lucent.helpers import full_base, position
from ziggurat.core import Match, get_game, make_game
from ziggurat.core.svg import Board, check_paths
from ziggurat.games.lucent.rules import LucentState
from ziggurat.games.lucent.web import board

NS = "{http://www.w3.org/2000/svg}"


def _draw(state: LucentState, seat: int | None) -> tuple[Board, ET.Element]:
    legal = state.legal_action_texts(seat) if seat is not None and seat in state.players_to_move() else []
    drawn = board(state.view(seat), seat, legal)
    assert check_paths(drawn, [a for a, _ in legal]) == []
    assert sorted(drawn.paths) == sorted(a for a, _ in legal)
    return drawn, ET.fromstring(drawn.svg)


def _groups(root: ET.Element, **attrs: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if all(g.get(k.replace("_", "-")) == v for k, v in attrs.items())]


def _texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter(f"{NS}text")]


def _keys(root: ET.Element) -> set[str]:
    return {g.get("data-key", "") for g in root.iter(f"{NS}g") if g.get("data-key")}


def _state(tmp_path: Path, **kwargs: object) -> LucentState:
    """Base 4..6 red, blue (the Focus Gem), yellow; player 1 holds 2 red and a blue, player 2 three yellow."""
    return position(
        tmp_path,
        [{"red": 2, "blue": 1}, {"yellow": 3}],
        {"base 4": "red", "base 5": "blue", "base 6": "yellow"},
        **kwargs,  # type: ignore[arg-type]
    )


def test_placed_gems_and_the_focus_gem(tmp_path: Path) -> None:
    _, root = _draw(_state(tmp_path), None)
    placed = {g.get("data-slot"): g.get("data-kind") for g in _groups(root, **{"class": "lu-gem"})}
    assert placed == {"0:4": "red", "0:5": "blue", "0:6": "yellow"}
    (focus,) = _groups(root, data_slot="0:5", **{"class": "lu-gem"})
    assert "★" in _texts(focus), "the Focus Gem is marked"
    (left,) = _groups(root, data_slot="0:4", **{"class": "lu-gem"})
    assert "★" not in _texts(left)


def test_open_slots_show_what_may_go_there(tmp_path: Path) -> None:
    _, root = _draw(_state(tmp_path), None)
    opened = {g.get("data-slot"): g for g in _groups(root, **{"class": "lu-open"})}
    assert set(opened) == {"0:3", "0:7", "1:4", "1:5"}
    assert "any" in _texts(opened["0:3"])
    over_blue_yellow = [p.get("fill") for p in opened["1:5"].iter(f"{NS}polygon")]
    assert len(over_blue_yellow) == 4, "two small gems (each a cut and its facet): blue or yellow"
    assert not _keys(root), "a spectator has nothing to click"


def test_a_play_is_the_gem_then_the_place(tmp_path: Path) -> None:
    state = _state(tmp_path)
    drawn, root = _draw(state, 0)
    by_text = {text: drawn.paths[a] for a, text in state.legal_action_texts(0)}
    assert by_text["play red at base 3"] == ("hand:red", "slot:0:3")
    assert by_text["play red at row 1 slot 4"] == ("hand:red", "slot:1:4")
    assert by_text["play blue at row 1 slot 5"] == ("hand:blue", "slot:1:5")
    assert "play red at row 1 slot 5" not in by_text, "red fits on neither blue nor yellow"
    assert {k for k in _keys(root) if k.startswith("slot:")} == {"slot:0:3", "slot:0:7", "slot:1:4", "slot:1:5"}
    assert {k for k in _keys(root) if k.startswith("hand:")} == {"hand:red", "hand:blue"}


def test_your_hand_grouped_by_kind_and_others_hidden(tmp_path: Path) -> None:
    state = _state(tmp_path)
    _, mine = _draw(state, 0)
    (red,) = _groups(mine, data_key="hand:red")
    assert "×2" in _texts(red) and "red" in _texts(red)
    assert "Your hand: 3 cards" in _texts(mine)
    assert "hand:yellow" not in _keys(mine), "player 2's yellow gems are not drawn for player 1"
    _, theirs = _draw(state, 1)
    assert not _keys(theirs), "not their turn: nothing to click"
    assert "Your hand: 3 cards" in _texts(theirs)
    (yellow,) = _groups(theirs, data_kind="yellow", **{"class": "lu-hand"})
    assert "×3" in _texts(yellow)
    hidden, spectator = _draw(state, None)
    assert not any(t.startswith("Your hand") for t in _texts(spectator))
    assert "×" not in hidden.svg, "no hand counts for a spectator"
    sizes = [t.text for t in spectator.iter(f"{NS}text") if t.get("class") == "lu-hand-size"]
    assert sizes == ["3", "3"]


def test_turn_out_and_last_placer(tmp_path: Path) -> None:
    state = position(
        tmp_path,
        [{"red": 1}, {"yellow": 1}, {"green": 2}],
        {"base 4": "red", "base 5": "blue", "base 6": "yellow"},
        to_move=0,
        out=[False, False, True],
        last_placer=1,
        last_kind=[None, "yellow", "blue"],
    )
    _, root = _draw(state, 2)
    players = _groups(root, **{"class": "lu-player"})
    assert [g.get("data-player") for g in players] == ["1", "2", "3"]
    turn = [[r for r in g.iter(f"{NS}rect") if r.get("class") == "lu-turn"] for g in players]
    assert [len(t) for t in turn] == [1, 0, 0], "player 1 is to move"
    assert "out" in _texts(players[2])
    assert "last to place: Player 2" in _texts(root)
    assert "Player 1 to move" in _texts(root)


def test_first_card_of_three_players_is_played_as_focus() -> None:
    match = Match(make_game("lucent", 3), seed=3)
    match.resolve_chance()
    state = match.state
    assert isinstance(state, LucentState)
    drawn, root = _draw(state, 0)
    texts = dict(state.legal_action_texts(0))
    assert drawn.paths and all(path[1] == "focus" for path in drawn.paths.values())
    assert {drawn.paths[a][0] for a in texts} == {f"hand:{t.split()[1]}" for t in texts.values()}
    assert "focus" in _keys(root) and not any(k.startswith("slot:") for k in _keys(root))


def test_game_over_shows_points() -> None:
    match = Match(make_game("lucent", 3, {"points": True}), seed=2)
    match.run_bots(["random"] * 3)
    state = match.state
    assert isinstance(state, LucentState)
    _, root = _draw(state, None)
    scores = [t.text for t in root.iter(f"{NS}text") if t.get("class") == "lu-score"]
    view = state.view(None)
    assert scores == [f"{s:g} pt" if s == 1 else f"{s:g} pts" for s in view["scores"]]
    assert any(t.startswith("Game over") for t in _texts(root))


def test_wildcards_and_geomancers_are_kinds_in_the_hand(tmp_path: Path) -> None:
    state = position(
        tmp_path,
        [{"wildcard": 1, "geomancer": 1, "red": 1}, {"blue": 2, "geomancer": 1}],
        {"base 5": "green"},
        options={"wildcards": True, "geomancers": True},
    )
    drawn, root = _draw(state, 0)
    assert {"hand:wildcard", "hand:geomancer", "hand:red"} <= _keys(root)
    by_text = {text: drawn.paths[a] for a, text in state.legal_action_texts(0)}
    assert by_text["play wildcard at base 4"] == ("hand:wildcard", "slot:0:4")
    assert "variant: wildcards" in _texts(root) and "variant: geomancers" in _texts(root)


@pytest.mark.parametrize(
    "options",
    [
        {"wildcards": True},
        {"geomancers": True},
        {"points": True},
        {"wildcards": True, "geomancers": True, "points": True},
    ],
)
@pytest.mark.parametrize("players", [2, 3, 5])
def test_variants_on_random_positions(options: dict[str, object], players: int) -> None:
    for seed in (1, 2):
        match = Match(make_game("lucent", players, options), seed=seed)
        rng = random.Random(seed)
        match.resolve_chance()
        step = 0
        while True:
            state = match.state
            assert isinstance(state, LucentState)
            if step % 3 == 0 or state.is_terminal():
                for seat in [None, *range(players)]:
                    legal = state.legal_action_texts(seat) if seat in state.players_to_move() else []
                    drawn = board(state.view(seat), seat, legal)
                    ET.fromstring(drawn.svg)
                    assert drawn == board(state.view(seat), seat, legal)
                    assert check_paths(drawn, [a for a, _ in legal]) == []
                    assert sorted(drawn.paths) == sorted(a for a, _ in legal)
            if state.is_terminal():
                break
            p = state.players_to_move()[0]
            actions = state.legal_actions(p)
            state.apply_action(actions[rng.randrange(len(actions))], p)
            match.resolve_chance()
            step += 1
    assert get_game("lucent").board is board


def test_a_kind_that_fits_nowhere_is_dimmed_and_not_clickable(tmp_path: Path) -> None:
    state = position(
        tmp_path, [{"purple": 1, "red": 1}, {"blue": 1}], full_base("red blue yellow green red blue yellow green red")
    )
    drawn, root = _draw(state, 0)
    assert {path[0] for path in drawn.paths.values()} == {"hand:red"}
    (purple,) = _groups(root, data_kind="purple", **{"class": "lu-hand"})
    assert purple.get("data-key") is None and purple.get("opacity") == "0.45"
