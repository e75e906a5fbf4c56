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

from collections.abc import Mapping
from typing import Any

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
