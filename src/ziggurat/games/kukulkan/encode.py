"""A fixed-length numeric encoding of a Kukulkán view (for learning and OpenSpiel).

Layout (``P`` players, ``S`` segments, ``B`` blocks), players rotated so the
viewer comes first (a spectator sees seat order); every number lies in [0, 1]:

* per player: drawn segments (S), per block numbered / value÷6 / marked (3B),
  helps used (3), permanent plus/minus one (1), bonuses claimed (5),
  bonus points÷20 capped at 1 (1), choice complete this round (1);
* the die, one-hot (6); phase one-hot (3); round÷the backstop's last round (1);
* the viewer's own pending choice: help (5), value (6), kind (5), trail (S).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from ziggurat.core.game import Game

_HELPS = ("same-value", "plus-one", "super-six")
_BONUSES = ("base", "axis", "full", "A-C", "B-D")
_PENDING_HELPS = ("same-value", "plus-one", "super-six", "permanent plus-one")
_KINDS = ("draw", "write", "mark", "pass")
_PHASES = ("roll", "choose", "over")


def _sizes(game: Game) -> tuple[int, int, int]:
    sheet = game.sheet  # type: ignore[attr-defined]
    return game.num_players, len(sheet.segments), len(sheet.blocks)


def tensor_size(game: Game) -> int:
    """Length of every encoding of this game's views."""
    players, segs, blocks = _sizes(game)
    per_player = segs + 3 * blocks + 3 + 1 + 5 + 1 + 1
    return players * per_player + 6 + 3 + 1 + 5 + 6 + 5 + segs


def tensor(game: Game, view: Mapping[str, Any]) -> list[float]:
    """Encode ``view`` (see the module docstring)."""
    players, segs, _ = _sizes(game)
    me = view.get("player")
    order = list(range(players))
    if isinstance(me, int):
        order = order[me:] + order[:me]
    out: list[float] = []
    for q in order:
        sh = view["sheets"][q]
        drawn = [0.0] * segs
        for s in sh["drawn"]:
            drawn[s] = 1.0
        out += drawn
        marked = set(sh["marked"])
        for b, v in enumerate(sh["values"]):
            out += [0.0 if v is None else 1.0, (v or 0) / 6.0, 1.0 if b in marked else 0.0]
        out += [1.0 if h in sh["helps_used"] else 0.0 for h in _HELPS]
        out.append(1.0 if sh["permanent_plus_minus"] else 0.0)
        out += [1.0 if b in sh["bonuses"] else 0.0 for b in _BONUSES]
        out.append(min(1.0, sh["bonus_points"] / 20.0))
        out.append(1.0 if view["chosen"][q] else 0.0)
    die = [0.0] * 6
    if view["die"]:
        die[view["die"] - 1] = 1.0
    out += die
    out += [1.0 if view["phase"] == ph else 0.0 for ph in _PHASES]
    out.append(min(1.0, view["round"] / game.max_rounds))  # type: ignore[attr-defined]
    choice = view.get("choice")
    help_ = [0.0] * 5
    value = [0.0] * 6
    kind = [0.0] * 5
    trail = [0.0] * segs
    if choice:
        if choice["help"] in _PENDING_HELPS:
            help_[_PENDING_HELPS.index(choice["help"])] = 1.0
        else:
            help_[4] = 1.0
        if choice["value"]:
            value[choice["value"] - 1] = 1.0
        if choice["kind"] in _KINDS:
            kind[_KINDS.index(choice["kind"])] = 1.0
        else:
            kind[4] = 1.0
        for s in choice["trail"]:
            trail[s] = 1.0
    out += help_ + value + kind + trail
    return out


def tensor_writer(game: Game) -> Callable[[Mapping[str, Any], np.ndarray], None]:
    """:func:`tensor` for ``game`` as a writer into a zeroed float32 buffer (see ``GameEntry.tensor_writer``).

    Offsets are worked out once; each call gathers the non-zero (index, value)
    pairs, valued exactly as :func:`tensor` values them, and stores them with
    one NumPy assignment.
    """
    players, segs, blocks = _sizes(game)
    max_rounds = game.max_rounds  # type: ignore[attr-defined]
    per_player = segs + 3 * blocks + 3 + 1 + 5 + 1 + 1
    helps_at = segs + 3 * blocks
    helps = {h: helps_at + i for i, h in enumerate(_HELPS)}
    bonuses = {b: helps_at + 4 + i for i, b in enumerate(_BONUSES)}
    die_at = players * per_player
    phases = {ph: die_at + 6 + i for i, ph in enumerate(_PHASES)}
    round_at = die_at + 9
    help_at = round_at + 1
    pending = {h: help_at + i for i, h in enumerate(_PENDING_HELPS)}
    value_at = help_at + 5
    kinds = {kd: value_at + 6 + i for i, kd in enumerate(_KINDS)}
    trail_at = value_at + 11

    def write(view: Mapping[str, Any], out: np.ndarray) -> None:
        me = view.get("player")
        first = me if isinstance(me, int) else 0
        idx: list[int] = []
        vals: list[float] = []
        sheets = view["sheets"]
        chosen = view["chosen"]
        for j in range(players):
            q = (first + j) % players
            at = j * per_player
            sh = sheets[q]
            for s in sh["drawn"]:
                idx.append(at + s)
                vals.append(1.0)
            block = at + segs
            values = sh["values"]
            for b, v in enumerate(values):
                if v is not None:
                    idx += (block + 3 * b, block + 3 * b + 1)
                    vals += (1.0, (v or 0) / 6.0)
            for b in set(sh["marked"]):
                if 0 <= b < len(values):
                    idx.append(block + 3 * b + 2)
                    vals.append(1.0)
            for h in sh["helps_used"]:
                if h in helps:
                    idx.append(at + helps[h])
                    vals.append(1.0)
            for b in sh["bonuses"]:
                if b in bonuses:
                    idx.append(at + bonuses[b])
                    vals.append(1.0)
            idx += (at + helps_at + 3, at + helps_at + 9, at + helps_at + 10)
            vals += (
                1.0 if sh["permanent_plus_minus"] else 0.0,
                min(1.0, sh["bonus_points"] / 20.0),
                1.0 if chosen[q] else 0.0,
            )
        if view["die"]:
            idx.append(die_at + view["die"] - 1)
            vals.append(1.0)
        if view["phase"] in phases:
            idx.append(phases[view["phase"]])
            vals.append(1.0)
        idx.append(round_at)
        vals.append(min(1.0, view["round"] / max_rounds))
        choice = view.get("choice")
        if choice:
            idx.append(pending.get(choice["help"], help_at + 4))
            vals.append(1.0)
            if choice["value"]:
                idx.append(value_at + choice["value"] - 1)
                vals.append(1.0)
            idx.append(kinds.get(choice["kind"], value_at + 10))
            vals.append(1.0)
            for s in choice["trail"]:
                idx.append(trail_at + s)
                vals.append(1.0)
        out[idx] = vals

    return write
