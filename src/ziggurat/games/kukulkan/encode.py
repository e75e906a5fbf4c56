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

from ziggurat.core.game import Game, State
from ziggurat.core.tensor import indices
from ziggurat.games.kukulkan.rules import _BONUS_NAMES, _USED_NAMES, BASE, CHOOSE, KukulkanGame, KukulkanState

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
        out[indices(idx)] = vals

    return write


def state_tensor_writer(game: Game) -> Callable[[State, int | None, np.ndarray], None]:
    """:func:`tensor` of ``state.view(seat)``, written from the state without building the view.

    It reads what the view shows and nothing else: every sheet (public), the
    die, phase and round, whether each player's choice is complete (only while
    choosing, as the view), and the pending choice of ``seat`` alone (never
    another player's: that is what the view hides). A sheet's block of values
    is computed once per distinct sheet and kept (sheets change at most once a
    round), then copied.
    """
    assert isinstance(game, KukulkanGame)
    players, segs, blocks = _sizes(game)
    max_rounds = game.max_rounds
    per_player = segs + 3 * blocks + 3 + 1 + 5 + 1 + 1
    helps_at = segs + 3 * blocks
    used_bits = [(bit, helps_at + _HELPS.index(name)) for bit, name in _USED_NAMES]
    bonus_bits = [(bit, helps_at + 4 + _BONUSES.index(name)) for bit, name in _BONUS_NAMES]
    chosen_at = helps_at + 10
    die_at = players * per_player
    round_at = die_at + 9
    help_at = round_at + 1
    value_at = help_at + 5
    kind_at = value_at + 6
    trail_at = value_at + 11
    rows: dict[tuple[Any, ...], np.ndarray] = {}

    def sheet_row(drawn: int, values: tuple[int, ...], marked: int, helps: int, claims: int, points: int) -> np.ndarray:
        row = np.zeros(per_player, np.float32)
        for s in range(segs):
            if drawn >> s & 1:
                row[s] = 1.0
        for b, v in enumerate(values):
            if v:  # the view's ``v or None``: 0 is a blank block
                row[segs + 3 * b] = 1.0
                row[segs + 3 * b + 1] = v / 6.0
            if marked >> b & 1:
                row[segs + 3 * b + 2] = 1.0
        for bit, at in used_bits:
            if helps & bit:
                row[at] = 1.0
        if claims & BASE:  # the permanent plus/minus one
            row[helps_at + 3] = 1.0
        for bit, at in bonus_bits:
            if claims & bit:
                row[at] = 1.0
        row[helps_at + 9] = min(1.0, points / 20.0)
        return row

    def write(state: State, seat: int | None, out: np.ndarray) -> None:
        assert isinstance(state, KukulkanState)
        first = seat if isinstance(seat, int) and 0 <= seat < players else 0
        order = [(first + j) % players for j in range(players)]
        drawn, values, marked = state.drawn, state.values, state.marked
        helps, claims, points = state.helps, state.claims, state.bonus_pts
        sheets = []
        for q in order:
            key = (drawn[q], tuple(values[q * blocks : (q + 1) * blocks]), marked[q], helps[q], claims[q], points[q])
            row = rows.get(key)
            if row is None:
                if len(rows) >= 4096:
                    rows.clear()
                row = rows[key] = sheet_row(*key)
            sheets.append(row)
        out[:die_at] = np.concatenate(sheets)
        choosing = state.phase == CHOOSE
        if choosing:
            done = state.p_done
            for j, q in enumerate(order):
                if done[q]:
                    out[j * per_player + chosen_at] = 1.0
        if state.die:
            out[die_at + state.die - 1] = 1.0
        out[die_at + 6 + state.phase] = 1.0
        out[round_at] = min(1.0, state.round / max_rounds)
        if choosing and seat is not None and 0 <= seat < players:  # the seat's own pending choice, no one else's
            help_ = state.p_help[seat]
            out[help_at + (help_ - 1 if help_ else 4)] = 1.0
            if state.p_val[seat]:
                out[value_at + state.p_val[seat] - 1] = 1.0
            kind = state.p_kind[seat]
            out[kind_at + (kind - 1 if kind else 4)] = 1.0
            for s in state.p_trail[seat]:
                out[trail_at + s] = 1.0

    return write
