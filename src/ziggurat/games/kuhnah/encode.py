"""A fixed-length numeric encoding of a K'uh Nah view (for learning and OpenSpiel tensors).

Players are listed from the viewer's seat on (the viewer first), so the same
situation encodes the same way whatever seat the viewer has. Layout:

* phase (turn, place, other), the seat to move relative to the viewer (one-hot);
Every number lies in [0, 1] (values over the deck's highest value, counts over
the deck size, jade over all the jade in the game).

* deck and removed counts; each player's jade (0 with a "hidden" bit when unseen);
* the two Quarry cards and the taken card: present, value, left/right symbol
  one-hots (a wild half is its own symbol), jade on it;
* every pyramid cell in a fixed grid (row, position from the base's left end):
  present, value, left symbol, right symbol (symbols scaled to [0, 1]).

The encoding sizes itself from the card list: a symbol one-hot has a place for
every animal the list names plus one for a wild half (six with the shipped list,
whose layout this keeps), so a list of one's own with more animals encodes too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from ziggurat.core.game import Game, State
from ziggurat.core.tensor import indices
from ziggurat.games.kuhnah.rules import _PHASE_NAMES, LEFT, OVER, PLACE, RIGHT, KuhNahGame, KuhNahState, _row_col

CELL_FEATURES = 4


def _symbols(game: KuhNahGame) -> int:
    """Places in a symbol one-hot: every animal of the card list, and a wild half."""
    return len(game.symbol_names) + 1


def _card_features(game: KuhNahGame) -> int:
    """Present, value, the two symbol one-hots, jade."""
    return 2 + 2 * _symbols(game) + 1


def _grid(game: KuhNahGame) -> list[tuple[int, int]]:
    cells = [(1, pos) for pos in range(1, game.max_cards + 1)]
    for row in range(1, game.max_row + 1):
        cells += [(row + 1, pos) for pos in range(1, game.max_cards - row + 1)]
    return cells


def tensor_size(game: Game) -> int:
    """Length of every encoding of this game's views."""
    assert isinstance(game, KuhNahGame)
    n = game.num_players
    return 3 + n + 2 + 2 * n + 3 * _card_features(game) + n * len(_grid(game)) * CELL_FEATURES


def _symbol(game: KuhNahGame, card: Mapping[str, Any], half: int) -> int:
    if card["wild"][half]:
        return len(game.symbol_names)
    return game.symbol_names.index(card["left" if half == 0 else "right"])


def _card(game: KuhNahGame, card: Mapping[str, Any] | None, jade_scale: float, top: float) -> list[float]:
    symbols = _symbols(game)
    out = [0.0] * _card_features(game)
    if card is None:
        return out
    out[0] = 1.0
    out[1] = card["value"] / top
    out[2 + _symbol(game, card, 0)] = 1.0
    out[2 + symbols + _symbol(game, card, 1)] = 1.0
    out[-1] = card.get("jade", 0) / jade_scale
    return out


def tensor(game: Game, view: Mapping[str, Any]) -> list[float]:
    """Encode ``view`` (see the module docstring)."""
    assert isinstance(game, KuhNahGame)
    n = game.num_players
    me = view["player"] if view["player"] is not None else 0
    order = [(me + k) % n for k in range(n)]
    jade_scale = float(max(1, game.start_jade * n))  # all the jade in the game
    top = float(max(max(game.value), 1))  # the deck's highest card value
    cards = float(game.num_cards)
    phase = view["phase"]
    out = [float(phase == "turn"), float(phase == "place"), float(phase not in ("turn", "place"))]
    to_move = [0.0] * n
    if view["to_move"] is not None:
        to_move[(view["to_move"] - me) % n] = 1.0
    out += to_move
    out += [view["deck"] / cards, view["removed"] / cards]
    for p in order:
        jade = view["jade"][p]
        out += [0.0, 1.0] if jade is None else [jade / jade_scale, 0.0]
    for card in (*view["quarry"], view["taken"]):
        out += _card(game, card, jade_scale, top)
    grid = {cell: i for i, cell in enumerate(_grid(game))}
    symbols = float(len(game.symbol_names))
    for p in order:
        block = [0.0] * (len(grid) * CELL_FEATURES)
        for card in view["pyramids"][p]:
            i = grid[(card["row"], card["pos"])] * CELL_FEATURES
            block[i] = 1.0
            block[i + 1] = card["value"] / top
            block[i + 2] = (_symbol(game, card, 0) + 1) / (symbols + 1)
            block[i + 3] = (_symbol(game, card, 1) + 1) / (symbols + 1)
        out += block
    return out


def tensor_writer(game: Game) -> Callable[[Mapping[str, Any], np.ndarray], None]:
    """:func:`tensor` for ``game`` as a writer into a zeroed float32 buffer (see ``GameEntry.tensor_writer``).

    The offsets and scales are worked out once here; each call gathers the
    non-zero entries as (index, value) pairs, the values computed exactly as
    :func:`tensor` computes them, and stores them with one NumPy assignment.
    """
    assert isinstance(game, KuhNahGame)
    n = game.num_players
    jade_scale = float(max(1, game.start_jade * n))
    top = float(max(max(game.value), 1))
    cards = float(game.num_cards)
    wild = len(game.symbol_names)
    symbol: dict[str, int] = {}
    for i, name in enumerate(game.symbol_names):
        symbol.setdefault(name, i)  # the first place, as list.index finds it
    symbols = float(wild)
    scaled = [(i + 1) / (symbols + 1) for i in range(wild + 1)]  # a pyramid cell's symbol feature
    phases = {"turn": 0, "place": 1}
    features = _card_features(game)
    quarry_at = 5 + 3 * n
    right_at = 2 + _symbols(game)
    grid = {cell: i * CELL_FEATURES for i, cell in enumerate(_grid(game))}
    block = len(grid) * CELL_FEATURES
    pyramids_at = quarry_at + 3 * features

    def write(view: Mapping[str, Any], out: np.ndarray) -> None:
        me = view["player"] if view["player"] is not None else 0
        idx = [phases.get(view["phase"], 2), 3 + n, 4 + n]
        vals = [1.0, view["deck"] / cards, view["removed"] / cards]
        if view["to_move"] is not None:
            idx.append(3 + (view["to_move"] - me) % n)
            vals.append(1.0)
        jade = view["jade"]
        at = 5 + n
        for k in range(n):
            j = jade[(me + k) % n]
            if j is None:
                idx.append(at + 1)
                vals.append(1.0)
            else:
                idx.append(at)
                vals.append(j / jade_scale)
            at += 2
        at = quarry_at
        for card in (*view["quarry"], view["taken"]):
            if card is not None:
                wl, wr = card["wild"]
                idx += (at, at + 1, at + 2 + (wild if wl else symbol[card["left"]]))
                idx += (at + right_at + (wild if wr else symbol[card["right"]]), at + features - 1)
                vals += (1.0, card["value"] / top, 1.0, 1.0, card.get("jade", 0) / jade_scale)
            at += features
        at = pyramids_at
        pyramids = view["pyramids"]
        for k in range(n):
            for card in pyramids[(me + k) % n]:
                i = at + grid[(card["row"], card["pos"])]
                wl, wr = card["wild"]
                idx += (i, i + 1, i + 2, i + 3)
                vals += (
                    1.0,
                    card["value"] / top,
                    scaled[wild if wl else symbol[card["left"]]],
                    scaled[wild if wr else symbol[card["right"]]],
                )
            at += block
        out[indices(idx)] = vals

    return write


def state_tensor_writer(game: Game) -> Callable[[State, int | None, np.ndarray], None]:
    """:func:`tensor` of ``state.view(seat)``, written from the state without building the view.

    It reads what the view shows and nothing else: the phase, who is to move,
    how many cards the deck and the removed pile hold (never which), the
    Quarry, the taken card, every pyramid, and each player's jade only where
    the view shows it (the seat's own; everyone's with open jade or once the
    game is over). The values are those of :func:`tensor_writer`.
    """
    assert isinstance(game, KuhNahGame)
    n = game.num_players
    jade_scale = float(max(1, game.start_jade * n))
    top = float(max(max(game.value), 1))
    cards = float(game.num_cards)
    wild = len(game.symbol_names)
    symbols = float(wild)
    scaled = [(i + 1) / (symbols + 1) for i in range(wild + 1)]
    features = _card_features(game)
    quarry_at = 5 + 3 * n
    right_at = 2 + _symbols(game)
    grid = {cell: i * CELL_FEATURES for i, cell in enumerate(_grid(game))}
    block = len(grid) * CELL_FEATURES
    pyramids_at = quarry_at + 3 * features
    phase_at = {phase: {"turn": 0, "place": 1}.get(name, 2) for phase, name in enumerate(_PHASE_NAMES)}
    value = [v / top for v in game.value]
    left, right = game.left_symbol, game.right_symbol
    by_symbol = game.wild_by_symbol
    open_jade = game.open_jade
    blocks: dict[tuple[Any, ...], np.ndarray] = {}

    def write(state: State, seat: int | None, out: np.ndarray) -> None:
        assert isinstance(state, KuhNahState)
        me = seat if seat is not None else 0
        phase = state.phase
        idx = [phase_at[phase], 3 + n, 4 + n]
        vals = [1.0, len(state.deck) / cards, len(state.removed) / cards]
        cur = state.current_player()
        if cur >= 0:
            idx.append(3 + (cur - me) % n)
            vals.append(1.0)
        shown = open_jade or phase == OVER
        jade = state.jade
        at = 5 + n
        for k in range(n):
            p = (me + k) % n
            if shown or p == seat:
                idx.append(at)
                vals.append(jade[p] / jade_scale)
            else:  # hidden from this seat: only the "hidden" bit
                idx.append(at + 1)
                vals.append(1.0)
            at += 2
        halves = state.wild_halves
        quarry = state.quarry
        placing = phase == PLACE
        for slot, c in ((0, quarry[0]), (1, quarry[1]), (2, quarry[state.taken] if placing else -1)):
            if c < 0 or (placing and slot == state.taken):
                continue
            at = quarry_at + slot * features
            wl, wr = by_symbol[c]
            wl = wl or c * 2 + LEFT in halves
            wr = wr or c * 2 + RIGHT in halves
            idx += (at, at + 1, at + 2 + (wild if wl else left[c]), at + right_at + (wild if wr else right[c]))
            vals += (1.0, game.value[c] / top, 1.0, 1.0)
            if slot < 2:  # a Quarry card's jade (the taken card shows none)
                idx.append(at + features - 1)
                vals.append(state.quarry_jade[slot] / jade_scale)
        out[indices(idx)] = vals
        at = pyramids_at
        cells, base_left = state.cells, state.base_left
        wild_key = tuple(sorted(halves)) if halves else ()
        for k in range(n):
            p = (me + k) % n
            key = (tuple(cells[p].items()), base_left[p], wild_key)
            rows = blocks.get(key)
            if rows is None:
                if len(blocks) >= 2048:
                    blocks.clear()
                rows = blocks[key] = pyramid_block(key[0], base_left[p], halves)
            out[at : at + block] = rows
            at += block

    def pyramid_block(items: tuple[tuple[int, int], ...], left0: int, halves: set[int]) -> np.ndarray:
        """One pyramid's cells (kept per distinct pyramid: it changes only when its owner places a card)."""
        rows = np.zeros(block, np.float32)
        idx: list[int] = []
        vals: list[float] = []
        for key, c in items:
            row, col = _row_col(key)
            i = grid[(row + 1, col - left0 + 1)]
            wl, wr = by_symbol[c]
            idx += (i, i + 1, i + 2, i + 3)
            vals += (
                1.0,
                value[c],
                scaled[wild if wl or c * 2 + LEFT in halves else left[c]],
                scaled[wild if wr or c * 2 + RIGHT in halves else right[c]],
            )
        rows[indices(idx)] = vals
        return rows

    return write
