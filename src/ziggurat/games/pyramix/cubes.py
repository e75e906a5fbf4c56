"""Pyramix's cubes as data: loading and validating a box (TOML).

The shipped box (``data/cubes.toml``) is the rulebook's: four colours, each with
8 ankhs, 4 cranes and 1 eye, plus 4 cobras. A box of one's own has the same shape::

    majority = "ankh"
    cobras = 4
    [[colour]]
    name = "blue"
    code = "b"
    [[icon]]
    name = "ankh"
    code = "a"
    per_colour = 8
    points = 1

Cube *kinds* are numbered colour by colour, icon by icon (blue ankh, blue crane,
blue eye, purple ankh, ...), the cobra last. A kind's *code* is its colour code
followed by its icon code (``ba`` is a blue ankh); the cobra's is ``co``.

>>> box = load_box()
>>> box.num_kinds, box.code[0], box.name[0], box.code[box.cobra], box.counts[box.cobra]
(13, 'ba', 'blue ankh', 'co', 4)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ziggurat.core.content import parse_toml, read_content
from ziggurat.core.errors import ContentError

PYRAMID_SIZE = 56
MAX_POINTS = 999
"""The most points an icon may be worth (the rulebook's are 1 to 3; the compiled kernel counts in 32 bits)."""
COBRA_CODE = "co"


@dataclass(frozen=True)
class Box:
    """A validated cube set; per-kind tables are tuples indexed by kind."""

    source: str
    colours: tuple[str, ...]
    icons: tuple[str, ...]
    majority_icon: int
    cobra: int  # the cobra's kind (the last one)
    code: tuple[str, ...]
    name: tuple[str, ...]
    colour_of: tuple[int, ...]  # -1 for the cobra
    icon_of: tuple[int, ...]  # -1 for the cobra
    points: tuple[int, ...]
    counts: tuple[int, ...]

    @property
    def num_kinds(self) -> int:
        """Number of cube kinds (colours x icons, plus the cobra)."""
        return len(self.code)

    def kind(self, text: str) -> int:
        """Kind named by a code (``ba``) or a name (``blue ankh``, ``cobra``); KeyError if none."""
        return self._lookup()[" ".join(text.lower().split())]

    def kind_of(self, colour: int, icon: int) -> int:
        """Kind of the cube of ``colour`` showing ``icon``."""
        return colour * len(self.icons) + icon

    @cache  # noqa: B019 - a box is immutable and lives as long as the program
    def _lookup(self) -> dict[str, int]:
        table = {c: k for k, c in enumerate(self.code)}
        table.update({n: k for k, n in enumerate(self.name)})
        return table


def load_box(path: str | Path | None = None) -> Box:
    """Load and check a box; the rulebook's when ``path`` is None."""
    if path is None:
        return _default_box()
    return parse_box(*read_content("ziggurat.games.pyramix", "cubes.toml", path, "cube list"))


@cache
def _default_box() -> Box:
    return parse_box(*read_content("ziggurat.games.pyramix", "cubes.toml", None, "cube list"))


def _entries(data: dict[str, Any], key: str, fields: tuple[str, ...], source: str) -> list[dict[str, Any]]:
    entries = data.get(key)
    if not isinstance(entries, list) or not entries:
        raise ContentError(source, f"needs [[{key}]] entries", field=key)
    for n, entry in enumerate(entries, 1):
        if not isinstance(entry, dict):
            raise ContentError(source, "is not a table", entry=f"{key} #{n}")
        for f in entry:
            if f not in fields:
                raise ContentError(source, f"is not a {key} field ({', '.join(fields)})", entry=f"{key} #{n}", field=f)
        for f in ("name", "code"):
            value = entry.get(f)
            if not isinstance(value, str) or not value.strip() or value != value.strip().lower() or " " in value:
                raise ContentError(source, "must be a lower-case word", entry=f"{key} #{n}", field=f)
    return entries


def _count(value: object, source: str, entry: str, field: str, top: int = PYRAMID_SIZE) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
        raise ContentError(source, f"must be a whole number from 0 to {top}", entry=entry, field=field)
    return value


def parse_box(raw: bytes, source: str) -> Box:
    """Check a box given as TOML bytes; errors name the file, entry and field."""
    data = parse_toml(raw, source)
    for key in data:
        if key not in ("majority", "cobras", "colour", "icon"):
            raise ContentError(source, "is not a box field (majority, cobras, colour, icon)", field=key)
    colours = _entries(data, "colour", ("name", "code"), source)
    icons = _entries(data, "icon", ("name", "code", "per_colour", "points"), source)
    for key, entries in (("colour", colours), ("icon", icons)):
        for f in ("name", "code"):
            values = [e[f] for e in entries]
            if len(set(values)) != len(values):
                raise ContentError(source, f"two {key}s share the {f} {_dup(values)!r}", field=f)
    cobras = _count(data.get("cobras"), source, "cobras", "cobras")
    majority = data.get("majority")
    icon_names = [i["name"] for i in icons]
    if majority not in icon_names:
        raise ContentError(source, f"must name one of the icons ({', '.join(icon_names)})", field="majority")
    if len(colours) * len(icons) > PYRAMID_SIZE:
        raise ContentError(
            source,
            f"{len(colours)} colours and {len(icons)} icons make {len(colours) * len(icons)} cube kinds; "
            f"the pyramid has {PYRAMID_SIZE} places",
        )
    codes, names, colour_of, icon_of, points, counts = [], [], [], [], [], []
    for ci, colour in enumerate(colours):
        for ii, icon in enumerate(icons):
            entry = f"icon #{ii + 1} ({icon['name']})"
            codes.append(colour["code"] + icon["code"])
            names.append(f"{colour['name']} {icon['name']}")
            colour_of.append(ci)
            icon_of.append(ii)
            points.append(_count(icon.get("points"), source, entry, "points", MAX_POINTS))
            counts.append(_count(icon.get("per_colour"), source, entry, "per_colour"))
    codes.append(COBRA_CODE)
    names.append("cobra")
    colour_of.append(-1)
    icon_of.append(-1)
    points.append(0)
    counts.append(cobras)
    if len(set(codes)) != len(codes):
        raise ContentError(source, f"two cube kinds share the code {_dup(codes)!r} (a colour code + an icon code)")
    if "cobra" in names[:-1]:
        raise ContentError(source, "'cobra' can't be the name of a coloured cube")
    if sum(counts) != PYRAMID_SIZE:
        raise ContentError(source, f"holds {sum(counts)} cubes; the pyramid has {PYRAMID_SIZE} places")
    return Box(
        source=source,
        colours=tuple(c["name"] for c in colours),
        icons=tuple(icon_names),
        majority_icon=icon_names.index(majority),
        cobra=len(codes) - 1,
        code=tuple(codes),
        name=tuple(names),
        colour_of=tuple(colour_of),
        icon_of=tuple(icon_of),
        points=tuple(points),
        counts=tuple(counts),
    )


def _dup(values: list[str]) -> str:
    seen: set[str] = set()
    for v in values:
        if v in seen:
            return v
        seen.add(v)
    return ""
