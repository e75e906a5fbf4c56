"""Content of one's own with more (or fewer) symbols than the shipped files: refused at load, or played through.

A K'uh Nah card list with seven animals used to load, then fail in the
observation tensors (an IndexError): the encoding knew six symbols. Here every
game gets content files drawn with counts around and beyond what it ships:
animals, colours and icons, cube kinds, gem colours and counts, card lists,
sheet sizes, values. Each must either be refused when the game is set up (a
ConfigError naming the file), or play on everywhere: the engine, every view,
the adapters' tensors (sized from the content, values in bounds), the text and
web drawings, and the compiled kernel, which either says it cannot play the
setup (a clear ZigguratError) or plays it move for move as the engine does.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from tests.fuzz.test_loaders import play_on
from tests.fuzz.toml_out import dumps
from ziggurat.core import ZigguratError, get_game, make_game
from ziggurat.core.game import Game
from ziggurat.games.kuhnah.cards import DECK_SIZE, MAX_ANIMALS, MAX_VALUE
from ziggurat.games.kukulkan.sheet import MAX_ROWS, MAX_WIDTH
from ziggurat.games.lucent.deck import MAX_COLOURS
from ziggurat.games.pyramix.cubes import MAX_POINTS, PYRAMID_SIZE

WORDS = [f"{a}{b}" for a in "bcdfghklmnprstvz" for b in "aeiou"]  # lower-case names, none reserved


@st.composite
def kuhnah_cards(draw: st.DrawFn) -> dict[str, Any]:
    count = draw(st.sampled_from([1, 2, 5, 6, 7, 9, 16, MAX_ANIMALS, MAX_ANIMALS + 1]))
    animals = [f"animal{i}" for i in range(count)]
    cards = [
        {
            "id": f"c{i}",
            "value": draw(st.integers(0, MAX_VALUE)) if draw(st.booleans()) else 6 + i // 2,
            "left": draw(st.sampled_from(animals)),
            "right": draw(st.sampled_from(animals)),
        }
        for i in range(DECK_SIZE)
    ]
    if draw(st.integers(0, 5)) == 5:  # now and then a card too heavy to count
        cards[draw(st.integers(0, DECK_SIZE - 1))]["value"] = draw(st.sampled_from([MAX_VALUE + 1, 2**31, 2**62]))
    doc: dict[str, Any] = {"animals": animals, "card": cards}
    if draw(st.booleans()):
        doc["wild"] = draw(st.sampled_from(animals))
    return doc


@st.composite
def pyramix_box(draw: st.DrawFn) -> dict[str, Any]:
    colours = draw(st.integers(1, 16))
    icons = draw(st.integers(1, 5))
    share = max(1, PYRAMID_SIZE // (colours * icons))  # per colour and icon, to fill the pyramid about
    per_colour = [draw(st.integers(0, share)) for _ in range(icons)]
    coloured = colours * sum(per_colour)
    fill = coloured <= PYRAMID_SIZE and draw(st.integers(0, 5)) < 5  # now and then a box of the wrong size
    cobras = PYRAMID_SIZE - coloured if fill else draw(st.integers(0, 9))
    points = st.integers(0, MAX_POINTS) if draw(st.integers(0, 5)) < 5 else st.just(MAX_POINTS + 1)
    return {
        "majority": "i0",
        "cobras": cobras,
        "colour": [{"name": f"colour{c}", "code": WORDS[c]} for c in range(colours)],
        "icon": [
            {"name": f"i{i}", "code": f"x{i}", "per_colour": n, "points": draw(points)}
            for i, n in enumerate(per_colour)
        ],
    }


@st.composite
def lucent_deck(draw: st.DrawFn) -> dict[str, Any]:
    colours = [f"colour{chr(97 + i)}" for i in range(draw(st.integers(1, MAX_COLOURS + 1)))]
    count = st.integers(0, 99) if draw(st.integers(0, 5)) < 5 else st.sampled_from([0, 99, 100])
    return {
        "colours": colours,
        "wildcards": draw(count),
        "geomancers": draw(count),
        "gems": {c: 1 + draw(count) % 99 for c in colours}
        if draw(st.booleans())
        else {c: draw(count) for c in colours},
    }


@st.composite
def kukulkan_sheet(draw: st.DrawFn) -> dict[str, Any]:
    """A stepped pyramid: base blocks of a width, each row one block fewer, half a block in."""
    width = draw(st.integers(1, 4))
    base = draw(st.integers(2, 12) | st.just(MAX_WIDTH // width + 1))
    rows = min(base, draw(st.integers(2, 12) | st.just(MAX_ROWS + 1)))
    blocks = []
    for row in range(rows):
        left = row * width // 2 if width > 1 else 0
        for i in range(base - row if width > 1 else base):
            block: dict[str, Any] = {"row": row, "span": [left + i * width, left + (i + 1) * width]}
            if row == 0:
                block["value"] = draw(st.integers(1, 6))
            blocks.append(block)
    for letter, block in zip("ABCD", blocks[-4:], strict=False):
        block["label"] = letter
    blocks[-1]["axis"] = True
    return {"name": "a sheet of one's own", "block": blocks}


@st.composite
def nakum_cards(draw: st.DrawFn, kind: str) -> dict[str, Any]:
    n = draw(st.sampled_from([1, 2, 3, 9, 40, 300]))
    if kind == "offerings":
        return {
            "offering": [
                {"id": f"o{i}", "name": f"O{i}", "cost": {"maize": i % 4}, "points": 1 + i % 50, "sacrifice": i % 3}
                for i in range(n)
            ]
        }
    return {
        "card": [
            {"id": f"c{i}", "name": f"C{i}", "gain": {"maize": 1 + i % 3, "points": i % 5}, "free_camp": i % 7 == 0}
            | ({} if kind == "heritage" else {"cost": {"skins": i % 2}})
            for i in range(n)
        ]
    }


CASES: list[tuple[str, str, st.SearchStrategy[dict[str, Any]]]] = [
    ("kuhnah", "deck", kuhnah_cards()),
    ("pyramix", "box", pyramix_box()),
    ("lucent", "deck", lucent_deck()),
    ("kukulkan", "sheet", kukulkan_sheet()),
    ("nakum", "market", nakum_cards("market")),
    ("nakum", "offerings", nakum_cards("offerings")),
    ("nakum", "heritage", nakum_cards("heritage")),
]


def _kernel_agrees_or_refuses(game: Game, option: str, path: Path) -> None:
    pytest.importorskip("numba")
    from tests.fast.helpers import replay_many
    from ziggurat.fast import kernel_for

    try:
        kernel_for(game)
    except ZigguratError as exc:
        assert "can't play" in str(exc)
        return
    replay_many(game.spec.id, game.num_players, {option: str(path)}, games=3)


def _refused_or_played(game_id: str, option: str, doc: dict[str, Any], players: int, seed: int, folder: Path) -> bool:
    """True if the content is refused when the game is set up; False once it has played everywhere."""
    path = folder / f"{option}.toml"
    path.write_text(dumps(doc), encoding="utf-8")
    try:
        game = make_game(game_id, players, {option: str(path)})
    except ZigguratError as exc:
        assert str(path) in str(exc), f"the error must name the file: {exc}"
        return True
    state = game.new_initial_state()
    play_on(state, seed, steps=40)
    entry = get_game(game_id)
    console = Console(file=io.StringIO(), width=160)
    for p in [None, 0]:
        view = state.view(p)
        console.print(entry.render(view, p))  # type: ignore[misc]
        if entry.board is not None:
            legal = state.legal_action_texts(p) if p is not None and p in state.players_to_move() else []
            entry.board(view, p, legal)
    _kernel_agrees_or_refuses(game, option, path)
    return False


@pytest.mark.parametrize(("game_id", "option", "content"), CASES, ids=[f"{g}-{o}" for g, o, _ in CASES])
@settings(max_examples=12)
@given(data=st.data())
def test_content_of_any_size_is_refused_at_load_or_played_everywhere(
    game_id: str, option: str, content: st.SearchStrategy[dict[str, Any]], data: st.DataObject,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:  # fmt: skip
    players = data.draw(st.sampled_from(get_game(game_id).game_class.spec.player_counts))
    seed = data.draw(st.integers(0, 10**6))
    _refused_or_played(game_id, option, data.draw(content), players, seed, tmp_path_factory.mktemp("content"))


def _kuhnah(animals: int, value: int) -> dict[str, Any]:
    names = [f"animal{i}" for i in range(animals)]
    cards = [
        {"id": f"c{i}", "value": 6 + i // 2, "left": names[2 * i % animals], "right": names[(2 * i + 1) % animals]}
        for i in range(DECK_SIZE)
    ]
    cards[7]["value"] = value
    return {"animals": names, "wild": names[-1], "card": cards}


def _pyramix(colours: int, icons: int, points: int) -> dict[str, Any]:
    per = PYRAMID_SIZE // (colours * icons)
    return {
        "majority": "i0",
        "cobras": PYRAMID_SIZE - per * colours * icons,
        "colour": [{"name": f"colour{c}", "code": WORDS[c]} for c in range(colours)],
        "icon": [{"name": f"i{i}", "code": f"x{i}", "per_colour": per, "points": points} for i in range(icons)],
    }


def _sheet(width: int, rows: int, block: int = 1) -> dict[str, Any]:
    """A rectangle of blocks ``block`` units wide, ``width`` units across and ``rows`` high."""
    blocks: list[dict[str, Any]] = [
        {"row": r, "span": [x, x + block], **({"value": 1 + x % 6} if r == 0 else {})}
        for r in range(rows)
        for x in range(0, width - block + 1, block)
    ]
    for letter, b in zip("ABCD", blocks[-4:], strict=True):
        b["label"] = letter
    blocks[-1]["axis"] = True
    return {"name": "edge", "block": blocks}


EDGES: list[tuple[str, str, dict[str, Any], bool]] = [
    ("kuhnah", "deck", _kuhnah(7, MAX_VALUE), False),
    ("kuhnah", "deck", _kuhnah(7, MAX_VALUE + 1), True),
    ("kuhnah", "deck", _kuhnah(MAX_ANIMALS, 6), False),
    ("kuhnah", "deck", _kuhnah(MAX_ANIMALS + 1, 6), True),
    ("pyramix", "box", _pyramix(14, 4, MAX_POINTS), False),  # 56 kinds, one cube each
    ("pyramix", "box", _pyramix(19, 3, 1), True),  # 57 kinds
    ("pyramix", "box", _pyramix(4, 3, MAX_POINTS + 1), True),
    ("lucent", "deck", {"colours": [f"c{chr(97 + i)}" for i in range(MAX_COLOURS)], "wildcards": 99,
                        "geomancers": 99, "gems": {f"c{chr(97 + i)}": 99 for i in range(MAX_COLOURS)}}, False),
    ("lucent", "deck", {"colours": [f"c{chr(97 + i)}" for i in range(MAX_COLOURS + 1)],
                        "gems": {f"c{chr(97 + i)}": 9 for i in range(MAX_COLOURS + 1)}}, True),
    ("kukulkan", "sheet", _sheet(MAX_WIDTH, 3, block=4), False),
    ("kukulkan", "sheet", _sheet(MAX_WIDTH + 1, 2), True),
    ("kukulkan", "sheet", _sheet(4, MAX_ROWS, block=2), False),
    ("kukulkan", "sheet", _sheet(4, MAX_ROWS + 1, block=2), True),
    ("kukulkan", "sheet", _sheet(MAX_WIDTH, 5), True),  # 320 blocks
    ("kukulkan", "sheet", _sheet(40, 6, block=1), True),  # 240 blocks, but 526 segments
]  # fmt: skip


@pytest.mark.parametrize(("game_id", "option", "doc", "refused"), EDGES)
def test_content_at_each_limit_plays_everywhere_and_one_beyond_is_refused(
    game_id: str, option: str, doc: dict[str, Any], refused: bool, tmp_path: Path
) -> None:
    players = get_game(game_id).game_class.spec.min_players
    assert _refused_or_played(game_id, option, doc, max(players, 2), 3, tmp_path) == refused


def test_seven_animals_encode_as_the_issue_asks(tmp_path: Path) -> None:
    """The issue's case: a card list with seven animals plays, and its tensors have a place for each."""
    from ziggurat.interop.encoding import encode_view, tensor_size

    shipped = make_game("kuhnah", 2)
    animals = [*WORDS[:6], "jaguar"]
    cards = [
        {"id": f"c{i}", "value": 6 + i // 2, "left": animals[i % 7], "right": animals[(i + 3) % 7]}
        for i in range(DECK_SIZE)
    ]
    path = tmp_path / "seven.toml"
    path.write_text(dumps({"animals": animals, "wild": "jaguar", "card": cards}))
    game = make_game("kuhnah", 2, {"deck": str(path)})
    # two more animals: two more places in each symbol one-hot (left and right) of the three cards shown
    assert tensor_size(game) == tensor_size(shipped) + 3 * 2 * 2
    state = game.new_initial_state()
    play_on(state, 7, steps=200)
    assert len(encode_view(game, state.view(0))) == tensor_size(game)
