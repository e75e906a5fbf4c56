"""K'uh Nah compiled (numba): random batches and stepped environments (the ``fast`` extra).

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
``KuhNahState.apply_action`` step by step (``tests/fast``). The game is
written as the step functions of :mod:`ziggurat.core.loops` (reset, step,
encode), which runs random play, traces and :class:`ziggurat.fast.VectorGame`;
:func:`_encode` writes exactly :func:`ziggurat.games.kuhnah.encode.tensor` of a
seat's view.

Pyramids are grids: ``grid[player, row, column]`` holds a card or -1, the
first base card in column ``max_cards + 1`` so the base can grow either way.
Each player keeps the list of *open slots* (both supports there, the slot
empty): a placement closes one and opens at most two, so legal placements
cost one support check per open slot.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ziggurat.core import loops
from ziggurat.core.jit import competition_ranks, jit, jit_inline, jit_leaf
from ziggurat.core.kernel import GameKernel, StepKernel
from ziggurat.core.loops import ACTOR, LEGAL, NLEGAL, ORNG, RANKS, SCORES, TERMINAL, below_at, draw, finish
from ziggurat.games.kuhnah.encode import tensor_size
from ziggurat.games.kuhnah.heuristic import BASE_DISCOUNT, TAKE_THRESHOLD

if TYPE_CHECKING:
    from ziggurat.core.game import Game

JADE_ON = 0
TAKE = 2
UPPER = 6
BASE_LEFT = 4
BASE_RIGHT = 5
CHANCE = -1

Config = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # cfg, value, lsym, rsym, offsets

# cfg fields
_P, _CARDS, _REMOVE, _WILD, _JADE_WILD, _START, _MAX_CARDS, _MAX_ROW, _WILD_BASE, _MAX_LEN = range(10)
_SYMBOLS, _OPEN_JADE, _TOP, _CELLS, _OBS, _ACTIONS, _START_JADE, _JADE_POINTS = range(10, 18)
_NCFG = 18

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
    cfg = np.zeros(_NCFG, np.int64)
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
    cfg[_SYMBOLS] = len(g.symbol_names)
    cfg[_OPEN_JADE] = int(g.open_jade)
    cfg[_TOP] = max(max(g.value), 1)
    cfg[_CELLS] = g.max_cards + sum(g.max_cards - r for r in range(1, g.max_row + 1))
    cfg[_OBS] = tensor_size(game)
    cfg[_ACTIONS] = g.num_actions
    cfg[_START_JADE] = g.start_jade
    cfg[_JADE_POINTS] = g.jade_points
    value = np.asarray(g.value, np.int32)
    lsym = np.asarray(g.left_symbol, np.int32)
    rsym = np.asarray(g.right_symbol, np.int32)
    offsets = np.asarray(g.row_offset[: g.max_row + 1], np.int32)
    return cfg, value, lsym, rsym, offsets


# the scalars of a game (gs[_SC])
_DECK_N, _PHASE, _SLOT = range(3)
_TURN, _PLACE = 0, 1
# the arrays of the batch (gs)
_GRID, _INTS, _OWN, _OPENS, _DECK, _WILD_HALF, _LEGAL_K, _SC, _SEATS, _KEYS, _DIRTY, _PICK, _COSTS = range(13)


@jit
def _dims(conf: Config) -> tuple[int, int, int, int, int, int]:
    """(players, legal capacity, observation size, action ids, chance events per step, outcomes per step)."""
    cfg = conf[0]
    n = cfg[_CARDS]
    return cfg[_P], 2 * n + 2 * cfg[_MAX_CARDS] + 8, cfg[_OBS], cfg[_ACTIONS], cfg[_REMOVE] + 3, (cfg[_REMOVE] + 3) * n


@jit
def _new(conf: Config, count: int) -> tuple[Any, ...]:
    cfg = conf[0]
    p = cfg[_P]
    n = cfg[_CARDS]
    m = cfg[_MAX_CARDS]
    grid = np.full((count, p, cfg[_MAX_ROW] + 2, 2 * m + 3), -1, np.int16)
    ints = np.zeros(
        (count, 8, p), np.int32
    )  # jade, wild_used, base_left, base_right, own_n, open_n, quarry, quarry_jade
    own = np.zeros((count, p, 2, m + 2), np.int32)  # row, column of each card placed
    opens = np.zeros((count, p, 2, m + 2), np.int32)  # row, column of each open slot
    deck = np.zeros((count, n), np.int32)
    wild_half = np.zeros((count, 2 * n), np.bool_)
    legal_k = np.zeros((count, 2 * n + 2 * m + 8), np.int32)
    sc = np.zeros((count, 3), np.int32)
    seats = np.arange(p).astype(np.int32)
    keys = np.zeros((count, p), np.float64)
    dirty = np.zeros((count, n + 1), np.int32)  # the pyramid cells written in a game's observation row, and how many
    pick = np.zeros(2 * n + 2 * m + 8, np.int32)  # the greedy's scratch (one for the batch): tied choices
    costs = np.zeros(2, np.float64)  # and the Quarry cards' costs
    return grid, ints, own, opens, deck, wild_half, legal_k, sc, seats, keys, dirty, pick, costs


@jit_inline
def _turn_legal(core: Any, i: int, player: int, jade: int) -> None:
    """The turn: jade on a Quarry card, or take one (with no jade, take)."""
    core[ACTOR][i] = player
    legal = core[LEGAL]
    if jade > 0:
        for t in range(4):
            legal[i, t] = t
        core[NLEGAL][i] = 4
    else:
        legal[i, 0] = TAKE
        legal[i, 1] = TAKE + 1
        core[NLEGAL][i] = 2


@jit_inline
def _fits(conf: Config, grid: np.ndarray, wild_half: np.ndarray, player: int, card: int, r: int, c: int) -> bool:
    """Does ``card`` go on the open slot at row ``r``, column ``c`` of ``player``'s pyramid (the support rule)?"""
    cfg, value, lsym, rsym = conf[0], conf[1], conf[2], conf[3]
    wild = cfg[_WILD]
    v = value[card]
    my_l = lsym[card]
    my_r = rsym[card]
    a = grid[player, r - 1, c]
    b = grid[player, r - 1, c + 1]
    my_l_wild = my_l == wild or wild_half[2 * card]
    my_r_wild = my_r == wild or wild_half[2 * card + 1]
    if not (value[a] > v or my_l_wild or rsym[a] == my_l or rsym[a] == wild or wild_half[2 * a + 1]):
        return False
    return value[b] > v or my_r_wild or lsym[b] == my_r or lsym[b] == wild or wild_half[2 * b]


@jit_leaf
def _placements(conf: Config, core: Any, gs: Any, i: int, player: int) -> None:
    """The legal placements of the taken card, then the wild halves (with jade-wild)."""
    cfg, offsets = conf[0], conf[4]
    grid = gs[_GRID][i]
    ints = gs[_INTS][i]
    own = gs[_OWN][i]
    opens = gs[_OPENS][i]
    wild_half = gs[_WILD_HALF][i]
    legal_a = core[LEGAL][i]
    legal_k = gs[_LEGAL_K][i]
    jade_wild = cfg[_JADE_WILD] != 0
    wild_base = cfg[_WILD_BASE]
    jade = ints[0]
    wild_used = ints[1]
    base_left = ints[2]
    own_n = ints[4]
    open_n = ints[5]
    card = ints[6, gs[_SC][i, _SLOT]]
    core[ACTOR][i] = player
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
        left0 = base_left[player]
        for k in range(open_n[player]):
            r = opens[player, 0, k]
            c = opens[player, 1, k]
            if not _fits(conf, grid, wild_half, player, card, r, c):
                continue
            legal_a[n] = offsets[r] + c - left0
            legal_k[n] = k
            n += 1
    if jade_wild and wild_used[player] == 0 and jade[player] > 0:
        for t in range(cnt + 1):
            c = card if t == cnt else grid[player, own[player, 0, t], own[player, 1, t]]
            for h in range(2):
                if not wild_half[2 * c + h]:
                    legal_a[n] = wild_base + 2 * c + h
                    legal_k[n] = _K_WILD
                    n += 1
    core[NLEGAL][i] = n


@jit_inline
def _place_cost(conf: Config, gs: Any, i: int, player: int, card: int, k: int) -> float:
    """:func:`~ziggurat.games.kuhnah.heuristic.best_placement`'s effective cost of placing ``card`` by ``k``.

    ``k`` is an open slot's index or a base end: what the card adds to the
    player's score (its value less the uncovered supports it covers), and for
    the base its discount (a share of its value and a tenth of the end card's).
    """
    value = conf[1]
    grid = gs[_GRID][i]
    ints = gs[_INTS][i]
    v = value[card]
    if k < 0:
        nb = 0
        if ints[4, player] > 0:
            col = ints[2, player] if k == _K_BASE_LEFT else ints[3, player]
            nb = value[grid[player, 0, col]]
        cost = float(v)
        cost -= BASE_DISCOUNT * v + 0.1 * nb
        return cost
    opens = gs[_OPENS][i]
    r = opens[player, 0, k]
    c = opens[player, 1, k]
    covered = 0
    if grid[player, r, c] < 0 and grid[player, r, c - 1] < 0:
        covered += value[grid[player, r - 1, c]]
    if grid[player, r, c + 1] < 0 and grid[player, r, c] < 0:
        covered += value[grid[player, r - 1, c + 1]]
    return float(v - covered)


@jit_inline
def _best_cost(conf: Config, gs: Any, i: int, player: int, card: int) -> float:
    """The cost of ``card``'s best placement for ``player`` (wild halves aside), as the heuristic's."""
    grid = gs[_GRID][i]
    ints = gs[_INTS][i]
    opens = gs[_OPENS][i]
    wild_half = gs[_WILD_HALF][i]
    best = _place_cost(conf, gs, i, player, card, _K_BASE_LEFT)
    if ints[4, player] == 0:
        return best
    cost = _place_cost(conf, gs, i, player, card, _K_BASE_RIGHT)
    if cost < best:
        best = cost
    for k in range(ints[5, player]):
        if _fits(conf, grid, wild_half, player, card, opens[player, 0, k], opens[player, 1, k]):
            cost = _place_cost(conf, gs, i, player, card, k)
            if cost < best:
                best = cost
    return best


@jit_leaf
def _greedy(conf: Config, core: Any, gs: Any, i: int) -> int:
    """:func:`ziggurat.games.kuhnah.heuristic.heuristic` for the player to decide: the legal index it plays.

    Placing: the cheapest placement (wild halves aside). The turn: take the
    cheapest Quarry card (its best placement's cost less the jade on it) when it
    costs at most ``TAKE_THRESHOLD`` or when out of jade, else pay a jade onto
    the card the next player wants least (less half of what it costs us). Ties
    are broken with the opponents' RNG. Only public things are read (pyramids,
    wild halves, the Quarry and its jade) and the player's own jade: never the
    deck nor another seat's jade.
    """
    ints = gs[_INTS][i]
    sc = gs[_SC][i]
    legal = core[LEGAL][i]
    legal_k = gs[_LEGAL_K][i]
    nl = core[NLEGAL][i]
    player = core[ACTOR][i]
    pick = gs[_PICK]
    n = 0
    if sc[_PHASE] == _PLACE:
        card = ints[6, sc[_SLOT]]
        best = 1e300
        for j in range(nl):
            k = legal_k[j]
            if k == _K_WILD:
                continue
            cost = _place_cost(conf, gs, i, player, card, k)
            if cost < best - 1e-9:
                best = cost
                pick[0] = j
                n = 1
            elif abs(cost - best) <= 1e-9:
                pick[n] = j
                n += 1
        return pick[0] if n == 1 else pick[below_at(core[ORNG], i, n)]
    quarry = ints[6]
    quarry_jade = ints[7]
    costs = gs[_COSTS]
    cheapest = -1
    for s in range(2):
        if quarry[s] >= 0:
            c = _best_cost(conf, gs, i, player, quarry[s]) - quarry_jade[s]
            costs[s] = c
            if cheapest < 0 or c < costs[cheapest] or (c == costs[cheapest] and below_at(core[ORNG], i, 2) == 1):
                cheapest = s
    if ints[0, player] == 0 or costs[cheapest] <= TAKE_THRESHOLD:
        action = TAKE + cheapest
    else:
        nxt = (player + 1) % conf[0][_P]
        target = -1
        top = 0.0
        for s in range(2):
            if quarry[s] >= 0:
                theirs = _best_cost(conf, gs, i, nxt, quarry[s]) - quarry_jade[s]
                v = theirs - 0.5 * costs[s]
                if target < 0 or v > top:
                    target = s
                    top = v
                elif v == top and below_at(core[ORNG], i, 2) == 1:
                    target = s
        action = JADE_ON + target
    for j in range(nl):
        if legal[j] == action:
            return j
    return 0  # not reached: the action is legal


@jit_leaf
def _reset(conf: Config, core: Any, gs: Any, i: int) -> None:
    """Set up game ``i``: cards removed unseen, two revealed into the Quarry, the start player."""
    cfg = conf[0]
    grid = gs[_GRID][i]
    ints = gs[_INTS][i]
    own = gs[_OWN][i]
    deck = gs[_DECK][i]
    wild_half = gs[_WILD_HALF][i]
    sc = gs[_SC][i]
    nplayers = cfg[_P]
    ncards = cfg[_CARDS]
    for q in range(nplayers):  # empty the last game's pyramids
        for t in range(ints[4, q]):
            grid[q, own[q, 0, t], own[q, 1, t]] = -1
        ints[0, q] = cfg[_START_JADE]
        ints[1, q] = 0
        ints[4, q] = 0
        ints[5, q] = 0
    for t in range(2 * ncards):
        wild_half[t] = False
    for t in range(ncards):
        deck[t] = t
    deck_n = ncards
    # setup: remove unseen, then reveal two into the Quarry
    for t in range(cfg[_REMOVE] + 2):
        j = draw(core, i, deck, deck_n)
        card = deck[j]
        deck_n -= 1
        deck[j] = deck[deck_n]
        if t >= cfg[_REMOVE]:
            ints[6, t - cfg[_REMOVE]] = card
    ints[7, 0] = 0
    ints[7, 1] = 0
    sc[_DECK_N] = deck_n
    sc[_PHASE] = _TURN
    sc[_SLOT] = -1
    player = cfg[_START]
    if player < 0:
        player = draw(core, i, gs[_SEATS], nplayers)
    _turn_legal(core, i, player, ints[0, player])


@jit_leaf
def _score(conf: Config, core: Any, gs: Any, i: int) -> None:
    """Uncovered cards count their value, jade held is subtracted; lowest wins."""
    cfg, value = conf[0], conf[1]
    grid = gs[_GRID][i]
    ints = gs[_INTS][i]
    own = gs[_OWN][i]
    scores = core[SCORES][i]
    nplayers = cfg[_P]
    keys = gs[_KEYS][i]
    for q in range(nplayers):
        total = 0
        for t in range(ints[4, q]):
            r = own[q, 0, t]
            c = own[q, 1, t]
            if grid[q, r + 1, c] < 0 and grid[q, r + 1, c - 1] < 0:
                total += value[grid[q, r, c]]
        scores[q] = total - cfg[_JADE_POINTS] * ints[0, q]
        keys[q] = -scores[q]
    competition_ranks(keys, core[RANKS][i])
    finish(core, i, 0)


@jit_leaf
def _step(conf: Config, core: Any, gs: Any, i: int, j: int, action: int) -> None:
    """:func:`_step_at`, called (a batched environment's step)."""
    _step_at(conf, core, gs, i, j, action)


@jit_inline
def _step_at(conf: Config, core: Any, gs: Any, i: int, j: int, action: int) -> None:
    """Apply the decision of the player to move (entry ``j`` of the legal list), then chance up to the next."""
    cfg = conf[0]
    grid = gs[_GRID][i]
    ints = gs[_INTS][i]
    own = gs[_OWN][i]
    opens = gs[_OPENS][i]
    deck = gs[_DECK][i]
    sc = gs[_SC][i]
    nplayers = cfg[_P]
    max_row = cfg[_MAX_ROW]
    origin = cfg[_MAX_CARDS] + 1
    jade = ints[0]
    base_left = ints[2]
    base_right = ints[3]
    own_n = ints[4]
    open_n = ints[5]
    quarry = ints[6]
    quarry_jade = ints[7]
    player = core[ACTOR][i]
    if sc[_PHASE] == _TURN:
        if action < TAKE:
            jade[player] -= 1
            quarry_jade[action] += 1
            player = (player + 1) % nplayers
            _turn_legal(core, i, player, jade[player])
            return
        slot = action - TAKE
        jade[player] += quarry_jade[slot]
        quarry_jade[slot] = 0
        sc[_SLOT] = slot
        sc[_PHASE] = _PLACE
        _placements(conf, core, gs, i, player)
        return

    # the placement (a wild half first, with jade-wild, is its own decision)
    kind = gs[_LEGAL_K][i, j]
    if kind == _K_WILD:
        jade[player] -= 1
        ints[1, player] = 1
        gs[_WILD_HALF][i, action - cfg[_WILD_BASE]] = True
        _placements(conf, core, gs, i, player)
        return
    slot = sc[_SLOT]
    card = quarry[slot]
    cnt = own_n[player]
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
    quarry[slot] = -1
    sc[_PHASE] = _TURN
    sc[_SLOT] = -1
    player = (player + 1) % nplayers
    deck_n = sc[_DECK_N]
    if deck_n == 0:
        _score(conf, core, gs, i)  # the Quarry can't be brought back to two cards: the game ends at once
        return
    j = draw(core, i, deck, deck_n)
    deck_n -= 1
    quarry[slot] = deck[j]
    deck[j] = deck[deck_n]
    sc[_DECK_N] = deck_n
    _turn_legal(core, i, player, jade[player])


@jit_inline
def _card(conf: Config, gs: Any, i: int, card: int, jade: int, out: np.ndarray, k: int) -> None:
    """A Quarry or taken card: present, value, left and right symbol one-hots (wild its own), jade."""
    cfg, value, lsym, rsym = conf[0], conf[1], conf[2], conf[3]
    wild_half = gs[_WILD_HALF][i]
    s = cfg[_SYMBOLS]
    out[k] = 1.0
    out[k + 1] = value[card] / float(cfg[_TOP])
    left = s if (lsym[card] == cfg[_WILD] or wild_half[2 * card]) else lsym[card]
    right = s if (rsym[card] == cfg[_WILD] or wild_half[2 * card + 1]) else rsym[card]
    out[k + 2 + left] = 1.0
    out[k + 2 + s + 1 + right] = 1.0
    out[k + 2 + 2 * (s + 1)] = jade / float(max(1, cfg[_START_JADE] * cfg[_P]))


@jit_leaf
def _encode(conf: Config, core: Any, gs: Any, i: int, seat: int, out: np.ndarray, again: bool) -> None:
    """:func:`ziggurat.games.kuhnah.encode.tensor` of ``view(seat)`` (at a decision or at the end).

    Most of the row is the pyramids' cells, mostly empty: in the game's own
    observation row (``again``) only the cells written last time are cleared.
    """
    cfg, value, lsym, rsym, offsets = conf
    grid = gs[_GRID][i]
    ints = gs[_INTS][i]
    own = gs[_OWN][i]
    wild_half = gs[_WILD_HALF][i]
    sc = gs[_SC][i]
    n = cfg[_P]
    s = cfg[_SYMBOLS]
    top = float(cfg[_TOP])
    cards = float(cfg[_CARDS])
    jade_scale = float(max(1, cfg[_START_JADE] * n))  # all the jade in the game
    features = 2 + 2 * (s + 1) + 1
    head = 3 + 3 * n + 2 + 3 * features
    dirty = gs[_DIRTY][i]
    nd = dirty.shape[0] - 1
    if again:
        for t in range(head):
            out[t] = 0.0
        for t in range(dirty[nd]):
            e = dirty[t]
            out[e] = 0.0
            out[e + 1] = 0.0
            out[e + 2] = 0.0
            out[e + 3] = 0.0
    else:
        out[:] = 0.0
    written = 0
    actor = core[ACTOR][i]
    over = actor == TERMINAL
    placing = not over and sc[_PHASE] == _PLACE
    if over:
        out[2] = 1.0
    elif placing:
        out[1] = 1.0
    else:
        out[0] = 1.0
    if not over:
        out[3 + (actor - seat) % n] = 1.0
    k = 3 + n
    out[k] = sc[_DECK_N] / cards
    out[k + 1] = cfg[_REMOVE] / cards
    k += 2
    shown = cfg[_OPEN_JADE] != 0 or over
    for t in range(n):
        p = (seat + t) % n
        if shown or p == seat:
            out[k] = ints[0, p] / jade_scale
        else:
            out[k + 1] = 1.0
        k += 2
    for slot in range(2):
        c = ints[6, slot]
        if c >= 0 and not (placing and slot == sc[_SLOT]):
            _card(conf, gs, i, c, ints[7, slot], out, k)
        k += features
    if placing:
        _card(conf, gs, i, ints[6, sc[_SLOT]], 0, out, k)
    k += features
    cells = cfg[_CELLS]
    m = cfg[_MAX_CARDS]
    sym_scale = float(s + 1)
    for t in range(n):
        p = (seat + t) % n
        block = k + t * cells * 4
        left0 = ints[2, p]
        for u in range(ints[4, p]):
            r = own[p, 0, u]
            c = own[p, 1, u]
            card = grid[p, r, c]
            pos = c - left0
            cell = pos if r == 0 else m + offsets[r] - UPPER + pos
            e = block + 4 * cell
            left = s if (lsym[card] == cfg[_WILD] or wild_half[2 * card]) else lsym[card]
            right = s if (rsym[card] == cfg[_WILD] or wild_half[2 * card + 1]) else rsym[card]
            out[e] = 1.0
            out[e + 1] = value[card] / top
            out[e + 2] = (left + 1) / sym_scale
            out[e + 3] = (right + 1) / sym_scale
            if again:
                dirty[written] = e
                written += 1
    if again:
        dirty[nd] = written


@jit_leaf
def _play_loop(conf: Config, core: Any, gs: Any, seeds: np.ndarray, out: tuple[np.ndarray, ...]) -> None:
    loops.play_loop(_reset, _step_at, conf, core, gs, seeds, out)


@jit
def _play(conf: Config, seeds: np.ndarray) -> tuple[np.ndarray, ...]:
    return loops.play(_dims, _new, _play_loop, conf, seeds)


@jit
def _trace(conf: Config, seed: np.uint64) -> tuple[Any, ...]:
    return loops.trace(_dims, _new, _reset, _step, conf, seed, conf[0][_MAX_LEN])


@jit
def _vreset(conf: Config, core: Any, gs: Any, base: np.uint64, seat: int, obs: np.ndarray, mask: np.ndarray) -> None:
    loops.vreset_with(_reset, _step, _encode, _greedy, conf, core, gs, base, seat, obs, mask)


@jit_leaf
def _vstep(conf: Config, core: Any, gs: Any, base: np.uint64, seat: int, out: tuple[np.ndarray, ...]) -> int:
    return loops.vstep_with(_reset, _step_at, _encode, _greedy, conf, core, gs, base, seat, out)


def play(config: Config, seeds: np.ndarray) -> tuple[np.ndarray, ...]:
    """Play one random game per seed: (scores, ranks, decisions, steps, ends); the game has one end, index 0."""
    return _play(config, np.ascontiguousarray(seeds, np.uint64))


def trace(config: Config, seed: int) -> tuple[object, ...]:
    """The game of ``seed`` step by step (see :class:`~ziggurat.core.kernel.Trace`); its one end, index 0."""
    return _trace(config, np.uint64(seed))


KERNEL = GameKernel("kuhnah", unsupported, prepare, play, trace, StepKernel(_dims, _new, _vreset, _vstep, greedy=True))
