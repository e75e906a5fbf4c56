"""Terminal drawing of a Kukulkán view (never a state, so nothing hidden can leak).

Each sheet is drawn on a character grid (72 columns): a grid point is two
characters wide, a unit of span five; a unit of height is a line row and two
inside rows. Drawn segments are heavy lines, dotted ones show their number
(``12`` is ``draw s12``); each block shows its number (``✗`` once marked) and
its id, label (A–D), ``*`` on the vertical axis and ``°`` if external.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group
from rich.panel import Panel
from rich.text import Text

from ziggurat.core.outcome import scores_line

UNIT = 7  # point column (2) + span (5)
_JOINTS = {
    0: "·", 1: "╹", 2: "╻", 3: "┃", 4: "╸", 5: "┛", 6: "┓", 7: "┫",
    8: "╺", 9: "┗", 10: "┏", 11: "┣", 12: "━", 13: "┻", 14: "┳", 15: "╋",
}  # fmt: skip
_UP, _DOWN, _LEFT, _RIGHT = 1, 2, 4, 8
_HELPS = ("same-value", "plus-one", "super-six")


def sheet_text(view: Mapping[str, Any], p: int) -> Text:
    """Player ``p``'s pyramid as a grid (their own pending trail in yellow, if the view shows it)."""
    geo = view["sheet"]
    sheet = view["sheets"][p]
    segs = geo["segments"]
    width = max(max(s[0], s[2]) for s in segs)
    height = max(max(s[1], s[3]) for s in segs)
    rows = 3 * height + 1
    cols = UNIT * width + 2
    chars = [[" "] * cols for _ in range(rows)]
    styles = [[""] * cols for _ in range(rows)]

    def put(r: int, c: int, text: str, style: str = "") -> None:
        for i, ch in enumerate(text):
            if 0 <= c + i < cols:
                chars[r][c + i] = ch
                styles[r][c + i] = style

    drawn = set(sheet["drawn"])
    choice = view.get("choice")
    pending = set(choice["trail"]) if choice and view.get("player") == p else set()
    values = sheet["values"]
    marked = set(sheet["marked"])
    # block insides
    for blk in geo["blocks"]:
        b = blk["id"]
        a, z = blk["span"]
        r = blk["row"]
        c0 = UNIT * a + 2
        w = UNIT * (z - a) - 2
        top = 3 * (height - r - 1) + 1
        v = values[b]
        if v is None:
            put(top, c0, "·".center(w), "dim")
        elif b in marked:
            put(top, c0, f"{v} ✗".center(w), "bold green")
        else:
            put(top, c0, str(v).center(w), "bold")
        tag = f"b{b}" + (blk["label"] or "") + ("*" if blk["axis"] else "") + ("°" if blk["external"] else "")
        put(top + 1, c0, tag.center(w), "cyan" if blk["label"] else "dim")
    # segments
    joint: dict[tuple[int, int], int] = {}
    touched: set[tuple[int, int]] = set()
    for k, (x1, y1, x2, y2) in enumerate(segs):
        touched.update({(x1, y1), (x2, y2)})
        on = k in drawn or k in pending
        style = "bold yellow" if k in pending else "bold"
        if y1 == y2:  # horizontal
            r = 3 * (height - y1)
            c = UNIT * x1 + 2
            if on:
                put(r, c, "━" * 5, style)
                joint[(x1, y1)] = joint.get((x1, y1), 0) | _RIGHT
                joint[(x2, y2)] = joint.get((x2, y2), 0) | _LEFT
            else:
                put(r, c, str(k).center(5, "·"), "dim")
        else:
            r = 3 * (height - y2)
            c = UNIT * x1
            if on:
                put(r + 1, c, "┃", style)
                put(r + 2, c, "┃", style)
                joint[(x1, y1)] = joint.get((x1, y1), 0) | _UP
                joint[(x2, y2)] = joint.get((x2, y2), 0) | _DOWN
            else:
                put(r + 1, c, str(k).ljust(2), "dim")
                put(r + 2, c, "┊", "dim")
    for x, y in touched:
        bits = joint.get((x, y), 0)
        right = "━" if bits & _RIGHT else " "
        put(3 * (height - y), UNIT * x, _JOINTS[bits] + right, "bold" if bits else "dim")
    out = Text()
    for r in range(rows):
        line = Text()
        run, style = "", styles[r][0]
        for c in range(cols):
            if styles[r][c] != style:
                line.append(run, style=style or None)
                run, style = "", styles[r][c]
            run += chars[r][c]
        line.append(run.rstrip(), style=style or None)
        out.append(line)
        if r < rows - 1:
            out.append("\n")
    return out


def _choice_text(c: Mapping[str, Any]) -> str:
    kind = c["kind"]
    parts = []
    if c["help"]:
        parts.append(f"help {c['help']} ({c['value']})")
    if kind == "draw":
        verb = "drawing" if c.get("complete") is False else "drew"
        parts.append(f"{verb} " + " ".join(f"s{s}" for s in c["trail"]))
    elif kind == "write":
        parts.append(f"wrote {c['value']} in b{c['block']}")
    elif kind == "mark":
        parts.append(f"marked b{c['block']}")
    elif kind == "pass":
        parts.append("passed")
    return ", ".join(parts) or "nothing yet"


def render(view: Mapping[str, Any], player: int | None = None) -> Any:
    """The round, the die, the bonuses and every player's pyramid, from ``view`` only."""
    n = view["players"]
    head = Text(f"Kukulkán — {view['sheet']['name']} — round {view['round']}", style="bold")
    if view["die"]:
        head.append(f" — the die shows {view['die']}", style="bold magenta")
    parts: list[Any] = [head]
    claimed = view["claimed_by"]
    bonus = Text("Bonuses: ")
    for name in ("base", "axis", "full"):
        who = claimed[name]
        bonus.append(f"{name} " + (",".join(f"P{q + 1}" for q in who) if who else "open") + "  ",
                     style="green" if who else "")  # fmt: skip
    for name in ("A-C", "B-D"):
        who = claimed[name]
        bonus.append(f"first {name} " + (",".join(f"P{q + 1}" for q in who) + " (closed)" if who else "open") + "  ",
                     style="red" if who else "")  # fmt: skip
    parts.append(bonus)
    if view["last_round"]:
        last = Text("Last round: ", style="dim")
        last.append("; ".join(f"P{q + 1} {_choice_text(c)}" for q, c in enumerate(view["last_round"])), style="dim")
        parts.append(last)
    if view["phase"] == "choose":
        status = Text("Choices: ")
        status.append("  ".join(f"P{q + 1} " + ("chosen" if view["chosen"][q] else "choosing") for q in range(n)))
        parts.append(status)
        me = view.get("choice")
        if me:
            mine = Text(f"Your choice so far: {_choice_text(me)}", style="yellow")
            if me["kind"] == "draw" and not me["complete"]:
                mine.append(f" ({len(me['trail'])} of {me['value']} segments)")
            parts.append(mine)
    for q, sheet in enumerate(view["sheets"]):
        title = f"Player {q + 1}" + (" (you)" if q == view.get("player") else "")
        title += f" — score {sheet['score']} ({sheet['marked_count']} marked + {sheet['bonus_points']} bonus)"
        helps = [h for h in _HELPS if h not in sheet["helps_used"]]
        foot = "helps left: " + (", ".join(helps) if helps else "none")
        if sheet["permanent_plus_minus"]:
            foot += " + permanent plus/minus one"
        if sheet["bonuses"]:
            foot += " — bonuses: " + ", ".join(sheet["bonuses"])
        parts.append(Panel(sheet_text(view, q), title=title, subtitle=foot, expand=False))
    parts.append(Text("Blocks: number (✗ marked), id, label A–D, * vertical axis, ° external. "
                      "Dotted segments show their number: 12 is 'draw s12'.", style="dim"))  # fmt: skip
    if view["phase"] == "over":
        scores = scores_line(view["scores"], view["ranks"])
        parts.append(Text(f"Game over: {view['end']['text']}. Scores: {scores}", style="bold"))
    return Group(*parts)
