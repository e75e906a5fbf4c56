"""Building Kukulkán positions for the tests (through a saved state, so every position is checked)."""

from __future__ import annotations

from typing import Any

from ziggurat.core import make_game
from ziggurat.games.kukulkan.rules import KukulkanGame, KukulkanState

# Block ids of the shipped sheet (bottom row first, left to right).
BASE = [0, 1, 2, 3, 4]
AXIS = [2, 7, 11, 14, 16]
A, B, C, D = 13, 15, 6, 8
TOP = 16


def game(players: int = 1, **options: Any) -> KukulkanGame:
    g = make_game("kukulkan", players, options or None)
    assert isinstance(g, KukulkanGame)
    return g


def seg(g: KukulkanGame, x1: int, y1: int, x2: int, y2: int) -> int:
    """The id of the unit segment between two points."""
    return g.sheet.segments.index((x1, y1, x2, y2))


def outlines(g: KukulkanGame, *blocks: int) -> list[int]:
    """Every segment of the given blocks' outlines."""
    return sorted({s for b in blocks for s in g.sheet.outline[b]})


def everything(g: KukulkanGame) -> list[int]:
    return list(range(len(g.sheet.segments)))


def position(
    players: int = 1,
    die: int | None = None,
    sheets: list[dict[str, Any]] | None = None,
    g: KukulkanGame | None = None,
) -> KukulkanState:
    """A position; ``sheets[p]`` may give drawn, values (block -> value), marked, helps_used, bonuses.

    With ``die`` the players are choosing with that roll; otherwise the die is about to be rolled.
    """
    g = g or game(players)
    st = g.new_initial_state()
    data = st.to_json()
    inner = data["state"]
    for p, spec in enumerate(sheets or []):
        pl = inner["players"][p]
        pl["drawn"] = sorted(spec.get("drawn", []))
        for b, v in spec.get("values", {}).items():
            pl["values"][b] = v
        pl["marked"] = sorted(spec.get("marked", []))
        pl["helps_used"] = list(spec.get("helps_used", []))
        pl["bonuses"] = list(spec.get("bonuses", []))
    if die is not None:
        inner["phase"] = "choose"
        inner["die"] = die
        inner["round"] = 1
        for pd in inner["pending"]:
            pd["value"] = die
    state = g.state_from_json(data)
    assert isinstance(state, KukulkanState)
    return state


def texts(state: KukulkanState, player: int = 0) -> list[str]:
    return [t for _, t in state.legal_action_texts(player)]


def do(state: KukulkanState, player: int, *actions: str) -> None:
    for a in actions:
        state.apply_text(a, player)


def roll(state: KukulkanState, value: int) -> None:
    assert state.is_chance_node()
    state.apply_action(value - 1)
