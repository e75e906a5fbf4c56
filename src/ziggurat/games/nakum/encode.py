"""A fixed-length numeric encoding of a Nakum view (for learning and OpenSpiel observation tensors).

Built from the view only, so it carries exactly what the viewing player may see. Every number
lies in [0, 1].
Layout (``P`` = 4 player slots, always, unused ones zero; ``T`` = 8 tiles):

* phase one-hot (11), round / max rounds, viewer one-hot (P), to-move one-hot (P),
  start player one-hot (P), end triggered;
* per position: face down, explorer one-hot (P), tile one-hot (T);
* per tile: basic space workers (2 x P), camp workers (P), camp active, covered options (3);
* pyramid workers (P), Pituk workers (P) and favours used (2), start space (P), grow space (P);
* market, offerings: one flag per card of each deck; deck sizes;
* per player: maize, skins, masks (over their limits), points (/60, capped), workers, in hand,
  reserve, sacrificed (/4), heritage cards in hand (/6, capped), offerings made (flags), market cards bought (flags),
  heritage cards played (flags);
* the viewer's own heritage hand (flags).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from ziggurat.core.game import SIMULTANEOUS, Game, State
from ziggurat.core.tensor import indices
from ziggurat.games.nakum.content import MAX_BASICS, MAX_OPTIONS, NUM_TILES
from ziggurat.games.nakum.rules import FAVOURS, PHASE_NAMES, NakumGame, NakumState

P = 4


def tensor_size(game: Game) -> int:
    """Length of :func:`tensor` for ``game``."""
    assert isinstance(game, NakumGame)
    c = game.content
    nm, no, nh = len(c.market), len(c.offerings), len(c.heritage)
    head = len(PHASE_NAMES) + 1 + 3 * P + 1
    positions = NUM_TILES * (1 + P + NUM_TILES)
    tiles = NUM_TILES * (MAX_BASICS * P + P + 1 + MAX_OPTIONS)
    center = P + P + 2 + P + P
    cards = nm + no + 2
    per_player = P * (9 + no + nm + nh)
    return head + positions + tiles + center + cards + per_player + nh


def _one_hot(index: int | None, size: int) -> list[float]:
    out = [0.0] * size
    if index is not None and 0 <= index < size:
        out[index] = 1.0
    return out


def _mask(players: list[int]) -> list[float]:
    out = [0.0] * P
    for p in players:
        out[p] = 1.0
    return out


def tensor(game: Game, view: Mapping[str, Any]) -> list[float]:
    """Encode ``view`` (see the module docstring for the layout)."""
    assert isinstance(game, NakumGame)
    c = game.content
    market_index = {m.id: i for i, m in enumerate(c.market)}
    offer_index = {o.id: i for i, o in enumerate(c.offerings)}
    heritage_index = {h.id: i for i, h in enumerate(c.heritage)}
    tile_index = game.tile_index
    out: list[float] = []
    out += _one_hot(PHASE_NAMES.index(view["phase"]), len(PHASE_NAMES))
    out.append(view["round"] / max(1, view["max_rounds"]))
    out += _one_hot(view["player"], P)
    to_move = view["to_move"]
    out += _mask(to_move) if isinstance(to_move, list) else _one_hot(to_move, P)
    out += _one_hot(view["start_player"], P)
    out.append(1.0 if view["end_triggered"] else 0.0)
    by_tile: dict[int, Mapping[str, Any]] = {}
    for tile in view["tiles"]:
        out.append(1.0 if tile["tile"] is None else 0.0)
        out += _one_hot(tile.get("explorer"), P) if tile["tile"] is None else [0.0] * P
        t = tile_index[tile["tile"]] if tile["tile"] is not None else None
        out += _one_hot(t, NUM_TILES)
        if t is not None:
            by_tile[t] = tile
    for t in range(NUM_TILES):
        tile = by_tile.get(t)
        if tile is None:
            out += [0.0] * (MAX_BASICS * P + P + 1 + MAX_OPTIONS)
            continue
        for j in range(MAX_BASICS):
            out += _mask(tile["basics"][j]["workers"]) if j < len(tile["basics"]) else [0.0] * P
        camp = tile["camp"]
        out += _mask(camp["workers"])
        out.append(1.0 if camp["active"] else 0.0)
        covered = [1.0 if o["covered"] else 0.0 for o in camp["options"]]
        out += covered + [0.0] * (MAX_OPTIONS - len(covered))
    pyramid = list(view["pyramid"]) + [0] * (P - len(view["pyramid"]))
    out += [w / 4 for w in pyramid]
    out += _mask(view["pituk"]["workers"])
    out += [1.0 if u else 0.0 for u in view["pituk"]["used"]]
    out += _mask(view["start_space"])
    out += _mask(view["grow_space"])
    market = [0.0] * len(c.market)
    for m in view["market"]:
        market[market_index[m["id"]]] = 1.0
    offers = [0.0] * len(c.offerings)
    for o in view["offerings"]:
        offers[offer_index[o["id"]]] = 1.0
    out += market + offers
    out += [view["market_deck"] / max(1, len(c.market)), view["offering_deck"] / max(1, len(c.offerings))]
    limits = view["limits"]
    infos = list(view["players_info"])
    for p in range(P):
        if p >= len(infos):
            out += [0.0] * (9 + len(c.offerings) + len(c.market) + len(c.heritage))
            continue
        info = infos[p]
        out += [
            info["maize"] / limits["maize"],
            info["skins"] / limits["skins"],
            info["masks"] / limits["masks"],
            min(1.0, info["points"] / 60),
            info["workers"] / 4,
            info["in_hand"] / 4,
            info["reserve"] / 4,
            info["sacrificed"] / 4,
            min(1.0, info["heritage_in_hand"] / 6),
        ]
        flags = [0.0] * len(c.offerings)
        for x in info["offerings"]:
            flags[offer_index[x]] = 1.0
        out += flags
        flags = [0.0] * len(c.market)
        for x in info["market_cards"]:
            flags[market_index[x]] = 1.0
        out += flags
        flags = [0.0] * len(c.heritage)
        for x in info["heritage_played"]:
            flags[heritage_index[x]] = 1.0
        out += flags
    hand = [0.0] * len(c.heritage)
    viewer = view["player"]
    if viewer is not None:
        for h in infos[viewer].get("heritage_hand", []):
            hand[heritage_index[h["id"]]] = 1.0
    out += hand
    return out


def _offsets(nm: int, no: int, nh: int) -> tuple[int, ...]:
    """Where each part of :func:`tensor` begins (and two widths), for ``nm`` market, ``no`` offering and ``nh``
    heritage cards: what both writers index by."""
    round_at = len(PHASE_NAMES)
    viewer_at = round_at + 1
    to_move_at = viewer_at + P
    start_at = to_move_at + P
    end_at = start_at + P
    positions_at = end_at + 1
    position = 1 + P + NUM_TILES
    tiles_at = positions_at + NUM_TILES * position
    tile_width = MAX_BASICS * P + P + 1 + MAX_OPTIONS
    pyramid_at = tiles_at + NUM_TILES * tile_width
    pituk_at = pyramid_at + P
    used_at = pituk_at + P
    start_space_at = used_at + 2
    grow_at = start_space_at + P
    market_at = grow_at + P
    offers_at = market_at + nm
    decks_at = offers_at + no
    players_at = decks_at + 2
    per_player = 9 + no + nm + nh
    hand_at = players_at + P * per_player
    return (round_at, viewer_at, to_move_at, start_at, end_at, positions_at, position, tiles_at, tile_width,
            pyramid_at, pituk_at, used_at, start_space_at, grow_at, market_at, offers_at, decks_at, players_at,
            per_player, hand_at)  # fmt: skip


def tensor_writer(game: Game) -> Callable[[Mapping[str, Any], np.ndarray], None]:
    """:func:`tensor` for ``game`` as a writer into a zeroed float32 buffer (see ``GameEntry.tensor_writer``).

    Offsets and the card indices are worked out once; each call gathers the
    non-zero (index, value) pairs, valued exactly as :func:`tensor` values
    them, and stores them with one NumPy assignment.
    """
    assert isinstance(game, NakumGame)
    c = game.content
    nm, no, nh = len(c.market), len(c.offerings), len(c.heritage)
    market_index = {m.id: i for i, m in enumerate(c.market)}
    offer_index = {o.id: i for i, o in enumerate(c.offerings)}
    heritage_index = {h.id: i for i, h in enumerate(c.heritage)}
    tile_index = game.tile_index
    phase_index = {name: i for i, name in reversed(list(enumerate(PHASE_NAMES)))}  # the first, as .index finds
    (round_at, viewer_at, to_move_at, start_at, end_at, positions_at, position, tiles_at, tile_width, pyramid_at,
     pituk_at, used_at, start_space_at, grow_at, market_at, offers_at, decks_at, players_at, per_player,
     hand_at) = _offsets(nm, no, nh)  # fmt: skip
    market_scale = max(1, nm)
    offer_scale = max(1, no)

    def write(view: Mapping[str, Any], out: np.ndarray) -> None:
        idx = [phase_index[view["phase"]], round_at]
        vals = [1.0, view["round"] / max(1, view["max_rounds"])]
        ones: list[int] = []  # indices whose value is 1.0

        def one_hot(at: int, index: int | None) -> None:
            if index is not None and 0 <= index < P:
                ones.append(at + index)

        def mask(at: int, players: list[int]) -> None:
            for p in players:
                if not 0 <= p < P:
                    raise IndexError(f"nakum: player {p} outside the {P} encoded seats")
                ones.append(at + p)

        one_hot(viewer_at, view["player"])
        to_move = view["to_move"]
        if isinstance(to_move, list):
            mask(to_move_at, to_move)
        else:
            one_hot(to_move_at, to_move)
        one_hot(start_at, view["start_player"])
        if view["end_triggered"]:
            ones.append(end_at)
        by_tile: dict[int, Mapping[str, Any]] = {}
        at = positions_at
        for tile in view["tiles"]:
            if tile["tile"] is None:
                ones.append(at)
                one_hot(at + 1, tile.get("explorer"))
            else:
                t = tile_index[tile["tile"]]
                if 0 <= t < NUM_TILES:
                    ones.append(at + 1 + P + t)
                    by_tile[t] = tile
            at += position
        for t, tile in by_tile.items():
            at = tiles_at + t * tile_width
            basics = tile["basics"]
            for j in range(min(MAX_BASICS, len(basics))):
                mask(at + j * P, basics[j]["workers"])
            at += MAX_BASICS * P
            camp = tile["camp"]
            mask(at, camp["workers"])
            if camp["active"]:
                ones.append(at + P)
            for i, o in enumerate(camp["options"]):
                if o["covered"]:
                    ones.append(at + P + 1 + i)
        for p, w in enumerate(view["pyramid"]):
            idx.append(pyramid_at + p)
            vals.append(w / 4)
        pituk = view["pituk"]
        mask(pituk_at, pituk["workers"])
        for i, u in enumerate(pituk["used"]):
            if u:
                ones.append(used_at + i)
        mask(start_space_at, view["start_space"])
        mask(grow_at, view["grow_space"])
        for m in view["market"]:
            ones.append(market_at + market_index[m["id"]])
        for o in view["offerings"]:
            ones.append(offers_at + offer_index[o["id"]])
        idx += (decks_at, decks_at + 1)
        vals += (view["market_deck"] / market_scale, view["offering_deck"] / offer_scale)
        limits = view["limits"]
        maize, skins, masks = limits["maize"], limits["skins"], limits["masks"]
        infos = view["players_info"]
        at = players_at
        for info in infos[:P]:
            idx += range(at, at + 9)
            vals += (
                info["maize"] / maize,
                info["skins"] / skins,
                info["masks"] / masks,
                min(1.0, info["points"] / 60),
                info["workers"] / 4,
                info["in_hand"] / 4,
                info["reserve"] / 4,
                info["sacrificed"] / 4,
                min(1.0, info["heritage_in_hand"] / 6),
            )
            flags = at + 9
            for x in info["offerings"]:
                ones.append(flags + offer_index[x])
            flags += no
            for x in info["market_cards"]:
                ones.append(flags + market_index[x])
            flags += nm
            for x in info["heritage_played"]:
                ones.append(flags + heritage_index[x])
            at += per_player
        viewer = view["player"]
        if viewer is not None:
            for h in infos[viewer].get("heritage_hand", []):
                ones.append(hand_at + heritage_index[h["id"]])
        out[indices(ones)] = 1.0
        out[indices(idx)] = vals

    return write


def state_tensor_writer(game: Game) -> Callable[[State, int | None, np.ndarray], None]:
    """:func:`tensor` of ``state.view(seat)``, written from the state without building the view.

    It reads what the view shows and nothing else: the board, the market and
    the offerings on display, the decks' sizes (never their order), every
    player's public counts, cards and offerings, how many heritage cards each
    holds (the chosen one included, never which), and the heritage hand of
    ``seat`` alone. The values are those of :func:`tensor_writer`.
    """
    assert isinstance(game, NakumGame)
    c = game.content
    nm, no, nh = len(c.market), len(c.offerings), len(c.heritage)
    market_index = {m.id: i for i, m in enumerate(c.market)}
    offer_index = {o.id: i for i, o in enumerate(c.offerings)}
    heritage_index = {h.id: i for i, h in enumerate(c.heritage)}
    market_col = [market_index[m.id] for m in c.market]  # a card's flag, as the view's ids find it
    offer_col = [offer_index[o.id] for o in c.offerings]
    heritage_col = [heritage_index[h.id] for h in c.heritage]
    tile_col = [game.tile_index[t.key] for t in c.tiles]
    phase_index = {name: i for i, name in reversed(list(enumerate(PHASE_NAMES)))}
    phase_col = [phase_index[name] for name in PHASE_NAMES]
    n = game.num_players
    seats = range(min(n, P))
    (round_at, viewer_at, to_move_at, start_at, end_at, positions_at, position, tiles_at, tile_width, pyramid_at,
     pituk_at, used_at, start_space_at, grow_at, market_at, offers_at, decks_at, players_at, per_player,
     hand_at) = _offsets(nm, no, nh)  # fmt: skip
    market_scale = max(1, nm)
    offer_scale = max(1, no)
    maize, skins, masks = game.limits
    favours = len(FAVOURS)
    tile_basics, camp_space = game.tile_basics, game.camp_space
    camp_options = [len(t.camp) for t in c.tiles]
    bits = [[q for q in range(n) if mask >> q & 1] for mask in range(1 << n)]  # who sits on a space
    basic_at = [[(j * P, s) for j, s in enumerate(spaces[:MAX_BASICS])] for spaces in tile_basics]
    more_basics = [spaces[MAX_BASICS:] for spaces in tile_basics]  # beyond the encoded ones: only "active"

    def write(state: State, seat: int | None, out: np.ndarray) -> None:
        assert isinstance(state, NakumState)
        ones: list[int] = []
        occ = state._occ
        ones.append(phase_col[state.phase])
        if seat is not None and 0 <= seat < P:
            ones.append(viewer_at + seat)
        cur = state.current_player()
        if cur == SIMULTANEOUS:
            ones += [to_move_at + q for q in state.players_to_move()]
        elif 0 <= cur < P:
            ones.append(to_move_at + cur)
        if 0 <= state.start < P:
            ones.append(start_at + state.start)
        if state.end_triggered:
            ones.append(end_at)
        at = positions_at
        layout, explorer = state._layout, state._explorer
        shown: list[tuple[int, int]] = []  # (the tile's column, its content index)
        for pos in range(NUM_TILES):
            t = layout[pos]
            if t < 0:
                ones.append(at)
                if 0 <= explorer[pos] < P:
                    ones.append(at + 1 + explorer[pos])
            else:
                col = tile_col[t]
                if 0 <= col < NUM_TILES:
                    ones.append(at + 1 + P + col)
                    shown.append((col, t))
            at += position
        cubes = state._cubes
        for col, t in dict(shown).items():  # the last position of a tile, as the view's by_tile keeps it
            at = tiles_at + col * tile_width
            active = False  # a worker on any basic space of the tile
            for off, s in basic_at[t]:
                o = occ[s]
                if o:
                    active = True
                    for q in bits[o]:
                        ones.append(at + off + q)
            for s in more_basics[t]:
                active = active or occ[s] != 0
            at += MAX_BASICS * P
            for q in bits[occ[camp_space[t]]]:
                ones.append(at + q)
            if active:
                ones.append(at + P)
            covered = cubes[t]
            if covered:
                for k in range(camp_options[t]):
                    if covered >> k & 1:
                        ones.append(at + P + 1 + k)
        ones += [pituk_at + q for q in bits[occ[game.pituk_space]]]
        ones += [used_at + f for f in range(favours) if state.favours >> f & 1]
        ones += [start_space_at + q for q in bits[occ[game.start_space]]]
        ones += [grow_at + q for q in bits[occ[game.grow_space]]]
        ones += [market_at + market_col[x] for x in state._market]
        ones += [offers_at + offer_col[x] for x in state._offers]
        idx = [round_at, decks_at, decks_at + 1]
        vals = [
            state.round / max(1, game.max_rounds),
            len(state.market_deck) / market_scale,
            len(state.offer_deck) / offer_scale,
        ]
        idx += range(pyramid_at, pyramid_at + len(state.pyramid))
        vals += [w / 4 for w in state.pyramid]
        res, hands, choice = state.res, state.hands, state.choice
        at = players_at
        for p in seats:
            b = 3 * p
            idx += range(at, at + 9)
            vals += (
                res[b] / maize,
                res[b + 1] / skins,
                res[b + 2] / masks,
                min(1.0, state.tokens[p] / 60),
                state.workers[p] / 4,
                state.hand[p] / 4,
                state.reserve[p] / 4,
                state.sacrificed[p] / 4,
                min(1.0, (len(hands[p]) + (1 if choice[p] >= 0 else 0)) / 6),  # how many, never which
            )
            flags = at + 9
            for x in state.made[p]:
                ones.append(flags + offer_col[x])
            flags += no
            for x in state.bought[p]:
                ones.append(flags + market_col[x])
            flags += nm
            for x in state.played[p]:
                ones.append(flags + heritage_col[x])
            at += per_player
        if seat is not None:  # the seat's own heritage hand, no one else's
            ones += [hand_at + heritage_col[x] for x in hands[seat]]
        out[indices(ones)] = 1.0
        out[indices(idx)] = vals

    return write
