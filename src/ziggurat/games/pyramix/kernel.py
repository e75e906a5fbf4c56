"""Pyramix compiled (numba) for batches of random games: the ``fast`` extra.

The same rules as :mod:`ziggurat.games.pyramix.rules`, which stays the
reference: the setup stacks the 56 places in index order, each a chance draw of
a cube kind weighted by what is left in the box; then players remove cubes in
turn (two or three faces showing, no tray place left empty for good, no cobra
touched unless the cube is a cobra), a two-faced removal cascades the line above
it down, and the game ends when the player to move can take nothing. Scoring
puts tray cobras out with their edge neighbours and gives each colour's tray
cubes to its strict ankh leader. Every player chooses uniformly among the
removable cubes. Action and chance ids are the engine's (a place; a kind).

``cover[p]`` counts the cubes resting on ``p`` as in the engine (9 for an empty
place and for a tray cube with nothing above), so rules 1 and 2 are
``cover[p] < 2``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ziggurat.core.jit import below, competition_ranks, jit, record_step, seed_rng
from ziggurat.core.kernel import GameKernel
from ziggurat.games.pyramix.geometry import DOWN, FACES, NUM_BASE, NUM_POSITIONS, TRAY_NEIGHBOURS, UP

if TYPE_CHECKING:
    from ziggurat.core.game import Game

CHANCE = -1
NOT_CANDIDATE = 9

# cfg fields
_P, _KINDS, _COBRA, _COLOURS, _MAX_LEN = range(5)

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
    cfg = np.zeros(5, np.int64)
    cfg[_P] = g.num_players
    cfg[_KINDS] = box.num_kinds
    cfg[_COBRA] = box.cobra
    cfg[_COLOURS] = len(box.colours)
    cfg[_MAX_LEN] = g.max_game_length
    counts = np.asarray(box.counts, np.int32)
    points = np.asarray(box.points, np.int32)
    colour_of = np.asarray(box.colour_of, np.int32)
    ankh = np.asarray([box.kind_of(c, box.majority_icon) for c in range(len(box.colours))], np.int32)
    return cfg, counts, points, colour_of, ankh, UP_T, DOWN_T, FACES_T, TRAY_T


@jit
def _game(
    cfg: np.ndarray,
    counts: np.ndarray,
    points: np.ndarray,
    colour_of: np.ndarray,
    ankh: np.ndarray,
    up: np.ndarray,
    down: np.ndarray,
    faces: np.ndarray,
    tray: np.ndarray,
    seed: np.uint64,
    scores: np.ndarray,
    ranks: np.ndarray,
    tracing: bool,
    tr_actor: np.ndarray,
    tr_action: np.ndarray,
    tr_off: np.ndarray,
    tr_legal: np.ndarray,
) -> tuple[int, int, np.ndarray]:
    """Play one game from ``seed``; fill ``scores`` and ``ranks``; return (decisions, steps, trace legal buffer)."""
    nplayers = cfg[_P]
    nkinds = cfg[_KINDS]
    cobra = cfg[_COBRA]
    npos = up.shape[0]
    rng = np.zeros(1, np.uint64)
    seed_rng(rng, seed)
    grid = np.full(npos, -1, np.int32)
    cover = np.full(npos, NOT_CANDIDATE, np.int32)
    pool = counts.copy()
    coll = np.zeros((nplayers, nkinds), np.int32)
    moves = np.zeros(npos, np.int32)
    kinds = np.zeros(nkinds, np.int32)
    steps = 0
    decisions = 0

    # setup: each place in turn gets a cube drawn from the box
    total = 0
    for k in range(nkinds):
        total += pool[k]
    for p in range(npos):
        r = below(rng, total)
        kind = 0
        while r >= pool[kind]:
            r -= pool[kind]
            kind += 1
        if tracing:
            n = 0
            for k in range(nkinds):
                if pool[k] > 0:
                    kinds[n] = k
                    n += 1
            tr_legal = record_step(tr_actor, tr_action, tr_off, tr_legal, steps, CHANCE, kind, kinds, n)
        steps += 1
        grid[p] = kind
        pool[kind] -= 1
        total -= 1
    cobras = 0
    for p in range(npos):
        c = 0
        for i in range(3):
            u = up[p, i]
            if u >= 0 and grid[u] >= 0:
                c += 1
        cover[p] = NOT_CANDIDATE if c == 0 and p < NUM_BASE else c
        if grid[p] == cobra:
            cobras += 1

    player = 0
    while True:
        n = 0
        for p in range(npos):
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
        if n == 0:
            break  # the player to move can take nothing: the game is over
        p = moves[below(rng, n)]
        if tracing:
            tr_legal = record_step(tr_actor, tr_action, tr_off, tr_legal, steps, player, p, moves, n)
        steps += 1
        decisions += 1
        kind = grid[p]
        coll[player, kind] += 1
        if kind == cobra:
            cobras -= 1
        top = p
        if cover[p] > 0:
            # the cascade: the one cube on p and the line above it slide down
            axis = 0
            for i in range(3):
                u = up[p, i]
                if u >= 0 and grid[u] >= 0:
                    axis = i
                    break
            u = up[p, axis]
            while u >= 0 and grid[u] >= 0:
                grid[top] = grid[u]
                top = u
                u = up[top, axis]
        grid[top] = -1
        cover[top] = NOT_CANDIDATE
        for i in range(3):
            d = down[top, i]
            if d >= 0:
                c = cover[d] - 1
                cover[d] = NOT_CANDIDATE if c == 0 and d < NUM_BASE else c
        player = (player + 1) % nplayers

    # scoring: tray cobras go out with their edge neighbours; colours to their strict ankh leaders
    ncolours = ankh.shape[0]
    for q in range(nplayers):
        s = 0
        for k in range(nkinds):
            s += coll[q, k] * points[k]
        scores[q] = s
    out = np.zeros(NUM_BASE, np.bool_)
    for p in range(NUM_BASE):
        if grid[p] == cobra:
            out[p] = True
            for j in range(6):
                if tray[p, j] >= 0:
                    out[tray[p, j]] = True
    leader = np.full(ncolours, -1, np.int32)
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
    competition_ranks(scores, ranks)
    return decisions, steps, tr_legal


@jit
def _play(
    cfg: np.ndarray,
    counts: np.ndarray,
    points: np.ndarray,
    colour_of: np.ndarray,
    ankh: np.ndarray,
    up: np.ndarray,
    down: np.ndarray,
    faces: np.ndarray,
    tray: np.ndarray,
    seeds: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    count = seeds.shape[0]
    nplayers = cfg[_P]
    scores = np.zeros((count, nplayers), np.float64)
    ranks = np.zeros((count, nplayers), np.int32)
    decisions = np.zeros(count, np.int32)
    steps = np.zeros(count, np.int32)
    dummy = np.zeros(1, np.int32)
    for g in range(count):
        d, s, _ = _game(
            cfg, counts, points, colour_of, ankh, up, down, faces, tray, seeds[g], scores[g], ranks[g],
            False, dummy, dummy, dummy, dummy,
        )  # fmt: skip
        decisions[g] = d
        steps[g] = s
    return scores, ranks, decisions, steps


@jit
def _trace(
    cfg: np.ndarray,
    counts: np.ndarray,
    points: np.ndarray,
    colour_of: np.ndarray,
    ankh: np.ndarray,
    up: np.ndarray,
    down: np.ndarray,
    faces: np.ndarray,
    tray: np.ndarray,
    seed: np.uint64,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    max_len = cfg[_MAX_LEN]
    tr_actor = np.zeros(max_len, np.int32)
    tr_action = np.zeros(max_len, np.int32)
    tr_off = np.zeros(max_len + 1, np.int32)
    tr_legal = np.zeros(1024, np.int32)
    scores = np.zeros(cfg[_P], np.float64)
    ranks = np.zeros(cfg[_P], np.int32)
    _, steps, tr_legal = _game(
        cfg, counts, points, colour_of, ankh, up, down, faces, tray, seed, scores, ranks,
        True, tr_actor, tr_action, tr_off, tr_legal,
    )  # fmt: skip
    return tr_actor[:steps], tr_action[:steps], tr_off[: steps + 1], tr_legal[: tr_off[steps]], scores, ranks


def play(config: Config, seeds: np.ndarray) -> tuple[np.ndarray, ...]:
    """Play one random game per seed: (scores, ranks, decisions, steps, ends); the game has one end, index 0."""
    seeds = np.ascontiguousarray(seeds, np.uint64)
    return (*_play(*config, seeds), np.zeros(seeds.shape[0], np.int8))


def trace(config: Config, seed: int) -> tuple[object, ...]:
    """The game of ``seed`` step by step (see :class:`~ziggurat.core.kernel.Trace`); its one end, index 0."""
    return (*_trace(*config, np.uint64(seed)), 0)


KERNEL = GameKernel("pyramix", unsupported, prepare, play, trace)
