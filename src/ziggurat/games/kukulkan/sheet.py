"""Kukulkán's sheet as data: loading, validating and measuring a pyramid sheet (TOML).

The shipped sheet (``data/sheet.toml``) is a reconstruction; see its header.
A sheet lists blocks on a unit grid; everything else is computed from their
outlines: the unit border segments (shared borders once, the ground line
included), their end points, each block's supports and which blocks are
external. A user's own sheet has the same shape::

    name = "My pyramid"
    [[block]]
    row = 0
    span = [0, 2]
    value = 4          # base blocks only: the printed number
    [[block]]
    row = 1
    span = [1, 3]
    label = "C"        # A, B, C or D (each exactly once)
    axis = true        # one of the vertical axis blocks

>>> sheet = load_sheet()
>>> len(sheet.blocks), len(sheet.segments)
(17, 62)
>>> [sheet.blocks[b].value for b in sheet.base]
[4, 5, 6, 5, 4]
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ziggurat.core.content import parse_toml, read_content
from ziggurat.core.errors import ContentError

LABELS = ("A", "B", "C", "D")
MAX_VALUE = 6
# A sheet of one's own may be larger than the printed one (17 blocks, 62 segments), within bounds that
# keep setting a game up quick (its tables of trails grow with the square of the segments): the grid
# is at most MAX_WIDTH units wide and MAX_ROWS rows high, with at most MAX_BLOCKS blocks and MAX_SEGMENTS
# segments (the compiled kernel plays sheets of up to 63 of each; it says so for a larger one).
MAX_WIDTH = 64
MAX_ROWS = 32
MAX_BLOCKS = 256
MAX_SEGMENTS = 512
_FIELDS = ("row", "span", "value", "axis", "label")


@dataclass(frozen=True)
class Block:
    """One stone block: row (0 = base), horizontal span ``[left, right]``, printed value (0 if blank)."""

    row: int
    left: int
    right: int
    value: int = 0
    axis: bool = False
    label: str = ""

    @property
    def name(self) -> str:
        """``row 1 [3, 4]``."""
        return f"row {self.row} [{self.left}, {self.right}]"


@dataclass(frozen=True)
class Sheet:
    """A validated sheet with its geometry computed.

    Blocks are numbered bottom row first, left to right (``b0`` …); segments
    by height, the horizontal ones of a line first, then the vertical ones above
    it, left to right (``s0`` … — the ground line comes first).
    """

    source: str
    name: str
    blocks: tuple[Block, ...]
    segments: tuple[tuple[int, int, int, int], ...]  # x1, y1, x2, y2 (x1 <= x2, y1 <= y2)
    points: tuple[tuple[int, int], ...]
    seg_ends: tuple[tuple[int, int], ...]  # the two end points of each segment (point ids)
    point_segs: tuple[tuple[int, ...], ...]  # segments meeting at each point
    outline: tuple[tuple[int, ...], ...]  # segments of each block's outline
    supports: tuple[tuple[int, ...], ...]  # blocks each block rests on
    external: tuple[bool, ...]
    ground: tuple[int, ...]  # segments of the ground line
    on_outline: tuple[int, ...]  # segments on the pyramid's outline, ground line excluded

    @property
    def base(self) -> tuple[int, ...]:
        """Blocks of the base row (pre-numbered)."""
        return tuple(i for i, b in enumerate(self.blocks) if b.row == 0)

    @property
    def axis(self) -> tuple[int, ...]:
        """Blocks of the vertical axis."""
        return tuple(i for i, b in enumerate(self.blocks) if b.axis)

    def label(self, letter: str) -> int:
        """The block labelled ``letter`` (A, B, C or D)."""
        for i, b in enumerate(self.blocks):
            if b.label == letter:
                return i
        raise KeyError(letter)

    @property
    def width(self) -> int:
        """Rightmost x of the grid."""
        return max(p[0] for p in self.points)

    @property
    def height(self) -> int:
        """Topmost y of the grid."""
        return max(p[1] for p in self.points)

    def to_json(self) -> dict[str, Any]:
        """The geometry as JSON-ready data (for views and renderers)."""
        return {
            "name": self.name,
            "segments": [list(s) for s in self.segments],
            "blocks": [
                {
                    "id": i,
                    "row": b.row,
                    "span": [b.left, b.right],
                    "value": b.value or None,
                    "axis": b.axis,
                    "label": b.label or None,
                    "external": self.external[i],
                    "supports": list(self.supports[i]),
                }
                for i, b in enumerate(self.blocks)
            ],
        }


def load_sheet(path: str | Path | None = None) -> Sheet:
    """Load and check a sheet; the shipped reconstruction when ``path`` is None."""
    if path is None:
        return _default_sheet()
    return parse_sheet(*read_content("ziggurat.games.kukulkan", "sheet.toml", path, "sheet"))


@cache
def _default_sheet() -> Sheet:
    return parse_sheet(*read_content("ziggurat.games.kukulkan", "sheet.toml", None, "sheet"))


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_sheet(raw: bytes, source: str) -> Sheet:
    """Check a sheet given as TOML bytes; errors name the file, the block and the field."""
    data = parse_toml(raw, source)
    for key in data:
        if key not in ("name", "segments", "block"):
            raise ContentError(source, "is not a sheet field (name, segments, block)", field=key)
    name = data.get("name", "sheet")
    if not isinstance(name, str) or not name.strip():
        raise ContentError(source, "must be a non-empty text", field="name")
    entries = data.get("block")
    if not isinstance(entries, list) or not entries:
        raise ContentError(source, "needs [[block]] entries", field="block")
    if len(entries) > MAX_BLOCKS:
        raise ContentError(source, f"has {len(entries)} blocks; a sheet has at most {MAX_BLOCKS}", field="block")
    blocks: list[tuple[Block, str]] = []
    for n, entry in enumerate(entries, 1):
        where = f"#{n}"
        if not isinstance(entry, dict):
            raise ContentError(source, "is not a table", entry=where)
        if "row" in entry and "span" in entry:
            where = f"#{n} (row {entry['row']}, span {entry['span']})"
        for key in entry:
            if key not in _FIELDS:
                raise ContentError(source, f"is not a block field ({', '.join(_FIELDS)})", entry=where, field=key)
        row = entry.get("row")
        if not isinstance(row, int) or isinstance(row, bool) or not 0 <= row < MAX_ROWS:
            raise ContentError(source, f"must be a whole number from 0 (the base) to {MAX_ROWS - 1}", entry=where,
                               field="row")  # fmt: skip
        span = entry.get("span")
        if not (isinstance(span, list) and len(span) == 2 and all(_int(x) for x in span)) or not (
            0 <= span[0] < span[1] <= MAX_WIDTH
        ):
            raise ContentError(source, f"must be [left, right], whole numbers with 0 <= left < right <= {MAX_WIDTH}",
                               entry=where, field="span")  # fmt: skip
        value = entry.get("value", 0)
        if row == 0:
            if not _int(value) or not 1 <= value <= MAX_VALUE:
                raise ContentError(source, f"a base block needs its printed number, 1 to {MAX_VALUE}", entry=where,
                                   field="value")  # fmt: skip
        elif "value" in entry:
            raise ContentError(source, "only base blocks (row 0) are pre-numbered", entry=where, field="value")
        axis = entry.get("axis", False)
        if not isinstance(axis, bool):
            raise ContentError(source, "must be true or false", entry=where, field="axis")
        label = entry.get("label", "")
        if label != "" and label not in LABELS:
            raise ContentError(source, f"must be one of {', '.join(LABELS)}, not {label!r}", entry=where,
                               field="label")  # fmt: skip
        blocks.append((Block(row, span[0], span[1], value, axis, label), where))
    blocks.sort(key=lambda bw: (bw[0].row, bw[0].left))
    # rows: contiguous from 0, no overlap inside a row
    rows = sorted({b.row for b, _ in blocks})
    if rows != list(range(len(rows))):
        missing = min(set(range(max(rows) + 1)) - set(rows))
        raise ContentError(source, f"row {missing} has no block: rows must run from 0 (the base) upwards",
                           field="block")  # fmt: skip
    for (a, _), (b, wb) in itertools.pairwise(blocks):
        if a.row == b.row and b.left < a.right:
            raise ContentError(source, f"overlaps the block {a.name}", entry=wb, field="span")
    # labels and axis
    for letter in LABELS:
        holders = [w for b, w in blocks if b.label == letter]
        if len(holders) != 1:
            raise ContentError(source, f"label {letter} must be on exactly one block (found {len(holders)})",
                               field="label")  # fmt: skip
    if not any(b.axis for b, _ in blocks):
        raise ContentError(source, "no block is on the vertical axis (axis = true)", field="axis")
    # supports
    supports: list[tuple[int, ...]] = []
    for b, where in blocks:
        if b.row == 0:
            supports.append(())
            continue
        under = tuple(
            i for i, (c, _) in enumerate(blocks) if c.row == b.row - 1 and c.left < b.right and b.left < c.right
        )
        if not 1 <= len(under) <= 2:
            raise ContentError(source, f"rests on {len(under)} blocks of the row below; it must rest on one or two",
                               entry=where, field="span")  # fmt: skip
        supports.append(under)
    final = tuple(b for b, _ in blocks)
    sheet = _measure(source, name.strip(), final, tuple(supports))
    expected = data.get("segments")
    if expected is not None and (not _int(expected) or expected != len(sheet.segments)):
        raise ContentError(source, f"says {expected!r} segments, but the block outlines make {len(sheet.segments)}",
                           field="segments")  # fmt: skip
    return sheet


def _unit_outline(b: Block) -> list[tuple[int, int, int, int]]:
    """The unit segments of a block's outline."""
    segs = []
    for x in range(b.left, b.right):
        segs.append((x, b.row, x + 1, b.row))
        segs.append((x, b.row + 1, x + 1, b.row + 1))
    segs.append((b.left, b.row, b.left, b.row + 1))
    segs.append((b.right, b.row, b.right, b.row + 1))
    return segs


def _measure(source: str, name: str, blocks: tuple[Block, ...], supports: tuple[tuple[int, ...], ...]) -> Sheet:
    owners: dict[tuple[int, int, int, int], list[int]] = {}
    for i, b in enumerate(blocks):
        for s in _unit_outline(b):
            owners.setdefault(s, []).append(i)
    if len(owners) > MAX_SEGMENTS:
        raise ContentError(source, f"the block outlines make {len(owners)} segments; a sheet has at most "
                           f"{MAX_SEGMENTS}", field="block")  # fmt: skip

    def order(s: tuple[int, int, int, int]) -> tuple[int, int, int]:
        horizontal = s[1] == s[3]
        return (s[1], 0 if horizontal else 1, s[0])

    segments = tuple(sorted(owners, key=order))
    point_ids: dict[tuple[int, int], int] = {}
    for s in segments:
        for p in ((s[0], s[1]), (s[2], s[3])):
            point_ids.setdefault(p, len(point_ids))
    points = tuple(sorted(point_ids, key=lambda p: (p[1], p[0])))
    point_ids = {p: i for i, p in enumerate(points)}
    seg_ends = tuple((point_ids[(s[0], s[1])], point_ids[(s[2], s[3])]) for s in segments)
    point_segs = tuple(tuple(k for k, e in enumerate(seg_ends) if p in e) for p in range(len(points)))
    index = {s: k for k, s in enumerate(segments)}
    outline = tuple(tuple(sorted(index[s] for s in _unit_outline(b))) for b in blocks)
    ground_y = min(b.row for b in blocks)
    ground = tuple(k for k, s in enumerate(segments) if s[1] == s[3] == ground_y)
    # A segment with a block on one side only is on the pyramid's outline (blocks never overlap).
    on_outline = tuple(k for k, s in enumerate(segments) if len(owners[s]) == 1 and k not in ground)
    outer = set(on_outline)
    external = tuple(any(k in outer for k in outline[i]) for i in range(len(blocks)))
    return Sheet(source, name, blocks, segments, points, seg_ends, point_segs, outline, supports, external,
                 ground, on_outline)  # fmt: skip
