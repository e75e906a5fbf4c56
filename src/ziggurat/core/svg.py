"""Drawing a table for the web: an SVG built from a view, and the clicks that make each move.

A game's ``board(view, player, legal)`` (see :class:`~ziggurat.core.registry.GameEntry`)
returns a :class:`Board`: one ``<svg>`` element drawn from the view only, and for
each legal action the *click path* that makes it: the ``data-key`` values of the
board elements clicked in turn. Most moves are one click (``("card:9a",)``); a move
the rulebook builds from two choices is two (Lucent: the gem in your hand, then the
slot: ``("hand:red", "slot:0:9")``). The page highlights the elements whose key can
come next and sends the action once a path is complete; an action with an empty
path is made from the list of actions beside the board. No rules run in the page:
every path comes from here.

Paths are checked by :func:`check_paths`: every key is on the board, no path is
a prefix of another, so a completed path always names exactly one action.

>>> s = Svg(100, 40, title="demo")
>>> s.rect(0, 0, 10, 10, cls="zg-frame")
>>> with s.group(data_key="card:1", cls="zg-card"):
...     s.text(5, 5, "<1>")
>>> print(s.render())  # doctest: +NORMALIZE_WHITESPACE
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 40" class="zg-board" role="group"
 aria-label="demo"><title>demo</title><rect x="0" y="0" width="10" height="10" class="zg-frame"/><g
 data-key="card:1" class="zg-card"><text x="5" y="5">&lt;1&gt;</text></g></svg>
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from html import escape, unescape
from importlib.resources import files
from typing import TypeVar

__all__ = ["Board", "Svg", "board_keys", "check_paths", "esc", "fit_size", "fmt", "text_width", "wrap"]


@dataclass(frozen=True)
class Board:
    """A drawn table: the SVG markup and the click path of each legal action."""

    svg: str
    paths: Mapping[int, tuple[str, ...]] = field(default_factory=dict)


_SPECIAL = re.compile(r"[&<>\"']")


def esc(text: object) -> str:
    """``text`` escaped for SVG/HTML text and attribute values."""
    text = text if type(text) is str else str(text)
    return text if _SPECIAL.search(text) is None else escape(text, quote=True)


def fmt(value: float) -> str:
    """A coordinate written short: ``12.0`` -> ``'12'``, ``1/3`` -> ``'0.33'``."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


# A board is hundreds of elements, drawn again for every audience after every move, and most of their
# attribute names, coordinates and values come back again and again: each is worked out once and kept
# (up to _KEEP of each kind; then the kept ones are dropped and kept anew).
_KEEP = 65_536
_K = TypeVar("_K")
_V = TypeVar("_V")
_names: dict[str, str] = {}
_numbers: dict[float, str] = {}
_values: dict[str, str] = {}
_fragments: dict[Hashable, tuple[str, float | None]] = {}
_KEEP_DRAWN = 16_384  # fragments are markup of a few hundred bytes: at most a few MB kept
_KEEP_TOKENS = 1_024
KEEP_FRAGMENTS = True
"""Whether :meth:`Svg.fragment` keeps what it drew (the tests turn it off to compare)."""


def _keep(store: dict[_K, _V], key: _K, value: _V, limit: int) -> _V:
    """``store[key] = value``, the store first emptied if it holds ``limit`` already; returns ``value``."""
    if len(store) >= limit:
        store.clear()
    store[key] = value
    return value


_tokens: dict[object, int] = {}
_next_token = itertools.count()


def token(value: object) -> int:
    """A small number that stands for ``value`` in :meth:`Svg.fragment` keys: equal values get the same one.

    For a key part that is large (a sheet's whole geometry, kept once instead of in every key that names
    it) or an object that is equal only to itself (a translator: two objects are two numbers, and the one
    kept here cannot be freed and its ``id`` reused); ``value`` must be hashable. Numbers are never given
    twice: when the store is full it is emptied and the values get new numbers (what was kept under the
    old ones is drawn again).

    >>> token(("a", 1)) == token(("a", 1)) != token(("b", 2))
    True
    """
    got = _tokens.get(value)
    if got is None:
        got = _keep(_tokens, value, next(_next_token), _KEEP_TOKENS)
    return got


def forget() -> None:
    """Drop every kept fragment and token (a benchmark's pass then meets its boards as a server meets new
    positions: nothing of them drawn yet)."""
    _fragments.clear()
    _tokens.clear()


def _name(name: str) -> str:
    key = name.rstrip("_").replace("_", "-")
    return _keep(_names, name, "class" if key == "cls" else key, _KEEP)


def _number(value: float) -> str:
    return _keep(_numbers, value, fmt(value), _KEEP)


def _value(value: str) -> str:
    if len(value) > 64:  # a tooltip's sentence, not a colour, a class or a key: not kept
        return esc(value)
    return _keep(_values, value, esc(value), _KEEP)


@functools.cache
def _widths() -> tuple[dict[str, float], dict[str, float]]:
    data = json.loads(files("ziggurat.core").joinpath("data", "text_widths.json").read_text(encoding="utf-8"))
    chars = data["chars"]
    return dict(zip(chars, data["regular"], strict=True)), dict(zip(chars, data["bold"], strict=True))


def text_width(text: object, size: float, bold: bool = False) -> float:
    """How wide ``text`` is at font size ``size`` in DejaVu Sans (what Debian's Chromium shows for system-ui).

    The widest of the common sans-serif faces, so a text measured with it fits
    in the others too. A drawing leaves this much room for a text whose words it
    does not choose (a translation, a name), so that nothing runs into what
    follows it. Characters outside the table count as a wide letter.

    >>> round(text_width("12 pts", 20), 1), round(text_width("12 pts", 20, bold=True), 1)
    (62.8, 70.6)
    """
    regular, heavy = _widths()
    table = heavy if bold else regular
    fallback = 0.72 if bold else 0.66
    return size * sum(table.get(ch, fallback) for ch in str(text))


def fit_size(text: object, size: float, width: float, minimum: float, bold: bool = False) -> float:
    """The font size (at most ``size``, at least ``minimum``) at which ``text`` fits in ``width``.

    >>> fit_size("short", 16, 200, 11), fit_size("a much longer label here", 16, 150, 11)
    (16, 11)
    """
    need = text_width(text, size, bold)
    if need <= width:
        return size
    return max(minimum, int(size * width / need))


def wrap(text: object, size: float, width: float, bold: bool = False) -> list[str]:
    """``text`` broken into lines no wider than ``width`` where it can be (at spaces; a long word stays whole).

    >>> wrap("needs 8 tiles", 10, 45)
    ['needs 8', 'tiles']
    """
    lines: list[str] = []
    for word in str(text).split():
        if lines and text_width(lines[-1] + " " + word, size, bold) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _attrs(attrs: Mapping[str, object]) -> str:
    out = []
    for name, value in attrs.items():
        if value is None or value is False:
            continue
        key = _names.get(name) or _name(name)
        if value is True:
            out.append(f' {key}="{key}"')
        elif isinstance(value, float):
            out.append(f' {key}="{_numbers.get(value) or _number(value)}"')
        elif type(value) is str:
            out.append(f' {key}="{_values.get(value) or _value(value)}"')
        else:
            out.append(f' {key}="{esc(value)}"')
    return "".join(out)


class Svg:
    """A small SVG writer: elements in order, attributes escaped, groups nested.

    Attribute names are written Python-style: ``cls`` is ``class``, underscores
    become dashes (``data_key`` -> ``data-key``, ``stroke_width``), a trailing
    underscore is dropped; ``None`` and ``False`` leave an attribute out.
    """

    def __init__(self, width: float, height: float, title: str = "", **attrs: object):
        self.width = width
        self.height = height
        self.title = title
        self.attrs = attrs
        self._parts: list[str] = []
        self._open: list[str] = []
        # the smallest text drawn (the page keeps it readable on a phone); a "zg-glyph" (a letter or sign on an
        # icon, whose colour and shape say the same) does not count
        self.min_font: float | None = None

    def element(self, tag: str, text: str | None = None, /, **attrs: object) -> None:
        """Add one element; ``text`` (escaped) goes inside it."""
        if (
            tag == "text"
            and attrs.get("font_size") is not None
            and "zg-glyph" not in str(attrs.get("cls") or "").split()
        ):
            try:
                size = float(str(attrs["font_size"]))
            except ValueError:
                size = None
            if size is not None and (self.min_font is None or size < self.min_font):
                self.min_font = size
        if text is None:
            self._parts.append(f"<{tag}{_attrs(attrs)}/>")
        else:
            self._parts.append(f"<{tag}{_attrs(attrs)}>{esc(text)}</{tag}>")

    def rect(self, x: float, y: float, w: float, h: float, **attrs: object) -> None:
        """A rectangle."""
        self.element("rect", x=float(x), y=float(y), width=float(w), height=float(h), **attrs)

    def circle(self, cx: float, cy: float, r: float, **attrs: object) -> None:
        """A circle."""
        self.element("circle", cx=float(cx), cy=float(cy), r=float(r), **attrs)

    def line(self, x1: float, y1: float, x2: float, y2: float, **attrs: object) -> None:
        """A straight line."""
        self.element("line", x1=float(x1), y1=float(y1), x2=float(x2), y2=float(y2), **attrs)

    def polygon(self, points: Sequence[tuple[float, float]], **attrs: object) -> None:
        """A closed polygon through ``points``."""
        number = _numbers.get
        points_text = " ".join(f"{number(x) or _number(x)},{number(y) or _number(y)}" for x, y in points)
        self.element("polygon", points=points_text, **attrs)

    def text(self, x: float, y: float, text: object, **attrs: object) -> None:
        """Text anchored at ``(x, y)``."""
        self.element("text", str(text), x=float(x), y=float(y), **attrs)

    def tooltip(self, text: object) -> None:
        """A ``<title>`` for the enclosing group (shown on hover, read by screen readers)."""
        self.element("title", str(text))

    def raw(self, markup: str) -> None:
        """Markup written as is (only for markup this module or a game built itself)."""
        self._parts.append(markup)

    def fragment(self, key: Hashable, draw: Callable[[Svg], None]) -> None:
        """Add what ``draw(svg)`` adds, drawn once per ``key`` and then kept (a card on a board that is drawn
        again after every move, for every audience, looks the same as long as what it shows is the same).

        ``key`` must name everything the drawing reads (its values, its place, its words in the page's
        language): two calls with equal keys get the same markup. A drawing whose parts a player may
        click, or that says something only to one seat, keeps that in its key too or is not kept at all.
        Set ``svg.KEEP_FRAGMENTS = False`` to draw every time (the tests compare both).
        """
        kept = _fragments.get(key) if KEEP_FRAGMENTS else None
        if kept is None:
            sub = Svg(self.width, self.height)
            draw(sub)
            if sub._open:
                raise ValueError("an SVG group was left open")
            kept = ("".join(sub._parts), sub.min_font)
            if KEEP_FRAGMENTS:
                _keep(_fragments, key, kept, _KEEP_DRAWN)
        markup, smallest = kept
        self._parts.append(markup)
        if smallest is not None and (self.min_font is None or smallest < self.min_font):
            self.min_font = smallest

    @contextmanager
    def group(self, **attrs: object) -> Iterator[None]:
        """A ``<g>`` around everything added inside the ``with`` block."""
        self._parts.append(f"<g{_attrs(attrs)}>")
        self._open.append("g")
        try:
            yield
        finally:
            self._open.pop()
            self._parts.append("</g>")

    def render(self) -> str:
        """The whole ``<svg>`` element."""
        if self._open:
            raise ValueError("an SVG group was left open")
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {fmt(self.width)} {fmt(self.height)}"'
            # a group, not an image: the parts a player may click are buttons inside it
            f' class="zg-board" role="group" aria-label="{esc(self.title)}"'
            + (f' data-min-font="{fmt(self.min_font)}"' if self.min_font is not None else "")
            + f"{_attrs(self.attrs)}>"
        )
        title = f"<title>{esc(self.title)}</title>" if self.title else ""
        return head + title + "".join(self._parts) + "</svg>"


_KEY = re.compile(r'data-key="([^"]*)"')


def board_keys(svg: str) -> set[str]:
    """Every ``data-key`` value on a drawn board (unescaped)."""
    return {unescape(k) for k in _KEY.findall(svg)}


def check_paths(board: Board, legal: Sequence[int]) -> list[str]:
    """Problems with ``board``'s click paths for the ``legal`` action ids (empty: all good)."""
    problems = []
    keys = board_keys(board.svg)
    for action, path in board.paths.items():
        if action not in legal:
            problems.append(f"path for action {action}, which is not legal")
        if not path:
            problems.append(f"empty path for action {action} (leave it out instead)")
        for key in path:
            if key not in keys:
                problems.append(f"action {action}: key {key!r} is not on the board")
    seen: dict[tuple[str, ...], int] = {}
    for action, path in board.paths.items():
        if path in seen:
            problems.append(f"actions {seen[path]} and {action} share the path {path}")
        seen[path] = action
    for action, path in board.paths.items():
        for other, longer in board.paths.items():
            if other != action and len(longer) > len(path) and longer[: len(path)] == path:
                problems.append(f"the path of action {action} is the start of action {other}'s path")
                break
    return problems
