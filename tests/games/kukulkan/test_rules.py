"""Kukulkán rules, one test per rule, with hand-built positions (block ids: see helpers)."""

from __future__ import annotations

import random

import pytest

from tests.helpers import refusal
from ziggurat.core import CHANCE, SIMULTANEOUS, TERMINAL
from ziggurat.core.errors import IllegalActionError, ParseActionError

from .helpers import (
    ALL_HELPS,
    AXIS,
    BASE,
    FULL_VALUES,
    STUCK_VALUES,
    TOP,
    A,
    B,
    C,
    D,
    do,
    everything,
    game,
    outlines,
    position,
    roll,
    seg,
    texts,
)


# ----------------------------------------------------------------- the round
def test_one_die_per_round_six_equal_outcomes() -> None:
    st = game(2).new_initial_state()
    assert st.current_player() == CHANCE
    assert st.chance_outcomes() == [(k, pytest.approx(1 / 6)) for k in range(6)]
    assert [st.action_to_text(k, CHANCE) for k in range(6)] == [f"roll {k}" for k in range(1, 7)]
    roll(st, 4)
    assert st.current_player() == SIMULTANEOUS
    assert st.players_to_move() == (0, 1)


def test_choices_are_hidden_until_all_are_in_then_resolved_together() -> None:
    g = game(2)
    a = g.new_initial_state()
    roll(a, 1)
    b = a.clone()
    do(a, 0, "draw s0")
    do(b, 0, "draw s5")
    # Player 2 sees only that player 1 has chosen, not what.
    assert a.view(1) == b.view(1)
    assert a.view(1)["chosen"] == [True, False] and a.view(1)["choice"]["trail"] == []
    assert a.view(0)["choice"]["trail"] == [0]
    assert a.view(0)["sheets"][0]["drawn"] == []  # not applied before the reveal
    assert a.players_to_move() == (1,)
    with pytest.raises(IllegalActionError, match="already chosen"):
        a.apply_text("draw s1", 0)
    do(a, 1, "draw s9")
    assert a.current_player() == CHANCE
    assert a.view(1)["sheets"][0]["drawn"] == [0] and a.view(0)["sheets"][1]["drawn"] == [9]
    assert [c["trail"] for c in a.view(None)["last_round"]] == [[0], [9]]


def test_a_partial_trail_is_still_pending_and_hidden() -> None:
    st = game(2).new_initial_state()
    roll(st, 3)
    other = st.clone()
    do(st, 0, "draw s0", "draw s1")
    assert st.players_to_move() == (0, 1)
    assert st.view(1) == other.view(1)


# -------------------------------------------------------------------- draw
def test_draw_first_segment_anywhere_then_continue_from_an_end() -> None:
    g = game()
    st = g.new_initial_state()
    roll(st, 3)
    assert set(range(62)) <= set(st.legal_actions(0))  # every segment starts some trail of 3
    do(st, 0, "draw s0")  # (0,0)-(1,0): the trail may go on from either end
    assert texts(st) == [f"draw s{s}" for s in sorted([seg(g, 1, 0, 2, 0), seg(g, 0, 0, 0, 1)])]
    do(st, 0, f"draw s{seg(g, 1, 0, 2, 0)}")  # now the end is (2,0)
    assert sorted(st.legal_actions(0)) == sorted([seg(g, 2, 0, 3, 0), seg(g, 2, 0, 2, 1)])
    with pytest.raises(IllegalActionError, match="does not continue your trail"):
        st.apply_text(f"draw s{seg(g, 0, 0, 0, 1)}", 0)
    with pytest.raises(IllegalActionError, match="already in this trail"):
        st.apply_text("draw s0", 0)
    with pytest.raises(IllegalActionError, match="finish your trail"):
        st.apply_text("pass", 0)
    do(st, 0, f"draw s{seg(g, 2, 0, 3, 0)}")
    assert st.current_player() == CHANCE
    assert st.view(0)["sheets"][0]["drawn"] == sorted([0, seg(g, 1, 0, 2, 0), seg(g, 2, 0, 3, 0)])


def test_draw_passes_through_drawn_points_but_never_redraws() -> None:
    g = game()
    up = seg(g, 2, 0, 2, 1)
    st = position(die=3, sheets=[{"drawn": [up]}], g=g)
    do(st, 0, "draw s0", "draw s1")  # reaches (2,0), where a drawn segment ends
    assert st.legal_actions(0) == [seg(g, 2, 0, 3, 0)]  # through the drawn point; not up the drawn one
    with pytest.raises(IllegalActionError, match="drawn already"):
        st.apply_text(f"draw s{up}", 0)
    st2 = position(die=2, sheets=[{"drawn": [up]}], g=g)
    with pytest.raises(IllegalActionError, match="drawn already"):
        st2.apply_text(f"draw s{up}", 0)


def test_a_trail_is_exactly_n_segments_and_never_uses_a_segment_twice() -> None:
    g = game()
    square = outlines(g, C)  # a unit square: a closed trail of 4
    drawn = [s for s in everything(g) if s not in square]
    # Blocks touching the square (b1, b5, C, b7, b10) can't be closed, nor numbered with what rests on them.
    values = {b: v for b, v in FULL_VALUES.items() if b not in (5, C, 7, 10, A, 11, 14, TOP)}
    sheet = {"drawn": drawn, "values": values, "marked": [0, 2, 3, 4, *values]}
    st = position(die=4, sheets=[sheet], g=g)
    assert [a for a in st.legal_actions(0) if a < 62] == square
    do(st, 0, *[f"draw s{s}" for s in _loop(g, square)])
    assert st.current_player() == CHANCE
    # Five would need a segment twice: impossible, so (nothing else being possible) a pass.
    st5 = position(die=5, sheets=[sheet], g=g)
    assert texts(st5) == ["pass", "help plus-one 4"]
    with pytest.raises(IllegalActionError, match="no trail of exactly 5"):
        st5.apply_text(f"draw s{square[0]}", 0)


def _loop(g, square: list[int]) -> list[int]:  # type: ignore[no-untyped-def]
    order = [square[0]]
    ends = g.sheet.seg_ends
    while len(order) < len(square):
        last = order[-1]
        nxt = next(s for s in square if s not in order and set(ends[s]) & set(ends[last]))
        order.append(nxt)
    return order


def test_segments_that_cannot_complete_the_trail_are_not_offered() -> None:
    g = game()
    lone = seg(g, 4, 4, 4, 5)  # undrawn, but all its neighbours are drawn
    pair = [seg(g, 0, 0, 1, 0), seg(g, 1, 0, 2, 0)]
    drawn = [s for s in everything(g) if s != lone and s not in pair]
    st = position(die=2, sheets=[{"drawn": drawn}], g=g)
    assert [a for a in st.legal_actions(0) if a < 62] == pair
    with pytest.raises(IllegalActionError, match="no trail of exactly 2"):
        st.apply_text(f"draw s{lone}", 0)


# ------------------------------------------------------------------- write
def test_write_needs_a_blank_block_with_a_closed_outline_and_numbered_supports() -> None:
    g = game()
    st = position(die=5, sheets=[{"drawn": outlines(g, 7)}], g=g)
    assert "write b7" in texts(st)  # 5 < 6, the single support
    st = position(die=6, sheets=[{"drawn": outlines(g, 7)}], g=g)
    assert "write b7" not in texts(st)
    why = refusal(st, g.write0 + 7, 0)
    assert why.id == "kukulkan.write_not_lower_one" and why.text == "6 is not lower than its support's 6"
    open_outline = outlines(g, 7)[1:]
    st = position(die=3, sheets=[{"drawn": open_outline}], g=g)
    why = refusal(st, g.write0 + 7, 0)
    assert why.id == "kukulkan.write_outline"
    assert [m.params["segment"] for m in why.params["missing"]] == [outlines(g, 7)[0]]
    st = position(die=3, sheets=[{"drawn": outlines(g, 11)}], g=g)
    why = refusal(st, g.write0 + 11, 0)
    assert why.id == "kukulkan.write_supports"
    assert [m.params["block"] for m in why.params["blank"]] == list(g.supports[11])


def test_write_over_two_supports_compares_with_their_sum() -> None:
    g = game()
    st = position(die=6, sheets=[{"drawn": outlines(g, 5)}], g=g)  # over 4 + 5 = 9
    assert "write b5" in texts(st)
    st = position(die=5, sheets=[{"drawn": outlines(g, 12, D, 9), "values": {D: 2, 9: 3}}], g=g)
    assert "write b12" not in texts(st)  # 5 is not lower than 2 + 3
    st = position(die=4, sheets=[{"drawn": outlines(g, 12, D, 9), "values": {D: 2, 9: 3}}], g=g)
    assert "write b12" in texts(st)


def test_written_value_is_the_die_and_numbered_blocks_take_no_second_number() -> None:
    g = game()
    st = position(die=5, sheets=[{"drawn": outlines(g, 7)}], g=g)
    do(st, 0, "write b7")
    assert st.view(0)["sheets"][0]["values"][7] == 5
    roll(st, 3)
    assert "write b7" not in texts(st)
    with pytest.raises(IllegalActionError, match="numbered already"):
        st.apply_text("write b7", 0)


# -------------------------------------------------------------------- mark
def test_mark_a_numbered_block_showing_the_die() -> None:
    g = game()
    st = position(die=4, sheets=[{"drawn": outlines(g, 7), "values": {7: 4}}], g=g)
    assert "mark b7" in texts(st)
    st = position(die=3, sheets=[{"drawn": outlines(g, 7), "values": {7: 4}}], g=g)
    with pytest.raises(IllegalActionError, match="shows a 4, not a 3"):
        st.apply_text("mark b7", 0)
    st = position(die=4, sheets=[{"drawn": outlines(g, 7), "values": {7: 4}, "marked": [7]}], g=g)
    with pytest.raises(IllegalActionError, match="marked already"):
        st.apply_text("mark b7", 0)
    with pytest.raises(IllegalActionError, match="no number yet"):
        st.apply_text("mark b11", 0)


def test_base_blocks_are_marked_only_once_their_outline_is_closed() -> None:
    g = game()
    st = position(die=4, g=g)
    assert "mark b0" not in texts(st) and "mark b4" not in texts(st)
    with pytest.raises(IllegalActionError, match="whole outline is drawn"):
        st.apply_text("mark b0", 0)
    st = position(die=4, sheets=[{"drawn": outlines(g, 0)}], g=g)
    assert "mark b0" in texts(st) and "mark b4" not in texts(st)
    do(st, 0, "mark b0")
    assert st.view(0)["sheets"][0]["marked"] == [0] and st.score(0) == 1


# -------------------------------------------------------------------- pass
def test_pass_only_when_nothing_is_possible() -> None:
    st = game().new_initial_state()
    roll(st, 2)
    assert "pass" not in texts(st)
    with pytest.raises(IllegalActionError, match="can't pass"):
        st.apply_text("pass", 0)


def test_pass_allowed_when_only_a_help_would_make_an_action_possible() -> None:
    g = game()
    # Everything drawn and numbered; only b7 (a 5) unmarked; roll 6: nothing without a help.
    marked = [b for b in range(17) if b != 7]
    st = position(die=6, sheets=[{"drawn": everything(g), "values": FULL_VALUES, "marked": marked}], g=g)
    legal = texts(st)
    assert "pass" in legal and "help plus-one 5" in legal and "help super-six 5" in legal
    do(st, 0, "pass")  # a help is never forced


# ------------------------------------------------------------------- helps
def test_plus_minus_one_wraps_six_to_one() -> None:
    g = game()
    values = {**FULL_VALUES, TOP: 1}
    marked = [b for b in range(17) if b != TOP]
    st = position(die=6, sheets=[{"drawn": everything(g), "values": values, "marked": marked}], g=g)
    assert "help plus-one 1" in texts(st)
    do(st, 0, "help plus-one 1")
    assert texts(st) == ["mark b16"]
    do(st, 0, "mark b16")
    assert st.view(0)["sheets"][0]["helps_used"] == ["plus-one"]


def test_plus_minus_one_wraps_one_to_six_and_never_gives_zero_or_seven() -> None:
    g = game()
    st = position(die=1, sheets=[{"drawn": outlines(g, 2)}], g=g)  # the 6 of the base is closed
    assert {"help plus-one 6", "help plus-one 2"} <= set(texts(st))
    with pytest.raises(IllegalActionError, match="turns a 1 into a 2 or a 6"):
        st.apply_text("help plus-one 3", 0)
    with pytest.raises(ParseActionError):
        st.apply_text("help plus-one 7", 0)
    with pytest.raises(ParseActionError):
        st.apply_text("help plus-one 0", 0)
    do(st, 0, "help plus-one 6", "mark b2")
    assert st.view(0)["sheets"][0]["marked"] == [2]


def test_a_one_use_help_is_gone_after_use() -> None:
    g = game()
    st = position(die=6, sheets=[{"drawn": outlines(g, 1), "helps_used": ["plus-one"]}], g=g)
    assert not any(t.startswith("help plus-one") for t in texts(st))
    why = refusal(st, g.plus0 + 5 - 1, 0)
    assert why.id == "kukulkan.help_used" and why.params["help"].id == "kukulkan.help_plus"


def test_super_six_and_same_value_are_once_per_game() -> None:
    """A used help is gone: "when you use it you have to mark its icon with a cross for exhausting it"."""
    g = game()
    st = position(die=6, sheets=[{"drawn": outlines(g, 1), "helps_used": ["super-six"]}], g=g)
    assert "mark b1" not in texts(st) and not any(t.startswith("help super-six") for t in texts(st))
    why = refusal(st, g.super0 + 5 - 1, 0)
    assert why.id == "kukulkan.help_used" and why.params["help"].id == "kukulkan.help_super"
    st = position(die=6, sheets=[{"drawn": outlines(g, 7)}], g=g)
    assert "help same-value" in texts(st)  # b7's support is the base 6
    st = position(die=6, sheets=[{"drawn": outlines(g, 7), "helps_used": ["same-value"]}], g=g)
    assert "help same-value" not in texts(st)
    why = refusal(st, g.same_id, 0)
    assert why.id == "kukulkan.help_used" and why.params["help"].id == "kukulkan.help_same"


def test_super_six_only_on_a_rolled_six() -> None:
    g = game()
    st = position(die=6, sheets=[{"drawn": outlines(g, 1)}], g=g)
    assert [t for t in texts(st) if "super-six" in t] == [f"help super-six {m}" for m in range(1, 6)]
    do(st, 0, "help super-six 5", "mark b1")
    assert st.view(0)["sheets"][0]["helps_used"] == ["super-six"]
    st = position(die=5, sheets=[{"drawn": outlines(g, 1)}], g=g)
    with pytest.raises(IllegalActionError, match="super-six only changes a rolled 6"):
        st.apply_text("help super-six 3", 0)
    with pytest.raises(ParseActionError):
        st.apply_text("help super-six 6", 0)


def test_same_value_writes_the_support_value_or_the_sum_of_two() -> None:
    g = game()
    st = position(die=6, sheets=[{"drawn": outlines(g, 7)}], g=g)
    assert "help same-value" in texts(st)
    do(st, 0, "help same-value")
    assert texts(st) == ["write b7"]
    do(st, 0, "write b7")
    assert st.view(0)["sheets"][0]["values"][7] == 6
    assert st.view(0)["sheets"][0]["helps_used"] == ["same-value"]
    st = position(die=5, sheets=[{"drawn": outlines(g, 12, D, 9), "values": {D: 2, 9: 3}}], g=g)
    do(st, 0, "help same-value", "write b12")
    assert st.view(0)["sheets"][0]["values"][12] == 5
    st = position(die=3, sheets=[{"drawn": outlines(g, 7)}], g=g)
    with pytest.raises(IllegalActionError, match="equal to its support"):
        st.apply_text("help same-value", 0)


def test_same_value_writes_exactly_the_support_not_a_lower_number() -> None:
    """Same-value writes a number equal to the support (or the sum of two), never one below it."""
    g = game()
    # b7 rests on the base 6, b5 on the base 4 + 5 = 9: with a 6 only b7 takes the same value
    st = position(die=6, sheets=[{"drawn": outlines(g, 7, 5)}], g=g)
    assert "write b5" in texts(st) and "write b7" not in texts(st)  # without the help: only below the support
    do(st, 0, "help same-value")
    assert texts(st) == ["write b7"]
    with pytest.raises(IllegalActionError, match="must equal"):
        st.apply_text("write b5", 0)


def test_one_help_per_round_never_combined() -> None:
    g = game()
    st = position(die=6, sheets=[{"drawn": outlines(g, 7, 1)}], g=g)
    do(st, 0, "help plus-one 5")
    assert not any(t.startswith("help") for t in texts(st))
    why = refusal(st, g.super0 + 4 - 1, 0)
    assert why.id == "kukulkan.help_chosen" and why.params["help"].id == "kukulkan.help_plus"


def test_permanent_plus_minus_counts_as_the_round_help_and_is_never_used_up() -> None:
    g = game()
    sheet = {"drawn": everything(g), "marked": BASE, "bonuses": ["base"], "values": {7: 5, 11: 4}}
    st = position(die=6, sheets=[sheet], g=g)
    assert st.view(0)["sheets"][0]["permanent_plus_minus"]
    do(st, 0, "help plus-one 5")
    assert not any(t.startswith("help") for t in texts(st))  # no super-six on top of it
    do(st, 0, "mark b7")
    assert st.view(0)["sheets"][0]["helps_used"] == []  # the one-use plus/minus one is still there
    roll(st, 5)
    do(st, 0, "help plus-one 4", "mark b11")  # again, next round
    assert st.view(0)["sheets"][0]["marked"] == sorted([*BASE, 7, 11])


# ----------------------------------------------------------------- bonuses
def _full(g, marked: list[int], bonuses: list[str] | None = None) -> dict:  # type: ignore[no-untyped-def]
    return {"drawn": everything(g), "values": dict(FULL_VALUES), "marked": marked, "bonuses": bonuses or []}


def test_base_bonus_gives_the_permanent_plus_minus_one() -> None:
    g = game()
    st = position(die=4, sheets=[{"drawn": everything(g), "marked": [1, 2, 3, 4]}], g=g)
    do(st, 0, "mark b0")
    view = st.view(0)["sheets"][0]
    assert view["bonuses"] == ["base"] and view["permanent_plus_minus"] and view["bonus_points"] == 0


def test_axis_bonus_is_three_points() -> None:
    g = game()
    st = position(die=2, sheets=[_full(g, [2, 7, 11, 14])], g=g)
    do(st, 0, "mark b16")
    sheet = st.view(0)["sheets"][0]
    assert sheet["bonuses"] == ["axis", "full"]  # every block was numbered too: full, highest external 6
    assert st.score(0) == 5 + 3 + 6


def test_axis_bonus_is_claimed_once() -> None:
    """Every player may claim each normal bonus once: later marks add no second 3 points."""
    g = game()
    values = {7: 5, 11: 4, 14: 3, TOP: 2}
    st = position(die=2, sheets=[{"drawn": outlines(g, 0, *AXIS), "values": values, "marked": AXIS[:-1]}], g=g)
    do(st, 0, f"mark b{TOP}")
    sheet = st.view(0)["sheets"][0]
    assert sheet["bonuses"] == ["axis"] and sheet["bonus_points"] == 3 and st.score(0) == 5 + 3
    roll(st, 4)
    do(st, 0, "mark b0")
    sheet = st.view(0)["sheets"][0]
    assert sheet["bonuses"] == ["axis"] and sheet["bonus_points"] == 3 and st.score(0) == 6 + 3


def test_full_bonus_is_the_highest_external_value() -> None:
    g = game()
    values = dict(FULL_VALUES)
    del values[TOP]
    st = position(die=2, sheets=[{"drawn": everything(g), "values": values}], g=g)
    do(st, 0, "write b16")
    sheet = st.view(0)["sheets"][0]
    assert sheet["bonuses"] == ["full"]
    # external blocks: b0 4, b4 4, b5 6, b9 6, b10 6, b12 6, A 5, B 5, top 2 -> 6
    assert sheet["bonus_points"] == 6
    values[5], values[9], values[10], values[12] = 5, 5, 5, 5
    st = position(die=1, sheets=[{"drawn": everything(g), "values": values}], g=g)
    do(st, 0, "write b16")
    assert st.view(0)["sheets"][0]["bonus_points"] == 5  # b0/b4 4, A and B 5: the inner base 6 doesn't count


def test_normal_bonuses_are_claimed_by_every_player_once() -> None:
    g = game(2)
    sheet = {"drawn": everything(g), "marked": [1, 2, 3, 4]}
    st = position(players=2, die=4, sheets=[sheet, sheet], g=g)
    do(st, 0, "mark b0")
    do(st, 1, "mark b0")
    assert [s["bonuses"] for s in st.view(None)["sheets"]] == [["base"], ["base"]]


@pytest.mark.parametrize(
    ("bonus", "top", "under", "blocks", "values", "elsewhere"),
    [
        # C = 4 over the base 5; A = 1 over b10 (6) over b5 (6) and C.
        ("A-C", A, C, (0, 1, 5, C, 10, A), {5: 6, C: 4, 10: 6, A: 1}, ("s9", "s8")),
        # D = 4 over the base 5; B = 1 over b12 (6) over D and b9 (6).
        ("B-D", B, D, (3, 4, D, 9, 12, B), {D: 4, 9: 6, 12: 6, B: 1}, ("s0", "s1")),
    ],
)
def test_first_to_claim_same_round_tie_then_closed(
    bonus: str, top: int, under: int, blocks: tuple[int, ...], values: dict[int, int], elsewhere: tuple[str, str]
) -> None:
    """All players who claim a first-to-claim bonus in the same round get it; then it is crossed out."""
    g = game(3)
    ready = {"drawn": outlines(g, *blocks), "values": values, "marked": [under]}
    st = position(players=3, die=1, sheets=[ready, ready, ready], g=g)
    do(st, 0, f"mark b{top}")
    do(st, 1, f"mark b{top}")
    do(st, 2, f"draw {elsewhere[0]}")  # player 3 could have, but does something else
    sheets = st.view(None)["sheets"]
    assert [s["bonuses"] for s in sheets] == [[bonus], [bonus], []]
    assert [s["bonus_points"] for s in sheets] == [3, 3, 0]  # |4 - 1|
    roll(st, 1)
    do(st, 0, f"draw {elsewhere[1]}")
    do(st, 1, f"draw {elsewhere[1]}")
    do(st, 2, f"mark b{top}")
    sheets = st.view(None)["sheets"]
    assert sheets[2]["bonuses"] == [] and sheets[2]["score"] == 2  # closed: only the crosses
    assert st.view(None)["claimed_by"][bonus] == [0, 1]


def test_first_to_claim_is_the_difference_when_a_is_higher_than_c() -> None:
    """A and C numbered and marked: |C - A| points, also when A is the higher."""
    g = game()
    # C = 4 over the base 5; A = 5 over b10 (6) over b5 (6) and C.
    values = {5: 6, C: 4, 10: 6, A: 5}
    st = position(die=5, sheets=[{"drawn": outlines(g, 0, 1, 5, C, 10, A), "values": values, "marked": [C]}], g=g)
    do(st, 0, f"mark b{A}")
    sheet = st.view(0)["sheets"][0]
    assert sheet["bonuses"] == ["A-C"] and sheet["bonus_points"] == 1 and st.score(0) == 2 + 1


def test_bonuses_are_checked_at_the_end_of_the_round() -> None:
    g = game(2)
    ready = {"drawn": everything(g), "marked": [1, 2, 3, 4]}
    st = position(players=2, die=4, sheets=[ready, {}], g=g)
    do(st, 0, "mark b0")
    assert st.view(0)["sheets"][0]["bonuses"] == []  # player 2 still choosing
    do(st, 1, "draw s0", "draw s1", "draw s2")
    assert st.view(0)["sheets"][0]["bonuses"] == []
    do(st, 1, "draw s3")
    assert st.view(0)["sheets"][0]["bonuses"] == ["base"]


def test_a_loaded_sheet_that_earned_a_bonus_gets_it_at_the_round_end_whatever_it_does() -> None:
    # Only a write or a mark earns a bonus, so a round checks only those players; a saved game
    # may hold a sheet that earned bonuses without claiming them, and the first round end gives them.
    g = game(2)
    earned = _full(g, sorted({*BASE, *AXIS, A, C}))
    st = position(players=2, die=1, sheets=[earned, {}], g=g)
    do(st, 0, "pass")
    do(st, 1, "draw s0")
    assert st.view(0)["sheets"][0]["bonuses"] == ["base", "axis", "full", "A-C"]
    assert st.is_terminal()  # the three normal bonuses were claimed
    st = position(players=2, die=1, sheets=[earned, {}], g=g)
    do(st, 1, "draw s0")
    do(st, 0, "pass")
    clone = st.clone()
    assert clone.view(0)["sheets"][0]["bonuses"] == ["base", "axis", "full", "A-C"]


# --------------------------------------------------------------------- end
def test_rulebook_scoring_example_josh_scores_17() -> None:
    """10 marked blocks, D - B = 5 - 1 = 4, axis 3: 17 (two helps used, D written with same-value)."""
    g = game(2)
    josh_values = {7: 5, 11: 4, 14: 3, TOP: 2, D: 5, 9: 3, 12: 4, B: 1}
    josh = {
        "drawn": everything(g),
        "values": josh_values,
        "marked": [0, 1, 3, 2, 7, 11, 14, D],
        "helps_used": ["same-value", "plus-one"],
    }
    other = _full(g, BASE, ["base", "full"])
    st = position(players=2, die=1, sheets=[josh, other], g=g)
    do(st, 0, f"mark b{B}")
    do(st, 1, "pass")
    assert st.view(0)["sheets"][0]["bonuses"] == ["B-D"] and st.score(0) == 9 + 4
    assert not st.is_terminal()  # base and full claimed, axis not yet
    roll(st, 2)
    do(st, 0, f"mark b{TOP}")
    do(st, 1, f"mark b{TOP}")
    assert st.is_terminal() and st.current_player() == TERMINAL
    assert st.end_reason().code == "bonuses" and st.end_reason().printed
    assert st.view(None)["end"] == {
        "code": "bonuses",
        "text": "the three normal bonuses were claimed",
        "printed": True,
        "message": {"id": "kukulkan.end_bonuses", "params": {}, "text": "the three normal bonuses were claimed"},
    }
    assert st.scores()[0] == 17 == 10 + 4 + 3
    assert st.scores()[1] == 6 + 6  # five base blocks and the top, plus the full bonus (highest external 6)
    assert st.outcome().ranks[0] == 1


def test_game_ends_when_each_normal_bonus_has_been_claimed_by_someone() -> None:
    g = game(3)
    st = position(
        players=3,
        die=2,
        sheets=[_full(g, [2, 7, 11, 14]), _full(g, BASE, ["base", "full"]), {}],
        g=g,
    )
    do(st, 0, "mark b16")
    do(st, 1, "mark b16")
    assert not st.is_terminal()  # player 3 still choosing
    do(st, 2, "draw s0", "draw s1")
    assert st.is_terminal()
    # Player 1 gained axis and full in the same round.
    assert st.view(None)["sheets"][0]["bonuses"] == ["axis", "full"]


def test_score_and_tie_breaks() -> None:
    g = game(3, **{"max-rounds": 1})  # the players could still mark: the round limit ends it
    base = {"drawn": everything(g), "values": STUCK_VALUES, "helps_used": ALL_HELPS}  # no 3 anywhere
    a = {**base, "marked": [0, 1, 7]}  # 3 marked
    b = {**base, "marked": [0, 1, 2]}  # 3 marked
    c = {**base, "marked": [0, 1]}  # 2 marked
    st = position(players=3, die=3, sheets=[a, b, c], g=g)
    for p in range(3):
        do(st, p, "pass")
    assert st.is_terminal() and st.end_reason().code == "round-limit"
    assert st.scores() == (3.0, 3.0, 2.0)
    assert st.outcome().ranks == (1, 1, 3)


def test_more_marked_blocks_break_a_tie() -> None:
    g = game(2, **{"max-rounds": 1})
    base = {"drawn": everything(g), "values": STUCK_VALUES, "helps_used": ALL_HELPS}
    bonus = {**base, "marked": [C, A], "bonuses": ["A-C"]}  # 2 + |4 - 5| = 3
    plain = {**base, "marked": [0, 1, 2]}  # 3
    st = position(players=2, die=3, sheets=[bonus, plain], g=g)
    do(st, 0, "pass")
    do(st, 1, "pass")
    assert st.is_terminal() and st.scores() == (3.0, 3.0)
    assert st.outcome().ranks == (2, 1)


# ----------------------------------------------------------------- lengths
def test_max_game_length_bounds_random_games() -> None:
    rng = random.Random(11)
    from ziggurat.core import random_playout

    for players, limit in ((1, 1000), (2, 1000), (3, 40), (6, 1000), (2, 5)):
        g = game(players, **{"max-rounds": limit})
        assert g.max_rounds == limit
        assert g.max_game_length == limit + players * (limit + 62 + (62 + 12 + 17))
        for _ in range(10):
            st = random_playout(g.new_initial_state(), rng)
            assert st.is_terminal() and len(st.history) <= g.max_game_length
            rolls = sum(1 for p, _ in st.history if p == CHANCE)
            assert rolls <= limit and (st.end_reason().code != "round-limit" or rolls == limit)
