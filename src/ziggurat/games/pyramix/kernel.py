"""Pyramix compiled (numba): random batches and stepped environments (the ``fast`` extra).

The same rules as :mod:`ziggurat.games.pyramix.rules`, which stays the
reference: the setup stacks the 56 places in index order, each a chance draw of
a cube kind weighted by what is left in the box; then players remove cubes in
turn (two or three faces showing, no tray place left empty for good, no cobra
touched unless the cube is a cobra), a two-faced removal cascades the line above
it down, and the game ends when the player to move can take nothing. Scoring
puts tray cobras out with their edge neighbours and gives each colour's tray
cubes to its strict ankh leader. Every player chooses uniformly among the
removable cubes. Action and chance ids are the engine's (a place; a kind).
Written as the step functions of :mod:`ziggurat.core.loops`; :func:`_encode`
writes exactly :func:`ziggurat.games.pyramix.encode.tensor` of a view (Pyramix
hides nothing, so every seat's is the same).

``cover[p]`` counts the cubes resting on ``p`` as in the engine (9 for an empty
place and for a tray cube with nothing above), so rules 1 and 2 are
``cover[p] < 2``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ziggurat.core import loops
from ziggurat.core.jit import competition_ranks, jit, jit_inline, jit_leaf
from ziggurat.core.kernel import GameKernel, StepKernel
from ziggurat.core.loops import (
    ACTOR,
    LEGAL,
    NLEGAL,
    ORNG,
    RANKS,
    RNG,
    SCORES,
    TERMINAL,
    TRACING,
    below_at,
    drawn,
    finish,
)
from ziggurat.games.pyramix.encode import tensor_size
from ziggurat.games.pyramix.geometry import DOWN, FACES, NUM_BASE, NUM_POSITIONS, TRAY_NEIGHBOURS, UP
from ziggurat.games.pyramix.heuristic import REPLY_WEIGHT

if TYPE_CHECKING:
    from ziggurat.core.game import Game

CHANCE = -1
NOT_CANDIDATE = 9

# cfg fields
_P, _KINDS, _COBRA, _COLOURS, _MAX_LEN, _OBS, _ACTIONS = range(7)

Config = tuple[
    np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray
]


def _table(rows: list[tuple[int, ...]], width: int) -> np.ndarray:
    out = np.full((len(rows), width), -1, np.int32)
    for i, row in enumerate(rows):
        out[i, : len(row)] = row
    return out


UP_T = np.asarray(UP, np.int32).reshape(NUM_POSITIONS, 3)
DOWN_T = np.asarray(DOWN, np.int32).reshape(NUM_POSITIONS, 3)
FACES_T = _table(list(FACES), 6)
TRAY_T = _table(list(TRAY_NEIGHBOURS), 6)


def unsupported(game: Game) -> str | None:
    """Every Pyramix option (a user's cube list) is played by the kernel."""
    return None


def prepare(game: Game) -> Config:
    """The kernel's configuration of a :class:`~ziggurat.games.pyramix.rules.PyramixGame`."""
    g: Any = game
    box = g.box
    cfg = np.zeros(7, np.int64)
    cfg[_P] = g.num_players
    cfg[_KINDS] = box.num_kinds
    cfg[_COBRA] = box.cobra
    cfg[_COLOURS] = len(box.colours)
    cfg[_MAX_LEN] = g.max_game_length
    cfg[_OBS] = tensor_size(game)
    cfg[_ACTIONS] = g.num_actions
    counts = np.asarray(box.counts, np.int32)
    points = np.asarray(box.points, np.int32)
    colour_of = np.asarray(box.colour_of, np.int32)
    ankh = np.asarray([box.kind_of(c, box.majority_icon) for c in range(len(box.colours))], np.int32)
    return cfg, counts, points, colour_of, ankh, UP_T, DOWN_T, FACES_T, TRAY_T


# the arrays of the batch (gs)
_GRID, _COVER, _POOL, _COLL, _SC, _KINDS_SEEN, _OUT, _LEADER = range(8)
# the greedy policy's scratch (one set for the batch, two plies deep)
_G_GRID, _G_COVER, _G_COLL, _G_MOVES, _G_SCORES = range(8, 13)
_COBRAS, _PLAYER = range(2)


@jit
def _dims(conf: Config) -> tuple[int, int, int, int, int, int]:
    """(players, legal capacity, observation size, action ids, chance events per step, outcomes per step)."""
    cfg = conf[0]
    return cfg[_P], NUM_POSITIONS, cfg[_OBS], cfg[_ACTIONS], NUM_POSITIONS, NUM_POSITIONS * cfg[_KINDS]


@jit
def _new(conf: Config, count: int) -> tuple[Any, ...]:
    cfg = conf[0]
    nkinds = cfg[_KINDS]
    return (
        np.full((count, NUM_POSITIONS), -1, np.int32),
        np.full((count, NUM_POSITIONS), NOT_CANDIDATE, np.int32),
        np.zeros((count, nkinds), np.int32),
        np.zeros((count, cfg[_P], nkinds), np.int32),
        np.zeros((count, 2), np.int32),
        np.zeros((count, nkinds), np.int32),
        np.zeros((count, NUM_BASE), np.bool_),
        np.zeros((count, cfg[_COLOURS]), np.int32),
        np.full((2, NUM_POSITIONS), -1, np.int32),
        np.full((2, NUM_POSITIONS), NOT_CANDIDATE, np.int32),
        np.zeros((2, cfg[_P], nkinds), np.int32),
        np.zeros((2, NUM_POSITIONS), np.int32),
        np.zeros(cfg[_P], np.float64),
    )


@jit_inline
def _removable(conf: Config, grid: np.ndarray, cover: np.ndarray, cobras: int, moves: np.ndarray) -> int:
    """The cubes that may be taken into ``moves`` (two or three faces showing, no cobra touched); how many."""
    cfg, faces = conf[0], conf[7]
    cobra = cfg[_COBRA]
    n = 0
    for p in range(NUM_POSITIONS):
        if cover[p] < 2:
            ok = True
            if cobras > 0 and grid[p] != cobra:
                for j in range(6):
                    q = faces[p, j]
                    if q >= 0 and grid[q] == cobra:
                        ok = False
                        break
            if ok:
                moves[n] = p
                n += 1
    return n


@jit_inline
def _moves(conf: Config, core: Any, gs: Any, i: int) -> None:
    """The cubes the player to move may take; none ends the game."""
    n = _removable(conf, gs[_GRID][i], gs[_COVER][i], gs[_SC][i, _COBRAS], core[LEGAL][i])
    core[NLEGAL][i] = n
    core[ACTOR][i] = gs[_SC][i, _PLAYER]
    if n == 0:
        _score(conf, core, gs, i)  # the player to move can take nothing: the game is over


@jit_leaf
def _reset(conf: Config, core: Any, gs: Any, i: int) -> None:
    """The setup: each place in turn gets a cube drawn from the box (weighted by what is left)."""
    cfg, counts, up = conf[0], conf[1], conf[5]
    nkinds = cfg[_KINDS]
    cobra = cfg[_COBRA]
    grid = gs[_GRID][i]
    cover = gs[_COVER][i]
    pool = gs[_POOL][i]
    kinds = gs[_KINDS_SEEN][i]
    coll = gs[_COLL][i]
    total = 0
    for k in range(nkinds):
        pool[k] = counts[k]
        total += pool[k]
        for q in range(cfg[_P]):
            coll[q, k] = 0
    for p in range(NUM_POSITIONS):
        grid[p] = -1
    for p in range(NUM_POSITIONS):
        r = below_at(core[RNG], i, total)
        kind = 0
        while r >= pool[kind]:
            r -= pool[kind]
            kind += 1
        n = 0
        if core[TRACING][0]:
            for k in range(nkinds):
                if pool[k] > 0:
                    kinds[n] = k
                    n += 1
        drawn(core, i, kind, kinds, n)
        grid[p] = kind
        pool[kind] -= 1
        total -= 1
    cobras = 0
    for p in range(NUM_POSITIONS):
        c = 0
        for t in range(3):
            u = up[p, t]
            if u >= 0 and grid[u] >= 0:
                c += 1
        cover[p] = NOT_CANDIDATE if c == 0 and p < NUM_BASE else c
        if grid[p] == cobra:
            cobras += 1
    gs[_SC][i, _COBRAS] = cobras
    gs[_SC][i, _PLAYER] = 0
    _moves(conf, core, gs, i)


@jit_leaf
def _step(conf: Config, core: Any, gs: Any, i: int, j: int, action: int) -> None:
    """:func:`_step_at`, called (a batched environment's step)."""
    _step_at(conf, core, gs, i, j, action)


@jit_inline
def _step_at(conf: Config, core: Any, gs: Any, i: int, j: int, action: int) -> None:
    """The player to move takes the cube at ``action``; a two-faced removal cascades the line above it down."""
    cfg = conf[0]
    cobra = cfg[_COBRA]
    grid = gs[_GRID][i]
    cover = gs[_COVER][i]
    sc = gs[_SC][i]
    player = sc[_PLAYER]
    p = action
    kind = grid[p]
    gs[_COLL][i, player, kind] += 1
    if kind == cobra:
        sc[_COBRAS] -= 1
    _take(conf, grid, cover, p)
    sc[_PLAYER] = (player + 1) % cfg[_P]
    _moves(conf, core, gs, i)


@jit_inline
def _take(conf: Config, grid: np.ndarray, cover: np.ndarray, p: int) -> None:
    """The cube at ``p`` leaves the pyramid; a two-faced removal cascades the line above it down."""
    up, down = conf[5], conf[6]
    top = p
    if cover[p] > 0:
        # the cascade: the one cube on p and the line above it slide down
        axis = 0
        for t in range(3):
            u = up[p, t]
            if u >= 0 and grid[u] >= 0:
                axis = t
                break
        u = up[p, axis]
        while u >= 0 and grid[u] >= 0:
            grid[top] = grid[u]
            top = u
            u = up[top, axis]
    grid[top] = -1
    cover[top] = NOT_CANDIDATE
    for t in range(3):
        d = down[top, t]
        if d >= 0:
            c = cover[d] - 1
            cover[d] = NOT_CANDIDATE if c == 0 and d < NUM_BASE else c


@jit_leaf
def _score(conf: Config, core: Any, gs: Any, i: int) -> None:
    """The final scores (:func:`_tally`) and ranks."""
    _tally(conf, gs[_GRID][i], gs[_COLL][i], gs[_OUT][i], gs[_LEADER][i], core[SCORES][i])
    competition_ranks(core[SCORES][i], core[RANKS][i])
    finish(core, i, 0)


@jit_inline
def _tally(
    conf: Config, grid: np.ndarray, coll: np.ndarray, out: np.ndarray, leader: np.ndarray, scores: np.ndarray
) -> None:
    """The scores if the game ended now: tray cobras go out with their edge neighbours, colours go to
    their strict ankh leaders (``out`` and ``leader`` are scratch)."""
    cfg, points, colour_of, ankh, tray = conf[0], conf[2], conf[3], conf[4], conf[8]
    nplayers = cfg[_P]
    nkinds = cfg[_KINDS]
    cobra = cfg[_COBRA]
    ncolours = ankh.shape[0]
    for q in range(nplayers):
        s = 0
        for k in range(nkinds):
            s += coll[q, k] * points[k]
        scores[q] = s
    for p in range(NUM_BASE):
        out[p] = False
    for p in range(NUM_BASE):
        if grid[p] == cobra:
            out[p] = True
            for t in range(6):
                if tray[p, t] >= 0:
                    out[tray[p, t]] = True
    for c in range(ncolours):
        best = 0
        who = -1
        for q in range(nplayers):
            a = coll[q, ankh[c]]
            if a > best:
                best = a
                who = q
            elif a == best:
                who = -1
        leader[c] = who if best > 0 else -1
    for p in range(NUM_BASE):
        k = grid[p]
        if out[p] or k == cobra:
            continue
        who = leader[colour_of[k]]
        if who >= 0:
            scores[who] += points[k]


@jit_inline
def _margin(scores: np.ndarray, player: int) -> float:
    """``player``'s score less the best other's (the heuristic's margin)."""
    best = -1e300
    for q in range(scores.shape[0]):
        if q != player and scores[q] > best:
            best = scores[q]
    return scores[player] - best


@jit_inline
def _copy(grid: np.ndarray, cover: np.ndarray, coll: np.ndarray, g: np.ndarray, c: np.ndarray, k: np.ndarray) -> None:
    """A position into the greedy's scratch (element by element: a leaf allocates nothing)."""
    for p in range(NUM_POSITIONS):
        g[p] = grid[p]
        c[p] = cover[p]
    for q in range(coll.shape[0]):
        for t in range(coll.shape[1]):
            k[q, t] = coll[q, t]


@jit_leaf
def _greedy(conf: Config, core: Any, gs: Any, i: int) -> int:
    """:func:`ziggurat.games.pyramix.heuristic.heuristic` for the player to move: the legal index it plays.

    Each move is valued by the margin it leaves (:func:`_tally` as ``score_now``)
    less half the most the next player's best reply would add to theirs; ties
    (within 1e-9, as the heuristic) are broken with the opponents' RNG. Pyramix
    hides nothing, so the whole position is the player's view.
    """
    cfg, cobra = conf[0], conf[0][_COBRA]
    nplayers = cfg[_P]
    grid = gs[_GRID][i]
    cover = gs[_COVER][i]
    coll = gs[_COLL][i]
    out = gs[_OUT][i]
    leader = gs[_LEADER][i]
    g1, c1, k1, m1 = gs[_G_GRID][0], gs[_G_COVER][0], gs[_G_COLL][0], gs[_G_MOVES][0]
    g2, c2, k2, best = gs[_G_GRID][1], gs[_G_COVER][1], gs[_G_COLL][1], gs[_G_MOVES][1]
    scores = gs[_G_SCORES]
    player = gs[_SC][i, _PLAYER]
    nxt = (player + 1) % nplayers
    cobras = gs[_SC][i, _COBRAS]
    legal = core[LEGAL][i]
    nbest = 0
    best_value = -1e300
    for j in range(core[NLEGAL][i]):
        p = legal[j]
        _copy(grid, cover, coll, g1, c1, k1)
        kind = g1[p]
        k1[player, kind] += 1
        left = cobras - 1 if kind == cobra else cobras
        _take(conf, g1, c1, p)
        _tally(conf, g1, k1, out, leader, scores)
        value = _margin(scores, player)
        replies = _removable(conf, g1, c1, left, m1)
        if replies > 0:  # the game goes on: the next player's best reply counts against
            base = _margin(scores, nxt)
            gain = 0.0
            for t in range(replies):
                q = m1[t]
                _copy(g1, c1, k1, g2, c2, k2)
                k2[nxt, g2[q]] += 1
                _take(conf, g2, c2, q)
                _tally(conf, g2, k2, out, leader, scores)
                gain = max(gain, _margin(scores, nxt) - base)
            value -= REPLY_WEIGHT * gain
        if value > best_value + 1e-9:
            best_value = value
            best[0] = j
            nbest = 1
        elif abs(value - best_value) <= 1e-9:
            best[nbest] = j
            nbest += 1
    return best[0] if nbest == 1 else best[below_at(core[ORNG], i, nbest)]


@jit_leaf
def _encode(conf: Config, core: Any, gs: Any, i: int, seat: int, out: np.ndarray, again: bool) -> None:
    """:func:`ziggurat.games.pyramix.encode.tensor` of the view (the same for every seat)."""
    cfg, counts = conf[0], conf[1]
    nkinds = cfg[_KINDS]
    nplayers = cfg[_P]
    grid = gs[_GRID][i]
    coll = gs[_COLL][i]
    pool = gs[_POOL][i]
    out[:] = 0.0
    width = nkinds + 1
    for p in range(NUM_POSITIONS):
        k = grid[p]
        if k >= 0:
            out[p * width + k] = 1.0
    actor = core[ACTOR][i]
    over = actor == TERMINAL
    if not over:
        for t in range(core[NLEGAL][i]):
            out[core[LEGAL][i, t] * width + nkinds] = 1.0
    base = NUM_POSITIONS * width
    for q in range(nplayers):
        for k in range(nkinds):
            if counts[k] and coll[q, k]:
                out[base + q * nkinds + k] = coll[q, k] * (1.0 / counts[k])
    base += nplayers * nkinds
    if not over:
        out[base + actor] = 1.0
    base += nplayers
    for k in range(nkinds):
        if counts[k] and pool[k]:
            out[base + k] = pool[k] * (1.0 / counts[k])
    base += nkinds
    out[base + (2 if over else 1)] = 1.0


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


KERNEL = GameKernel("pyramix", unsupported, prepare, play, trace, StepKernel(_dims, _new, _vreset, _vstep, greedy=True))
