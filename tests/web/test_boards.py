"""Every game's web board, checked the same way on random positions.

For each registered game, player count and audience: the board is well-formed
SVG, drawn the same twice, and every legal action of a seat to move has a click
path whose keys are on the board, with no path the start of another.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from ziggurat.core import Match, game_ids, get_game, make_game
from ziggurat.core.errors import IllegalActionError
from ziggurat.core.i18n import ENGLISH
from ziggurat.core.svg import check_paths

GAMES = [g for g in game_ids() if get_game(g).board is not None]


def positions(game_id: str, players: int, seed: int, every: int):
    """States along one random game, every ``every`` decisions, the last one too."""
    match = Match(make_game(game_id, players), seed=seed)
    rng = random.Random(seed)
    match.resolve_chance()
    n = 0
    while not match.state.is_terminal():
        if n % every == 0:
            yield match.state
        for p in match.state.players_to_move():
            legal = match.state.legal_actions(p)
            match.state.apply_action(legal[rng.randrange(len(legal))], p)
            n += 1
        match.resolve_chance()
    yield match.state


def cases():
    for gid in GAMES:
        spec = get_game(gid).game_class.spec
        counts = sorted({spec.min_players, min(spec.min_players + 1, spec.max_players), spec.max_players})
        for players in counts:
            yield pytest.param(gid, players, id=f"{gid}-{players}p")


@pytest.mark.parametrize(("game_id", "players"), list(cases()))
def test_board_on_random_positions(game_id: str, players: int) -> None:
    entry = get_game(game_id)
    assert entry.board is not None
    for seed in (1, 2):
        for state in positions(game_id, players, seed, every=7):
            to_move = state.players_to_move()
            for seat in [None, *range(players)]:
                legal = state.legal_action_texts(seat) if seat is not None and seat in to_move else []
                view = state.view(seat)
                board = entry.board(view, seat, legal)
                root = ET.fromstring(board.svg)
                assert root.tag == "{http://www.w3.org/2000/svg}svg"
                assert entry.board(view, seat, legal) == board, "the same view must draw the same board"
                ids = [a for a, _ in legal]
                assert check_paths(board, ids) == [], (game_id, seat)
                missing = [t for a, t in legal if a not in board.paths]
                assert not missing, f"{game_id}: no click path for {missing}"


def test_a_board_drawn_from_kept_fragments_is_the_board_drawn_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """Parts a board keeps between drawings (``Svg.fragment``: K'uh Nah's bricks, Nakum's effects and face-up
    tiles, Pyramix's cubes, Kukulkán's pyramids) come out byte for byte as drawn afresh: every game and player
    count one after the other (one store of fragments for all, as in a server), every audience, two
    languages, compared in reverse order."""
    from ziggurat.core import svg
    from ziggurat.web import i18n

    monkeypatch.setattr(svg, "_fragments", {})
    languages = [i18n.translator("en"), i18n.translator("es")]
    drawn: list[tuple[Any, ...]] = []
    keeping: set[str] = set()
    for param in cases():
        game_id, players = param.values
        entry = get_game(str(game_id))
        assert entry.board is not None
        before = len(svg._fragments)
        for state in positions(str(game_id), int(players), 3, every=7):
            to_move = state.players_to_move()
            for seat in [None, *range(int(players))]:
                legal = state.legal_action_texts(seat) if seat is not None and seat in to_move else []
                view = state.view(seat)
                for tr in languages:
                    drawn.append((entry, view, seat, legal, tr, entry.board(view, seat, legal, tr=tr)))
        if len(svg._fragments) > before:
            keeping.add(str(game_id))
    assert {"kuhnah", "nakum", "pyramix", "kukulkan"} <= keeping, "a board keeps no fragment: nothing compared"
    monkeypatch.setattr(svg, "KEEP_FRAGMENTS", False)
    for entry, view, seat, legal, tr, board in reversed(drawn):
        assert entry.board(view, seat, legal, tr=tr) == board, (entry.game_class.spec.id, seat)


@pytest.mark.parametrize("game_id", GAMES)
def test_kept_fragments_follow_every_move(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Boards drawn after every decision of a game, for each seat and the spectators (in Spanish), as a server
    draws them: a part kept from an earlier move is reused only where it looks the same now (a panel's turn
    marker, a leader's star, the final scores), compared with the same boards drawn afresh."""
    from ziggurat.core import svg
    from ziggurat.web import i18n

    monkeypatch.setattr(svg, "_fragments", {})
    tr = i18n.translator("es")
    entry = get_game(game_id)
    counts = entry.game_class.spec.player_counts
    players = 2 if 2 in counts else min(counts)
    drawn: list[tuple[Any, ...]] = []
    for state in positions(game_id, players, 5, every=1):
        to_move = state.players_to_move() if not state.is_terminal() else ()
        for seat in [None, *range(players)]:
            legal = state.legal_action_texts(seat) if seat is not None and seat in to_move else []
            view = state.view(seat)
            drawn.append((view, seat, legal, entry.board(view, seat, legal, tr=tr)))
    monkeypatch.setattr(svg, "KEEP_FRAGMENTS", False)
    for view, seat, legal, board in drawn:
        assert entry.board(view, seat, legal, tr=tr) == board, (game_id, seat)


def test_a_kept_pyramix_panel_follows_the_leaders(monkeypatch: pytest.MonkeyPatch) -> None:
    """A player's panel kept from an earlier drawing is not reused once another player leads a colour (its
    star goes), though the panel's own collection did not change (the view is made here)."""
    from ziggurat.core import svg

    monkeypatch.setattr(svg, "_fragments", {})
    entry = get_game("pyramix")
    view = next(iter(positions("pyramix", 2, 5, every=1))).view(None)
    colour = next(iter(view["leaders"]))
    led = [{**view, "leaders": {**view["leaders"], colour: p}} for p in (0, 1)]
    first, second = (entry.board(v, None, []) for v in led)
    monkeypatch.setattr(svg, "KEEP_FRAGMENTS", False)
    assert (first, second) == (entry.board(led[0], None, []), entry.board(led[1], None, []))
    assert first != second


def test_a_kept_lucent_gem_follows_the_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Wildcard gem kept from an English board is not reused on a Spanish one: its letter is "W", then "C"
    (and a gem of another set of kinds gets its own colour)."""
    from ziggurat.core import svg
    from ziggurat.games.lucent import web
    from ziggurat.web import i18n

    monkeypatch.setattr(svg, "_fragments", {})
    kinds = ["red", "blue", "yellow", "green", "purple", "wildcard", "geomancer"]
    spare = ["amber", "onyx"]  # kinds of a content file: their colours go by their place in the list
    cases = [("wildcard", kinds, "en"), ("wildcard", kinds, "es"), ("amber", spare, "en"), ("amber", spare[::-1], "en")]

    def draw(kind: str, ks: list[str], lang: str) -> str:
        s = svg.Svg(100, 100)
        web._gem(s, kind, ks, 50, 50, 20, i18n.translator(lang))
        return s.render()

    kept = [draw(*case) for case in cases]
    monkeypatch.setattr(svg, "KEEP_FRAGMENTS", False)
    assert kept == [draw(*case) for case in cases]
    assert len(set(kept)) == len(kept)


def test_a_kept_nakum_tile_follows_the_camp_in_use(monkeypatch: pytest.MonkeyPatch) -> None:
    """A face-up tile kept from an earlier drawing is not reused once its camp is the one in use (framed red),
    even when nothing else on the tile changed (random games never meet that, so the view is made here)."""
    from ziggurat.core import svg

    monkeypatch.setattr(svg, "_fragments", {})
    entry = get_game("nakum")
    view, tile = next(
        (v, t["tile"]) for v in (p.view(None) for p in positions("nakum", 2, 3, every=7)) for t in v["tiles"]
        if "basics" in t and v.get("camp_in_use") is None
    )  # fmt: skip
    in_use = {**view, "camp_in_use": tile}
    entry.board(view, None, [])
    kept = entry.board(in_use, None, [])
    monkeypatch.setattr(svg, "KEEP_FRAGMENTS", False)
    assert kept == entry.board(in_use, None, []) != entry.board(view, None, [])


NAKUM_PANEL_THINGS = [
    "final score", "place", "score so far", "phase", "you", "asked to choose", "family card", "points per resource"
]  # fmt: skip


def _nakum_panel_case(thing: str) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """Two Nakum boards' ``(view, player, legal, tr, standing)`` that differ only in ``thing``, one of the things a
    player's panel shows beyond the player's own line of the view."""
    views = [state.view(None) for state in positions("nakum", 2, 3, every=1)]  # the state moves on: views now
    playing = next(v for v in views if v["phase"] != "heritage" and "scores" not in v)
    heritage = next(v for v in views if v["phase"] == "heritage" and not v["players_info"][1]["has_chosen"])
    end = views[-1]
    scores, ranks = list(end["scores"]), list(end["ranks"])

    def seen(view: dict[str, Any], **change: Any) -> tuple[Any, ...]:
        return ({**view, **change}, None, [], ENGLISH, None)

    cases = {
        "final score": (seen(end), seen(end, scores=[scores[0] + 1, *scores[1:]])),
        "place": (seen(end), seen(end, ranks=ranks[::-1])),
        "score so far": ((playing, None, [], ENGLISH, [3.0, 5.0]), (playing, None, [], ENGLISH, [4.0, 5.0])),
        "phase": (seen(heritage), seen(heritage, phase="dawn")),
        "you": (seen(playing), seen(playing, player=1)),
        "asked to choose": ((heritage, 1, [], ENGLISH, None), (heritage, 1, [(0, "choose 1")], ENGLISH, None)),
        "family card": (seen(playing), seen(playing, limits={r: n + 1 for r, n in playing["limits"].items()})),
        "points per resource": (
            seen(playing),
            seen(playing, per_point={r: n + 1 for r, n in playing["per_point"].items()}),
        ),
    }
    return cases[thing]


@pytest.mark.parametrize("thing", NAKUM_PANEL_THINGS)
def test_a_kept_nakum_panel_follows_what_it_shows(thing: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A player's panel kept from an earlier drawing is not reused once something it shows from outside the
    player's own line of the view changed: the final score or place, the score so far, the heritage phase's
    labels, "(you)", the label asking the viewer to choose, the family card's limits or the points a resource
    is worth (the views are made here: random games change several at once)."""
    from ziggurat.core import svg
    from ziggurat.games.nakum.web import board

    monkeypatch.setattr(svg, "_fragments", {})
    before, after = _nakum_panel_case(thing)
    board(*before)
    kept = board(*after)
    monkeypatch.setattr(svg, "KEEP_FRAGMENTS", False)
    assert kept == board(*after) != board(*before)


# what a board says to invite its viewer to move (in English)
INVITES = re.compile(
    r"Your turn|from your hand|You (?:place|choose|buy|make|play|reveal|remove|are placing)|Use the |Draw on|"
    r"Now use your|Nothing fits|Same value"
)


@pytest.mark.parametrize(("game_id", "players"), list(cases()))
def test_a_board_invites_a_move_only_with_legal_actions(game_id: str, players: int) -> None:
    """A seat the view names as the one to move, with no legal action handed to the board (the table waits for
    its players, a bot plays the seat), is never told "Your turn"; with its actions, it is."""
    entry = get_game(game_id)
    invited = 0
    for state in positions(game_id, players, seed=3, every=5):
        for seat in state.players_to_move():
            view = state.view(seat)
            idle = entry.board(view, seat, [])
            assert not INVITES.search(" ".join(board_texts(idle.svg))), (game_id, seat)
            asked = entry.board(view, seat, state.legal_action_texts(seat))
            invited += bool(INVITES.search(" ".join(board_texts(asked.svg))))
    assert invited, "the same boards with their legal actions invite a move (the test can fail)"


def board_texts(svg: str) -> list[str]:
    """Every text of a drawn board (its <text> and <title> elements)."""
    root = ET.fromstring(svg)
    return ["".join(e.itertext()) for e in root.iter() if e.tag.endswith(("}text", "}title"))]


def test_nakums_star_counts_every_point_so_far() -> None:
    """After an 18-point offering the star said 3 (the tokens): it shows the standing the page hands it."""
    from ziggurat.games.nakum.web import board as nakum_board

    state = next(positions("nakum", 2, seed=4, every=1))
    view = state.view(0)
    tokens = view["players_info"][0]["points"]
    with_standing = nakum_board(view, 0, [], standing=[21.0, float(tokens)])
    star = re.search(r'<g class="zg-points"><title>([^<]*)</title>.*?<text[^>]*>([^<]*)</text>', with_standing.svg)
    assert star is not None and star.group(2) == "21" and "21 points so far" in star.group(1)
    alone = nakum_board(view, 0, [])
    star = re.search(r'<g class="zg-points"><title>([^<]*)</title>.*?<text[^>]*>([^<]*)</text>', alone.svg)
    assert star is not None and star.group(2) == str(tokens)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_part_that_is_no_move_names_a_move_the_engine_refuses_with_a_reason(game_id: str) -> None:
    """Every ``data-why`` on a seat's board is the text of one of its moves that is illegal now: the page asks the
    engine why not, so the text must parse and be refused with the rulebook's reason (never a legal move, never
    a text the game cannot read). Every game offers such parts: a player can ask about the board, not only a list."""
    entry = get_game(game_id)
    spec = get_game(game_id).game_class.spec
    asked = 0
    for seed in (1, 2):
        for state in positions(game_id, spec.min_players, seed, every=3):
            for seat in state.players_to_move():
                board = entry.board(state.view(seat), seat, state.legal_action_texts(seat))
                for text in re.findall(r'data-why="([^"]*)"', board.svg):
                    with pytest.raises(IllegalActionError) as refused:
                        state.action_from_text(text, seat)
                    assert refused.value.message is not None and refused.value.message.text, (game_id, text)
                    asked += 1
    assert asked > 0, f"{game_id}: no part of the board ever says why it is no move"
