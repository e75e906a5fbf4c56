"""K'uh Nah's web board: the Quarry and the brick walls drawn from the view, and the clicks of each move."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from tests.games.kuhnah.helpers import game_with, position, taking
from ziggurat.core import Match, get_game
from ziggurat.core.svg import Board, check_paths
from ziggurat.games.kuhnah.rules import PLACE, KuhNahState
from ziggurat.games.kuhnah.web import board

NS = "{http://www.w3.org/2000/svg}"


def _draw(state: KuhNahState, seat: int | None) -> tuple[Board, ET.Element]:
    legal = state.legal_action_texts(seat) if seat is not None and seat in state.players_to_move() else []
    drawn = board(state.view(seat), seat, legal)
    assert check_paths(drawn, [a for a, _ in legal]) == []
    assert sorted(drawn.paths) == sorted(a for a, _ in legal)
    return drawn, ET.fromstring(drawn.svg)


def _group(root: ET.Element, **attrs: str) -> ET.Element:
    found = [g for g in root.iter(f"{NS}g") if all(g.get(k.replace("_", "-")) == v for k, v in attrs.items())]
    assert len(found) == 1, attrs
    return found[0]


def _texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter(f"{NS}text")]


def _keys(root: ET.Element) -> set[str]:
    return {g.get("data-key", "") for g in root.iter(f"{NS}g") if g.get("data-key")}


def _state(**options: object) -> KuhNahState:
    """Player 1 to move: a base 30a 28a 26a with 20a over the first two; player 2 has the 7a."""
    pyramids = {0: {(1, 1): "30a", (1, 2): "28a", (1, 3): "26a", (2, 1): "20a"}, 1: {(1, 1): "7a"}}
    return position(game_with(2, **options), ["22a", "11b"], pyramids, jade=[5, 7], quarry_jade=(2, 0))


def test_quarry_cards_show_value_animals_and_the_jade_on_them() -> None:
    _, root = _draw(_state(), 0)
    take = _group(root, data_key="take:22a")
    assert "22" in _texts(take) and {"M", "S"} <= set(_texts(take)), "22a: monkey | serpent"
    assert _texts(_group(root, data_key="jade:22a")) == ["2"]
    assert _texts(_group(root, data_key="jade:11b")) == ["0"]
    every = _texts(root)
    assert "Deck 14" in every and "Removed 29" in every


def test_pyramid_is_a_brick_wall_each_card_over_the_two_under_it() -> None:
    _, root = _draw(_state(), None)
    corner = {}
    for card in ("30a", "28a", "26a", "20a", "7a"):
        rect = _group(root, data_card=card).find(f"{NS}rect")
        assert rect is not None
        corner[card] = (float(rect.get("x", "0")), float(rect.get("y", "0")))
        assert str(int(card[:-1])) in _texts(_group(root, data_card=card))
    (x30, y30), (x28, y28), (x26, _) = corner["30a"], corner["28a"], corner["26a"]
    assert y30 == y28 and x30 < x28 < x26, "the base is one row, left to right"
    assert corner["20a"][0] == pytest.approx((x30 + x28) / 2) and corner["20a"][1] < y30
    assert corner["7a"][1] > y30, "player 2's wall is drawn below player 1's"


def test_jaguar_half_is_marked_wild() -> None:
    _, root = _draw(_state(), None)
    seven = _group(root, data_card="7a")  # jaguar | serpent
    tints = [r.get("fill") for r in seven.iter(f"{NS}rect")]
    assert len(tints) == 2, "the brick and one tinted (wild) half"
    assert "jaguar (wild)" in _texts(root)


def test_each_player_sees_only_their_own_jade() -> None:
    def counts(seat: int | None, **options: object) -> list[str]:
        _, root = _draw(_state(**options), seat)
        return [t.text or "" for t in root.iter(f"{NS}text") if t.get("class") == "kn-jade-count"]

    assert counts(0) == ["5 jade", "? jade"]
    assert counts(1) == ["? jade", "7 jade"]
    assert counts(None) == ["? jade", "? jade"]
    assert counts(None, **{"open-jade": True}) == ["5 jade", "7 jade"]
    drawn, _ = _draw(_state(), 1)
    assert "5 jade" not in drawn.svg


def test_jade_and_take_are_two_targets_on_each_quarry_card() -> None:
    drawn, root = _draw(_state(), 0)
    assert drawn.paths == {0: ("jade:22a",), 1: ("jade:11b",), 2: ("take:22a",), 3: ("take:11b",)}
    assert not any(k.startswith("slot:") for k in _keys(root)), "no ghost slots before a card is taken"
    waiting, _ = _draw(_state(), 1)
    assert waiting.paths == {}
    state = _state()
    state.jade[0] = 0
    broke, _ = _draw(state, 0)
    assert set(broke.paths) == {2, 3}, "no jade: only takes"


def test_ghost_slots_only_where_the_taken_card_may_go() -> None:
    state = taking(_state(), 1)  # the 11b
    drawn, root = _draw(state, 0)
    texts = dict(state.legal_action_texts(0))
    by_text = {texts[a]: path for a, path in drawn.paths.items()}
    assert by_text == {"base left": ("slot:1:0",), "base right": ("slot:1:4",), "row 2 pos 2": ("slot:2:2",)}
    assert {k for k in _keys(root) if k.startswith("slot:")} == {"slot:1:0", "slot:1:4", "slot:2:2"}
    ghost = _group(root, data_key="slot:2:2")
    assert ghost.get("class") == "zg-ghost"
    assert "You are placing 11b" in _texts(root)
    _, other = _draw(state, 1)
    assert not any(k.startswith("slot:") for k in _keys(other)), "the other seat sees no ghost slots"
    assert "Player 1 is placing 11b" in _texts(other)


def test_first_card_goes_to_the_base() -> None:
    state = position(game_with(2), ["22a", "11b"])
    taking(state, 0)
    drawn, _ = _draw(state, 0)
    assert list(drawn.paths.values()) == [("slot:1:1",)]


def test_jade_wild_halves_are_clicks_on_the_card_halves() -> None:
    state = taking(_state(**{"jade-wild": True}), 0)  # the 22a
    drawn, root = _draw(state, 0)
    texts = dict(state.legal_action_texts(0))
    wild = {texts[a]: path for a, path in drawn.paths.items() if texts[a].startswith("wild")}
    assert len(wild) == 10, "both halves of the taken card and of the four cards in the pyramid"
    assert wild["wild 22a left"] == ("wild:22a:left",)
    assert wild["wild 20a right"] == ("wild:20a:right",)
    assert "jaguar (wild)" not in _texts(root), "with jade-wild the jaguar is ordinary"
    wild_20a = next(a for a, t in texts.items() if t == "wild 20a right")
    state.apply_action(wild_20a, 0)
    drawn, root = _draw(state, 0)
    assert not any(p[0].startswith("wild:") for p in drawn.paths.values()), "once per game"
    marked = _group(root, data_card="20a")
    assert len(list(marked.iter(f"{NS}polygon"))) == 1, "a jade token on the wild half"
    assert not list(_group(root, data_card="30a").iter(f"{NS}polygon"))
    assert "wild used" in _texts(root)


def test_game_over_shows_scores_and_every_jade() -> None:
    match = Match(game_with(3), seed=5)
    match.run_bots(["random"] * 3)
    state = match.state
    assert isinstance(state, KuhNahState)
    _, root = _draw(state, None)
    scores = [t.text for t in root.iter(f"{NS}text") if t.get("class") == "kn-score"]
    assert len(scores) == 3 and all(s and s.startswith("score ") for s in scores)
    assert "? jade" not in _texts(root)
    assert any(t.startswith("Game over") for t in _texts(root))


@pytest.mark.parametrize("options", [{"jade-wild": True}, {"open-jade": True}, {"jade-wild": True, "open-jade": True}])
@pytest.mark.parametrize("players", [2, 4])
def test_variants_on_random_positions(options: dict[str, object], players: int) -> None:
    entry = get_game("kuhnah")
    for seed in (1, 2):
        match = Match(game_with(players, **options), seed=seed)
        rng = random.Random(seed)
        match.resolve_chance()
        step = 0
        while not match.state.is_terminal():
            state = match.state
            assert isinstance(state, KuhNahState)
            step += 1
            for seat in [None, *range(players)] if step % 3 == 0 or state.phase == PLACE else []:
                legal = state.legal_action_texts(seat) if seat in state.players_to_move() else []
                drawn = board(state.view(seat), seat, legal)
                ET.fromstring(drawn.svg)
                assert drawn == board(state.view(seat), seat, legal)
                assert check_paths(drawn, [a for a, _ in legal]) == []
                assert sorted(drawn.paths) == sorted(a for a, _ in legal)
            p = state.players_to_move()[0]
            actions = state.legal_actions(p)
            state.apply_action(actions[rng.randrange(len(actions))], p)
            match.resolve_chance()
    assert entry.board is board
