"""The ``geomancer-focus`` variant: a Geomancer replaces the Focus Gem (see docs/rulings.md, Lucent).

Setup: one Geomancer is the Focus Gem, face up at base 5, before the deal; the
others stay in the box. The gems are dealt one at a time as usual; with 2 or 4
players the card that would have become the Focus Gem is set aside face down,
unseen by everyone; with 3 or 5 the first move is an ordinary play around the
Geomancer. The Geomancer supports any colour. It cannot be combined with
``geomancers`` and needs a deck with a Geomancer.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import refusal
from ziggurat.core import CHANCE, ConfigError, IllegalActionError, Match, RecordError, make_game
from ziggurat.games.lucent.rules import FOCUS, NUM_SLOTS, LucentGame, LucentState

from .helpers import deal, parse_slot, position
from .test_reveals import positions

GEO_FOCUS = {"geomancer-focus": True}


def _game(players: int, **options: object) -> LucentGame:
    game = make_game("lucent", players, {**GEO_FOCUS, **options})
    assert isinstance(game, LucentGame)
    return game


def _dealt(players: int, seed: int, **options: object) -> LucentState:
    return deal(_game(players, **options), random.Random(seed))


# ------------------------------------------------------------------- setup
@pytest.mark.parametrize(
    ("players", "hand", "aside"),
    [(2, 22, 1), (3, 15, 0), (4, 11, 1), (5, 9, 0)],
)
@pytest.mark.parametrize("wildcards", [False, True])
def test_setup_deals_every_gem_around_a_geomancer_focus(players: int, hand: int, aside: int, wildcards: bool) -> None:
    game = _game(players, wildcards=wildcards)
    fresh = game.new_initial_state()
    assert fresh.pyramid[FOCUS] == game.geo, "the Geomancer is the Focus Gem before the deal"
    assert fresh.view(None)["focus"] == "geomancer"
    for seed in range(3):
        state = _dealt(players, seed, wildcards=wildcards)
        assert state.view(None)["phase"] == "play"
        assert state.sizes == [hand] * players
        assert len(state.aside) == aside and state.deck == []
        assert state.pyramid[FOCUS] == game.geo
        assert [k for k in state.pyramid if k >= 0] == [game.geo], "only the focus is on the table"
        # the other Geomancers stay in the box: nobody holds one
        assert all(h[game.geo] == 0 for h in state.hands)
        # every gem of the deal is in a hand or set aside: 45 cards (two gems swapped for Wildcards)
        cards = Counter[int]()
        for h in state.hands:
            cards.update({k: c for k, c in enumerate(h) if c})
        cards.update(game.card_kind[c] for c in state.aside)
        assert sum(cards.values()) == 45
        assert cards[game.wild] == (2 if wildcards else 0)
        assert len(state.removed) == (2 if wildcards else 0)


@pytest.mark.parametrize("players", [2, 4])
def test_the_last_card_of_the_deal_is_set_aside_not_dealt_or_placed(players: int) -> None:
    game = _game(players)
    state = game.new_initial_state()
    rng = random.Random(7)
    while len(state.deck) > 1:
        state.apply_action(state.sample_chance(rng))
    last = state.deck[0]
    assert state.action_to_text(last, CHANCE) == f"deal {game.card_ids[last]} aside"
    sizes = list(state.sizes)
    state.apply_action(last)
    assert state.aside == [last]
    assert state.sizes == sizes, "the set-aside card goes to nobody's hand"
    assert state.pyramid[FOCUS] == game.geo, "the set-aside card does not replace the Geomancer focus"
    assert state.current_player() == 0


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_first_move_is_an_ordinary_play_beside_the_geomancer(players: int) -> None:
    for seed in range(4):
        state = _dealt(players, seed)
        assert state.current_player() == 0, "the player left of the dealer goes first"
        legal = state.legal_actions()
        slots = {a % NUM_SLOTS for a in legal}
        assert slots == {parse_slot("base 4"), parse_slot("base 6")}, "no focus play: base 4 or base 6 only"
        assert all(not state.action_to_text(a).endswith("as focus") for a in legal)
        kinds = {a // NUM_SLOTS for a in legal}
        assert kinds == {k for k, c in enumerate(state.hands[0]) if c}
        # playing a card as the focus is refused: the Geomancer is there
        red = state.game.kinds.index("red")
        if state.hands[0][red]:
            with pytest.raises(IllegalActionError, match="taken already"):
                state.apply_action(red * NUM_SLOTS + FOCUS)


def test_the_geomancer_focus_supports_any_colour(tmp_path: Path) -> None:
    hands = [{"yellow": 2, "purple": 1}, {"green": 1}, {"green": 1}]
    pyramid = {"base 4": "red", "base 5": "geomancer", "base 6": "blue"}
    state = position(tmp_path, hands, pyramid, options=GEO_FOCUS)
    yellow = state.game.kinds.index("yellow")
    legal = state.legal_actions(0)
    assert yellow * NUM_SLOTS + parse_slot("row 1 slot 4") in legal, "yellow on red + Geomancer"
    assert yellow * NUM_SLOTS + parse_slot("row 1 slot 5") in legal, "yellow on Geomancer + blue"
    # the same place over a coloured focus refuses the yellow gem (the rule is the Geomancer's, not the slot's)
    plain = position(tmp_path, hands, {**pyramid, "base 5": "green"})
    why = refusal(plain, yellow * NUM_SLOTS + parse_slot("row 1 slot 4"), 0)
    assert why.id == "lucent.colour"
    assert [why.params[side].params["kind"] for side in ("left", "right")] == ["red", "green"]
    state.apply_action(yellow * NUM_SLOTS + parse_slot("row 1 slot 4"), 0)
    assert state.view(None)["pyramid"][1][3] == "yellow"


def test_a_geomancer_cannot_be_played_from_hand(tmp_path: Path) -> None:
    state = position(tmp_path, [{"red": 1}, {"blue": 1}, {"red": 1}], {"base 5": "geomancer"}, options=GEO_FOCUS)
    geo = state.game.geo
    with pytest.raises(IllegalActionError, match="Geomancer in play is the Focus Gem"):
        state.apply_action(geo * NUM_SLOTS + parse_slot("base 4"), 0)


def test_points_are_unchanged_no_geomancer_point(tmp_path: Path) -> None:
    # the game is over: player 1 placed last and emptied their hand; player 2 emptied theirs too
    state = position(
        tmp_path,
        [{"red": 1}, {"red": 1}, {}],
        {"base 4": "blue", "base 5": "geomancer", "base 6": "green", "row 1 slot 5": "green"},
        options={**GEO_FOCUS, "points": True},
        last_placer=2,
        last_kind=[None, None, "green"],
    )
    state.apply_action(state.game.kinds.index("red") * NUM_SLOTS + parse_slot("base 3"), 0)
    state.apply_action(state.game.kinds.index("red") * NUM_SLOTS + parse_slot("base 2"), 1)
    assert state.is_terminal()
    assert list(state.scores()) == [1.0, 2.0, 1.0], "1 for the last placer, 1 per emptied hand, nothing else"


# ------------------------------------------------------------- bad setups
def test_it_cannot_be_combined_with_the_geomancers_variant() -> None:
    with pytest.raises(ConfigError, match="geomancers and geomancer-focus"):
        make_game("lucent", 3, {"geomancers": True, "geomancer-focus": True})


def test_it_needs_a_deck_with_a_geomancer(tmp_path: Path) -> None:
    path = tmp_path / "nogeo.toml"
    path.write_text('colours = ["red", "blue"]\nwildcards = 0\ngeomancers = 0\n[gems]\nred = 5\nblue = 5\n')
    with pytest.raises(ConfigError, match=r"nogeo\.toml.*geomancer-focus.*has none"):
        make_game("lucent", 2, {"geomancer-focus": True, "deck": str(path)})
    # the same deck is fine without the variant, and one Geomancer is enough for it
    make_game("lucent", 2, {"deck": str(path)})
    path.write_text('colours = ["red", "blue"]\nwildcards = 0\ngeomancers = 1\n[gems]\nred = 5\nblue = 5\n')
    state = deal(_game(5, deck=str(path)), random.Random(1))
    assert state.sizes == [2] * 5


# ------------------------------------------------------------ saved states
def _mid_game(players: int, seed: int, moves: int = 6) -> LucentState:
    match = Match(_game(players), seed)
    match.run_bots(["random"] * players, max_steps=moves)  # decisions; the deal is chance
    state = match.state
    assert isinstance(state, LucentState)
    return state


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_saved_states_round_trip(players: int) -> None:
    state = _mid_game(players, seed=players)
    data = json.loads(json.dumps(state.to_json()))
    assert data["state"]["aside"] == state.aside and len(state.aside) == (players in (2, 4))
    again = state.game.state_from_json(data)
    assert isinstance(again, LucentState)
    assert again == state and again.aside == state.aside
    assert again.legal_actions() == state.legal_actions()


def _refused(state: LucentState, change: Any, match: str) -> None:
    data = json.loads(json.dumps(state.to_json()))
    change(data["state"])
    with pytest.raises(RecordError, match=match):
        state.game.state_from_json(data)


def test_inconsistent_saves_are_refused() -> None:
    state = _mid_game(2, seed=3)
    card = state.aside[0]
    kind = state.game.card_kind[card]

    def drop_aside(s: dict[str, Any]) -> None:
        s["aside"] = []

    def aside_also_in_hand(s: dict[str, Any]) -> None:
        s["hands"][0][kind] += 1

    def two_aside(s: dict[str, Any]) -> None:
        other = next(c for c in range(len(state.game.card_kind)) if c != card)
        s["aside"] = [card, other]

    def aside_twice(s: dict[str, Any]) -> None:
        s["deck"] = [card]

    def focus_not_geomancer(s: dict[str, Any]) -> None:
        s["pyramid"][FOCUS] = kind
        s["aside"] = []

    def old_save(s: dict[str, Any]) -> None:
        del s["aside"]

    _refused(state, drop_aside, "cards set aside")
    _refused(state, aside_also_in_hand, "do not add up")
    _refused(state, two_aside, "cards set aside")
    _refused(state, aside_twice, "listed twice")
    _refused(state, focus_not_geomancer, "cards set aside|must be the Geomancer")
    _refused(state, old_save, "cards set aside")
    # three players set nothing aside
    three = _mid_game(3, seed=3)
    _refused(three, lambda s: s.update(aside=[card]), "cards set aside")

    # a focus that is not the Geomancer, with the cards adding up (the Geomancer moved into a hand)
    fresh = _dealt(3, seed=3)

    def geomancer_in_hand(s: dict[str, Any]) -> None:
        g = fresh.game
        red = g.kinds.index("red")
        holder = next(q for q in range(3) if s["hands"][q][red])
        s["hands"][holder][red] -= 1
        s["hands"][holder][g.geo] += 1
        s["pyramid"][FOCUS] = red

    _refused(fresh, geomancer_in_hand, "must be the Geomancer")


def test_saves_of_the_plain_game_without_an_aside_field_still_load() -> None:
    match = Match(make_game("lucent", 2), 4)
    match.run_bots(["random", "random"], max_steps=50)
    data = json.loads(json.dumps(match.state.to_json()))
    del data["state"]["aside"]
    assert match.state.game.state_from_json(data) == match.state


# -------------------------------------------------------- hidden information
def _swap_aside_with_hand(state: LucentState, holder: int) -> LucentState:
    """The same position but the set-aside card changed places with a card of another kind in ``holder``'s hand."""
    g = state.game
    data = json.loads(json.dumps(state.to_json()))
    data["history"] = []  # a position, not a game: no deal leads to it
    s = data["state"]
    card = state.aside[0]
    kind = g.card_kind[card]
    other = next(k for k in range(g.num_kinds) if k != kind and state.hands[holder][k])
    new_card = next(c for c in g.cards_of_kind[other] if c not in state.removed)
    s["aside"] = [new_card]
    s["hands"][holder][other] -= 1
    s["hands"][holder][kind] += 1
    swapped = g.state_from_json(data)
    assert isinstance(swapped, LucentState)
    return swapped


@pytest.mark.parametrize("players", [2, 4])
def test_views_do_not_show_the_set_aside_card(players: int) -> None:
    for seed in range(4):
        state = _mid_game(players, seed, moves=seed)
        if state.is_terminal():
            continue
        for holder in range(players):
            swapped = _swap_aside_with_hand(state, holder)
            assert swapped.view(holder) != state.view(holder), "the holder sees their own hand change"
            for p in [None, *(q for q in range(players) if q != holder)]:
                assert swapped.view(p) == state.view(p), f"view of {p} shows which card was set aside"
            assert state.view(None)["aside"] == 1
        text = json.dumps([state.view(p) for p in [None, *range(players)]])
        assert state.game.card_ids[state.aside[0]] not in text


@pytest.mark.parametrize("players", [2, 4])
def test_resample_redraws_the_set_aside_card_among_the_unseen_cards(players: int) -> None:
    state = _mid_game(players, seed=11, moves=2)
    g = state.game
    unseen = Counter[int]()
    for q in range(1, players):
        unseen.update({k: c for k, c in enumerate(state.hands[q]) if c})
    unseen.update(g.card_kind[c] for c in state.aside)
    rng = random.Random(5)
    aside_kinds = set()
    for _ in range(60):
        det = state.resample(0, rng)
        assert isinstance(det, LucentState)
        assert det.view(0) == state.view(0)
        assert det.hands[0] == state.hands[0] and len(det.aside) == 1
        again = Counter[int]()
        for q in range(1, players):
            again.update({k: c for k, c in enumerate(det.hands[q]) if c})
        again.update(g.card_kind[c] for c in det.aside)
        assert again == unseen, "the redeal uses exactly the cards player 0 cannot see"
        aside_kinds.add(g.card_kind[det.aside[0]])
    assert len(aside_kinds) > 1, "the set-aside card is redrawn, not kept"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_play_said_to_reveal_nothing_shows_the_same_whatever_the_set_aside_card(players: int) -> None:
    """The undo hook (``reveals_hidden``) counts the set-aside card among the cards the mover cannot see."""
    said_yes = 0
    rng = random.Random(players)
    for state, p, action in positions(players, GEO_FOCUS, seed=players, games=4):
        answer = state.reveals_hidden(action, p)
        after = state.clone()
        after.apply_action(action, p)
        if not answer:
            for _ in range(8):
                sample = state.resample(p, rng)
                sample.apply_action(action, p)
                assert sample.view(p) == after.view(p), "said it reveals nothing, but the hidden cards matter"
        said_yes += bool(answer)
    # with two players the other hand no longer holds every unseen card: the set-aside one is unseen too
    assert said_yes


# ---------------------------------------------------------------- front ends
def test_the_text_and_web_boards_draw_the_geomancer_focus_and_the_set_aside_count() -> None:
    import xml.etree.ElementTree as ET

    from rich.console import Console

    from ziggurat.core import get_game
    from ziggurat.games.lucent.web import board

    state = _dealt(2, seed=1)
    console = Console(width=120, record=True, color_system=None)
    console.print(get_game("lucent").render(state.view(0), 0))  # type: ignore[misc]
    text = console.export_text()
    base = next(line for line in text.splitlines() if "base" in line).replace("·", " ").strip("│ ")
    assert base.split() == ["base", "any", "Geo", "any"], "the Geomancer at base 5, open either side"
    assert "1 card set aside unseen" in text
    legal = state.legal_action_texts(0)
    root = ET.fromstring(board(state.view(0), 0, legal).svg)
    ns = "{http://www.w3.org/2000/svg}"
    gems = {g.get("data-slot"): g.get("data-kind") for g in root.iter(f"{ns}g") if g.get("class") == "lu-gem"}
    assert gems == {"0:5": "geomancer"}
    words = [t.text or "" for t in root.iter(f"{ns}text")]
    assert "1 card set aside unseen" in words and "variant: geomancer-focus" in words


def test_the_lobby_offers_it_and_refuses_it_with_geomancers(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from ziggurat.server.app import Settings, create_app

    app = create_app(Settings(db_url=f"sqlite:///{tmp_path / 'z.db'}", bot_delay=0, bot_workers=0))
    with TestClient(app) as client:
        games = client.get("/api/games").json()
        lucent = next(g for g in (games if isinstance(games, list) else games["games"]) if g["id"] == "lucent")
        (opt,) = [o for o in lucent["options"] if o["name"] == "geomancer-focus"]
        assert opt["kind"] == "bool" and opt["default"] is False and opt["variant"] is True
        body = {"game": "lucent", "seats": ["human", "human"], "name": "Ana"}
        r = client.post("/api/tables", json={**body, "options": {"geomancer-focus": True}})
        assert r.status_code == 201, r.text
        r = client.post("/api/tables", json={**body, "options": {"geomancer-focus": True, "geomancers": True}})
        assert r.status_code == 400 and "geomancer-focus" in r.text, r.text
