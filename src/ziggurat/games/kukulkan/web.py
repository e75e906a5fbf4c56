"""Kukulkán's table for the web: every player's El Castillo sheet, drawn from a view.

Drawn from a view only (see :mod:`ziggurat.core.svg`). At the top: the round,
what the viewer may do now (or who is still choosing), the die of the round as
a die face, and which bonuses have been claimed by whom (the game ends after the
round in which base, axis and full have each been claimed; A–C and B–D close
once someone has them). Then the sheets: the viewer's own first and large, the
others smaller two to a row (a spectator sees them all the same size). A sheet
is the pyramid on its unit grid: stone blocks with their number (printed ones
on the base in dark ink, written ones in blue pen), a red cross on marked
blocks, the labels A B C D, the vertical axis (tinted blocks and a red
dash-dot mark above the top and below the ground), every border segment drawn
(solid ink) or still dotted. In the empty upper corners of the pyramid: on the
left the three one-use helps (``=`` same value, ``±1``, ``6→`` super-six; struck
out once used) and the permanent ±1 of the base bonus (gold once won); on the
right the five bonuses (gold when this player has claimed them, with their
points; grey and struck through when a first-to-claim bonus went to someone
else). A panel's head says who it is, whether they are still choosing or ready,
and the score (marked blocks plus bonus points; the rank once the game is over).
Under each sheet: what that player did last round, which is also shown on the
sheet with a yellow highlighter. The viewer's own choice in progress (their
trail so far, the number written or the block crossed, the help taken) is drawn
in violet; other players' choices are not in the view and are not drawn.

Keys (the viewer's own sheet only):

* ``seg:<s>`` a dotted segment: ``draw s<s>`` (the next segment of the trail).
  Its click area is the diamond between the segment's two end points and the
  centres of the two cells beside it, so the areas tile the grid without overlap.
* ``block:<b>`` a block: ``write b<b>`` or ``mark b<b>``. Never both at once: a
  write needs a blank block and a mark a numbered one. (Should that ever change,
  the second one falls back to a button, so paths stay unique.)
* ``help:same`` the same-value help: ``help same-value`` (one click).
* ``help:plus`` then ``value:<n>``: ``help plus-one <n>``; ``help:super`` then
  ``value:<n>``: ``help super-six <n>``. The value chips (die faces) lie under
  the helps and show only once a help is clicked (ghosts). With the permanent
  ±1 of the base bonus, ``help:plus`` is on the permanent icon.
* ``pass`` the Pass button, beside the helps.
* ``act:<id>`` a button for any action text this module does not know.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ziggurat.core.i18n import ENGLISH, N_, Translator, engine_text
from ziggurat.core.svg import Board, Svg, fit_size, fmt, text_width, token

__all__ = ["board"]

WIDTH = 680
MARGIN = 10
HEADER_H = 116.0
END_LINE_H = 24.0  # a finished game says why it ended on a line of its own under the bonuses
GAP = 10.0
LARGE_UNIT = 62.0
SMALL_UNIT = 29.0

INK = "#2b2118"
MUTED = "#7a6a58"
PAPER = "#fffdf8"
PANEL_EDGE = "#d9cbb5"
STONE = "#eee2c6"
STONE_EDGE = "#cdb98f"
AXIS_TINT = "#e8cfa2"
DOTS = "#a8957a"
PEN = "#1d4ed8"
CROSS = "#c0392b"
AXIS_MARK = "#b5452f"
PENDING = "#8e3bc2"
HIGHLIGHT = "#ffd43b"
GOLD = "#f2c230"
GOLD_PALE = "#fff1c2"
TURN = "#e69a00"
READY = "#2e9d5b"

_HELPS = (
    ("same-value", "=", N_("same value")),
    ("plus-one", "±1", N_("plus/minus one")),
    ("super-six", "6→", N_("super-six")),
)
_BONUS_WORDS = {
    "base": N_("base: every base block marked, a permanent ±1"),
    "axis": N_("axis: the five axis blocks marked, 3 points"),
    "full": N_("full: every block numbered, the highest external block's value"),
    "A-C": N_("first to claim A and C marked: |C − A| points"),
    "B-D": N_("first to claim B and D marked: |D − B| points"),
}
# the names of the three bonuses on their badges and in the header (A–C and B–D are letters)
_BONUS_NAMES = {"base": N_("base"), "axis": N_("axis"), "full": N_("full")}
ORDINALS = {1: N_("1st"), 2: N_("2nd"), 3: N_("3rd")}
_PIPS = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}


@dataclass
class _Moves:
    """The viewer's legal actions, sorted by what they click."""

    segs: dict[int, int] = field(default_factory=dict)  # segment -> action
    blocks: dict[int, tuple[int, str]] = field(default_factory=dict)  # block -> (action, "write" | "mark")
    same: int | None = None
    plus: dict[int, int] = field(default_factory=dict)  # resulting value -> action
    super_: dict[int, int] = field(default_factory=dict)
    pass_: int | None = None
    other: list[tuple[int, str]] = field(default_factory=list)

    def any(self) -> bool:
        """Whether the viewer has anything to do (they are asked to decide now)."""
        return bool(self.segs or self.blocks or self.same is not None or self.plus or self.super_ or self.other) or (
            self.pass_ is not None
        )

    @classmethod
    def parse(cls, legal: Sequence[tuple[int, str]]) -> _Moves:
        m = cls()
        for action, text in legal:
            w = text.split()
            if len(w) == 2 and w[0] == "draw" and w[1][:1] == "s" and w[1][1:].isdigit():
                m.segs[int(w[1][1:])] = action
            elif len(w) == 2 and w[0] in ("write", "mark") and w[1][:1] == "b" and w[1][1:].isdigit():
                b = int(w[1][1:])
                if b in m.blocks:
                    m.other.append((action, text))
                else:
                    m.blocks[b] = (action, w[0])
            elif w == ["pass"]:
                m.pass_ = action
            elif w == ["help", "same-value"]:
                m.same = action
            elif len(w) == 3 and w[:2] == ["help", "plus-one"] and w[2].isdigit():
                m.plus[int(w[2])] = action
            elif len(w) == 3 and w[:2] == ["help", "super-six"] and w[2].isdigit():
                m.super_[int(w[2])] = action
            else:
                m.other.append((action, text))
        return m

    @property
    def values(self) -> list[int]:
        """Every value a two-click help can lead to (the chips to draw)."""
        return sorted(set(self.plus) | set(self.super_))

    def paths(self) -> dict[int, tuple[str, ...]]:
        out: dict[int, tuple[str, ...]] = {}
        for s, a in self.segs.items():
            out[a] = (f"seg:{s}",)
        for b, (a, _) in self.blocks.items():
            out[a] = (f"block:{b}",)
        if self.same is not None:
            out[self.same] = ("help:same",)
        for v, a in self.plus.items():
            out[a] = ("help:plus", f"value:{v}")
        for v, a in self.super_.items():
            out[a] = ("help:super", f"value:{v}")
        if self.pass_ is not None:
            out[self.pass_] = ("pass",)
        for a, _ in self.other:
            out[a] = (f"act:{a}",)
        return out


@dataclass(frozen=True)
class _Geo:
    """The sheet's geometry from the view: segments, blocks and the grid's size in units."""

    segments: list[tuple[int, int, int, int]]
    blocks: list[Mapping[str, Any]]
    width: int
    height: int

    @classmethod
    def of(cls, sheet: Mapping[str, Any]) -> _Geo:
        segs = [(int(a), int(b), int(c), int(d)) for a, b, c, d in sheet["segments"]]
        return cls(
            segments=segs,
            blocks=list(sheet["blocks"]),
            width=max(max(s[0], s[2]) for s in segs),
            height=max(max(s[1], s[3]) for s in segs),
        )

    def free(self, x0: float, x1: float, y0: float, y1: float) -> bool:
        """True if no block overlaps the unit rectangle [x0, x1] x [y0, y1]."""
        for blk in self.blocks:
            a, b = blk["span"]
            r = blk["row"]
            if a < x1 and x0 < b and r < y1 and y0 < r + 1:
                return False
        return True

    def corners(self) -> bool:
        """True if the upper corners hold the helps and bonuses (3 x 2 units each, 2 x 1 under the left)."""
        w, h = self.width, self.height
        return (
            w >= 8
            and h >= 3
            and self.free(0, 3, h - 2, h)
            and self.free(0, 2, h - 3, h - 2)
            and self.free(w - 3, w, h - 2, h)
        )

    def name(self, b: int) -> str:
        label = self.blocks[b].get("label")
        return f"{label} (b{b})" if label else f"b{b}"

    def key(self) -> Hashable:
        """Everything of the geometry a drawn pyramid reads (its segments; each block's place, label and axis)."""
        return (
            tuple(self.segments),
            tuple((b["id"], b["row"], tuple(b["span"]), b.get("label"), bool(b.get("axis"))) for b in self.blocks),
        )


def _names(view: Mapping[str, Any], player: int | None, tr: Translator) -> list[str]:
    return [
        tr.gettext("You") if p == player else tr.gettext("Player {n}").format(n=p + 1)
        for p in range(int(view["players"]))
    ]


def _ordinal(rank: int, tr: Translator) -> str:
    if rank in ORDINALS:
        return tr.gettext(ORDINALS[rank])
    return tr.gettext("{n}th").format(n=rank)


def _pts(n: int, tr: Translator) -> str:
    return tr.ngettext("{n} pt", "{n} pts", n).format(n=n)


def _choice_words(c: Mapping[str, Any] | None, geo: _Geo, tr: Translator, *, mine: bool = False) -> str:
    """A choice as words: ``drew 4 segments``, ``wrote 3 in C (b6)`` (with a help: ``±1 → 3, …``)."""
    if not c:
        return ""
    parts = []
    help_ = c.get("help")
    if help_ == "same-value":
        parts.append(tr.gettext("same value"))
    elif help_:
        short = {
            "plus-one": "±1",
            "permanent plus-one": tr.gettext("permanent ±1"),
            "super-six": tr.gettext("super-six"),
        }
        parts.append(tr.gettext("{help} → {value}").format(help=short.get(help_, help_), value=c["value"]))
    kind = c.get("kind")
    trail = c.get("trail") or []
    if kind == "draw":
        if c.get("complete") is False:
            parts.append(tr.gettext("drawing {n} of {value}").format(n=len(trail), value=c["value"]))
        else:
            parts.append(tr.ngettext("drew {n} segment", "drew {n} segments", len(trail)).format(n=len(trail)))
    elif kind == "write" and c.get("block") is not None:
        block = geo.name(int(c["block"]))
        if mine:
            parts.append(tr.gettext("writes {value} in {block}").format(value=c["value"], block=block))
        else:
            parts.append(tr.gettext("wrote {value} in {block}").format(value=c["value"], block=block))
    elif kind == "mark" and c.get("block") is not None:
        block = geo.name(int(c["block"]))
        parts.append((tr.gettext("marks {block}") if mine else tr.gettext("marked {block}")).format(block=block))
    elif kind == "pass":
        parts.append(tr.gettext("passes") if mine else tr.gettext("passed"))
    return tr.gettext(", ").join(parts)


def _status(
    view: Mapping[str, Any], player: int | None, moves: _Moves, names: list[str], tr: Translator
) -> tuple[str, str]:
    """The headline and its colour."""
    phase = view["phase"]
    n = int(view["players"])
    if phase == "over":
        scores = view.get("scores") or [s["score"] for s in view["sheets"]]
        ranks = view.get("ranks") or [1] * n
        winners = [p for p in range(n) if ranks[p] == 1]
        pts = _pts(int(scores[winners[0]]), tr) if winners else ""
        if n == 1:
            return tr.gettext("Game over: you scored {points}").format(points=pts), INK
        if len(winners) == 1:
            if winners[0] == player:
                return tr.gettext("Game over: you win with {points}").format(points=pts), INK
            return tr.gettext("Game over: {name} wins with {points}").format(name=names[winners[0]], points=pts), INK
        together = tr.gettext(" and ").join(names[p] for p in winners)
        return tr.gettext("Game over: {names} share the win ({points})").format(names=together, points=pts), INK
    if phase != "choose":
        return tr.gettext("Rolling the die…"), MUTED
    choosing = [p for p in range(n) if not view["chosen"][p]]
    choice = view.get("choice")
    if player is not None and choice is not None and choice.get("complete"):
        mine = _choice_words(choice, _Geo.of(view["sheet"]), tr, mine=True)
        others = [names[p] for p in choosing if p != player]
        if len(others) > 2:
            wait = tr.gettext("waiting for {n} players").format(n=len(others))
        elif others:
            wait = tr.gettext("waiting for {names}").format(names=tr.gettext(", ").join(others))
        else:
            wait = ""
        line = tr.gettext("You are ready ({choice})").format(choice=mine)
        if len(line) > 52 - len(wait):
            line = tr.gettext("You are ready")
        return (tr.gettext("{line} — {wait}").format(line=line, wait=wait) if wait else line), READY
    if player is not None and choice is not None and moves.any():
        v = choice.get("value") or view["die"]
        if choice.get("kind") == "draw":
            left = int(v) - len(choice.get("trail") or [])
            return tr.ngettext(
                "Draw on: {n} more segment of the trail", "Draw on: {n} more segments of the trail", left
            ).format(n=left), TURN
        if choice.get("help") == "same-value":
            return tr.gettext("Same value: write {value} where it equals the support").format(value=v), TURN
        if choice.get("help"):
            return tr.gettext("Now use your {value}: draw, write or mark").format(value=v), TURN
        if moves.pass_ is not None and not (moves.segs or moves.blocks):
            if moves.same is not None or moves.plus or moves.super_:
                return tr.gettext("Nothing fits the {value}: pass (or take a help)").format(value=v), TURN
            return tr.gettext("Nothing fits the {value}: pass").format(value=v), TURN
        verbs = [tr.ngettext("draw {n} segment", "draw {n} segments", int(v)).format(n=v)] if moves.segs else []
        kinds = {k for _, k in moves.blocks.values()}
        if "write" in kinds:
            verbs.append(tr.gettext("write"))
        if "mark" in kinds:
            verbs.append(tr.gettext("mark"))
        if not verbs:
            return tr.gettext("Use the {value}: take a help").format(value=v), TURN
        if len(verbs) == 1:
            said = verbs[0]
        else:
            said = tr.gettext("{first} or {last}").format(first=tr.gettext(", ").join(verbs[:-1]), last=verbs[-1])
        return tr.gettext("Use the {value}: {what}").format(value=v, what=said), TURN
    ready = n - len(choosing)
    return tr.gettext("Choosing with the {die}: {ready} of {n} ready").format(die=view["die"], ready=ready, n=n), MUTED


def _die(s: Svg, x: float, y: float, size: float, value: int | None, *, fill: str = "#fff") -> None:
    """A die face (top-left corner at x, y); ``None`` draws a blank die with a question mark."""
    s.rect(x, y, size, size, rx=f"{size * 0.18:.1f}", fill=fill, stroke=INK, stroke_width=2)
    cx, cy = x + size / 2, y + size / 2
    if value in _PIPS:
        r = size * 0.09
        for dx, dy in _PIPS[value]:
            s.circle(cx + dx * size * 0.26, cy + dy * size * 0.26, r, fill=INK)
    else:
        s.text(cx, cy + size * 0.2, "?", font_size=f"{size * 0.55:.0f}", text_anchor="middle", fill=MUTED)


def _bonus_line(view: Mapping[str, Any], names: list[str], player: int | None, tr: Translator) -> tuple[str, str]:
    claimed = view["claimed_by"]

    def who(name: str) -> str:
        ps = claimed.get(name) or []
        return tr.gettext(", ").join(names[p] if p != player else tr.gettext("you") for p in ps) if ps else "—"

    said = tr.gettext(", ").join(
        tr.gettext("{bonus}: {who}").format(bonus=tr.gettext(_BONUS_NAMES[n]), who=who(n))
        for n in ("base", "axis", "full")
    )
    normal = tr.gettext("Bonuses won — {bonuses}").format(bonuses=said)
    firsts = []
    for n in ("A-C", "B-D"):
        state = tr.gettext("{who} (closed)").format(who=who(n)) if claimed.get(n) else tr.gettext("open")
        firsts.append(tr.gettext("{bonus}: {who}").format(bonus=n.replace("-", "–"), who=state))
    first = tr.gettext("First to claim — {bonuses}").format(bonuses=tr.gettext(", ").join(firsts))
    return normal, first


def board(
    view: Mapping[str, Any], player: int | None, legal: Sequence[tuple[int, str]], tr: Translator = ENGLISH
) -> Board:
    """Draw the Kukulkán table as ``player`` sees it, its texts in the language of ``tr``; click paths for ``legal``.

    >>> from ziggurat.core import Match, make_game
    >>> m = Match(make_game("kukulkan", 2), seed=1)
    >>> m.resolve_chance()
    >>> b = board(m.state.view(0), 0, m.state.legal_action_texts(0))
    >>> b.paths[0]  # draw s0
    ('seg:0',)
    """
    moves = _Moves.parse(legal)
    geo = _Geo.of(view["sheet"])
    n = int(view["players"])
    names = _names(view, player, tr)
    own = player if player is not None and 0 <= player < n else None
    order = ([own] if own is not None else []) + [p for p in range(n) if p != own]

    # --- layout: the own sheet large, the others two to a row (a spectator: all alike)
    corners = geo.corners()
    inner = WIDTH - 2 * MARGIN
    col_w = (inner - GAP) / 2
    placed: list[tuple[int, float, float, float, float]] = []  # player, x, y, width, unit
    ended = view["phase"] == "over" and bool(view.get("end"))
    y = HEADER_H + (END_LINE_H if ended else 0.0)
    rest = order
    if own is not None or n <= 2:
        big = order[:1] if own is not None else order
        rest = order[1:] if own is not None else []
        for p in big:
            unit = min(LARGE_UNIT, (inner - 40) / geo.width)
            placed.append((p, MARGIN, y, inner, unit))
            y += _panel_height(geo, unit, corners, large=True) + GAP
    if len(rest) == 1 and own is None:
        rest_cols = 1
    else:
        rest_cols = 2
    for i in range(0, len(rest), rest_cols):
        row = rest[i : i + rest_cols]
        w = col_w if rest_cols == 2 else inner
        unit = min(SMALL_UNIT, (w - 24) / geo.width)
        for j, p in enumerate(row):
            placed.append((p, MARGIN + j * (col_w + GAP), y, w, unit))
        y += _panel_height(geo, unit, corners, large=False) + GAP
    extra = 50.0 if moves.other else 0.0
    total = y + extra

    s = Svg(WIDTH, total, title=tr.gettext("Kukulkán: the pyramid sheets"))
    s.rect(0, 0, WIDTH, total, fill="#f6f1e7")

    # --- the header: round, status, die, bonuses
    title = tr.gettext("Kukulkán · round {n}").format(n=view["round"]) if view["round"] else "Kukulkán"
    if n == 1:
        title = tr.gettext("{title} · practice").format(title=title)
    room = WIDTH - 2 * MARGIN - 12
    s.text(MARGIN + 6, 32, title, font_size=fmt(fit_size(title, 24, room, 17, bold=True)), font_weight="bold",
           fill=INK)  # fmt: skip
    status, colour = _status(view, own, moves, names, tr)
    beside_die = room - (0 if view["phase"] == "over" else 150)
    s.text(MARGIN + 6, 62, status, font_size=fmt(fit_size(status, 19, beside_die, 13, bold=True)), font_weight="bold",
           fill=colour, cls="kk-status")  # fmt: skip
    normal, first = _bonus_line(view, names, own, tr)
    s.text(MARGIN + 6, 88, normal, font_size=fmt(fit_size(normal, 16, room, 11)), fill=MUTED, cls="kk-bonuses")
    s.text(MARGIN + 6, 108, first, font_size=fmt(fit_size(first, 16, room, 11)), fill=MUTED, cls="kk-first")
    if ended:  # why the game ended, on a line of its own
        end = view["end"]
        why = tr.gettext("The game ended: {why}.").format(why=engine_text(end["message"], tr))
        with s.group(cls="kk-end", data_end=str(end["code"])):
            s.text(MARGIN + 6, 108 + END_LINE_H, why, font_size=fmt(fit_size(why, 15, room, 11)), fill=INK)
    die = view.get("die")
    if view["phase"] != "over":
        choice = view.get("choice")
        changed = bool(choice and choice.get("help") and choice.get("value") and int(choice["value"]) != int(die or 0))
        size = 44.0 if changed else 62.0
        dx = WIDTH - MARGIN - 8 - size - (size + 36 if changed else 0)
        with s.group(cls="kk-die", data_value=str(die) if die else None):
            if die:
                s.tooltip(tr.gettext("The die of the round shows {n}").format(n=die))
            else:
                s.tooltip(tr.gettext("The die is about to be rolled"))
            _die(s, dx, 8 if changed else 12, size, int(die) if die else None)
        if changed and choice:
            s.text(dx + size + 18, 40, "→", font_size="26", text_anchor="middle", fill=PENDING)
            with s.group(cls="kk-your-value", data_value=str(choice["value"])):
                s.tooltip(tr.gettext("With your help you use a {n}").format(n=choice["value"]))
                _die(s, dx + size + 36, 8, size, int(choice["value"]), fill="#f3e8fb")

    for p, x, py, w, unit in placed:
        mine = moves if p == own else None
        _panel(s, view, geo, p, x, py, w, unit, names, mine, corners, tr, own=p == own, large=unit > SMALL_UNIT)

    if moves.other:
        bx = MARGIN + 6
        for action, text in moves.other:
            key = f"act:{action}"
            with s.group(data_key=key):
                s.tooltip(text)
                s.rect(bx, total - extra + 6, 180, 34, rx="6", fill="#fff", stroke=PANEL_EDGE, cls="zg-frame")
                s.text(bx + 90, total - extra + 29, text, font_size="15", text_anchor="middle", fill=INK)
            bx += 190
    return Board(svg=s.render(), paths=moves.paths())


def _panel_height(geo: _Geo, unit: float, corners: bool, *, large: bool) -> float:
    head = 44.0 if large else 34.0
    foot = 40.0 if large else 30.0
    strip = 0.0 if corners else 2.9 * unit
    return head + unit * (geo.height + 0.3) + strip + foot


def _panel(
    s: Svg,
    view: Mapping[str, Any],
    geo: _Geo,
    p: int,
    x: float,
    y: float,
    w: float,
    unit: float,
    names: list[str],
    moves: _Moves | None,
    corners: bool,
    tr: Translator,
    *,
    own: bool,
    large: bool,
) -> None:
    """One player's sheet: head, pyramid, helps and bonuses, last round."""
    sheet = view["sheets"][p]
    h = _panel_height(geo, unit, corners, large=large)
    phase = view["phase"]
    choosing = phase == "choose" and not view["chosen"][p]
    mine = moves is not None
    head = 44.0 if large else 34.0
    hs = 21 if large else 16
    with s.group(cls="kk-sheet", data_player=str(p + 1)):
        s.rect(
            x,
            y,
            w,
            h,
            rx="10",
            fill=PAPER,
            stroke=TURN if mine and choosing else PANEL_EDGE,
            stroke_width=3 if mine and choosing else 1.5,
        )
        # head: name, status, score
        name = names[p]
        if own:
            if int(view["players"]) > 1:
                name = tr.gettext("You (player {n})").format(n=p + 1)
            else:
                name = tr.gettext("Your sheet")
        tx = x + 14
        if mine and choosing:
            s.polygon([(x + 10, y + head / 2 - 7), (x + 20, y + head / 2 + 1), (x + 10, y + head / 2 + 9)], fill=TURN)
            tx = x + 26
        s.text(tx, y + head / 2 + hs * 0.35 + 2, name, font_size=str(hs), font_weight="bold", fill=INK)
        score = int(sheet["score"])
        words = _pts(score, tr)
        detail = tr.gettext("{marked} marked + {bonus} bonus").format(
            marked=sheet["marked_count"], bonus=sheet["bonus_points"]
        )
        if phase == "over" and view.get("ranks"):
            rank = int(view["ranks"][p])
            if int(view["players"]) > 1:
                words = tr.gettext("{rank} · {points}").format(rank=_ordinal(rank, tr), points=words)
        with s.group(cls="kk-score", data_score=str(score)):
            s.tooltip(
                tr.gettext("{name}: {score} points — {marked} marked blocks, {bonus} bonus points").format(
                    name=names[p], score=score, marked=sheet["marked_count"], bonus=sheet["bonus_points"]
                )
            )
            s.text(x + w - 12, y + head / 2 + hs * 0.35 + 2, words, font_size=str(hs), font_weight="bold",
                   text_anchor="end", fill=INK)  # fmt: skip
            # the detail sits between the name (and its ready/choosing label) and the score, if it fits there
            detail_end = x + w - 12 - text_width(words, hs, bold=True) - 14
            taken = tx + text_width(name, hs, bold=True) + 14
            if phase == "choose":
                label_fs = 15 if large else 13
                taken += text_width(tr.gettext("choosing…"), label_fs, bold=True) + 24
            size = fit_size(detail, 15, detail_end - taken, 11)
            if large and text_width(detail, size) <= detail_end - taken:
                s.text(detail_end, y + head / 2 + 7, detail, font_size=fmt(size), text_anchor="end", fill=MUTED)
        if phase == "choose":
            label, colour = (tr.gettext("ready ✓"), READY) if not choosing else (tr.gettext("choosing…"), TURN)
            cx = tx + text_width(name, hs, bold=True) + 14
            with s.group(cls="kk-state", data_state="ready" if not choosing else "choosing"):
                if choosing:
                    s.tooltip(tr.gettext("{name}: still choosing").format(name=names[p]))
                else:
                    s.tooltip(tr.gettext("{name}: choice made (hidden until all are in)").format(name=names[p]))
                fs = 15 if large else 13
                pill = text_width(label, fs, bold=True) + 12
                s.rect(cx, y + head / 2 - fs * 0.8, pill, fs * 1.5, rx=str(fs * 0.75), fill="#fff", stroke=colour,
                       stroke_width=1.5)  # fmt: skip
                s.text(cx + 6, y + head / 2 + fs * 0.35, label, font_size=str(fs), fill=colour, font_weight="bold")

        # the grid
        gw = geo.width * unit
        left = x + (w - gw) / 2
        top = y + head + 0.15 * unit
        ground = top + geo.height * unit

        def pt(px: float, py: float) -> tuple[float, float]:
            return left + px * unit, ground - py * unit

        choice = view.get("choice") if mine else None
        last_all = view.get("last_round")
        last = last_all[p] if last_all else None

        def draw(f: Svg) -> None:
            _pyramid(f, view, geo, sheet, pt, unit, moves, choice, last, tr, large=large)

        if moves is not None and moves.any():  # the viewer's own sheet while they choose: clickable, drawn afresh
            draw(s)
        else:
            # a pyramid nobody may click now: drawn once for what it shows (the owner's pending choice too),
            # its place and its language
            pending = (
                (tuple(choice.get("trail") or ()), choice.get("block"), choice.get("kind"), choice.get("value"))
                if choice
                else None
            )
            key = (
                "kukulkan-pyramid",
                token(geo.key()),
                token(tr),
                left,
                ground,
                unit,
                large,
                tuple(sheet["drawn"]),
                tuple(sheet["marked"]),
                tuple(sheet["values"]),
                tuple(last.get("trail") or ()) if last else None,
                last.get("block") if last else None,
                pending,
            )
            s.fragment(key, draw)

        # helps, pass and value chips; bonuses
        if corners:
            hx, hy = pt(0, geo.height)
            bx, by = pt(geo.width - 3, geo.height)
            hx += 0.1 * unit
        else:  # a sheet without free upper corners: a strip under the grid, helps left, bonuses right
            hx, hy = x + 14, ground + 0.3 * unit
            bx, by = x + w - 14 - 3 * unit, ground + 0.3 * unit
        _helps(s, view, sheet, hx, hy, unit, moves, choice, tr)
        _bonuses(s, view, geo, sheet, p, bx, by, unit, names, tr)

        # last round
        fy = y + h - (14 if large else 10)
        words = _choice_words(last, geo, tr)
        if words:
            s.text(x + 14, fy, tr.gettext("Last round: {what}").format(what=words), font_size="15" if large else "13",
                   fill=MUTED, cls="kk-last")  # fmt: skip


def _pyramid(
    s: Svg,
    view: Mapping[str, Any],
    geo: _Geo,
    sheet: Mapping[str, Any],
    pt: Any,
    unit: float,
    moves: _Moves | None,
    choice: Mapping[str, Any] | None,
    last: Mapping[str, Any] | None,
    tr: Translator,
    *,
    large: bool,
) -> None:
    drawn = set(sheet["drawn"])
    marked = set(sheet["marked"])
    values = sheet["values"]
    pending = set(choice.get("trail") or []) if choice else set()
    pend_block = int(choice["block"]) if choice and choice.get("block") is not None else None
    pend_kind = choice.get("kind") if choice else None
    last_trail = set(last.get("trail") or []) if last else set()
    last_block = int(last["block"]) if last and last.get("block") is not None else None

    # the vertical axis: marks above the top and below the ground
    axis = [b for b in geo.blocks if b.get("axis")]
    if axis:
        ax = sum((b["span"][0] + b["span"][1]) / 2 for b in axis) / len(axis)
        top_row = max(b["row"] for b in axis) + 1
        x1, y1 = pt(ax, top_row)
        x0, y0 = pt(ax, 0)
        with s.group(cls="kk-axis"):
            s.tooltip(tr.gettext("The vertical axis: its blocks are tinted; all five marked win the axis bonus"))
            dash = f"{unit * 0.22:.1f} {unit * 0.08:.1f} {unit * 0.04:.1f} {unit * 0.08:.1f}"
            for ya, yb in ((y1 - 0.05 * unit, y1 - 0.22 * unit), (y0 + 0.05 * unit, y0 + 0.12 * unit)):
                s.line(x1, ya, x1, yb, stroke=AXIS_MARK, stroke_width=max(1.5, unit * 0.04), stroke_dasharray=dash)

    # the blocks
    for blk in geo.blocks:
        b = int(blk["id"])
        a, z = blk["span"]
        r = int(blk["row"])
        x0, y0 = pt(a, r + 1)
        bw, bh = (z - a) * unit, unit
        move = moves.blocks.get(b) if moves else None
        value = values[b]
        words = [geo.name(b)]
        if blk.get("label"):
            words.append(tr.gettext("label {letter}").format(letter=blk["label"]))
        if blk.get("axis"):
            words.append(tr.gettext("on the axis"))
        if value is not None and r == 0:
            words.append(tr.gettext("shows {n} (printed)").format(n=value))
        elif value is not None:
            words.append(tr.gettext("shows {n}").format(n=value))
        else:
            words.append(tr.gettext("blank"))
        if b in marked:
            words.append(tr.gettext("marked"))
        attrs: dict[str, object] = {"cls": "kk-block", "data_block": str(b)}
        if move:
            attrs["data_key"] = f"block:{b}"
        elif moves and moves.any():  # the viewer's own sheet while choosing: a click asks the engine why not
            attrs["data_why"] = f"write b{b}" if value is None else f"mark b{b}"
        with s.group(**attrs):
            if move:
                sup = [values[x] for x in blk.get("supports") or []]
                n = choice.get("value") if choice else view.get("die")
                if move[1] == "write" and sup:
                    tip = tr.gettext("Write: write a {n} in {block} (supports: {supports})").format(
                        n=n, block=geo.name(b), supports=" + ".join(map(str, sup))
                    )
                elif move[1] == "write":
                    tip = tr.gettext("Write: write a {n} in {block}").format(n=n, block=geo.name(b))
                else:
                    tip = tr.gettext("Mark: mark (cross) the {n} in {block}").format(n=value, block=geo.name(b))
                s.tooltip(tip)
            else:
                s.tooltip(tr.gettext(", ").join(words))
            s.rect(x0, y0, bw, bh, fill=AXIS_TINT if blk.get("axis") else STONE, stroke="none")
            if b == last_block:
                s.rect(x0 + 0.06 * unit, y0 + 0.06 * unit, bw - 0.12 * unit, bh - 0.12 * unit, fill=HIGHLIGHT,
                       fill_opacity="0.55", cls="kk-last-block")  # fmt: skip
            if move:
                s.rect(x0 + 0.1 * unit, y0 + 0.1 * unit, bw - 0.2 * unit, bh - 0.2 * unit, rx=f"{unit * 0.08:.1f}",
                       fill="#fff", fill_opacity="0.35", stroke="none", cls="zg-frame")  # fmt: skip
            cx, cy = x0 + bw / 2, y0 + bh / 2
            if b in marked or (pend_kind == "mark" and pend_block == b):
                pend = b not in marked
                d = min(bw, bh) * 0.34
                for sx in (-1, 1):
                    s.line(cx - d, cy - d * sx, cx + d, cy + d * sx, stroke=PENDING if pend else CROSS,
                           stroke_width=max(2.0, unit * 0.07), stroke_linecap="round",
                           stroke_dasharray=f"{unit * 0.1:.1f} {unit * 0.07:.1f}" if pend else None,
                           cls="kk-cross")  # fmt: skip
            fs = unit * (0.52 if large else 0.56)
            if blk.get("label") and z - a == 1:  # a narrow labelled block: the number steps aside
                cx += 0.1 * unit
                cy += 0.06 * unit
            if value is not None:
                printed = r == 0
                s.text(cx, cy + fs * 0.36, value, font_size=f"{fs:.0f}", text_anchor="middle",
                       font_weight="bold", fill=INK if printed else PEN,
                       font_family="Georgia, 'Times New Roman', serif" if printed else None,
                       stroke="#fff", stroke_width=f"{max(2.0, unit * 0.06):.1f}", paint_order="stroke",
                       cls="kk-value")  # fmt: skip
            elif pend_kind == "write" and pend_block == b and choice:
                s.text(cx, cy + fs * 0.36, choice.get("value"), font_size=f"{fs:.0f}", text_anchor="middle",
                       font_weight="bold", fill=PENDING, cls="kk-pending-value")  # fmt: skip
            if blk.get("label"):
                ls = unit * 0.22
                s.circle(x0 + ls * 0.85, y0 + ls * 0.85, ls * 0.68, fill="#fff", stroke=INK, stroke_width=1)
                s.text(x0 + ls * 0.85, y0 + ls * 1.2, blk["label"], font_size=f"{ls:.0f}", text_anchor="middle",
                       font_weight="bold", fill=INK, cls="kk-label zg-glyph")  # fmt: skip

    # the segments: dotted, then highlighted (last round), drawn, pending, then the clickable ones
    thick = max(2.2, unit * 0.075)
    dot = max(1.6, unit * 0.05)
    for k, (x1, y1, x2, y2) in enumerate(geo.segments):
        if k in last_trail:
            a, b_ = pt(x1, y1)
            c, d = pt(x2, y2)
            s.line(a, b_, c, d, stroke=HIGHLIGHT, stroke_width=f"{unit * 0.22:.1f}", stroke_opacity="0.75",
                   stroke_linecap="round", data_seg=str(k), cls="kk-last-seg")  # fmt: skip
    # while the viewer draws a trail, a segment that is no move says why when clicked (only then: while writing
    # or marking, a band along the segments would take the clicks meant for the blocks beside them)
    asks = bool(moves and moves.segs)
    for k, (x1, y1, x2, y2) in enumerate(geo.segments):
        if moves and k in moves.segs:
            continue
        a, b_ = pt(x1, y1)
        c, d = pt(x2, y2)
        if asks:
            # a narrow band along the segment (the blocks beside it keep their own clicks)
            hx, hy = (d - b_) * 0.12, (a - c) * 0.12
            with s.group(data_why=f"draw s{k}", cls="kk-seg-why"):
                s.polygon([(a + hx, b_ + hy), (c + hx, d + hy), (c - hx, d - hy), (a - hx, b_ - hy)], fill="#000",
                          fill_opacity="0", stroke="none")  # fmt: skip
        if k in drawn:
            s.line(a, b_, c, d, stroke=INK, stroke_width=f"{thick:.1f}", stroke_linecap="round", data_seg=str(k),
                   cls="kk-drawn")  # fmt: skip
        elif k in pending:
            s.line(a, b_, c, d, stroke=PENDING, stroke_width=f"{thick:.1f}", stroke_linecap="round",
                   data_seg=str(k), cls="kk-pending")  # fmt: skip
        else:
            s.line(a, b_, c, d, stroke=DOTS, stroke_width=f"{dot:.1f}", stroke_linecap="round",
                   stroke_dasharray=f"0 {unit * 0.125:.1f}", data_seg=str(k), cls="kk-dotted")  # fmt: skip
    if moves:
        n = choice.get("value") if choice else view.get("die")
        for k in sorted(moves.segs):
            x1, y1, x2, y2 = geo.segments[k]
            a, b_ = pt(x1, y1)
            c, d = pt(x2, y2)
            mx, my = (a + c) / 2, (b_ + d) / 2
            hx, hy = (d - b_) / 2, (a - c) / 2  # half the segment, turned a quarter
            with s.group(data_key=f"seg:{k}", cls="kk-seg"):
                if n:
                    s.tooltip(tr.gettext("Draw s{k} (a trail of {n})").format(k=k, n=n))
                else:
                    s.tooltip(tr.gettext("Draw s{k}").format(k=k))
                s.polygon([(a, b_), (mx + hx, my + hy), (c, d), (mx - hx, my - hy)], fill="#000",
                          fill_opacity="0", stroke="none")  # fmt: skip
                s.line(a, b_, c, d, stroke=DOTS, stroke_width=f"{dot:.1f}", stroke_linecap="round",
                       stroke_dasharray=f"0 {unit * 0.125:.1f}", cls="zg-frame")  # fmt: skip


def _helps(
    s: Svg,
    view: Mapping[str, Any],
    sheet: Mapping[str, Any],
    x: float,
    y: float,
    unit: float,
    moves: _Moves | None,
    choice: Mapping[str, Any] | None,
    tr: Translator,
) -> None:
    """The three one-use helps and the permanent ±1 from (x, y), with pass and the value chips below."""
    used = set(sheet["helps_used"])
    perm = bool(sheet["permanent_plus_minus"])
    taken = choice.get("help") if choice else None
    size = 0.62 * unit
    step = 0.72 * unit
    iy = y + 0.14 * unit
    icons = [(name, sym, tr.gettext(words)) for name, sym, words in _HELPS]
    icons.append(("permanent", "±1", tr.gettext("permanent ±1")))
    for i, (name, sym, words) in enumerate(icons):
        ix = x + i * step
        key = None
        if moves:
            if name == "same-value" and moves.same is not None:
                key = "help:same"
            elif moves.plus and ((name == "plus-one" and not perm) or (name == "permanent" and perm)):
                key = "help:plus"
            elif name == "super-six" and moves.super_:
                key = "help:super"
        is_used = name in used
        is_perm = name == "permanent"
        now = taken == name or (is_perm and taken == "permanent plus-one")
        if is_perm:
            fill, edge, ink = (GOLD, "#8a6d1f", INK) if perm else ("#f4efe4", "#cbbd9f", "#b7a88c")
        elif is_used:
            fill, edge, ink = ("#ece6da", "#b7a88c", "#a39479")
        else:
            fill, edge, ink = ("#fff", INK, INK)
        if now:
            fill, edge = "#f3e8fb", PENDING
        if is_perm and perm:
            tip = tr.gettext("Permanent ±1 (base bonus): yours, every round")
        elif is_perm:
            tip = tr.gettext("Permanent ±1 (base bonus): not won yet")
        elif is_used:
            tip = tr.gettext("Help {name}: used").format(name=words)
        elif now:
            tip = tr.gettext("Help {name}: taken this round").format(name=words)
        else:
            tip = tr.gettext("Help {name}: unused (once per game)").format(name=words)
        if key == "help:plus":
            if perm:
                tip = tr.gettext("Use the permanent ±1, then pick the new value")
            else:
                tip = tr.gettext("Use the ±1, then pick the new value")
        elif key == "help:super":
            tip = tr.gettext("Use super-six on the 6, then pick the new value (1 to 5)")
        elif key == "help:same":
            tip = tr.gettext("Use same value: write the number equal to a block's support (or sum)")
        with s.group(data_key=key, cls="kk-help", data_help=name, data_used="yes" if is_used else None):
            s.tooltip(tip)
            s.rect(ix, iy, size, size, rx=f"{size * 0.2:.1f}", fill=fill, stroke=edge,
                   stroke_width=2.5 if now else 1.5, cls="zg-frame" if key else None)  # fmt: skip
            fs = size * (0.42 if len(sym) > 1 else 0.6)
            # the permanent ±1 sits low in its box, its ∞ above it: neither covers the other
            cy = iy + size * (0.64 if is_perm else 0.5)
            s.text(ix + size / 2, cy + fs * 0.36, sym, font_size=f"{fs:.0f}", text_anchor="middle",
                   font_weight="bold", fill=ink, cls="zg-glyph")  # fmt: skip
            if is_perm:
                s.text(ix + size / 2, iy + size * 0.3, "∞", font_size=f"{size * 0.28:.0f}", text_anchor="middle",
                       fill=ink, cls="zg-glyph")  # fmt: skip
            if is_used and not is_perm:
                s.line(ix + 3, iy + size - 3, ix + size - 3, iy + 3, stroke=CROSS, stroke_width=max(1.5, unit * 0.05),
                       stroke_linecap="round")  # fmt: skip
    if not moves:
        return
    # the value chips (ghosts until a two-click help is picked), on the row below the helps
    cy = iy + unit
    chip = 0.54 * unit
    for i, v in enumerate(moves.values):
        cx = x + i * 0.58 * unit
        with s.group(data_key=f"value:{v}", cls="zg-ghost kk-value-chip"):
            s.tooltip(tr.gettext("Use a {n} this round").format(n=v))
            s.rect(cx, cy, chip, chip, rx=f"{chip * 0.18:.1f}", fill="#f3e8fb", stroke=PENDING, stroke_width=1.5,
                   cls="zg-frame")  # fmt: skip
            for dx, dy in _PIPS.get(v, ()):
                s.circle(cx + chip / 2 + dx * chip * 0.26, cy + chip / 2 + dy * chip * 0.26, chip * 0.08, fill=INK)
    if moves.pass_ is not None:
        px, py = x, iy + 2 * unit
        with s.group(data_key="pass", cls="kk-pass"):
            s.tooltip(tr.gettext("Pass: nothing can be drawn, written or marked with this number"))
            s.rect(px, py, 1.6 * unit, 0.62 * unit, rx=f"{unit * 0.12:.1f}", fill="#fff", stroke=INK,
                   stroke_width=1.5, cls="zg-frame")  # fmt: skip
            s.text(px + 0.8 * unit, py + 0.43 * unit, tr.gettext("Pass"), font_size=f"{unit * 0.32:.0f}",
                   text_anchor="middle", font_weight="bold", fill=INK)  # fmt: skip


def _bonuses(
    s: Svg,
    view: Mapping[str, Any],
    geo: _Geo,
    sheet: Mapping[str, Any],
    p: int,
    x: float,
    y: float,
    unit: float,
    names: list[str],
    tr: Translator,
) -> None:
    """The five bonus badges of player ``p`` from (x, y): three normal ones, then the two first-to-claim."""
    mine = set(sheet["bonuses"])
    claimed = view["claimed_by"]
    values = sheet["values"]
    labels = {blk["label"]: int(blk["id"]) for blk in geo.blocks if blk.get("label")}
    external = [int(blk["id"]) for blk in geo.blocks if blk.get("external")]

    def val(letter: str) -> int:
        b = labels.get(letter)
        v = values[b] if b is not None else None
        return int(v) if v is not None else 0

    points = {
        "base": "±1",
        "axis": "+3",
        "full": f"+{max((int(values[b]) for b in external if values[b] is not None), default=0)}",
        "A-C": f"+{abs(val('C') - val('A'))}",
        "B-D": f"+{abs(val('D') - val('B'))}",
    }
    # TRANSLATORS: on the "full" bonus badge: it is worth the highest value among the external blocks
    open_words = {"base": "±1", "axis": "3", "full": tr.gettext("max"), "A-C": "|C−A|", "B-D": "|D−B|"}
    layout = [("base", 0, 0, 1), ("axis", 1, 0, 1), ("full", 2, 0, 1), ("A-C", 0, 1, 1.5), ("B-D", 1.5, 1, 1.5)]
    for name, col, row, span in layout:
        bx = x + col * unit + 0.05 * unit
        by = y + 0.14 * unit + row * 0.86 * unit
        bw = span * unit - 0.1 * unit
        bh = 0.76 * unit
        got = name in mine
        others = [q for q in claimed.get(name) or [] if q != p]
        closed = name in ("A-C", "B-D") and not got and bool(claimed.get(name))
        if got:
            fill, edge, ink, value = GOLD_PALE, "#8a6d1f", INK, points[name]
        elif closed:
            fill, edge, ink = "#e6e1d8", "#b7a88c", "#9c8f7a"
            # TRANSLATORS: a player as the board names them, short (P for player)
            value = tr.gettext(", ").join(tr.gettext("P{n}").format(n=q + 1) for q in others)
        else:
            fill, edge, ink, value = "#fff", "#b7a88c", MUTED, open_words[name]
        state = "claimed" if got else "closed" if closed else "open"
        who = tr.gettext(", ").join(names[q] for q in others)
        if got:
            state_words = tr.gettext("claimed ({points})").format(points=points[name])
        elif closed:
            state_words = tr.gettext("closed: {names} got it first").format(names=who)
        elif others:
            state_words = tr.gettext("open (also claimed by {names})").format(names=who)
        else:
            state_words = tr.gettext("open")
        tip = tr.gettext("{bonus} — {state}").format(bonus=tr.gettext(_BONUS_WORDS[name]), state=state_words)
        with s.group(cls="kk-bonus", data_bonus=name, data_state=state):
            s.tooltip(tip)
            s.rect(bx, by, bw, bh, rx=f"{unit * 0.1:.1f}", fill=fill, stroke=edge, stroke_width=2 if got else 1,
                   stroke_dasharray=None if got or closed else f"{unit * 0.06:.1f} {unit * 0.05:.1f}")  # fmt: skip
            badge = tr.gettext(_BONUS_NAMES[name]) if name in _BONUS_NAMES else name.replace("-", "–")
            s.text(bx + bw / 2, by + bh * 0.4, badge, font_size=f"{unit * 0.24:.0f}",
                   text_anchor="middle", font_weight="bold", fill=ink)  # fmt: skip
            s.text(bx + bw / 2, by + bh * 0.84, value, font_size=f"{unit * 0.25:.0f}", text_anchor="middle",
                   fill=ink, font_weight="bold" if got else None)  # fmt: skip
            if closed:
                s.line(bx + 4, by + bh / 2, bx + bw - 4, by + bh / 2, stroke="#9c8f7a", stroke_width=1.5)
