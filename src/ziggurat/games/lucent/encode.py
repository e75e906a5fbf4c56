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

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from ziggurat.core.game import Game, State
from ziggurat.core.tensor import indices
from ziggurat.games.lucent.rules import (
    _PHASE_NAMES,
    NUM_SLOTS,
    PLAY,
    ROWS,
    SLOT_POS,
    SLOT_ROW,
    WIDTH,
    LucentGame,
    LucentState,
    slot_id,
)


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


_PHASES = ("deal", "play", "over")
_VARIANTS = ("wildcards", "geomancers", "geomancer-focus", "points")


def tensor_writer(game: Game) -> Callable[[Mapping[str, Any], np.ndarray], None]:
    """:func:`tensor` for ``game`` as a writer into a zeroed float32 buffer (see ``GameEntry.tensor_writer``).

    Offsets and the slot numbers are worked out once; each call gathers the
    non-zero (index, value) pairs, valued exactly as :func:`tensor` values
    them, and stores them with one NumPy assignment.
    """
    n = game.num_players
    k = len(game.deck.kinds)  # type: ignore[attr-defined]
    hand_at = 2 * n
    sizes_at = hand_at + k
    out_at = sizes_at + n
    last_at = out_at + n
    pyramid_at = last_at + n
    open_at = pyramid_at + NUM_SLOTS * k
    deck_at = open_at + NUM_SLOTS * k
    phase_at = {ph: deck_at + 2 + i for i, ph in enumerate(_PHASES)}
    variants_at = deck_at + 5
    cells: dict[tuple[int, int], int] = {}  # (row, 0-based position) -> slot * k
    known: list[Any] = []  # the kinds of the last view and their places (kinds.index: the first)
    place: dict[str, int] = {}

    def cell(row: int, pos: int) -> int:
        at = cells.get((row, pos))
        if at is None:
            at = cells[row, pos] = slot_id(row, pos) * k
        return at

    def write(view: Mapping[str, Any], out: np.ndarray) -> None:
        kinds = view["kinds"]
        if kinds != known:
            if len(kinds) != k:
                raise ValueError(f"lucent: the view names {len(kinds)} kinds, the game {k}")
            known[:] = kinds
            place.clear()
            for i, kind in enumerate(kinds):
                place.setdefault(kind, i)
        idx: list[int] = []
        vals: list[float] = []
        for at, who in ((0, view.get("player")), (n, view.get("to_move"))):
            if isinstance(who, int) and 0 <= who < n:
                idx.append(at + who)
                vals.append(1.0)
        hand = view.get("hand") or {}
        for kind, count in hand.items():
            if kind in place:
                idx.append(hand_at + place[kind])
                vals.append(min(1.0, count / 10.0))
        for p, s in enumerate(view["hand_sizes"]):
            idx.append(sizes_at + p)
            vals.append(min(1.0, s / 25.0))
        for p, o in enumerate(view["out"]):
            if o:
                idx.append(out_at + p)
                vals.append(1.0)
        if view.get("last_placer") is not None:
            idx.append(last_at + view["last_placer"])
            vals.append(1.0)
        for r, row in enumerate(view["pyramid"]):
            for j, kind in enumerate(row):
                if kind is not None:
                    idx.append(pyramid_at + cell(r, j) + place[kind])
                    vals.append(1.0)
        for o in view["open_slots"]:
            at = open_at + cell(o["row"], o["pos"] - 1)
            for kind in o["kinds"]:
                idx.append(at + place[kind])
                vals.append(1.0)
        idx += (deck_at, deck_at + 1)
        vals += (min(1.0, view["deck"] / 50.0), min(1.0, view["removed"] / 5.0))
        if view["phase"] in phase_at:
            idx.append(phase_at[view["phase"]])
            vals.append(1.0)
        variants = view["variants"]
        for i, v in enumerate(_VARIANTS):
            if variants[v]:
                idx.append(variants_at + i)
                vals.append(1.0)
        out[indices(idx)] = vals

    return write


def state_tensor_writer(game: Game) -> Callable[[State, int | None, np.ndarray], None]:
    """:func:`tensor` of ``state.view(seat)``, written from the state without building the view.

    It reads what the view shows and nothing else: the seat's own hand (no
    other hand, only every hand's size), who is out, who placed last, the
    pyramid, the open slots (the same for every seat), how many cards are left
    to deal or were removed (never which), the phase and the variants. The
    values are those of :func:`tensor_writer`.
    """
    assert isinstance(game, LucentGame)
    n = game.num_players
    kinds = list(game.kinds)
    k = len(kinds)
    first: dict[str, int] = {}
    for i, kind in enumerate(kinds):
        first.setdefault(kind, i)
    column = [first[kind] for kind in kinds]  # a kind's place in a one-hot (the view's kinds.index)
    hand_at = 2 * n
    sizes_at = hand_at + k
    out_at = sizes_at + n
    last_at = out_at + n
    pyramid_at = last_at + n
    open_at = pyramid_at + NUM_SLOTS * k
    deck_at = open_at + NUM_SLOTS * k
    phase_at = {i: deck_at + 2 + _PHASES.index(name) for i, name in enumerate(_PHASE_NAMES) if name in _PHASES}
    variants_at = deck_at + 5
    variants = [game.wildcards, game.geomancers, game.geo_focus, game.points]
    slots = [slot_id(r, j) for r in range(ROWS) for j in range(WIDTH - r)]  # the view's rows, in order
    cells = [(s, pyramid_at + s * k) for s in slots]  # each slot and where its one-hot starts
    kinds_of: dict[int, list[int]] = {}  # an open slot's mask of kinds -> their one-hot places
    slot_of = {s: slot_id(SLOT_ROW[s], SLOT_POS[s]) * k for s in range(NUM_SLOTS)}

    def write(state: State, seat: int | None, out: np.ndarray) -> None:
        assert isinstance(state, LucentState)
        idx: list[int] = []
        vals: list[float] = []
        if seat is not None and 0 <= seat < n:
            idx.append(seat)
            vals.append(1.0)
            for kind, count in enumerate(state.hands[seat]):  # the seat's own hand only
                if count:
                    idx.append(hand_at + column[kind])
                    vals.append(min(1.0, count / 10.0))
        cur = state.current_player()
        if 0 <= cur < n:
            idx.append(n + cur)
            vals.append(1.0)
        for p, size in enumerate(state.sizes):
            idx.append(sizes_at + p)
            vals.append(min(1.0, size / 25.0))
        for p, o in enumerate(state.out):
            if o:
                idx.append(out_at + p)
                vals.append(1.0)
        if state.last_placer >= 0:
            idx.append(last_at + state.last_placer)
            vals.append(1.0)
        if state.phase == PLAY:
            for s, mask in state.open_slots():
                at = open_at + slot_of[s]
                places = kinds_of.get(mask)
                if places is None:
                    places = kinds_of[mask] = [column[kind] for kind in range(k) if mask >> kind & 1]
                idx += [at + c for c in places]
                vals += [1.0] * len(places)
        idx += (deck_at, deck_at + 1)
        vals += (min(1.0, len(state.deck) / 50.0), min(1.0, len(state.removed) / 5.0))
        if state.phase in phase_at:
            idx.append(phase_at[state.phase])
            vals.append(1.0)
        for i, on in enumerate(variants):
            if on:
                idx.append(variants_at + i)
                vals.append(1.0)
        pyramid = state.pyramid
        for s, at in cells:
            kind = pyramid[s]
            if kind >= 0:
                idx.append(at + column[kind])
                vals.append(1.0)
        out[indices(idx)] = vals

    return write
