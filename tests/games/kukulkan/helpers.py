"""Building Kukulkán positions for the tests (through a saved state, so every position is checked)."""

from __future__ import annotations

import random
from typing import Any

from ziggurat.core import make_game
from ziggurat.games.kukulkan.rules import DIE, KukulkanGame, KukulkanState

# Block ids of the shipped sheet (bottom row first, left to right).
BASE = [0, 1, 2, 3, 4]
AXIS = [2, 7, 11, 14, 16]
A, B, C, D = 13, 15, 6, 8
TOP = 16

# A complete, legal numbering of every block of the shipped sheet.
FULL_VALUES = {5: 6, C: 4, 7: 5, D: 4, 9: 6, 10: 6, 11: 4, 12: 6, A: 5, 14: 3, B: 5, TOP: 2}
# Every block numbered but the top, which can't be (nothing is lower than 1; only same-value
# writes a 1 on a 1); no 3 anywhere.
STUCK_VALUES = {**{b: v for b, v in FULL_VALUES.items() if b != TOP}, 14: 1}
NUMBERED = [*BASE, *STUCK_VALUES]
ALL_HELPS = ["same-value", "plus-one", "super-six"]


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


def random_sheet(g: KukulkanGame, rng: random.Random) -> dict[str, Any]:
    """A random sheet that could occur in play, for :func:`position`: often the end game.

    Half of them have every segment drawn, a quarter all but one to three; numbers are written
    bottom up where the rules allow (one in ten equal to its supports, using same-value), low
    ones often, so some blocks rest on a 1 and can never be written without same-value; most
    numbered blocks are marked (all of them, often); helps used at random; the base bonus
    (the permanent plus/minus one) claimed half the time it is earned.
    """
    sh = g.sheet
    every = list(range(g.S))
    r = rng.random()
    if r < 0.5:
        drawn = set(every)
    elif r < 0.75:
        drawn = set(every) - set(rng.sample(every, rng.randint(1, 3)))
    else:
        density = rng.random()
        drawn = {s for s in every if rng.random() < density}
    values = {b: v for b, v in enumerate(g.printed) if v}
    used: set[str] = set()
    for b in sorted(g.upper, key=lambda x: sh.blocks[x].row):
        if not set(sh.outline[b]) <= drawn or any(x not in values for x in sh.supports[b]):
            continue
        if rng.random() < 0.15:
            continue
        t = sum(values[x] for x in sh.supports[b])
        if t <= DIE and "same-value" not in used and rng.random() < 0.1:
            values[b] = t
            used.add("same-value")
        elif t > 1:
            top = min(DIE, t - 1)
            values[b] = min(rng.randint(1, top), rng.randint(1, top))  # low values more often
    markable = [b for b in values if sh.blocks[b].row > 0 or set(sh.outline[b]) <= drawn]
    share = rng.choice((1.0, 1.0, 0.9, 0.5))
    marked = [b for b in markable if rng.random() < share]
    used |= {h for h in ("same-value", "plus-one", "super-six") if rng.random() < 0.6}
    base_done = all(b in marked for b in g.base_blocks)
    printed = [b for b in range(g.B) if g.printed[b]]
    return {
        "drawn": sorted(drawn),
        "values": {b: v for b, v in values.items() if b not in printed},
        "marked": sorted(marked),
        "helps_used": sorted(used),
        "bonuses": ["base"] if base_done and rng.random() < 0.5 else [],
    }
