"""Terminal drawing of a Nakum view (never a state, so nothing hidden can leak)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ziggurat.core.outcome import scores_line

COLOURS = ["green", "yellow", "cyan", "magenta"]


def _workers(players: list[int]) -> Text:
    t = Text()
    for p in players:
        t.append(f"P{p + 1}", style=f"bold {COLOURS[p % len(COLOURS)]}")
        t.append(" ")
    return t


def _tile_panel(tile: Mapping[str, Any]) -> Panel:
    if tile["tile"] is None:
        body = Text("face down", style="dim")
        if tile["explorer"] is not None:
            body.append("\nexplorer: ")
            body.append(_workers([tile["explorer"]]))
        else:
            body.append(f"\nexplore {tile['position']}", style="dim")
        return Panel(body, title=Text(f"{tile['position']}"), width=34)
    body = Text()
    for b in tile["basics"]:
        body.append(f"basic {b['number']}: {b['text']}")
        if b["double"]:
            body.append(" (4p: x2)", style="dim")
        if b["workers"]:
            body.append("  ")
            body.append(_workers(b["workers"]))
        body.append("\n")
    camp = tile["camp"]
    state = "exhausted" if camp["exhausted"] else ("open" if camp["active"] else "needs a basic worker")
    body.append(f"camp ({state})", style="bold")
    if camp["workers"]:
        body.append("  ")
        body.append(_workers(camp["workers"]))
    for o in camp["options"]:
        body.append(f"\n  {o['number']}: ")
        body.append(o["text"], style="dim strike" if o["covered"] else "")
        if o["covered"]:
            body.append(" [cube]", style="bold red")
    return Panel(body, title=Text(f"{tile['position']} {tile['name']} ({tile['tile']})"), width=34)


def render(view: Mapping[str, Any], player: int | None = None) -> Any:
    """The board (tiles, spaces, who is where, cubes), the pyramid tile, offerings, market and players."""
    parts: list[Any] = []
    to_move = view["to_move"]
    head = Text(f"Nakum — round {view['round']} — phase {view['phase']}", style="bold")
    if isinstance(to_move, list):
        head.append(f" — waiting for {', '.join(f'P{p + 1}' for p in to_move)}")
    elif to_move is not None:
        head.append(f" — P{to_move + 1} to move")
    if view["camp_in_use"]:
        head.append(f" (choosing an option of the {view['camp_in_use']} camp)")
    if view["end_triggered"]:
        head.append(" — a second offering was made: last round", style="bold red")
    parts.append(head)
    grid = Table.grid(padding=(0, 1))
    tiles = [_tile_panel(t) for t in view["tiles"]]
    for i in range(0, len(tiles), 4):
        grid.add_row(*tiles[i : i + 4])
    parts.append(grid)
    center = Text()
    center.append("Pyramid: ")
    for p, w in enumerate(view["pyramid"]):
        if w:
            center.append(_workers([p]))
            center.append(f"x{w} ")
    pituk = view["pituk"]
    used = [name for name, u in zip(("market", "offerings"), pituk["used"], strict=True) if u]
    center.append("   Pituk: " + ("open" if pituk["available"] else "after every tile is revealed"))
    if used:
        center.append(f" (used: {', '.join(used)})")
    if pituk["workers"]:
        center.append(" ")
        center.append(_workers(pituk["workers"]))
    center.append(f"   Start player: P{view['start_player'] + 1} ")
    center.append(_workers(view["start_space"]))
    center.append("  Grow the clan: ")
    center.append(_workers(view["grow_space"]))
    parts.append(Panel(center, title="Pyramid tile", expand=False))
    offers = Table(title=f"Offerings (deck {view['offering_deck']})", show_header=False, box=None)
    for o in view["offerings"]:
        offers.add_row(Text(o["id"]), Text(o["name"]), Text(o["text"]))
    market = Table(title=f"Market (deck {view['market_deck']})", show_header=False, box=None)
    for m in view["market"]:
        market.add_row(Text(m["id"]), Text(m["name"]), Text(m["text"]))
    cards = Table.grid(padding=(0, 4))
    cards.add_row(offers, market)
    parts.append(cards)
    limits = view["limits"]
    table = Table(title="Players", show_lines=False)
    for col in ("", "maize", "skins", "masks", "points", "workers", "cards", "heritage"):
        table.add_column(col)
    for p, info in enumerate(view["players_info"]):
        name = Text(f"P{p + 1}" + (" (you)" if p == view.get("player") else ""), style=f"bold {COLOURS[p % 4]}")
        workers = f"{info['in_hand']}/{info['workers']} + {info['reserve']} reserve"
        if info["sacrificed"]:
            workers += f", {info['sacrificed']} sacrificed"
        cards_text = " ".join(info["offerings"] + info["market_cards"]) or "-"
        heritage = " ".join(info["heritage_played"])
        if "heritage_hand" in info:
            hand = ", ".join(f"{h['id']} ({h['text']})" for h in info["heritage_hand"])
            heritage += f" | hand: {hand or '-'}"
            if info.get("heritage_choice"):
                heritage += f" | chosen: {info['heritage_choice']}"
        else:
            heritage += f" | {info['heritage_in_hand']} in hand"
            if info["has_chosen"]:
                heritage += " (chosen)"
        table.add_row(
            name,
            f"{info['maize']}/{limits['maize']}",
            f"{info['skins']}/{limits['skins']}",
            f"{info['masks']}/{limits['masks']}",
            str(info["points"]),
            workers,
            Text(cards_text),
            Text(heritage),
        )
    parts.append(table)
    if "scores" in view:
        end = view["end"]["text"] if "end" in view else "the game is over"
        parts.append(Text(f"Game over: {end}. Scores: " + scores_line(view["scores"], view["ranks"]), style="bold"))
    return Group(*parts)
