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

from ziggurat.core.game import Game
from ziggurat.games.pyramix.geometry import NUM_POSITIONS
from ziggurat.games.pyramix.rules import PyramixGame

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
        out[idx] = [1.0] * ones + vals

    return write
