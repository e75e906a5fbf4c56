"""Encoding a seat's observation straight from the state: the same values as through its view, and no leak.

A game's ``state_tensor_writer`` skips building ``state.view(seat)``. It must
give the view's encoding at every step for every seat and the spectator, and
must read nothing the view hides: redrawing what a seat can't see (the game's
own ``resample``, and targeted changes below) leaves that seat's encoding as it was.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.interop.cases import CASES, case_id, option_cases, random_step
from ziggurat.core.game import Game, State
from ziggurat.core.registry import game_ids, get_game, make_game
from ziggurat.interop.encoding import encode_array, encode_state, encode_state_into, tensor_size

GAMES = STATE_GAMES = sorted(gid for gid in game_ids() if get_game(gid).state_tensor_writer is not None)
STATE_CASES = [(gid, n) for gid, n in CASES if gid in STATE_GAMES]
# games whose views hide something from some seat (a resample must redraw it at least once)
HIDING = {"kuhnah", "kukulkan", "lucent", "nakum"}
# games whose every seat sees the same (nothing to redraw)
OPEN = {"pyramix"}


def _states(game: Game, seed: int) -> list[State]:
    """Every state of one seeded random game, start to end."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    out = [state.clone()]
    while not state.is_terminal():
        random_step(state, rng)
        out.append(state.clone())
    return out


def _check_equal(game: Game, seed: int) -> None:
    for i, state in enumerate(_states(game, seed)):
        for p in (None, *range(game.num_players)):
            fast = encode_state(game, state, p)
            slow = encode_array(game, state.view(p))
            assert fast.dtype == np.float32 and fast.shape == (tensor_size(game),)
            assert fast.tolist() == slow.tolist(), (
                f"{game.spec.id} step {i} seat {p}: differ at {np.flatnonzero(fast != slow).tolist()}"
            )


def test_the_games_with_a_state_writer() -> None:
    assert set(STATE_GAMES) == set(game_ids())  # every game has one
    assert set(STATE_GAMES) <= HIDING | OPEN  # every state writer is covered by a leak check below


@pytest.mark.parametrize("case", STATE_CASES, ids=case_id)
def test_state_encoding_equals_the_view_encoding_at_every_step(case: tuple[str, int]) -> None:
    gid, players = case
    game = make_game(gid, players)
    for seed in range(3):
        _check_equal(game, seed)


@pytest.mark.parametrize("case", option_cases(GAMES), ids=lambda c: f"{c[0]}-{c[1]}p-{'-'.join(c[2])}")
def test_state_encoding_equals_the_view_encoding_with_each_option(case: tuple[str, int, dict[str, Any]]) -> None:
    gid, players, options = case
    _check_equal(make_game(gid, players, options), seed=5)


@settings(max_examples=10, deadline=None)
@given(case=st.sampled_from(STATE_CASES), seed=st.integers(0, 2**32 - 1))
def test_state_encoding_equals_the_view_encoding_for_any_seed(case: tuple[str, int], seed: int) -> None:
    gid, players = case
    _check_equal(make_game(gid, players), seed)


def test_encode_state_into_overwrites_the_buffer_and_refuses_a_wrong_one() -> None:
    game = make_game("kukulkan", 3)
    state = _states(game, 2)[40]
    out = np.full(tensor_size(game), 9.0, np.float32)
    encode_state_into(game, state, 1, out)
    assert out.tolist() == encode_array(game, state.view(1)).tolist()
    with pytest.raises(ValueError, match="float32"):
        encode_state_into(game, state, 1, np.zeros(tensor_size(game), np.float64))


@pytest.mark.parametrize("case", STATE_CASES, ids=case_id)
def test_redrawing_what_a_seat_cannot_see_leaves_its_encoding_unchanged(case: tuple[str, int]) -> None:
    gid, players = case
    game = make_game(gid, players)
    rng = random.Random(17)
    redrawn = 0
    for state in _states(game, 3):
        for p in range(players):
            mine = encode_state(game, state, p)
            for _ in range(2):
                sample = state.resample(p, rng)
                if sample.to_json()["state"] != state.to_json()["state"]:
                    redrawn += 1  # something hidden from p was redrawn
                assert encode_state(game, sample, p).tolist() == mine.tolist(), f"{gid}: seat {p} sees a redraw"
    if gid in HIDING and players > 1:
        assert redrawn > 0, "the redraws never changed anything hidden: the check would prove nothing"
    if gid in OPEN:
        assert redrawn == 0


@pytest.mark.parametrize("players", [2, 4])
def test_kukulkan_another_players_pending_choice_never_reaches_the_encoding(players: int) -> None:
    from ziggurat.games.kukulkan.rules import CHOOSE, H_PLUS, H_SUPER, K_DRAW, K_MARK

    game = make_game("kukulkan", players)
    choosing = [s for s in _states(game, 8) if s.phase == CHOOSE]  # type: ignore[attr-defined]
    assert choosing
    for state in choosing[::5]:
        for p in range(players):
            before = encode_state(game, state, p).tolist()
            for q in range(players):
                changed = state.clone()
                changed.p_help = list(changed.p_help)  # type: ignore[attr-defined]
                changed.p_val = list(changed.p_val)  # type: ignore[attr-defined]
                changed.p_kind = list(changed.p_kind)  # type: ignore[attr-defined]
                changed.p_trail = list(changed.p_trail)  # type: ignore[attr-defined]
                changed.p_help[q] = H_SUPER if changed.p_help[q] != H_SUPER else H_PLUS  # type: ignore[attr-defined]
                changed.p_val[q] = 6 if changed.p_val[q] != 6 else 5  # type: ignore[attr-defined]
                changed.p_kind[q] = K_MARK if changed.p_kind[q] != K_MARK else K_DRAW  # type: ignore[attr-defined]
                changed.p_trail[q] = (0, 1) if tuple(changed.p_trail[q]) != (0, 1) else (2,)  # type: ignore[attr-defined]
                after = encode_state(game, changed, p).tolist()
                assert after == encode_array(game, changed.view(p)).tolist()
                if q == p:
                    assert after != before  # the seat's own choice is in its encoding: the check can fail
                else:
                    assert after == before, f"seat {p} sees seat {q}'s pending choice"


@pytest.mark.parametrize("open_jade", [False, True])
def test_kuhnah_another_players_jade_reaches_the_encoding_only_where_the_view_shows_it(open_jade: bool) -> None:
    from ziggurat.games.kuhnah.rules import OVER

    game = make_game("kuhnah", 3, {"open-jade": open_jade})
    states = _states(game, 4)
    assert states[-1].phase == OVER  # type: ignore[attr-defined]
    for state in states[3::7]:
        for p in range(3):
            before = encode_state(game, state, p).tolist()
            for q in range(3):
                changed = state.clone()
                changed.jade = list(changed.jade)  # type: ignore[attr-defined]
                changed.jade[q] += 1  # type: ignore[attr-defined]
                after = encode_state(game, changed, p).tolist()
                assert after == encode_array(game, changed.view(p)).tolist()
                shown = q == p or open_jade or state.phase == OVER  # type: ignore[attr-defined]
                assert (after != before) == shown, f"seat {p}, seat {q}'s jade: shown={shown}"


def test_kuhnah_the_order_of_the_deck_and_the_removed_cards_never_reach_the_encoding() -> None:
    game = make_game("kuhnah", 2)  # 2 players: 29 cards removed unseen
    swapped = 0
    for state in _states(game, 6)[5::9]:
        if not state.deck or not state.removed:  # type: ignore[attr-defined]
            continue
        changed = state.clone()
        deck, removed = list(changed.deck), list(changed.removed)  # type: ignore[attr-defined]
        deck[0], removed[0] = removed[0], deck[0]  # one unseen card exchanged between the piles
        changed.deck, changed.removed = sorted(deck), sorted(removed)  # type: ignore[attr-defined]
        for p in (None, 0, 1):
            assert encode_state(game, changed, p).tolist() == encode_state(game, state, p).tolist()
        swapped += 1
    assert swapped


@pytest.mark.parametrize("players", [2, 5])
def test_lucent_another_players_hand_never_reaches_the_encoding(players: int) -> None:
    game = make_game("lucent", players)
    checked = 0
    for state in _states(game, 7)[4::6]:
        for p in range(players):
            before = encode_state(game, state, p).tolist()
            for q in range(players):
                hand = list(state.hands[q])  # type: ignore[attr-defined]
                if sum(hand) == 0 or len([c for c in hand if c]) == len(hand):
                    continue
                # move one card of q's hand to a kind q has none of: the same size, another hand
                src = next(i for i, c in enumerate(hand) if c)
                dst = next(i for i, c in enumerate(hand) if not c)
                hand[src] -= 1
                hand[dst] += 1
                changed = state.clone()
                changed.hands = [list(h) for h in changed.hands]  # type: ignore[attr-defined]
                changed.hands[q] = hand  # type: ignore[attr-defined]
                after = encode_state(game, changed, p).tolist()
                assert after == encode_array(game, changed.view(p)).tolist()
                if q == p:
                    assert after != before  # the seat's own hand is in its encoding: the check can fail
                else:
                    assert after == before, f"seat {p} sees seat {q}'s hand"
                checked += 1
    assert checked


@pytest.mark.parametrize("players", [2, 4])
def test_nakum_another_players_heritage_cards_and_the_decks_never_reach_the_encoding(players: int) -> None:
    game = make_game("nakum", players)
    checked = 0
    for state in _states(game, 9)[6::11]:
        unseen = list(state.box)  # type: ignore[attr-defined]
        for p in range(players):
            before = encode_state(game, state, p).tolist()
            for q in range(players):
                if not state.hands[q] or not unseen:  # type: ignore[attr-defined]
                    continue
                changed = state.clone()
                changed.hands = [list(h) for h in changed.hands]  # type: ignore[attr-defined]
                changed.hands[q][0] = unseen[0]  # another card, the same count  # type: ignore[attr-defined]
                changed.market_deck = list(reversed(changed.market_deck))  # type: ignore[attr-defined]
                changed.offer_deck = list(reversed(changed.offer_deck))  # type: ignore[attr-defined]
                after = encode_state(game, changed, p).tolist()
                assert after == encode_array(game, changed.view(p)).tolist()
                if q == p:
                    assert after != before  # the seat's own hand is in its encoding: the check can fail
                else:
                    assert after == before, f"seat {p} sees seat {q}'s heritage hand or a deck's order"
                checked += 1
    assert checked
