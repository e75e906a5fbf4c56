"""Terminal drawing of a Lucent view (never a state, so nothing hidden can leak).

The pyramid is drawn top row first, each gem as a coloured block; an open slot
shows which cards may go there (``R/B+`` = a red or blue gem, or a Wildcard or
Geomancer; ``any`` = every card).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group
from rich.panel import Panel
from rich.text import Text

from ziggurat.core.outcome import scores_line

CELL = 6
_STYLES = {
    "red": "bold white on red",
    "blue": "bold white on blue",
    "yellow": "bold black on yellow",
    "green": "bold black on green",
    "purple": "bold white on magenta",
    "wildcard": "bold black on white",
    "geomancer": "bold white on grey35",
}
_SPARE = ["bold black on cyan", "bold white on dark_orange3", "bold black on bright_green", "bold white on grey23"]
_LABELS = {"wildcard": "Wild", "geomancer": "Geo"}


def _style(kind: str, kinds: Sequence[str]) -> str:
    if kind in _STYLES:
        return _STYLES[kind]
    return _SPARE[kinds.index(kind) % len(_SPARE)] if kind in kinds else "bold"


def _label(kind: str) -> str:
    return _LABELS.get(kind, kind[:3].capitalize())


def _codes(kinds: Sequence[str]) -> dict[str, str]:
    """Short codes for colours in open-slot hints (first letter, or more when two colours share it)."""
    colours = [k for k in kinds if k not in _LABELS]
    codes: dict[str, str] = {}
    for c in colours:
        n = 1
        while any(o != c and o[:n] == c[:n] for o in colours) and n < len(c):
            n += 1
        codes[c] = c[:n].upper()
    return codes


def gem(kind: str, kinds: Sequence[str]) -> Text:
    """One gem as a coloured block of the cell width."""
    return Text(f"{_label(kind):^{CELL - 1}}", style=_style(kind, kinds)) + Text(" ")


def _hint(allowed: Sequence[str], kinds: Sequence[str]) -> Text:
    colours = [k for k in allowed if k not in _LABELS]
    all_colours = [k for k in kinds if k not in _LABELS]
    if len(colours) == len(all_colours):
        body = "any"
    else:
        codes = _codes(kinds)
        body = "/".join(codes[c] for c in colours) + "+"
    return Text(f"{body:^{CELL - 1}}"[: CELL - 1], style="dim underline") + Text(" ")


def pyramid_text(view: Mapping[str, Any]) -> Text:
    """The shared pyramid, top row first, with open slots and what may go there."""
    kinds = view["kinds"]
    hints = {(o["row"], o["pos"]): o["kinds"] for o in view["open_slots"]}
    rows = view["pyramid"]
    top = max((r for r, row in enumerate(rows) if any(row) or any((r, j + 1) in hints for j in range(len(row)))),
              default=0)  # fmt: skip
    out = Text()
    for r in range(top, -1, -1):
        label = "base  " if r == 0 else f"row {r} "
        line = Text()
        line.append(label, style="dim")
        line.append(" " * (r * CELL // 2))
        for j, kind in enumerate(rows[r]):
            if kind is not None:
                line.append_text(gem(kind, kinds))
            elif (r, j + 1) in hints:
                line.append_text(_hint(hints[(r, j + 1)], kinds))
            elif r:
                line.append(" " * CELL)
            else:
                line.append(f"{'·':^{CELL - 1}} ", style="dim")
        out.append_text(line)
        out.append("\n")
    ruler = Text("      ", style="dim")
    for j in range(1, 10):
        ruler.append(f"{j:^{CELL - 1}} " if j != 5 else f"{'5*':^{CELL - 1}} ", style="dim")
    out.append_text(ruler)
    return out


def render(view: Mapping[str, Any], player: int | None = None) -> Any:
    """The table: the pyramid, your hand, every player's hand size and who is out."""
    kinds = view["kinds"]
    parts: list[Any] = []
    title = "Pyramid"
    if view["phase"] in ("remove", "deal"):
        title += f" — dealing ({view['deck']} cards to deal)"
    if view["removed"]:
        title += f" — {view['removed']} gems removed unseen"
    if view.get("aside"):
        title += f" — {view['aside']} card set aside unseen"
    parts.append(Panel(pyramid_text(view), title=title, expand=False))
    if view.get("hand") is not None:
        t = Text("Your hand: ")
        hand = view["hand"]
        if not hand:
            t.append("(empty)", style="dim")
        for kind in kinds:
            if hand.get(kind):
                t.append_text(gem(kind, kinds))
                t.append(f"x{hand[kind]}  ")
        parts.append(t)
    lines = Text()
    for p, size in enumerate(view["hand_sizes"]):
        name = f"Player {p + 1}" + (" (you)" if p == view.get("player") else "")
        state = "OUT (hand down)" if view["out"][p] else ("no cards left" if size == 0 else "")
        line = Text()
        line.append(f"{name:<16} {size:>2} cards  ")
        if state:
            line.append(state, style="bold red" if view["out"][p] else "green")
        if view["to_move"] == p:
            line.append("  ← to move", style="bold")
        if view["last_placer"] == p:
            line.append("  (placed last)", style="italic")
        lines.append_text(line)
        lines.append("\n")
    parts.append(lines)
    legend = "Open slots show what may go there: R/B+ = a red or blue gem, or a Wildcard/Geomancer (+); 5* = focus."
    parts.append(Text(legend, style="dim"))
    if "scores" in view:
        parts.append(Text("Scores: " + scores_line(view["scores"], view["ranks"]), style="bold"))
    return Group(*parts)
