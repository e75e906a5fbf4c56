"""Lucent's rules, one test per rule (see docs/rulings.md and the rulebook gem-pyramid.txt)."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest

from tests.helpers import refusal
from ziggurat.core import CHANCE, TERMINAL, IllegalActionError, ParseActionError, RecordError, make_game
from ziggurat.games.lucent.rules import FOCUS, NUM_SLOTS, LucentGame, LucentState

from .helpers import deal, full_base, parse_slot, position

RED, BLUE, YELLOW, GREEN, PURPLE, WILD, GEO = range(7)


def act(kind: int, slot: str) -> int:
    return kind * NUM_SLOTS + parse_slot(slot)


def lucent(players: int, **options: object) -> LucentGame:
    game = make_game("lucent", players, options)
    assert isinstance(game, LucentGame)
    return game


# ----------------------------------------------------------------- setup
@pytest.mark.parametrize(
    ("players", "options", "hand", "focus_dealt"),
    [
        (2, {}, 22, True),
        (3, {}, 15, False),
        (4, {}, 11, True),
        (5, {}, 9, False),
        (2, {"geomancers": True}, 23, True),
        (3, {"geomancers": True}, 16, False),
        (4, {"geomancers": True}, 12, True),
        (5, {"geomancers": True}, 10, False),
        (2, {"wildcards": True}, 22, True),
        (3, {"wildcards": True, "geomancers": True}, 16, False),
    ],
)
def test_deal_and_focus_per_player_count(players: int, options: dict[str, bool], hand: int, focus_dealt: bool) -> None:
    game = lucent(players, **options)
    state = deal(game, random.Random(players))
    assert state.sizes == [hand] * players
    assert (state.pyramid[FOCUS] >= 0) is focus_dealt
    assert state.current_player() == 0  # the player left of the dealer: seat 1
    on_table = sum(state.sizes) + (1 if focus_dealt else 0)
    assert on_table == 45 + (players if options.get("geomancers") else 0)
    if not focus_dealt:
        # the first player's first card is the Focus Gem: any card of the hand, only at the centre
        legal = state.legal_actions()
        assert {a % NUM_SLOTS for a in legal} == {FOCUS}
        assert {a // NUM_SLOTS for a in legal} == {k for k in range(7) if state.hands[0][k]}
        assert state.action_to_text(legal[0]).endswith("as focus")
    else:
        assert state.legal_actions() == sorted(k * NUM_SLOTS + s for k in range(7) if state.hands[0][k] for s in (3, 5))


def test_deal_is_one_uniform_card_at_a_time_seat_one_first() -> None:
    game = lucent(3)
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert [c for c, _ in outcomes] == list(range(45))
    assert all(p == pytest.approx(1 / 45) for _, p in outcomes)
    assert state.action_to_text(12) == "deal blue4 to player 1"
    state.apply_action(12)
    assert state.hands[0][BLUE] == 1
    assert state.action_to_text(0) == "deal red1 to player 2"
    assert len(state.chance_outcomes()) == 44 and 12 not in state.legal_actions()
    assert state.action_from_text("deal red1") == 0
    with pytest.raises(IllegalActionError, match="player 2"):
        state.action_from_text("deal red1 to player 3")
    with pytest.raises(IllegalActionError):
        state.apply_action(12)


def test_two_player_last_card_is_the_focus() -> None:
    game = lucent(2)
    state = game.new_initial_state()
    for card in range(44):
        state.apply_action(card)
    assert state.current_player() == CHANCE
    assert state.action_to_text(44) == "deal purple9 as focus"
    state.apply_action(44)
    assert state.pyramid[FOCUS] == PURPLE
    assert state.sizes == [22, 22]


def test_wildcards_variant_removes_two_gems_and_adds_the_wildcards() -> None:
    game = lucent(2, wildcards=True)
    state = game.new_initial_state()
    assert [c for c, _ in state.chance_outcomes()] == list(range(45))  # only gems can be removed
    assert state.action_to_text(3) == "remove red4"
    state.apply_action(3)
    state.apply_action(40)
    assert state.removed == [3, 40]
    assert len(state.deck) == 45 and {45, 46} <= set(state.deck)
    state = deal(game, random.Random(0))
    assert sum(state.sizes) + 1 == 45
    assert sum(h[WILD] for h in state.hands) + (state.pyramid[FOCUS] == WILD) == 2
    assert state.view(None)["removed"] == 2


def test_geomancers_variant_deals_one_to_each_player() -> None:
    state = deal(lucent(3, geomancers=True), random.Random(1))
    assert [h[GEO] for h in state.hands] == [1, 1, 1]
    state = deal(lucent(4), random.Random(1))
    assert [h[GEO] for h in state.hands] == [0, 0, 0, 0]


# -------------------------------------------------------------- the base row
def test_a_new_base_card_must_be_next_to_a_placed_one(tmp_path: Path) -> None:
    state = position(tmp_path, [{"red": 2}, {"blue": 2}], {"base 5": "green", "base 6": "green"})
    assert state.legal_actions() == [act(RED, "base 4"), act(RED, "base 7")]
    with pytest.raises(IllegalActionError, match=r"next to one already placed.*base 4 or base 7"):
        state.apply_text("play red at base 3")


def test_the_tenth_base_card_is_refused(tmp_path: Path) -> None:
    state = position(tmp_path, [{"red": 2}, {"blue": 2}], full_base("red " * 9))
    assert state.legal_actions() == sorted(act(RED, f"row 1 slot {j}") for j in range(1, 9))
    with pytest.raises(IllegalActionError, match="taken already"):
        state.apply_text("play red at base 9")
    with pytest.raises(ParseActionError, match="nine wide"):
        state.apply_text("play red at base 10")


def test_no_base_card_more_than_four_from_the_focus(tmp_path: Path) -> None:
    # the base stretches from base 1 to base 8: only base 9 is left, four right of the focus
    state = position(tmp_path, [{"red": 2}, {"blue": 2}], {f"base {j}": "yellow" for j in range(1, 9)})
    base_plays = [a for a in state.legal_actions() if a % NUM_SLOTS < 9]
    assert base_plays == [act(RED, "base 9")]
    with pytest.raises(ParseActionError, match="four either side of the Focus Gem"):
        state.action_from_text("red at base 0")


def test_the_first_card_with_three_players_is_the_focus(tmp_path: Path) -> None:
    state = position(tmp_path, [{"red": 1, "blue": 1}, {"blue": 2}, {"green": 2}], {})
    assert state.legal_actions() == [act(RED, "base 5"), act(BLUE, "base 5")]
    with pytest.raises(IllegalActionError, match="Focus Gem"):
        state.apply_action(act(RED, "base 4"))
    state.apply_text("play blue as focus")
    assert state.pyramid[FOCUS] == BLUE and state.current_player() == 1
    assert state.view(1)["focus"] == "blue"


# ------------------------------------------------------------- higher rows
def test_an_upper_card_must_match_a_colour_under_it(tmp_path: Path) -> None:
    pyramid = full_base("red blue yellow green purple red blue yellow green")
    state = position(tmp_path, [{"red": 1, "purple": 1}, {"blue": 2}], pyramid)
    # red fits on red|blue (row 1 slot 1) and on purple|red (slot 5), red|blue (slot 6)
    reds = [a for a in state.legal_actions() if a // NUM_SLOTS == RED]
    assert reds == [act(RED, "row 1 slot 1"), act(RED, "row 1 slot 5"), act(RED, "row 1 slot 6")]
    why = refusal(state, act(RED, "row 1 slot 2"))
    assert why.id == "lucent.colour"
    assert why.text == (
        "a red gem at row 1 slot 2 matches the colour of neither card below it: a blue gem and a yellow gem"
    )


def test_the_rulebook_example_only_red_or_blue(tmp_path: Path) -> None:
    # "Here a player can only place a red or a blue gem": a slot over a red and a blue gem
    state = position(tmp_path, [{"red": 1, "blue": 1, "yellow": 1, "green": 1}, {"blue": 2}],
                     {"base 4": "red", "base 5": "blue"})  # fmt: skip
    upper = [a for a in state.legal_actions() if a % NUM_SLOTS == parse_slot("row 1 slot 4")]
    assert upper == [act(RED, "row 1 slot 4"), act(BLUE, "row 1 slot 4")]
    assert state.view(0)["open_slots"][2]["kinds"] == ["red", "blue", "wildcard", "geomancer"]


def test_the_rulebook_example_only_red_blue_or_yellow(tmp_path: Path) -> None:
    """ "On this board, only a red, blue or yellow gem can be placed" (its picture is lost: a board like it)."""
    hand = {"red": 1, "blue": 1, "yellow": 1, "green": 1, "purple": 1}
    state = position(tmp_path, [hand, {"red": 1}], full_base("red blue yellow red blue yellow red blue yellow"))
    assert {state.game.kinds[a // NUM_SLOTS] for a in state.legal_actions()} == {"red", "blue", "yellow"}


def test_an_upper_card_needs_both_cards_under_it(tmp_path: Path) -> None:
    state = position(tmp_path, [{"red": 2}, {"blue": 2}], {"base 5": "red", "base 6": "red"})
    assert act(RED, "row 1 slot 4") not in state.legal_actions()
    why = refusal(state, act(RED, "row 1 slot 4"))
    assert why.id == "lucent.needs_both" and why.text == "a card in row 1 needs both cards under it: base 4 is empty"
    why = refusal(state, act(RED, "row 1 slot 3"))
    assert [m.params["pos"] for m in why.params["missing"]] == [3, 4] and why.params["count"] == 2


def test_higher_rows_need_not_be_contiguous(tmp_path: Path) -> None:
    state = position(tmp_path, [{"red": 2}, {"red": 2}], {**full_base("red " * 9), "row 1 slot 1": "red"})
    assert act(RED, "row 1 slot 8") in state.legal_actions()
    state.apply_text("play red at row 1 slot 8")
    assert state.pyramid[parse_slot("row 1 slot 8")] == RED


def test_a_wildcard_supports_any_colour(tmp_path: Path) -> None:
    state = position(tmp_path, [{"yellow": 1, "green": 1}, {"blue": 1}],
                     {"base 4": "red", "base 5": "wildcard", "base 6": "blue"}, options={"wildcards": True},
                     removed=["red", "red"])  # fmt: skip
    uppers = [a for a in state.legal_actions() if a % NUM_SLOTS >= 9]
    assert uppers == [act(YELLOW, "row 1 slot 4"), act(YELLOW, "row 1 slot 5"),
                      act(GREEN, "row 1 slot 4"), act(GREEN, "row 1 slot 5")]  # fmt: skip


def test_a_geomancer_supports_any_colour_and_goes_anywhere(tmp_path: Path) -> None:
    pyramid = {**full_base("red red red red geomancer blue blue blue blue")}
    state = position(tmp_path, [{"geomancer": 1, "yellow": 1}, {"green": 1}], pyramid,
                     options={"geomancers": True})  # fmt: skip
    legal = state.legal_actions()
    assert [a for a in legal if a // NUM_SLOTS == YELLOW] == [act(YELLOW, "row 1 slot 4"), act(YELLOW, "row 1 slot 5")]
    assert [a for a in legal if a // NUM_SLOTS == GEO] == [act(GEO, f"row 1 slot {j}") for j in range(1, 9)]


def test_a_wildcard_may_be_placed_on_any_two_colours(tmp_path: Path) -> None:
    state = position(tmp_path, [{"wildcard": 1, "green": 1}, {"blue": 1, "wildcard": 1}],
                     full_base("red blue red blue red blue red blue red"), options={"wildcards": True},
                     removed=["yellow", "yellow"])  # fmt: skip
    assert [a for a in state.legal_actions() if a // NUM_SLOTS == WILD] == [
        act(WILD, f"row 1 slot {j}") for j in range(1, 9)
    ]
    assert not [a for a in state.legal_actions() if a // NUM_SLOTS == GREEN]


def test_you_may_only_play_cards_you_hold(tmp_path: Path) -> None:
    state = position(tmp_path, [{"red": 1}, {"blue": 1}], {"base 5": "red"})
    with pytest.raises(IllegalActionError, match="no blue gem in your hand"):
        state.apply_text("play blue at base 4")
    with pytest.raises(IllegalActionError, match="only in the wildcards variant"):
        state.apply_text("play wildcard at base 4")
    with pytest.raises(IllegalActionError, match="only in the geomancers variant"):
        state.apply_text("play geomancer at base 4")


# ---------------------------------------------------- turns, out, winning
def test_a_player_without_a_play_is_out_and_the_last_placer_wins(tmp_path: Path) -> None:
    pyramid = full_base("red " * 9)
    state = position(tmp_path, [{"red": 1, "blue": 1}, {"blue": 3}, {"yellow": 1, "red": 1}], pyramid)
    state.apply_text("play red at row 1 slot 1")
    # player 2 holds only blue: nothing fits over red, so they are out; player 3 plays
    assert state.out == [False, True, False]
    assert state.current_player() == 2
    assert state.view(0)["out"] == [False, True, False]
    state.apply_text("play red at row 1 slot 2")
    # player 1 (blue) and player 3 (yellow) have no play either: the game is over
    assert state.current_player() == TERMINAL
    assert state.out == [True, True, True]
    assert state.last_placer == 2
    assert state.scores() == (0.0, 0.0, 1.0)
    assert state.outcome().winners == (2,)


def test_a_player_must_play_when_able_no_passing(tmp_path: Path) -> None:
    state = position(tmp_path, [{"red": 1}, {"blue": 1}], {"base 5": "green"})
    assert all(state.action_to_text(a).startswith("play ") for a in state.legal_actions())
    with pytest.raises(ParseActionError):
        state.apply_text("pass")


def test_an_out_player_stays_out_even_if_a_slot_opens_later(tmp_path: Path) -> None:
    pyramid = full_base("red red red red red red red blue blue")
    state = position(tmp_path, [{"red": 2, "blue": 1}, {"yellow": 1, "green": 2}, {"red": 2}], pyramid)
    state.apply_text("play red at row 1 slot 1")
    assert state.out[1]
    # a later placement opens nothing for player 2: they stay out
    state.apply_text("play red at row 1 slot 2")
    state.apply_text("play red at row 2 slot 1")
    assert state.out[1] and state.current_player() != 1


def test_an_out_player_stays_out_when_a_slot_opens_for_them(tmp_path: Path) -> None:
    """ "Play continues without that player": a slot they could use, opened later, does not bring them back."""
    state = position(
        tmp_path, [{"red": 2, "wildcard": 1}, {"yellow": 1}, {"red": 2}], full_base("red " * 9),
        options={"wildcards": True}, removed=["blue", "blue"],
    )  # fmt: skip
    state.apply_text("red r1s1")
    assert state.out == [False, True, False]
    state.apply_text("red r1s2")
    state.apply_text("wildcard r1s3")  # a yellow now fits at row 2 slot 2, over the red and the Wildcard
    assert any(a % NUM_SLOTS == parse_slot("row 2 slot 2") for a in state._plays(1))
    assert state.out[1] and state.current_player() == 2
    while not state.is_terminal():
        assert state.current_player() != 1
        state.apply_action(state.legal_actions()[0])


def test_players_with_empty_hands_are_skipped(tmp_path: Path) -> None:
    state = position(tmp_path, [{"red": 2}, {"blue": 1}, {"green": 2}], {"base 5": "red"})
    state.apply_text("play red at base 4")
    state.apply_text("play blue at base 6")  # player 2 plays their last card
    state.apply_text("play green at base 7")
    assert state.current_player() == 0
    state.apply_text("play red at base 3")
    assert state.current_player() == 2  # player 2 has no cards: skipped, not out
    assert state.out == [False, False, False]
    state.apply_text("play green at base 8")
    assert state.current_player() == TERMINAL
    assert state.last_placer == 2
    assert state.view(None)["hand_sizes"] == [0, 0, 0]


def test_when_everyone_else_is_out_the_last_player_keeps_placing(tmp_path: Path) -> None:
    state = position(tmp_path, [{"red": 3}, {"blue": 2}], full_base("red " * 9))
    state.apply_text("red r1s1")
    assert state.out == [False, True] and state.current_player() == 0
    state.apply_text("red r1s2")
    state.apply_text("red r2s1")
    assert state.is_terminal() and state.scores() == (1.0, 0.0)


# -------------------------------------------------------------- points
def test_points_last_placer_and_emptied_hands(tmp_path: Path) -> None:
    state = position(tmp_path, [{"red": 1}, {"blue": 1}, {"yellow": 2}], {"base 5": "red"},
                     options={"points": True})  # fmt: skip
    state.apply_text("red b4")
    state.apply_text("blue b6")
    state.apply_text("yellow b7")
    state.apply_text("yellow b8")
    assert state.is_terminal()
    # players 1 and 2 played every card (1 each); player 3 placed last and also emptied their hand
    assert state.scores() == (1.0, 1.0, 2.0)


def test_without_points_only_the_last_placer_scores(tmp_path: Path) -> None:
    state = position(tmp_path, [{"red": 1}, {"blue": 1}, {"yellow": 2}], {"base 5": "red"})
    for text in ("red b4", "blue b6", "yellow b7", "yellow b8"):
        state.apply_text(text)
    assert state.scores() == (0.0, 0.0, 1.0)


def test_points_geomancer_as_last_card_earns_a_point(tmp_path: Path) -> None:
    state = position(tmp_path, [{"geomancer": 1, "red": 1}, {"geomancer": 1, "blue": 2}], {"base 5": "red"},
                     options={"points": True, "geomancers": True})  # fmt: skip
    state.apply_text("red b4")
    state.apply_text("blue b6")
    state.apply_text("geomancer b3")  # player 1's last card is their Geomancer
    state.apply_text("blue b7")
    state.apply_text("geomancer b8")
    assert state.is_terminal()
    # P1: emptied hand + Geomancer last = 2; P2: last placer + emptied + Geomancer last = 3
    assert state.scores() == (2.0, 3.0)
    assert state.view(0)["last_played"] == ["geomancer", "geomancer"]


def test_geomancer_point_needs_the_geomancer_to_be_the_last_card_played(tmp_path: Path) -> None:
    state = position(tmp_path, [{"geomancer": 1, "red": 1}, {"geomancer": 1, "blue": 1}], {"base 5": "red"},
                     options={"points": True, "geomancers": True})  # fmt: skip
    state.apply_text("geomancer b4")
    state.apply_text("geomancer b6")
    state.apply_text("red b3")
    state.apply_text("blue b7")
    assert state.scores() == (1.0, 2.0)


def test_geomancer_point_counts_for_a_player_out_with_cards_left(tmp_path: Path) -> None:
    """The point is for the Geomancer as the last card the player played, whether or not the hand is empty."""
    state = position(
        tmp_path, [{"geomancer": 1, "blue": 1}, {"geomancer": 1, "red": 2}], full_base("red " * 9),
        options={"points": True, "geomancers": True},
    )  # fmt: skip
    state.apply_text("geomancer r1s1")
    state.apply_text("red r1s5")
    assert state.out[0] and state.sizes[0] == 1, "player 1 is out, still holding the blue"
    state.apply_text("red r1s7")
    state.apply_text("geomancer r1s8")
    assert state.is_terminal()
    # player 1: the Geomancer point only; player 2: last to place, every card played, the Geomancer
    assert state.scores() == (1.0, 3.0)


def test_geomancer_point_without_points_variant_is_not_scored(tmp_path: Path) -> None:
    state = position(tmp_path, [{"geomancer": 1}, {"geomancer": 1}], {"base 5": "red"}, options={"geomancers": True})
    state.apply_text("geomancer b4")
    state.apply_text("geomancer b6")
    assert state.scores() == (0.0, 1.0)


# ------------------------------------------------------------ action texts
def test_action_texts_parse_back(tmp_path: Path) -> None:
    state = position(tmp_path, [{"red": 2}, {"blue": 2}], full_base("red " * 9))
    a = act(RED, "row 1 slot 5")
    assert state.action_to_text(a) == "play red at row 1 slot 5"
    for text in ("play red at row 1 slot 5", "red r1s5", "RED  at Row 1 Slot 5", "red on r1s5"):
        assert state.action_from_text(text) == a
    assert state._parse("red r0s9", 0) == act(RED, "base 9")  # well formed, though base 9 is taken
    assert state._parse("play red at focus", 0) == act(RED, "base 5")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("play", "which card"),
        ("play orange at base 3", "not a card"),
        ("red", "say where"),
        ("red at base 10", "nine wide"),
        ("red at row 9 slot 1", "no row 9"),
        ("red at row 3 slot 7", "row 3 has slots 1 to 6"),
        ("red at the top", "say where"),
    ],
)
def test_bad_action_texts_say_what_is_wrong(tmp_path: Path, text: str, message: str) -> None:
    state = position(tmp_path, [{"red": 2}, {"blue": 2}], {"base 5": "red"})
    with pytest.raises(ParseActionError, match=message):
        state.action_from_text(text)


def test_action_ids_are_kind_times_slots_plus_slot() -> None:
    game = lucent(3)
    assert game.num_actions == 7 * 45
    assert game.max_chance_outcomes == 52


# --------------------------------------------------------- hidden information
def test_views_show_only_your_own_hand(tmp_path: Path) -> None:
    a = position(tmp_path, [{"red": 2}, {"blue": 1, "green": 1}], {"base 5": "yellow"})
    b = position(tmp_path, [{"red": 2}, {"purple": 2}], {"base 5": "yellow"})
    assert a.view(0) == b.view(0)
    assert a.view(None) == b.view(None)
    assert a.view(1) != b.view(1)
    assert a.view(0)["hand"] == {"red": 2} and a.view(None)["hand"] is None
    assert a.view(0)["hand_sizes"] == [2, 2]


def test_resample_keeps_everything_public(tmp_path: Path) -> None:
    game = lucent(4, wildcards=True, geomancers=True)
    rng = random.Random(4)
    state = deal(game, rng)
    seen_other = set()
    for _ in range(20):
        if state.is_terminal():
            break
        p = state.current_player()
        for q in range(4):
            other = state.resample(q, rng)
            assert other.view(q) == state.view(q)
            assert [h[GEO] for h in other.hands] == [h[GEO] for h in state.hands]
            assert all(game.card_kind[c] < WILD for c in other.removed)
            seen_other.add(json.dumps(other.hands))
        state.apply_action(rng.choice(state.legal_actions()))
        assert p >= 0
    assert len(seen_other) > 10  # the hidden hands really are redealt


def test_resample_respects_what_going_out_reveals(tmp_path: Path) -> None:
    state = position(tmp_path, [{"red": 1, "blue": 2}, {"blue": 3}, {"yellow": 2, "red": 2}], full_base("red " * 9))
    state.apply_text("play red at row 1 slot 1")
    assert state.out[1]
    rng = random.Random(0)
    for _ in range(30):
        other = state.resample(0, rng)
        # player 2 went out with red playable everywhere: their hand holds no red card
        assert other.hands[1][RED] == 0 and other.sizes[1] == 3
        assert other.view(0) == state.view(0)


# ------------------------------------------------------------- records
def test_state_json_round_trip_and_corrupt_states(tmp_path: Path) -> None:
    state = deal(lucent(3, wildcards=True), random.Random(2))
    state.apply_action(state.legal_actions()[0])
    again = state.game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert again == state and again.legal_actions() == state.legal_actions()
    data = state.to_json()
    data["state"]["hands"][0][0] += 1
    with pytest.raises(RecordError, match="do not add up"):
        state.game.state_from_json(data)
    data = state.to_json()
    data["state"]["pyramid"][20] = RED
    with pytest.raises(RecordError):
        state.game.state_from_json(data)


def test_clone_is_independent() -> None:
    state = deal(lucent(2), random.Random(9))
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert copy != state and state.sizes == [22, 22]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_all_variant_combinations_play_to_the_end(players: int) -> None:
    rng = random.Random(players)
    for wildcards, geomancers, points in itertools.product([False, True], repeat=3):
        game = lucent(players, wildcards=wildcards, geomancers=geomancers, points=points)
        for _ in range(5):
            state = game.new_initial_state()
            while not state.is_terminal():
                legal = state.legal_actions()
                assert legal == sorted(set(legal))
                state.apply_action(state.sample_chance(rng) if state.is_chance_node() else rng.choice(legal))
            assert len(state.history) <= game.max_game_length
            scores = state.scores()
            assert scores[state.last_placer] >= 1
            assert isinstance(state, LucentState)
            if not points:
                assert sorted(scores) == [0.0] * (players - 1) + [1.0]
