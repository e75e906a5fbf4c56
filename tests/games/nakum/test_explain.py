"""Nakum explains itself: every refusal by its rule, what each move did, and the score term by term."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.games.nakum.helpers import all_revealed, chance, dealt, give, lay, started
from tests.helpers import Refusal, check_refusal
from ziggurat.core import CHANCE
from ziggurat.games.nakum.content import MAX_OPTIONS
from ziggurat.games.nakum.messages import REFUSALS
from ziggurat.games.nakum.rules import NakumState

COSTLY = ("m1", "m8", "m9", "m14", "m18")  # every card costs something


def _do(state: NakumState, *texts: str) -> NakumState:
    for text in texts:
        state.apply_text(text)
    return state


def _camp(covered: int = 0, **kw: object) -> NakumState:
    """Player 2 at the camp of El Maizal (player 1 opened it), its options ``covered``."""
    state = started(2, **kw)  # type: ignore[arg-type]
    state.cubes[0] = covered
    return _do(state, "place maizal basic 1", "place maizal camp")


def _buying(market: tuple[str, ...] = ("m1", "m2", "m3", "m4", "m5"), **res: int) -> NakumState:
    state = started(2, market=market)
    give(state, 0, **res)
    return _do(state, "place maizal basic 2")


def _offering() -> NakumState:
    state = started(2)
    give(state, 0, maize=6, skins=2)
    return _do(state, "place pyramid")


def _playing(hand: bool = True) -> NakumState:
    """El Cenote face up (its second basic space plays a heritage card); player 1's hand emptied if not ``hand``."""
    state = started(2)
    lay(state, 2, "cenote")
    if not hand:
        state.hands[0] = []
        state._legal = None
    return state


def _pituk(favours: int = 0) -> NakumState:
    state = started(2)
    all_revealed(state)
    state.favours = favours
    state._legal = None
    return state


def _settle(state: NakumState) -> NakumState:
    """Draw whatever chance draws next (the first outcome each time) until a player decides."""
    while state.current_player() == CHANCE:
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def _freeing() -> NakumState:
    """Player 1 bought the Trampero (it frees a camp) while a black cube covers El Cenote's first option."""
    state = started(2)
    state.cubes[2] = 0b01
    return _do(state, "place maizal basic 2", "buy m3")


def _revealing(players: int = 3) -> NakumState:
    """Setup: the heritage cards are played, the start player reveals a tile."""
    state = dealt(players)
    for p in range(players):
        state.apply_text(f"heritage {('h1', 'h4', 'h7', 'h10')[p]}", p)
    return state


def _revealed_one() -> NakumState:
    """Setup with 3 players: El Maizal is face up at position 1, the second player reveals a tile."""
    state = _do(_revealing(), "reveal 1")
    chance(state, "tile maizal")
    return state


def _four(*texts: str) -> NakumState:
    return _do(started(4, tiles=((1, "maizal"), (2, "cazador"))), *texts)


def _round_two(reserve: int = 2, hand: int = 2) -> NakumState:
    state = started(2)
    state.round = 2
    state.reserve[0] = reserve
    state.hand[0] = hand
    state._legal = None
    return state


def _camp_open(covered: int, market: tuple[str, ...] = ("m1", "m2", "m3", "m4", "m5")) -> NakumState:
    """Player 1 is on El Maizal's first basic space (its camp is open); player 2, with nothing, is to move."""
    state = started(2, market=market)
    give(state, 1)
    state.cubes[0] = covered
    return _do(state, "place maizal basic 1")


def _pyramid(hand: int = 2, offers: bool = True, skins: int = 2) -> NakumState:
    """Player 1 with 6 maize and ``skins`` skins (the offering o1 asks for 6 maize and 2 skins)."""
    state = started(2)
    give(state, 0, maize=6, skins=skins)
    state.hand[0] = hand
    if not offers:
        state.offer_discard += state.offers
        state.offers.clear()
    state._legal = None
    return state


def _cenote_camp() -> NakumState:
    """Player 2 on the camp of El Cenote, which has two options."""
    state = started(2)
    lay(state, 2, "cenote")
    return _do(state, "place cenote basic 1", "place cenote camp")


def _no_card(maize: int = 0) -> NakumState:
    state = started(2, market=COSTLY)
    give(state, 0, maize=maize)
    return state


def _drawing(kind: str) -> NakumState:
    """A chance node about to draw, a second time, the first card of ``kind`` (offering, market, deal)."""
    state = started(2).game.new_initial_state()
    texts = ["offering o1", "offering o2", "market m1", "market m2", "market m3", "market m4", "market m5"]
    first = {"offering": "offering o1", "market": "market m1", "deal": "deal h1"}[kind]
    for text in texts:
        chance(state, text)
        if text == first:
            return state
    chance(state, first)
    return state


def _tile_draw() -> NakumState:
    """Setup with 3 players: El Maizal is face up, a tile is drawn for position 2."""
    return _do(_revealed_one(), "reveal 2")


CASES: dict[str, Callable[[], Refusal]] = {
    # a choice must come first
    "pending_camp": lambda: Refusal(_camp(), "explore 3"),
    "pending_buy": lambda: Refusal(_buying(), "explore 3"),
    "pending_offer": lambda: Refusal(_offering(), "explore 3"),
    "pending_play": lambda: Refusal(_do(_playing(), "place cenote basic 2"), "explore 3"),
    "pending_favour": lambda: Refusal(_do(_pituk(), "place pituk"), "explore 3"),
    "pending_free": lambda: Refusal(_freeing(), "explore 3"),
    "pending_reveal": lambda: Refusal(_revealing(), "explore 3"),
    "pending_heritage": lambda: Refusal(dealt(2), "explore 3", 0),
    "place_first": lambda: Refusal(started(2), "buy m2", fixed=_buying()),
    # placing a worker
    "pass_not_allowed": lambda: Refusal(started(2), 0),
    "face_down": lambda: Refusal(started(2), "place cazador basic 1", fixed=started(2, tiles=((1, "cazador"),))),
    "space_yours": lambda: Refusal(
        _four("place maizal basic 1", "explore 3", "explore 4", "explore 5"), "place maizal basic 1"
    ),
    "space_full_one": lambda: Refusal(_do(started(2), "place maizal basic 1"), "place maizal basic 1"),
    "space_full_two": lambda: Refusal(
        _four("place maizal basic 1", "place maizal basic 1"),
        "place maizal basic 1",
        fixed=_four("place maizal basic 1"),
    ),
    "cannot_pay": lambda: Refusal(_buying(COSTLY, maize=3), "buy m1", fixed=_buying(COSTLY, maize=3, masks=1)),
    "no_affordable_card": lambda: Refusal(_no_card(), "place maizal basic 2", fixed=_no_card(maize=3)),
    "no_heritage": lambda: Refusal(_playing(hand=False), "place cenote basic 2", fixed=_playing()),
    "camp_exhausted": lambda: Refusal(_camp_open(0b111), "place maizal camp", fixed=_camp_open(0b011)),
    "camp_inactive": lambda: Refusal(started(2), "place maizal camp", fixed=_do(started(2), "place maizal basic 1")),
    "camp_no_option": lambda: Refusal(_camp_open(0b011, COSTLY), "place maizal camp", fixed=_camp_open(0b001, COSTLY)),
    "explore_face_up": lambda: Refusal(started(2), "explore 1", fixed=started(2, tiles=((2, "maizal"),))),
    "explore_taken": lambda: Refusal(_do(started(2), "explore 3"), "explore 3", fixed=_do(started(2), "explore 4")),
    "pyramid_workers": lambda: Refusal(_pyramid(hand=1), "place pyramid", fixed=_pyramid()),
    "pyramid_none": lambda: Refusal(_pyramid(offers=False), "place pyramid", fixed=_pyramid()),
    "pyramid_cannot_pay": lambda: Refusal(_pyramid(skins=1), "place pyramid", fixed=_pyramid()),
    "pituk_not_yet": lambda: Refusal(started(2), "place pituk", fixed=_pituk()),
    "pituk_done": lambda: Refusal(_pituk(favours=3), "place pituk", fixed=_pituk(favours=1)),
    "pituk_taken": lambda: Refusal(_settle(_do(_pituk(), "place pituk", "pituk market")), "place pituk"),
    "start_holder": lambda: Refusal(started(2), "place start", fixed=_do(started(2), "explore 3")),
    "start_taken": lambda: Refusal(_do(started(2), "explore 3", "place start"), "place start"),
    "grow_first_round": lambda: Refusal(started(2), "place grow", fixed=_round_two()),
    "grow_workers": lambda: Refusal(_round_two(hand=1), "place grow", fixed=_round_two()),
    "grow_reserve": lambda: Refusal(_round_two(reserve=0), "place grow", fixed=_round_two()),
    # the choice after a placement
    "camp_other": lambda: Refusal(_camp(), "camp cazador 1"),
    "camp_no_such_option": lambda: Refusal(_cenote_camp(), _cenote_camp().game.A_OPTION + 2 * MAX_OPTIONS + 2),
    "option_covered": lambda: Refusal(_camp(covered=0b001), "camp maizal 1", fixed=_camp()),
    "not_in_market": lambda: Refusal(_buying(), "buy m6"),
    "not_active": lambda: Refusal(_offering(), "offer o3"),
    "not_in_hand": lambda: Refusal(_do(_playing(), "place cenote basic 2"), "heritage h4"),
    "favour_used": lambda: Refusal(_do(_pituk(favours=1), "place pituk"), "pituk market"),
    "no_cube": lambda: Refusal(_freeing(), "free cenote 2"),
    "no_such_cube": lambda: Refusal(_freeing(), _freeing().game.A_FREE + 2 * MAX_OPTIONS + 2),
    "reveal_setup": lambda: Refusal(started(2), "reveal 3"),
    "reveal_face_up": lambda: Refusal(_revealed_one(), "reveal 1", fixed=_revealing()),
    "two_basics": lambda: Refusal(started(2, tiles=((1, "cazador"),)), "place cazador basic"),
    # chance
    "chance_face_up": lambda: Refusal(_tile_draw(), 0, CHANCE),
    "chance_no_such": lambda: Refusal(_tile_draw(), 12, CHANCE),
    "chance_not_in_offering_deck": lambda: Refusal(_drawing("offering"), 0, CHANCE),
    "chance_not_in_market_deck": lambda: Refusal(_drawing("market"), 0, CHANCE),
    "chance_not_in_box": lambda: Refusal(_drawing("deal"), 0, CHANCE),
}


@pytest.mark.parametrize("reason", sorted(CASES))
def test_every_refusal_names_its_rule(reason: str) -> None:
    case = CASES[reason]()
    if isinstance(case.action, str) and reason not in ("two_basics",):
        case = case._replace(action=case.state.game.text_ids[case.action])
    check_refusal(case, f"nakum.{reason}")


def test_every_refusal_of_the_catalog_has_a_case() -> None:
    assert set(CASES) == set(REFUSALS)


def test_moves_name_the_card_the_space_and_what_they_give() -> None:
    state = _buying(maize=0, skins=0, masks=1)
    bought = state.describe_action(state.game.text_ids["buy m1"])
    assert bought.id == "nakum.buy"
    assert bought.params["card"].params == {"name": "Mercader de Jade", "id": "m1"}
    assert bought.text == "buys market card Mercader de Jade (m1): pay 1 mask: 2 maize and 2 points at the end"
    state = started(2)
    placed = state.describe_action(state.game.text_ids["place maizal basic 1"])
    assert placed.text == "places a worker on El Maizal, basic space 1: 3 maize"
    camp = _camp()
    assert camp.describe_action(camp.game.text_ids["camp maizal 2"]).text == (
        "takes option 2 of the camp of El Maizal: 1 mask and 1 point; a black cube covers it"
    )
    offering = _offering()
    made = offering.describe_action(offering.game.text_ids["offer o1"])
    assert made.text.startswith("makes offering ") and made.text.endswith(": pays 6 maize and 2 skins, 8 points")


def test_a_heritage_card_is_named_to_its_owner_only_until_everyone_has_chosen() -> None:
    state = dealt(2)
    action = state.game.text_ids["heritage h1"]
    assert state.describe_action(action, 0, audience=0).params["card"].params["id"] == "h1"
    for audience in (1, None):
        assert state.describe_action(action, 0, audience=audience).id == "core.choice_hidden"
    fresh = started(2).game.new_initial_state()
    for text in ("offering o1", "offering o2", "market m1", "market m2", "market m3", "market m4", "market m5"):
        chance(fresh, text)
    card = fresh.game.heritage_ids["h3"]
    assert fresh.describe_action(card, CHANCE, audience=0).text.endswith("is dealt heritage card " + _name(fresh, "h3"))
    assert fresh.describe_action(card, CHANCE, audience=1).text == "player 1 is dealt a heritage card"


def _name(state: NakumState, card: str) -> str:
    h = state.game.content.heritage[state.game.heritage_ids[card]]
    return f"{h.name} ({h.id})"


def test_the_score_term_by_term_is_score_terms_item_by_item() -> None:
    """Offerings, market cards' end points, point tokens, and storage resource by resource (each rounded down)."""
    state = started(2)
    state.made[0] = [0]  # o1: 8 points
    state.bought[0] = [0, 1]  # m1 scores 2 at the end, m2 nothing (no term)
    state.tokens[0] = 3
    give(state, 0, maize=7, skins=3, masks=2)
    terms = state.score_breakdown(1).players[0].terms
    assert [(t.label.text, t.points) for t in terms] == [
        ("offering Ofrenda del Maíz (o1)", 8.0),
        ("market card Mercader de Jade (m1), points at the end", 2.0),
        ("3 point tokens", 3.0),
        ("7 maize stored, 1 point per 3", 2.0),
        ("3 skins stored, 1 point per 2", 1.0),
        ("2 masks stored, 1 point per 1", 2.0),
    ]
    assert state.score_terms(0) == (8, 2, 3, 5), "the played h1 has no end points: no term"
    state.played[0] = [state.game.heritage_ids["h10"]]  # Códice: points at the end
    codex = state.score_breakdown(None).players[0].terms[2]
    assert codex.label.id == "nakum.score_heritage" and codex.points == state.game.heritage_points[9] > 0
