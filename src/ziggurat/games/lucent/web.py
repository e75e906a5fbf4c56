"""Lucent's table for the web: the shared pyramid of gems and your hand.

Drawn from a view only (see :mod:`ziggurat.core.svg`). At the top, whose turn it
is. The pyramid fills the middle: the base row nine wide with the Focus Gem
ringed at its centre (``base 5``), the rows above offset by half a card, every
one of the 45 places drawn faintly so its shape shows from the start. A placed
card is a gem (each colour has its own cut, so colours are told apart without
colour too); an open slot is a dashed outline showing which colours may go
there ("any", or small gems). In the free corners beside the upper rows: the
players (hand size as a card-back count, out or without cards, who is to move,
who placed last, the gem each last played, the score once the game is over) on
the left; the cards still to deal, the gems removed and the variants on the
right. Below the pyramid: your hand, gems grouped by kind with counts (only in
your own view).

Keys (a move is two clicks, the gem in the hand then the place):

* ``hand:<kind>`` a kind of gem in your hand (``hand:red``, ``hand:wildcard``);
* ``slot:<row>:<pos>`` an open place, row 0 being the base and positions
  1-based as in the action texts (``play red at base 3`` is ``hand:red`` then
  ``slot:0:3``; ``play blue at row 2 slot 3`` is ``hand:blue`` then ``slot:2:3``);
* ``focus`` the centre of the empty base, for the first card of a 3- or
  5-player game (``play green as focus`` is ``hand:green`` then ``focus``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from ziggurat.core.i18n import ENGLISH, N_, Translator
from ziggurat.core.svg import Board, Svg, fit_size, token

__all__ = ["board"]

WIDTH = 640
ROWS = 9
CW = 64.0  # a card's place in the pyramid
CH = 46.0
RH = 46.0
X0 = (WIDTH - 9 * CW) / 2
TOP = 52.0
BASE_Y = TOP + (ROWS - 1) * RH

INK = "#2b2118"
MUTED = "#7a6a58"
FELT = "#1f3b3a"
PANEL_EDGE = "#d9cbb5"
TURN = "#e69a00"
FOCUS = "#8a6d1f"

COLOURS: dict[str, str] = {
    "red": "#d64045",
    "blue": "#2f6fd0",
    "yellow": "#f2c12e",
    "green": "#2e9d5b",
    "purple": "#8e44ad",
    "wildcard": "#fdfdfd",
    "geomancer": "#5d6d7e",
}
_PALETTE = ("#e67e22", "#16a085", "#c0392b", "#7f8c8d", "#d35400", "#27ae60", "#2980b9", "#8e44ad")
# the cut of each gem: polygon corners on the unit circle (angle in degrees, radius)
_CUTS: dict[str, list[tuple[float, float]]] = {
    "red": [(a * 36 - 90, 1.0) for a in range(10)],  # round brilliant
    "blue": [(a, 1.0) for a in (-135, -45, 45, 135)],  # princess (square)
    "yellow": [(-90, 1.1), (30, 1.1), (150, 1.1)],  # trillion (triangle)
    "green": [(a * 60, 1.0) for a in range(6)],  # hexagon
    "purple": [(-90, 1.15), (0, 0.8), (90, 1.15), (180, 0.8)],  # marquise (lozenge)
    "wildcard": [(a * 36 - 90, 1.15 if a % 2 == 0 else 0.5) for a in range(10)],  # star
    "geomancer": [(a * 45 + 22.5, 1.0) for a in range(8)],  # octagon
}
_SPARE_CUTS = (_CUTS["green"], _CUTS["red"], _CUTS["blue"], _CUTS["purple"])
_NAMES = {
    "red": N_("red"),
    "blue": N_("blue"),
    "yellow": N_("yellow"),
    "green": N_("green"),
    "purple": N_("purple"),
    "wildcard": N_("Wildcard"),
    "geomancer": N_("Geomancer"),
}


def _colour(kind: str, kinds: Sequence[str]) -> str:
    if kind in COLOURS:
        return COLOURS[kind]
    return _PALETTE[(kinds.index(kind) if kind in kinds else len(kind)) % len(_PALETTE)]


def _cut(kind: str, kinds: Sequence[str]) -> list[tuple[float, float]]:
    if kind in _CUTS:
        return _CUTS[kind]
    return _SPARE_CUTS[(kinds.index(kind) if kind in kinds else len(kind)) % len(_SPARE_CUTS)]


def _name(kind: str, tr: Translator) -> str:
    return tr.gettext(_NAMES[kind]) if kind in _NAMES else kind


def _gem(s: Svg, kind: str, kinds: Sequence[str], cx: float, cy: float, r: float, tr: Translator = ENGLISH) -> None:
    """A cut gem of ``kind`` centred on (cx, cy), radius about ``r`` (drawn once per look, place and language)."""
    s.fragment(
        ("lucent-gem", kind, tuple(kinds), cx, cy, r, token(tr)), lambda f: _draw_gem(f, kind, kinds, cx, cy, r, tr)
    )


def _draw_gem(s: Svg, kind: str, kinds: Sequence[str], cx: float, cy: float, r: float, tr: Translator) -> None:
    corners = [
        (cx + r * k * math.cos(math.radians(a)), cy + r * k * math.sin(math.radians(a))) for a, k in _cut(kind, kinds)
    ]
    colour = _colour(kind, kinds)
    wild = kind == "wildcard"
    s.polygon(
        corners,
        fill=colour,
        stroke="#b8860b" if wild else "#1c1c1c",
        stroke_width=1.5 if wild else 1,
        stroke_opacity="0.7",
    )
    # the table facet: the same cut, smaller and lighter, a little above the centre
    facet = [(cx + 0.5 * (x - cx), cy - r * 0.12 + 0.5 * (y - cy)) for x, y in corners]
    s.polygon(facet, fill="#ffffff", fill_opacity="0.35" if not wild else "0")
    if kind == "geomancer":
        # TRANSLATORS: the letter on a Geomancer gem (the first of its name)
        letter = tr.pgettext("gem letter", "G")
        s.text(cx, cy + r * 0.35, letter, font_size=f"{r:.0f}", font_weight="bold", text_anchor="middle", fill="#fff")
    elif wild:
        # TRANSLATORS: the letter on a Wildcard gem (the first of its name)
        letter = tr.pgettext("gem letter", "W")
        s.text(
            cx,
            cy + r * 0.32,
            letter,
            font_size=f"{r * 0.8:.0f}",
            font_weight="bold",
            text_anchor="middle",
            fill="#b8860b",
        )


def _place(row: int, pos: int) -> tuple[float, float]:
    """Top-left corner of row ``row`` (0 = base), position ``pos`` (1-based)."""
    return X0 + (pos - 1) * CW + row * CW / 2, BASE_Y - row * RH


def _where(row: int, pos: int, tr: Translator) -> str:
    if row == 0:
        return tr.gettext("base {pos}").format(pos=pos)
    return tr.gettext("row {row} slot {pos}").format(row=row, pos=pos)


def _slot_key(text: str) -> str | None:
    """``base 3`` -> ``slot:0:3``; ``row 2 slot 3`` -> ``slot:2:3``; ``focus`` -> ``focus``."""
    words = text.split()
    if words == ["focus"]:
        return "focus"
    if len(words) == 2 and words[0] == "base":
        return f"slot:0:{words[1]}"
    if len(words) == 4 and words[0] == "row" and words[2] == "slot":
        return f"slot:{words[1]}:{words[3]}"
    return None


def _parse(legal: Sequence[tuple[int, str]]) -> tuple[dict[int, tuple[str, str]], list[tuple[int, str]]]:
    """Plays as {action: (kind, place key)}, and any other action."""
    plays: dict[int, tuple[str, str]] = {}
    other: list[tuple[int, str]] = []
    for action, text in legal:
        words = text.split()
        if words[:1] == ["play"]:
            words = words[1:]
        key = _slot_key(" ".join(words[2:])) if len(words) >= 3 and words[1] in ("at", "as") else None
        if key is None:
            other.append((action, text))
        else:
            plays[action] = (words[0], key)
    return plays, other


def _names(view: Mapping[str, Any], player: int | None, tr: Translator) -> list[str]:
    return [
        tr.gettext("You") if p == player else tr.gettext("Player {n}").format(n=p + 1) for p in range(view["players"])
    ]


def _player_words(view: Mapping[str, Any], p: int, name: str, tr: Translator) -> str:
    held = view["hand_sizes"][p]
    words = [tr.ngettext("{name}: {n} card in hand", "{name}: {n} cards in hand", held).format(name=name, n=held)]
    if view["out"][p]:
        words.append(tr.gettext("out (hand down)"))
    last = view["last_played"][p] if view.get("last_played") else None
    if last is not None:
        words.append(tr.gettext("last played {gem}").format(gem=_name(last, tr)))
    if view.get("last_placer") == p:
        words.append(tr.gettext("placed last"))
    if "scores" in view and view.get("variants", {}).get("points"):
        score = view["scores"][p]
        words.append(tr.ngettext("{n} point", "{n} points", int(score)).format(n=f"{score:g}"))
    elif "scores" in view and view.get("ranks", [0] * (p + 1))[p] == 1:
        words.append(tr.gettext("wins"))
    return tr.gettext(", ").join(words)


def _row_end(view: Mapping[str, Any], p: int, n: int, tr: Translator) -> tuple[str, str, str | None]:
    """What ends a player's row: (text, colour, class), or no text (the last gem they played is drawn then)."""
    if "scores" in view:
        win = view.get("ranks", [0] * n)[p] == 1
        if view.get("variants", {}).get("points"):
            points = view["scores"][p]
            label = tr.ngettext("{n} pt", "{n} pts", int(points)).format(n=f"{points:g}")
            return label, "#1f7a5a" if win else MUTED, "lu-score"
        # without the points variant the game has a winner, not a score
        return (tr.gettext("wins"), "#1f7a5a", "lu-score") if win else ("", MUTED, None)
    if view["out"][p]:
        return tr.gettext("out"), "#b3261e", None
    if view["hand_sizes"][p] == 0 and view["phase"] == "play":
        return tr.gettext("done"), "#2e9d5b", None
    return "", MUTED, None


def _status(view: Mapping[str, Any], player: int | None, tr: Translator, asked: bool) -> str:
    names = _names(view, player, tr)
    if view["phase"] in ("remove", "deal"):
        return tr.gettext("Dealing: {n} cards still to deal").format(n=view["deck"])
    if view["phase"] == "over":
        ranks = view.get("ranks", [])
        winners = [p for p in range(view["players"]) if ranks and ranks[p] == 1]
        last = view.get("last_placer")
        if len(winners) == 1:
            (winner,) = winners
            if winner == player:
                if last == winner:
                    return tr.gettext("Game over: you win (placed last)")
                return tr.gettext("Game over: you win")
            if last == winner:
                return tr.gettext("Game over: {name} wins (placed last)").format(name=names[winner])
            return tr.gettext("Game over: {name} wins").format(name=names[winner])
        together = tr.gettext(" and ").join(names[p] for p in winners)
        return tr.gettext("Game over: {names} share the win").format(names=together)
    mover = view.get("to_move")
    if mover is None:
        return ""
    if mover == player and asked:
        if view.get("focus") is None:
            return tr.gettext("Your turn: pick a gem, then the Focus place")
        return tr.gettext("Your turn: pick a gem, then a place for it")
    if mover == player:
        return tr.gettext("Your seat is to move")
    return tr.gettext("{name} to move").format(name=names[mover])


def board(
    view: Mapping[str, Any], player: int | None, legal: Sequence[tuple[int, str]], tr: Translator = ENGLISH
) -> Board:
    """Draw the Lucent table as ``player`` sees it, its texts in the language of ``tr``; click paths for ``legal``.

    >>> from ziggurat.core import Match, make_game
    >>> m = Match(make_game("lucent", 3), seed=1)
    >>> m.resolve_chance()
    >>> b = board(m.state.view(0), 0, m.state.legal_action_texts(0))
    >>> b.paths[4]  # play red as focus
    ('hand:red', 'focus')
    """
    kinds: list[str] = list(view["kinds"])
    plays, other = _parse(legal)
    paths: dict[int, tuple[str, ...]] = {}
    for action, (kind, key) in plays.items():
        paths[action] = (f"hand:{kind}", key)
    targets: dict[str, list[str]] = {}
    for kind, key in plays.values():
        targets.setdefault(key, []).append(kind)
    hand = view.get("hand")
    names = _names(view, player, tr)
    n = int(view["players"])
    mover = view.get("to_move")
    variants = view.get("variants", {})
    colours = [k for k in kinds if k not in ("wildcard", "geomancer")]
    in_game = colours + [k for k in ("wildcard", "geomancer") if variants.get(f"{k}s")]

    hand_y = BASE_Y + CH + 40
    hand_h = 136.0 if hand is not None else 0.0
    buttons_h = 50.0 if other else 0.0
    total = hand_y + hand_h + buttons_h + 10
    s = Svg(WIDTH, total, title=tr.gettext("Lucent: the pyramid of gems"))
    s.rect(0, 0, WIDTH, total, fill="#f6f1e7")
    status = _status(view, player, tr, bool(legal))
    s.text(16, 32, status, font_size=fit_size(status, 22, WIDTH - 32, 14, bold=True), font_weight="bold", fill=INK)

    # --- the pyramid: a triangle of 45 places on a dark cloth
    cloth = [
        (X0 - 8, BASE_Y + CH + 8),
        (X0 + 9 * CW + 8, BASE_Y + CH + 8),
        (WIDTH / 2 + CW / 2 + 8, TOP - 8),
        (WIDTH / 2 - CW / 2 - 8, TOP - 8),
    ]
    s.polygon(cloth, fill=FELT, opacity="0.1")
    pyramid = view["pyramid"]
    open_slots = {(o["row"], o["pos"]): o for o in view.get("open_slots", [])}
    # on your turn a place that is no move for any gem you hold says which move it would be (a held gem
    # there): a click asks the engine why not (taken, no support yet, off the base's ends, the colours)
    held_kinds = [k for k in kinds if hand and hand.get(k)]
    asks = player is not None and bool(plays) and bool(held_kinds)

    def why(row: int, pos: int) -> str | None:
        if not asks:
            return None
        place = f"base {pos}" if row == 0 else f"row {row} slot {pos}"
        return f"play {held_kinds[0]} at {place}"

    for row in range(ROWS):
        for pos in range(1, ROWS - row + 1):
            x, y = _place(row, pos)
            placed: str | None = pyramid[row][pos - 1] if row < len(pyramid) and pos - 1 < len(pyramid[row]) else None
            if placed is not None:
                focus = row == 0 and pos == 5
                with s.group(cls="lu-gem", data_slot=f"{row}:{pos}", data_kind=placed, data_why=why(row, pos)):
                    if focus:
                        s.tooltip(tr.gettext("{gem} at base 5, the Focus Gem").format(gem=_name(placed, tr)))
                    else:
                        s.tooltip(
                            tr.gettext("{gem} at {place}").format(gem=_name(placed, tr), place=_where(row, pos, tr))
                        )
                    s.rect(x + 2, y + 1, CW - 4, CH - 2, rx="6", fill="#fffaf0", stroke="#9c8a6e", stroke_width=1)
                    _gem(s, placed, kinds, x + CW / 2, y + CH / 2, CH * 0.36, tr)
                    if focus:
                        s.rect(x + 4, y + 3, CW - 8, CH - 6, rx="5", fill="none", stroke=FOCUS, stroke_width=2.5)
                        s.text(x + CW - 10, y + 15, "★", font_size="13", text_anchor="middle", fill=FOCUS)
                continue
            slot = open_slots.get((row, pos))
            if slot is None and row == 0 and pos == 5 and view.get("focus") is None and view["phase"] == "play":
                slot = {"slot": "focus", "kinds": kinds}
            if slot is None:
                with s.group(cls="lu-empty", data_why=why(row, pos)):
                    # an invisible fill still takes clicks (pointer events follow a painted fill, not its opacity)
                    s.rect(
                        x + 4,
                        y + 3,
                        CW - 8,
                        CH - 6,
                        rx="5",
                        fill="#fff" if asks else "none",
                        fill_opacity="0" if asks else None,
                        stroke="#cbbd9f",
                        stroke_width=1,
                        stroke_opacity="0.6",
                    )
                continue
            key = "focus" if slot.get("slot") == "focus" else f"slot:{row}:{pos}"
            allowed = [k for k in slot["kinds"] if k in in_game]
            where = tr.gettext("the Focus place (base 5)") if key == "focus" else _where(row, pos, tr)
            if key in targets:
                with s.group(data_key=key, cls="lu-open"):
                    mine = tr.gettext(", ").join(_name(k, tr) for k in targets[key])
                    s.tooltip(tr.gettext("Play here at {place}: your {gems}").format(place=where, gems=mine))
                    _open_slot(s, x, y, allowed, colours, kinds, key == "focus", tr, frame=True)
            else:
                why_here = why(row, pos) if key != "focus" else None
                with s.group(cls="lu-open", data_slot=f"{row}:{pos}", data_why=why_here):
                    if set(colours) <= set(allowed):
                        s.tooltip(tr.gettext("Open: {place}, for any gem").format(place=where))
                    else:
                        fits = tr.gettext(", ").join(_name(k, tr) for k in allowed)
                        s.tooltip(tr.gettext("Open: {place}, for {gems}").format(place=where, gems=fits))
                    _open_slot(s, x, y, allowed, colours, kinds, key == "focus", tr, frame=False)
    for pos in range(1, 10):
        x, _ = _place(0, pos)
        label = tr.gettext("focus") if pos == 5 else str(pos)
        s.text(
            x + CW / 2,
            BASE_Y + CH + 20,
            label,
            font_size="14",
            text_anchor="middle",
            fill=FOCUS if pos == 5 else MUTED,
            font_weight="bold" if pos == 5 else None,
        )

    # --- the players, in the left corner beside the upper rows
    line = min(38.0, 172.0 / max(n, 1))
    for p in range(n):
        y = TOP + p * line
        mid = y + line / 2
        turn = mover == p and view["phase"] == "play"
        with s.group(cls="lu-player", data_player=str(p + 1)):
            s.tooltip(_player_words(view, p, names[p], tr))
            if turn:
                s.rect(6, y + 2, 184, line - 4, rx="6", fill="#fff4d6", stroke=TURN, stroke_width=2, cls="lu-turn")
                s.polygon([(11, mid - 6), (20, mid), (11, mid + 6)], fill=TURN)
            s.text(24, mid + 6, names[p], font_size=fit_size(names[p], 16, 76, 12, bold=True), font_weight="bold",
                   fill=INK)  # fmt: skip
            # hand size: a small card back and the count
            s.rect(104, mid - 10, 14, 19, rx="2", fill="#4a3b6b", stroke="#241a3a")
            s.text(121, mid + 6, str(view["hand_sizes"][p]), font_size="17", fill=INK, cls="lu-hand-size")
            # one thing in the last place of the row (the rest is in the tooltip): the result at the end, else
            # whether the player is out or done, else the gem they played last
            label, colour, cls = _row_end(view, p, n, tr)
            if label:
                s.text(188, mid + 6, label, font_size=fit_size(label, 16, 46, 11, bold=True), font_weight="bold",
                       text_anchor="end", fill=colour, cls=cls)  # fmt: skip
            elif view.get("last_played") and view["last_played"][p] is not None:
                _gem(s, view["last_played"][p], kinds, 160, mid, 8, tr)

    # --- the right corner: the deal, removed gems, who placed last, variants
    rx = WIDTH - 14
    info = []
    last = view.get("last_placer")
    if last is not None:
        info.append(tr.gettext("last to place: {name}").format(name=names[last]))
    else:
        info.append(tr.gettext("nobody has placed yet"))
    if view["phase"] in ("remove", "deal") or view["deck"]:
        info.append(tr.ngettext("{n} card to deal", "{n} cards to deal", view["deck"]).format(n=view["deck"]))
    if view["removed"]:
        removed = view["removed"]
        info.append(tr.ngettext("{n} gem removed unseen", "{n} gems removed unseen", removed).format(n=removed))
    if view.get("aside"):
        aside = view["aside"]
        info.append(tr.ngettext("{n} card set aside unseen", "{n} cards set aside unseen", aside).format(n=aside))
    info += [
        tr.gettext("variant: {name}").format(name=tr.pgettext("option", name))
        for name in ("wildcards", "geomancers", "geomancer-focus", "points")
        if variants.get(name)
    ]
    for i, text in enumerate(info):
        s.text(rx, TOP + 16 + i * 24, text, font_size="16", text_anchor="end", fill=MUTED if i else INK, cls="lu-info")

    # --- your hand
    if hand is not None:
        y = hand_y
        count = sum(hand.values())
        s.rect(8, y - 6, WIDTH - 16, hand_h - 4, rx="10", fill="#fffdf8", stroke=PANEL_EDGE)
        s.text(
            20,
            y + 18,
            tr.ngettext("Your hand: {n} card", "Your hand: {n} cards", count).format(n=count),
            font_size="17",
            font_weight="bold",
            fill=INK,
        )
        held = [k for k in kinds if hand.get(k)]
        if not held:
            s.text(20, y + 64, tr.gettext("no cards left"), font_size="17", fill=MUTED)
        tile = min(80.0, (WIDTH - 40) / max(len(held), 1) - 8)
        for i, kind in enumerate(held):
            tx = 20 + i * (tile + 8)
            ty = y + 28
            playable = any(k == kind for k, _ in plays.values())
            stuck = bool(plays) and not playable  # your turn, but this kind fits nowhere
            with s.group(
                data_key=f"hand:{kind}" if playable else None,
                cls="lu-hand",
                data_kind=kind,
                opacity="0.45" if stuck else None,
            ):
                gem = _name(kind, tr)
                if playable:
                    tip = tr.gettext("{n} × {gem}: click, then a place for it")
                elif stuck:
                    tip = tr.gettext("{n} × {gem}: fits nowhere now")
                else:
                    tip = tr.gettext("{n} × {gem}")
                s.tooltip(tip.format(n=hand[kind], gem=gem))
                s.rect(tx, ty, tile, 90, rx="8", fill="#fffaf0", stroke="#9c8a6e", stroke_width=1.5, cls="zg-frame")
                _gem(s, kind, kinds, tx + tile / 2, ty + 26, 18, tr)
                s.text(
                    tx + tile / 2,
                    ty + 60,
                    gem,
                    font_size=f"{min(13, (tile - 8) / (0.58 * len(gem))):.0f}",
                    text_anchor="middle",
                    fill=MUTED,
                )
                s.text(
                    tx + tile / 2,
                    ty + 81,
                    f"×{hand[kind]}",
                    font_size="18",
                    font_weight="bold",
                    text_anchor="middle",
                    fill=INK,
                )
    # --- moves with no place on the table
    bx = 16.0
    for action, text in other:
        key = f"act:{action}"
        with s.group(data_key=key):
            s.tooltip(text)
            s.rect(bx, total - buttons_h, 180, 34, rx="6", fill="#fff", stroke=PANEL_EDGE, cls="zg-frame")
            s.text(bx + 90, total - buttons_h + 22, text, font_size="15", text_anchor="middle", fill=INK)
        paths[action] = (key,)
        bx += 190
    return Board(svg=s.render(), paths=paths)


def _open_slot(
    s: Svg,
    x: float,
    y: float,
    allowed: Sequence[str],
    colours: Sequence[str],
    kinds: Sequence[str],
    focus: bool,
    tr: Translator,
    *,
    frame: bool,
) -> None:
    """An open place: a dashed outline and what may go there."""
    s.rect(
        x + 3,
        y + 2,
        CW - 6,
        CH - 4,
        rx="6",
        fill="#fffdf6",
        stroke="#a08c6a",
        stroke_width=1.5,
        stroke_dasharray="5 3",
        cls="zg-frame" if frame else None,
    )
    fits = [k for k in allowed if k in colours]
    if focus:
        s.text(
            x + CW / 2,
            y + CH / 2 + 5,
            tr.gettext("focus"),
            font_size="14",
            text_anchor="middle",
            fill=FOCUS,
            font_weight="bold",
        )
    elif len(fits) == len(colours):
        # TRANSLATORS: an open place of the pyramid where a gem of any colour may go
        s.text(x + CW / 2, y + CH / 2 + 5, tr.gettext("any"), font_size="14", text_anchor="middle", fill=MUTED)
    else:
        step = 17.0
        start = x + CW / 2 - step * (len(fits) - 1) / 2
        for i, kind in enumerate(fits):
            _gem(s, kind, kinds, start + i * step, y + CH / 2, 7, tr)
