"""A Pyramix view as a flat list of floats (for learning and OpenSpiel observations).

Layout (``K`` cube kinds, ``n`` players; every number lies in [0, 1]):

* per place (56, in index order): a one-hot of its cube's kind (all zero when
  empty), then 1.0 if the player to move may take it -- ``56 * (K + 1)``;
* per player: cubes taken per kind, divided by how many the box holds -- ``n * K``;
* the player to move, one-hot -- ``n``;
* cubes still in the box during setup, per kind, divided by the box's count -- ``K``;
* the phase, one-hot (setup, play, over) -- ``3``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from ziggurat.core.game import TERMINAL, Game, State
from ziggurat.core.tensor import indices
from ziggurat.games.pyramix.geometry import NUM_POSITIONS
from ziggurat.games.pyramix.rules import PyramixGame, PyramixState

_PHASES = ("setup", "play", "over")


def tensor_size(game: Game) -> int:
    """Length of :func:`tensor` for ``game``."""
    assert isinstance(game, PyramixGame)
    k = game.num_kinds
    n = game.num_players
    return NUM_POSITIONS * (k + 1) + n * k + n + k + len(_PHASES)


def tensor(game: Game, view: Mapping[str, Any]) -> list[float]:
    """Encode ``view`` (see the module docstring)."""
    assert isinstance(game, PyramixGame)
    box = game.box
    k = game.num_kinds
    index = {code: i for i, code in enumerate(box.code)}
    scale = [1.0 / c if c else 0.0 for c in box.counts]
    out: list[float] = []
    for place in view["pyramid"]:
        cell = [0.0] * (k + 1)
        cube = place["cube"]
        if cube is not None:
            cell[index[cube["code"]]] = 1.0
        if place["removable"]:
            cell[k] = 1.0
        out.extend(cell)
    for coll in view["collections"]:
        cubes = coll["cubes"]
        out.extend(cubes.get(box.code[i], 0) * scale[i] for i in range(k))
    to_move = view["to_move"]
    out.extend(1.0 if p == to_move else 0.0 for p in range(game.num_players))
    pool = view["box"]
    out.extend(pool.get(box.code[i], 0) * scale[i] for i in range(k))
    out.extend(1.0 if view["phase"] == ph else 0.0 for ph in _PHASES)
    return out


def tensor_writer(game: Game) -> Callable[[Mapping[str, Any], np.ndarray], None]:
    """:func:`tensor` for ``game`` as a writer into a zeroed float32 buffer (see ``GameEntry.tensor_writer``).

    The offsets are worked out once; each call gathers the non-zero (index,
    value) pairs, valued exactly as :func:`tensor` values them, and stores them
    with one NumPy assignment.
    """
    assert isinstance(game, PyramixGame)
    box = game.box
    k = game.num_kinds
    n = game.num_players
    index = {code: i for i, code in enumerate(box.code)}
    scale = [1.0 / c if c else 0.0 for c in box.counts]
    # a cube's one-hot place in each place's cell, and each kind's collection entry (index, scale)
    kind_at = {code: (index[code], scale[i]) for i, code in enumerate(box.code)}
    width = k + 1
    collections_at = NUM_POSITIONS * width
    to_move_at = collections_at + n * k
    box_at = to_move_at + n
    phase_at = {ph: box_at + k + i for i, ph in enumerate(_PHASES)}

    def write(view: Mapping[str, Any], out: np.ndarray) -> None:
        idx: list[int] = []
        vals: list[float] = []
        at = 0
        for place in view["pyramid"]:
            cube = place["cube"]
            if cube is not None:
                idx.append(at + index[cube["code"]])
            if place["removable"]:
                idx.append(at + k)
            at += width
        ones = len(idx)
        at = collections_at
        for coll in view["collections"]:
            for code, count in coll["cubes"].items():
                i, s = kind_at[code]
                idx.append(at + i)
                vals.append(count * s)
            at += k
        for code, count in view["box"].items():
            i, s = kind_at[code]
            idx.append(box_at + i)
            vals.append(count * s)
        to_move = view["to_move"]
        if to_move is not None and 0 <= to_move < n:
            idx.append(to_move_at + to_move)
            vals.append(1.0)
        if view["phase"] in phase_at:
            idx.append(phase_at[view["phase"]])
            vals.append(1.0)
        out[indices(idx)] = [1.0] * ones + vals

    return write


def state_tensor_writer(game: Game) -> Callable[[State, int | None, np.ndarray], None]:
    """:func:`tensor` of ``state.view(seat)``, written from the state without building the view.

    Pyramix hides nothing (every seat's view is the same), so reading the
    state's cubes, removals, collections and box is reading the view. The
    values are those of :func:`tensor_writer` (the tests compare them at every step).
    """
    assert isinstance(game, PyramixGame)
    box = game.box
    k = game.num_kinds
    n = game.num_players
    index = {code: i for i, code in enumerate(box.code)}
    column = [index[code] for code in box.code]  # kind -> its place in a cell's one-hot
    scale = [1.0 / c if c else 0.0 for c in box.counts]
    width = k + 1
    cell = np.arange(NUM_POSITIONS) * width
    kind_column = np.array(column, dtype=np.intp)
    scales = np.array(scale, dtype=np.float64)
    collections_at = NUM_POSITIONS * width
    to_move_at = collections_at + n * k
    box_at = to_move_at + n
    phase_at = box_at + k

    def write(state: State, seat: int | None, out: np.ndarray) -> None:
        assert isinstance(state, PyramixState)
        grid = np.array(state.grid, dtype=np.intp)
        filled = grid >= 0
        out[cell[filled] + kind_column[grid[filled]]] = 1.0
        setup = state.in_setup
        if not setup and state.moves:
            out[cell[state.moves] + k] = 1.0
        # the same products as the list hook's ``count * scale`` (float64, then float32)
        out[collections_at:to_move_at] = (np.array(state.coll, dtype=np.float64).reshape(n, k) * scales).ravel()
        cur = state.current_player()
        if 0 <= cur < n:
            out[to_move_at + cur] = 1.0
        out[box_at:phase_at] = np.array(state.pool, dtype=np.float64) * scales
        out[phase_at + (0 if setup else 2 if cur == TERMINAL else 1)] = 1.0

    return write
