"""K'uh Nah compiled (numba) for batches of random games: the ``fast`` extra.

The same rules as :mod:`ziggurat.games.kuhnah.rules`, which stays the
reference: setup (cards removed unseen by player count, two flipped into the
Quarry, the start player chosen or drawn), a turn of jade or take, the
placement with the support rule (heavier, or matching touching halves; the
jaguar wild; with ``jade-wild`` the once-per-game wild half instead), refill,
the end when the deck is empty, and scoring (uncovered cards less jade held,
lowest wins, ties shared). ``open-jade`` changes only what players see, so
random play is the same with it. Every player chooses uniformly among the
legal actions; chance draws uniformly from the deck.

Action ids are the engine's, so a trace replays through
``KuhNahState.apply_action`` step by step (``tests/fast``).

Pyramids are grids: ``grid[player, row, column]`` holds a card or -1, the
first base card in column ``max_cards + 1`` so the base can grow either way.
Each player keeps the list of *open slots* (both supports there, the slot
empty): a placement closes one and opens at most two, so legal placements
cost one support check per open slot.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ziggurat.core.jit import below, competition_ranks, jit, record_step, seed_rng
from ziggurat.core.kernel import GameKernel

if TYPE_CHECKING:
    from ziggurat.core.game import Game

JADE_ON = 0
TAKE = 2
BASE_LEFT = 4
BASE_RIGHT = 5
CHANCE = -1

Config = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # cfg, value, lsym, rsym, offsets

# cfg fields
(_P, _CARDS, _REMOVE, _WILD, _JADE_WILD, _START, _MAX_CARDS, _MAX_ROW, _WILD_BASE, _MAX_LEN, _START_JADE,
 _JADE_POINTS) = range(12)  # fmt: skip

# what a legal placement does (legal_k): an open slot index, or one of these
_K_BASE_LEFT = -1
_K_BASE_RIGHT = -2
_K_WILD = -3


def unsupported(game: Game) -> str | None:
    """Every K'uh Nah option and parameter is played by the kernel."""
    return None


def prepare(game: Game) -> Config:
    """The kernel's configuration of a :class:`~ziggurat.games.kuhnah.rules.KuhNahGame`."""
    g: Any = game
    start = g.options["start-player"]
    cfg = np.zeros(12, np.int64)
    cfg[_P] = g.num_players
    cfg[_CARDS] = g.num_cards
    cfg[_REMOVE] = g.removed_count
    cfg[_WILD] = g.wild_symbol
    cfg[_JADE_WILD] = int(g.jade_wild)
    cfg[_START] = -1 if start == "random" else int(str(start)) - 1
    cfg[_MAX_CARDS] = g.max_cards
    cfg[_MAX_ROW] = g.max_row
    cfg[_WILD_BASE] = g.wild_base
    cfg[_MAX_LEN] = g.max_game_length
    cfg[_START_JADE] = g.start_jade
    cfg[_JADE_POINTS] = g.jade_points
    value = np.asarray(g.value, np.int32)
    lsym = np.asarray(g.left_symbol, np.int32)
    rsym = np.asarray(g.right_symbol, np.int32)
    offsets = np.asarray(g.row_offset[: g.max_row + 1], np.int32)
    return cfg, value, lsym, rsym, offsets


@jit
def _workspace(cfg: np.ndarray) -> tuple[np.ndarray, ...]:
    p = cfg[_P]
    n = cfg[_CARDS]
    m = cfg[_MAX_CARDS]
    grid = np.full((p, cfg[_MAX_ROW] + 2, 2 * m + 3), -1, np.int16)
    ints = np.zeros((8, p), np.int32)  # jade, wild_used, base_left, base_right, own_n, open_n, quarry, quarry_jade
    own = np.zeros((p, 2, m + 2), np.int32)  # row, column of each card placed
    opens = np.zeros((p, 2, m + 2), np.int32)  # row, column of each open slot
    deck = np.zeros(n, np.int32)
    wild_half = np.zeros(2 * n, np.bool_)
    cap = 2 * n + 2 * m + 8
    legal_a = np.zeros(cap, np.int32)
    legal_k = np.zeros(cap, np.int32)
    keys = np.zeros(p, np.float64)
    return grid, ints, own, opens, deck, wild_half, legal_a, legal_k, keys


@jit
def _game(
    cfg: np.ndarray,
    value: np.ndarray,
    lsym: np.ndarray,
    rsym: np.ndarray,
    offsets: np.ndarray,
    seed: np.uint64,
    ws: tuple[np.ndarray, ...],
    scores: np.ndarray,
    ranks: np.ndarray,
    tracing: bool,
    tr_actor: np.ndarray,
    tr_action: np.ndarray,
    tr_off: np.ndarray,
    tr_legal: np.ndarray,
) -> tuple[int, int, np.ndarray]:
    """Play one game from ``seed``; fill ``scores`` and ``ranks``; return (decisions, steps, trace legal buffer)."""
    grid, ints, own, opens, deck, wild_half, legal_a, legal_k, keys = ws
    nplayers = cfg[_P]
    ncards = cfg[_CARDS]
    wild = cfg[_WILD]
    jade_wild = cfg[_JADE_WILD] != 0
    max_row = cfg[_MAX_ROW]
    wild_base = cfg[_WILD_BASE]
    origin = cfg[_MAX_CARDS] + 1
    jade = ints[0]
    wild_used = ints[1]
    base_left = ints[2]
    base_right = ints[3]
    own_n = ints[4]
    open_n = ints[5]
    quarry = ints[6]
    quarry_jade = ints[7]
    rng = np.zeros(1, np.uint64)
    seed_rng(rng, seed)
    for q in range(nplayers):
        jade[q] = cfg[_START_JADE]
        wild_used[q] = 0
        own_n[q] = 0
        open_n[q] = 0
    for i in range(2 * ncards):
        wild_half[i] = False
    for i in range(ncards):
        deck[i] = i
    deck_n = ncards
    steps = 0
    decisions = 0

    # setup: remove unseen, then reveal two into the Quarry
    for i in range(cfg[_REMOVE] + 2):
        j = below(rng, deck_n)
        card = deck[j]
        if tracing:
            tr_legal = record_step(tr_actor, tr_action, tr_off, tr_legal, steps, CHANCE, card, deck, deck_n)
        steps += 1
        deck_n -= 1
        deck[j] = deck[deck_n]
        if i >= cfg[_REMOVE]:
            quarry[i - cfg[_REMOVE]] = card
    quarry_jade[0] = 0
    quarry_jade[1] = 0
    player = cfg[_START]
    if player < 0:
        player = below(rng, nplayers)
        if tracing:
            for q in range(nplayers):
                legal_a[q] = q
            tr_legal = record_step(tr_actor, tr_action, tr_off, tr_legal, steps, CHANCE, player, legal_a, nplayers)
        steps += 1

    while True:
        # the turn: jade on a Quarry card, or take one (with no jade, take)
        if jade[player] > 0:
            action = below(rng, 4)
            nlegal = 4
        else:
            action = TAKE + below(rng, 2)
            nlegal = 2
        if tracing:
            for i in range(nlegal):
                legal_a[i] = 4 - nlegal + i
            tr_legal = record_step(tr_actor, tr_action, tr_off, tr_legal, steps, player, action, legal_a, nlegal)
        steps += 1
        decisions += 1
        if action < TAKE:
            jade[player] -= 1
            quarry_jade[action] += 1
            player = (player + 1) % nplayers
            continue
        slot = action - TAKE
        card = quarry[slot]
        jade[player] += quarry_jade[slot]
        quarry_jade[slot] = 0

        # the placement (a wild half first, with jade-wild, is its own decision)
        while True:
            n = 0
            cnt = own_n[player]
            if cnt == 0:
                legal_a[0] = BASE_LEFT
                legal_k[0] = _K_BASE_LEFT
                n = 1
            else:
                legal_a[0] = BASE_LEFT
                legal_k[0] = _K_BASE_LEFT
                legal_a[1] = BASE_RIGHT
                legal_k[1] = _K_BASE_RIGHT
                n = 2
                v = value[card]
                my_l = lsym[card]
                my_r = rsym[card]
                my_l_wild = my_l == wild or wild_half[2 * card]
                my_r_wild = my_r == wild or wild_half[2 * card + 1]
                left0 = base_left[player]
                for k in range(open_n[player]):
                    r = opens[player, 0, k]
                    c = opens[player, 1, k]
                    a = grid[player, r - 1, c]
                    b = grid[player, r - 1, c + 1]
                    if not (value[a] > v or my_l_wild or rsym[a] == my_l or rsym[a] == wild or wild_half[2 * a + 1]):
                        continue
                    if not (value[b] > v or my_r_wild or lsym[b] == my_r or lsym[b] == wild or wild_half[2 * b]):
                        continue
                    legal_a[n] = offsets[r] + c - left0
                    legal_k[n] = k
                    n += 1
            if jade_wild and wild_used[player] == 0 and jade[player] > 0:
                for i in range(cnt + 1):
                    c = card if i == cnt else grid[player, own[player, 0, i], own[player, 1, i]]
                    for h in range(2):
                        if not wild_half[2 * c + h]:
                            legal_a[n] = wild_base + 2 * c + h
                            legal_k[n] = _K_WILD
                            n += 1
            choice = below(rng, n)
            action = legal_a[choice]
            kind = legal_k[choice]
            if tracing:
                tr_legal = record_step(tr_actor, tr_action, tr_off, tr_legal, steps, player, action, legal_a, n)
            steps += 1
            decisions += 1
            if kind == _K_WILD:
                jade[player] -= 1
                wild_used[player] = 1
                wild_half[action - wild_base] = True
                continue
            if kind == _K_BASE_LEFT:
                r = 0
                if cnt == 0:
                    base_left[player] = origin
                    base_right[player] = origin
                else:
                    base_left[player] -= 1
                c = base_left[player]
            elif kind == _K_BASE_RIGHT:
                r = 0
                base_right[player] += 1
                c = base_right[player]
            else:
                r = opens[player, 0, kind]
                c = opens[player, 1, kind]
                last = open_n[player] - 1
                opens[player, 0, kind] = opens[player, 0, last]
                opens[player, 1, kind] = opens[player, 1, last]
                open_n[player] = last
            grid[player, r, c] = card
            own[player, 0, cnt] = r
            own[player, 1, cnt] = c
            own_n[player] = cnt + 1
            if r + 1 <= max_row:
                if grid[player, r, c - 1] >= 0:
                    opens[player, 0, open_n[player]] = r + 1
                    opens[player, 1, open_n[player]] = c - 1
                    open_n[player] += 1
                if grid[player, r, c + 1] >= 0:
                    opens[player, 0, open_n[player]] = r + 1
                    opens[player, 1, open_n[player]] = c
                    open_n[player] += 1
            break

        player = (player + 1) % nplayers
        if deck_n == 0:
            break  # the Quarry can't be brought back to two cards: the game ends at once
        j = below(rng, deck_n)
        card = deck[j]
        if tracing:
            tr_legal = record_step(tr_actor, tr_action, tr_off, tr_legal, steps, CHANCE, card, deck, deck_n)
        steps += 1
        deck_n -= 1
        deck[j] = deck[deck_n]
        quarry[slot] = card

    # scoring: uncovered cards count their value, jade held is subtracted; lowest wins
    for q in range(nplayers):
        total = 0
        for i in range(own_n[q]):
            r = own[q, 0, i]
            c = own[q, 1, i]
            if grid[q, r + 1, c] < 0 and grid[q, r + 1, c - 1] < 0:
                total += value[grid[q, r, c]]
        scores[q] = total - cfg[_JADE_POINTS] * jade[q]
        keys[q] = -scores[q]
    competition_ranks(keys, ranks)
    for q in range(nplayers):  # leave the grid empty for the next game
        for i in range(own_n[q]):
            grid[q, own[q, 0, i], own[q, 1, i]] = -1
    return decisions, steps, tr_legal


@jit
def _play(
    cfg: np.ndarray,
    value: np.ndarray,
    lsym: np.ndarray,
    rsym: np.ndarray,
    offsets: np.ndarray,
    seeds: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    count = seeds.shape[0]
    nplayers = cfg[_P]
    scores = np.zeros((count, nplayers), np.float64)
    ranks = np.zeros((count, nplayers), np.int32)
    decisions = np.zeros(count, np.int32)
    steps = np.zeros(count, np.int32)
    ws = _workspace(cfg)
    dummy = np.zeros(1, np.int32)
    for g in range(count):
        d, s, _ = _game(
            cfg, value, lsym, rsym, offsets, seeds[g], ws, scores[g], ranks[g], False, dummy, dummy, dummy, dummy
        )
        decisions[g] = d
        steps[g] = s
    return scores, ranks, decisions, steps


@jit
def _trace(
    cfg: np.ndarray,
    value: np.ndarray,
    lsym: np.ndarray,
    rsym: np.ndarray,
    offsets: np.ndarray,
    seed: np.uint64,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    max_len = cfg[_MAX_LEN]
    tr_actor = np.zeros(max_len, np.int32)
    tr_action = np.zeros(max_len, np.int32)
    tr_off = np.zeros(max_len + 1, np.int32)
    tr_legal = np.zeros(1024, np.int32)
    scores = np.zeros(cfg[_P], np.float64)
    ranks = np.zeros(cfg[_P], np.int32)
    ws = _workspace(cfg)
    _, steps, tr_legal = _game(
        cfg, value, lsym, rsym, offsets, seed, ws, scores, ranks, True, tr_actor, tr_action, tr_off, tr_legal
    )
    return tr_actor[:steps], tr_action[:steps], tr_off[: steps + 1], tr_legal[: tr_off[steps]], scores, ranks


def play(config: Config, seeds: np.ndarray) -> tuple[np.ndarray, ...]:
    """Play one random game per seed: (scores, ranks, decisions, steps, ends); the game has one end, index 0."""
    seeds = np.ascontiguousarray(seeds, np.uint64)
    return (*_play(*config, seeds), np.zeros(seeds.shape[0], np.int8))


def trace(config: Config, seed: int) -> tuple[object, ...]:
    """The game of ``seed`` step by step (see :class:`~ziggurat.core.kernel.Trace`); its one end, index 0."""
    return (*_trace(*config, np.uint64(seed)), 0)


KERNEL = GameKernel("kuhnah", unsupported, prepare, play, trace)
