"""Kukulkán explains itself: every refusal by its rule, what each choice did, and the score term by term."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from tests.games.kukulkan.helpers import AXIS, BASE, TOP, B, D, do, everything, game, outlines, position, seg
from tests.helpers import Refusal, check_refusal
from ziggurat.core import CHANCE
from ziggurat.games.kukulkan.messages import REFUSALS
from ziggurat.games.kukulkan.rules import KukulkanState

G = game()
GROUND = [seg(G, x, 0, x + 1, 0) for x in range(4)]  # (0,0)-(1,0) .. (3,0)-(4,0)
UP_2 = seg(G, 2, 0, 2, 1)  # the vertical at x = 2 from the ground up


def _after(die: int, *texts: str, **sheet: object) -> KukulkanState:
    """A one-player position with roll ``die`` and ``texts`` chosen so far."""
    state = position(die=die, sheets=[dict(sheet)], g=G)
    do(state, 0, *texts)
    return state


def _ground_only(die: int, *texts: str, spare: tuple[int, ...] = ()) -> KukulkanState:
    """Everything drawn but the first four ground segments, the vertical at x = 2 (and ``spare``)."""
    keep = {*GROUND, UP_2, *spare}
    return _after(die, *texts, drawn=[s for s in everything(G) if s not in keep])


def _stuck(**changes: object) -> dict[str, object]:
    """A finished-looking sheet: everything drawn, every upper block a 1, every block marked: nothing to do."""
    values = {b: 1 for b in range(5, 17)}
    sheet: dict[str, object] = {"drawn": everything(G), "values": values, "marked": list(range(17))}
    sheet.update(changes)
    return sheet


# b10 rests on b5 and C (b6): numbered 1 and 2 they sum to 3
TWO = {"drawn": outlines(G, 5, 6, 7, 10), "values": {5: 1, 6: 2}}

CASES: dict[str, Callable[[], Refusal]] = {
    # a trail under way
    "trail_finish": lambda: Refusal(_after(3, f"draw s{GROUND[0]}"), G.pass_id, 0),
    "trail_repeat": lambda: Refusal(_after(3, f"draw s{GROUND[0]}"), GROUND[0], 0),
    "trail_not_next": lambda: Refusal(_after(3, f"draw s{GROUND[0]}", f"draw s{GROUND[1]}"), GROUND[0] + 20, 0),
    "trail_not_next_two": lambda: Refusal(_after(3, f"draw s{GROUND[1]}"), seg(G, 6, 0, 7, 0), 0),
    # ground, ground, then up at x = 2: nothing goes on from (2, 1) to make four
    "trail_dead_end": lambda: Refusal(
        _ground_only(4, f"draw s{GROUND[0]}", f"draw s{GROUND[1]}"),
        UP_2,
        0,
        fixed=_ground_only(4, f"draw s{GROUND[0]}", f"draw s{GROUND[1]}", spare=(seg(G, 2, 1, 3, 1),)),
    ),
    # the round's help
    "help_chosen": lambda: Refusal(_after(6, "help plus-one 5", drawn=outlines(G, 1)), G.super0 + 3, 0),
    "same_write": lambda: Refusal(_after(6, "help same-value", drawn=outlines(G, 2, 7)), G.mark0 + 2, 0),
    # draw, write, mark, pass
    "drawn": lambda: Refusal(_after(2, drawn=[GROUND[0]]), GROUND[0], 0, fixed=_after(2)),
    "no_trail": lambda: Refusal(_ground_only(5), GROUND[0], 0, fixed=_ground_only(4)),
    "write_base": lambda: Refusal(_after(3), G.write0 + 0, 0),
    "write_numbered": lambda: Refusal(_after(3, drawn=outlines(G, 7), values={7: 4}), G.write0 + 7, 0),
    "write_outline": lambda: Refusal(
        _after(3, drawn=outlines(G, 7)[1:]), G.write0 + 7, 0, fixed=_after(3, drawn=outlines(G, 7))
    ),
    "write_supports": lambda: Refusal(
        _after(3, drawn=outlines(G, 7, 11)),
        G.write0 + 11,
        0,
        fixed=_after(3, drawn=outlines(G, 7, 11), values={7: 5}),
    ),
    "write_not_lower_one": lambda: Refusal(
        _after(6, drawn=outlines(G, 7)), G.write0 + 7, 0, fixed=_after(5, drawn=outlines(G, 7))
    ),
    "write_not_lower_two": lambda: Refusal(_after(3, **TWO), G.write0 + 10, 0, fixed=_after(2, **TWO)),
    # same-value with a 6: b7 (on the 6) could take it, the C (on the 5) may not
    "write_same_one": lambda: Refusal(_after(6, "help same-value", drawn=outlines(G, 6, 7)), G.write0 + 6, 0),
    "write_same_two": lambda: Refusal(_after(6, "help same-value", **TWO), G.write0 + 10, 0),
    "mark_blank": lambda: Refusal(_after(3, drawn=outlines(G, 7)), G.mark0 + 7, 0),
    "mark_marked": lambda: Refusal(_after(4, drawn=outlines(G, 7), values={7: 4}, marked=[7]), G.mark0 + 7, 0),
    "mark_value": lambda: Refusal(
        _after(3, drawn=outlines(G, 7), values={7: 4}),
        G.mark0 + 7,
        0,
        fixed=_after(4, drawn=outlines(G, 7), values={7: 4}),
    ),
    "mark_base_outline": lambda: Refusal(_after(4), G.mark0 + 0, 0, fixed=_after(4, drawn=outlines(G, 0))),
    "pass_possible": lambda: Refusal(_after(2), G.pass_id, 0, fixed=_after(2, **_stuck())),
    "help_used": lambda: Refusal(
        _after(6, drawn=outlines(G, 1), helps_used=["plus-one"]),
        G.plus0 + 4,
        0,
        fixed=_after(6, drawn=outlines(G, 1)),
    ),
    "same_no_block": lambda: Refusal(
        _after(3, drawn=outlines(G, 7)), G.same_id, 0, fixed=_after(6, drawn=outlines(G, 7))
    ),
    "plus_not_next": lambda: Refusal(_after(1, drawn=outlines(G, 2)), G.plus0 + 2, 0),
    "super_not_six": lambda: Refusal(
        _after(5, drawn=outlines(G, 1)), G.super0 + 2, 0, fixed=_after(6, drawn=outlines(G, 1))
    ),
    # nothing to draw, write or mark with a 2 on this sheet, unless a 2 waits to be marked
    "help_useless": lambda: Refusal(
        _after(3, **_stuck()),
        G.plus0 + 1,
        0,
        fixed=_after(
            3, **_stuck(values={**{b: 1 for b in range(5, 17)}, 7: 2}, marked=[b for b in range(17) if b != 7])
        ),
    ),
}


@pytest.mark.parametrize("reason", sorted(CASES))
def test_every_refusal_names_its_rule(reason: str) -> None:
    check_refusal(CASES[reason](), f"kukulkan.{reason}")


def test_every_refusal_of_the_catalog_has_a_case() -> None:
    assert set(CASES) == set(REFUSALS)


def test_the_rulebook_words_for_an_open_outline_and_a_value_not_lower() -> None:
    why = _after(3, drawn=outlines(G, 7)[2:]).why_illegal(G.write0 + 7, 0)
    assert why is not None and why.text.startswith("this block's outline is not drawn yet: s")
    assert why.params["count"] == 2
    why = _after(3, **{**TWO, "values": {5: 2, 6: 1}}).why_illegal(G.write0 + 10, 0)
    assert why is not None and why.text == "3 is not lower than the sum of its two supports, 3"
    why = _after(6, drawn=outlines(G, 6)).why_illegal(G.write0 + 6, 0)
    assert why is not None and why.text == "6 is not lower than its support's 5"


def test_another_players_choice_reads_as_a_choice_until_the_round_is_revealed() -> None:
    state = position(players=2, die=3, sheets=[{}, {}], g=game(2))
    action = state.legal_actions(0)[0]
    own = state.describe_action(action, 0, audience=0)
    assert own.id == "kukulkan.draw_first" and own.params["n"] == 3
    for audience in (1, None):
        hidden = state.describe_action(action, 0, audience=audience)
        assert hidden.id == "core.choice_hidden" and hidden.params == {"player": 1, "seat": 0}


def test_choices_name_the_segment_the_block_and_the_help() -> None:
    state = _after(3)
    first = state.describe_action(GROUND[0], 0, audience=0)
    assert first.text == f"starts a trail of 3: draws s{GROUND[0]}"
    assert first.params["segment"].params["points"] == [[0, 0], [1, 0]]
    do(state, 0, f"draw s{GROUND[0]}")
    assert state.describe_action(GROUND[1], 0, audience=0).text == f"draws s{GROUND[1]} (2 of 3)"
    assert _after(3, drawn=outlines(G, 7)).describe_action(G.write0 + 7, 0, audience=0).text == "writes a 3 in b7"
    marked = _after(4, drawn=outlines(G, 8), values={8: 4}).describe_action(G.mark0 + D, 0, audience=0)
    assert marked.text == f"marks b{D} (D) (a 4)"
    assert _after(6, drawn=outlines(G, 1)).describe_action(G.super0 + 1, 0, audience=0).text == (
        "uses super-six: the 6 counts as a 2"
    )
    assert _after(4, drawn=outlines(G, 1)).describe_action(G.plus0 + 4, 0, audience=0).text == (
        "uses plus/minus one: the 4 counts as a 5"
    )
    assert _after(2, **_stuck()).describe_action(G.pass_id, 0, audience=0).id == "kukulkan.pass"
    state = position(g=G)
    assert state.describe_action(3, CHANCE).text == "the die shows 4"


def test_the_rulebook_scoring_example_term_by_term() -> None:
    """Josh: "10 points for every cross marked stone ... plus 4 and 3 points for the bonuses ... 17"."""
    values = {7: 5, 11: 4, 14: 3, TOP: 2, D: 5, 9: 3, 12: 4, B: 1}
    josh = {
        "drawn": everything(G),
        "values": values,
        "marked": [0, 1, 2, 3, *AXIS[1:], D, B],
        "helps_used": ["same-value", "plus-one"],
        "bonuses": ["axis", "B-D"],
    }
    state = position(die=1, sheets=[josh], g=G)
    (mine,) = state.score_breakdown(0).players
    assert [(t.label.id, t.points) for t in mine.terms] == [
        ("kukulkan.score_marked", 10.0),
        ("kukulkan.score_axis", 3.0),
        ("kukulkan.score_bd", 4.0),
    ]
    assert mine.terms[2].label.text == "B-D bonus, first to claim: D shows 5, B shows 1"
    assert mine.total == state.score(0) == 17.0
    with_base = position(die=1, sheets=[{**josh, "marked": [*BASE, *AXIS[1:], D, B], "bonuses": ["base", "axis"]}])
    terms = with_base.score_breakdown(None).players[0].terms
    assert [(t.label.id, t.points) for t in terms][:2] == [
        ("kukulkan.score_marked", 11.0),
        ("kukulkan.score_base", 0.0),
    ]


def test_every_write_and_mark_explanation_is_true_of_the_sheet() -> None:
    """Over random games: the totals, values and dotted segments an explanation names are the sheet's."""
    g = game(2)
    for seed in range(10):
        rng = random.Random(seed)
        state = g.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            for p in state.players_to_move():
                values = state.values[p * g.B : (p + 1) * g.B]
                for b in range(g.B):
                    why = state.why_illegal(g.write0 + b, p)
                    if why is not None and why.id.startswith("kukulkan.write_not_lower"):
                        assert why.params["total"] == sum(values[x] for x in g.supports[b]) <= why.params["n"]
                    if why is not None and why.id == "kukulkan.write_outline":
                        dotted = [m.params["segment"] for m in why.params["missing"]]
                        assert dotted and all(not state.drawn[p] >> s & 1 for s in dotted)
                        assert set(dotted) == {s for s in g.sheet.outline[b] if not state.drawn[p] >> s & 1}
                    why = state.why_illegal(g.mark0 + b, p)
                    if why is not None and why.id == "kukulkan.mark_value":
                        assert why.params["value"] == values[b] != why.params["n"] == state.p_val[p]
            p = rng.choice(state.players_to_move())
            state.apply_action(rng.choice(state.legal_actions(p)), p)
