"""Shared helpers for the Pyramix tests: hand-built positions and a rules oracle."""

from __future__ import annotations

from ziggurat.core.registry import make_game
from ziggurat.games.pyramix.geometry import INDEX, LABELS, NUM_BASE, NUM_POSITIONS, POSITIONS
from ziggurat.games.pyramix.rules import PyramixGame, PyramixState


def game(players: int = 2) -> PyramixGame:
    g = make_game("pyramix", players)
    assert isinstance(g, PyramixGame)
    return g


def label(x: int, y: int, z: int) -> str:
    """Label of the place (x, y, z)."""
    return LABELS[INDEX[(x, y, z)]]


def full(fill: str = "ga", **cells: str) -> dict[str, str]:
    """Every place filled with ``fill``, except those given as label=code ("." empties it)."""
    layout = {lab: fill for lab in LABELS}
    for lab, code in cells.items():
        if code == ".":
            del layout[lab]
        else:
            layout[lab] = code
    return layout


def tray(fill: str = "ga", **cells: str) -> dict[str, str]:
    """Only the tray filled with ``fill`` (plus the cells given)."""
    layout = {LABELS[p]: fill for p in range(NUM_BASE)}
    layout.update(cells)
    return layout


def build(layout: dict[str, str] | str, players: int = 2, **kw: object) -> PyramixState:
    return PyramixState.from_layout(game(players), layout, **kw)  # type: ignore[arg-type]


def labels(places: list[int]) -> list[str]:
    return [LABELS[p] for p in places]


def oracle_legal(state: PyramixState) -> list[int]:
    """The removal rules written straight from docs/rulings.md, slowly, on coordinates."""
    grid = state.grid
    cobra = state.game.cobra

    def at(p: tuple[int, int, int]) -> int:
        if min(p) < 0 or sum(p) > 5:
            return -2  # off the pyramid
        return grid[INDEX[p]]

    legal = []
    for i in range(NUM_POSITIONS):
        if grid[i] < 0:
            continue
        x, y, z = POSITIONS[i]
        ups = [(x - 1, y, z), (x, y - 1, z), (x, y, z - 1)]
        downs = [(x + 1, y, z), (x, y + 1, z), (x, y, z + 1)]
        visible = sum(1 for q in ups if at(q) < 0)
        if visible < 2:
            continue
        if x + y + z == 5 and visible == 3:
            continue
        if grid[i] != cobra and any(at(q) == cobra for q in ups + downs):
            continue
        legal.append(i)
    return legal


def unsupported(state: PyramixState) -> list[str]:
    """Cubes above the tray not resting on three cubes, and empty tray places (coordinates oracle)."""
    bad = []
    for i, (x, y, z) in enumerate(POSITIONS):
        if state.grid[i] < 0:
            if x + y + z == 5:
                bad.append(LABELS[i])
            continue
        if x + y + z < 5:
            for q in ((x + 1, y, z), (x, y + 1, z), (x, y, z + 1)):
                if state.grid[INDEX[q]] < 0:
                    bad.append(LABELS[i])
    return bad
