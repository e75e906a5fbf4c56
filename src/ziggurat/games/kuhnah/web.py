"""K'uh Nah's table for the web: the Quarry with its jade, and every pyramid as a brick wall.

Drawn from a view only (see :mod:`ziggurat.core.svg`). At the top: whose turn it
is, then the Quarry: the face-down deck with its count, the two face-up cards
(the jade on each is a jade token sitting on the card), the count of cards
removed unseen, and the card being placed (it stays in its Quarry place, lifted,
until it is placed). Below, one panel per player, stacked: name, jade (a count,
or ``?`` when hidden), the value of their uncovered cards so far, the wild-jade
marker (``jade-wild`` variant), the score once the game is over, and the
pyramid as a brick wall: each card a brick with its value in the middle and its
left and right animal as coloured discs; a wild half is tinted (gold for the
jaguar, jade for a half made wild with jade, which also carries a jade token).

Keys (one click per move):

* ``take:<card>`` the body of a Quarry card: take it (``take 22a``);
* ``jade:<card>`` the jade token on a Quarry card: put a jade on it (``jade 22a``);
* ``slot:<row>:<pos>`` a ghost brick in the mover's own pyramid, row 1 being the
  base and positions counted from the base's left end, so ``base left`` is
  ``slot:1:0``, ``base right`` is ``slot:1:<n+1>`` and the first card's ``base``
  is ``slot:1:1``;
* ``wild:<card>:left|right`` one half of the card being placed or of a card in
  the mover's pyramid (``wild 22a left``, ``jade-wild`` variant).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ziggurat.core.i18n import ENGLISH, N_, Translator
from ziggurat.core.svg import Board, Svg, fit_size, fmt

__all__ = ["board"]

WIDTH = 640
MARGIN = 20
BRICK_W = 84.0
BRICK_H = 50.0
HEADER_H = 40.0
QUARRY_Y = 52.0
QUARRY_W = 120.0
QUARRY_H = 74.0

INK = "#2b2118"
MUTED = "#7a6a58"
STONE = "#ead9b4"
STONE_EDGE = "#8a7350"
JADE = "#2e9d6e"
JADE_EDGE = "#145a40"
JADE_PALE = "#d3ebde"
JADE_TINT = "#7fcca6"
GOLD = "#f2c230"
PANEL = "#fffdf8"
PANEL_EDGE = "#d9cbb5"
TURN = "#e69a00"

ANIMALS: dict[str, str] = {
    "bat": "#6b4fa0",
    "monkey": "#8a5a2b",
    "quetzal": "#2f6fb5",
    "serpent": "#c0392b",
    "jaguar": "#d99a00",
}
_PALETTE = ("#6b4fa0", "#8a5a2b", "#2f6fb5", "#c0392b", "#d99a00", "#4a7d2a", "#b0457f", "#3d3d3d")


def _animal_colour(animal: str) -> str:
    return ANIMALS.get(animal, _PALETTE[sum(map(ord, animal)) % len(_PALETTE)])


# the animals of the reconstruction as people read them, and the letter each shows on its disc
ANIMAL_NAMES = {
    "bat": N_("bat"),
    "monkey": N_("monkey"),
    "quetzal": N_("quetzal"),
    "serpent": N_("serpent"),
    "jaguar": N_("jaguar"),
}
ORDINALS = {1: N_("1st"), 2: N_("2nd"), 3: N_("3rd")}


def _animal(animal: str, tr: Translator) -> str:
    return tr.gettext(ANIMAL_NAMES[animal]) if animal in ANIMAL_NAMES else animal


def _letter(animal: str, tr: Translator) -> str:
    """The mark of an animal on a card's half: one or two letters, each animal its own in every language."""
    return _letters(tr).get(animal) or animal[:1].upper()


_letters_of: dict[object, dict[str, str]] = {}  # by translator (each is equal only to itself)


def _letters(tr: Translator) -> dict[str, str]:
    """Every animal's letter in ``tr``'s language (asked once per translator: a board shows dozens)."""
    kept = _letters_of.get(tr)
    if kept is not None:
        return kept
    # TRANSLATORS: the marks of the animals on the cards' halves: one or two letters, a different mark for each
    letters = {
        "bat": tr.pgettext("animal letter", "B"),
        "monkey": tr.pgettext("animal letter", "M"),
        "quetzal": tr.pgettext("animal letter", "Q"),
        "serpent": tr.pgettext("animal letter", "S"),
        "jaguar": tr.pgettext("animal letter", "J"),
    }
    if len(_letters_of) >= 32:
        _letters_of.clear()
    _letters_of[tr] = letters
    return letters


def _card_words(card: Mapping[str, Any], tr: Translator) -> str:
    return tr.gettext("{card} (weight {value}, {left} | {right})").format(
        card=card["id"], value=card["value"], left=_animal(str(card["left"]), tr), right=_animal(str(card["right"]), tr)
    )


class _Moves:
    """The mover's legal actions, sorted by what they click."""

    def __init__(self, legal: Sequence[tuple[int, str]]):
        self.take: dict[str, int] = {}
        self.jade: dict[str, int] = {}
        self.place: dict[str, int] = {}  # "base" | "base left" | "base right" | "row R pos P"
        self.wild: dict[tuple[str, str], int] = {}
        self.other: list[tuple[int, str]] = []
        for action, text in legal:
            words = text.split()
            if len(words) == 2 and words[0] in ("take", "jade"):
                (self.take if words[0] == "take" else self.jade)[words[1]] = action
            elif text in ("base", "base left", "base right") or (len(words) == 4 and words[0] == "row"):
                self.place[text] = action
            elif len(words) == 3 and words[0] == "wild":
                self.wild[(words[1], words[2])] = action
            else:
                self.other.append((action, text))


def _slots(moves: _Moves, base_count: int) -> dict[tuple[int, int], tuple[int, str]]:
    """Ghost slots (row, pos) of the mover's placements, with action and text."""
    out: dict[tuple[int, int], tuple[int, str]] = {}
    for text, action in moves.place.items():
        if text == "base":
            out[(1, 1)] = (action, text)
        elif text == "base left":
            out[(1, 0)] = (action, text)
        elif text == "base right":
            out[(1, base_count + 1)] = (action, text)
        else:
            words = text.split()
            out[(int(words[1]), int(words[3]))] = (action, text)
    return out


def _jade_token(s: Svg, cx: float, cy: float, r: float, label: str, filled: bool = True, frame: bool = False) -> None:
    """A jade token (a hexagon), with ``label`` on it; ``frame``: the clickable shape of its group."""
    points = [
        (cx + r * dx, cy + r * dy)
        for dx, dy in ((0, -1), (0.87, -0.5), (0.87, 0.5), (0, 1), (-0.87, 0.5), (-0.87, -0.5))
    ]
    s.polygon(
        points,
        fill=JADE if filled else JADE_PALE,
        stroke=JADE_EDGE,
        stroke_width=1.5,
        cls="zg-frame" if frame else None,
    )
    if label:
        s.text(
            cx,
            cy + r * 0.36,
            label,
            font_size=f"{r * 1.05:.0f}",
            font_weight="bold",
            text_anchor="middle",
            fill="#fff" if filled else JADE_EDGE,
            cls="zg-glyph",
        )


def _brick(
    s: Svg,
    card: Mapping[str, Any],
    x: float,
    y: float,
    w: float,
    h: float,
    view: Mapping[str, Any],
    tr: Translator,
    *,
    frame: bool = False,
    dim: bool = False,
) -> None:
    """One card as a brick: halves tinted when wild, animals as discs, value in the middle.

    Drawn once per look and place, then kept (:meth:`Svg.fragment`): the key holds everything the drawing
    reads, the card's animals, value and wild halves, the wild symbol and the letters in the page's language.
    """
    wild = card.get("wild", [False, False])
    wild_symbol = view.get("wild_symbol")
    left, right = str(card["left"]), str(card["right"])
    key = ("kuhnah-brick", left, right, card["value"], tuple(wild), wild_symbol, _letter(left, tr), _letter(right, tr))
    s.fragment(
        (*key, x, y, w, h, frame, dim), lambda f: _draw_brick(f, card, x, y, w, h, view, tr, frame=frame, dim=dim)
    )


def _draw_brick(
    s: Svg,
    card: Mapping[str, Any],
    x: float,
    y: float,
    w: float,
    h: float,
    view: Mapping[str, Any],
    tr: Translator,
    *,
    frame: bool,
    dim: bool,
) -> None:
    wild = card.get("wild", [False, False])
    wild_symbol = view.get("wild_symbol")
    s.rect(
        x,
        y,
        w,
        h,
        rx=f"{h * 0.12:.1f}",
        fill="#f3ead6" if dim else STONE,
        stroke=STONE_EDGE,
        stroke_width=1.5,
        cls="zg-frame" if frame else None,
    )
    # a narrow brick puts its animals in the top corners and its value below them
    compact = w < 70
    r = w * 0.14 if compact else min(h * 0.22, w * 0.12)
    for half, side in enumerate(("left", "right")):
        animal = str(card[side])
        hx = x + (2 if half == 0 else w / 2)
        if wild[half]:
            tint = GOLD if animal == wild_symbol else JADE_TINT
            s.rect(hx, y + 2, w / 2 - 2, h - 4, rx=f"{h * 0.1:.1f}", fill=tint, fill_opacity="0.55")
        cx = x + (w * (0.22 if compact else 0.16) if half == 0 else w * (0.78 if compact else 0.84))
        cy = y + (r + 3 if compact else h / 2)
        s.circle(cx, cy, r, fill=_animal_colour(animal), stroke="#fff", stroke_width=1)
        letter = _letter(animal, tr)
        s.text(
            cx,
            cy + r * 0.42,
            letter,
            font_size=f"{r * (1.2 if len(letter) < 2 else 0.9):.0f}",
            font_weight="bold",
            text_anchor="middle",
            fill="#fff",
            cls="zg-glyph",
        )
        if wild[half] and animal != wild_symbol:
            if compact:
                _jade_token(s, x + w / 2 + (-0.6 if half == 0 else 0.6) * r, y + r + 3, r * 0.55, "")
            else:
                _jade_token(s, cx, y + h * 0.17, r * 0.6, "")
    size = min(h * 0.5, w * 0.42) if compact else h * 0.41
    s.text(
        x + w / 2,
        y + h - 4 if compact else y + h / 2 + h * 0.15,
        card["value"],
        font_size=f"{size:.0f}",
        font_weight="bold",
        text_anchor="middle",
        fill=INK,
    )


def _wild_halves(
    s: Svg,
    card: Mapping[str, Any],
    x: float,
    y: float,
    w: float,
    h: float,
    moves: _Moves,
    paths: dict[int, tuple[str, ...]],
    tr: Translator,
) -> None:
    """Click targets on the halves of ``card`` that the mover may make wild."""
    for half, side in enumerate(("left", "right")):
        action = moves.wild.get((str(card["id"]), side))
        if action is None:
            continue
        key = f"wild:{card['id']}:{side}"
        with s.group(data_key=key):
            if side == "left":
                tip = tr.gettext("Put your wild jade on the left half ({animal}) of {card}: it becomes wild")
            else:
                tip = tr.gettext("Put your wild jade on the right half ({animal}) of {card}: it becomes wild")
            s.tooltip(tip.format(animal=_animal(str(card[side]), tr), card=card["id"]))
            hx = x + (3 if half == 0 else w / 2 + 1)
            s.rect(hx, y + 3, w / 2 - 4, h - 6, rx="4", fill="transparent", stroke="none", cls="zg-frame")
        paths[action] = (key,)


def _status(view: Mapping[str, Any], player: int | None, tr: Translator, asked: bool) -> str:
    names = _names(view, player, tr)
    mover = view.get("to_move")
    if view["phase"] == "over":
        scores, ranks = view.get("scores", []), view.get("ranks", [])
        winners = [p for p in range(view["players"]) if ranks and ranks[p] == 1]
        best = f"{min(scores):g}" if scores else "0"
        if winners == [player]:
            return tr.gettext("Game over: you win with {score} (lowest wins)").format(score=best)
        if len(winners) == 1:
            return tr.gettext("Game over: {name} wins with {score} (lowest wins)").format(
                name=names[winners[0]], score=best
            )
        together = tr.gettext(" and ").join(names[p] for p in winners)
        return tr.gettext("Game over: {names} tie with {score} (lowest wins)").format(names=together, score=best)
    if mover is None:
        return tr.gettext("Setting up the Quarry")
    if view["phase"] == "place" and view.get("taken"):
        if mover == player and asked:
            return tr.gettext("You are placing {card}").format(card=view["taken"]["id"])
        return tr.gettext("{name} is placing {card}").format(name=names[mover], card=view["taken"]["id"])
    if mover == player and asked:
        return tr.gettext("Your turn: take a card, or put a jade on one")
    if mover == player:
        return tr.gettext("Your seat is to move")
    return tr.gettext("{name} to move: take a card or put a jade").format(name=names[mover])


def _ordinal(rank: int, tr: Translator) -> str:
    if rank in ORDINALS:
        return tr.gettext(ORDINALS[rank])
    return tr.gettext("{n}th").format(n=rank)


def _names(view: Mapping[str, Any], player: int | None, tr: Translator) -> list[str]:
    return [
        tr.gettext("You") if p == player else tr.gettext("Player {n}").format(n=p + 1) for p in range(view["players"])
    ]


def _place_words(text: str, tr: Translator) -> str:
    """A placement's action text (``base left``, ``row 2 pos 3``) as people read it."""
    if text == "base":
        return tr.gettext("the base")
    if text == "base left":
        return tr.gettext("the left end of the base")
    if text == "base right":
        return tr.gettext("the right end of the base")
    words = text.split()
    return tr.gettext("row {row} pos {pos}").format(row=words[1], pos=words[3])


def _over_two(cards: Sequence[Mapping[str, Any]]) -> list[tuple[int, int]]:
    """Every empty place of a pyramid that has two cards side by side under it (where a card could rest)."""
    at = {(c["row"], c["pos"]) for c in cards}
    return sorted((r + 1, p) for r, p in at if (r, p + 1) in at and (r + 1, p) not in at)


def _uncovered(cards: Sequence[Mapping[str, Any]]) -> set[tuple[int, int]]:
    at = {(c["row"], c["pos"]) for c in cards}
    return {(r, p) for r, p in at if (r + 1, p) not in at and (r + 1, p - 1) not in at}


def _legend(
    view: Mapping[str, Any], pyramids: Sequence[Sequence[Mapping[str, Any]]], tr: Translator
) -> list[tuple[float, float, str, str]]:
    """(x, line offset, animal or "", words) of each legend entry, wrapped to the board's width."""
    halves = ("left", "right")
    seen = {str(c[h]) for cards in pyramids for c in cards for h in halves}
    seen |= {str(c[h]) for c in view["quarry"] if c for h in halves}
    if view.get("taken"):
        seen |= {str(view["taken"][h]) for h in halves}
    items = [
        (
            a,
            tr.gettext("{animal} (wild)").format(animal=_animal(a, tr))
            if a == view.get("wild_symbol")
            else _animal(a, tr),
        )
        for a in sorted(seen)
    ]
    if view.get("jade_wild"):
        items.append(("", tr.gettext("jade: a wild half")))
    out = []
    lx, off = float(MARGIN), 0.0
    for animal, word in items:
        step = 40 + 9 * len(word)
        if lx + step > WIDTH - MARGIN:
            lx, off = float(MARGIN), off + 26
        out.append((lx, off, animal, word))
        lx += step
    return out


def board(
    view: Mapping[str, Any], player: int | None, legal: Sequence[tuple[int, str]], tr: Translator = ENGLISH
) -> Board:
    """Draw the K'uh Nah table as ``player`` sees it, its texts in the language of ``tr``; click paths for ``legal``.

    >>> from ziggurat.core import Match, make_game
    >>> m = Match(make_game("kuhnah", 2), seed=1)
    >>> m.resolve_chance()
    >>> b = board(m.state.view(0), 0, m.state.legal_action_texts(0))
    >>> [b.paths[a] for a, text in m.state.legal_action_texts(0) if text.startswith("take")]
    [('take:30b',), ('take:6a',)]
    """
    moves = _Moves(legal)
    paths: dict[int, tuple[str, ...]] = {}
    names = _names(view, player, tr)
    pyramids: list[list[Mapping[str, Any]]] = [list(p) for p in view["pyramids"]]
    mover = view.get("to_move")

    # --- layout of the pyramids: one brick size for every wall, so they compare at a glance
    ghosts: dict[tuple[int, int], tuple[int, str]] = {}
    blocked: list[tuple[int, int]] = []  # places over two cards where the card being placed may not go
    if player is not None and moves.place:
        base_count = sum(1 for c in pyramids[player] if c["row"] == 1)
        ghosts = _slots(moves, base_count)
        blocked = [rp for rp in _over_two(pyramids[player]) if rp not in ghosts]
    spans = []
    for p, cards in enumerate(pyramids):
        base = [int(c["pos"]) for c in cards if c["row"] == 1] or [1]
        if p == player:
            base += [q for (r, q) in ghosts if r == 1]
        spans.append((min(base), max(base)))
    widest = max(hi - lo + 1 for lo, hi in spans)
    bw = min(BRICK_W, (WIDTH - 2 * MARGIN - 20) / widest)
    bh = min(BRICK_H, max(bw * BRICK_H / BRICK_W, 40.0))
    heights = []
    for p, cards in enumerate(pyramids):
        rows = max([c["row"] for c in cards] + [1] + ([r for (r, _) in [*ghosts, *blocked]] if p == player else []))
        heights.append(HEADER_H + rows * bh + 16)
    legend = _legend(view, pyramids, tr)
    legend_h = 40.0 + (legend[-1][1] if legend else 0)
    quarry_h = QUARRY_H + 80
    total = QUARRY_Y + quarry_h + sum(h + 10 for h in heights) + legend_h
    s = Svg(WIDTH, total, title=tr.gettext("K'uh Nah: the Quarry and every pyramid"))
    s.rect(0, 0, WIDTH, total, fill="#f6f1e7")

    # --- status line
    status = _status(view, player, tr, bool(legal))
    size = fit_size(status, 22, WIDTH - 2 * MARGIN, 14, bold=True)
    s.text(MARGIN, 32, status, font_size=fmt(size), font_weight="bold", fill=INK)

    # --- Quarry: deck, two cards with jade, removed pile
    qy = QUARRY_Y
    s.rect(MARGIN / 2, qy, WIDTH - MARGIN, quarry_h - 6, rx="10", fill="#efe4cc", stroke=PANEL_EDGE)
    cy = qy + 22
    # deck: a face-down pile
    dx = 22.0
    layers = min(3, int(view["deck"]))
    for i in range(layers, 0, -1):
        s.rect(dx + 4 * i, cy - 4 * i + 8, 90, QUARRY_H - 8, rx="8", fill="#5b3f26", stroke="#2b1d10")
    if layers == 0:
        s.rect(dx, cy + 8, 90, QUARRY_H - 8, rx="8", fill="none", stroke=STONE_EDGE, stroke_dasharray="5 4")
    else:
        s.polygon(
            [(dx + 45, cy + 22), (dx + 60, cy + 42), (dx + 45, cy + 62), (dx + 30, cy + 42)], fill=JADE, opacity="0.8"
        )
    deck = tr.gettext("Deck {n}").format(n=view["deck"])
    s.text(dx + 45, cy + QUARRY_H + 30, deck, font_size="18", text_anchor="middle", fill=INK)

    taken = view.get("taken")
    for slot in range(2):
        card = view["quarry"][slot]
        x = 148.0 + slot * 150
        if card is None and taken is not None:
            # the card being placed (the Quarry's one gap while placing), lifted out of its place
            s.rect(x, cy, QUARRY_W, QUARRY_H, rx="9", fill="none", stroke=STONE_EDGE, stroke_dasharray="6 4")
            _brick(s, taken, x + 8, cy - 8, QUARRY_W, QUARRY_H, view, tr)
            s.rect(x + 8, cy - 8, QUARRY_W, QUARRY_H, rx="9", fill="none", stroke=TURN, stroke_width=3)
            _wild_halves(s, taken, x + 8, cy - 8, QUARRY_W, QUARRY_H, moves, paths, tr)
            who = names[mover] if mover is not None else "?"
            s.text(
                x + QUARRY_W / 2,
                cy + QUARRY_H + 30,
                tr.gettext("placing: {name}").format(name=who),
                font_size="18",
                text_anchor="middle",
                fill=TURN,
                font_weight="bold",
            )
            continue
        if card is None:
            s.rect(x, cy, QUARRY_W, QUARRY_H, rx="9", fill="none", stroke=STONE_EDGE, stroke_dasharray="6 4")
            empty = tr.gettext("empty")
            s.text(x + QUARRY_W / 2, cy + QUARRY_H / 2 + 6, empty, font_size="18", text_anchor="middle", fill=MUTED)
            continue
        cid = str(card["id"])
        take = moves.take.get(cid)
        asks = player is not None and take is None  # a click asks the engine why it cannot be taken
        with s.group(data_key=f"take:{cid}", cls="kn-take", data_why=f"take {cid}" if asks else None):
            if card["jade"]:
                tip = tr.gettext("Take {card} with its {n} jade").format(card=_card_words(card, tr), n=card["jade"])
            else:
                tip = tr.gettext("Take {card}").format(card=_card_words(card, tr))
            s.tooltip(tip)
            _brick(s, card, x, cy, QUARRY_W, QUARRY_H, view, tr, frame=True)
        if take is not None:
            paths[take] = (f"take:{cid}",)
        put = moves.jade.get(cid)
        asks = player is not None and put is None
        with s.group(data_key=f"jade:{cid}", cls="kn-jade", data_why=f"jade {cid}" if asks else None):
            jade = int(card["jade"])
            s.tooltip(tr.gettext("Put one of your jade on {card} ({n} jade on it now)").format(card=cid, n=jade))
            _jade_token(s, x + QUARRY_W / 2, cy + QUARRY_H + 4, 18, str(jade), filled=jade > 0, frame=True)
        if put is not None:
            paths[put] = (f"jade:{cid}",)
        on_it = tr.gettext("{n} jade").format(n=jade)
        s.text(x + QUARRY_W / 2, cy + QUARRY_H + 42, on_it, font_size="16", text_anchor="middle", fill=MUTED)
    px = 470.0
    s.rect(px, cy + 8, 90, QUARRY_H - 8, rx="8", fill="#d8ccb5", stroke="#a89878", stroke_dasharray="4 3")
    s.text(px + 45, cy + 46, "?", font_size="28", text_anchor="middle", fill="#8a7a60", font_weight="bold")
    removed = tr.gettext("Removed {n}").format(n=view["removed"])
    s.text(px + 45, cy + QUARRY_H + 30, removed, font_size="18", text_anchor="middle", fill=INK)

    # --- the pyramids
    y = QUARRY_Y + quarry_h + 4
    jade = view["jade"]
    for p, cards in enumerate(pyramids):
        h = heights[p]
        turn = mover == p and view["phase"] != "over"
        with s.group(cls="kn-player", data_player=str(p + 1)):
            s.rect(
                MARGIN / 2,
                y,
                WIDTH - MARGIN,
                h,
                rx="10",
                fill=PANEL,
                stroke=TURN if turn else PANEL_EDGE,
                stroke_width=4 if turn else 1.5,
            )
            hx = MARGIN + 4
            if turn:
                s.polygon([(hx, y + 12), (hx + 14, y + 21), (hx, y + 30)], fill=TURN)
                hx += 22
            label = names[p] if p != player else tr.gettext("You (player {n})").format(n=p + 1)
            s.text(hx, y + 28, label, font_size="20", font_weight="bold", fill=INK)
            jx = 225.0
            count = jade[p]
            _jade_token(s, jx, y + 21, 13, "", filled=True)
            s.text(
                jx + 20,
                y + 28,
                tr.gettext("{n} jade").format(n="?" if count is None else count),
                font_size="19",
                fill=INK,
                cls="kn-jade-count",
            )
            uncovered = _uncovered(cards)
            weight = sum(int(c["value"]) for c in cards if (c["row"], c["pos"]) in uncovered)
            if "scores" in view:
                rank = int(view["ranks"][p])
                s.text(
                    330,
                    y + 28,
                    tr.gettext("score {score} · {rank}").format(
                        score=f"{view['scores'][p]:g}", rank=_ordinal(rank, tr)
                    ),
                    font_size="19",
                    font_weight="bold",
                    fill=JADE_EDGE if rank == 1 else INK,
                    cls="kn-score",
                )
            else:
                s.text(330, y + 28, tr.gettext("uncovered {n}").format(n=weight), font_size="19", fill=MUTED)
            if view.get("jade_wild"):
                used = view["wild_used"][p]
                s.text(
                    WIDTH - MARGIN - 4,
                    y + 28,
                    tr.gettext("wild used") if used else tr.gettext("wild ready"),
                    font_size="17",
                    fill=MUTED,
                    text_anchor="end",
                )
                # TRANSLATORS: the mark on the jade token that makes a half wild (first letter of "wild")
                _jade_token(s, WIDTH - MARGIN - 104, y + 21, 11, tr.pgettext("jade token", "W"), filled=not used)
            lo, hi = spans[p]
            wall_w = (hi - lo + 1) * bw
            x0 = (WIDTH - wall_w) / 2
            rows = max([c["row"] for c in cards] + [1] + ([r for (r, _) in [*ghosts, *blocked]] if p == player else []))
            base_y = y + HEADER_H + (rows - 1) * bh + 4

            def at(row: int, pos: int, x0: float = x0, lo: int = lo, base_y: float = base_y) -> tuple[float, float]:
                return x0 + (pos - lo) * bw + (row - 1) * bw / 2, base_y - (row - 1) * bh

            if not cards and not (p == player and ghosts):
                none_yet = tr.gettext("no cards yet")
                s.text(WIDTH / 2, base_y + bh / 2 + 6, none_yet, font_size="18", text_anchor="middle", fill=MUTED)
            for c in cards:
                bx, by = at(c["row"], c["pos"])
                with s.group(cls="kn-card", data_card=str(c["id"])):
                    s.tooltip(
                        tr.gettext("{card}, row {row} pos {pos}").format(
                            card=_card_words(c, tr), row=c["row"], pos=c["pos"]
                        )
                    )
                    _brick(s, c, bx + 1, by + 1, bw - 2, bh - 2, view, tr, dim=(c["row"], c["pos"]) not in uncovered)
                if p == player:
                    _wild_halves(s, c, bx + 1, by + 1, bw - 2, bh - 2, moves, paths, tr)
            if p == player:
                placing = view["taken"]["id"] if view.get("taken") else tr.gettext("the card")
                for (row, pos), (action, text) in sorted(ghosts.items()):
                    bx, by = at(row, pos)
                    key = f"slot:{row}:{pos}"
                    with s.group(data_key=key, cls="zg-ghost"):
                        s.tooltip(
                            tr.gettext("Place {card} at {place}").format(card=placing, place=_place_words(text, tr))
                        )
                        s.rect(
                            bx + 3,
                            by + 3,
                            bw - 6,
                            bh - 6,
                            rx="6",
                            fill="#fff4d6",
                            stroke=TURN,
                            stroke_dasharray="6 4",
                            cls="zg-frame",
                        )
                        s.text(
                            bx + bw / 2,
                            by + bh / 2 + bh * 0.16,
                            "+",
                            font_size=f"{bh * 0.5:.0f}",
                            text_anchor="middle",
                            fill=TURN,
                            font_weight="bold",
                        )
                    paths[action] = (key,)
                for row, pos in blocked:  # no move: a click asks the engine why the card may not go there
                    bx, by = at(row, pos)
                    where = tr.gettext("row {row} pos {pos}").format(row=row, pos=pos)
                    with s.group(cls="kn-blocked", data_why=f"row {row} pos {pos}"):
                        s.tooltip(tr.gettext("{place}: {card} cannot go here now").format(place=where, card=placing))
                        s.rect(bx + 5, by + 5, bw - 10, bh - 10, rx="6", fill="#fbeae8", fill_opacity="0.6",
                               stroke="#b3261e", stroke_opacity="0.5", stroke_dasharray="3 4")  # fmt: skip
        y += h + 10

    # --- legend
    ly = y + 20
    for lx, ly_off, animal, word in legend:
        if animal:
            s.circle(lx + 9, ly + ly_off - 6, 9, fill=_animal_colour(animal))
            letter = _letter(animal, tr)
            s.text(
                lx + 9,
                ly + ly_off - 1,
                letter,
                font_size="12" if len(letter) < 2 else "10",
                font_weight="bold",
                text_anchor="middle",
                fill="#fff",
                cls="zg-glyph",
            )
        else:
            _jade_token(s, lx + 9, ly + ly_off - 6, 9, "")
        s.text(lx + 22, ly + ly_off, word, font_size="16", fill=INK)
    ly += legend_h - 40

    # --- anything without a place on the table
    bx = WIDTH - MARGIN - 120.0
    for action, text in moves.other:
        key = f"act:{action}"
        with s.group(data_key=key):
            s.tooltip(text)
            s.rect(bx, ly - 22, 120, 30, rx="6", fill="#fff", stroke=PANEL_EDGE, cls="zg-frame")
            s.text(bx + 60, ly - 2, text, font_size="15", text_anchor="middle", fill=INK)
        paths[action] = (key,)
        bx -= 130
    return Board(svg=s.render(), paths=paths)
