"""Terminal drawing of a K'uh Nah view (never a state, so nothing hidden can leak)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ziggurat.core.outcome import scores_line

CARD_WIDTH = 10
_COLOURS = ["green", "magenta", "cyan", "yellow", "bright_red", "blue", "white"]


def _abbrev(animal: str) -> str:
    return animal[:2].capitalize()


def _colour(animal: str, view: Mapping[str, Any]) -> str:
    if animal == view.get("wild_symbol"):
        return "bold bright_yellow"
    return _COLOURS[sum(map(ord, animal)) % len(_COLOURS)]


def card_text(card: Mapping[str, Any], view: Mapping[str, Any]) -> Text:
    """``[Ba 22 Mo]``: left animal, value, right animal; a wild half is starred."""
    wild = card.get("wild", [False, False])
    t = Text("[")
    t.append(_abbrev(card["left"]) + ("*" if wild[0] else " "), style=_colour(card["left"], view))
    t.append(f"{card['value']:>2}", style="bold")
    t.append(
        " " + _abbrev(card["right"]) if not wild[1] else "*" + _abbrev(card["right"]),
        style=_colour(card["right"], view),
    )
    t.append("]")
    return t


def pyramid_text(cards: list[Mapping[str, Any]], view: Mapping[str, Any]) -> Text:
    """A pyramid as a brick wall, top row first; row and position numbers on the side."""
    if not cards:
        return Text("(empty)", style="dim")
    rows: dict[int, dict[int, Mapping[str, Any]]] = {}
    for c in cards:
        rows.setdefault(c["row"], {})[c["pos"]] = c
    out = Text()
    for row in sorted(rows, reverse=True):
        line = Text(f"row {row:<2} ", style="dim")
        indent = (row - 1) * CARD_WIDTH // 2
        line.append(" " * indent)
        width = max(rows[row]) if rows[row] else 0
        for pos in range(1, width + 1):
            card = rows[row].get(pos)
            line.append(card_text(card, view) if card else Text(" " * CARD_WIDTH))
        out.append(line)
        out.append("\n")
    base = rows.get(1, {})
    ruler = Text("        ", style="dim")
    for pos in range(1, (max(base) if base else 0) + 1):
        ruler.append(f"pos {pos:<{CARD_WIDTH - 4}}", style="dim")
    out.append(ruler)
    return out


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
        parts.append(Panel(pyramid_text(cards, view), title=title, expand=False))
    wild = view.get("wild_symbol")
    legend = "Cards: [left animal, weight, right animal]; * marks a wild half."
    if wild:
        legend += f" The {wild} (Ja) is wild."
    parts.append(Text(legend, style="dim"))
    if "scores" in view:
        parts.append(Text("Scores (lowest wins): " + scores_line(view["scores"], view["ranks"]), style="bold"))
    return Group(*parts)
