"""The sheet as data: the shipped reconstruction and the checks on a user's sheet."""

from __future__ import annotations

from pathlib import Path

import pytest

from ziggurat.core.errors import ConfigError, ContentError
from ziggurat.games.kukulkan.sheet import load_sheet, parse_sheet

from .helpers import AXIS, BASE, A, B, C, D, game

SMALL = b"""
name = "small"
[[block]]
row = 0
span = [0, 2]
value = 3
[[block]]
row = 0
span = [2, 4]
value = 6
axis = true
[[block]]
row = 0
span = [4, 6]
value = 3
[[block]]
row = 1
span = [1, 2]
label = "C"
[[block]]
row = 1
span = [2, 4]
axis = true
[[block]]
row = 1
span = [4, 5]
label = "D"
[[block]]
row = 2
span = [1, 2]
label = "A"
[[block]]
row = 2
span = [2, 4]
axis = true
[[block]]
row = 2
span = [4, 5]
label = "B"
"""


def test_reconstruction_has_17_blocks_and_62_segments() -> None:
    sheet = load_sheet()
    assert len(sheet.blocks) == 17
    assert len(sheet.segments) == 62


def test_segments_are_the_unit_borders_of_every_outline_counted_once() -> None:
    # An independent count: every block's four sides cut into unit segments, shared borders once.
    sheet = load_sheet()
    units = set()
    for b in sheet.blocks:
        for x in range(b.left, b.right):
            units.add(("h", x, b.row))
            units.add(("h", x, b.row + 1))
        units.add(("v", b.left, b.row))
        units.add(("v", b.right, b.row))
    assert len(units) == 62 == len(sheet.segments)
    ground = [s for s in sheet.segments if s[1] == s[3] == 0]
    assert len(ground) == 10 and sheet.ground == tuple(range(10))  # the ground line is included, first


def test_rows_base_axis_and_labels_as_ruled() -> None:
    sheet = load_sheet()
    spans = {r: [(b.left, b.right) for b in sheet.blocks if b.row == r] for r in range(5)}
    assert spans == {
        0: [(0, 2), (2, 4), (4, 6), (6, 8), (8, 10)],
        1: [(1, 3), (3, 4), (4, 6), (6, 7), (7, 9)],
        2: [(2, 4), (4, 6), (6, 8)],
        3: [(3, 4), (4, 6), (6, 7)],
        4: [(4, 6)],
    }
    assert list(sheet.base) == BASE and [sheet.blocks[b].value for b in BASE] == [4, 5, 6, 5, 4]
    assert list(sheet.axis) == AXIS and all((sheet.blocks[b].left, sheet.blocks[b].right) == (4, 6) for b in AXIS)
    assert [sheet.label(x) for x in "ABCD"] == [A, B, C, D]
    assert (sheet.blocks[A].row, sheet.blocks[A].left) == (3, 3)
    assert (sheet.blocks[C].row, sheet.blocks[C].left) == (1, 3)
    assert (sheet.blocks[B].row, sheet.blocks[B].left) == (3, 6)
    assert (sheet.blocks[D].row, sheet.blocks[D].left) == (1, 6)


def test_supports_are_the_overlapping_blocks_of_the_row_below() -> None:
    sheet = load_sheet()
    assert sheet.supports[5] == (0, 1)  # [1,3] over [0,2] and [2,4]
    assert sheet.supports[C] == (1,)
    assert sheet.supports[D] == (3,)
    assert sheet.supports[9] == (3, 4)
    assert sheet.supports[10] == (5, C)
    assert sheet.supports[12] == (D, 9)
    assert sheet.supports[A] == (10,) and sheet.supports[B] == (12,) and sheet.supports[16] == (14,)


def test_external_blocks_touch_the_outline_ground_line_excluded() -> None:
    sheet = load_sheet()
    external = [b for b in range(17) if sheet.external[b]]
    # The inner base blocks touch the ground line only: not external.
    assert external == [0, 4, 5, 9, 10, 12, A, B, 16]
    assert not set(sheet.on_outline) & set(sheet.ground)


def _error(raw: bytes) -> str:
    with pytest.raises(ContentError) as info:
        parse_sheet(raw, "my.toml")
    return str(info.value)


def test_errors_name_the_file_the_block_and_the_field() -> None:
    msg = _error(SMALL.replace(b"value = 3\n[[block]]\nrow = 1", b"[[block]]\nrow = 1", 1))
    assert msg.startswith("my.toml") and "row 0" in msg and "'value'" in msg
    msg = _error(SMALL.replace(b'label = "B"', b'label = "E"'))
    assert "entry #9" in msg and "'label'" in msg
    msg = _error(SMALL.replace(b'label = "B"', b'label = "A"'))
    assert "label A" in msg and "found 2" in msg
    msg = _error(SMALL.replace(b'span = [4, 5]\nlabel = "B"', b'span = [3, 5]\nlabel = "B"'))
    assert "overlaps" in msg and "'span'" in msg
    msg = _error(SMALL.replace(b'span = [4, 5]\nlabel = "B"', b'span = [7, 8]\nlabel = "B"'))
    assert "rests on 0 blocks" in msg
    msg = _error(SMALL + b"segments = 3\n")
    assert "TOML" in msg or "segments" in msg
    msg = _error(b"segments = 99\n" + SMALL)
    assert "'segments'" in msg and "99" in msg
    msg = _error(SMALL.replace(b"axis = true\n", b"colour = 1\n", 1))
    assert "'colour'" in msg
    assert "not valid TOML" in _error(b"[[block]\n")
    assert "row 1 has no block" in _error(b"[[block]]\nrow = 0\nspan=[0,1]\nvalue=1\n[[block]]\nrow = 2\nspan=[0,1]\n")


def test_another_sheet_is_loaded_through_the_sheet_option(tmp_path: Path) -> None:
    path = tmp_path / "small.toml"
    path.write_bytes(SMALL)
    g = game(2, sheet=str(path))
    assert len(g.sheet.blocks) == 9
    assert g.num_actions == len(g.sheet.segments) + 2 * 9 + 13
    import random

    from ziggurat.core import random_playout

    st = random_playout(g.new_initial_state(), random.Random(4))
    assert st.is_terminal() and len(st.history) <= g.max_game_length


def test_a_bad_sheet_path_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        game(2, sheet=str(tmp_path / "missing.toml"))
    bad = tmp_path / "bad.toml"
    bad.write_bytes(SMALL.replace(b'label = "B"', b""))
    with pytest.raises(ConfigError, match=r"bad\.toml"):
        game(2, sheet=str(bad))
