"""Nakum: a test per rule of the rulebook and docs/rulings.md, on hand-built positions."""

from __future__ import annotations

import random

import pytest

from tests.games.nakum.helpers import all_revealed, chance, dealt, game_with, give, lay, started, texts
from tests.helpers import refusal
from ziggurat.core import CHANCE, SIMULTANEOUS, TERMINAL, IllegalActionError, ParseActionError, random_playout
from ziggurat.games.nakum.rules import BUY, CAMP, DAY, FREE, OFFER, OVER, PLAY, REVEAL, NakumState

# ------------------------------------------------------------------- setup


def test_setup_draws_offerings_market_and_heritage_one_card_at_a_time() -> None:
    state = game_with(3).new_initial_state()
    assert isinstance(state, NakumState)
    seen = []
    while state.current_player() == CHANCE:
        outcomes = state.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        seen.append(state.action_to_text(outcomes[0][0], CHANCE).split()[0])
        state.apply_action(outcomes[0][0])
    assert seen == ["offering"] * 2 + ["market"] * 5 + ["deal"] * 9
    assert len(state.offers) == 2 and len(state.market) == 5
    assert [len(h) for h in state.hands] == [3, 3, 3]
    assert len(state.box) == 16 - 9, "the other heritage cards go back to the box"
    assert state.workers == [2, 2, 2] and state.reserve == [2, 2, 2]


def test_heritage_at_setup_is_simultaneous_and_hidden_until_all_choose() -> None:
    state = dealt(3)
    assert state.current_player() == SIMULTANEOUS
    assert state.players_to_move() == (0, 1, 2)
    assert texts(state, 0) == ["heritage h1", "heritage h2", "heritage h3"]
    state.apply_text("heritage h1", 0)
    assert state.players_to_move() == (1, 2)
    assert state.legal_actions(0) == []
    with pytest.raises(IllegalActionError):
        state.apply_text("heritage h2", 0)
    other = state.view(1)["players_info"][0]
    assert other["has_chosen"] and "heritage_choice" not in other and "heritage_hand" not in other
    assert state.view(0)["players_info"][0]["heritage_choice"] == "h1"
    assert state.res[0] == 0, "nothing is taken before everyone has chosen"
    # the view of player 1 is the same whatever player 0 chose
    for seed in range(5):
        assert state.resample(1, random.Random(seed)).view(1) == state.view(1)
    state.apply_text("heritage h4", 1)
    state.apply_text("heritage h8", 2)
    assert state.res[0:3] == [4, 0, 0], "h1: 4 maize"
    assert state.tokens == [0, 2, 0], "h4: 2 points"
    assert state.res[6:9] == [0, 0, 1] and state.played[2] == [7], "h8: a mask, and kept for its end point"
    assert state.phase == REVEAL and state.current_player() == 0


@pytest.mark.parametrize(("players", "reveals"), [(2, 1), (3, 2), (4, 2)])
def test_start_player_and_the_next_reveal_tiles_of_their_choice(players: int, reveals: int) -> None:
    state = dealt(players)
    for p in range(players):
        state.apply_action(state.legal_actions(p)[0], p)
    for i in range(reveals):
        assert state.phase == REVEAL and state.current_player() == i
        assert texts(state) == [f"reveal {pos}" for pos in range(1, 9) if state.layout[pos - 1] < 0]
        state.apply_text(f"reveal {i + 3}")
        assert state.current_player() == CHANCE, "which tile it is, is chance"
        assert len(state.chance_outcomes()) == 8 - i
        chance(state, f"tile {['cazador', 'templo'][i]}")
    assert state.phase == DAY and state.round == 1 and state.current_player() == 0
    assert state.revealed == reveals


def test_tiles_are_decided_only_when_revealed() -> None:
    state = started(2, tiles=((4, "cenote"),))
    assert state.layout == [-1, -1, -1, 2, -1, -1, -1, -1]
    view = state.view(None)
    assert [t["tile"] for t in view["tiles"]] == [None, None, None, "cenote", None, None, None, None]


# --------------------------------------------------------------------- day


def test_players_place_one_worker_at_a_time_clockwise_until_all_are_placed() -> None:
    state = started(3, tiles=((1, "maizal"), (2, "cazador")))
    order = []
    while state.phase == DAY and state.round == 1:
        p = state.current_player()
        order.append(p)
        legal = [a for a in state.legal_actions() if state.action_to_text(a).startswith("explore")]
        state.apply_action(legal[0])
        while state.current_player() == CHANCE:
            state.apply_action(state.chance_outcomes()[0][0])
    assert order == [0, 1, 2, 0, 1, 2]
    assert state.round == 2 and state.current_player() == 0
    assert state.tokens[0] == 2 and state.tokens[2] == 2, "each explore is a point"


def test_basic_space_gains_at_once_and_holds_one_worker_with_2_or_3_players() -> None:
    state = started(2)
    state.apply_text("place maizal basic 1")
    assert state.res[0:3] == [7, 0, 0]
    assert "place maizal basic 1" not in texts(state)
    why = refusal(state, "place maizal basic 1")
    assert why.id == "nakum.space_full_one" and why.text == "this space holds one worker and it is taken"


def test_with_4_players_marked_spaces_hold_two_workers_of_different_players() -> None:
    state = started(4, tiles=((1, "maizal"), (2, "cazador")))
    state.apply_text("place maizal basic 2")  # a market card: not marked
    state.apply_text("buy m2")
    assert "place maizal basic 2" not in texts(state)
    state.apply_text("place maizal basic 1")  # marked: player 2
    assert state.current_player() == 2
    state.apply_text("place maizal basic 1")  # player 3 too
    assert "place maizal basic 1" not in texts(state), "full with two"
    state.apply_text("place cazador basic 1")  # player 4
    assert state.current_player() == 0
    state.apply_text("place cazador basic 1")  # player 1 joins player 4 there
    assert state.current_player() == 1
    assert "place cazador basic 1" not in texts(state)
    state.apply_text("explore 3")
    assert state.current_player() == 2
    assert "place cazador basic 2" in texts(state)


def test_same_player_cannot_take_both_places_of_a_double_space() -> None:
    state = started(4, tiles=((1, "maizal"), (2, "cazador")))
    state.apply_text("place maizal basic 1")
    for _ in range(3):
        state.apply_text("explore " + str(3 + state.current_player()))
    assert state.current_player() == 0
    assert "place maizal basic 1" not in texts(state)
    assert refusal(state, "place maizal basic 1").id == "nakum.space_yours"


def test_camp_needs_a_worker_on_a_basic_space_of_its_tile() -> None:
    state = started(2)
    assert "place maizal camp" not in texts(state)
    why = refusal(state, "place maizal camp")
    assert why.id == "nakum.camp_inactive" and why.params["tile"] == "El Maizal"
    state.apply_text("place maizal basic 1")  # player 1
    assert "place maizal camp" in texts(state), "anyone's worker opens the camp"
    state.apply_text("place maizal camp")
    assert state.phase == CAMP and state.current_player() == 1
    assert texts(state) == ["camp maizal 1", "camp maizal 2", "camp maizal 3"]
    state.apply_text("camp maizal 2")
    assert state.res[3:6] == [0, 0, 1] and state.tokens[1] == 2 + 1
    assert state.cubes[0] == 0b010, "a black cube covers the option used"


def test_covered_options_stay_covered_and_an_exhausted_camp_is_closed() -> None:
    state = started(2)
    state.cubes[0] = 0b011
    state.apply_text("place maizal basic 1")
    state.apply_text("place maizal camp")
    assert texts(state) == ["camp maizal 3"]
    state.apply_text("camp maizal 3")
    assert state.phase == BUY
    state.apply_text("buy m2")
    assert state.cubes[0] == 0b111
    state.cubes[1] = 0
    assert "place maizal camp" not in texts(state)
    with pytest.raises(IllegalActionError, match="exhausted"):
        state.apply_text("place maizal camp")


def test_a_camp_market_card_option_needs_a_card_the_player_can_pay_for() -> None:
    """A camp's market card is bought "pagando sus posibles costes": no option for a card none can pay."""
    state = started(2, market=("m1", "m8", "m9", "m14", "m18"))  # every card costs something
    give(state, 0)
    give(state, 1)
    state.apply_text("place maizal basic 1")  # player 1: 3 maize, so player 2 could pay for none
    state.apply_text("place maizal camp")
    assert texts(state) == ["camp maizal 1", "camp maizal 2"]
    assert refusal(state, "camp maizal 3").id == "nakum.no_affordable_card"
    state = started(2, market=("m1", "m8", "m9", "m14", "m18"))
    give(state, 0)
    give(state, 1)
    state.cubes[0] = 0b011  # only the market card option is left
    state.apply_text("place maizal basic 1")
    assert "place maizal camp" not in texts(state)
    give(state, 1, maize=3)  # m8 costs 3 maize
    assert "place maizal camp" in texts(state)


def test_explore_scores_a_point_now_and_reveals_the_tile_at_night() -> None:
    state = started(2)
    state.apply_text("explore 5")
    assert state.tokens[0] == 1 and state.layout[4] == -1
    assert "explore 5" not in texts(state), "one explorer per tile"
    with pytest.raises(IllegalActionError, match="already has an explorer"):
        state.apply_text("explore 5")
    state.apply_text("explore 6")
    state.apply_text("place maizal basic 1")
    state.apply_text("place maizal basic 2")
    state.apply_text("buy m2")
    # night: the explored tiles are revealed, position by position, then the market refilled
    assert state.current_player() == CHANCE
    chance(state, "tile rio")
    chance(state, "tile selva")
    assert state.layout[4] == state.game.tile_index["rio"] and state.layout[5] == state.game.tile_index["selva"]
    assert state.action_to_text(state.chance_outcomes()[0][0], CHANCE).startswith("market ")
    chance(state, "market m20")
    assert state.phase == DAY and state.round == 2 and state.explorer == [-1] * 8


def test_a_heritage_space_plays_a_card_from_the_hand() -> None:
    state = started(2, tiles=((1, "cenote"),))
    state.apply_text("place cenote basic 2")
    assert state.phase == PLAY and texts(state) == ["heritage h2", "heritage h3"]
    state.apply_text("heritage h2")
    assert state.res[0:3] == [4, 3, 0] and state.played[0] == [0, 1]
    state.hands[1] = []
    assert "place cenote basic 2" not in texts(state), "nothing to play"


def test_market_card_cost_is_paid_once_and_the_card_kept_for_its_end_points() -> None:
    state = started(2)
    give(state, 0, maize=4, masks=1)
    state.apply_text("place maizal basic 2")
    assert state.phase == BUY
    assert texts(state) == ["buy m1", "buy m2", "buy m3", "buy m4", "buy m5"]
    state.apply_text("buy m1")  # pay 1 mask: gain 2 maize, 2 points at the end
    assert state.res[0:3] == [6, 0, 0]
    assert state.bought[0] == [0] and 0 not in state.market
    assert state.score_parts(0)["cards"] == 2 + 0, "m1's end points (h1 has none)"


def test_a_market_card_that_costs_too_much_cannot_be_bought() -> None:
    state = started(2, market=("m1", "m8", "m9", "m14", "m18"))
    give(state, 0)
    assert "place maizal basic 2" not in texts(state), "no card to pay for"
    give(state, 0, maize=3)
    state.apply_text("place maizal basic 2")
    assert texts(state) == ["buy m8"]
    why = refusal(state, "buy m1")
    assert why.id == "nakum.cannot_pay" and why.text == "you cannot pay 1 mask"


def test_a_free_a_camp_card_removes_a_black_cube_of_the_buyers_choice() -> None:
    state = started(2, tiles=((1, "maizal"), (2, "cazador")))
    state.cubes[0] = 0b001
    state.cubes[1] = 0b100
    state.apply_text("place maizal basic 2")
    state.apply_text("buy m3")
    assert state.phase == FREE
    assert texts(state) == ["free maizal 1", "free cazador 3"]
    state.apply_text("free cazador 3")
    assert state.cubes[:2] == [0b001, 0]


def test_a_free_a_camp_card_with_no_cube_on_the_board_ignores_the_icon() -> None:
    state = started(2)
    state.apply_text("place maizal basic 2")
    state.apply_text("buy m3")
    assert state.phase == DAY and state.current_player() == 1


def test_an_offering_takes_two_workers_pays_and_sacrifices_to_the_reserve() -> None:
    state = started(2, offers=("o1", "o7"))
    give(state, 0, maize=6, skins=2, masks=2)
    state.apply_text("place pyramid")
    assert state.phase == OFFER and texts(state) == ["offer o1", "offer o7"]
    state.apply_text("offer o7")  # 3 maize + 2 skins + 2 masks, sacrifice 1: 13 points
    assert state.res[0:3] == [3, 0, 0]
    assert state.hand[0] == 0 and state.workers[0] == 1 and state.sacrificed[0] == 1
    assert state.reserve[0] == 2, "the sacrificed worker lies on the pyramid until night"
    assert state.made[0] == [6] and state.offers == [0]
    assert state.score_parts(0)["offerings"] == 13
    state.apply_text("explore 2")
    state.apply_text("explore 3")
    while state.current_player() == CHANCE:
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.reserve[0] == 3 and state.hand[0] == 1, "sacrificed workers go to the reserve at night"


def test_the_pyramid_needs_two_workers_and_an_offering_you_can_pay() -> None:
    state = started(2)
    give(state, 0, maize=6, skins=1)
    assert "place pyramid" not in texts(state)
    assert refusal(state, "place pyramid").id == "nakum.pyramid_cannot_pay"
    give(state, 0, maize=6, skins=2)
    assert "place pyramid" in texts(state)
    state.hand[0] = 1
    state._legal = None
    why = refusal(state, "place pyramid")
    assert why.id == "nakum.pyramid_workers" and why.params["hand"] == 1


def test_the_pyramid_has_no_player_limit() -> None:
    state = started(2)
    give(state, 0, maize=6, skins=2)
    give(state, 1, skins=4, masks=1)
    state.apply_text("place pyramid")
    state.apply_text("offer o1")
    state.apply_text("place pyramid")
    assert state.pyramid == [2, 2]
    state.apply_text("offer o2")


def test_pituk_only_once_every_tile_is_revealed() -> None:
    state = started(2)
    assert "place pituk" not in texts(state)
    with pytest.raises(IllegalActionError, match="every jungle tile"):
        state.apply_text("place pituk")
    all_revealed(state)
    assert "place pituk" in texts(state)


def test_pituk_grants_each_favour_once_and_a_point() -> None:
    state = started(2)
    all_revealed(state)
    state.apply_text("place pituk")
    assert texts(state) == ["pituk market", "pituk offerings"]
    state.apply_text("pituk market")
    assert state.tokens[0] == 1
    assert state.market == [] and len(state.market_deck) == 20, "every market card shuffled together"
    for _ in range(5):
        assert state.current_player() == CHANCE
        assert len(state.chance_outcomes()) == len(state.market_deck)
        state.apply_action(state.chance_outcomes()[-1][0])
    assert len(state.market) == 5 and state.current_player() == 1
    assert "place pituk" not in texts(state), "one worker on Pituk"
    state.apply_text("explore 1") if "explore 1" in texts(state) else state.apply_text("place maizal basic 1")
    state.apply_text("place start") if "place start" in texts(state) else None
    # next round: only the other favour is left
    while state.phase != DAY or state.round < 2:
        if state.current_player() == CHANCE:
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[0])
    p = state.current_player()
    state.apply_text("place pituk")
    assert texts(state) == ["pituk offerings"]
    discarded = list(state.offers)
    state.apply_text("pituk offerings")
    assert state.offer_discard == discarded and state.tokens[p] >= 1
    chance(state, "offering o5")
    chance(state, "offering o6")
    assert "place pituk" not in texts(state), "both favours used"


def test_start_player_token_changes_who_starts_next_round() -> None:
    state = started(2)
    assert "place start" not in texts(state), "player 1 holds the token"
    with pytest.raises(IllegalActionError, match="hold the start player token"):
        state.apply_text("place start")
    state.apply_text("explore 2")
    state.apply_text("place start")
    assert state.start == 1
    state.apply_text("explore 3")
    state.apply_text("explore 4")
    while state.current_player() == CHANCE:
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.round == 2 and state.current_player() == 1


def test_grow_the_clan_not_in_round_one_and_only_with_a_reserve_worker() -> None:
    state = started(2)
    with pytest.raises(IllegalActionError, match="first round"):
        state.apply_text("place grow")
    state.round = 2
    state._legal = None
    state.apply_text("place grow")
    assert state.hand[0] == 0 and state.workers[0] == 3 and state.reserve[0] == 1
    assert "place grow" not in texts(state), "one clan space with 2 players"
    state.apply_text("explore 2")
    state.apply_text("explore 3")
    while state.current_player() == CHANCE:
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.round == 3 and state.hand[0] == 3, "one more worker from the next round on"
    state.reserve[0] = 0
    state._legal = None
    with pytest.raises(IllegalActionError, match="no worker left in the reserve"):
        state.apply_text("place grow")


def test_with_4_players_grow_the_clan_holds_two_workers_pituk_and_the_start_space_one() -> None:
    state = started(4, tiles=((1, "maizal"), (2, "cazador")))
    all_revealed(state)
    state.round = 2
    state._legal = None
    state.apply_text("place grow")  # player 1
    assert "place grow" in texts(state), "the clan space is marked for 4 players"
    state.apply_text("place grow")  # player 2 too
    assert state.workers[:2] == [3, 3]
    assert "place grow" not in texts(state), "full with two"
    state.apply_text("place start")  # player 3
    assert state.current_player() == 3
    assert "place start" not in texts(state), "the start player space holds one worker"
    why = refusal(state, "place start")
    assert why.id == "nakum.start_taken" and why.params["player"] == 3
    state.apply_text("place pituk")  # player 4
    state.apply_text("pituk offerings")
    chance(state, "offering o5")
    chance(state, "offering o6")
    assert state.current_player() == 2, "players 1 and 2 have no worker left"
    assert "place pituk" not in texts(state), "Pituk holds one worker"
    with pytest.raises(IllegalActionError, match="already has a worker"):
        state.apply_text("place pituk")


def test_a_player_with_no_legal_space_passes_and_the_day_ends_when_all_are_stuck() -> None:
    state = started(2)
    g = state.game
    for pos in range(8):
        if state.layout[pos] < 0:
            state.explorer[pos] = 1
    for s in g.tile_basics[0]:
        state.occ[s] = 0b10
    state.occ[g.camp_space[0]] = 0b10
    state.occ[g.start_space] = 0b10
    state._legal = None
    assert texts(state) == ["pass"]
    state.apply_text("pass")
    assert state.current_player() == 1 and texts(state) == ["pass"]
    state.apply_text("pass")
    assert state.round == 2 or state.current_player() == CHANCE


def test_pass_is_refused_when_a_space_is_open() -> None:
    state = started(2)
    with pytest.raises(IllegalActionError, match="pass only when"):
        state.apply_text("pass")


# ------------------------------------------------------------------ the end


def _one_offering_made() -> NakumState:
    """The first Day, o1 and o2 on the pyramid, and player 1 already holding one offering (o6)."""
    state = started(2, offers=("o1", "o2"))
    state.made[0] = [5]
    state.first_offer[0] = 0
    state.offer_count = 1
    state.offer_deck.remove(5)
    return state


def test_the_round_of_a_second_offering_is_played_out_then_scored_without_night() -> None:
    state = _one_offering_made()
    give(state, 0, maize=6, skins=2)
    state.apply_text("place pyramid")
    state.apply_text("offer o1")
    assert state.end_triggered and state.current_player() == 1, "the round goes on"
    state.apply_text("explore 2")
    state.apply_text("explore 3")
    assert state.current_player() == TERMINAL and state.phase == OVER
    assert state.layout[1] == -1, "no night: the explored tile is not revealed"
    end = state.end_reason()
    assert (end.code, end.printed) == ("second-offering", True) and state.view(0)["end"] == end.to_json()


def test_the_last_round_lets_a_player_make_a_third_offering_and_scores_it() -> None:
    # "Acaba la ronda actual y una vez que todos los jugadores hayan realizado sus acciones": every
    # action stays open in the round that ends the game, the pyramid included
    state = _one_offering_made()
    state.workers[0] = state.hand[0] = 4
    state.reserve[0] = 0
    give(state, 0, maize=6, skins=6, masks=1)  # o1: 6 maize + 2 skins; o2: 4 skins + 1 mask
    state.apply_text("place pyramid")
    state.apply_text("offer o1")
    assert state.end_triggered
    state.apply_text("explore 2")
    assert "place pyramid" in texts(state), "a second offering does not close the pyramid"
    state.apply_text("place pyramid")
    state.apply_text("offer o2")
    assert len(state.made[0]) == 3
    while state.current_player() != TERMINAL:
        state.apply_text("explore 3" if state.current_player() == 1 else texts(state)[0])
    assert state.round == 1
    points = sum(state.game.offer_points[c] for c in state.made[0])
    assert state.score_parts(0)["offerings"] == points


def test_max_rounds_safeguard_ends_the_game_as_its_own_end() -> None:
    game = game_with(2, **{"max-rounds": 1})
    state = random_playout(game.new_initial_state(), random.Random(3))
    assert state.round == 1 and state.is_terminal()
    end = state.end_reason()
    assert (end.code, end.printed) == ("round-limit", False) and "not a rule" in end.text
    assert state.view(None)["end"]["code"] == "round-limit"


def test_the_safeguard_is_fifty_rounds_by_default() -> None:
    """The rulebook sets no round limit; the safeguard is 50 rounds (docs/rulings.md), not the 15 it was."""
    opt = game_with(2).spec.option("max-rounds")
    assert opt.default == 50 and game_with(2).max_rounds == 50
    # the game: random bots, seed 1, used to stop at round 15 with offerings [0, 1]
    from ziggurat.core import Match

    m = Match(game_with(2), seed=1)
    m.run_bots(["random", "random"])
    assert m.state.is_terminal() and m.state.round > 15  # type: ignore[attr-defined]


def test_a_second_offering_in_the_last_round_is_still_the_rulebooks_end() -> None:
    state = _one_offering_made()
    state.game.max_rounds = state.round  # this is the last round the safeguard allows
    give(state, 0, maize=6, skins=2)
    state.apply_text("place pyramid")
    state.apply_text("offer o1")
    state.apply_text("explore 2")
    state.apply_text("explore 3")
    assert state.is_terminal() and state.end_reason().code == "second-offering"


def test_a_chance_text_of_another_draw_is_refused() -> None:
    state = game_with(2).new_initial_state()
    assert state.action_to_text(state.chance_outcomes()[0][0], CHANCE).startswith("offering")
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="draws an offering now, not a market card"):
        state.apply_text("market m6", CHANCE)  # it was taken as offering o6
    assert state.to_json() == before
    chance(state, "offering o6")


def test_scores_count_offerings_cards_tokens_and_storage_rounded_down() -> None:
    state = started(2)
    give(state, 0, maize=8, skins=5, masks=3)
    state.made[0] = [0]  # o1: 8 points
    state.bought[0] = [0]  # m1: 2 points at the end
    state.tokens[0] = 4
    parts = state.score_parts(0)
    assert parts == {"offerings": 8, "cards": 2, "tokens": 4, "storage": 2 + 2 + 3}
    state.phase = OVER
    assert state.scores()[0] == 8 + 2 + 4 + 7


def test_resources_beyond_the_family_limit_are_lost_when_gained() -> None:
    state = started(2)
    give(state, 0, maize=8)
    state.apply_text("place maizal basic 1")
    assert state.res[0] == 9
    give(state, 1, masks=4)
    state.apply_text("place maizal basic 2")
    state.apply_text("buy m4")
    assert state.res[5] == 4


def test_heritage_cards_end_points_count_in_the_score() -> None:
    """Played heritage cards are kept: "al final de la partida obtendrás los puntos de victoria que indique"."""
    state = started(2, hands=(("h7", "h2", "h3"), ("h4", "h5", "h6")))  # h7: 2 points at the end
    assert state.played[0] == [state.game.heritage_ids["h7"]]
    assert state.score_parts(0) == {"offerings": 0, "cards": 2, "tokens": 0, "storage": 0}
    assert state.score_parts(1)["cards"] == 0, "h4's 2 points are tokens, not end points"


def _final(state: NakumState) -> NakumState:
    state.phase = OVER
    state.draws = []
    for p in range(state.num_players):
        give(state, p)
        state.tokens[p] = 0
        state.played[p] = []
        state.made[p] = []
        state.first_offer[p] = -1
    return state


def test_tie_break_most_point_tokens() -> None:
    state = _final(started(2))
    state.tokens[0] = 3
    state.bought[1] = [8]  # m9: 3 points at the end
    assert state.scores() == (3.0, 3.0)
    assert state.outcome().ranks == (1, 2)


def test_tie_break_then_most_masks() -> None:
    state = _final(started(2))
    give(state, 0, maize=3)  # 1 point in storage
    give(state, 1, masks=1)  # 1 point in storage
    assert state.scores() == (1.0, 1.0)
    assert state.outcome().ranks == (2, 1)


def test_tie_break_point_tokens_before_masks() -> None:
    state = _final(started(2))
    state.tokens[0] = 2
    give(state, 1, masks=2)  # 2 points in storage, and more masks
    assert state.scores() == (2.0, 2.0)
    assert state.outcome().ranks == (1, 2)


def test_tie_break_then_the_first_to_make_an_offering() -> None:
    state = _final(started(3, tiles=((1, "maizal"), (2, "cazador"))))
    state.made = [[0], [1], []]
    state.first_offer = [1, 0, -1]
    state.tokens[2] = 0
    state.bought[2] = [14]  # m15: no end points; nobody else has any
    assert state.scores() == (8.0, 8.0, 0.0)
    assert state.outcome().ranks == (2, 1, 3)
    state.made = [[], [], []]
    state.first_offer = [-1, -1, -1]
    assert state.outcome().ranks == (1, 1, 1), "still tied: shared"


# ------------------------------------------------------------- hidden info


def test_views_show_only_ones_own_heritage_hand() -> None:
    state = started(2)
    v0, v1, spectator = state.view(0), state.view(1), state.view(None)
    assert [h["id"] for h in v0["players_info"][0]["heritage_hand"]] == ["h2", "h3"]
    assert "heritage_hand" not in v0["players_info"][1]
    assert v0["players_info"][1]["heritage_in_hand"] == 2
    assert "heritage_hand" not in v1["players_info"][0]
    assert all("heritage_hand" not in info for info in spectator["players_info"])


def test_resample_redeals_other_hands_from_the_unseen_cards() -> None:
    state = started(2)
    seen_hands = set()
    for seed in range(30):
        sample = state.resample(0, random.Random(seed))
        assert sample.view(0) == state.view(0)
        assert sample.hands[0] == state.hands[0]
        assert not set(sample.hands[1]) & (set(state.hands[0]) | {0, 3})
        seen_hands.add(tuple(sample.hands[1]))
    assert len(seen_hands) > 5


# ------------------------------------------------------------------- texts


def test_action_texts_parse_back() -> None:
    state = started(2, tiles=((1, "maizal"),))
    assert state.action_from_text("place maizal basic 1") == state.game.A_BASIC
    with pytest.raises(ParseActionError, match="no tile"):
        state.action_from_text("place nowhere basic 1")
    state.apply_text("place maizal basic 1")
    # player 2: only basic 2 of El Maizal is open, so "place maizal basic" names it
    assert state.action_from_text("place maizal basic") == state.game.A_BASIC + 1
    with pytest.raises(ParseActionError):
        state.action_from_text("camp maizal 4")


def test_every_action_id_has_a_text_that_parses_back() -> None:
    game = game_with(2)
    for a, text in enumerate(game.texts):
        if a in game.text_ids.values():
            assert game.text_ids[text] == a
    for text in ("pass", "place pyramid", "place pituk", "place start", "place grow", "pituk market"):
        assert text in game.text_ids


def test_a_sub_decision_comes_before_the_next_placement() -> None:
    state = started(2)
    state.apply_text("place maizal basic 2")
    with pytest.raises(IllegalActionError, match="market card to buy first"):
        state.apply_text("explore 2")
    assert state.phase == BUY


def test_tiles_can_be_laid_directly_in_tests() -> None:
    state = started(2)
    lay(state, 2, "cazador")
    assert "place cazador basic 1" in texts(state)
    assert state.phase == DAY
