"""Terminal drawing of a Pyramix view (never a state).

Each layer is drawn as a triangle, top layer first; a cell shows the place label
and the cube: colour letter (upper case) and icon letter (``Ba`` blue ankh, ``Gc``
green crane, ``Pe`` purple eye), ``Co`` for a cobra, ``·`` for an empty place. A
``*`` marks a cube the player to move may take.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ziggurat.core.outcome import scores_line
from ziggurat.games.pyramix.geometry import LAYER_LETTERS, layer_rows

CELL = 8
_STYLES = {"blue": "bold blue", "purple": "bold magenta", "orange": "bold dark_orange", "green": "bold green"}
_COBRA_STYLE = "bold red"
# Layers grouped into bands that fit 80 columns: top ones side by side, the tray alone.
_BANDS = ((5, 4, 3), (2, 1), (0,))


def _style(colour: str | None) -> str:
    if colour is None:
        return _COBRA_STYLE
    return _STYLES.get(colour, "bold")


def cube_text(cube: Mapping[str, Any] | None) -> Text:
    """Two letters for a cube: ``Ba`` (blue ankh), ``Co`` (cobra), `` ·`` for none."""
    if cube is None:
        return Text(" ·", style="dim")
    code = cube["code"]
    return Text(code[0].upper() + code[1:], style=_style(cube["colour"]))


def cell_text(place: Mapping[str, Any]) -> Text:
    """``a12 Ba*``: label, cube, ``*`` if it may be taken now (8 columns)."""
    t = Text(f"{place['label']:>3} ", style="dim" if place["cube"] is None else "")
    t.append(cube_text(place["cube"]))
    t.append("*" if place["removable"] else " ", style="bold yellow")
    t.append(" " * (CELL - len(t)))
    return t


def layer_text(view: Mapping[str, Any], layer: int) -> Text:
    """One layer as an upright triangle of cells."""
    places = view["pyramid"]
    rows = layer_rows(layer)
    width = len(rows[-1])
    out = Text()
    for n, row in enumerate(rows):
        out.append(" " * ((width - len(row)) * CELL // 2))
        for p in row:
            out.append(cell_text(places[p]))
        if n < len(rows) - 1:
            out.append("\n")
    return out


def _layer_panel(view: Mapping[str, Any], layer: int) -> Panel:
    taken = sum(1 for p in (q for r in layer_rows(layer) for q in r) if view["pyramid"][p]["cube"] is not None)
    name = "layer a (tray)" if layer == 0 else f"layer {LAYER_LETTERS[layer]}"
    count = f"{taken} cube{'' if taken == 1 else 's'}"
    width = max(CELL * len(layer_rows(layer)[-1]) + 2, 20)
    return Panel(layer_text(view, layer), title=name, subtitle=count, width=width, padding=(0, 0))


def collections_table(view: Mapping[str, Any]) -> Table:
    """Per player: ankhs/cranes/eyes per colour (ankh leader starred), cobras, points so far."""
    table = Table(title="Collections (ankhs/cranes/eyes; * = most ankhs of that colour)", title_justify="left")
    table.add_column("player")
    colours = view["colours"]
    for colour in colours:
        table.add_column(colour, style=_style(colour), justify="center")
    table.add_column("cobras", justify="center")
    table.add_column("points", justify="right")
    leaders = view["leaders"]
    for p, coll in enumerate(view["collections"]):
        name = f"P{p + 1}" + (" (you)" if p == view.get("player") else "") + (" ◀" if view["to_move"] == p else "")
        cubes = coll["cubes"]
        cells = []
        for colour in colours:
            counts = "/".join(str(cubes.get(k["code"], 0)) for k in view["kinds"] if k["colour"] == colour)
            cells.append(counts + ("*" if leaders.get(colour) == p else " "))
        cobras = sum(cubes.get(k["code"], 0) for k in view["kinds"] if k["colour"] is None)
        table.add_row(name, *cells, str(cobras), str(coll["points"]))
    return table


def legend(view: Mapping[str, Any]) -> str:
    """What the cell letters mean, from the view's cube kinds."""
    colours: dict[str, str] = {}
    icons: dict[str, str] = {}
    for k in view["kinds"]:
        if k["colour"] is not None:
            colours.setdefault(k["code"][0].upper(), k["colour"])
            icons.setdefault(k["code"][1:], f"{k['icon']} {k['points']}")
    return (
        "Cubes: colour "
        + ", ".join(f"{c} {n}" for c, n in colours.items())
        + " + icon "
        + ", ".join(f"{c} {n}" for c, n in icons.items())
        + "; Co = cobra. * = may be taken now. Layers a (tray) .. f (top)."
    )


def render(view: Mapping[str, Any], player: int | None = None) -> Any:
    """The pyramid layer by layer, the collections, and what may be taken now."""
    parts: list[Any] = []
    for band in _BANDS:
        grid = Table.grid(padding=(0, 1))
        grid.add_row(*(_layer_panel(view, layer) for layer in band))
        parts.append(grid)
    parts.append(collections_table(view))
    phase = view["phase"]
    if phase == "setup":
        left = sum(view["box"].values())
        parts.append(Text(f"Setup: stacking the cubes — next place {view['next_place']}, {left} cubes in the box."))
    elif phase == "play":
        t = Text(f"Player {view['to_move'] + 1} to move. May take: ", style="bold")
        t.append(" ".join(view["removable"]), style="bold yellow")
        t.append("   (e.g. take " + view["removable"][0] + ")", style="dim")
        parts.append(t)
    else:
        out = view.get("tray_out", [])
        parts.append(Text("Tray cubes out of play next to a cobra: " + (" ".join(out) if out else "none")))
        parts.append(Text("Final scores: " + scores_line(view["scores"], view["ranks"]), style="bold"))
    parts.append(Text(legend(view), style="dim"))
    return Group(*parts)
