"""Pyramix's table for the web: the cube pyramid seen from above, and each player's collection.

Drawn from a view only (see :mod:`ziggurat.core.svg`). At the top, whose turn it
is (or the winners). Then the pyramid as the players see it, looking straight
down on it: it stands on its corner, so the top cube ``f1`` is nearest and every
cube turns a corner towards the eye. The view is isometric along the pyramid's
axis: place ``(x, y, z)`` is drawn at ``x·Ux + y·Uy + z·Uz`` with the three
screen directions 120° apart (``Ux`` straight down, so the tray corner ``a1`` is
the bottom corner of the triangle and ``f1`` sits in the middle). A cube shows
the upper faces that are visible (a face looks towards ``p - ei`` and shows when
that place is empty or off the pyramid), each a rhombus in the cube's colour,
shaded by its side (light on top, darker left and right) and carrying the icon
(ankh, crane, eye, cobra) laid flat on it. Cubes are painted from the tray up,
farthest first. As every cube above the tray rests on three cubes, the visible
faces never overlap: they tile the view (always 63 rhombi, 21 of each side), so
a cube hidden under others is simply not drawn and a cube showing one face is
drawn as that one face; the cubes the player may
take come last, only so that their highlight rings lie on top of their
neighbours. The tray is a plate under the pyramid.

Below the pyramid, the icons and their points, then one panel per player,
stacked: name, turn marker, points so far, cubes taken by colour and icon (a
star for the strict ankh leader of a colour, who would collect that colour's
tray cubes), cobras. Once the game is over, the tray shows the scoring: cubes
put out of play by a cobra are veiled and crossed, the others carry the number
of the player who collects them; each panel gives the final score as cubes
taken plus tray cubes collected, and the winners get a crown.

Keys (one click per move): ``take:<label>`` is a removable cube (the whole cube:
its visible faces), e.g. ``take:a3`` for ``take a3``. Only the legal removals of
the seat to move are clickable.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from ziggurat.core.i18n import ENGLISH, N_, Translator
from ziggurat.core.svg import Board, Svg, fit_size, fmt, text_width, token

__all__ = ["board"]

WIDTH = 640
MARGIN = 16.0
EDGE = 54.0  # a cube's edge, as drawn (the rhombus side)
HEADER_H = 46.0
TRAY_PAD = 12.0
LEGEND_H = 40.0
PANEL_X = 8.0
PANEL_H = 96.0
PANEL_GAP = 8.0

SQ3 = math.sqrt(3.0)
# Screen directions of +x, +y, +z (SVG y grows downwards); they add up to zero.
U: tuple[tuple[float, float], ...] = ((0.0, 1.0), (SQ3 / 2, -0.5), (-SQ3 / 2, -0.5))
# The pyramid's extent around the top cube's centre, in edges: rows of hexagons from -3.5 to 6.
TOP_EXTENT = 3.5
BOTTOM_EXTENT = 6.0

INK = "#2b2118"
MUTED = "#7a6a58"
PANEL = "#fffdf8"
PANEL_EDGE = "#d9cbb5"
TURN = "#e69a00"
TRAY = "#8b6a44"
TRAY_EDGE = "#5e4428"
GOLD = "#f2c230"
GLYPH = "#fffaf0"
COBRA = "#2a2a2e"
COBRA_GLYPH = "#f2c230"

COLOURS: dict[str, str] = {"blue": "#2f6fd0", "purple": "#8a4cc0", "orange": "#ee8a1a", "green": "#2f9e50"}
_PALETTE = ("#c0392b", "#16a0a0", "#b0457f", "#7d8a1e", "#5d6d7e", "#a0522d")
# the colours and icons of the rulebook's box as people read them (a box of one's own shows its own words)
COLOUR_NAMES = {"blue": N_("blue"), "purple": N_("purple"), "orange": N_("orange"), "green": N_("green")}
ICON_NAMES = {"ankh": N_("ankh"), "crane": N_("crane"), "eye": N_("eye"), "cobra": N_("cobra")}
ORDINALS = {1: N_("1st"), 2: N_("2nd"), 3: N_("3rd")}

# Face i looks towards p - e_i: its shade, and the axes that lay a glyph flat on it.
_SHADE = (0.32, 0.0, -0.25)  # > 0 towards white, < 0 towards black
_FACE_AXES: tuple[tuple[tuple[float, float], tuple[float, float]], ...] = (
    (U[1], (-U[2][0], -U[2][1])),  # the top rhombus
    ((-U[2][0], -U[2][1]), U[0]),  # the left rhombus
    (U[1], U[0]),  # the right rhombus
)

# Icons as strokes in a box of -50..50 (y down); "fill" parts are solid.
_GLYPHS: dict[str, tuple[str, str]] = {
    "ankh": ("M0 -4 C-20 -12 -15 -42 0 -42 C15 -42 20 -12 0 -4 Z M-26 0 H26 M0 -2 V42", ""),
    "crane": (
        "M10 -4 C18 -16 8 -28 16 -38 L36 -32 M-6 14 L-12 42 M4 14 L6 42",
        "M-38 2 C-22 -12 6 -12 14 -2 C8 16 -14 20 -38 2 Z M12 -42 A6 6 0 1 0 12.01 -42 Z",
    ),
    "eye": (
        "M-42 -4 C-20 -30 20 -30 42 -4 C20 18 -20 18 -42 -4 Z M-4 12 L-12 40 M8 12 C16 30 28 34 38 24",
        "M0 -16 A11 11 0 1 0 0.01 -16 Z",
    ),
    "cobra": (
        "M0 2 C-6 16 16 18 16 29 C16 42 -18 44 -36 34",
        "M0 -46 C18 -46 28 -24 17 -6 C11 4 -11 4 -17 -6 C-28 -24 -18 -46 0 -46 Z"
        " M-7 -31 a4 4 0 1 0 0.01 0 Z M7 -31 a4 4 0 1 0 0.01 0 Z",
    ),
}


# ------------------------------------------------------------------ helpers
def _mix(colour: str, amount: float) -> str:
    """``colour`` moved towards white (amount > 0) or black (amount < 0)."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    target = 255 if amount > 0 else 0
    a = abs(amount)
    return "#" + "".join(f"{round(c + (target - c) * a):02x}" for c in (r, g, b))


def _colour(name: str | None, colours: Sequence[str]) -> str:
    """Fill of a cube colour (the cobra: ``None``)."""
    if name is None:
        return COBRA
    if name in COLOURS:
        return COLOURS[name]
    return _PALETTE[list(colours).index(name) % len(_PALETTE)] if name in colours else _PALETTE[0]


def _glyph_colour(cube: Mapping[str, Any]) -> str:
    return COBRA_GLYPH if cube["colour"] is None else GLYPH


def _glyph(s: Svg, icon: str, cx: float, cy: float, ax: tuple[float, float], ay: tuple[float, float], ink: str) -> None:
    """The icon centred at (cx, cy), its x axis along ``ax`` and y axis along ``ay`` (per glyph unit)."""
    transform = f"matrix({fmt(ax[0])} {fmt(ax[1])} {fmt(ay[0])} {fmt(ay[1])} {fmt(cx)} {fmt(cy)})"
    if icon not in _GLYPHS:  # an icon of a box of one's own: its first letter
        s.text(
            0,
            17,
            icon[:1].upper(),
            transform=transform,
            font_size="50",
            font_weight="bold",
            text_anchor="middle",
            fill=ink,
        )
        return
    stroke, fill = _GLYPHS[icon]
    s.element(
        "path",
        d=stroke,
        transform=transform,
        fill="none",
        stroke=ink,
        stroke_width="8",
        stroke_linecap="round",
        stroke_linejoin="round",
    )
    if fill:
        s.element("path", d=fill, transform=transform, fill=ink, fill_rule="evenodd")


def _mini_cube(s: Svg, cube: Mapping[str, Any], cx: float, cy: float, size: float, colours: Sequence[str]) -> None:
    """A cube's face, flat, for legends and collections."""
    fill = _colour(cube["colour"], colours)
    h = size / 2
    s.rect(cx - h, cy - h, size, size, rx=f"{size * 0.18:.1f}", fill=fill, stroke=_mix(fill, -0.35), stroke_width=1)
    k = size / 120
    _glyph(s, str(cube["icon"]), cx, cy, (k, 0.0), (0.0, k), _glyph_colour(cube))


def _rank_words(n: int, tr: Translator) -> str:
    if n in ORDINALS:
        return tr.gettext(ORDINALS[n])
    return tr.gettext("{n}th").format(n=n)


def _colour_name(colour: str, tr: Translator) -> str:
    return tr.gettext(COLOUR_NAMES[colour]) if colour in COLOUR_NAMES else colour


def _icon_name(icon: str, tr: Translator) -> str:
    return tr.gettext(ICON_NAMES[icon]) if icon in ICON_NAMES else icon


def _seat(p: int, tr: Translator) -> str:
    # TRANSLATORS: a player as the board names them, short (P for player)
    return tr.gettext("P{n}").format(n=p + 1)


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


# ------------------------------------------------------------------ the pyramid
class _Pyramid:
    """Screen geometry of the pyramid: centres, faces and outlines of places."""

    def __init__(self, ox: float, oy: float):
        self.ox = ox
        self.oy = oy

    def centre(self, pos: Sequence[int]) -> tuple[float, float]:
        x, y, z = pos
        return (
            self.ox + EDGE * (x * U[0][0] + y * U[1][0] + z * U[2][0]),
            self.oy + EDGE * (x * U[0][1] + y * U[1][1] + z * U[2][1]),
        )

    @staticmethod
    def _at(c: tuple[float, float], *dirs: int) -> tuple[float, float]:
        """``c`` moved one edge along each of ``dirs`` (i: +Ui, ~i: -Ui)."""
        x, y = c
        for d in dirs:
            sign = -1.0 if d < 0 else 1.0
            u = U[~d if d < 0 else d]
            x += sign * EDGE * u[0]
            y += sign * EDGE * u[1]
        return (x, y)

    def face(self, pos: Sequence[int], i: int) -> list[tuple[float, float]]:
        """The rhombus of the face looking towards ``pos - e_i``."""
        c = self.centre(pos)
        j, k = (n for n in range(3) if n != i)
        return [c, self._at(c, j), self._at(c, j, k), self._at(c, k)]

    def hexagon(self, pos: Sequence[int], hidden: int | None = None) -> list[tuple[float, float]]:
        """The whole cube seen from above, corners going round.

        With ``hidden`` = i, the outline of the two other faces: the hexagon's corner
        at ``-Ui`` (the far corner of face i) is pulled in to the centre.
        """
        c = self.centre(pos)
        pulled = None if hidden is None else ~hidden
        return [c if d == pulled else self._at(c, d) for d in (0, ~2, 1, ~0, 2, ~1)]

    def outline(self, pos: Sequence[int], faces: Sequence[int]) -> list[tuple[float, float]]:
        """The outline of the visible ``faces`` of a cube (one, two or all three)."""
        if len(faces) == 1:
            return self.face(pos, faces[0])
        if len(faces) == 3:
            return self.hexagon(pos)
        (hidden,) = (i for i in range(3) if i not in faces)
        return self.hexagon(pos, hidden)


def _hull(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Convex hull (monotone chain), corners rounded to keep the drawing stable."""
    pts = sorted({(round(x, 3), round(y, 3)) for x, y in points})

    def cross(o: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[tuple[float, float]] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[tuple[float, float]] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def _cube_name(cube: Mapping[str, Any], tr: Translator) -> str:
    if cube["colour"] is None:
        return _icon_name(str(cube["icon"]), tr)
    return tr.gettext("{colour} {icon}").format(
        colour=_colour_name(str(cube["colour"]), tr), icon=_icon_name(str(cube["icon"]), tr)
    )


def _cube_words(entry: Mapping[str, Any], tr: Translator) -> str:
    cube = entry["cube"]
    pts = cube["points"]
    return tr.ngettext("{cube} at {place} ({n} point)", "{cube} at {place} ({n} points)", pts).format(
        cube=_cube_name(cube, tr), place=entry["label"], n=pts
    )


def _visible_faces(entry: Mapping[str, Any], occupied: set[tuple[int, ...]]) -> list[int]:
    pos = entry["pos"]
    out = []
    for i in range(3):
        above = list(pos)
        above[i] -= 1
        if above[i] < 0 or tuple(above) not in occupied:
            out.append(i)
    return out


def _cascade(
    entry: Mapping[str, Any],
    faces: Sequence[int],
    occupied: set[tuple[int, ...]],
    labels: Mapping[tuple[int, ...], str],
) -> list[str]:
    """Labels of the cubes that slide down when this cube (showing two faces) is taken."""
    if len(faces) != 2:
        return []
    (i,) = (n for n in range(3) if n not in faces)
    line: list[str] = []
    q = list(entry["pos"])
    while True:
        q[i] -= 1
        if q[i] < 0 or tuple(q) not in occupied:
            return line
        line.append(labels[tuple(q)])


def _draw_pyramid(
    s: Svg,
    view: Mapping[str, Any],
    geo: _Pyramid,
    takes: Mapping[str, int],
    paths: dict[int, tuple[str, ...]],
    tr: Translator,
    *,
    asks: bool = False,
) -> None:
    places = view["pyramid"]
    colours = view["colours"]
    occupied = {tuple(e["pos"]) for e in places if e["cube"] is not None}
    labels = {tuple(e["pos"]): str(e["label"]) for e in places}

    # the tray: a plate under the base places (the lowest layer)
    depth = max(sum(e["pos"]) for e in places)
    base = [e for e in places if sum(e["pos"]) == depth]
    hull = _hull([q for e in base for q in geo.hexagon(e["pos"])])
    s.polygon(hull, fill=TRAY, stroke=TRAY, stroke_width=f"{2 * TRAY_PAD:.0f}", stroke_linejoin="round")
    s.polygon(hull, fill=_mix(TRAY, -0.25), stroke=TRAY_EDGE, stroke_width=2, stroke_linejoin="round")

    over = view.get("phase") == "over"
    out = set(view.get("tray_out", [])) if over else set()
    leaders = view.get("leaders", {})

    # farthest first: the tray (x+y+z = 5) up to the top; the cubes that may be taken last of all
    order = sorted(
        (n for n, e in enumerate(places) if e["cube"] is not None),
        key=lambda n: (str(places[n]["label"]) in takes, -sum(places[n]["pos"]), n),
    )
    for n in order:
        entry = places[n]
        faces = _visible_faces(entry, occupied)
        if not faces:
            continue  # hidden under the cubes above: nothing of it can be seen
        label = str(entry["label"])
        action = takes.get(label)
        words = _cube_words(entry, tr)
        if action is not None:
            key = f"take:{label}"
            paths[action] = (key,)
            slide = _cascade(entry, faces, occupied, labels)
            if slide:
                tip = tr.ngettext(
                    "take {place}: the {cube}; {cubes} slides down",
                    "take {place}: the {cube}; {cubes} slide down",
                    len(slide),
                ).format(place=label, cube=words, cubes=tr.gettext(", ").join(slide))
            else:
                tip = tr.gettext("take {place}: the {cube}").format(place=label, cube=words)
        else:
            key = None
            tip = tr.gettext("{cube} (may be taken now)").format(cube=words) if entry.get("removable") else words
            tip = tip[:1].upper() + tip[1:]
        # a cube that cannot be taken now says which move it would be: the page asks the engine why not
        why = f"take {label}" if key is None and asks else None
        with s.group(data_key=key, cls="px-cube", data_place=label, data_why=why):
            s.tooltip(tip)
            _cube(s, geo, entry, faces, colours)
            shape = geo.outline(entry["pos"], faces)
            if over and sum(entry["pos"]) == depth:
                _tray_mark(s, entry, shape, out, leaders, tr)
            if key is not None:
                s.polygon(shape, fill="none", stroke=INK, stroke_width=7, stroke_linejoin="round", cls="zg-ghost")
                s.polygon(shape, fill="none", stroke="none", stroke_width=3, stroke_linejoin="round", cls="zg-frame")


def _cube(s: Svg, geo: _Pyramid, entry: Mapping[str, Any], faces: Sequence[int], colours: Sequence[str]) -> None:
    """The visible faces of one cube: shaded rhombi, each with the icon laid flat on it.

    Drawn once per look and place, then kept (:meth:`Svg.fragment`): the key holds everything the drawing
    reads (the pyramid's origin, the place, the cube's colour and icon, the faces seen, the game's colours).
    """
    cube = entry["cube"]
    key = ("pyramix-cube", geo.ox, geo.oy, tuple(entry["pos"]), cube["colour"], str(cube["icon"]))
    s.fragment((*key, tuple(faces), tuple(colours)), lambda f: _draw_cube(f, geo, entry, faces, colours))


def _draw_cube(s: Svg, geo: _Pyramid, entry: Mapping[str, Any], faces: Sequence[int], colours: Sequence[str]) -> None:
    cube = entry["cube"]
    fill = _colour(cube["colour"], colours)
    shade = 1.0 if cube["colour"] is not None else 0.6  # the dark cobra needs less shading to stay dark
    k = EDGE * 0.78 / 100
    for i in faces:
        rhombus = geo.face(entry["pos"], i)
        s.polygon(
            rhombus,
            fill=_mix(fill, _SHADE[i] * shade),
            stroke=_mix(fill, -0.45),
            stroke_width=1.2,
            stroke_linejoin="round",
            cls=f"px-face px-face-{'xyz'[i]}",
        )
        mx = (rhombus[0][0] + rhombus[2][0]) / 2
        my = (rhombus[0][1] + rhombus[2][1]) / 2
        ax, ay = _FACE_AXES[i]
        _glyph(s, str(cube["icon"]), mx, my, (ax[0] * k, ax[1] * k), (ay[0] * k, ay[1] * k), _glyph_colour(cube))


def _tray_mark(
    s: Svg,
    entry: Mapping[str, Any],
    shape: list[tuple[float, float]],
    out: set[str],
    leaders: Mapping[str, Any],
    tr: Translator,
) -> None:
    """At the end: a tray cube out of play (veiled, crossed) or collected (the collector's number)."""
    cube = entry["cube"]
    cx = sum(x for x, _ in shape) / len(shape)
    cy = sum(y for _, y in shape) / len(shape)
    if entry["label"] in out or cube["colour"] is None:
        s.polygon(shape, fill="#000", fill_opacity="0.55", stroke="none", cls="px-out")
        r = EDGE * 0.32
        s.line(cx - r, cy - r, cx + r, cy + r, stroke="#fff", stroke_width=5, stroke_linecap="round")
        s.line(cx - r, cy + r, cx + r, cy - r, stroke="#fff", stroke_width=5, stroke_linecap="round")
        return
    leader = leaders.get(cube["colour"])
    if leader is None:
        s.polygon(shape, fill="#fff", fill_opacity="0.45", stroke="none", cls="px-tie")
        return
    s.circle(cx, cy, EDGE * 0.3, fill="#fff", stroke=INK, stroke_width=2, cls="px-collect")
    s.text(
        cx,
        cy + EDGE * 0.11,
        _seat(leader, tr),
        font_size=f"{EDGE * 0.3:.0f}",
        font_weight="bold",
        text_anchor="middle",
        fill=INK,
    )


# ------------------------------------------------------------------ the rest of the table
def _header(
    s: Svg, view: Mapping[str, Any], player: int | None, legal: Sequence[tuple[int, str]], tr: Translator
) -> None:
    """Whose turn it is, the winners at the end, or the stacking during setup."""
    phase = view.get("phase")
    to_move = view.get("to_move")
    s.rect(MARGIN, 6, WIDTH - 2 * MARGIN, HEADER_H - 12, rx="8", fill=PANEL, stroke=PANEL_EDGE, stroke_width=1)
    y = HEADER_H / 2 + 7
    if phase == "setup":
        left = sum(view.get("box", {}).values())
        text = tr.gettext("Stacking the cubes: {n} still in the box").format(n=left)
        colour = MUTED
    elif phase == "over":
        scores = view.get("scores", [])
        ranks = view.get("ranks", [])
        winners = [p for p, r in enumerate(ranks) if r == 1]
        names = tr.gettext(" and ").join(_seat(p, tr) for p in winners)
        best = _num(scores[winners[0]]) if winners else "?"
        if len(winners) > 1:
            text = tr.gettext("Game over — {names} share the win with {n} points").format(names=names, n=best)
        else:
            text = tr.gettext("Game over — {name} wins with {n} points").format(name=names, n=best)
        colour = INK
    elif to_move is not None and to_move == player and legal:
        text = tr.gettext("Your turn: take a highlighted cube")
        colour = "#1f7a5a"
    elif to_move is not None and to_move == player:
        text = tr.gettext("Your seat is to move")
        colour = INK
    elif to_move is not None:
        text = tr.gettext("{name} to move").format(name=_seat(to_move, tr))
        colour = INK
    else:
        text = ""
        colour = INK
    s.text(WIDTH / 2, y, text, font_size="23", font_weight="bold", text_anchor="middle", fill=colour)


def _legend(s: Svg, view: Mapping[str, Any], y: float, tr: Translator) -> None:
    """The icons and their points (one of each, from the view's kinds); at the end, the tray's marks."""
    seen: dict[str, Mapping[str, Any]] = {}
    for kind in view.get("kinds", []):
        seen.setdefault(str(kind["icon"]), kind)
    items = list(seen.values())
    colours = view.get("colours", [])
    if items:
        step = (WIDTH - 2 * MARGIN) / len(items)
        for n, kind in enumerate(items):
            cx = MARGIN + step * n + 20
            cube = {"colour": kind["colour"], "icon": kind["icon"]}
            if kind["colour"] is not None and colours:
                cube["colour"] = colours[0]
            _mini_cube(s, cube, cx, y, 30, colours)
            pts = kind["points"]
            label = tr.gettext("{icon} {points}").format(icon=_icon_name(str(kind["icon"]), tr), points=pts)
            s.text(cx + 22, y + 7, label, font_size="20", font_weight="bold", fill=INK)
    if view.get("phase") == "over":
        y2 = y + LEGEND_H - 4
        x = MARGIN + 4
        s.circle(x + 13, y2, 13, fill="#fff", stroke=INK, stroke_width=2)
        s.text(x + 13, y2 + 5, _seat(0, tr), font_size="12", font_weight="bold", text_anchor="middle", fill=INK)
        # three marks and their words, each after the one before (the words' length depends on the language)
        words = [tr.gettext("collected (most ankhs)"), tr.gettext("tie: nobody"), tr.gettext("out (cobra)")]
        size = fit_size("   ".join(words), 17, WIDTH - 2 * MARGIN - 3 * 30 - 2 * 16, 12)
        s.text(x + 30, y2 + 6, words[0], font_size=fmt(size), fill=INK)
        x += 30 + text_width(words[0], size) + 16
        s.rect(x, y2 - 12, 24, 24, rx="4", fill=_mix(COLOURS["blue"], 0.55), stroke=MUTED, stroke_width=1)
        s.text(x + 30, y2 + 6, words[1], font_size=fmt(size), fill=INK)
        x += 30 + text_width(words[1], size) + 16
        s.rect(x, y2 - 12, 24, 24, rx="4", fill="#444", stroke=MUTED, stroke_width=1)
        s.text(x + 12, y2 + 6, "✕", font_size="17", font_weight="bold", text_anchor="middle", fill="#fff")
        s.text(x + 30, y2 + 6, words[2], font_size=fmt(size), fill=INK)


def _panel(s: Svg, view: Mapping[str, Any], p: int, player: int | None, y: float, tr: Translator) -> None:
    """One player's collection: counts by colour and icon, leader stars, points, turn and result."""
    coll = view["collections"][p]
    colours = view.get("colours", [])
    kinds = view.get("kinds", [])
    phase = view.get("phase")
    turn = phase == "play" and view.get("to_move") == p
    x0 = PANEL_X
    w = WIDTH - 2 * PANEL_X
    over = phase == "over" and bool(view.get("scores"))
    with s.group(cls="px-player", data_player=str(p + 1)):
        s.rect(
            x0,
            y,
            w,
            PANEL_H,
            rx="8",
            fill="#fff6df" if turn else PANEL,
            stroke=TURN if turn else PANEL_EDGE,
            stroke_width=3 if turn else 1.2,
        )
        tx = x0 + 12
        if turn:
            s.polygon([(tx, y + 13), (tx + 15, y + 22), (tx, y + 31)], fill=TURN)
            tx += 21
        if over and view["ranks"][p] == 1:
            _crown(s, tx + 14, y + 21)
            tx += 34
        name = tr.gettext("{name} (you)").format(name=_seat(p, tr)) if p == player else _seat(p, tr)
        s.text(tx, y + 30, name, font_size="23", font_weight="bold", fill=INK)
        tx += 14 * len(name) + 14
        taken = coll.get("taken", 0)
        points = coll.get("points", 0)
        if over:
            score = view["scores"][p]
            rank = view["ranks"][p]
            s.text(tx, y + 29, _rank_words(rank, tr), font_size="19", font_weight="bold", fill=MUTED)
            total = tr.gettext("{n} pts").format(n=_num(score))
            s.text(x0 + w - 12, y + 30, total, font_size="25", font_weight="bold", text_anchor="end", fill=INK)
            # how the score comes about, just left of it (never under it)
            detail = tr.gettext("{taken} taken + {tray} tray").format(taken=_num(points), tray=_num(score - points))
            right = x0 + w - 12 - text_width(total, 25, bold=True) - 14
            room = right - (tx + text_width(_rank_words(rank, tr), 19, bold=True) + 14)
            s.text(right, y + 29, detail, font_size=fmt(fit_size(detail, 19, room, 12)), text_anchor="end", fill=MUTED)
        else:
            s.text(tx, y + 29, tr.ngettext("{n} cube", "{n} cubes", taken).format(n=taken), font_size="19", fill=MUTED)
            pts = tr.gettext("{n} pts").format(n=points)
            s.text(x0 + w - 12, y + 30, pts, font_size="25", font_weight="bold", text_anchor="end", fill=INK)
        # the collection, colour by colour, then the cobras: it changes only when its player takes cubes or a
        # lead changes hands, so it is drawn once for what it shows, its place and language
        key = (
            "pyramix-collection",
            p,
            y,
            token(tr),
            orjson.dumps([coll.get("cubes", {}), coll.get("ankhs", {}), colours, kinds, view.get("leaders", {})]),
        )
        s.fragment(key, lambda f: _collection(f, view, p, x0, y, w, tr))


def _collection(s: Svg, view: Mapping[str, Any], p: int, x0: float, y: float, w: float, tr: Translator) -> None:
    """A player's cubes by colour and icon, the leader's stars, the cobras (the lower part of the panel)."""
    coll = view["collections"][p]
    cubes = coll.get("cubes", {})
    colours = view.get("colours", [])
    kinds = view.get("kinds", [])
    cobra_kinds = [k for k in kinds if k["colour"] is None]
    gap = 5.0
    cobra_w = 60.0 if cobra_kinds else 0.0
    n = max(len(colours), 1)
    block_w = (w - 12 - cobra_w - gap * (n - (0 if cobra_kinds else 1))) / n
    by = y + 42
    bh = 46.0
    bx = x0 + 6
    leaders = view.get("leaders", {})
    for colour in colours:
        fill = _colour(colour, colours)
        own = [k for k in kinds if k["colour"] == colour]
        lead = leaders.get(colour) == p
        with s.group(cls="px-colour", data_colour=colour):
            ankhs = coll.get("ankhs", {}).get(colour, 0)
            counts = tr.gettext(", ").join(
                tr.gettext("{n} {icon}").format(n=cubes.get(k["code"], 0), icon=_icon_name(str(k["icon"]), tr))
                for k in own
            )
            name = _colour_name(colour, tr)
            tip = tr.gettext("{name}, {colour}: {counts}").format(name=_seat(p, tr), colour=name, counts=counts)
            if lead:
                tip = tr.gettext(
                    "{line} — most {colour} ankhs ({n}): collects the {colour} cubes left in the tray"
                ).format(line=tip, colour=name, n=ankhs)
            s.tooltip(tip)
            s.rect(bx, by, block_w, bh, rx="6", fill=_mix(fill, 0.82), stroke=fill, stroke_width=2.5 if lead else 1)
            step = (block_w - 4) / max(len(own), 1)
            for m, kind in enumerate(own):
                count = cubes.get(kind["code"], 0)
                cx = bx + 2 + step * m + 14
                with s.group(opacity=None if count else "0.3"):
                    _mini_cube(s, kind, cx, by + bh / 2, 25, colours)
                    s.text(cx + 14, by + bh / 2 + 8, count, font_size="22", font_weight="bold", fill=INK)
            if lead:
                _star(s, bx + block_w - 3, by + 3, 11)
        bx += block_w + gap
    if cobra_kinds:
        count = sum(cubes.get(k["code"], 0) for k in cobra_kinds)
        with s.group(cls="px-colour", data_colour="cobra"):
            s.tooltip(
                tr.ngettext("{name}: {n} cobra (0 points)", "{name}: {n} cobras (0 points)", count).format(
                    name=_seat(p, tr), n=count
                )
            )
            s.rect(bx, by, cobra_w, bh, rx="6", fill="#e9e6df", stroke="#8a8580", stroke_width=1)
            with s.group(opacity=None if count else "0.3"):
                _mini_cube(s, cobra_kinds[0], bx + 19, by + bh / 2, 25, colours)
                s.text(bx + 34, by + bh / 2 + 8, count, font_size="22", font_weight="bold", fill=INK)


def _star(s: Svg, cx: float, cy: float, r: float) -> None:
    pts = []
    for n in range(10):
        a = -math.pi / 2 + n * math.pi / 5
        rr = r if n % 2 == 0 else r * 0.45
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    s.polygon(pts, fill=GOLD, stroke="#8a6400", stroke_width=1)


def _crown(s: Svg, cx: float, cy: float) -> None:
    x, y = cx, cy
    pts = [(x - 13, y + 9), (x - 15, y - 7), (x - 7, y), (x, y - 10), (x + 7, y), (x + 15, y - 7), (x + 13, y + 9)]
    s.polygon(pts, fill=GOLD, stroke="#8a6400", stroke_width=1.2, stroke_linejoin="round")


def _takes(legal: Sequence[tuple[int, str]]) -> dict[str, int]:
    """Legal removals by place label (``take a3`` -> ``{"a3": id}``)."""
    out = {}
    for action, text in legal:
        words = text.split()
        if len(words) == 2 and words[0] == "take":
            out[words[1]] = action
    return out


def board(
    view: Mapping[str, Any], player: int | None, legal: Sequence[tuple[int, str]], tr: Translator = ENGLISH
) -> Board:
    """Pyramix's table as SVG from ``view`` in the language of ``tr``; one click (``take:<label>``) per removal."""
    takes = _takes(legal)
    paths: dict[int, tuple[str, ...]] = {}
    pyramid_top = HEADER_H + TRAY_PAD + 6
    oy = pyramid_top + TOP_EXTENT * EDGE
    pyramid_bottom = oy + BOTTOM_EXTENT * EDGE + TRAY_PAD
    legend_y = pyramid_bottom + 10 + LEGEND_H / 2
    panels_y = pyramid_bottom + 10 + LEGEND_H * (2 if view.get("phase") == "over" else 1) + 6
    n = len(view.get("collections", []))
    height = panels_y + n * (PANEL_H + PANEL_GAP) + 4
    who = tr.gettext("spectator") if player is None else _seat(player, tr)
    s = Svg(
        WIDTH, round(height), title=tr.gettext("Pyramix — the cube pyramid seen from above ({who})").format(who=who)
    )
    _header(s, view, player, legal, tr)
    _draw_pyramid(s, view, _Pyramid(WIDTH / 2, oy), takes, paths, tr, asks=player is not None)
    _legend(s, view, legend_y, tr)
    for p in range(n):
        _panel(s, view, p, player, panels_y + p * (PANEL_H + PANEL_GAP), tr)
    return Board(svg=s.render(), paths=paths)
