"""Lucent explains itself: every refusal by its rule, what each move did, and the score term by term."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.games.lucent.helpers import KINDS, parse_slot, position
from tests.helpers import Refusal, check_refusal
from ziggurat.core import CHANCE, make_game
from ziggurat.games.lucent.messages import REFUSALS
from ziggurat.games.lucent.rules import NUM_SLOTS, SUPPORTS, LucentState

RED, BLUE, YELLOW, WILD, GEO = (KINDS.index(k) for k in ("red", "blue", "yellow", "wildcard", "geomancer"))
CENTRE = {"base 5": "red"}


def act(kind: int, slot: str) -> int:
    return kind * NUM_SLOTS + parse_slot(slot)


def _setup(options: dict[str, object], removed: int = 0) -> LucentState:
    """A 3-player setup after ``removed`` gems were removed unseen (the wildcards variant)."""
    state = make_game("lucent", 3, options).new_initial_state()
    for _ in range(removed):
        state.apply_action(state.chance_outcomes()[0][0], CHANCE)
    return state


CASES: dict[str, Callable[[Path], Refusal]] = {
    # the card
    "no_gem": lambda t: Refusal(
        position(t, [{"red": 1}, {"blue": 1}], CENTRE),
        act(BLUE, "base 4"),
        fixed=position(t, [{"red": 1, "blue": 1}, {"blue": 1}], CENTRE),
    ),
    "no_wildcard": lambda t: Refusal(
        position(t, [{"red": 1}, {"wildcard": 1}], CENTRE, options={"wildcards": True}),
        act(WILD, "base 4"),
        fixed=position(t, [{"wildcard": 1}, {"red": 1}], CENTRE, options={"wildcards": True}),
    ),
    "no_wildcards": lambda t: Refusal(position(t, [{"red": 1}, {"blue": 1}], CENTRE), act(WILD, "base 4")),
    "no_geomancers": lambda t: Refusal(position(t, [{"red": 1}, {"blue": 1}], CENTRE), act(GEO, "base 4")),
    "geo_focus": lambda t: Refusal(
        position(t, [{"red": 1}, {"blue": 1}, {"red": 1}], {"base 5": "geomancer"}, options={"geomancer-focus": True}),
        act(GEO, "base 4"),
    ),
    "geo_played": lambda t: Refusal(
        position(
            t,
            [{"red": 1}, {"blue": 1, "geomancer": 1}],
            {"base 5": "red", "base 6": "geomancer"},
            options={"geomancers": True},
        ),
        act(GEO, "base 4"),
        fixed=position(
            t,
            [{"red": 1, "geomancer": 1}, {"blue": 1}],
            {"base 5": "red", "base 6": "geomancer"},
            options={"geomancers": True},
        ),
    ),
    # the place
    "focus_first": lambda t: Refusal(
        position(t, [{"red": 1}, {"blue": 1}, {"yellow": 1}], {}),
        act(RED, "base 4"),
    ),
    "slot_taken": lambda t: Refusal(position(t, [{"red": 1}, {"blue": 1}], CENTRE), act(RED, "base 5")),
    "base_adjacent_two": lambda t: Refusal(
        position(t, [{"red": 1}, {"blue": 1}], CENTRE),
        act(RED, "base 3"),
        fixed=position(t, [{"red": 1}, {"blue": 1}], {**CENTRE, "base 4": "blue"}),
    ),
    "base_adjacent": lambda t: Refusal(
        position(t, [{"red": 1}, {"blue": 1}], {f"base {j}": "blue" for j in range(1, 6)}),
        act(RED, "base 7"),
        fixed=position(t, [{"red": 1}, {"blue": 1}], {f"base {j}": "blue" for j in range(1, 7)}),
    ),
    "needs_both": lambda t: Refusal(
        position(t, [{"red": 1}, {"blue": 1}], CENTRE),
        act(RED, "row 1 slot 4"),
        fixed=position(t, [{"red": 1}, {"blue": 1}], {**CENTRE, "base 4": "blue"}),
    ),
    "colour": lambda t: Refusal(
        position(t, [{"yellow": 1}, {"blue": 1}], {**CENTRE, "base 4": "blue"}),
        act(YELLOW, "row 1 slot 4"),
        fixed=position(t, [{"yellow": 1}, {"blue": 1}], {"base 5": "yellow", "base 4": "blue"}),
    ),
    # chance
    "chance_not_in_deck": lambda _: Refusal(_setup({}, 0), 0, CHANCE),
    "chance_remove_gem": lambda _: Refusal(
        _setup({"wildcards": True}), _setup({"wildcards": True}).game.deck.first_index(WILD), CHANCE
    ),
}


@pytest.mark.parametrize("reason", sorted(CASES))
def test_every_refusal_names_its_rule(reason: str, tmp_path: Path) -> None:
    case = CASES[reason](tmp_path)
    if reason == "chance_not_in_deck":  # a card already dealt
        state = case.state
        state.apply_action(0, CHANCE)
        case = case._replace(fixed=make_game("lucent", 3).new_initial_state())
    check_refusal(case, f"lucent.{reason}")


def test_every_refusal_of_the_catalog_has_a_case() -> None:
    assert set(CASES) == set(REFUSALS)


def test_a_base_card_names_the_ends_it_may_go_to(tmp_path: Path) -> None:
    state = position(tmp_path, [{"red": 1}, {"blue": 1}], {**CENTRE, "base 6": "blue"})
    why = state.why_illegal(act(RED, "base 8"))
    assert why is not None and why.id == "lucent.base_adjacent_two"
    assert (why.params["lo"], why.params["hi"]) == (5, 6)
    assert [why.params[e].params["pos"] for e in ("left", "right")] == [4, 7]
    assert why.text.endswith("so only base 4 or base 7")


def test_a_play_names_the_card_and_what_it_rests_on(tmp_path: Path) -> None:
    state = position(tmp_path, [{"red": 1}, {"blue": 1}, {"yellow": 1}], {})
    assert state.describe_action(act(RED, "base 5")).text == "plays a red gem as the Focus Gem"
    state = position(tmp_path, [{"red": 2}, {"blue": 1}], {**CENTRE, "base 4": "blue"})
    told = state.describe_action(act(RED, "row 1 slot 4"))
    assert told.text == "plays a red gem at row 1 slot 4, on a blue gem and a red gem"
    assert state.describe_action(act(RED, "base 3")).text == "plays a red gem at base 3"


def test_a_dealt_card_is_named_to_its_owner_only() -> None:
    state = make_game("lucent", 2).new_initial_state()
    card = state.chance_outcomes()[0][0]
    kind = state.game.kinds[state.game.card_kind[card]]
    owner = state.describe_action(card, CHANCE, audience=0)
    assert owner.id == "lucent.chance_deal" and owner.params["card"].params == {"kind": kind}
    for audience in (None, 1):
        told = state.describe_action(card, CHANCE, audience=audience)
        assert told.id == "lucent.chance_deal_hidden" and told.params == {"player": 1, "seat": 0}
    while len(state.deck) > 1:
        state.apply_action(state.chance_outcomes()[0][0], CHANCE)
    last = state.chance_outcomes()[0][0]
    assert state.describe_action(last, CHANCE, audience=1).id == "lucent.chance_focus", "the Focus Gem is public"


def test_the_points_variant_term_by_term(tmp_path: Path) -> None:
    """ "The last player to place a gem earns a point. Each player who plays all of their cards also earns a point." """
    options = {"points": True, "geomancers": True}
    hands = [{}, {"blue": 1}, {}]
    pyramid = {"base 4": "blue", "base 5": "red", "base 6": "geomancer", "base 3": "geomancer", "base 7": "geomancer"}
    kinds = ["geomancer", "geomancer", "red"]
    state = position(tmp_path, hands, pyramid, options=options, to_move=1, last_placer=0, last_kind=kinds)
    breakdown = state.score_breakdown(1)
    ids = [[t.label.id for t in p.terms] for p in breakdown.players]
    assert ids == [
        ["lucent.score_last", "lucent.score_all", "lucent.score_geomancer"],
        ["lucent.score_geomancer"],
        ["lucent.score_all"],
    ]
    assert [p.total for p in breakdown.players] == [3.0, 1.0, 1.0]
    assert [n.id for n in breakdown.notes] == ["lucent.note_points", "lucent.note_geomancers"]
    plain = position(tmp_path, [{}, {"blue": 1}], {"base 5": "red"}, to_move=1, last_placer=0, last_kind=["red", None])
    assert [[t.label.id for t in p.terms] for p in plain.score_breakdown(0).players] == [["lucent.score_last"], []]
    assert [n.id for n in plain.score_breakdown(0).notes] == ["lucent.note_winner"]


def test_every_place_explanation_is_true_of_the_pyramid() -> None:
    """Over random games: the cards said to be under a slot are there, and match neither the colour refused."""
    for seed in range(15):
        rng = random.Random(seed)
        state = make_game("lucent", 2 + seed % 4, {"wildcards": bool(seed % 2)}).new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            g = state.game
            for action in range(g.num_actions):
                why = state.why_illegal(action)
                if why is None or why.id != "lucent.colour":
                    continue
                kind, slot = divmod(action, NUM_SLOTS)
                a, b = SUPPORTS[slot]
                under = [state.pyramid[a], state.pyramid[b]]
                assert [why.params[side].params.get("kind") for side in ("left", "right")] == [
                    g.kinds[k] for k in under
                ]
                assert kind not in under and all(k < g.wild for k in (kind, *under)), "wild cards go anywhere"
            state.apply_action(rng.choice(state.legal_actions()))
