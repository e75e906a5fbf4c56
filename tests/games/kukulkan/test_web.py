"""The web board: what each sheet shows, what stays hidden, and the click path of every kind of move."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from ziggurat.core import Match, make_game
from ziggurat.core.svg import board_keys, check_paths
from ziggurat.games.kukulkan import ENTRY
from ziggurat.games.kukulkan.rules import KukulkanState
from ziggurat.games.kukulkan.web import board

from .helpers import BASE, TOP, A, B, C, D, do, everything, game, outlines, position

NS = "{http://www.w3.org/2000/svg}"


def draw(state: KukulkanState, seat: int | None):
    legal = state.legal_action_texts(seat) if seat is not None and seat in state.players_to_move() else []
    b = board(state.view(seat), seat, legal)
    assert check_paths(b, [a for a, _ in legal]) == []
    assert set(b.paths) == {a for a, _ in legal}
    return b, ET.fromstring(b.svg), dict(legal)


def sheet(root: ET.Element, player: int) -> ET.Element:
    """The group of player ``player``'s sheet (0-based)."""
    found = [g for g in root.iter(f"{NS}g") if g.get("data-player") == str(player + 1)]
    assert len(found) == 1
    return found[0]


def block(panel: ET.Element, b: int) -> ET.Element:
    found = [g for g in panel.iter(f"{NS}g") if g.get("data-block") == str(b)]
    assert len(found) == 1
    return found[0]


def texts(el: ET.Element, cls: str | None = None) -> list[str]:
    return [t.text or "" for t in el.iter(f"{NS}text") if cls is None or cls in (t.get("class") or "").split()]


def seg_lines(panel: ET.Element, cls: str) -> set[int]:
    return {int(x.get("data-seg", "-1")) for x in panel.iter(f"{NS}line") if x.get("class") == cls}


def path_of(b, legal: dict[int, str], text: str) -> tuple[str, ...]:
    action = next(a for a, t in legal.items() if t == text)
    return b.paths[action]


def test_registered_with_the_game() -> None:
    assert ENTRY.board is board


def test_before_the_first_roll_every_audience_gets_a_board_without_moves() -> None:
    st = game(3).new_initial_state()
    for seat in (None, 0, 2):
        b, root, _ = draw(st, seat)
        assert b.paths == {}
        assert "Rolling the die…" in texts(root, "kk-status")
        assert len([g for g in root.iter(f"{NS}g") if g.get("data-player")]) == 3


def test_a_sheet_shows_drawn_and_dotted_segments_numbers_crosses_and_labels() -> None:
    g = game(2)
    drawn = outlines(g, 0, 1, 5, 6, 10)
    st = position(2, sheets=[{"drawn": drawn, "values": {5: 6, 6: 4, 10: 3}, "marked": [0, 5]}], g=g)
    _, root, _ = draw(st, None)
    mine, other = sheet(root, 0), sheet(root, 1)
    assert seg_lines(mine, "kk-drawn") == set(drawn)
    assert seg_lines(mine, "kk-dotted") == set(everything(g)) - set(drawn)
    assert seg_lines(other, "kk-dotted") == set(everything(g))
    # printed base numbers everywhere, written numbers only where written
    for b, v in zip(BASE, (4, 5, 6, 5, 4), strict=True):
        assert texts(block(other, b), "kk-value") == [str(v)]
    assert texts(block(mine, 6), "kk-value") == ["4"]
    assert texts(block(mine, 10), "kk-value") == ["3"]
    assert texts(block(mine, TOP), "kk-value") == []
    # crosses on marked blocks only
    crossed = {b for b in range(17) if any(x.get("class") == "kk-cross" for x in block(mine, b).iter(f"{NS}line"))}
    assert crossed == {0, 5}
    # the labels
    for letter, b in zip("ABCD", (A, B, C, D), strict=True):
        assert texts(block(mine, b), "kk-label") == [letter]
    assert sum(texts(block(mine, b), "kk-label") != [] for b in range(17)) == 4
    assert sheet(root, 0).find(f".//{NS}g[@class='kk-axis']") is not None


def test_start_of_a_round_segments_blocks_and_two_click_helps() -> None:
    g = game(1)
    st = position(1, die=6, g=g, sheets=[{"drawn": outlines(g, 0, 1, 5, 6, 10), "values": {5: 6, 6: 4}}])
    b, root, legal = draw(st, 0)
    assert path_of(b, legal, "draw s61") == ("seg:61",)
    assert path_of(b, legal, "write b10") == ("block:10",)
    assert path_of(b, legal, "mark b5") == ("block:5",)
    assert path_of(b, legal, "help super-six 3") == ("help:super", "value:3")
    assert path_of(b, legal, "help plus-one 5") == ("help:plus", "value:5")
    assert "help same-value" not in legal.values()
    assert texts(root, "kk-status") == ["Use the 6: draw 6 segments, write or mark"]
    # the value chips: ghosts, one per value some help leads to
    chips = {k for k in board_keys(b.svg) if k.startswith("value:")}
    assert chips == {"value:1", "value:2", "value:3", "value:4", "value:5"}
    for g_ in root.iter(f"{NS}g"):
        if (g_.get("data-key") or "").startswith("value:"):
            assert "zg-ghost" in (g_.get("class") or "").split()
    # a drawn segment has no key; a legal one has a wide diamond hit area
    assert "seg:0" not in board_keys(b.svg)
    seg61 = next(x for x in root.iter(f"{NS}g") if x.get("data-key") == "seg:61")
    assert seg61.find(f"{NS}polygon") is not None
    assert seg61.find(f"{NS}line[@class='zg-frame']") is not None
    assert block(sheet(root, 0), 10).get("data-key") == "block:10"
    assert block(sheet(root, 0), A).get("data-key") is None
    # same value: one click
    st = position(1, die=3, g=g, sheets=[{"drawn": outlines(g, 0, 1, 5, 6, 10, A), "values": {5: 6, 6: 4, 10: 3}}])
    b, root, legal = draw(st, 0)
    assert path_of(b, legal, "help same-value") == ("help:same",)
    assert path_of(b, legal, "mark b10") == ("block:10",)


def test_after_a_help_only_its_moves_remain_and_the_trail_is_drawn_in_progress() -> None:
    g = game(2)
    st = position(2, die=6, g=g)
    do(st, 0, "help super-six 2", "draw s0")
    b, root, _ = draw(st, 0)
    assert all(p[0].startswith("seg:") for p in b.paths.values())
    mine = sheet(root, 0)
    assert seg_lines(mine, "kk-pending") == {0}
    helps = {x.get("data-help"): x for x in mine.iter(f"{NS}g") if x.get("data-help")}
    assert not any(x.get("data-key") for x in helps.values())
    assert "1 more segment" in texts(root, "kk-status")[0]
    assert root.find(f".//{NS}g[@class='kk-your-value']").get("data-value") == "2"
    # the other seat sees nothing of it
    _, root1, _ = draw(st, 1)
    assert seg_lines(sheet(root1, 0), "kk-pending") == set()
    assert root1.find(f".//{NS}g[@class='kk-your-value']") is None


def test_the_permanent_plus_minus_one_is_clicked_on_its_own_icon() -> None:
    g = game(1)
    st = position(1, die=3, g=g, sheets=[{"drawn": outlines(g, *BASE), "marked": BASE, "bonuses": ["base"],
                                          "helps_used": ["plus-one"]}])  # fmt: skip
    b, root, legal = draw(st, 0)
    assert path_of(b, legal, "help plus-one 4") == ("help:plus", "value:4")
    holder = next(x for x in root.iter(f"{NS}g") if x.get("data-key") == "help:plus")
    assert holder.get("data-help") == "permanent"
    used = next(x for x in root.iter(f"{NS}g") if x.get("data-help") == "plus-one")
    assert used.get("data-used") == "yes"


def test_pass_is_a_button_when_nothing_else_fits() -> None:
    g = game(1)
    values = {b: 2 for b in range(5, 17)}
    st = position(1, die=1, g=g, sheets=[{"drawn": everything(g), "values": values,
                                          "helps_used": ["same-value", "plus-one", "super-six"]}])  # fmt: skip
    b, root, legal = draw(st, 0)
    assert list(legal.values()) == ["pass"]
    assert b.paths == {g.pass_id: ("pass",)}
    button = next(x for x in root.iter(f"{NS}g") if x.get("data-key") == "pass")
    assert texts(button) == ["Pass"]
    assert texts(root, "kk-status") == ["Nothing fits the 1: pass"]


def test_others_choices_stay_hidden_until_all_are_in() -> None:
    g = game(3)
    st = position(3, die=3, g=g, sheets=[{"drawn": outlines(g, 0, 5), "values": {}, "marked": []}])
    do(st, 0, "write b5")
    _, own, _ = draw(st, 0)
    assert texts(block(sheet(own, 0), 5), "kk-pending-value") == ["3"]
    assert "You are ready" in texts(own, "kk-status")[0]
    for seat in (None, 1):
        _, root, _ = draw(st, seat)
        assert texts(block(sheet(root, 0), 5), "kk-pending-value") == []
        assert texts(block(sheet(root, 0), 5), "kk-value") == []
        states = {x.get("data-state") for x in sheet(root, 0).iter(f"{NS}g") if x.get("class") == "kk-state"}
        assert states == {"ready"}
        states = {x.get("data-state") for x in sheet(root, 2).iter(f"{NS}g") if x.get("class") == "kk-state"}
        assert states == {"choosing"}
    # once everyone has chosen, the write is revealed and highlighted as last round's
    do(st, 1, "draw s0", "draw s1", "draw s2")
    do(st, 2, "draw s0", "draw s1", "draw s2")
    _, root, _ = draw(st, 1)
    assert texts(block(sheet(root, 0), 5), "kk-value") == ["3"]
    assert block(sheet(root, 0), 5).find(f"{NS}rect[@class='kk-last-block']") is not None
    assert seg_lines(sheet(root, 2), "kk-last-seg") == {0, 1, 2}


def test_bonus_badges_claimed_closed_and_open() -> None:
    g = game(2)
    marked = [A, C, *BASE]
    st = position(2, sheets=[{"drawn": everything(g), "values": {5: 6, C: 4, 10: 3, A: 1}, "marked": marked,
                              "bonuses": ["A-C", "base"]}], g=g)  # fmt: skip
    _, root, _ = draw(st, None)

    def badges(p: int) -> dict[str, str]:
        return {x.get("data-bonus", ""): x.get("data-state", "") for x in sheet(root, p).iter(f"{NS}g")
                if x.get("class") == "kk-bonus"}  # fmt: skip

    assert badges(0) == {"base": "claimed", "axis": "open", "full": "open", "A-C": "claimed", "B-D": "open"}
    assert badges(1) == {"base": "open", "axis": "open", "full": "open", "A-C": "closed", "B-D": "open"}
    a_c = next(x for x in sheet(root, 0).iter(f"{NS}g") if x.get("data-bonus") == "A-C")
    assert "+3" in texts(a_c)  # |C - A| = |4 - 1|
    fills = []
    for p in (0, 1):
        perm = next(x for x in sheet(root, p).iter(f"{NS}g") if x.get("data-help") == "permanent")
        fills.append(next(perm.iter(f"{NS}rect")).get("fill"))
    assert fills[0] != fills[1]  # the permanent ±1 is lit on the sheet that won the base bonus
    score = next(x for x in sheet(root, 0).iter(f"{NS}g") if x.get("class") == "kk-score")
    assert score.get("data-score") == str(len(marked) + 3)


def test_own_sheet_large_and_first_spectator_sheets_alike() -> None:
    st = position(4, die=2)

    def widths(root: ET.Element) -> list[tuple[str, float, float]]:
        out = []
        for g_ in root.iter(f"{NS}g"):
            if g_.get("class") == "kk-sheet":
                r = g_.find(f"{NS}rect")
                assert r is not None
                out.append((g_.get("data-player", ""), float(r.get("y", 0)), float(r.get("width", 0))))
        return out

    _, root, _ = draw(st, 2)
    w = widths(root)
    assert w[0][0] == "3" and w[0][2] > 1.5 * max(x[2] for x in w[1:])
    assert [x[0] for x in w] == ["3", "1", "2", "4"]
    _, root, _ = draw(st, None)
    assert len({x[2] for x in widths(root)}) == 1


def test_game_over_shows_ranks_and_no_die() -> None:
    match = Match(make_game("kukulkan", 2), seed=3)
    rng = random.Random(3)
    match.resolve_chance()
    while not match.state.is_terminal():
        for p in match.state.players_to_move():
            legal = match.state.legal_actions(p)
            match.state.apply_action(legal[rng.randrange(len(legal))], p)
        match.resolve_chance()
    st = match.state
    assert isinstance(st, KukulkanState)
    b, root, _ = draw(st, 0)
    assert b.paths == {}
    assert texts(root, "kk-status")[0].startswith("Game over")
    assert root.find(f".//{NS}g[@class='kk-die']") is None
    ranks = st.view(0)["ranks"]
    head = " ".join(texts(sheet(root, 0)))
    assert ("1st" if ranks[0] == 1 else "2nd") in head


@pytest.mark.parametrize("players", [1, 6])
def test_random_games_write_and_mark_never_share_a_block(players: int) -> None:
    """A block is writable (blank) or markable (numbered), never both: no move falls back to a button."""
    seen: set[str] = set()
    for seed in range(1, 9):
        _play_and_check(players, seed, seen)
        if {"draw", "write", "mark", "help"} <= seen:
            break
    assert {"draw", "write", "mark", "help"} <= seen


def _play_and_check(players: int, seed: int, seen: set[str]) -> None:
    match = Match(make_game("kukulkan", players), seed=seed)
    rng = random.Random(seed)
    match.resolve_chance()
    while not match.state.is_terminal():
        st = match.state
        for p in st.players_to_move():
            legal = st.legal_action_texts(p)
            blocks = [t.split()[1] for _, t in legal if t.split()[0] in ("write", "mark")]
            assert len(blocks) == len(set(blocks)), legal
            new = {t.split()[0] for _, t in legal} - seen
            if new or rng.random() < 0.2:
                b = board(st.view(p), p, legal)
                assert check_paths(b, [a for a, _ in legal]) == []
                assert not any(path[0].startswith("act:") for path in b.paths.values())
            seen |= new
        for p in st.players_to_move():
            legal = st.legal_action_texts(p)
            useful = [a for a, t in legal if t.split()[0] in ("write", "mark")] or [a for a, _ in legal]
            st.apply_action(useful[rng.randrange(len(useful))], p)
        match.resolve_chance()
