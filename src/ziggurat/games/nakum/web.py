"""Nakum's web board: the jungle around the pyramid, drawn as SVG from a view.

What is drawn (top to bottom, 640 units wide so it stays readable on a phone):

- a status line: round, Day / Night / setup, whose turn and what they are choosing,
  and a ``pass`` button when passing is the move;
- the table: the pyramid tile in the centre of a 3x3 grid (the pyramid space for
  two workers, with the workers on it, and the two active offerings: cost,
  sacrifice, points) and the 8 jungle positions around it, clockwise from the top
  left. A face-down position is a tile back (with its explorer, if any); a face-up
  tile shows its basic spaces (effect as icons, worker slots, workers in player
  colours), its camp (the worker spot, locked while no basic space of the tile is
  taken) and the camp options, covered by a black cube once used;
- Pituk (with his two once-per-game favours), the start-player space (with the
  token in the start player's colour) and the grow-the-clan space;
- the market: the five face-up cards (cost, gain, free-a-camp, end points);
- one panel per player: point tokens (final score at the end), maize, skins and
  masks against the family card's limits, workers (in hand, out on the board, in
  the reserve, sacrificed), heritage cards (the viewer's own hand face up, the
  others as card backs; during setup only "still choosing" / "ready"), and the
  offerings made, market cards kept and heritage cards played.

Keys (one click per move; a choice that follows a placement is its own move):

==========================  =================================================
``basic:<tile>:<n>``        basic space n of a tile (``place <tile> basic n``)
``camp:<tile>``             a tile's camp spot (``place <tile> camp``)
``opt:<tile>:<n>``          camp option n (``camp <tile> n``; ``free <tile> n``)
``tile:<n>``                face-down position n (``explore n``; ``reveal n``)
``pyramid`` ``pituk``       the central spaces (``place pyramid`` ...)
``start`` ``grow``
``favour:<name>``           Pituk's favour tokens (``pituk market|offerings``)
``market:<id>``             a face-up market card (``buy <id>``)
``offering:<id>``           an active offering (``offer <id>``)
``hand:<id>``               a heritage card in the viewer's hand (``heritage <id>``)
``pass``                    the pass button
==========================  =================================================
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from ziggurat.core.i18n import ENGLISH, N_, Translator
from ziggurat.core.svg import Board, Svg, fit_size, fmt, text_width, token, wrap

__all__ = ["board", "path_of"]

W = 640
MARGIN = 8
GAP = 6
TILE_W = 204
TILE_H = 160
GRID_Y = 44
STRIP_Y = GRID_Y + 3 * TILE_H + 2 * GAP + 6
STRIP_H = 66
MARKET_Y = STRIP_Y + STRIP_H + 8
CARD_W = 120
CARD_H = 100
PLAYERS_Y = MARKET_Y + 22 + CARD_H + 10
PANEL_W = (W - 2 * MARGIN - GAP) // 2
PANEL_H = 118

PLAYER_COLOURS = ("#c62828", "#1e63b8", "#7b3fa0", "#e07b00")
PLAYER_LIGHT = ("#fbe3e1", "#e0ebf8", "#efe3f6", "#fdebd3")
INK = "#2b2118"
MUTED = "#7a6a58"
PAPER = "#fbf7ea"
SPACE_LINE = "#8a7a5a"
JUNGLE = "#dde7c4"
JUNGLE_DARK = "#3d6a2c"
STONE = "#e6d8b8"
STONE_DARK = "#8a6d3b"

RESOURCES = ("maize", "skins", "masks")
RES_COLOUR = {"maize": "#f2c12e", "skins": "#a0622d", "masks": "#2e8b6a"}

# jungle positions 1..8 clockwise around the pyramid: (column, row) in the 3x3 grid
GRID = ((0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2), (0, 1))

# what the player to move is doing, said of someone else and said to the viewer
PHASE_TEXT = {
    "reveal": (N_("{name} reveals a face-down tile"), N_("You reveal a face-down tile")),
    "day": (N_("{name} places a worker"), N_("You place a worker")),
    "camp": (N_("{name} chooses a camp option"), N_("You choose a camp option")),
    "buy": (N_("{name} buys a market card"), N_("You buy a market card")),
    "offer": (N_("{name} makes an offering"), N_("You make an offering")),
    "play": (N_("{name} plays a heritage card"), N_("You play a heritage card")),
    "favour": (N_("{name} chooses Pituk's favour"), N_("You choose Pituk's favour")),
    "free": (N_("{name} removes a black cube"), N_("You remove a black cube")),
}

_UNITS = {
    "maize": "maize",
    "skin": "skins",
    "skins": "skins",
    "mask": "masks",
    "masks": "masks",
    "point": "points",
    "points": "points",
}

Item = tuple[int, str]  # (amount, kind): kind is a resource, "points", "market", "heritage", "free", "sacrifice"


# ------------------------------------------------------------------ actions
_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"place (\w+) basic(?: (\d+))?"), "basic"),
    (re.compile(r"place (pyramid|pituk|start|grow)"), "central"),
    (re.compile(r"place (\w+) camp"), "camp"),
    (re.compile(r"(?:camp|free) (\w+) (\d+)"), "opt"),
    (re.compile(r"(?:explore|reveal) (\d+)"), "tile"),
    (re.compile(r"buy (\w+)"), "market"),
    (re.compile(r"offer (\w+)"), "offering"),
    (re.compile(r"heritage (\w+)"), "hand"),
    (re.compile(r"pituk (\w+)"), "favour"),
)


def path_of(text: str) -> tuple[str, ...]:
    """The click path of an action text (empty if the text is not a Nakum move).

    >>> path_of("place maizal basic 2"), path_of("camp rio 1"), path_of("explore 4")
    (('basic:maizal:2',), ('opt:rio:1',), ('tile:4',))
    """
    if text == "pass":
        return ("pass",)
    for pattern, kind in _PATTERNS:
        m = pattern.fullmatch(text)
        if not m:
            continue
        if kind == "basic":
            return (f"basic:{m.group(1)}:{m.group(2) or 1}",)
        if kind == "central":
            return (m.group(1),)
        if kind == "camp":
            return (f"camp:{m.group(1)}",)
        if kind == "opt":
            return (f"opt:{m.group(1)}:{m.group(2)}",)
        return (f"{kind}:{m.group(1)}",)
    return ()


# ------------------------------------------------------------------ effects
def effect_items(text: str) -> tuple[list[Item], list[Item]] | None:
    """An effect text (``"pay 3 maize: 2 masks"``) as (cost, gain) items; ``None`` if unknown."""
    cost_text, gain_text = "", text
    if text.startswith("pay ") and ": " in text:
        cost_text, gain_text = text[4:].split(": ", 1)

    def items(part: str) -> list[Item] | None:
        out: list[Item] = []
        for word in part.split(" + ") if part else []:
            if word == "a market card":
                out.append((1, "market"))
            elif word == "a heritage card":
                out.append((1, "heritage"))
            elif word != "nothing":
                bits = word.split(" ")
                if len(bits) != 2 or not bits[0].isdigit() or bits[1] not in _UNITS:
                    return None
                out.append((int(bits[0]), _UNITS[bits[1]]))
        return out

    cost, gain = items(cost_text), items(gain_text)
    if cost is None or gain is None:
        return None
    return cost, gain


def card_items(card: Mapping[str, Any]) -> tuple[list[Item], list[Item]]:
    """A market or heritage card's cost and immediate gain (free-a-camp included) as items."""
    cost = [(int(card["cost"][r]), r) for r in RESOURCES if card["cost"].get(r)]
    gain = [(int(card["gain"][r]), r) for r in (*RESOURCES, "points") if card["gain"].get(r)]
    if card.get("free_camp"):
        gain.append((1, "free"))
    return cost, gain


def _item_w(item: Item, size: float) -> float:
    n, kind = item
    number = kind in (*RESOURCES, "points") or n > 1
    return (0.62 * size * len(str(n)) + 1 if number else 0) + size


def _items_w(cost: Sequence[Item], gain: Sequence[Item], size: float) -> float:
    gap = size * 0.3
    w = sum(_item_w(i, size) for i in (*cost, *gain)) + gap * max(0, len(cost) + len(gain) - 1)
    if cost:
        w += size * 0.9
    return w


def item_words(item: Item, tr: Translator) -> str:
    """One item in words: ``(2, "maize")`` -> ``2 maize``."""
    n, kind = item
    if kind == "maize":
        return tr.ngettext("{n} maize", "{n} maize", n).format(n=n)
    if kind == "skins":
        return tr.ngettext("{n} skin", "{n} skins", n).format(n=n)
    if kind == "masks":
        return tr.ngettext("{n} mask", "{n} masks", n).format(n=n)
    if kind == "points":
        return tr.ngettext("{n} point", "{n} points", n).format(n=n)
    if kind == "market":
        return tr.gettext("a market card")
    if kind == "heritage":
        return tr.gettext("a heritage card")
    if kind == "free":
        return tr.gettext("free a camp")
    return f"{n} {kind}"


def _pay(cost: Sequence[Item], gain: str, tr: Translator) -> str:
    if not cost:
        return gain
    paid = tr.gettext(" + ").join(item_words(i, tr) for i in cost)
    return tr.gettext("pay {cost}: {gain}").format(cost=paid, gain=gain)


def effect_words(text: str, tr: Translator) -> str:
    """An effect text of a space or camp option in the language of ``tr`` (as it is if its shape is unknown).

    >>> effect_words("pay 3 maize: 2 masks", ENGLISH)
    'pay 3 maize: 2 masks'
    """
    parsed = effect_items(text)
    if parsed is None:
        return text
    cost, gain = parsed
    body = tr.gettext(" + ").join(item_words(i, tr) for i in gain) or tr.gettext("nothing")
    return _pay(cost, body, tr)


def card_words(card: Mapping[str, Any], tr: Translator) -> str:
    """A market or heritage card's effect in words, from its numbers (as ``content.Card.text``)."""
    cost = [(int(card["cost"][r]), r) for r in RESOURCES if card["cost"].get(r)]
    gain = [(int(card["gain"][r]), r) for r in (*RESOURCES, "points") if card["gain"].get(r)]
    parts = [tr.gettext(" + ").join(item_words(i, tr) for i in gain)] if gain else []
    if card.get("free_camp"):
        parts.append(tr.gettext("free a camp"))
    end = int(card.get("end_points", 0))
    if end:
        parts.append(tr.ngettext("{n} point at the end", "{n} points at the end", end).format(n=end))
    return _pay(cost, tr.gettext(", ").join(parts) or tr.gettext("nothing"), tr)


def offering_words(offering: Mapping[str, Any], tr: Translator) -> str:
    """An offering's cost and points in words, from its numbers (as ``content.Offering.text``)."""
    cost = [(int(offering["cost"][r]), r) for r in RESOURCES if offering["cost"].get(r)]
    paid = tr.gettext(" + ").join(item_words(i, tr) for i in cost) or tr.gettext("nothing")
    points = int(offering["points"])
    gain = tr.ngettext("{n} point", "{n} points", points).format(n=points)
    sacrifice = int(offering.get("sacrifice", 0))
    if sacrifice:
        return tr.gettext("pay {cost}, sacrifice {n}: {gain}").format(cost=paid, n=sacrifice, gain=gain)
    return tr.gettext("pay {cost}: {gain}").format(cost=paid, gain=gain)


# -------------------------------------------------------------------- icons
def icon(s: Svg, kind: str, cx: float, cy: float, size: float) -> None:
    """A resource, point, card or token icon centred on (cx, cy)."""
    h = size / 2
    if kind == "maize":
        s.element(
            "ellipse",
            cx=cx,
            cy=cy - h * 0.05,
            rx=h * 0.48,
            ry=h * 0.92,
            fill=RES_COLOUR["maize"],
            stroke="#9a7400",
            stroke_width=1,
        )
        s.line(cx - h * 0.28, cy - h * 0.3, cx + h * 0.28, cy - h * 0.3, stroke="#9a7400", stroke_width=0.8)
        s.line(cx - h * 0.3, cy + h * 0.15, cx + h * 0.3, cy + h * 0.15, stroke="#9a7400", stroke_width=0.8)
        s.polygon(
            [(cx - h * 0.1, cy + h), (cx - h * 0.75, cy + h * 0.1), (cx - h * 0.3, cy + h * 0.75)], fill="#5c9a2c"
        )
        s.polygon(
            [(cx + h * 0.1, cy + h), (cx + h * 0.75, cy + h * 0.1), (cx + h * 0.3, cy + h * 0.75)], fill="#5c9a2c"
        )
    elif kind == "skins":
        pts = [
            (-0.55, -0.95),
            (0, -0.7),
            (0.55, -0.95),
            (0.7, -0.35),
            (1.0, 0.05),
            (0.65, 0.35),
            (0.75, 0.95),
            (0, 0.72),
            (-0.75, 0.95),
            (-0.65, 0.35),
            (-1.0, 0.05),
            (-0.7, -0.35),
        ]
        s.polygon(
            [(cx + x * h, cy + y * h) for x, y in pts], fill=RES_COLOUR["skins"], stroke="#5a3412", stroke_width=1
        )
        s.circle(cx - h * 0.25, cy - h * 0.05, h * 0.13, fill="#5a3412")
        s.circle(cx + h * 0.2, cy + h * 0.3, h * 0.11, fill="#5a3412")
    elif kind == "masks":
        s.rect(
            cx - h * 0.8,
            cy - h * 0.95,
            h * 1.6,
            h * 1.9,
            rx=h * 0.7,
            fill=RES_COLOUR["masks"],
            stroke="#14503b",
            stroke_width=1,
        )
        s.rect(cx - h * 0.55, cy - h * 0.3, h * 0.4, h * 0.18, fill="#0d3327")
        s.rect(cx + h * 0.15, cy - h * 0.3, h * 0.4, h * 0.18, fill="#0d3327")
        s.rect(cx - h * 0.3, cy + h * 0.35, h * 0.6, h * 0.15, fill="#0d3327")
    elif kind == "points":
        pts = []
        for i in range(10):
            r = h if i % 2 == 0 else h * 0.45
            x, y = _STAR[i]
            pts.append((cx + x * r, cy + y * r))
        s.polygon(pts, fill="#b8860b", stroke="#6b4c00", stroke_width=1)
    elif kind in ("market", "heritage"):
        fill, line, letter = ("#dbe8f6", "#2c5d8f", "M") if kind == "market" else ("#f3e0c8", "#8a5a2b", "H")
        s.rect(cx - h * 0.7, cy - h, h * 1.4, h * 2, rx=2, fill=fill, stroke=line, stroke_width=1.2)
        s.text(
            cx,
            cy + h * 0.38,
            letter,
            font_size=fmt(h * 1.15),
            text_anchor="middle",
            font_weight="bold",
            fill=line,
            cls="zg-glyph",
        )
    elif kind == "offering":
        s.rect(cx - h * 0.75, cy - h, h * 1.5, h * 2, rx=2, fill="#ffe9a8", stroke="#9b7a2f", stroke_width=1.2)
        icon(s, "points", cx, cy, size * 0.7)
    elif kind == "free":
        s.circle(cx, cy, h * 1.05, fill="#e3f4ea", stroke="#2e9d5b", stroke_width=1.2)
        cube(s, cx - h * 0.15, cy + h * 0.2, h * 1.0)
        s.line(cx + h * 0.05, cy - h * 0.05, cx + h * 0.6, cy - h * 0.6, stroke="#1f7a3f", stroke_width=2)
        s.polygon(
            [(cx + h * 0.8, cy - h * 0.8), (cx + h * 0.25, cy - h * 0.7), (cx + h * 0.7, cy - h * 0.25)], fill="#1f7a3f"
        )
    elif kind == "sacrifice":
        meeple(s, cx, cy, size, "#9e9e9e")
        s.line(cx - h * 0.8, cy - h * 0.8, cx + h * 0.8, cy + h * 0.8, stroke="#b3261e", stroke_width=2)
        s.line(cx + h * 0.8, cy - h * 0.8, cx - h * 0.8, cy + h * 0.8, stroke="#b3261e", stroke_width=2)


# the ten points of a five-pointed star, outer and inner in turn, on the unit circle
_STAR = tuple((math.cos(math.radians(-90 + 36 * i)), math.sin(math.radians(-90 + 36 * i))) for i in range(10))

_MEEPLE = (
    "M 0.5 0 A 0.17 0.17 0 0 1 0.64 0.27 L 0.97 0.42 L 0.95 0.6 L 0.7 0.56 L 0.86 1 L 0.57 1 "
    "L 0.5 0.82 L 0.43 1 L 0.14 1 L 0.3 0.56 L 0.05 0.6 L 0.03 0.42 L 0.36 0.27 A 0.17 0.17 0 0 1 0.5 0 Z"
)


def meeple(s: Svg, cx: float, cy: float, size: float, colour: str, hollow: bool = False) -> None:
    """A worker centred on (cx, cy), ``size`` tall."""
    s.element(
        "path",
        d=_MEEPLE,
        transform=f"translate({fmt(cx - size / 2)} {fmt(cy - size / 2)}) scale({fmt(size)})",
        fill="none" if hollow else colour,
        stroke=colour if hollow else "#1b1b1b",
        stroke_width=1.6 if hollow else 1,
        vector_effect="non-scaling-stroke",
    )


def cube(s: Svg, cx: float, cy: float, size: float) -> None:
    """A black cube (a used camp option) centred on (cx, cy)."""
    h = size / 2
    d = h * 0.45
    s.polygon([(cx - h, cy - h + d), (cx - h + d, cy - h), (cx + h, cy - h), (cx + h - d, cy - h + d)], fill="#555")
    s.polygon([(cx + h - d, cy - h + d), (cx + h, cy - h), (cx + h, cy + h - d), (cx + h - d, cy + h)], fill="#2a2a2a")
    s.rect(cx - h, cy - h + d, 2 * h - d, 2 * h - d, fill="#111", stroke="#000", stroke_width=0.6)


def draw_items(
    s: Svg,
    cost: Sequence[Item],
    gain: Sequence[Item],
    cx: float,
    cy: float,
    max_w: float,
    size: float = 14,
    wrap: bool = False,
) -> None:
    """Cost items, an arrow, gain items: centred on (cx, cy), shrunk to fit ``max_w``.

    With ``wrap``, items that do not fit on one line go on two (cost above gain,
    or the gain split in two) before anything is shrunk.
    """
    if wrap and _items_w(cost, gain, size) > max_w and len(cost) + len(gain) > 1:
        if cost and gain:
            rows = [(list(cost), []), ([], list(gain))]
        else:
            items = list(cost or gain)
            half = (len(items) + 1) // 2
            rows = [([], items[:half]), ([], items[half:])]
        dy = size * 0.68
        for i, (c, g) in enumerate(rows):
            draw_items(s, c, g, cx, cy + (dy if i else -dy), max_w, size)
        return
    w = _items_w(cost, gain, size)
    if w > max_w:
        size *= max_w / w
        w = max_w
    x = cx - w / 2
    gap = size * 0.3

    def put(item: Item) -> None:
        nonlocal x
        n, kind = item
        if kind in (*RESOURCES, "points") or n > 1:
            s.text(x, cy + size * 0.36, n, font_size=fmt(size), font_weight="bold", fill=INK)
            x += 0.62 * size * len(str(n)) + 1
        icon(s, kind, x + size / 2, cy, size)
        x += size + gap

    for item in cost:
        put(item)
    if cost:
        x -= gap
        a = size * 0.3
        s.polygon([(x + a * 0.6, cy - a), (x + a * 2.2, cy), (x + a * 0.6, cy + a)], fill="#b3261e")
        x += size * 0.9
    for item in gain:
        put(item)


def draw_effect(s: Svg, text: str, cx: float, cy: float, max_w: float, size: float = 14, wrap: bool = False) -> None:
    """An effect text drawn as icons (or as text if it has an unknown shape); drawn once per text and place."""
    s.fragment(
        ("nakum-effect", text, cx, cy, max_w, size, wrap), lambda f: _draw_effect(f, text, cx, cy, max_w, size, wrap)
    )


def _draw_effect(s: Svg, text: str, cx: float, cy: float, max_w: float, size: float, wrap: bool) -> None:
    parsed = effect_items(text)
    if parsed is None:
        s.text(cx, cy + 4, text, font_size=10, text_anchor="middle", fill=INK)
    else:
        draw_items(s, parsed[0], parsed[1], cx, cy, max_w, size, wrap)


# -------------------------------------------------------------------- board
class _Ctx:
    """What every part of the drawing needs: the view, the viewer and the legal moves by key."""

    def __init__(self, view: Mapping[str, Any], player: int | None, legal: Sequence[tuple[int, str]], tr: Translator):
        self.view = view
        self.player = player
        self.tr = tr
        self.asked = bool(legal)  # the viewer is asked to decide now (not while the table waits or a bot plays)
        self.standing: Sequence[float | None] | None = None
        self.n = int(view["players"])
        self.paths: dict[int, tuple[str, ...]] = {}
        self.by_key: dict[str, str] = {}
        for action, text in legal:
            path = path_of(text)
            if path:
                self.paths[action] = path
                self.by_key[path[0]] = text

    def tip(self, key: str, about: str) -> str:
        """A tooltip: the move a click makes (if any), then what the element is."""
        move = self.by_key.get(key)
        return self.tr.gettext("{move} — {about}").format(move=move, about=about) if move else about

    def why(self, key: str) -> str | None:
        """The move a part of the board that is no move now would be (the page asks the engine why not)."""
        if self.player is None or key in self.by_key:
            return None
        phase = self.view["phase"]
        kind, _, rest = key.partition(":")
        if kind == "basic":
            tile, n = rest.split(":")
            single = any(t["tile"] == tile and len(t["basics"]) == 1 for t in self.view["tiles"])
            return f"place {tile} basic" if single else f"place {tile} basic {n}"
        if kind == "camp":
            return f"place {rest} camp"
        if key in ("pyramid", "pituk", "start", "grow"):
            return f"place {key}"
        if kind == "opt":
            tile, n = rest.split(":")
            return f"{'free' if phase == 'free' else 'camp'} {tile} {n}"
        if kind == "tile":
            return f"{'reveal' if phase == 'reveal' else 'explore'} {rest}"
        words = {"market": "buy", "offering": "offer", "hand": "heritage", "favour": "pituk"}
        return f"{words[kind]} {rest}" if kind in words else None

    def moving(self, p: int | None) -> bool:
        """Whether player ``p`` is to move (alone, or among those who choose at once)."""
        to_move = self.view["to_move"]
        return to_move == p or (isinstance(to_move, list) and p in to_move)

    def total(self, p: int) -> float | None:
        """Player ``p``'s score so far as the viewer sees it, if the board was given the standing."""
        return self.standing[p] if self.standing is not None and p < len(self.standing) else None

    def seat(self, p: int) -> str:
        """A player named short: ``P2``."""
        # TRANSLATORS: a player as the board names them, short (P for player)
        return self.tr.gettext("P{n}").format(n=p + 1)


def _name(p: int, ctx: _Ctx) -> str:
    if ctx.view.get("player") == p:
        return ctx.tr.gettext("{name} (you)").format(name=ctx.seat(p))
    return ctx.seat(p)


RESOURCE_NAMES = {"maize": N_("maize"), "skins": N_("skins"), "masks": N_("masks")}


def _resource_name(resource: str, tr: Translator) -> str:
    return tr.gettext(RESOURCE_NAMES[resource]) if resource in RESOURCE_NAMES else resource


def _slots(s: Svg, workers: Sequence[int], capacity: int, x: float, cy: float, size: float = 15) -> None:
    """Worker slots from x: a meeple per worker, an empty ring per free place."""
    for i in range(max(capacity, len(workers))):
        cx = x + i * (size + 3) + size / 2
        if i < len(workers):
            meeple(s, cx, cy, size, PLAYER_COLOURS[workers[i] % 4])
        else:
            s.circle(cx, cy, size * 0.42, fill="none", stroke=SPACE_LINE, stroke_width=1, stroke_dasharray="2 2")


def _status(ctx: _Ctx) -> str:
    view = ctx.view
    tr = ctx.tr
    phase = view["phase"]
    to_move = view["to_move"]
    if phase == "over":
        ranks = view.get("ranks") or []
        winners = [ctx.seat(p) for p, r in enumerate(ranks) if r == 1]
        if len(winners) > 1:
            over = tr.gettext("Game over — {names} win").format(names=tr.gettext(" and ").join(winners))
        else:
            over = tr.gettext("Game over — {name} wins").format(name=winners[0]) if winners else ""
        # the safeguard says so: it is not the rulebook's end
        if over and not (view.get("end") or {}).get("printed", True):
            over = tr.gettext("{over} · stopped by the round limit").format(over=over)
        return over
    if phase == "heritage":
        waiting = to_move if isinstance(to_move, list) else []
        if ctx.player in waiting and ctx.asked:
            return tr.gettext("Play a heritage card from your hand")
        if waiting:
            names = tr.gettext(", ").join(ctx.seat(p) for p in waiting)
            return tr.gettext("All play a heritage card · waiting: {names}").format(names=names)
        return tr.gettext("All play a heritage card")
    if phase == "dawn" or to_move is None:
        return tr.gettext("Night: workers come home, tiles are revealed, cards refilled")
    mine = to_move == ctx.player and ctx.asked
    if phase == "camp" and view.get("camp_in_use"):
        tile_names = {t["tile"]: t["name"] for t in view["tiles"] if t["tile"]}
        where = tile_names.get(view["camp_in_use"], view["camp_in_use"])
        if mine:
            return tr.gettext("You choose a camp option at {tile}").format(tile=where)
        return tr.gettext("{name} chooses a camp option at {tile}").format(name=ctx.seat(to_move), tile=where)
    if phase not in PHASE_TEXT:
        return ctx.seat(to_move)
    theirs, yours = PHASE_TEXT[phase]
    return tr.gettext(yours) if mine else tr.gettext(theirs).format(name=ctx.seat(to_move))


def _header(s: Svg, ctx: _Ctx) -> None:
    view = ctx.view
    tr = ctx.tr
    phase = view["phase"]
    rnd = int(view["round"])
    if phase in ("heritage", "reveal") or rnd == 0:
        when = tr.gettext("Setup")
    elif phase == "dawn":
        when = tr.gettext("Round {n} · Night").format(n=rnd)
    elif phase == "over":
        when = tr.gettext("Round {n} · end").format(n=rnd)
    elif view.get("end_triggered"):
        when = tr.gettext("Round {n} · last Day").format(n=rnd)
    else:
        when = tr.gettext("Round {n} · Day").format(n=rnd)
    s.rect(0, 0, W, 38, fill="#2b2118")
    s.text(MARGIN, 25, when, font_size=17, font_weight="bold", fill="#f6e7c1")
    to_move = view["to_move"]
    mine = ctx.asked and ctx.moving(ctx.player)
    if isinstance(to_move, int) and phase != "dawn":
        meeple(s, 176, 19, 20, PLAYER_COLOURS[to_move % 4])
    elif mine and ctx.player is not None:
        meeple(s, 176, 19, 20, PLAYER_COLOURS[ctx.player % 4])
    status = _status(ctx)
    room = (W - 86 if "pass" in ctx.by_key else W - 8) - 190
    s.text(
        190,
        25,
        status,
        font_size=fmt(fit_size(status, 15, room, 11, bold=mine)),
        fill="#ffd36b" if mine else "#f6f1e7",
        font_weight="bold" if mine else None,
    )
    if "pass" in ctx.by_key:
        with s.group(data_key="pass", cls="zg-button"):
            s.tooltip(tr.gettext("pass — no space is open to you"))
            s.rect(W - 78, 6, 70, 26, rx=6, fill="#fff", stroke=SPACE_LINE, cls="zg-frame")
            s.text(W - 43, 24, tr.gettext("pass"), font_size=15, text_anchor="middle", fill=INK, font_weight="bold")


def _tile_xy(col: int, row: int) -> tuple[float, float]:
    return MARGIN + col * (TILE_W + GAP), GRID_Y + row * (TILE_H + GAP)


def _face_down(s: Svg, ctx: _Ctx, tile: Mapping[str, Any], x: float, y: float) -> None:
    pos = int(tile["position"])
    key = f"tile:{pos}"
    explorer = tile.get("explorer")
    tr = ctx.tr
    if explorer is not None:
        about = tr.gettext("face-down jungle tile {n}; {name} explores it (revealed at Night)").format(
            n=pos, name=ctx.seat(explorer)
        )
    else:
        about = tr.gettext("face-down jungle tile {n}").format(n=pos)
    with s.group(data_key=key, data_why=ctx.why(key), cls="zg-tile"):
        s.tooltip(ctx.tip(key, about))
        s.rect(x, y, TILE_W, TILE_H, rx=8, fill="#2f4a26", stroke="#1d2e17", stroke_width=2, cls="zg-frame")
        s.rect(x + 8, y + 8, TILE_W - 16, TILE_H - 16, rx=5, fill="none", stroke="#5f8a45", stroke_width=1.5)
        for i in range(5):  # leaves on the back
            lx = x + 30 + i * 36
            ly = y + (40 if i % 2 else 120)
            s.element(
                "ellipse",
                cx=lx,
                cy=ly,
                rx=14,
                ry=6,
                fill="#4d7a36",
                transform=f"rotate({-30 if i % 2 else 30} {fmt(lx)} {fmt(ly)})",
            )
        s.circle(x + TILE_W / 2, y + TILE_H / 2, 26, fill="#3d6a2c", stroke="#8fbf6a", stroke_width=2)
        s.text(
            x + TILE_W / 2,
            y + TILE_H / 2 + 10,
            pos,
            font_size=28,
            text_anchor="middle",
            fill="#e8f3d8",
            font_weight="bold",
        )
        if explorer is not None:
            meeple(s, x + TILE_W - 30, y + 34, 26, PLAYER_COLOURS[explorer % 4])
            s.text(x + TILE_W - 30, y + 62, tr.gettext("explorer"), font_size=11, text_anchor="middle", fill="#e8f3d8")
        elif key in ctx.by_key:
            verb = tr.gettext("explore") if ctx.by_key[key].startswith("explore") else tr.gettext("reveal")
            s.text(
                x + TILE_W / 2,
                y + TILE_H - 18,
                verb,
                font_size=14,
                text_anchor="middle",
                fill="#ffd36b",
                font_weight="bold",
            )


def _face_up(s: Svg, ctx: _Ctx, tile: Mapping[str, Any], x: float, y: float) -> None:
    """A face-up tile, drawn once for what it shows, its place, its language and what its spaces do on a click."""
    name = tile["tile"]
    spaces = [f"basic:{name}:{b['number']}" for b in tile["basics"]] + [f"camp:{name}"]
    spaces += [f"opt:{name}:{o['number']}" for o in tile["camp"]["options"]]
    key = (
        "nakum-face-up",
        orjson.dumps(tile),
        token(ctx.tr),
        x,
        y,
        ctx.view.get("camp_in_use") == name,
        ctx.player is None,
        ctx.view["phase"],
        tuple(ctx.by_key.get(k) for k in spaces),
    )
    s.fragment(key, lambda f: _draw_face_up(f, ctx, tile, x, y))


def _draw_face_up(s: Svg, ctx: _Ctx, tile: Mapping[str, Any], x: float, y: float) -> None:
    tr = ctx.tr
    key = tile["tile"]
    pos = int(tile["position"])
    camp = tile["camp"]
    in_use = ctx.view.get("camp_in_use") == key
    s.rect(x, y, TILE_W, TILE_H, rx=8, fill=JUNGLE, stroke=JUNGLE_DARK, stroke_width=2)
    s.rect(x, y, TILE_W, 22, rx=8, fill=JUNGLE_DARK)
    s.rect(x, y + 14, TILE_W, 8, fill=JUNGLE_DARK)
    s.text(x + 8, y + 16, pos, font_size=13, fill="#b9d99a", font_weight="bold")
    s.text(x + 22, y + 16, tile["name"], font_size=14, fill="#ffffff", font_weight="bold")
    basics = tile["basics"]
    bw = (TILE_W - 8 - 4 * (len(basics) - 1)) / max(1, len(basics))
    for j, b in enumerate(basics):
        bx = x + 4 + j * (bw + 4)
        by = y + 26
        bkey = f"basic:{key}:{b['number']}"
        taken = bool(b["workers"])
        with s.group(data_key=bkey, data_why=ctx.why(bkey), cls="zg-space"):
            if b["capacity"] > 1:
                about = tr.gettext("{tile}, basic space {n}: {effect} (takes 2 workers with 4 players)")
            else:
                about = tr.gettext("{tile}, basic space {n}: {effect}")
            s.tooltip(ctx.tip(bkey, about.format(tile=tile["name"], n=b["number"], effect=effect_words(b["text"], tr))))
            s.rect(bx, by, bw, 58, rx=5, fill=PAPER, stroke=SPACE_LINE, stroke_width=1.2, cls="zg-frame")
            draw_effect(s, b["text"], bx + bw / 2, by + 20, bw - 8, 16)
            _slots(s, b["workers"], int(b["capacity"]), bx + 5, by + 43)
            if b["capacity"] > 1:
                s.text(bx + bw - 5, by + 48, "×2", font_size=11, text_anchor="end", fill=MUTED, font_weight="bold")
            elif taken:
                s.text(bx + bw - 5, by + 48, tr.gettext("full"), font_size=11, text_anchor="end", fill=MUTED)
    # the camp: its spot (where a worker goes), then the options
    cy = y + 90
    ckey = f"camp:{key}"
    state = "exhausted" if camp["exhausted"] else ("open" if camp["active"] else "locked")
    about = {
        "exhausted": tr.gettext("every option is covered: the camp is exhausted"),
        "open": tr.gettext("open: choose an uncovered option, then a black cube covers it"),
        "locked": tr.gettext("opens while a worker (anyone's) is on a basic space of this tile"),
    }[state]
    with s.group(data_key=ckey, data_why=ctx.why(ckey), cls="zg-space"):
        s.tooltip(ctx.tip(ckey, tr.gettext("camp of {tile}: {state}").format(tile=tile["name"], state=about)))
        s.rect(
            x + 4,
            cy,
            44,
            64,
            rx=5,
            fill="#efe2c6" if state == "open" else "#d6d2c4",
            stroke="#b3261e" if in_use else SPACE_LINE,
            stroke_width=2 if in_use else 1.2,
            cls="zg-frame",
        )
        tent = "#8a5a2b" if state == "open" else "#9c968a"
        s.polygon([(x + 26, cy + 6), (x + 42, cy + 30), (x + 10, cy + 30)], fill=tent)
        s.polygon([(x + 26, cy + 14), (x + 31, cy + 30), (x + 21, cy + 30)], fill="#3a2410")
        s.text(
            x + 26,
            cy + 42,
            tr.gettext("camp"),
            font_size=fmt(fit_size(tr.gettext("camp"), 11, 42, 8)),
            text_anchor="middle",
            fill=INK if state == "open" else MUTED,
        )
        if camp["workers"]:
            for i, p in enumerate(camp["workers"]):
                meeple(s, x + 16 + i * 20, cy + 54, 15, PLAYER_COLOURS[p % 4])
        elif state == "locked":
            s.text(x + 26, cy + 58, tr.gettext("locked"), font_size=10, text_anchor="middle", fill=MUTED)
        if camp["capacity"] > 1:
            s.text(x + 46, cy + 10, "×2", font_size=9, text_anchor="end", fill=MUTED, font_weight="bold")
    options = camp["options"]
    ox0 = x + 52
    ow = (TILE_W - 56 - 3 * (len(options) - 1)) / max(1, len(options))
    for k, o in enumerate(options):
        ox = ox0 + k * (ow + 3)
        okey = f"opt:{key}:{o['number']}"
        covered = bool(o["covered"])
        with s.group(data_key=okey, data_why=ctx.why(okey), cls="zg-option"):
            if covered:
                about = tr.gettext("camp option {n}: {effect} (covered by a black cube)")
            else:
                about = tr.gettext("camp option {n}: {effect}")
            s.tooltip(ctx.tip(okey, about.format(n=o["number"], effect=effect_words(o["text"], tr))))
            s.rect(
                ox,
                cy,
                ow,
                64,
                rx=5,
                fill="#cfc9b8" if covered else PAPER,
                stroke=SPACE_LINE,
                stroke_width=1.2,
                cls="zg-frame",
            )
            s.text(ox + 4, cy + 12, o["number"], font_size=10, fill=MUTED, font_weight="bold")
            with s.group(opacity=0.45 if covered else None):
                draw_effect(s, o["text"], ox + ow / 2, cy + 38, ow - 6, 15, wrap=True)
            if covered:
                cube(s, ox + ow - 12, cy + 13, 16)


def _pyramid(s: Svg, ctx: _Ctx, x: float, y: float) -> None:
    view = ctx.view
    tr = ctx.tr
    s.rect(x, y, TILE_W, TILE_H, rx=8, fill=STONE, stroke=STONE_DARK, stroke_width=2)
    with s.group(data_key="pyramid", data_why=ctx.why("pyramid"), cls="zg-space"):
        s.tooltip(
            ctx.tip("pyramid", tr.gettext("the pyramid: 2 workers make an active offering (any number of players)"))
        )
        s.rect(x + 4, y + 4, TILE_W - 8, 50, rx=5, fill="#f4ead2", stroke=SPACE_LINE, stroke_width=1.2, cls="zg-frame")
        for i in range(4):  # a stepped pyramid
            w = 70 - i * 16
            s.rect(x + 44 - w / 2, y + 44 - i * 9, w, 9, fill="#c9ad78", stroke=STONE_DARK, stroke_width=0.8)
        s.rect(x + 40, y + 17, 8, 36, fill="#a88a55")
        s.text(x + 86, y + 22, tr.gettext("Pyramid"), font_size=14, font_weight="bold", fill=INK)
        two = tr.gettext("2 workers")
        s.text(x + 86, y + 38, two, font_size=fmt(fit_size(two, 12, TILE_W - 94, 10)), fill=MUTED)
        px = x + 88
        for p, count in enumerate(view["pyramid"]):
            for _ in range(int(count)):
                meeple(s, px + 6, y + 46, 13, PLAYER_COLOURS[p % 4])
                px += 13
        deck = tr.gettext("deck {n}").format(n=view["offering_deck"])
        s.text(x + TILE_W - 8, y + 51, deck, font_size=11, text_anchor="end", fill=MUTED)  # beside the workers
    # the face-up offerings (two as printed; the offerings-size option lays out 1 to 4, two rows above two)
    offerings = view["offerings"]
    k = int(view.get("offerings_size", 2))
    rows = 1 if k <= 2 else 2
    cols = -(-k // rows)
    ow = (TILE_W - 8 - 4 * (cols - 1)) / cols
    oh = 98 if rows == 1 else 47
    for i in range(k):
        ox = x + 4 + (i % cols) * (ow + 4)
        oy = y + 58 + (i // cols) * (oh + 4)
        if i >= len(offerings):
            s.rect(ox, oy, ow, oh, rx=5, fill="none", stroke=SPACE_LINE, stroke_dasharray="4 3")
            s.text(
                ox + ow / 2, oy + oh / 2 + 4, tr.gettext("no offering"), font_size=10, text_anchor="middle", fill=MUTED
            )
            continue
        _offering(s, ctx, offerings[i], ox, oy, ow, oh)


def _offering(s: Svg, ctx: _Ctx, o: Mapping[str, Any], ox: float, oy: float, ow: float, oh: float) -> None:
    """One face-up offering: its cost, sacrifice and points (``oh`` under 90: the short card of a second row)."""
    tr = ctx.tr
    okey = f"offering:{o['id']}"
    cost = [(int(o["cost"][r]), r) for r in RESOURCES if o["cost"].get(r)]
    sac = int(o.get("sacrifice", 0))
    with s.group(data_key=okey, data_why=ctx.why(okey), cls="zg-card"):
        about = tr.gettext("offering {id} {name}: {effect}").format(
            id=o["id"], name=o["name"], effect=offering_words(o, tr)
        )
        s.tooltip(ctx.tip(okey, about))
        s.rect(ox, oy, ow, oh, rx=5, fill="#fff6dc", stroke="#9b7a2f", stroke_width=1.5, cls="zg-frame")
        if oh < 90:
            s.text(ox + 4, oy + 12, o["id"], font_size=10, fill="#9b7a2f", font_weight="bold")
            icon(s, "points", ox + ow - 13, oy + 13, 20)
            s.text(
                ox + ow - 13, oy + 17, o["points"], font_size=10, text_anchor="middle", font_weight="bold", fill="#fff"
            )
            draw_items(s, cost, [], ox + ow / 2, oy + 33, ow - 8, 11)
            if sac:
                icon(s, "sacrifice", ox + 14 + text_width(o["id"], 10, bold=True), oy + 8, 12)
            return
        s.rect(ox, oy, ow, 18, rx=5, fill="#9b7a2f")
        s.rect(ox, oy + 12, ow, 6, fill="#9b7a2f")
        s.text(ox + 5, oy + 13, o["id"], font_size=11, fill="#fff", font_weight="bold")
        if ow >= 80:
            s.text(ox + ow - 5, oy + 13, tr.gettext("offering"), font_size=9, text_anchor="end", fill="#f6e7c1")
        draw_items(s, cost, [], ox + ow / 2, oy + 34, ow - 8, 14)
        for k in range(sac):
            icon(s, "sacrifice", ox + 14 + k * 18, oy + 60, 15)
        icon(s, "points", ox + ow - 22, oy + 72, 34)
        s.text(ox + ow - 22, oy + 78, o["points"], font_size=15, text_anchor="middle", font_weight="bold", fill="#fff")
        if sac:
            s.text(ox + 6, oy + 90, tr.gettext("sacrifice {n}").format(n=sac), font_size=11, fill="#b3261e")


def _strip(s: Svg, ctx: _Ctx) -> None:
    view = ctx.view
    tr = ctx.tr
    y = STRIP_Y
    # Pituk
    x = MARGIN
    pituk = view["pituk"]
    with s.group(data_key="pituk", data_why=ctx.why("pituk"), cls="zg-space"):
        if pituk["available"]:
            about = tr.gettext("Pituk: once every tile is face up, 1 worker: 1 point and one of his favours")
        else:
            about = tr.gettext(
                "Pituk: once every tile is face up, 1 worker: 1 point and one of his favours"
                " (not yet: some tiles are face down)"
            )
        s.tooltip(ctx.tip("pituk", about))
        s.rect(
            x,
            y,
            TILE_W,
            STRIP_H,
            rx=6,
            fill="#e9dcc0" if pituk["available"] else "#d6d2c4",
            stroke=STONE_DARK,
            stroke_width=1.2,
            cls="zg-frame",
        )
        for i in range(3):  # feather headdress
            s.polygon(
                [(x + 12 + i * 8, y + 20), (x + 16 + i * 8, y + 4), (x + 20 + i * 8, y + 20)],
                fill=("#2e8b6a", "#c62828", "#2e8b6a")[i],
            )
        s.circle(x + 24, y + 28, 10, fill="#b07a4a", stroke="#5a3412")
        s.text(x + 44, y + 22, "Pituk", font_size=14, font_weight="bold", fill=INK)
        if not pituk["available"]:
            for i, line in enumerate(wrap(tr.gettext("needs 8 tiles"), 10, 64)[:2]):
                s.text(x + 44, y + 33 + 10 * i, line, font_size=10, fill=MUTED)
        _slots(s, pituk["workers"], 1, x + 44, y + 56)
    for f, (name, label) in enumerate((("market", tr.gettext("market")), ("offerings", tr.gettext("offers")))):
        fkey = f"favour:{name}"
        used = bool(pituk["used"][f])
        fx = x + 112 + f * 46
        with s.group(data_key=fkey, data_why=ctx.why(fkey), cls="zg-token"):
            if name == "market":
                what = tr.gettext("Pituk's favour: 1 point and every market card reshuffled, {n} new").format(
                    n=view.get("market_size", 5)
                )
            else:
                what = tr.gettext("Pituk's favour: 1 point and every offering discarded, {n} new").format(
                    n=view.get("offerings_size", 2)
                )
            if used:
                about = tr.gettext("{favour} (used)").format(favour=what)
            else:
                about = tr.gettext("{favour} (once per game)").format(favour=what)
            s.tooltip(ctx.tip(fkey, about))
            s.rect(
                fx,
                y + 6,
                42,
                54,
                rx=21,
                fill="#cfc9b8" if used else "#fff6dc",
                stroke=STONE_DARK,
                stroke_width=1.2,
                cls="zg-frame",
            )
            icon(s, "market" if name == "market" else "offering", fx + 21, y + 26, 18)
            said = tr.gettext("used") if used else label
            s.text(
                fx + 21,
                y + 52,
                said,
                font_size=fmt(fit_size(said, 10, 40, 8)),
                text_anchor="middle",
                fill=MUTED if used else INK,
            )
            if used:
                s.line(fx + 8, y + 12, fx + 34, y + 54, stroke="#b3261e", stroke_width=2)
    # start player
    x = MARGIN + TILE_W + GAP
    start = int(view["start_player"])
    with s.group(data_key="start", data_why=ctx.why("start"), cls="zg-space"):
        about = tr.gettext("start player: {name}; 1 worker takes the token for next round").format(name=ctx.seat(start))
        s.tooltip(ctx.tip("start", about))
        s.rect(x, y, TILE_W, STRIP_H, rx=6, fill="#e9dcc0", stroke=STONE_DARK, stroke_width=1.2, cls="zg-frame")
        s.circle(x + 28, y + 33, 20, fill=PLAYER_COLOURS[start % 4], stroke="#1b1b1b", stroke_width=1.5)
        first = tr.gettext("1st")
        s.text(x + 28, y + 39, first, font_size=14, text_anchor="middle", font_weight="bold", fill="#fff")
        s.text(x + 56, y + 22, tr.gettext("Start player"), font_size=14, font_weight="bold", fill=INK)
        s.text(x + 56, y + 36, tr.gettext("now {name}").format(name=ctx.seat(start)), font_size=11, fill=MUTED)
        _slots(s, view["start_space"], 1, x + 56, y + 52)
    # grow the clan
    x = MARGIN + 2 * (TILE_W + GAP)
    cap = 2 if ctx.n == 4 else 1
    with s.group(data_key="grow", data_why=ctx.why("grow"), cls="zg-space"):
        s.tooltip(
            ctx.tip(
                "grow",
                tr.gettext(
                    "grow the clan: 2 workers + 1 from your reserve, one more worker from next round (not in round 1)"
                ),
            )
        )
        s.rect(x, y, TILE_W, STRIP_H, rx=6, fill="#e9dcc0", stroke=STONE_DARK, stroke_width=1.2, cls="zg-frame")
        meeple(s, x + 18, y + 32, 24, "#8d7b62")
        s.text(x + 32, y + 24, "+", font_size=18, font_weight="bold", fill=INK)
        s.text(x + 52, y + 22, tr.gettext("Grow the clan"), font_size=14, font_weight="bold", fill=INK)
        s.text(x + 52, y + 36, tr.gettext("2 workers + 1 reserve"), font_size=11, fill=MUTED)
        _slots(s, view["grow_space"], cap, x + 52, y + 52)


def _mini_card(
    s: Svg, card: Mapping[str, Any], x: float, y: float, w: float, h: float, kind: str, tr: Translator
) -> None:
    """A market or heritage card, drawn once for the card, its place, size and kind, and the language."""
    key = ("nakum-mini-card", orjson.dumps(card), x, y, w, h, kind, token(tr))
    s.fragment(key, lambda f: _draw_mini_card(f, card, x, y, w, h, kind, tr))


def _draw_mini_card(
    s: Svg, card: Mapping[str, Any], x: float, y: float, w: float, h: float, kind: str, tr: Translator
) -> None:
    fill, line = ("#dbe8f6", "#2c5d8f") if kind == "market" else ("#f3e0c8", "#8a5a2b")
    s.rect(x, y, w, h, rx=5, fill=fill, stroke=line, stroke_width=1.5, cls="zg-frame")
    cost, gain = card_items(card)
    pts = int(card.get("end_points", 0))
    if h >= 60:
        s.rect(x, y, w, 18, rx=5, fill=line)
        s.rect(x, y + 12, w, 6, fill=line)
        name = str(card["name"])
        if len(name) > 15:
            name = name[:14] + "…"
        s.text(x + 4, y + 13, card["id"], font_size=11, fill="#fff", font_weight="bold")
        s.text(x + 10 + 7 * len(str(card["id"])), y + 13, name, font_size=10, fill="#fff")
        gx, gw = x + w / 2 - (14 if pts else 0), w - (40 if pts else 8)
        if cost:
            s.rect(x + 4, y + 23, w - 8, 24, rx=4, fill="#f6dcd6")
            s.text(x + 9, y + 39, tr.gettext("pay"), font_size=11, fill="#b3261e", font_weight="bold")
            draw_items(s, [], cost, x + w / 2 + 14, y + 35, w - 44, 15)
            if gain:
                draw_items(s, [], gain, gx, y + 68, gw, 15, wrap=True)
        elif gain:
            draw_items(s, [], gain, gx, y + 50, gw, 16, wrap=True)
        if pts:
            icon(s, "points", x + w - 18, y + h - 22, 28)
            s.text(x + w - 18, y + h - 17, pts, font_size=13, text_anchor="middle", font_weight="bold", fill="#fff")
            s.text(x + w - 18, y + h - 2, tr.gettext("at end"), font_size=9, text_anchor="middle", fill=MUTED)
        return
    s.text(x + 4, y + 12, card["id"], font_size=10, fill=line, font_weight="bold")
    # the effect beside the id, not under it
    left = x + 4 + text_width(card["id"], 10, bold=True) + 3
    gw = x + w - 4 - (22 if pts else 0) - left
    draw_items(s, cost, gain, left + gw / 2, y + h / 2 + 3, gw, 12)
    if pts:
        icon(s, "points", x + w - 13, y + h / 2, 20)
        s.text(x + w - 13, y + h / 2 + 4, pts, font_size=10, text_anchor="middle", font_weight="bold", fill="#fff")


def _market(s: Svg, ctx: _Ctx) -> None:
    view = ctx.view
    tr = ctx.tr
    y = MARKET_Y
    title = tr.gettext("Market")
    s.text(MARGIN, y + 15, title, font_size=15, font_weight="bold", fill=INK)
    s.text(
        MARGIN + text_width(title, 15, bold=True) + 8,
        y + 15,
        tr.ngettext(
            "{n} card in the deck · pay the cost once, keep the card",
            "{n} cards in the deck · pay the cost once, keep the card",
            int(view["market_deck"]),
        ).format(n=view["market_deck"]),
        font_size=11,
        fill=MUTED,
    )
    # five places as printed; the market-size option lays out 1 to 8 (above five: two rows of short cards)
    k = int(view.get("market_size", 5))
    rows = 1 if k <= 5 else 2
    cols = max(5, -(-k // rows)) if rows == 1 else -(-k // rows)
    cw = CARD_W if rows == 1 else (W - 2 * MARGIN - 6 * (cols - 1)) / cols
    ch = CARD_H if rows == 1 else (CARD_H - 4) / 2
    gap = (W - 2 * MARGIN - cols * cw) / (cols - 1)
    for i in range(k):
        x = MARGIN + (i % cols) * (cw + gap)
        cy = y + 22 + (i // cols) * (ch + 4)
        if i >= len(view["market"]):
            s.rect(x, cy, cw, ch, rx=5, fill="none", stroke=SPACE_LINE, stroke_dasharray="4 3")
            continue
        card = view["market"][i]
        key = f"market:{card['id']}"
        with s.group(data_key=key, data_why=ctx.why(key), cls="zg-card"):
            about = tr.gettext("market card {id} {name}: {effect}").format(
                id=card["id"], name=card["name"], effect=card_words(card, tr)
            )
            s.tooltip(ctx.tip(key, about))
            _mini_card(s, card, x, cy, cw, ch, "market", tr)


def _chips(s: Svg, ids: Sequence[str], x: float, y: float, fill: str, line: str, max_x: float) -> float:
    """The cards' ids as chips from ``x`` up to ``max_x``; those that do not fit are counted (``+3``)."""
    for i, cid in enumerate(ids):
        w = 8 + text_width(cid, 10, bold=True)
        more = f"+{len(ids) - i - 1}"
        reserve = 0.0 if i == len(ids) - 1 else text_width(more, 11, bold=True) + 6
        if x + w + reserve > max_x:
            rest = f"+{len(ids) - i}"
            if x + 2 + text_width(rest, 11, bold=True) <= max_x:
                s.text(x + 2, y + 12, rest, font_size=11, fill=MUTED, font_weight="bold")
                return x + 4 + text_width(rest, 11, bold=True)
            return x
        s.rect(x, y, w, 16, rx=3, fill=fill, stroke=line, stroke_width=1)
        s.text(x + w / 2, y + 12, cid, font_size=10, text_anchor="middle", fill=INK, font_weight="bold")
        x += w + 3
    return x


def _player(s: Svg, ctx: _Ctx, p: int, info: Mapping[str, Any], x: float, y: float) -> None:
    """A player's panel, drawn once for what it shows, its place and its language; the viewer's own panel
    while it shows their heritage cards (which a click may play) is drawn every time."""
    if info.get("heritage_hand") is not None:
        _draw_player(s, ctx, p, info, x, y)
        return
    view = ctx.view
    scores = view.get("scores")
    key = (
        "nakum-player",
        p,
        x,
        y,
        orjson.dumps(info),
        token(ctx.tr),
        ctx.moving(p),
        int(view["start_player"]) == p,
        None if scores is None else (scores[p], view["ranks"][p]),
        ctx.total(p),
        view["phase"],
        view.get("player") == p,
        p == ctx.player and ctx.asked,
        orjson.dumps(view["limits"]),
        orjson.dumps(view["per_point"]),
    )
    s.fragment(key, lambda f: _draw_player(f, ctx, p, info, x, y))


def _draw_player(s: Svg, ctx: _Ctx, p: int, info: Mapping[str, Any], x: float, y: float) -> None:
    view = ctx.view
    tr = ctx.tr
    colour = PLAYER_COLOURS[p % 4]
    moving = ctx.moving(p)
    s.rect(x, y, PANEL_W, PANEL_H, rx=8, fill=PLAYER_LIGHT[p % 4], stroke=colour, stroke_width=4 if moving else 1.5)
    s.rect(x, y, 8, PANEL_H, rx=4, fill=colour)
    meeple(s, x + 22, y + 14, 18, colour)
    name = _name(p, ctx)
    s.text(x + 34, y + 19, name, font_size=15, font_weight="bold", fill=INK)
    tx = x + 34 + 9.5 * len(name) + 6
    if int(view["start_player"]) == p:
        with s.group(cls="zg-start-token"):
            s.tooltip(tr.gettext("{name} is the start player").format(name=ctx.seat(p)))
            s.circle(tx + 9, y + 14, 10, fill=colour, stroke="#1b1b1b")
            s.text(
                tx + 9, y + 18, tr.gettext("1st"), font_size=9, text_anchor="middle", fill="#fff", font_weight="bold"
            )
        tx += 24
    # the points first, from the right edge, so that the words of the row know how much room is left
    with s.group(cls="zg-points"):
        if "scores" in view:
            score = view["scores"][p]
            s.tooltip(
                tr.gettext("final score {score} (place {rank}); point tokens {tokens}").format(
                    score=fmt(score), rank=view["ranks"][p], tokens=info["points"]
                )
            )
            final = tr.gettext("{score} pts · #{rank}").format(score=fmt(score), rank=view["ranks"][p])
            s.text(x + PANEL_W - 8, y + 20, final, font_size=15, text_anchor="end", font_weight="bold", fill=INK)
            right = x + PANEL_W - 8 - text_width(final, 15, bold=True)
        else:
            tokens = tr.ngettext("{n} point token", "{n} point tokens", int(info["points"])).format(n=info["points"])
            total = ctx.total(p)
            if total is not None:
                s.tooltip(
                    tr.gettext("{n} points so far (if the game ended now); {tokens}").format(
                        n=fmt(total), tokens=tokens
                    )
                )
                number = fmt(total)
            else:
                s.tooltip(tokens)
                number = str(info["points"])
            nx = x + PANEL_W - 8 - text_width(number, 17, bold=True)
            icon(s, "points", nx - 13, y + 14, 20)
            s.text(x + PANEL_W - 8, y + 20, number, font_size=17, font_weight="bold", fill=INK, text_anchor="end")
            right = nx - 25
    label = ""
    if view["phase"] == "heritage":
        ready = bool(info["has_chosen"])
        if ready:
            label = tr.gettext("ready")
        elif p == ctx.player and ctx.asked:
            label = tr.gettext("◀ choose a card")
        else:
            label = tr.gettext("still choosing…")
        label_colour = "#2e7d32" if ready else colour
    elif moving:
        label, label_colour = tr.gettext("◀ to move"), colour
    if label:
        size = fit_size(label, 13, right - 6 - tx, 10, bold=True)
        s.text(tx, y + 19, label, font_size=fmt(size), font_weight="bold", fill=label_colour)
    # resources against the family card
    ry = y + 40
    for i, r in enumerate(RESOURCES):
        rx = x + 14 + i * 62
        have = int(info[r])
        limit = int(view["limits"][r])
        with s.group(cls="zg-resource"):
            s.tooltip(
                tr.gettext("{resource}: {n} of at most {limit} (family card); {per} = 1 point at the end").format(
                    resource=_resource_name(r, tr), n=have, limit=limit, per=view["per_point"][r]
                )
            )
            icon(s, r, rx + 8, ry, 16)
            s.text(rx + 20, ry + 5, have, font_size=15, font_weight="bold", fill="#b3261e" if have >= limit else INK)
            s.text(rx + 21 + 9 * len(str(have)), ry + 5, f"/{limit}", font_size=11, fill=MUTED)
    # workers: in hand, out on the board, in the reserve, sacrificed this Day
    wx = x + 200
    placed = int(info["workers"]) - int(info["in_hand"])
    with s.group(cls="zg-workers"):
        if info["sacrificed"]:
            about = tr.gettext("workers: {hand} in hand, {placed} placed, {reserve} in the reserve, {lost} sacrificed")
        else:
            about = tr.gettext("workers: {hand} in hand, {placed} placed, {reserve} in the reserve")
        s.tooltip(about.format(hand=info["in_hand"], placed=placed, reserve=info["reserve"], lost=info["sacrificed"]))
        for _ in range(int(info["in_hand"])):
            meeple(s, wx + 7, ry, 16, colour)
            wx += 15
        for _ in range(placed):
            meeple(s, wx + 7, ry, 16, colour, hollow=True)
            wx += 15
        if info["reserve"] or info["sacrificed"]:
            s.line(wx + 3, ry - 8, wx + 3, ry + 8, stroke=SPACE_LINE)
            wx += 7
        for _ in range(int(info["reserve"])):
            meeple(s, wx + 7, ry, 13, "#9e9e9e")
            wx += 13
        for _ in range(int(info["sacrificed"])):
            icon(s, "sacrifice", wx + 7, ry, 13)
            wx += 13
    # heritage cards
    hy = y + 56
    hand = info.get("heritage_hand")
    s.text(x + 14, hy + 19, tr.gettext("hand"), font_size=11, fill=MUTED)
    hx = x + 46
    if hand is not None:
        for card in hand:
            key = f"hand:{card['id']}"
            with s.group(data_key=key, data_why=ctx.why(key), cls="zg-card"):
                about = tr.gettext("heritage card {id} {name}: {effect}").format(
                    id=card["id"], name=card["name"], effect=card_words(card, tr)
                )
                s.tooltip(ctx.tip(key, about))
                _mini_card(s, card, hx, hy, 74, 28, "heritage", tr)
            hx += 78
        chosen = info.get("heritage_choice")
        if chosen:
            s.rect(hx, hy, 74, 28, rx=5, fill="#fff", stroke="#8a5a2b", stroke_dasharray="4 2")
            s.text(hx + 37, hy + 12, f"{chosen}", font_size=11, text_anchor="middle", fill=INK, font_weight="bold")
            s.text(hx + 37, hy + 24, tr.gettext("chosen"), font_size=9, text_anchor="middle", fill=MUTED)
            hx += 78
        if not hand and not chosen:
            s.text(hx, hy + 19, tr.gettext("no cards"), font_size=12, fill=MUTED)
    else:
        count = int(info["heritage_in_hand"])
        with s.group(cls="zg-hidden-hand"):
            s.tooltip(
                tr.ngettext("{n} heritage card in hand (hidden)", "{n} heritage cards in hand (hidden)", count).format(
                    n=count
                )
            )
            if not count:
                s.text(hx, hy + 19, tr.gettext("no cards"), font_size=12, fill=MUTED)
                hx += 60
            for k in range(count):
                s.rect(hx + k * 8, hy + 2, 20, 26, rx=3, fill="#8a5a2b", stroke="#4a2e12")
                s.text(
                    hx + k * 8 + 10, hy + 20, "?", font_size=12, text_anchor="middle", fill="#f3e0c8", cls="zg-glyph"
                )
            if count:
                s.text(hx + count * 8 + 18, hy + 20, f"×{count}", font_size=13, font_weight="bold", fill=INK)
                hx += count * 8 + 46
    # kept: offerings made, market cards bought, heritage cards played
    ky = y + 92
    kx = x + 14
    max_x = x + PANEL_W - 6
    room = 16 + text_width("+99", 11, bold=True) + 6  # an icon and at least a count
    if info["offerings"] and kx + room <= max_x:
        with s.group(cls="zg-offerings-made"):
            s.tooltip(tr.gettext("offerings made: {cards}").format(cards=tr.gettext(", ").join(info["offerings"])))
            icon(s, "offering", kx + 7, ky + 8, 14)
            kx = _chips(s, info["offerings"], kx + 16, ky, "#ffe9a8", "#9b7a2f", max_x) + 4
    if info["market_cards"] and kx + room <= max_x:
        with s.group(cls="zg-market-kept"):
            s.tooltip(
                tr.gettext("market cards kept: {cards}").format(cards=tr.gettext(", ").join(info["market_cards"]))
            )
            icon(s, "market", kx + 6, ky + 8, 14)
            kx = _chips(s, info["market_cards"], kx + 15, ky, "#dbe8f6", "#2c5d8f", max_x) + 4
    if info["heritage_played"] and kx + room <= max_x:
        with s.group(cls="zg-heritage-played"):
            s.tooltip(
                tr.gettext("heritage cards played: {cards}").format(
                    cards=tr.gettext(", ").join(info["heritage_played"])
                )
            )
            icon(s, "heritage", kx + 6, ky + 8, 14)
            _chips(s, info["heritage_played"], kx + 15, ky, "#f3e0c8", "#8a5a2b", max_x)


def board(
    view: Mapping[str, Any],
    player: int | None,
    legal: Sequence[tuple[int, str]],
    tr: Translator = ENGLISH,
    standing: Sequence[float | None] | None = None,
) -> Board:
    """Nakum's table for ``player`` (``None``: a spectator) and the click path of each legal move.

    Drawn from ``view`` (``state.view(player)``) and ``legal`` only, its texts in
    the language of ``tr`` (the names of places and cards stay as printed); the
    same arguments give the same SVG, byte for byte. ``standing``: each player's
    score so far as ``player`` sees it (``State.score_breakdown``: offerings, cards'
    end points, tokens and stores), shown by the star; without it the star counts
    point tokens only.
    """
    ctx = _Ctx(view, player, legal, tr)
    ctx.standing = standing
    n = ctx.n
    rows = (n + 1) // 2
    height = PLAYERS_Y + rows * (PANEL_H + GAP) - GAP + MARGIN
    s = Svg(
        W, height, title=tr.gettext("Nakum — round {n}").format(n=view["round"]), font_family="system-ui, sans-serif"
    )
    s.rect(0, 0, W, height, fill="#efe6d2")
    _header(s, ctx)
    for tile in view["tiles"]:
        col, row = GRID[int(tile["position"]) - 1]
        x, y = _tile_xy(col, row)
        if tile["tile"] is None:
            _face_down(s, ctx, tile, x, y)
        else:
            _face_up(s, ctx, tile, x, y)
    _pyramid(s, ctx, *_tile_xy(1, 1))
    _strip(s, ctx)
    _market(s, ctx)
    for p, info in enumerate(view["players_info"]):
        x = MARGIN + (p % 2) * (PANEL_W + GAP)
        y = PLAYERS_Y + (p // 2) * (PANEL_H + GAP)
        _player(s, ctx, p, info, x, y)
    return Board(svg=s.render(), paths=ctx.paths)
