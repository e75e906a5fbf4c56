"""Pyramix explains itself: every refusal by its condition, what each move did, and the score term by term."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from tests.games.pyramix.helpers import build, full, game, label, tray
from tests.helpers import Refusal, check_refusal
from ziggurat.core import CHANCE
from ziggurat.games.pyramix.geometry import FACES, LABEL_INDEX, LABELS, NUM_BASE, TRAY_NEIGHBOURS, UP
from ziggurat.games.pyramix.messages import REFUSALS
from ziggurat.games.pyramix.rules import PyramixState


def _box_without(code: str) -> PyramixState:
    """The setup with every cube of kind ``code`` stacked (and nothing else yet)."""
    state = game(2).new_initial_state()
    kind = state.game.box.kind(code)
    while state.pool[kind]:
        state.apply_action(kind, CHANCE)
    return state


CASES: dict[str, Callable[[], Refusal]] = {
    "empty": lambda: Refusal(build(full(f1=".")), LABEL_INDEX["f1"], fixed=build(full())),
    # rule 1: two or three visible faces
    "covered_one": lambda: Refusal(
        build(full()), LABEL_INDEX[label(1, 0, 1)], fixed=build(full(f1=".", **{label(0, 0, 1): "."}))
    ),
    "covered_none": lambda: Refusal(build(full()), LABEL_INDEX[label(1, 1, 1)]),
    # rule 2: a tray place is never left empty for good
    "base_gap": lambda: Refusal(build(tray(b1="ga")), LABEL_INDEX["a21"], fixed=build(tray(b1="ga", b15="ga"))),
    # rule 3: cobras
    "cobra_touch": lambda: Refusal(build(tray(a1="co", b1="ga")), LABEL_INDEX["b1"], fixed=build(tray(b1="ga"))),
    # chance: a kind of cube no longer in the box
    "box_empty": lambda: Refusal(_box_without("ge"), game(2).box.kind("ge"), CHANCE, fixed=game(2).new_initial_state()),
    "box_empty_cobra": lambda: Refusal(
        _box_without("co"), game(2).box.kind("co"), CHANCE, fixed=game(2).new_initial_state()
    ),
}


@pytest.mark.parametrize("reason", sorted(CASES))
def test_every_refusal_names_its_condition(reason: str) -> None:
    check_refusal(CASES[reason](), f"pyramix.{reason}")


def test_every_refusal_of_the_catalog_has_a_case() -> None:
    assert set(CASES) == set(REFUSALS)


def test_a_covered_cube_names_the_cubes_resting_on_it() -> None:
    state = build(full())
    why = state.why_illegal(LABEL_INDEX[label(1, 0, 1)])
    assert why is not None
    assert sorted(why.params["covering"]) == sorted([label(0, 0, 1), label(1, 0, 0)])
    assert why.params["cube"].params == {"colour": "green", "icon": "ankh"}
    assert why.text.startswith(f"the green ankh at {label(1, 0, 1)} shows only one face: ")


def test_a_take_names_the_cube_and_the_line_that_slides_down() -> None:
    state = build(tray(b1="ge", c1="pc", **{label(3, 1, 0): "ga", label(3, 0, 1): "ga"}))
    told = state.describe_action(LABEL_INDEX["a1"])
    assert told.id == "pyramix.take_cascade"
    assert told.params["line"] == ["b1", "c1"]  # the green eye and the purple crane slide down one step
    assert told.text == "takes the green ankh at a1 (layer 1); the line above it slides down one step (b1 and c1)"
    state.apply_action(LABEL_INDEX["a1"])
    assert state.grid[LABEL_INDEX["a1"]] == state.game.box.kind("ge")
    top = build(full(f1="ge"))
    assert top.describe_action(LABEL_INDEX["f1"]).text == "takes the green eye at f1 (layer 6)"


def test_setup_names_each_cube_stacked() -> None:
    state = game(2).new_initial_state()
    kind = state.game.box.kind("oc")
    assert state.describe_action(kind, CHANCE).text == "a cube is stacked at a1: orange crane"


def test_the_final_score_term_by_term_after_the_cobra_clearing_and_the_majorities() -> None:
    """Cobras in the tray take their neighbours out; the strict ankh leader of a colour collects it; a tie, nobody."""
    layout = tray("ga", a1="co", a4="bc", a7="pe", a8="pa")  # a1's neighbours leave with it
    taken = [["ga", "ga", "gc", "pa"], ["ga", "ba", "pa", "co"]]
    state = build(layout, collections=taken)
    assert state.is_terminal()
    breakdown = state.score_breakdown(None)
    assert breakdown.final
    first, second = breakdown.players
    assert [(t.label.text, t.points) for t in first.terms] == [
        ("1 × purple ankh taken, 1 point each", 1.0),
        ("2 × green ankh taken, 1 point each", 2.0),
        ("1 × green crane taken, 2 points each", 2.0),
        ("15 × green ankh left in the tray, collected with the most green ankhs, 1 point each", 15.0),
    ], "the 18 green ankhs of the tray, less the 3 the cobra takes out with it; player 1 leads green 2 to 1"
    assert [t.label.id for t in second.terms][-2:] == ["pyramix.score_cobras", "pyramix.score_tray"]
    assert second.terms[-1].label.params["colour"] == "blue" and second.terms[-1].points == 2.0
    assert [first.total, second.total] == [20.0, 5.0]
    assert [p.total for p in breakdown.players] == list(state.scores())
    notes = {n.id: n for n in breakdown.notes}
    assert notes["pyramix.note_cleared"].params["cobras"] == ["a1"]
    assert set(notes["pyramix.note_cleared"].params["places"]) == {"a1", *_tray_neighbours("a1")}
    ties = [n for n in breakdown.notes if n.id == "pyramix.note_tie"]
    assert [n.params["colour"] for n in ties] == ["purple"], "one purple ankh each: nobody collects purple"
    assert [n.params["colour"] for n in breakdown.notes if n.id == "pyramix.note_none"] == ["orange"]


def _tray_neighbours(place: str) -> list[str]:
    return [LABELS[q] for q in TRAY_NEIGHBOURS[LABEL_INDEX[place]]]


def test_the_conditions_are_told_in_the_rulebook_order() -> None:
    """A covered cube next to a cobra is refused for its faces first (rule 1), then the tray (2), then cobras (3)."""
    state = build(full(**{label(3, 1, 0): "co"}))
    place = LABEL_INDEX[label(4, 1, 0)]  # covered by two cubes, one of them a cobra
    assert state.near[place] == 1
    why = state.why_illegal(place)
    assert why is not None and why.id == "pyramix.covered_one"


def test_every_explanation_is_true_of_the_position() -> None:
    """Over random games: what a refusal says (faces, covering cubes, cobras, the tray) is what the pyramid shows."""
    for seed in range(12):
        rng = random.Random(seed)
        state = game(2).new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        while not state.is_terminal():
            grid = state.grid
            for place in range(56):
                why = state.why_illegal(place)
                if why is None:
                    continue
                covering = sorted(LABELS[u] for u in UP[3 * place : 3 * place + 3] if u >= 0 and grid[u] >= 0)
                cobras = sorted(LABELS[q] for q in FACES[place] if grid[q] == state.game.cobra)
                if why.id == "pyramix.empty":
                    assert grid[place] < 0
                    continue
                assert grid[place] >= 0 and why.params["place"] == LABELS[place]
                if why.id in ("pyramix.covered_one", "pyramix.covered_none"):
                    assert sorted(why.params["covering"]) == covering and len(covering) >= 2
                elif why.id == "pyramix.base_gap":
                    assert place < NUM_BASE and not covering
                else:
                    assert why.id == "pyramix.cobra_touch" and len(covering) <= 1
                    assert sorted(why.params["cobras"]) == cobras and grid[place] != state.game.cobra
            state.apply_action(rng.choice(state.legal_actions()))
