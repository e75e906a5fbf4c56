"""Nakum's web board: what is drawn where, what stays hidden, and which click makes which move."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from tests.games.nakum.helpers import all_revealed, dealt, give, started
from ziggurat.core import get_game
from ziggurat.core.svg import Board, check_paths
from ziggurat.games.nakum.rules import NakumState
from ziggurat.games.nakum.web import PLAYER_COLOURS, board, effect_items, path_of

NS = "{http://www.w3.org/2000/svg}"


def draw(state: NakumState, seat: int | None) -> tuple[Board, list[tuple[int, str]]]:
    """The board as ``seat`` sees it, with that seat's legal moves if it is to move."""
    legal = state.legal_action_texts(seat) if seat is not None and seat in state.players_to_move() else []
    drawn = board(state.view(seat), seat, legal)
    assert check_paths(drawn, [a for a, _ in legal]) == []
    assert sorted(drawn.paths) == sorted(a for a, _ in legal), "every legal move has a click path"
    return drawn, legal


def root(drawn: Board) -> ET.Element:
    return ET.fromstring(drawn.svg)


def group(drawn: Board, key: str) -> ET.Element:
    """The element with data-key ``key`` (exactly one)."""
    found = [el for el in root(drawn).iter() if el.get("data-key") == key]
    assert len(found) == 1, f"{key}: {len(found)} elements"
    return found[0]


def texts_in(el: ET.Element) -> list[str]:
    return [t.text or "" for t in el.iter(f"{NS}text")]


def all_texts(drawn: Board) -> list[str]:
    return texts_in(root(drawn))


def meeple_fills(el: ET.Element) -> list[str]:
    """Colours of the workers drawn inside ``el``."""
    return [p.get("fill", "") for p in el.iter(f"{NS}path") if p.get("transform", "").startswith("translate")]


def path_for(drawn: Board, legal: list[tuple[int, str]], text: str) -> tuple[str, ...]:
    ids = [a for a, t in legal if t == text]
    assert ids, f"{text!r} is not legal: {[t for _, t in legal]}"
    return drawn.paths[ids[0]]


# ------------------------------------------------------------------ clicks


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("pass", ("pass",)),
        ("place maizal basic 1", ("basic:maizal:1",)),
        ("place maizal basic", ("basic:maizal:1",)),
        ("place cenote basic 2", ("basic:cenote:2",)),
        ("place cazador camp", ("camp:cazador",)),
        ("camp cazador 3", ("opt:cazador:3",)),
        ("free maizal 1", ("opt:maizal:1",)),
        ("explore 7", ("tile:7",)),
        ("reveal 2", ("tile:2",)),
        ("place pyramid", ("pyramid",)),
        ("place pituk", ("pituk",)),
        ("place start", ("start",)),
        ("place grow", ("grow",)),
        ("pituk offerings", ("favour:offerings",)),
        ("buy m12", ("market:m12",)),
        ("offer o3", ("offering:o3",)),
        ("heritage h14", ("hand:h14",)),
    ],
)
def test_each_kind_of_move_is_one_click_on_its_element(text: str, path: tuple[str, ...]) -> None:
    assert path_of(text) == path


def test_effect_texts_become_cost_and_gain_icons() -> None:
    assert effect_items("pay 2 maize + 1 skin: 2 points") == ([(2, "maize"), (1, "skins")], [(2, "points")])
    assert effect_items("1 mask + 1 point") == ([], [(1, "masks"), (1, "points")])
    assert effect_items("a market card") == ([], [(1, "market")])
    assert effect_items("something new") is None


def test_the_board_is_registered_and_the_same_view_draws_the_same_svg() -> None:
    assert get_game("nakum").board is board
    state = started(3, tiles=((1, "maizal"), (4, "rio")))
    first, legal = draw(state, 0)
    assert board(state.view(0), 0, legal) == first


def test_placements_on_the_day_click_spaces_tiles_and_central_spaces() -> None:
    state = started(2)
    drawn, legal = draw(state, 0)
    assert path_for(drawn, legal, "place maizal basic 1") == ("basic:maizal:1",)
    assert path_for(drawn, legal, "explore 5") == ("tile:5",)
    # face-down positions are tile backs with their number; the face-up one shows its name and spaces
    assert "5" in texts_in(group(drawn, "tile:5"))
    assert "El Maizal" in all_texts(drawn)
    for key in ("basic:maizal:1", "basic:maizal:2", "camp:maizal", "opt:maizal:1", "opt:maizal:3"):
        group(drawn, key)
    state.apply_text("place maizal basic 1", 0)
    drawn, legal = draw(state, 1)
    assert path_for(drawn, legal, "place start") == ("start",), "P2 may take the start player token"
    # a spectator sees the same table but has nothing to click
    spectator, _ = draw(state, None)
    assert spectator.paths == {}
    assert "pass" not in {el.get("data-key") for el in root(spectator).iter()}


def test_workers_stand_on_their_spaces_in_player_colours() -> None:
    state = started(2)
    state.apply_text("place maizal basic 1", 0)
    state.apply_text("explore 3", 1)
    drawn, _ = draw(state, None)
    assert meeple_fills(group(drawn, "basic:maizal:1")) == [PLAYER_COLOURS[0]]
    assert meeple_fills(group(drawn, "basic:maizal:2")) == []
    assert meeple_fills(group(drawn, "tile:3")) == [PLAYER_COLOURS[1]], "the explorer on the face-down tile"
    assert "explorer" in texts_in(group(drawn, "tile:3"))


def test_camp_choice_clicks_an_option_and_black_cubes_cover_used_ones() -> None:
    state = started(2)
    state.cubes[0] = 0b001  # option 1 of El Maizal is used
    state.apply_text("place maizal basic 1", 0)
    state.apply_text("place maizal camp", 1)
    drawn, legal = draw(state, 1)
    assert [t for _, t in legal] == ["camp maizal 2", "camp maizal 3"]
    assert path_for(drawn, legal, "camp maizal 2") == ("opt:maizal:2",)
    assert meeple_fills(group(drawn, "camp:maizal")) == [PLAYER_COLOURS[1]]

    def has_cube(key: str) -> bool:
        return any(r.get("fill") == "#111" for r in group(drawn, key).iter(f"{NS}rect"))

    assert has_cube("opt:maizal:1") and not has_cube("opt:maizal:2") and not has_cube("opt:maizal:3")
    assert "You choose a camp option at El Maizal" in all_texts(drawn)
    other, _ = draw(state, 0)
    assert "P2 chooses a camp option at El Maizal" in all_texts(other)


def test_freeing_a_camp_clicks_the_covered_option() -> None:
    state = started(2, tiles=((1, "maizal"), (2, "cazador")))
    state.cubes[0] = 0b001
    state.cubes[1] = 0b100
    state.apply_text("place maizal basic 2")
    state.apply_text("buy m3")
    drawn, legal = draw(state, 0)
    assert {t: drawn.paths[a] for a, t in legal} == {
        "free maizal 1": ("opt:maizal:1",),
        "free cazador 3": ("opt:cazador:3",),
    }


def test_market_cards_show_cost_gain_and_end_points_and_are_bought_by_a_click() -> None:
    state = started(2)
    give(state, 0, masks=1)
    state.apply_text("place maizal basic 2")
    drawn, legal = draw(state, 0)
    assert path_for(drawn, legal, "buy m1") == ("market:m1",)
    card = group(drawn, "market:m1")  # pay 1 mask: gain 2 maize, 2 points at the end
    words = texts_in(card)
    assert "pay" in words and "at end" in words
    assert words.count("2") == 2 and "1" in words
    assert "Mercader de Jade" in card.findtext(f"{NS}title", "")
    assert [el.get("data-key") for el in root(drawn).iter() if (el.get("data-key") or "").startswith("market:")] == [
        "market:m1",
        "market:m2",
        "market:m3",
        "market:m4",
        "market:m5",
    ]


def test_offerings_lie_on_the_pyramid_and_are_made_by_a_click() -> None:
    state = started(2, offers=("o1", "o7"))
    give(state, 0, maize=6, skins=2, masks=2)
    drawn, legal = draw(state, 0)
    assert path_for(drawn, legal, "place pyramid") == ("pyramid",)
    o7 = texts_in(group(drawn, "offering:o7"))  # 3 maize + 2 skins + 2 masks, sacrifice 1: 13 points
    assert "13" in o7 and "sacrifice 1" in o7
    state.apply_text("place pyramid")
    drawn, legal = draw(state, 0)
    assert {t: drawn.paths[a] for a, t in legal} == {"offer o1": ("offering:o1",), "offer o7": ("offering:o7",)}
    assert meeple_fills(group(drawn, "pyramid")) == [PLAYER_COLOURS[0]] * 2


def test_pituk_favours_are_tokens_on_his_space() -> None:
    state = started(2)
    all_revealed(state)
    state.apply_text("place pituk")
    drawn, legal = draw(state, 0)
    assert {t: drawn.paths[a] for a, t in legal} == {
        "pituk market": ("favour:market",),
        "pituk offerings": ("favour:offerings",),
    }
    state.apply_text("pituk market")
    drawn, _ = draw(state, 1)
    assert "used" in texts_in(group(drawn, "favour:market"))
    assert "used" not in texts_in(group(drawn, "favour:offerings"))
    assert meeple_fills(group(drawn, "pituk")) == [PLAYER_COLOURS[0]]


def test_reveal_at_setup_clicks_a_face_down_tile() -> None:
    state = dealt(2)
    state.apply_text("heritage h1", 0)
    state.apply_text("heritage h4", 1)
    drawn, legal = draw(state, 0)
    assert sorted(drawn.paths[a] for a, _ in legal) == sorted((f"tile:{n}",) for n in range(1, 9))
    assert "Setup" in all_texts(drawn)


def test_pass_button_only_when_passing_is_legal() -> None:
    state = started(2)
    view = state.view(0)
    drawn = board(view, 0, [(0, "pass")])
    assert drawn.paths == {0: ("pass",)}
    assert "pass" in texts_in(group(drawn, "pass"))
    assert "pass" not in {el.get("data-key") for el in root(board(view, 0, [])).iter()}


# ------------------------------------------------------------------ players


def test_resources_are_drawn_against_the_family_card_limits() -> None:
    state = started(2)
    give(state, 1, maize=5, skins=6, masks=0)
    drawn, _ = draw(state, None)
    tips = [t.text or "" for t in root(drawn).iter(f"{NS}title")]
    assert "maize: 5 of at most 9 (family card); 3 = 1 point at the end" in tips
    assert "skins: 6 of at most 6 (family card); 2 = 1 point at the end" in tips
    assert "workers: 2 in hand, 0 placed, 2 in the reserve" in tips


def test_heritage_hands_own_face_up_others_as_counts() -> None:
    state = started(2)  # P1 holds h2 h3, P2 holds h5 h6 (h1, h4 played at setup)
    mine, _ = draw(state, 0)
    assert "hand:h2" in {el.get("data-key") for el in root(mine).iter()}
    assert "h5" not in all_texts(mine) and "h6" not in all_texts(mine)
    assert "×2" in all_texts(mine), "the other hand as a count"
    spectator, _ = draw(state, None)
    words = all_texts(spectator)
    assert not {"h2", "h3", "h5", "h6"} & set(words)
    assert {"h1", "h4"} <= set(words), "played heritage cards are public"
    assert not any((el.get("data-key") or "").startswith("hand:") for el in root(spectator).iter())


def test_simultaneous_heritage_choice_shows_only_ready_or_still_choosing() -> None:
    state = dealt(3)
    state.apply_text("heritage h1", 0)
    other, legal = draw(state, 1)
    words = all_texts(other)
    assert "ready" in words and words.count("still choosing…") == 1
    assert not {"h1", "h2", "h3"} & set(words), "P1's hand and choice stay hidden"
    assert {t: other.paths[a] for a, t in legal} == {
        "heritage h4": ("hand:h4",),
        "heritage h5": ("hand:h5",),
        "heritage h6": ("hand:h6",),
    }
    own, legal = draw(state, 0)
    assert legal == []
    assert "h1" in all_texts(own) and "chosen" in all_texts(own)
    spectator, _ = draw(state, None)
    assert "h1" not in all_texts(spectator)


def test_whose_turn_is_marked_in_the_header_and_on_the_player() -> None:
    state = started(3, tiles=((1, "maizal"), (2, "rio")))
    mine, _ = draw(state, 0)
    assert "You place a worker" in all_texts(mine)
    theirs, _ = draw(state, 2)
    assert "P1 places a worker" in all_texts(theirs)
    assert all_texts(theirs).count("◀ to move") == 1


def test_the_end_shows_final_scores_and_places() -> None:
    state = started(2, offers=("o1", "o2"))
    state.made[0] = [5]
    state.first_offer[0] = 0
    state.offer_count = 1
    state.offer_deck.remove(5)
    give(state, 0, maize=6, skins=2)
    state.apply_text("place pyramid")
    state.apply_text("offer o1")
    state.apply_text("explore 2")
    state.apply_text("explore 3")
    assert state.is_terminal()
    drawn, legal = draw(state, None)
    assert legal == [] and drawn.paths == {}
    words = all_texts(drawn)
    scores = state.scores()
    assert f"{int(scores[0])} pts · #1" in words
    assert any(w.startswith("Game over — P1 wins") for w in words)


def _frames(drawn: Board, prefix: str) -> list[tuple[float, float, float, float]]:
    """(x, y, width, height) of the card frame of every element whose key starts with ``prefix``."""
    out = []
    for el in root(drawn).iter():
        if (el.get("data-key") or "").startswith(prefix):
            frame = next(r for r in el.iter(f"{NS}rect") if "zg-frame" in (r.get("class") or ""))
            out.append(tuple(float(frame.get(a, "0")) for a in ("x", "y", "width", "height")))
    return out  # type: ignore[return-value]


def _apart(frames: list[tuple[float, float, float, float]]) -> bool:
    """No two frames overlap and all lie on the board."""
    for i, (x, y, w, h) in enumerate(frames):
        if x < 0 or x + w > 640:
            return False
        for x2, y2, w2, h2 in frames[i + 1 :]:
            if x < x2 + w2 and x2 < x + w and y < y2 + h2 and y2 < y + h:
                return False
    return True


def test_a_larger_market_option_shows_every_card_and_each_is_bought_by_a_click() -> None:
    market = tuple(f"m{i}" for i in range(1, 9))
    state = started(2, market=market, **{"market-size": 8})
    give(state, 0, maize=9, skins=6, masks=4)
    state.apply_text("place maizal basic 2")
    drawn, legal = draw(state, 0)  # every legal buy has its click path
    keys = [el.get("data-key") for el in root(drawn).iter() if (el.get("data-key") or "").startswith("market:")]
    assert keys == [f"market:{m}" for m in market]
    assert path_for(drawn, legal, "buy m8") == ("market:m8",)
    assert _apart(_frames(drawn, "market:"))


@pytest.mark.parametrize("size", [1, 3, 4])
def test_the_offerings_size_option_lays_out_that_many_offerings(size: int) -> None:
    offers = ("o1", "o7", "o2", "o3")[:size]
    state = started(2, offers=offers, **{"offerings-size": size})
    give(state, 0, maize=9, skins=6, masks=4)
    state.apply_text("place pyramid")
    drawn, legal = draw(state, 0)
    assert {t: drawn.paths[a] for a, t in legal} == {f"offer {o}": (f"offering:{o}",) for o in offers}
    assert _apart(_frames(drawn, "offering:"))
    assert "no offering" not in all_texts(drawn)
    if size > 1:  # the points of each are drawn on its card
        assert "13" in texts_in(group(drawn, "offering:o7"))


def test_an_empty_place_of_the_offerings_is_drawn_as_such() -> None:
    state = started(2, offers=("o1", "o2"))
    view = dict(state.view(0))
    view["offerings"] = view["offerings"][:1]  # the deck ran out: one place stays empty
    drawn = board(view, 0, [])
    assert all_texts(drawn).count("no offering") == 1
