"""Terminal drawing of a K'uh Nah view (never a state, so nothing hidden can leak)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.measure import Measurement
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ziggurat.core.outcome import scores_line

CARD_WIDTH = 10
_COLOURS = ["green", "magenta", "cyan", "yellow", "bright_red", "blue", "white"]


def _abbrev(animal: str, letters: int = 2) -> str:
    return animal[:letters].capitalize()


def _colour(animal: str, view: Mapping[str, Any]) -> str:
    if animal == view.get("wild_symbol"):
        return "bold bright_yellow"
    return _COLOURS[sum(map(ord, animal)) % len(_COLOURS)]


def card_text(card: Mapping[str, Any], view: Mapping[str, Any], letters: int = 2, brackets: bool = True) -> Text:
    """``[Ba 22 Mo]``: left animal, value, right animal; a wild half is starred.

    Narrower forms for narrow terminals: ``Ba 22 Mo`` (no brackets) and
    ``B 22 M`` (one letter per animal). Every card of one form has the same width.
    """
    wild = card.get("wild", [False, False])
    t = Text("[" if brackets else "")
    t.append(_abbrev(card["left"], letters) + ("*" if wild[0] else " "), style=_colour(card["left"], view))
    t.append(f"{card['value']:>2}", style="bold")
    t.append(("*" if wild[1] else " ") + _abbrev(card["right"], letters), style=_colour(card["right"], view))
    t.append("]" if brackets else "")
    return t


# the card forms of a pyramid wall, widest first: (letters per animal, brackets, width with its gap)
_FORMS = ((2, True, CARD_WIDTH), (2, False, CARD_WIDTH - 1), (1, False, CARD_WIDTH - 3))
_MARGIN = 8  # room for "row 1   " and the ruler's indent


def _one_letter_is_clear(view: Mapping[str, Any]) -> bool:
    """True when the animals on the table all start with different letters."""
    cards = [c for pyramid in view["pyramids"] for c in pyramid] + [c for c in view["quarry"] if c]
    names = {c[half] for c in cards for half in ("left", "right")}
    return len({n[:1].lower() for n in names}) == len(names)


def pyramid_text(cards: list[Mapping[str, Any]], view: Mapping[str, Any], max_width: int | None = None) -> Text:
    """A pyramid as a brick wall, top row first; row and position numbers on the side.

    With ``max_width``, the widest card form (see :func:`card_text`) whose wall
    fits is used; the wall only wraps when even the narrowest does not fit.
    """
    if not cards:
        return Text("(empty)", style="dim")
    rows: dict[int, dict[int, Mapping[str, Any]]] = {}
    for c in cards:
        rows.setdefault(c["row"], {})[c["pos"]] = c
    forms = [f for f in _FORMS if f[0] == 2 or _one_letter_is_clear(view)]
    letters, brackets, width = forms[0]
    if max_width is not None:
        wall = max(max(r) + (row - 1) / 2 for row, r in rows.items())  # in card widths
        fits = [f for f in forms if _MARGIN + wall * f[2] <= max_width]
        letters, brackets, width = fits[0] if fits else forms[-1]
    gap = " " * (width - len(card_text(cards[0], view, letters, brackets)))
    out = Text()
    for row in sorted(rows, reverse=True):
        line = Text(f"row {row:<3} ", style="dim")
        line.append(" " * ((row - 1) * width // 2))
        for pos in range(1, max(rows[row]) + 1):
            card = rows[row].get(pos)
            line.append(card_text(card, view, letters, brackets) if card else Text(" " * (width - len(gap))))
            line.append(gap)
        line.rstrip()
        out.append(line)
        out.append("\n")
    base = rows.get(1, {})
    ruler = Text(" " * _MARGIN, style="dim")
    for pos in range(1, (max(base) if base else 0) + 1):
        ruler.append(f"{'pos ' if width >= 9 else '#'}{pos:<{width - (4 if width >= 9 else 1)}}", style="dim")
    out.append(ruler)
    return out


class _Wall:
    """A pyramid that picks its card form from the width it is given (rich renderable)."""

    def __init__(self, cards: list[Mapping[str, Any]], view: Mapping[str, Any]):
        self.cards = cards
        self.view = view

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield pyramid_text(self.cards, self.view, options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, pyramid_text(self.cards, self.view, options.max_width))


def render(view: Mapping[str, Any], player: int | None = None) -> Any:
    """The table: Quarry with its jade, deck, every pyramid and the jade one may see."""
    quarry = Table.grid(padding=(0, 3))
    row = []
    for slot, card in enumerate(view["quarry"], 1):
        if card is None:
            row.append(Text(f"{slot}: (empty)", style="dim"))
        else:
            t = Text(f"{slot}: ")
            t.append(card_text(card, view))
            t.append(f"  {card['jade']} jade", style="bold green" if card["jade"] else "dim")
            row.append(t)
    quarry.add_row(*row)
    parts: list[Any] = [
        Panel(quarry, title=f"Quarry — deck {view['deck']} cards, {view['removed']} removed unseen", expand=False)
    ]
    if view["taken"] is not None:
        t = Text("Placing: ")
        t.append(card_text(view["taken"], view))
        parts.append(t)
    for p, cards in enumerate(view["pyramids"]):
        jade = view["jade"][p]
        jade_text = "? jade (hidden)" if jade is None else f"{jade} jade"
        title = f"Player {p + 1}" + (" (you)" if p == view.get("player") else "") + f" — {jade_text}"
        if view["jade_wild"]:
            title += " — wild jade " + ("used" if view["wild_used"][p] else "unused")
        if view["to_move"] == p:
            title += " — to move"
        parts.append(Panel(_Wall(cards, view), title=title, expand=False))
    wild = view.get("wild_symbol")
    seen = sorted({c[h] for pyramid in view["pyramids"] for c in pyramid for h in ("left", "right")})
    animals = ", ".join(f"{_abbrev(a)} {a}" for a in seen)
    legend = "Cards: [left animal, weight, right animal]" + (f" ({animals})" if animals else "")
    legend += "; * marks a wild half; narrow terminals drop the brackets or use one letter."
    if wild:
        legend += f" The {wild} ({_abbrev(wild)}) is wild."
    parts.append(Text(legend, style="dim"))
    if "scores" in view:
        parts.append(Text("Scores (lowest wins): " + scores_line(view["scores"], view["ranks"]), style="bold"))
    return Group(*parts)
