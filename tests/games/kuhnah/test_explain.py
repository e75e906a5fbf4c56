"""K'uh Nah explains itself: every refusal by its rule, what each move did, and the score term by term."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.games.kuhnah.helpers import deck_file, game_with, position, taking
from tests.helpers import Refusal, check_refusal
from ziggurat.core import CHANCE, make_game
from ziggurat.games.kuhnah.messages import REFUSALS
from ziggurat.games.kuhnah.rules import BASE_LEFT, BASE_RIGHT, JADE_ON, PLACE, SETUP_START, TAKE, KuhNahState

# the support cases: the 15a goes over two cards (row 2 pos 1), their halves set by a deck file
SUPPORT = {"15a": ("bat", "monkey")}


def _over(tmp_path: Path, left: tuple[str, str], right: tuple[str, str], left_id: str = "22a",
          right_id: str = "11a", **options: object) -> KuhNahState:  # fmt: skip
    deck = deck_file(tmp_path, {**SUPPORT, left_id: left, right_id: right}, f"{left_id}{right_id}{left}{right}.toml")
    game = game_with(2, deck=str(deck), **options)
    return taking(position(game, quarry=["15a", "25b"], pyramids={0: {(1, 1): left_id, (1, 2): right_id}}), 0)


def _wild(jade: int = 8, used: bool = False, halves: tuple[int, ...] = (), take: bool = True) -> KuhNahState:
    game = game_with(2, **{"jade-wild": True})
    state = position(game, quarry=["6a", "25b"], pyramids={0: {(1, 1): "30a"}}, jade=[jade, 8])
    if take:
        taking(state, 0)
    state.wild_used[0] = used
    state.wild_halves.update(halves)
    return state


def _wild_id(state: KuhNahState, card: str, half: int) -> int:
    return state.game.wild_base + 2 * state.game.cards.index(card) + half


def _random_start() -> KuhNahState:
    state = game_with(2, **{"start-player": "random"}).new_initial_state()
    while state.phase != SETUP_START:
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def _removed(card: str | None) -> KuhNahState:
    """The setup, after ``card`` was removed unseen (None: before)."""
    state = game_with(2).new_initial_state()
    if card is not None:
        state.apply_action(state.game.cards.index(card), CHANCE)
    return state


CASES: dict[str, Callable[[Path], Refusal]] = {
    "no_jade": lambda _: Refusal(
        position(game_with(2), quarry=["6a", "25b"], jade=[0, 8]),
        JADE_ON,
        fixed=position(game_with(2), quarry=["6a", "25b"], jade=[1, 8]),
    ),
    "take_first": lambda _: Refusal(
        position(game_with(2), quarry=["6a", "25b"]),
        BASE_LEFT,
        fixed=taking(position(game_with(2), quarry=["6a", "25b"]), 0),
    ),
    "place_first": lambda _: Refusal(taking(position(game_with(2), quarry=["6a", "25b"]), 0), TAKE + 1),
    "not_in_quarry": lambda _: Refusal(
        position(game_with(2), quarry=["6a", "25b"]),
        "take 7a",
        fixed=position(game_with(2), quarry=["6a", "7a"]),
    ),
    "first_card": lambda _: Refusal(
        taking(position(game_with(2), quarry=["6a", "25b"]), 0),
        BASE_RIGHT,
        fixed=taking(position(game_with(2), quarry=["6a", "25b"], pyramids={0: {(1, 1): "30a"}}), 0),
    ),
    "slot_taken": lambda _: Refusal(
        taking(
            position(game_with(2), quarry=["6a", "25b"], pyramids={0: {(1, 1): "30a", (1, 2): "30b", (2, 1): "20a"}}), 0
        ),
        "row 2 pos 1",
    ),
    "slot_unsupported": lambda _: Refusal(
        taking(position(game_with(2), quarry=["6a", "25b"], pyramids={0: {(1, 1): "30a"}}), 0),
        "row 2 pos 1",
        fixed=taking(position(game_with(2), quarry=["6a", "25b"], pyramids={0: {(1, 1): "30a", (1, 2): "30b"}}), 0),
    ),
    # the rulebook's 15 over a 22 and an 11: the 11's left half must match the 15's right half
    "support": lambda t: Refusal(
        _over(t, ("quetzal", "serpent"), ("serpent", "bat")),
        "row 2 pos 1",
        fixed=_over(t, ("quetzal", "serpent"), ("monkey", "bat")),
    ),
    "heavier_right": lambda t: Refusal(
        _over(t, ("quetzal", "serpent"), ("serpent", "bat")),
        "row 2 pos 1",
        fixed=_over(t, ("quetzal", "serpent"), ("jaguar", "bat")),  # the jaguar matches every animal
    ),
    "heavier_left": lambda t: Refusal(
        _over(t, ("quetzal", "serpent"), ("monkey", "bat"), left_id="11b", right_id="22a"),
        "row 2 pos 1",
        fixed=_over(t, ("quetzal", "bat"), ("monkey", "bat"), left_id="11b", right_id="22a"),
    ),
    "support_both": lambda t: Refusal(
        _over(t, ("quetzal", "serpent"), ("serpent", "bat"), left_id="9a", right_id="11a"),
        "row 2 pos 1",
        fixed=_over(t, ("quetzal", "bat"), ("monkey", "bat"), left_id="9a", right_id="11a"),
    ),
    "as_heavy_left": lambda t: Refusal(
        _over(t, ("quetzal", "serpent"), ("monkey", "bat"), left_id="15b", right_id="22a"),
        "row 2 pos 1",
        fixed=_over(t, ("quetzal", "bat"), ("monkey", "bat"), left_id="15b", right_id="22a"),
    ),
    "as_heavy_right": lambda t: Refusal(
        _over(t, ("quetzal", "serpent"), ("serpent", "bat"), left_id="22a", right_id="15b"),
        "row 2 pos 1",
        fixed=_over(t, ("quetzal", "serpent"), ("monkey", "bat"), left_id="22a", right_id="15b"),
    ),
    "wild_when": lambda _: Refusal(_wild(take=False), _wild_id(_wild(), "30a", 0), fixed=_wild(), player=0),
    "wild_used": lambda _: Refusal(_wild(used=True), _wild_id(_wild(), "6a", 1), fixed=_wild()),
    "wild_no_jade": lambda _: Refusal(_wild(jade=0), _wild_id(_wild(), "6a", 1), fixed=_wild(jade=1)),
    "wild_not_yours": lambda _: Refusal(_wild(), _wild_id(_wild(), "7a", 0)),
    # another player's wild jade on a half of your card (a hand-made position: play never makes one)
    "wild_already_left": lambda _: Refusal(
        _wild(halves=(2 * _wild().game.cards.index("30a"),)), _wild_id(_wild(), "30a", 0), fixed=_wild()
    ),
    "wild_already_right": lambda _: Refusal(
        _wild(halves=(2 * _wild().game.cards.index("30a") + 1,)), _wild_id(_wild(), "30a", 1), fixed=_wild()
    ),
    "chance_not_in_deck": lambda _: Refusal(_removed("6a"), 0, CHANCE, fixed=_removed(None)),
    "chance_no_seat": lambda _: Refusal(_random_start(), 2, CHANCE),
}


@pytest.mark.parametrize("reason", sorted(CASES))
def test_every_refusal_names_its_rule(reason: str, tmp_path: Path) -> None:
    why = check_refusal(CASES[reason](tmp_path), f"kuhnah.{reason}")
    assert why.text


def test_every_refusal_of_the_catalog_has_a_case() -> None:
    assert set(CASES) == set(REFUSALS)


def test_moves_name_the_card_and_the_jade() -> None:
    game = game_with(2)
    state = position(game, quarry=["17a", "25b"], quarry_jade=(3, 0), pyramids={0: {(1, 1): "30a", (1, 2): "30b"}})
    card = game.card(game.cards.index("17a"))
    named = f"the 17 ({card.left}|{card.right})"
    assert state.describe_action(JADE_ON).text == f"puts a jade on {named} (4 jade on it now)"
    take = state.describe_action(TAKE)
    assert take.id == "kuhnah.take" and take.text == f"takes {named} with 3 jade"
    assert (
        state.describe_action(TAKE + 1).text.startswith("takes the 25 (")
        and "no jade" in state.describe_action(TAKE + 1).text
    )
    taking(state, 0)
    up = state.describe_action(state.action_from_text("row 2 pos 1"))
    assert up.id == "kuhnah.place_upper"
    assert [up.params[k].params["id"] for k in ("card", "left", "right")] == ["17a", "30a", "30b"]
    assert state.describe_action(BASE_LEFT).id == "kuhnah.place_base_left"
    assert state.describe_action(BASE_RIGHT).text == f"places {named} at the right end of the base"
    first = taking(position(game, quarry=["17a", "25b"]), 0)
    assert first.describe_action(BASE_LEFT).id == "kuhnah.place_first_card"


def test_chance_tells_a_removed_card_to_nobody_and_a_revealed_one_to_all() -> None:
    state = make_game("kuhnah", 2).new_initial_state()
    removal = state.chance_outcomes()[5][0]
    for audience in (None, 0, 1):
        told = state.describe_action(removal, CHANCE, audience=audience)
        assert told.id == "kuhnah.chance_remove" and told.params == {}
    while state.phase != 1:  # SETUP_REVEAL
        state.apply_action(state.chance_outcomes()[0][0])
    card = state.chance_outcomes()[0][0]
    assert state.describe_action(card, CHANCE).params["card"].params["id"] == state.game.card(card).id


def test_the_rulebook_scoring_example_term_by_term() -> None:
    """ "Both 15 & 9 are not supporting other cards ... 7 jade tokens are left over ... Final score: 17." """
    game = game_with(2)
    pyramid = {(1, 1): "20a", (1, 2): "21a", (1, 3): "22a", (2, 1): "15a", (2, 2): "9a"}
    state = position(game, quarry=["6a", "25b"], pyramids={0: pyramid}, jade=[7, 8])
    own = state.score_breakdown(0).players[0]
    assert [(t.label.id, t.points) for t in own.terms] == [
        ("kuhnah.score_card", 15.0),
        ("kuhnah.score_card", 9.0),
        ("kuhnah.score_jade", -7.0),
    ]
    assert own.total == 17.0 == state.score(0)
    assert own.terms[0].label.params["where"].params == {"row": 2, "pos": 1}


def test_another_players_jade_is_hidden_until_the_end_unless_open() -> None:
    state = position(game_with(2), quarry=["6a", "25b"], pyramids={1: {(1, 1): "20a"}}, jade=[8, 5])
    theirs = state.score_breakdown(0).players[1]
    assert [t.label.id for t in theirs.terms] == ["kuhnah.score_card", "kuhnah.score_jade_hidden"]
    assert theirs.terms[1].points is None and theirs.total is None
    assert "5" not in theirs.terms[1].label.text
    assert state.score_breakdown(1).players[1].total == 15.0, "their own jade is theirs to see"
    assert state.score_breakdown(None).players[0].total is None, "a spectator sees no jade count"
    shown = position(game_with(2, **{"open-jade": True}), quarry=["6a", "25b"], jade=[8, 5])
    assert [p.total for p in shown.score_breakdown(0).players] == [-8.0, -5.0]


def test_every_support_explanation_is_true_of_the_cards() -> None:
    """Over random games: a refused placement names a support that is not heavier and halves that differ."""
    for seed in range(20):
        rng = random.Random(seed)
        game = game_with(3, **({"jade-wild": True} if seed % 2 else {}))
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            if state.phase == PLACE:
                card = game.card(state.quarry[state.taken])
                for action in range(6, game.wild_base):
                    why = state.why_illegal(action)
                    if why is None or why.id not in ("kuhnah.support", "kuhnah.support_both"):
                        continue
                    keys = ["reason"] if why.id == "kuhnah.support" else ["left", "right"]
                    reasons = [why.params[k] for k in keys]
                    for reason in reasons:
                        support = game.card(game.cards.index(reason.params["support"].params["id"]))
                        assert support.value <= card.value
                        assert (support.value == card.value) == reason.id.startswith("kuhnah.as_heavy")
                        left = reason.id.endswith("_left")
                        mine, theirs = (card.left, support.right) if left else (card.right, support.left)
                        assert (reason.params["mine"], reason.params["theirs"]) == (mine, theirs) and mine != theirs
            state.apply_action(rng.choice(state.legal_actions()))
