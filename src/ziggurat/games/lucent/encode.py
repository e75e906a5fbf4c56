"""Observation tensor of a Lucent view (for learning and OpenSpiel).

Layout, all floats in [0, 1]:

* who looks (one-hot over players; all zero for a spectator), who is to move (one-hot);
* the viewer's hand: count of each kind / 10;
* every player's hand size / 25, who is out, who placed last (one-hot);
* the pyramid: for each of the 45 slots a one-hot of the kind there (zeros if empty);
* the open slots: for each slot, which kinds may go there;
* cards still to deal / 50, gems removed / 5, phase (deal, play, over), variants (4).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ziggurat.core.game import Game
from ziggurat.games.lucent.rules import NUM_SLOTS, slot_id


def tensor_size(game: Game) -> int:
    """Length of :func:`tensor` for ``game``."""
    n = game.num_players
    k = len(game.deck.kinds)  # type: ignore[attr-defined]
    return 5 * n + k + 2 * NUM_SLOTS * k + 2 + 3 + 4


def tensor(game: Game, view: Mapping[str, Any]) -> list[float]:
    """Encode ``view`` as a flat list of ``tensor_size(game)`` floats."""
    n = game.num_players
    kinds = list(view["kinds"])
    k = len(kinds)
    out: list[float] = []
    for who in (view.get("player"), view.get("to_move")):
        onehot = [0.0] * n
        if isinstance(who, int) and 0 <= who < n:
            onehot[who] = 1.0
        out.extend(onehot)
    hand = view.get("hand") or {}
    out.extend(min(1.0, hand.get(kind, 0) / 10.0) for kind in kinds)
    out.extend(min(1.0, s / 25.0) for s in view["hand_sizes"])
    out.extend(1.0 if o else 0.0 for o in view["out"])
    last = [0.0] * n
    if view.get("last_placer") is not None:
        last[view["last_placer"]] = 1.0
    out.extend(last)
    pyramid = [0.0] * (NUM_SLOTS * k)
    for r, row in enumerate(view["pyramid"]):
        for j, kind in enumerate(row):
            if kind is not None:
                pyramid[slot_id(r, j) * k + kinds.index(kind)] = 1.0
    out.extend(pyramid)
    open_slots = [0.0] * (NUM_SLOTS * k)
    for o in view["open_slots"]:
        s = slot_id(o["row"], o["pos"] - 1)
        for kind in o["kinds"]:
            open_slots[s * k + kinds.index(kind)] = 1.0
    out.extend(open_slots)
    out.append(min(1.0, view["deck"] / 50.0))
    out.append(min(1.0, view["removed"] / 5.0))
    out.extend(1.0 if view["phase"] == ph else 0.0 for ph in ("deal", "play", "over"))
    out.extend(1.0 if view["variants"][v] else 0.0 for v in ("wildcards", "geomancers", "geomancer-focus", "points"))
    return out
