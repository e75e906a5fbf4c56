"""Pyramix's web board: the isometric pyramid, its clicks, the collections and the scoring marks."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections import Counter

from tests.games.pyramix.helpers import build, full, label, tray
from ziggurat.core import Match, get_game
from ziggurat.core.registry import make_game
from ziggurat.core.svg import board_keys, check_paths
from ziggurat.games.pyramix.geometry import INDEX, LABELS, NUM_POSITIONS, POSITIONS, TRAY_NEIGHBOURS, UP
from ziggurat.games.pyramix.rules import PyramixState
from ziggurat.games.pyramix.web import board

NS = "{http://www.w3.org/2000/svg}"


def draw(state: PyramixState, seat: int | None) -> tuple[ET.Element, dict[int, tuple[str, ...]], str]:
    legal = state.legal_action_texts(seat) if seat is not None and seat in state.players_to_move() else []
    b = board(state.view(seat), seat, legal)
    assert check_paths(b, [a for a, _ in legal]) == []
    return ET.fromstring(b.svg), dict(b.paths), b.svg


def cubes(root: ET.Element) -> list[ET.Element]:
    """Cube groups in drawing order."""
    return [g for g in root.iter(f"{NS}g") if "px-cube" in g.get("class", "").split()]


def faces(group: ET.Element) -> list[ET.Element]:
    return [p for p in group.iter(f"{NS}polygon") if "px-face" in p.get("class", "").split()]


def title(group: ET.Element) -> str:
    t = group.find(f"{NS}title")
    assert t is not None and t.text is not None
    return t.text


def visible(state: PyramixState, place: int) -> int:
    """Visible upper faces of the cube at ``place``, from the rules' tables."""
    return sum(1 for i in range(3) if UP[3 * place + i] < 0 or state.grid[UP[3 * place + i]] < 0)


def positions(players: int, seed: int):
    """Every state of a seeded random game after setup."""
    match = Match(make_game("pyramix", players), seed=seed)
    rng = random.Random(seed)
    match.resolve_chance()
    while True:
        state = match.state
        assert isinstance(state, PyramixState)
        yield state
        if state.is_terminal():
            return
        p = state.current_player()
        legal = state.legal_actions(p)
        state.apply_action(legal[rng.randrange(len(legal))], p)
        match.resolve_chance()


# ---------------------------------------------------------------- the pyramid


def test_board_is_registered():
    assert get_game("pyramix").board is board


def test_the_full_pyramid_shows_its_three_sides_and_hides_the_inner_cubes():
    state = build(full("ga"))
    root, _, _ = draw(state, None)
    drawn = {g.get("data-place"): len(faces(g)) for g in cubes(root)}
    # a cube of the full pyramid shows one face per coordinate that is 0 (that side of it is open)
    expected = {LABELS[p]: sum(1 for c in POSITIONS[p] if c == 0) for p in range(NUM_POSITIONS)}
    assert drawn == {lab: n for lab, n in expected.items() if n}
    assert drawn["f1"] == 3 and drawn[label(0, 1, 1)] == 1
    for inner in ("c5", "b5", "a8"):  # (1,1,1), ... : under others, not drawn at all
        assert inner not in drawn


def test_faces_tile_the_view_in_every_position_of_random_games():
    """The visible faces never overlap: 63 distinct rhombi, 21 of each side, whatever was taken."""
    for players, seed in ((2, 1), (4, 7)):
        for n, state in enumerate(positions(players, seed)):
            if n % 3:
                continue
            root, _, _ = draw(state, None)
            seen: set[str] = set()
            sides: Counter[str] = Counter()
            for group in cubes(root):
                place = INDEX[tuple(state.view(None)["pyramid"][LABELS.index(group.get("data-place", ""))]["pos"])]
                assert len(faces(group)) == visible(state, place) > 0
                for face in faces(group):
                    seen.add(face.get("points", ""))
                    sides[face.get("class", "").split()[-1]] += 1
            assert len(seen) == 63
            assert sides == {"px-face-x": 21, "px-face-y": 21, "px-face-z": 21}
            # cubes with no visible face are not drawn; every cube with one is
            drawn = {g.get("data-place") for g in cubes(root)}
            assert drawn == {LABELS[p] for p in range(NUM_POSITIONS) if state.grid[p] >= 0 and visible(state, p)}


def test_cubes_are_painted_from_the_tray_up():
    state = next(s for n, s in enumerate(positions(3, 2)) if n == 9)
    root, _, _ = draw(state, None)  # a spectator: nothing is clickable, so pure depth order
    layers = [LABELS.index(g.get("data-place", "")) for g in cubes(root)]
    depth = [-sum(POSITIONS[p]) for p in layers]
    assert depth == sorted(depth)
    # the mover's removable cubes come last (their highlight rings lie on top), each part in depth order
    seat = state.current_player()
    root, paths, _ = draw(state, seat)
    keyed = [g.get("data-key") is not None for g in cubes(root)]
    assert keyed == sorted(keyed)
    assert len(paths) == sum(keyed) == len(state.legal_actions(seat))
    for part in (False, True):
        depth = [
            -sum(POSITIONS[LABELS.index(g.get("data-place", ""))])
            for g, k in zip(cubes(root), keyed, strict=True)
            if k == part
        ]
        assert depth == sorted(depth)


# ---------------------------------------------------------------- clicks


def test_each_removal_is_one_click_on_its_cube():
    state = build(full("ga"))
    root, paths, svg = draw(state, 0)
    legal = dict(state.legal_action_texts(0))
    assert {paths[a] for a in legal} == {(f"take:{t.split()[1]}",) for t in legal.values()}
    for action, text in legal.items():
        lab = text.split()[1]
        (group,) = [g for g in cubes(root) if g.get("data-key") == f"take:{lab}"]
        assert paths[action] == (f"take:{lab}",)
        assert group.get("data-place") == lab
        frames = [p for p in group.iter(f"{NS}polygon") if p.get("class") == "zg-frame"]
        assert len(frames) == 1
        assert title(group).startswith(f"take {lab}: the green ankh at {lab}")
    # only the legal removals are keyed: the top, and the cubes showing two faces along the three edges
    assert board_keys(svg) == {f"take:{t.split()[1]}" for t in legal.values()}


def area(polygon: ET.Element) -> float:
    pts = [tuple(map(float, xy.split(","))) for xy in polygon.get("points", "").split()]
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1], strict=True))) / 2


def test_the_highlight_outline_goes_round_exactly_the_visible_faces():
    for n, state in enumerate(positions(3, 4)):
        if n % 4 or state.is_terminal():
            continue
        root, _, _ = draw(state, state.current_player())
        for group in cubes(root):
            if group.get("data-key") is None:
                continue
            (frame,) = [p for p in group.iter(f"{NS}polygon") if p.get("class") == "zg-frame"]
            shown = faces(group)
            assert len(shown) in (2, 3)
            assert abs(area(frame) - sum(area(f) for f in shown)) < 1.0
            assert len(frame.get("points", "").split()) == 6


def test_taking_a_cube_showing_two_faces_names_the_cascade():
    state = build(full("ga"))
    root, _, _ = draw(state, 0)
    (corner,) = [g for g in cubes(root) if g.get("data-key") == "take:a1"]
    line = [label(x, 0, 0) for x in (4, 3, 2, 1, 0)]
    assert title(corner).endswith(f"; {', '.join(line)} slide down")
    (top,) = [g for g in cubes(root) if g.get("data-key") == "take:f1"]
    assert "slide" not in title(top)


def test_spectators_and_waiting_players_get_no_clicks():
    state = build(full("ga"))
    for seat in (None, 1):
        root, paths, svg = draw(state, seat)
        assert paths == {} and board_keys(svg) == set()
        assert not [p for p in root.iter(f"{NS}polygon") if p.get("class") in ("zg-frame", "zg-ghost")]
    root, _, _ = draw(state, None)
    (top,) = [g for g in cubes(root) if g.get("data-place") == "f1"]
    assert title(top).endswith("(may be taken now)")


def test_the_board_is_the_same_for_the_same_view():
    state = build(full("ga", f1="co", a1="pe"))
    legal = state.legal_action_texts(0)
    assert board(state.view(0), 0, legal) == board(state.view(0), 0, legal)


# ---------------------------------------------------------------- collections and scoring


def texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter(f"{NS}text")]


def panels(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if g.get("class") == "px-player"]


def test_collections_show_counts_by_colour_and_icon_leaders_and_points():
    top_off = {lab: "." for lab in ("f1", "e1", "e2", "e3", "d1", "d2", "d3", "d4", "d5", "d6")}
    state = build(full("ga", **top_off), players=3, to_move=1, collections=[["ba", "ba", "bc", "pe"], ["ba", "co"], []])
    root, _, _ = draw(state, 1)
    p1, p2, p3 = panels(root)
    assert "P1" in texts(p1) and "P2 (you)" in texts(p2)
    assert "7 pts" in texts(p1) and "1 pts" in texts(p2) and "0 pts" in texts(p3)
    blocks = {g.get("data-colour"): g for g in p1.iter(f"{NS}g") if g.get("class") == "px-colour"}
    assert texts(blocks["blue"]) == ["2", "1", "0"]  # ankhs, cranes, eyes
    assert texts(blocks["purple"]) == ["0", "0", "1"]
    assert "most blue ankhs" in title(blocks["blue"])
    cobras = {g.get("data-colour"): g for g in p2.iter(f"{NS}g") if g.get("class") == "px-colour"}["cobra"]
    assert texts(cobras) == ["1"]
    # whose turn: the header and the marker of P2's panel
    assert "Your turn: take a highlighted cube" in texts(root)
    assert len(list(p2.iter(f"{NS}polygon"))) > len(list(p3.iter(f"{NS}polygon")))
    root, _, _ = draw(state, None)
    assert "P2 to move" in texts(root)


def test_game_over_marks_the_tray_cubes_and_the_final_scores():
    cobra = 4  # a5, inside the tray
    layout = tray("ga", a5="co", a1="ba", a21="pe")
    state = build(layout, players=2, collections=[["ga", "ga", "ba"], ["ga", "ba"]])
    assert state.is_terminal()
    root, paths, _ = draw(state, None)
    assert paths == {}
    out = {LABELS[cobra], *(LABELS[q] for q in TRAY_NEIGHBOURS[cobra])}
    assert set(state.view(None)["tray_out"]) == out
    for group in cubes(root):
        lab = group.get("data-place")
        marks = Counter(e.get("class") for e in group.iter() if e.get("class", "").startswith("px-"))
        words = texts(group)
        if lab in out:
            assert marks["px-out"] == 1 and words == []
        elif lab == "a1":  # blue: a tie (one ankh each), nobody collects it
            assert marks["px-tie"] == 1 and words == []
        elif lab == "a21":  # purple: nobody has a purple ankh
            assert marks["px-tie"] == 1
        else:  # green: P1 has the most green ankhs
            assert words == ["P1"]
    scores = state.view(None)["scores"]
    assert "Game over — P1 wins with " + str(int(scores[0])) + " points" in texts(root)
    p1, p2 = panels(root)
    assert f"{int(scores[0])} pts" in texts(p1)
    assert f"3 taken + {int(scores[0]) - 3} tray" in texts(p1)
    assert "2nd" in texts(p2) and "2 taken + 0 tray" in texts(p2)
