"""Pyramix: one test per rule of docs/rulings.md on hand-built positions, and the rulebook's example."""

from __future__ import annotations

import json
import random

import pytest

from tests.games.pyramix.helpers import build, full, game, label, labels, oracle_legal, tray
from tests.helpers import refusal
from ziggurat.core import (
    CHANCE,
    TERMINAL,
    ConfigError,
    IllegalActionError,
    ParseActionError,
    RecordError,
    random_playout,
)
from ziggurat.games.pyramix.geometry import (
    FACES,
    INDEX,
    LABEL_INDEX,
    LABELS,
    LAYER_SIZES,
    NUM_BASE,
    NUM_POSITIONS,
    SUPPORTS,
    TRAY_NEIGHBOURS,
)
from ziggurat.games.pyramix.rules import PyramixState

# ---------------------------------------------------------------- geometry


def test_the_pyramid_has_six_triangular_layers():
    assert NUM_POSITIONS == 56
    assert LAYER_SIZES == (21, 15, 10, 6, 3, 1)
    assert NUM_BASE == 21
    assert LABELS[0] == "a1" and LABELS[20] == "a21" and LABELS[21] == "b1" and LABELS[55] == "f1"


def test_a_cube_rests_on_p_plus_each_axis():
    assert labels(list(SUPPORTS[INDEX[(0, 0, 0)]])) == [label(1, 0, 0), label(0, 1, 0), label(0, 0, 1)]
    assert SUPPORTS[INDEX[(5, 0, 0)]] == ()  # the tray
    for p, sup in enumerate(SUPPORTS):
        assert len(sup) == (0 if p < NUM_BASE else 3)


def test_faces_are_the_six_axis_neighbours():
    # an inner cube of layer c touches 3 above and 3 below
    assert sorted(labels(list(FACES[INDEX[(1, 1, 1)]]))) == sorted(
        [label(0, 1, 1), label(1, 0, 1), label(1, 1, 0), label(2, 1, 1), label(1, 2, 1), label(1, 1, 2)]
    )
    assert len(FACES[INDEX[(0, 0, 0)]]) == 3


def test_tray_neighbours_share_an_edge_in_the_base_triangle():
    counts = sorted(len(TRAY_NEIGHBOURS[p]) for p in range(NUM_BASE))
    assert counts.count(2) == 3  # corners
    assert counts.count(4) == 12  # edges
    assert counts.count(6) == 6  # inside: every coordinate >= 1
    assert labels(list(TRAY_NEIGHBOURS[0])) == ["a2", "a3"]


# ---------------------------------------------------------------- setup


def test_setup_is_one_chance_draw_per_place_proportional_to_the_box():
    g = game()
    s = g.new_initial_state()
    assert s.current_player() == CHANCE
    outcomes = dict(s.chance_outcomes())
    assert outcomes[g.box.kind("blue ankh")] == pytest.approx(8 / 56)
    assert outcomes[g.box.kind("green eye")] == pytest.approx(1 / 56)
    assert outcomes[g.box.kind("cobra")] == pytest.approx(4 / 56)
    assert len(outcomes) == 13 == g.max_chance_outcomes
    s.apply_action(g.box.kind("green eye"))
    assert g.box.kind("green eye") not in dict(s.chance_outcomes())
    assert s.grid[0] == g.box.kind("green eye")


def test_setup_stacks_all_56_cubes_then_player_1_moves():
    g = game(3)
    s = g.new_initial_state()
    rng = random.Random(5)
    for _ in range(56):
        assert s.current_player() == CHANCE
        s.apply_action(s.sample_chance(rng))
    assert s.current_player() == 0
    assert sorted(s.grid.count(k) for k in range(13)) == sorted(g.box.counts)
    assert s.action_to_text(s.legal_actions()[0]).startswith("take ")


def test_sample_chance_uses_one_random_number_and_only_cubes_left():
    s = game().new_initial_state()
    for _ in range(50):
        s.apply_action(s.sample_chance(random.Random(0)))  # u is always the same

    class Counting(random.Random):
        calls = 0

        def random(self) -> float:
            Counting.calls += 1
            return super().random()

    rng = Counting(1)
    k = s.sample_chance(rng)
    assert Counting.calls == 1 and s.pool[k] > 0


def test_no_hidden_information():
    g = game()
    assert not g.spec.has_hidden_information
    s = g.new_initial_state()
    random_playout(s, random.Random(1))
    assert s.resample(0, random.Random(2)) == s
    assert s.view(0)["pyramid"] == s.view(None)["pyramid"]


def test_two_to_four_players():
    for n in (2, 3, 4):
        game(n)
    for n in (1, 5):
        with pytest.raises(ConfigError):
            game(n)


# ---------------------------------------------------------------- rule 1: two or three visible faces


def test_a_full_pyramid_offers_the_top_and_the_three_edges():
    s = build(full())
    # the top shows 3 faces; every cube on an edge of the pyramid has one cube on it (2 faces)
    edges = [label(k, 0, 0) for k in range(1, 6)] + [label(0, k, 0) for k in range(1, 6)]
    edges += [label(0, 0, k) for k in range(1, 6)]
    assert sorted(labels(s.legal_actions())) == sorted(["f1", *edges])
    assert s.legal_actions() == oracle_legal(s)


def test_a_cube_with_one_visible_face_cannot_go():
    s = build(full())
    p = label(1, 0, 1)  # rests under (0,0,1) and (1,0,0): one face visible
    assert s.visible_faces(LABEL_INDEX[p]) == 1
    with pytest.raises(IllegalActionError, match="only one face"):
        s.apply_text(f"take {p}")


def test_a_cube_with_no_visible_face_cannot_go():
    s = build(full())
    p = label(1, 1, 1)
    assert s.visible_faces(LABEL_INDEX[p]) == 0
    with pytest.raises(IllegalActionError, match="shows no face"):
        s.apply_text(f"take {p}")


def test_a_cube_with_three_visible_faces_goes_without_cascade():
    s = build(full(f1="ge"))
    s.apply_text("take f1")
    assert s.grid[LABEL_INDEX["f1"]] == -1
    assert s.collection(0)[s.game.box.kind("ge")] == 1
    assert s.current_player() == 1


def test_play_continues_to_the_left_with_three_players():
    """ "Play continues to the left": each player in turn, then the first again."""
    s = build(full(), players=3)
    movers = []
    for _ in range(4):
        movers.append(s.current_player())
        s.apply_action(s.legal_actions()[0])
    assert movers == [0, 1, 2, 0]


# ---------------------------------------------------------------- rule 2: the tray is never left empty


def test_a_tray_cube_with_nothing_above_cannot_go():
    s = build(tray(b1="ga"))
    for p in range(NUM_BASE):
        if s.visible_faces(p) == 3:
            assert refusal(s, p).id == "pyramix.base_gap"
    assert labels(s.legal_actions()) == sorted(["b1", "a1", label(4, 1, 0), label(4, 0, 1)])


def test_only_the_tray_left_ends_the_game():
    s = build(tray())
    assert s.current_player() == TERMINAL
    assert s.legal_actions() == []


def test_a_tray_cube_with_one_cube_on_it_goes_and_the_cube_slides_in():
    s = build(tray(b1="ge"))
    s.apply_text("take a1")
    assert s.grid[0] == s.game.box.kind("ge")
    assert s.grid[LABEL_INDEX["b1"]] == -1
    assert s.is_terminal()


# ---------------------------------------------------------------- rule 3: cobras


def test_a_cube_touching_a_cobra_below_cannot_go():
    s = build(tray(a1="co", b1="ga"))
    why = refusal(s, LABEL_INDEX["b1"])
    assert why.id == "pyramix.cobra_touch" and why.params["cobras"] == ["a1"]
    assert "b1" not in labels(s.legal_actions())


def test_a_cube_touching_a_cobra_above_cannot_go():
    s = build(tray(b1="co"))
    assert "a1" not in labels(s.legal_actions())
    assert "b1" in labels(s.legal_actions())


def test_a_cobra_may_be_taken_next_to_a_cobra():
    s = build(tray(a1="co", b1="co"))
    # both cobras may go, each next to the other; the tray cubes under b1 touch a cobra and may not
    assert labels(s.legal_actions()) == ["a1", "b1"]
    s.apply_text("take a1")  # the cobra b1 slides into a1
    assert s.grid[0] == s.game.cobra


def test_a_cobra_still_needs_two_visible_faces():
    s = build(full(**{label(1, 1, 1): "co"}))
    with pytest.raises(IllegalActionError, match="shows no face"):
        s.apply_action(INDEX[(1, 1, 1)])


def test_cubes_in_the_same_layer_do_not_touch():
    # a cobra in the tray does not block its tray neighbours (they touch along an edge, not a face)
    s = build(tray(a2="co", b1="ga"))
    assert "a1" in labels(s.legal_actions())


# ---------------------------------------------------------------- the cascade


def test_a_cascade_moves_the_whole_line():
    g = game()
    codes = ["ba", "bc", "be", "pa", "pc", "pe"]
    line = [label(5 - k, 0, 0) for k in range(6)]  # a1, b1, c1, d1, e1, f1
    s = build(full(**dict(zip(line, codes, strict=True))))
    s.apply_text("take a1")
    assert s.collection(0)[g.box.kind("ba")] == 1
    assert [g.box.code[s.grid[LABEL_INDEX[p]]] for p in line[:5]] == codes[1:]
    assert s.grid[LABEL_INDEX["f1"]] == -1
    assert s.visible_faces(LABEL_INDEX["e1"]) == 3


def test_a_cascade_follows_the_covered_face_in_any_direction():
    # along z: the line (0,0,5), (0,0,4) ... (0,0,0)
    g = game()
    line = [label(0, 0, 5 - k) for k in range(6)]
    codes = ["oa", "oc", "oe", "ga", "gc", "ge"]
    s = build(full(**dict(zip(line, codes, strict=True))))
    s.apply_action(LABEL_INDEX[line[0]])
    assert [g.box.code[s.grid[LABEL_INDEX[p]]] for p in line[:5]] == codes[1:]
    assert s.grid[LABEL_INDEX[line[5]]] == -1


def test_a_cascade_stops_where_the_line_ends():
    # remove the top first: the x-edge line then ends at e1
    s = build(full(**{label(1, 0, 0): "pe"}))
    s.apply_text("take f1")
    s.apply_text(f"take {label(3, 0, 0)}")
    assert s.game.box.code[s.grid[INDEX[(3, 0, 0)]]] == "ga"
    assert s.game.box.code[s.grid[INDEX[(2, 0, 0)]]] == "pe"
    assert s.grid[INDEX[(1, 0, 0)]] == -1


def test_an_inner_cascade_moves_a_line_through_the_middle():
    # open everything above (1,1,2) except the line (1,1,1), (1,1,0) standing on its z face
    gone = [(0, 1, 2), (1, 0, 2), (0, 1, 1), (1, 0, 1), (0, 0, 2), (0, 0, 1), (0, 1, 0), (1, 0, 0), (0, 0, 0)]
    cells = {label(*q): "." for q in gone}
    cells.update({label(1, 1, 2): "ba", label(1, 1, 1): "pc", label(1, 1, 0): "oe"})
    s = build(full(**cells))
    p = INDEX[(1, 1, 2)]
    assert s.visible_faces(p) == 2 and p in s.legal_actions()
    s.apply_action(p)
    code = s.game.box.code
    assert code[s.grid[INDEX[(1, 1, 2)]]] == "pc" and code[s.grid[INDEX[(1, 1, 1)]]] == "oe"
    assert s.grid[INDEX[(1, 1, 0)]] == -1
    for q in range(NUM_BASE, NUM_POSITIONS):
        if s.grid[q] >= 0:
            assert all(s.grid[d] >= 0 for d in SUPPORTS[q])


# ---------------------------------------------------------------- scoring


def test_the_ankh_majority_collects_the_colour_from_the_tray():
    s = build(tray("ba"), collections=[["ba", "ba"], ["ba"]])
    assert s.is_terminal()
    assert s.scores() == (2.0 + 21, 1.0)
    assert s.outcome().winners == (0,)


def test_a_tie_for_most_ankhs_gives_the_tray_colour_to_nobody():
    s = build(tray("pc"), collections=[["pa", "ge"], ["pa"]])
    assert s.scores() == (4.0, 1.0)


def test_nobody_collects_a_colour_nobody_has_an_ankh_of():
    s = build(tray("oe"), collections=[["oc"], ["oc", "oc"]])
    assert s.scores() == (2.0, 4.0)  # cranes don't count for the majority


def test_a_cobra_in_the_tray_takes_its_edge_neighbours_out_of_play():
    # a cobra in the middle of the tray (1,1,3) has six neighbours
    middle = label(1, 1, 3)
    s = build(tray("ge", **{middle: "co"}), collections=[["ga"], []])
    assert s.tray_out() == sorted([INDEX[(1, 1, 3)], *TRAY_NEIGHBOURS[INDEX[(1, 1, 3)]]])
    assert s.scores() == (1.0 + 3 * (21 - 7), 0.0)


def test_a_cobra_in_a_corner_takes_two_neighbours():
    s = build(tray("ba", a1="co"), collections=[["ba"], []])
    assert labels(s.tray_out()) == ["a1", "a2", "a3"]
    assert s.scores() == (1.0 + 18, 0.0)


def test_equal_totals_share_the_win():
    s = build(tray("co"), players=3, collections=[["ge"], ["gc", "ga"], ["pa"]])
    assert s.scores() == (3.0, 3.0, 1.0)
    assert s.outcome().ranks == (1, 1, 3)
    assert s.outcome().winners == (0, 1)


def test_the_rulebook_scoring_example():
    """Three players: P1 most green, P2 most purple, P1 and P2 tie on orange, P3 most blue -> 18, 24, 20."""
    tray_cubes = "co ge pc ga ga ga gc pa pa pc pe oa oa oc oc oe ba ba ba bc bc"
    p1 = ["ga"] * 3 + ["pa"] + ["oa"] * 3 + ["ba", "gc", "be", "co"]
    p2 = ["ga"] + ["pa"] * 4 + ["oa"] * 3 + ["ba", "pc", "pc", "oc", "oc", "co"]
    p3 = ["ga", "pa"] + ["ba"] * 3 + ["gc", "gc", "bc", "bc", "co"]
    s = build("a: " + tray_cubes, players=3, collections=[p1, p2, p3])
    # every cube of the box is accounted for
    everything = s.grid[:NUM_BASE] + [k for p in range(3) for k, n in enumerate(s.collection(p)) for _ in range(n)]
    assert sorted(everything.count(k) for k in range(13)) == sorted(s.game.box.counts)
    assert s.is_terminal()
    assert s.colour_leaders() == [2, 1, None, 0]  # blue, purple, orange, green
    assert labels(s.tray_out()) == ["a1", "a2", "a3"]
    assert s.scores() == (18.0, 24.0, 20.0)
    assert s.outcome().winners == (1,)


# ---------------------------------------------------------------- texts, errors, records


def test_action_texts_parse_back():
    s = build(full())
    for a in s.legal_actions():
        assert s.action_from_text(s.action_to_text(a)) == a
    assert s.action_from_text("a1") == 0
    assert s.action_from_text("TAKE  F1") == 55
    assert s.action_from_text("(5,0,0)") == 0
    assert s.action_from_text("take 0, 0, 0") == 55


def test_bad_texts_say_what_is_wrong():
    s = build(full())
    with pytest.raises(ParseActionError, match="layer a has 21 places"):
        s.action_from_text("take a22")
    with pytest.raises(ParseActionError, match="x\\+y\\+z <= 5"):
        s.action_from_text("3,3,3")
    with pytest.raises(ParseActionError, match="not a place"):
        s.action_from_text("jump")
    with pytest.raises(ParseActionError):
        s.apply_action(56)


def test_chance_texts_are_cube_names():
    s = game().new_initial_state()
    assert s.action_to_text(0) == "blue ankh"
    assert s.action_from_text("cobra") == s.game.cobra
    assert s.action_from_text("ge") == s.game.box.kind("green eye")
    with pytest.raises(ParseActionError, match="not a cube"):
        s.action_from_text("red ankh")


def test_an_empty_place_cannot_be_taken():
    s = build(full(f1="."))
    with pytest.raises(IllegalActionError, match="no cube at f1"):
        s.apply_text("take f1")


def test_illegal_actions_leave_the_state_unchanged():
    s = build(full())
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        s.apply_action(INDEX[(1, 1, 1)])
    assert s.to_json() == before


def test_json_round_trip_mid_game_and_in_setup():
    g = game(4)
    s = g.new_initial_state()
    rng = random.Random(3)
    for _ in range(30):
        s.apply_action(s.sample_chance(rng))
    assert g.state_from_json(json.dumps(s.to_json())) == s
    for _ in range(26):
        s.apply_action(s.sample_chance(rng))
    for _ in range(10):
        s.apply_action(s.legal_actions()[0])
    t = g.state_from_json(json.dumps(s.to_json()))
    assert isinstance(t, PyramixState)
    assert t == s and t.legal_actions() == s.legal_actions() and t.cover == s.cover


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["pyramid"].__setitem__(0, None), "tray place a1 is empty"),
        (lambda d: d["pyramid"].__setitem__(3, "xx"), "not a cube code"),
        (lambda d: d["pyramid"].__setitem__(LABEL_INDEX["b5"], None), "does not rest on three cubes"),
        (lambda d: d.__setitem__("phase", "lunch"), "unknown Pyramix phase"),
        (lambda d: d.__setitem__("to_move", 7), "not a seat"),
        (lambda d: d["collections"][0].__setitem__("ba", -1), "has -1"),
        (lambda d: d["collections"].pop(), "one entry per player"),
        (lambda d: d.__setitem__("phase", "over"), "can still be taken"),
        (lambda d: d["box"].__setitem__("ba", 1), "out of the box"),
    ],
)
def test_corrupt_states_are_refused(change, message):
    s = build(full(f1="."))
    data = s.to_json()
    change(data["state"])
    with pytest.raises(RecordError, match=message):
        s.game.state_from_json(data)


def test_a_setup_state_must_be_filled_in_order():
    g = game()
    s = g.new_initial_state()
    s.apply_action(0)
    data = s.to_json()
    data["state"]["pyramid"][5] = "ba"
    with pytest.raises(RecordError, match="filled in order"):
        g.state_from_json(data)


def test_from_layout_text_form():
    s = PyramixState.from_layout(game(), "a: " + "ba " * 21 + "\nb: .. ge")
    assert s.grid[LABEL_INDEX["b2"]] == s.game.box.kind("ge")
    assert s.grid[LABEL_INDEX["b1"]] == -1
    with pytest.raises(RecordError, match="layer letter"):
        PyramixState.from_layout(game(), "z: ba")
    with pytest.raises(RecordError, match="too many entries"):
        PyramixState.from_layout(game(), "e: ba ba ba ba")


def test_the_view_shows_everything_a_player_needs():
    s = build(full(f1=".", e1="ge", e2=".", e3="."), collections=[["ba", "ba"], ["pa"]])
    v = s.view(1)
    e1 = LABEL_INDEX["e1"]
    assert v["pyramid"][e1]["cube"]["name"] == "green eye" and v["pyramid"][e1]["removable"]
    assert v["removable"] == labels(s.legal_actions())
    assert v["collections"][0]["ankhs"]["blue"] == 2
    assert v["leaders"] == {"blue": 0, "purple": 1, "orange": None, "green": None}
    json.dumps(v)


def test_a_box_of_ones_own(tmp_path):
    bad = tmp_path / "box.toml"
    bad.write_text(
        'majority = "ankh"\ncobras = 5\n[[colour]]\nname="red"\ncode="r"\n'
        '[[icon]]\nname="ankh"\ncode="a"\nper_colour=8\npoints=1\n'
    )
    with pytest.raises(ConfigError, match="holds 13 cubes"):
        game_with_box(str(bad))
    good = tmp_path / "good.toml"
    good.write_text(
        'majority = "ankh"\ncobras = 6\n[[colour]]\nname="red"\ncode="r"\n[[colour]]\nname="tan"\n'
        'code="t"\n[[icon]]\nname="ankh"\ncode="a"\nper_colour=25\npoints=1\n'
    )
    g = game_with_box(str(good))
    s = g.new_initial_state()
    random_playout(s, random.Random(4))
    assert s.is_terminal() and g.max_chance_outcomes == 3


def game_with_box(path: str):
    from ziggurat.core import make_game

    return make_game("pyramix", 2, {"box": path})
