"""Kukulkán's end (docs/rulings.md, "End", revised 2026-11-24), the safeguard and how a game says it ended.

The game ends at the end of the round in which each normal bonus has been
claimed by someone; the backstop ends it at the end of a round after which no
player could act on any roll (every value 1..6, every help still held). A round
in which everyone happened to pass ends nothing while another roll would let
someone act. ``could_act`` itself is checked against a brute force in
``test_could_act.py``.
"""

from __future__ import annotations

import json
import random

import pytest

from ziggurat.core import CHANCE, SIMULTANEOUS, get_game
from ziggurat.core.errors import NotOverError, RecordError
from ziggurat.games.kukulkan.rules import K_PASS, KukulkanState

from .helpers import ALL_HELPS, NUMBERED, STUCK_VALUES, TOP, do, everything, game, position, roll, seg, texts

# b12 (row 2, [6,8]) shows a 6 in STUCK_VALUES; only a 6 marks it
B12 = 12


def _stuck(g, **changes) -> dict:  # type: ignore[no-untyped-def]
    """A sheet where nothing can ever be done: all drawn, every numbered block marked, every help used."""
    sheet = {"drawn": everything(g), "values": STUCK_VALUES, "marked": NUMBERED, "helps_used": ALL_HELPS}
    sheet.update(changes)
    return sheet


def _all_but(blocks: list[int], *left: int) -> list[int]:
    return [b for b in blocks if b not in left]


def test_the_game_ends_when_nobody_could_act_on_any_roll() -> None:
    g = game(2)
    st = position(players=2, die=3, sheets=[_stuck(g), _stuck(g)], g=g)
    assert texts(st, 0) == ["pass"] and texts(st, 1) == ["pass"]
    assert not st.could_act(0) and not st.could_act(1)
    do(st, 0, "pass")
    do(st, 1, "pass")
    assert st.is_terminal()
    end = st.end_reason()
    assert (end.code, end.text, end.printed) == ("no-usable-roll", "no player could act on any roll", False)
    assert st.outcome().end == end and st.view(1)["end"] == end.to_json()


def test_a_round_everyone_had_to_pass_ends_nothing_while_another_roll_would_help() -> None:
    # The earlier backstop ended the game here, after the 3 nobody could use.
    g = game(2)
    waiting = _stuck(g, marked=_all_but(NUMBERED, B12))  # only a 6 marks b12
    st = position(players=2, die=3, sheets=[waiting, _stuck(g)], g=g)
    assert texts(st, 0) == ["pass"] and texts(st, 1) == ["pass"]
    do(st, 0, "pass")
    do(st, 1, "pass")
    assert not st.is_terminal() and st.is_chance_node()
    assert [c["kind"] for c in st.view(None)["last_round"]] == ["pass", "pass"]
    for unusable in (1, 2, 5):  # every roll but a 6 is still no use to anyone
        roll(st, unusable)
        do(st, 0, "pass")
        do(st, 1, "pass")
        assert st.is_chance_node()
    roll(st, 6)
    do(st, 0, f"mark b{B12}")
    do(st, 1, "pass")
    # that mark was the last thing anyone could do: the game ends with this round
    assert st.is_terminal() and st.end_reason().code == "no-usable-roll"
    assert st.view(None)["sheets"][0]["marked_count"] == len(NUMBERED)


def test_a_help_still_held_keeps_the_game_going() -> None:
    g = game(1)
    # the top rests on a 1: only same-value can write it (a 1 on a 1)
    sheet = _stuck(g, helps_used=["plus-one", "super-six"])
    assert STUCK_VALUES[14] == 1 and TOP not in STUCK_VALUES
    st = position(players=1, die=4, sheets=[sheet], g=g)
    assert st.could_act(0)
    do(st, 0, "pass")
    assert st.is_chance_node()  # a 1 with same-value would write the top
    roll(st, 1)
    assert texts(st, 0) == ["pass", "help same-value"]
    do(st, 0, "help same-value", f"write b{TOP}")
    assert st.is_chance_node()  # the top shows 1 now: a 1 marks it
    roll(st, 1)
    do(st, 0, f"mark b{TOP}")
    # every block numbered and marked: the axis and full bonuses came with it, the rulebook's end
    assert st.is_terminal() and st.end_reason().code == "bonuses"


def test_without_the_help_that_block_never_counts() -> None:
    g = game(1)
    st = position(players=1, die=1, sheets=[_stuck(g)], g=g)  # same-value used: the top can never be written
    assert not st.could_act(0)
    do(st, 0, "pass")
    assert st.is_terminal()


def test_plus_minus_one_opens_nothing_a_roll_would_not() -> None:
    g = game(1)
    # only a 6 marks b12; plus/minus one and super-six are held, and the base bonus's permanent one
    sheet = _stuck(g, marked=_all_but(NUMBERED, B12), helps_used=["same-value"], bonuses=["base"])
    st = position(players=1, die=5, sheets=[sheet], g=g)
    assert texts(st, 0) == ["pass", "help plus-one 6"]
    do(st, 0, "pass")  # a help is never forced
    assert st.is_chance_node()


def test_an_undrawn_segment_keeps_the_game_going() -> None:
    g = game(2)
    roof = seg(g, 4, 5, 5, 5)  # half of the top's roof, on no other outline (the top is blank)
    open_one = _stuck(g, drawn=[s for s in everything(g) if s != roof])
    st = position(players=2, die=2, sheets=[_stuck(g), open_one], g=g)
    assert texts(st, 1) == ["pass"]  # no trail of 2 left
    do(st, 0, "pass")
    do(st, 1, "pass")
    assert st.is_chance_node()
    roll(st, 1)
    do(st, 0, "pass")
    do(st, 1, f"draw s{roof}")
    assert st.is_terminal() and st.end_reason().code == "no-usable-roll"


def test_the_bonuses_end_comes_first() -> None:
    g = game(1)
    # the last mark claims base, axis and full at once, and leaves nothing to do
    full = {**STUCK_VALUES, TOP: 1, 14: 2}
    sheet = {"drawn": everything(g), "values": full, "marked": _all_but([*NUMBERED, TOP], TOP), "helps_used": ALL_HELPS}
    st = position(players=1, die=1, sheets=[sheet], g=g)
    do(st, 0, f"mark b{TOP}")
    assert st.is_terminal() and st.end_reason().code == "bonuses" and st.end_reason().printed


def test_the_round_limit_is_its_own_end() -> None:
    g = game(2, **{"max-rounds": 2})
    st = g.new_initial_state()
    for value in (1, 1):
        roll(st, value)
        do(st, 0, "draw s0" if st.round == 1 else "draw s1")
        do(st, 1, "draw s5" if st.round == 1 else "draw s6")
    assert st.is_terminal() and st.round == 2
    end = st.end_reason()
    assert (end.code, end.printed) == ("round-limit", False)
    assert "safeguard" in end.text and "not a rule" in end.text
    assert st.view(0)["max_rounds"] == 2


def test_the_round_limit_is_an_option_with_a_default_of_1000() -> None:
    opt = get_game("kukulkan").game_class.spec.option("max-rounds")
    assert (opt.default, opt.minimum) == (1000, 1)
    assert game(2).max_rounds == 1000
    assert game(2).params() == {"players": 2, "options": {}}


def test_there_is_no_end_reason_before_the_end() -> None:
    st = game(2).new_initial_state()
    with pytest.raises(NotOverError):
        st.end_reason()


def test_every_end_is_declared_once() -> None:
    spec = get_game("kukulkan").game_class.spec
    assert [e.code for e in spec.ends] == ["bonuses", "no-usable-roll", "round-limit", "all-passed"]
    assert [e.printed for e in spec.ends] == [True, False, False, False]


# ------------------------------------------------------------- saved games
def _over(g, sheets, die: int = 3) -> KukulkanState:  # type: ignore[no-untyped-def]
    st = position(players=len(sheets), die=die, sheets=sheets, g=g)
    for p in range(len(sheets)):
        do(st, p, "pass")
    assert st.is_terminal()
    st.history = []  # a position set by hand has no history from the start
    return st


@pytest.mark.parametrize("code", ["no-usable-roll", "round-limit"])
def test_a_saved_game_keeps_its_end(code: str) -> None:
    g = game(2, **{"max-rounds": 1}) if code == "round-limit" else game(2)
    sheets = [_stuck(g, marked=_all_but(NUMBERED, B12)), _stuck(g)] if code == "round-limit" else [_stuck(g)] * 2
    st = _over(g, sheets)
    assert st.end_reason().code == code
    data = st.to_json()
    assert data["state"]["end"] == code
    again = g.state_from_json(json.dumps(data))
    assert again == st and again.end_reason() == st.end_reason()


def test_a_state_saved_before_the_end_codes_still_loads_and_says_how_it_ended() -> None:
    g = game(2)
    st = _over(g, [_stuck(g)] * 2)
    data = st.to_json()
    data["state"]["end"] = "every player had to pass"  # the earlier backstop, as the earlier code wrote it
    old = g.state_from_json(data)
    assert old.is_terminal() and old.end_reason().code == "all-passed"
    assert "before 2026-11-24" in old.end_reason().text and not old.end_reason().printed
    assert old.view(None)["end"]["code"] == "all-passed"
    assert old.to_json()["state"]["end"] == "all-passed"  # and saved again with its code


def _after_an_all_pass_round(seed: int) -> KukulkanState:
    """A random game played from the start up to the first round everyone passed that did not end it."""
    g = game(2)
    rng = random.Random(seed)
    st = g.new_initial_state()
    while not st.is_terminal():
        if st.current_player() == CHANCE:
            st.apply_action(st.sample_chance(rng))
            continue
        assert st.current_player() == SIMULTANEOUS
        for p in st.players_to_move():
            legal = st.legal_actions(p)
            st.apply_action(legal[int(rng.random() * len(legal))], p)
        if st.is_chance_node() and all(k == K_PASS for k in st.last[2]):  # type: ignore[index]
            assert isinstance(st, KukulkanState)
            return st
    raise AssertionError("this game had no round where everyone passed")


def test_a_game_ended_by_the_earlier_backstop_loads_with_its_history() -> None:
    for seed in range(50):
        try:
            st = _after_an_all_pass_round(seed)
            break
        except AssertionError:
            continue
    data = st.to_json()
    assert data["history"] and not st.is_terminal()
    data["state"]["phase"] = "over"
    data["state"]["end"] = "every player had to pass"
    old = st.game.state_from_json(data)
    assert old.is_terminal() and old.end_reason().code == "all-passed"
    assert old.history == st.history and old.scores() == tuple(float(st.score(p)) for p in range(2))


def test_a_saved_end_that_did_not_happen_is_refused() -> None:
    g = game(2)
    st = _over(g, [_stuck(g)] * 2)
    going = position(players=2, die=3, sheets=[_stuck(g, marked=_all_but(NUMBERED, B12)), _stuck(g)], g=g)
    do(going, 0, "pass")
    do(going, 1, "pass")
    going.history = []
    wrong = []
    data = going.to_json()  # someone could still roll a 6 and mark b12
    data["state"].update(phase="over", end="no-usable-roll")
    wrong.append(data)
    data = st.to_json()  # nobody claimed a bonus
    data["state"]["end"] = "bonuses"
    wrong.append(data)
    data = st.to_json()  # round 1 of 1000
    data["state"]["end"] = "round-limit"
    wrong.append(data)
    data = st.to_json()  # the earlier backstop needs a round where everyone passed
    data["state"]["last_round"][0].update(kind="draw", trail=[0], value=1)
    data["state"]["end"] = "all-passed"
    wrong.append(data)
    data = st.to_json()
    data["state"]["end"] = "the game got boring"
    wrong.append(data)
    data = st.to_json()
    data["state"]["end"] = None  # over without a reason
    wrong.append(data)
    for data in wrong:
        with pytest.raises(RecordError):
            g.state_from_json(data)


def test_a_saved_game_past_its_round_limit_is_refused() -> None:
    g = game(2, **{"max-rounds": 3})
    data = g.new_initial_state().to_json()
    data["state"]["round"] = 3  # rolling a fourth die
    with pytest.raises(RecordError, match="round limit"):
        g.state_from_json(data)


# ------------------------------------------------------------- front ends
def test_the_boards_say_why_the_game_ended() -> None:
    from io import StringIO

    from rich.console import Console

    from ziggurat.games.kukulkan.render import render
    from ziggurat.games.kukulkan.web import board

    g = game(2)
    st = _over(g, [_stuck(g)] * 2)
    out = StringIO()
    Console(file=out, width=200).print(render(st.view(0), 0))
    assert "Game over: no player could act on any roll." in out.getvalue()
    svg = board(st.view(0), 0, []).svg
    assert 'data-end="no-usable-roll"' in svg and "The game ended: no player could act on any roll." in svg
    going = board(position(players=2, g=g).view(0), 0, []).svg
    assert "The game ended" not in going and "data-end" not in going
