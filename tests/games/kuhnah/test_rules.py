"""K'uh Nah: one test per rule of the rulebook and docs/rulings.md, and the rulebook's examples."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.kuhnah.helpers import deck_file, game_with, position, taking
from tests.helpers import refusal
from ziggurat.core import (
    CHANCE,
    ConfigError,
    IllegalActionError,
    Match,
    ParseActionError,
    RecordError,
    random_playout,
)
from ziggurat.games.kuhnah.rules import (
    BASE_LEFT,
    BASE_RIGHT,
    NO_DRAW,
    OVER,
    REFILL,
    REMOVE,
    ROW,
    TAKE,
    TURN,
    KuhNahState,
    _key,
)

# ------------------------------------------------------------------- setup


@pytest.mark.parametrize(("players", "removed"), [(2, 29), (3, 19), (4, 9), (5, 19), (6, 1)])
def test_setup_removes_cards_unseen_by_player_count(players: int, removed: int) -> None:
    match = Match(game_with(players), seed=1)
    match.resolve_chance()
    state = match.state
    assert isinstance(state, KuhNahState)
    assert REMOVE[players] == removed
    assert len(state.removed) == removed
    assert len(state.deck) == 50 - removed - 2, "two cards are flipped into the Quarry"
    assert all(c >= 0 for c in state.quarry) and state.quarry_jade == [0, 0]
    assert state.jade == [8] * players
    view = state.view(0)
    assert view["removed"] == removed and view["deck"] == 50 - removed - 2
    assert "removed_cards" not in view and all(isinstance(v, int) for v in (view["deck"], view["removed"]))


def test_removal_and_reveal_are_chance_events_over_unseen_cards() -> None:
    state = game_with(3).new_initial_state()
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 50 and all(abs(p - 1 / 50) < 1e-12 for _, p in outcomes)
    assert state.action_to_text(outcomes[0][0], CHANCE) == "remove 6a"
    for _ in range(19):
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.action_to_text(state.chance_outcomes()[0][0], CHANCE).startswith("reveal ")


@pytest.mark.parametrize("players", [2, 6])
def test_a_drawn_card_need_not_be_the_one_applied(players: int) -> None:
    """sample_chance leaves a hint of where it drew; any other card of the deck still applies, and no other."""
    rng = random.Random(players)
    state = game_with(players).new_initial_state()
    twin = state.clone()
    while not state.is_terminal():
        if not state.is_chance_node():
            action = state.legal_actions()[0]
            state.apply_action(action)
            twin.apply_action(action)
            continue
        drawn = state.sample_chance(rng)
        outcomes = [a for a, _ in state.chance_outcomes()]
        other = outcomes[(outcomes.index(drawn) + 1) % len(outcomes)]
        gone = state.removed + [c for c in state.quarry if c >= 0]
        for impossible in gone[:1]:
            before = state.to_json()
            with pytest.raises(IllegalActionError):
                state.apply_action(impossible)
            assert state.to_json() == before, "a refused card changes nothing"
        state.apply_action(other)  # not the card just drawn
        twin.apply_action(other)  # never sampled: no hint at all
        assert state == twin and other not in state.deck
    assert state.outcome() == twin.outcome()


def test_a_copy_or_determinisation_keeps_no_trace_of_where_a_card_was_drawn() -> None:
    """The hint is the drawn card's place in the true sorted deck, which tells how the unseen cards split."""
    rng = random.Random(3)
    state = game_with(2).new_initial_state()
    while state.phase != REFILL:
        state.apply_action(state.sample_chance(rng) if state.is_chance_node() else state.legal_actions()[-1])
    state.sample_chance(rng)
    assert state.drawn != NO_DRAW
    assert state.clone().drawn == NO_DRAW
    assert all(state.resample(p, rng).drawn == NO_DRAW for p in range(2))


@pytest.mark.parametrize(
    ("phase", "full"),
    [("refill", (0, 0)), ("refill", (1, 1)), ("reveal", (0, 1)), ("turn", (1, 0)), ("remove", (1, 0))],
)
def test_a_saved_quarry_must_fit_its_phase(phase: str, full: tuple[int, int]) -> None:
    rng = random.Random(1)
    state = game_with(2).new_initial_state()
    while state.phase != TURN:
        state.apply_action(state.sample_chance(rng))
    data = state.to_json()
    data["history"] = []
    saved = data["state"]
    deck = sorted(saved["deck"] + [c for c in saved["quarry"] if c >= 0])  # the Quarry's cards back in the deck
    saved["quarry"] = [deck.pop() if f else -1 for f in full]
    saved["deck"] = deck
    saved["phase"] = phase
    with pytest.raises(RecordError, match="Quarry"):
        state.game.state_from_json(data)


def _saved_with(tmp_path: Path, change, **options: object) -> dict:
    """A saved 2-player turn (player 1's base 22a 11a, a 15a over them), changed by ``change(game, state data)``.

    The 30a matches neither support, both lighter than it.
    """
    symbols = {
        "15a": ("bat", "monkey"),
        "22a": ("quetzal", "serpent"),
        "11a": ("monkey", "bat"),
        "30a": ("bat", "quetzal"),
    }
    deck = deck_file(tmp_path, symbols)
    game = game_with(2, deck=str(deck), **options)
    state = position(game, quarry=["20a", "25b"], pyramids={0: {(1, 1): "22a", (1, 2): "11a", (2, 1): "15a"}})
    data = state.to_json()
    data["history"] = []
    game.state_from_json(data)  # as built, it loads
    change(game, data["state"])
    return data


def _move_card(game, saved: dict, name: str, row: int, col: int) -> None:
    """Put card ``name`` at (row, col) of player 1's pyramid (1-based, the rulebook's way), off the deck or removed.

    A card that lay there goes to the deck.
    """
    card, key = game.cards.index(name), _key(row - 1, col - 1)
    saved["deck" if card in saved["deck"] else "removed"].remove(card)
    saved["deck"] += [c for k, c in saved["pyramids"][0] if k == key]
    saved["pyramids"][0] = [[k, c] for k, c in saved["pyramids"][0] if k != key] + [[key, card]]


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda g, s: _move_card(g, s, "6a", 3, 1), "row 3, column 1 does not lie on two cards"),
        (lambda g, s: _move_card(g, s, "6a", 2, 2), "row 2, column 2 does not lie on two cards"),
        (lambda g, s: _move_card(g, s, "6a", 0, 1), "row 0, column 1 does not lie on two cards"),  # below the base
        (lambda g, s: s["base_right"].__setitem__(0, 3), "base row is not the unbroken row from column 0 to 3"),
        (lambda g, s: s["base_left"].__setitem__(1, -1), "player 2's base row is not the unbroken row"),
        (lambda g, s: _move_card(g, s, "6a", 1, 4), "base row is not the unbroken row from column 0 to 1"),
        (lambda g, s: _move_card(g, s, "30a", 2, 1), "30a lies on cards that cannot carry it"),
        (lambda g, s: s["wild_used"].__setitem__(0, True), "played without it"),
    ],
)
def test_a_saved_pyramid_must_be_one_play_can_build(tmp_path: Path, change, words: str) -> None:
    data = _saved_with(tmp_path, change)
    with pytest.raises(RecordError, match=words):
        game_with(2, deck=str(tmp_path / "deck.toml")).state_from_json(data)


def test_saved_wild_halves_must_come_from_used_jade_wilds(tmp_path: Path) -> None:
    card = game_with(2).cards.index("22a")

    def one_wild(g, s) -> None:
        s["wild_used"][0], s["wild_halves"] = True, [card * 2]

    loads = _saved_with(tmp_path, one_wild, **{"jade-wild": True})  # one used jade-wild, one half
    game = game_with(2, deck=str(tmp_path / "deck.toml"), **{"jade-wild": True})
    game.state_from_json(loads)
    for halves in ([], [card * 2, card * 2 + 1], [game.cards.index("30b") * 2]):

        def wrong(g, s, halves=halves) -> None:
            s["wild_used"][0], s["wild_halves"] = True, halves

        with pytest.raises(RecordError, match="wild halves that no used jade-wild made"):
            game.state_from_json(_saved_with(tmp_path, wrong, **{"jade-wild": True}))


def test_start_player_is_chosen_or_random() -> None:
    match = Match(game_with(3, **{"start-player": "2"}), seed=3)
    match.resolve_chance()
    assert match.state.current_player() == 1
    state = game_with(3, **{"start-player": "random"}).new_initial_state()
    rng = random.Random(0)
    while state.current_player() == CHANCE and not state.action_to_text(
        state.chance_outcomes()[0][0], CHANCE
    ).startswith("start"):
        state.apply_action(state.sample_chance(rng))
    assert [a for a, _ in state.chance_outcomes()] == [0, 1, 2]
    state.apply_action(2)
    assert state.current_player() == 2
    with pytest.raises(ConfigError, match="not a seat"):
        game_with(2, **{"start-player": "3"})


# -------------------------------------------------------------------- turns


def test_turns_go_clockwise_with_three_players() -> None:
    """Play continues clockwise: each player in turn, then the first again."""
    state = position(game_with(3), quarry=["20a", "25b"], to_move=1)
    movers = []
    for _ in range(4):
        movers.append(state.current_player())
        state.apply_text("jade 20a")
    assert movers == [1, 2, 0, 1]


def test_a_turn_is_jade_on_a_quarry_card_or_take() -> None:
    game = game_with(2)
    state = position(game, quarry=["20a", "25b"])
    assert [state.action_to_text(a) for a in state.legal_actions()] == [
        "jade 20a",
        "jade 25b",
        "take 20a",
        "take 25b",
    ]
    state.apply_text("jade 25b")
    assert state.jade == [7, 8] and state.quarry_jade == [0, 1]
    assert state.current_player() == 1, "play passes clockwise"


def test_no_limit_to_jade_on_one_card() -> None:
    state = position(game_with(2), quarry=["20a", "25b"])
    for _ in range(16):
        state.apply_text("jade 20a")
    assert state.quarry_jade == [16, 0] and state.jade == [0, 0]


def test_without_jade_you_must_take() -> None:
    state = position(game_with(2), quarry=["20a", "25b"], jade=[0, 3])
    assert state.legal_actions() == [TAKE, TAKE + 1]
    with pytest.raises(IllegalActionError, match="no jade"):
        state.apply_text("jade 20a")
    assert state.jade == [0, 3] and state.quarry_jade == [0, 0], "a refused action changes nothing"


def test_taking_gets_all_jade_on_the_card_and_refills_only_after_placing() -> None:
    state = position(game_with(2), quarry=["20a", "25b"], quarry_jade=(3, 1), jade=[2, 2])
    taking(state, 0)
    assert state.jade == [5, 2] and state.quarry_jade == [0, 1]
    assert state.current_player() == 0, "the taker places next"
    assert state.view(1)["quarry"][0] is None and state.view(1)["taken"]["id"] == "20a"
    deck_before = len(state.deck)
    state.apply_text("base")
    assert state.phase == REFILL and state.current_player() == CHANCE
    state.apply_action(state.chance_outcomes()[0][0])
    assert len(state.deck) == deck_before - 1 and state.quarry[0] >= 0 and state.quarry_jade == [0, 1]
    assert state.phase == TURN and state.current_player() == 1


# ---------------------------------------------------------------- placement


def test_first_card_goes_in_the_base() -> None:
    state = taking(position(game_with(2), quarry=["20a", "25b"]), 0)
    assert [state.action_to_text(a) for a in state.legal_actions()] == ["base"]


def test_base_row_has_no_gaps_new_cards_go_at_either_end() -> None:
    game = game_with(2)
    state = position(game, quarry=["20a", "25b"], pyramids={0: {(1, 1): "10a", (1, 2): "11a"}})
    taking(state, 0)
    texts = [state.action_to_text(a) for a in state.legal_actions()]
    assert texts[:2] == ["base left", "base right"]
    state.apply_text("base left")
    view = state.view(0)
    base = sorted((c["pos"], c["id"]) for c in view["pyramids"][0] if c["row"] == 1)
    assert base == [(1, "20a"), (2, "10a"), (3, "11a")], "placed cards never move; the new card is at the left end"


def test_base_placement_is_always_possible() -> None:
    rng = random.Random(4)
    for _ in range(20):
        state = game_with(3).new_initial_state()
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply_action(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            if state.phase != TURN:
                assert BASE_LEFT in legal
                if state.cells[state.current_player()]:
                    assert BASE_RIGHT in legal
            state.apply_action(rng.choice(legal))


def test_upper_slot_needs_both_supports() -> None:
    state = position(game_with(2), quarry=["6a", "25b"], pyramids={0: {(1, 1): "30a"}})
    taking(state, 0)
    assert [state.action_to_text(a) for a in state.legal_actions()] == ["base left", "base right"]
    with pytest.raises(ParseActionError, match="row 1 is the base"):
        state.apply_text("row 1 pos 2")
    why = refusal(state, "row 2 pos 1")
    assert why.id == "kuhnah.slot_unsupported"
    assert [m.params for m in why.params["missing"]] == [{"row": 1, "pos": 2}]
    assert why.text == "row 2 pos 1 needs two cards side by side under it: row 1 pos 2 is empty"


def test_higher_rows_may_have_gaps() -> None:
    pyr = {(1, 1): "30a", (1, 2): "30b", (1, 3): "29a", (1, 4): "29b"}
    state = position(game_with(2), quarry=["6a", "25b"], pyramids={0: pyr})
    taking(state, 0)
    state.apply_text("row 2 pos 3")  # over the 3rd and 4th base cards, row 2 pos 1 empty
    view = state.view(0)
    assert {(c["row"], c["pos"]) for c in view["pyramids"][0]} >= {(2, 3)}


def _support_case(
    tmp_path: Path, new: tuple[str, str], left: tuple[str, str], right: tuple[str, str], **options: object
):
    """A 2-player position: player 1 takes the 15a to put over the 22a (left) and 11a (right)."""
    deck = deck_file(tmp_path, {"15a": new, "22a": left, "11a": right})
    game = game_with(2, deck=str(deck), **options)
    state = position(game, quarry=["15a", "25b"], pyramids={0: {(1, 1): "22a", (1, 2): "11a"}})
    return taking(state, 0)


def test_rulebook_15_over_22_and_11_legal_when_the_right_half_matches(tmp_path: Path) -> None:
    # The 15's right half matches the 11's left half; the 22 is heavier so its side needs no match.
    state = _support_case(tmp_path, new=("bat", "monkey"), left=("quetzal", "serpent"), right=("monkey", "bat"))
    assert "row 2 pos 1" in [t for _, t in state.legal_action_texts()]
    state.apply_text("row 2 pos 1")


def test_rulebook_15_over_22_and_11_illegal_without_the_match(tmp_path: Path) -> None:
    state = _support_case(tmp_path, new=("bat", "monkey"), left=("quetzal", "serpent"), right=("serpent", "bat"))
    assert "row 2 pos 1" not in [t for _, t in state.legal_action_texts()]
    why = refusal(state, "row 2 pos 1")
    # the 22 on the left is heavier: only the 11 on the right is named, and the halves that differ
    assert why.id == "kuhnah.support"
    reason = why.params["reason"]
    assert reason.id == "kuhnah.heavier_right"
    assert reason.params["support"].params["id"] == "11a"
    assert (reason.params["mine"], reason.params["theirs"]) == ("monkey", "serpent")
    assert why.text == (
        "the 15 (bat|monkey) can't go at row 2 pos 1: it is heavier than the 11 (serpent|bat) under its right half, "
        "and their halves don't match: monkey against serpent"
    )


def test_support_rule_checks_each_support_separately(tmp_path: Path) -> None:
    # Matching the left support does not help the right one (the 22 is heavy, the 11 is not).
    state = _support_case(tmp_path, new=("serpent", "monkey"), left=("quetzal", "serpent"), right=("quetzal", "bat"))
    assert "row 2 pos 1" not in [t for _, t in state.legal_action_texts()]


def test_heavier_support_needs_no_match_lighter_left_support_does(tmp_path: Path) -> None:
    deck = deck_file(tmp_path, {"15a": ("bat", "monkey"), "11a": ("quetzal", "serpent"), "22a": ("monkey", "bat")})
    game = game_with(2, deck=str(deck))
    # 11 on the left, 22 on the right: the 11's right half (serpent) must match the 15's left (bat): it doesn't.
    state = taking(position(game, quarry=["15a", "25b"], pyramids={0: {(1, 1): "11a", (1, 2): "22a"}}), 0)
    assert "row 2 pos 1" not in [t for _, t in state.legal_action_texts()]
    deck = deck_file(tmp_path, {"15a": ("serpent", "monkey"), "11a": ("quetzal", "serpent")}, "d2.toml")
    game = game_with(2, deck=str(deck))
    state = taking(position(game, quarry=["15a", "25b"], pyramids={0: {(1, 1): "11a", (1, 2): "22a"}}), 0)
    assert "row 2 pos 1" in [t for _, t in state.legal_action_texts()]


def test_rulebook_16_over_7_and_12_with_both_symbols_matching(tmp_path: Path) -> None:
    deck = deck_file(tmp_path, {"16a": ("quetzal", "bat"), "7a": ("monkey", "quetzal"), "12a": ("bat", "serpent")})
    game = game_with(2, deck=str(deck))
    state = taking(position(game, quarry=["16a", "25b"], pyramids={0: {(1, 1): "7a", (1, 2): "12a"}}), 0)
    state.apply_text("row 2 pos 1")


def test_rulebook_heavier_card_on_top_without_matching_both_symbols_is_illegal(tmp_path: Path) -> None:
    # "The 15 is heavier than both cards underneath it and doesn't match both symbols."
    deck = deck_file(tmp_path, {"15a": ("quetzal", "bat"), "7a": ("monkey", "quetzal"), "9a": ("serpent", "monkey")})
    game = game_with(2, deck=str(deck))
    state = taking(position(game, quarry=["15a", "25b"], pyramids={0: {(1, 1): "7a", (1, 2): "9a"}}), 0)
    why = refusal(state, "row 2 pos 1")
    # the left halves match (quetzal against quetzal): only the right support is wrong
    assert why.id == "kuhnah.support"
    assert why.params["reason"].id == "kuhnah.heavier_right"
    assert why.params["reason"].params["support"].params["id"] == "9a"


def test_equal_values_need_a_match(tmp_path: Path) -> None:
    deck = deck_file(tmp_path, {"15a": ("bat", "monkey"), "15b": ("serpent", "quetzal"), "30a": ("bat", "bat")})
    game = game_with(2, deck=str(deck))
    state = taking(position(game, quarry=["15a", "25b"], pyramids={0: {(1, 1): "30a", (1, 2): "15b"}}), 0)
    why = refusal(state, "row 2 pos 1")
    assert why.params["reason"].id == "kuhnah.as_heavy_right"
    assert why.params["reason"].params["support"].params["id"] == "15b"
    deck = deck_file(tmp_path, {"15a": ("bat", "serpent"), "15b": ("serpent", "quetzal")}, "d2.toml")
    game = game_with(2, deck=str(deck))
    state = taking(position(game, quarry=["15a", "25b"], pyramids={0: {(1, 1): "30a", (1, 2): "15b"}}), 0)
    state.apply_text("row 2 pos 1")


def test_the_jaguar_matches_every_symbol(tmp_path: Path) -> None:
    # On the support...
    state = _support_case(tmp_path, new=("bat", "monkey"), left=("quetzal", "serpent"), right=("jaguar", "bat"))
    state.apply_text("row 2 pos 1")
    # ...and on the new card.
    state = _support_case(tmp_path, new=("bat", "jaguar"), left=("quetzal", "serpent"), right=("serpent", "bat"))
    state.apply_text("row 2 pos 1")


def test_placed_cards_never_move_and_slots_fill_once() -> None:
    pyr = {(1, 1): "30a", (1, 2): "30b", (2, 1): "20a"}
    state = position(game_with(2), quarry=["6a", "25b"], pyramids={0: pyr})
    taking(state, 0)
    why = refusal(state, "row 2 pos 1")
    assert why.id == "kuhnah.slot_taken" and why.params["card"].params["id"] == "20a"


@pytest.mark.parametrize("players", [2, 3, 6])
def test_what_play_keeps_in_step_is_what_the_position_says(players: int) -> None:
    """Who decides and the open pairs are kept move by move: they must be what the phase and a full search say."""
    game = game_with(players, **{"jade-wild": True})
    rng = random.Random(players)

    def fits(card: int, left: int, right: int) -> bool:  # by weight and symbols, jade-wild halves aside
        return bool(game.left_ok[card] >> left & 1 and game.right_ok[card] >> right & 1)

    for _ in range(30):
        state = game.new_initial_state()
        while True:
            assert state.current_player() == state._who()
            if state.is_terminal():
                break
            for p, cells in enumerate(state.cells):
                found = {
                    k: sum(1 << c for c in range(game.num_cards) if fits(c, cells[k], cells[k + 1]))
                    for k in cells
                    if k + 1 in cells and k + ROW not in cells
                }
                assert state.open_pairs[p] == found
            legal = state.chance_outcomes() if state.is_chance_node() else state.legal_actions()
            pick = legal[rng.randrange(len(legal))]
            state.apply_action(pick[0] if isinstance(pick, tuple) else pick)
        assert state.clone().open_pairs == state.open_pairs


# ---------------------------------------------------------------------- end


def test_game_ends_when_the_quarry_cannot_be_refilled_last_card_and_jade_stay() -> None:
    state = position(game_with(2), quarry=["20a", "25b"], quarry_jade=(0, 4), jade=[5, 7], deck=["13a"])
    state.apply_text("take 20a")
    state.apply_text("base")
    assert state.phase == REFILL
    state.apply_text("reveal 13a", None)
    assert state.phase == TURN and state.deck == []
    state.apply_text("take 13a")
    state.apply_text("base")
    assert state.phase == OVER and state.is_terminal()
    view = state.view(None)
    assert view["quarry"][1]["id"] == "25b" and view["quarry"][1]["jade"] == 4, "the last card keeps its jade"
    assert state.jade == [5, 7]


# ------------------------------------------------------------------ scoring


def test_rulebook_scoring_example_15_and_9_uncovered_with_7_jade_scores_17() -> None:
    # Player 1's 30 and 29 support the 15; the 15 and the 9 support nothing.
    pyr = {(1, 1): "30a", (1, 2): "29a", (1, 3): "9a", (2, 1): "15a"}
    state = position(game_with(2), quarry=["20a", "25b"], pyramids={0: pyr, 1: {}}, jade=[7, 0], to_move=1, deck=[])
    state.apply_text("take 20a")
    state.apply_text("base")
    assert state.is_terminal()
    assert state.scores() == (17.0, 20.0)
    assert state.outcome().ranks == (1, 2), "lowest score wins"


def test_equal_totals_share_the_win() -> None:
    state = position(
        game_with(3),
        quarry=["20a", "25b"],
        pyramids={0: {(1, 1): "12a"}, 1: {(1, 1): "10a"}, 2: {(1, 1): "30a"}},
        jade=[0, 0, 0],
        to_move=1,
        deck=[],
    )
    state.apply_text("take 20a")
    state.apply_text("base right")  # player 2: 10 + 20 = 30
    outcome = state.outcome()
    assert outcome.scores == (12.0, 30.0, 30.0)
    assert outcome.ranks == (1, 2, 2) and outcome.winners == (0,)
    state = position(
        game_with(2), quarry=["20a", "25b"], pyramids={0: {(1, 1): "20b"}, 1: {}}, jade=[0, 0], to_move=1, deck=[]
    )
    state.apply_text("take 20a")
    state.apply_text("base")
    assert state.outcome().winners == (0, 1) and state.outcome().returns == (0.0, 0.0)


# ----------------------------------------------------------- hidden information


def test_jade_is_private_unless_open_jade() -> None:
    state = position(game_with(3), quarry=["20a", "25b"], jade=[3, 5, 8])
    assert state.view(1)["jade"] == [None, 5, None]
    assert state.view(None)["jade"] == [None, None, None]
    state = position(game_with(3, **{"open-jade": True}), quarry=["20a", "25b"], jade=[3, 5, 8])
    assert state.view(None)["jade"] == [3, 5, 8]


def test_resampling_redeals_removed_and_deck_cards_but_keeps_the_view() -> None:
    match = Match(game_with(2), seed=9)
    match.resolve_chance()
    state = match.state
    rng = random.Random(1)
    samples = [state.resample(0, rng) for _ in range(5)]
    assert all(s.view(0) == state.view(0) for s in samples)
    assert len({tuple(s.removed) for s in samples}) > 1, "which cards were removed is unknown to players"
    assert all(sorted(s.deck + s.removed) == sorted(state.deck + state.removed) for s in samples)


# ---------------------------------------------------------------- jade-wild


def test_jade_wild_makes_the_jaguar_ordinary(tmp_path: Path) -> None:
    state = _support_case(
        tmp_path, new=("bat", "monkey"), left=("quetzal", "serpent"), right=("jaguar", "bat"), **{"jade-wild": True}
    )
    assert "row 2 pos 1" not in [t for _, t in state.legal_action_texts()]


def test_jade_wild_once_per_game_after_taking_costs_a_jade(tmp_path: Path) -> None:
    state = _support_case(
        tmp_path, new=("bat", "monkey"), left=("quetzal", "serpent"), right=("serpent", "bat"), **{"jade-wild": True}
    )
    texts = [t for _, t in state.legal_action_texts()]
    assert "wild 15a right" in texts and "wild 11a left" in texts and "wild 22a right" in texts
    state.apply_text("wild 11a left")
    assert state.jade[0] == 7 and state.wild_used[0]
    assert "row 2 pos 1" in [t for _, t in state.legal_action_texts()], "the wild half now matches"
    assert not [t for _, t in state.legal_action_texts() if t.startswith("wild")], "only once per game"
    state.apply_text("row 2 pos 1")
    view = state.view(1)
    assert any(c["id"] == "11a" and c["wild"] == [True, False] for c in view["pyramids"][0])


def test_jade_wild_on_the_taken_cards_own_half_makes_it_match(tmp_path: Path) -> None:
    """The jade may go on a half of the taken card itself: that half is wild."""
    state = _support_case(
        tmp_path, new=("bat", "monkey"), left=("quetzal", "serpent"), right=("serpent", "bat"), **{"jade-wild": True}
    )
    assert "row 2 pos 1" not in [t for _, t in state.legal_action_texts()]
    state.apply_text("wild 15a right")
    assert "row 2 pos 1" in [t for _, t in state.legal_action_texts()], "the 15a's wild right half matches the 11a"
    state.apply_text("row 2 pos 1")
    assert any(c["id"] == "15a" and c["wild"] == [False, True] for c in state.view(1)["pyramids"][0])


def test_jade_wild_needs_jade_and_the_variant(tmp_path: Path) -> None:
    state = _support_case(
        tmp_path, new=("bat", "monkey"), left=("quetzal", "serpent"), right=("serpent", "bat"), **{"jade-wild": True}
    )
    state.jade[0] = 0
    state._legal = None
    assert not [t for _, t in state.legal_action_texts() if t.startswith("wild")]
    plain = _support_case(tmp_path, new=("bat", "monkey"), left=("quetzal", "serpent"), right=("serpent", "bat"))
    with pytest.raises(ParseActionError, match="jade-wild variant only"):
        plain.apply_text("wild 11a left")


def test_wild_jade_no_longer_lowers_the_score(tmp_path: Path) -> None:
    game = game_with(2, **{"jade-wild": True})
    state = position(game, quarry=["20a", "25b"], pyramids={0: {(1, 1): "6a"}, 1: {}}, jade=[3, 0], deck=[])
    state.apply_text("take 20a")
    state.apply_text("wild 6a left")
    state.apply_text("base right")
    assert state.scores()[0] == 6 + 20 - 2


# ----------------------------------------------------------- texts & errors


def test_action_texts_and_their_errors() -> None:
    state = position(game_with(2), quarry=["20a", "25b"])
    assert state.action_from_text("TAKE 2") == TAKE + 1
    with pytest.raises(ParseActionError, match="no card 'zz'"):
        state.action_from_text("take zz")
    with pytest.raises(IllegalActionError, match="not in the Quarry"):
        state.action_from_text("take 6a")
    with pytest.raises(ParseActionError, match="not a K'uh Nah action"):
        state.action_from_text("build a temple")
    with pytest.raises(IllegalActionError, match="player 1's turn"):
        state.apply_action(0, player=1)


# --------------------------------------------------------------- properties


def _supported(state: KuhNahState, player: int) -> bool:
    cells = state.cells[player]
    return all(key - ROW in cells and key - ROW + 1 in cells for key in cells if key >= ROW)


@settings(max_examples=30, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 10**6), wild=st.booleans())
def test_every_game_keeps_jade_and_cards_and_support(players: int, seed: int, wild: bool) -> None:
    state = game_with(players, **{"jade-wild": wild}).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        random_playout_step(state, rng)
        jade_in_play = sum(state.jade) + sum(state.quarry_jade) + sum(state.wild_used)
        assert jade_in_play == 8 * players, "jade is neither created nor lost"
        assert all(_supported(state, p) for p in range(players)), "every upper card rests on two cards"
    placed = sum(len(c) for c in state.cells)
    assert placed == state.game.deck_size - 1, "every card but the last is taken"
    finished = random_playout(state.clone(), rng)
    assert finished.is_terminal()


def random_playout_step(state: KuhNahState, rng: random.Random) -> None:
    if state.current_player() == CHANCE:
        state.apply_action(state.sample_chance(rng))
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def test_placements_respect_the_support_rule_in_random_games() -> None:
    """Every placed upper card obeys the rule against both supports (checked against a plain reimplementation)."""
    rng = random.Random(7)
    for _ in range(30):
        state = game_with(rng.choice([2, 3, 4]), **{"jade-wild": rng.random() < 0.5}).new_initial_state()
        g = state.game
        while not state.is_terminal():
            if state.current_player() >= 0 and state.phase != TURN:
                card = state.quarry[state.taken]
                p = state.current_player()
                for a in state.legal_actions():
                    if BASE_RIGHT < a < g.wild_base:
                        row, col = state._slot(a)
                        key = (row * ROW) + col + state.base_left[p] + 64
                        left, right = state.cells[p][key - ROW], state.cells[p][key - ROW + 1]
                        ok_l = g.value[left] > g.value[card] or state._halves_match(card, 0, left, 1)
                        ok_r = g.value[right] > g.value[card] or state._halves_match(card, 1, right, 0)
                        assert ok_l and ok_r
            random_playout_step(state, rng)


@pytest.mark.parametrize(
    ("new", "light_left"),
    [
        (("bat", "monkey"), ("quetzal", "jaguar")),  # the lighter left support's right half is a jaguar
        (("jaguar", "monkey"), ("quetzal", "serpent")),  # the new card's left half is a jaguar
        (("bat", "monkey"), ("quetzal", "bat")),  # plain match
    ],
)
def test_lighter_left_support_matches_by_symbol_or_jaguar(
    tmp_path: Path, new: tuple[str, str], light_left: tuple[str, str]
) -> None:
    deck = deck_file(tmp_path, {"15a": new, "11a": light_left})
    game = game_with(2, deck=str(deck))
    state = taking(position(game, quarry=["15a", "25b"], pyramids={0: {(1, 1): "11a", (1, 2): "22a"}}), 0)
    state.apply_text("row 2 pos 1")
    # and with jade-wild the jaguar is ordinary again
    if "jaguar" in new + light_left:
        game = game_with(2, deck=str(deck), **{"jade-wild": True})
        state = taking(position(game, quarry=["15a", "25b"], pyramids={0: {(1, 1): "11a", (1, 2): "22a"}}), 0)
        why = refusal(state, "row 2 pos 1")
        assert why.params["reason"].id == "kuhnah.heavier_left"


def test_a_determinisation_does_not_carry_the_true_removed_cards() -> None:
    match = Match(game_with(2), seed=4)
    match.resolve_chance()
    det = match.determinisation(0)
    assert det.history == [], "the true history names the cards removed unseen"
    assert det.view(0) == match.state.view(0)
    mid = game_with(2).new_initial_state()
    for card in range(5):  # in the middle of the unseen removal
        mid.apply_action(card)
    rng = random.Random(3)
    assert {tuple(mid.resample(0, rng).removed) for _ in range(8)} != {(0, 1, 2, 3, 4)}


def test_resampling_splits_the_unseen_cards_uniformly() -> None:
    """Every unseen card is removed with the same chance, whichever pile is the smaller."""
    for players, takes in ((3, 0), (3, 25), (2, 0), (6, 10)):
        match = Match(game_with(players), seed=2)
        match.run_bots(["random"] * players, max_steps=takes)
        match.resolve_chance()
        state = match.state
        unseen = sorted(state.deck + state.removed)
        share = len(state.removed) / len(unseen)
        counts = dict.fromkeys(unseen, 0)
        rng = random.Random(5)
        n = 3000
        for _ in range(n):
            det = state.resample(0, rng)
            assert len(det.removed) == len(state.removed) and sorted(det.deck + det.removed) == unseen
            for c in det.removed:
                counts[c] += 1
        sd = (n * share * (1 - share)) ** 0.5
        assert all(abs(k - n * share) < 5 * sd + 1 for k in counts.values()), (players, takes)


def test_a_chance_text_of_another_kind_of_node_is_refused() -> None:
    """The start player's outcome ids are card ids too: "start player 1" is no card removed, nor a reveal a removal."""
    from ziggurat.core import CHANCE, IllegalActionError, make_game

    state = make_game("kuhnah", 2).new_initial_state()
    first = state.action_to_text(state.chance_outcomes()[0][0], CHANCE)
    assert first.startswith("remove ")
    before = state.to_json()
    for text in ("start player 1", "reveal " + first.split()[1]):
        with pytest.raises(IllegalActionError, match="chance removes a card now"):
            state.action_from_text(text, CHANCE)
    assert state.to_json() == before
    assert state.action_from_text(first, CHANCE) == state.chance_outcomes()[0][0]


# ------------------------------------------------------------- views made once


def test_the_pyramids_a_view_shows_are_made_again_after_every_move() -> None:
    """Every view of a position shares its pyramids, made once: a move (or a take-back by replay, a clone that
    moves on, fields set by hand) must never show the pyramids of another position."""
    game = game_with(3)
    rng = random.Random(5)
    for seed in range(3):
        match = Match(game, seed=seed)
        state = match.state
        while not state.is_terminal():
            before = {a: state.view(a) for a in (None, 0, 1, 2)}  # made (and kept) before the move
            twin = state.clone()
            if state.current_player() == CHANCE:
                match.resolve_chance()
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            fresh = game.state_from_json(state.to_json())  # the same position, nothing kept from before
            for a in (None, 0, 1, 2):
                assert state.view(a) == fresh.view(a)
                assert twin.view(a) == before[a]  # the copy still shows the position it was made from
    # fields set by hand, then recount (as the tests' positions are made): the view follows
    state = position(game, quarry=["20a", "25b"], pyramids={0: {(1, 1): "22a", (1, 2): "11a"}})
    assert [c["id"] for c in state.view(None)["pyramids"][0]] == ["22a", "11a"]
    key = min(state.cells[0])
    state.cells[0][key] = game.cards.index("15a")
    state.recount()
    assert [c["id"] for c in state.view(None)["pyramids"][0]] == ["15a", "11a"]
