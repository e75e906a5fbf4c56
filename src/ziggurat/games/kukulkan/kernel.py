"""Kukulkán compiled (numba): random batches and stepped environments (the ``fast`` extra).

The same rules as :mod:`ziggurat.games.kukulkan.rules`, which stays the
reference: a round is a die roll (chance) and then every player's choice with
that number at the same time. A choice is one or more atomic decisions, exactly
as the engine offers them: a help first if any (same-value, plus/minus one, its
permanent form from the base bonus, super-six), then a draw segment by segment
(each segment must leave the trail completable to exactly ``n``), a write, a
mark, or a pass (only when nothing is possible without a help). When every
choice is complete they are applied together, the bonuses are checked (normal
ones for each player once, the first-to-claim ones for everyone who qualifies in
the same round) and the game ends once each normal bonus has been claimed, or
after a round after which nobody could act on any roll (``_could_act``), or
after the round limit (the ``max-rounds`` safeguard). Scores: marked blocks plus
bonuses; ties broken by marked blocks, then shared. The end is reported as its
index in the engine's ``ENDS``.

Written as the step functions of :mod:`ziggurat.core.loops`. Within a round
the players decide in turn, one atomic decision each, lowest seat first, as
the engine's drivers serialize a simultaneous node (``Match.run_bots``,
``random_playout``: each pass over ``players_to_move()`` gives every player
still choosing one decision); a player whose choice is complete drops out until
the next roll. So after player ``p`` the next to decide is the first player
after ``p`` still choosing, else the first one from seat 0 (``_decide``). The
trace records the player of each step, so the engine replays it with
``apply_action(a, player)``. :func:`_encode` writes exactly
:func:`ziggurat.games.kukulkan.encode.tensor` of a seat's view: every sheet is
public, and of this round's choices a seat sees only its own and whether each
other player's is complete.

A sheet is arrays: segment masks fit in 64 bits, so a user's sheet may have up
to 63 segments and 63 blocks. Trails are searched depth first with an explicit
stack (at most six segments deep). A player's drawn segments only grow, so a
segment that begins no trail of ``n`` never will again, and a trail found once
proves its first segment until one of its segments is drawn (``_first``). The
step and its helpers are :func:`~ziggurat.core.jit.jit_leaf` functions (or
inlined): they allocate nothing, so no call pays for reference counting.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ziggurat.core import loops
from ziggurat.core.jit import competition_ranks, jit, jit_inline, jit_leaf, low_bit
from ziggurat.core.kernel import GameKernel, StepKernel
from ziggurat.core.loops import ACTOR, LEGAL, NLEGAL, ORNG, RANKS, SCORES, TERMINAL, below_at, draw, finish
from ziggurat.games.kukulkan.encode import tensor_size
from ziggurat.games.kukulkan.heuristic import DRAW_BASE, HELP_COST, needs

if TYPE_CHECKING:
    from ziggurat.core.game import Game

CHANCE = -1
DIE = 6
MAX_BITS = 63

# cfg fields
(_P, _S, _B, _WRITE0, _MARK0, _PASS, _SAME, _PLUS0, _SUPER0, _A, _BK, _C, _D, _UPPER, _BASE, _AXIS, _ALL,
 _EXTERNAL, _MAX_LEN, _MAX_ROUNDS, _AXIS_POINTS, _BLOCK_POINTS) = range(22)  # fmt: skip
_OBS, _ACTIONS = 22, 23  # the observation's size, the number of action ids
_CFG = 24

# the round's help, the used one-use helps, the kind of choice, the bonuses (as in the engine)
H_NONE, H_SAME, H_PLUS, H_SUPER, H_PERM = range(5)
U_SAME, U_PLUS, U_SUPER = 1, 2, 4
K_NONE, K_DRAW, K_WRITE, K_MARK, K_PASS = range(5)
BASE, AXIS, FULL, AC, BD = 1, 2, 4, 8, 16
NORMAL = BASE | AXIS | FULL
# the ends, as indices of the engine's ENDS
END_BONUSES, END_NO_ROLL, END_ROUND_LIMIT = 0, 1, 2
_UNIT_N = 1 << 53  # a uniform float in [0, 1) from 53 random bits, as random.random()
_UNIT = 1.0 / _UNIT_N

Config = tuple[
    np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray
]

# per block, what the greedy reads (``look``): its row, on the axis, its label (0: none, 1: A or B, 2: C or D,
# 3: another), its need (:func:`ziggurat.games.kukulkan.heuristic.needs`), its supports' mask
_L_ROW, _L_AXIS, _L_LABEL, _L_NEED, _L_SUPPORTS = range(5)


def unsupported(game: Game) -> str | None:
    """A sheet too large for 64-bit masks; every other setup (and every parameter) is played."""
    g: Any = game
    if g.S > MAX_BITS or g.B > MAX_BITS:
        return f"the sheet has {g.S} segments and {g.B} blocks; the kernel plays at most {MAX_BITS} of each"
    return None


def prepare(game: Game) -> Config:
    """The kernel's configuration of a :class:`~ziggurat.games.kukulkan.rules.KukulkanGame`."""
    g: Any = game
    sh = g.sheet
    cfg = np.zeros(_CFG, np.int64)
    cfg[_P] = g.num_players
    cfg[_S] = g.S
    cfg[_B] = g.B
    cfg[_WRITE0] = g.write0
    cfg[_MARK0] = g.mark0
    cfg[_PASS] = g.pass_id
    cfg[_SAME] = g.same_id
    cfg[_PLUS0] = g.plus0
    cfg[_SUPER0] = g.super0
    cfg[_A] = g.A
    cfg[_BK] = g.Bk
    cfg[_C] = g.C
    cfg[_D] = g.D
    cfg[_UPPER] = g.upper_mask
    cfg[_BASE] = g.base_mask
    cfg[_AXIS] = g.axis_mask
    cfg[_ALL] = g.all_blocks
    cfg[_EXTERNAL] = sum(1 << b for b in g.external)
    cfg[_MAX_LEN] = g.max_game_length
    cfg[_MAX_ROUNDS] = g.max_rounds
    cfg[_AXIS_POINTS] = g.axis_points
    cfg[_BLOCK_POINTS] = g.block_points
    cfg[_OBS] = tensor_size(game)
    cfg[_ACTIONS] = g.num_actions
    seg_ends = np.asarray(sh.seg_ends, np.int32).reshape(g.S, 2)
    width = max(len(segs) for segs in sh.point_segs)
    adj_seg = np.full((len(sh.points), width + 1), -1, np.int32)  # column 0: the degree
    adj_other = np.full((len(sh.points), width + 1), -1, np.int32)
    for p, segs in enumerate(sh.point_segs):
        adj_seg[p, 0] = len(segs)
        for i, s in enumerate(segs):
            a, b = sh.seg_ends[s]
            adj_seg[p, i + 1] = s
            adj_other[p, i + 1] = b if a == p else a
    outline = np.asarray(g.outline_mask, np.int64)
    supports = np.full((g.B, 2), -1, np.int32)
    for b, sup in enumerate(sh.supports):
        supports[b, : len(sup)] = sup
    printed = np.asarray(g.printed, np.int32)
    wit0 = _empty_sheet_trails(seg_ends, adj_seg, adj_other, g.S)
    need = needs(sh)
    look = np.zeros((g.B, 5), np.int64)
    for b, blk in enumerate(sh.blocks):
        look[b, _L_ROW] = blk.row
        look[b, _L_AXIS] = int(blk.axis)
        look[b, _L_LABEL] = 1 if blk.label in ("A", "B") else 2 if blk.label in ("C", "D") else 3 if blk.label else 0
        look[b, _L_NEED] = need[b]
        look[b, _L_SUPPORTS] = g.support_mask[b]
    return cfg, seg_ends, adj_seg, adj_other, outline, supports, printed, wit0, look


@jit_inline
def _count(mask: np.int64) -> int:
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


@jit_leaf
def _trail_find(
    adj_seg: np.ndarray,
    adj_other: np.ndarray,
    point: int,
    blocked: np.int64,
    k: int,
    st_pt: np.ndarray,
    st_i: np.ndarray,
    st_blk: np.ndarray,
) -> np.int64:
    """``blocked`` plus a trail of ``k`` >= 1 segments outside it starting at ``point`` (points may repeat); 0: none."""
    depth = 0
    st_pt[0] = point
    st_i[0] = 1
    st_blk[0] = blocked
    while depth >= 0:
        pt = st_pt[depth]
        i = st_i[depth]
        if i > adj_seg[pt, 0]:
            depth -= 1
            continue
        st_i[depth] = i + 1
        bit = np.int64(1) << adj_seg[pt, i]
        blk = st_blk[depth]
        if blk & bit:
            continue
        if depth + 1 == k:
            return blk | bit
        depth += 1
        st_pt[depth] = adj_other[pt, i]
        st_i[depth] = 1
        st_blk[depth] = blk | bit
    return np.int64(0)


@jit_inline
def _starts(
    seg_ends: np.ndarray,
    adj_seg: np.ndarray,
    adj_other: np.ndarray,
    s: int,
    drawn: np.int64,
    n: int,
    st_pt: np.ndarray,
    st_i: np.ndarray,
    st_blk: np.ndarray,
) -> np.int64:
    """A trail of exactly ``n`` undrawn segments beginning with the undrawn segment ``s`` (its mask; 0: none)."""
    bit = np.int64(1) << s
    if n == 1:
        return bit
    blk = drawn | bit
    found = _trail_find(adj_seg, adj_other, seg_ends[s, 0], blk, n - 1, st_pt, st_i, st_blk)
    if not found:
        found = _trail_find(adj_seg, adj_other, seg_ends[s, 1], blk, n - 1, st_pt, st_i, st_blk)
    return found & ~drawn


@jit_leaf
def _first(
    seg_ends: np.ndarray,
    adj_seg: np.ndarray,
    adj_other: np.ndarray,
    p: int,
    drawn: np.int64,
    n: int,
    fm: np.ndarray,
    fmd: np.ndarray,
    wit: np.ndarray,
    whole: bool,
    st_pt: np.ndarray,
    st_i: np.ndarray,
    st_blk: np.ndarray,
) -> np.int64:
    """The segments that can begin a trail of exactly ``n`` (``whole``), or any one of them (else; 0: none).

    A player's drawn mask only grows, so a segment that begins no trail never will
    again: ``fm[p, n]`` keeps a superset of the answer (the exact answer when
    ``fmd[p, n]`` is the drawn mask), and only its segments are tried. A trail
    found once (``wit[p, n, s]``) still proves ``s`` while none of it is drawn.
    """
    if fmd[p, n] == drawn:
        return fm[p, n]
    cand = fm[p, n] & ~drawn
    rest = cand
    while rest:
        s = low_bit(rest)
        bit = np.int64(1) << s
        rest ^= bit
        w = wit[p, n, s]
        if w == 0 or w & drawn:
            w = _starts(seg_ends, adj_seg, adj_other, s, drawn, n, st_pt, st_i, st_blk)
            wit[p, n, s] = w
        if w:
            if not whole:
                fm[p, n] = cand
                return bit
        else:
            cand &= ~bit
    fm[p, n] = cand
    fmd[p, n] = drawn
    return cand


@jit
def _empty_sheet_trails(seg_ends: np.ndarray, adj_seg: np.ndarray, adj_other: np.ndarray, nseg: int) -> np.ndarray:
    """``[n, s]``: a trail of ``n`` segments beginning with ``s`` on an empty sheet (0: none); every game starts so."""
    st_pt = np.zeros(DIE + 2, np.int64)
    st_i = np.zeros(DIE + 2, np.int64)
    st_blk = np.zeros(DIE + 2, np.int64)
    out = np.zeros((DIE + 1, nseg), np.int64)
    for n in range(1, DIE + 1):
        for s in range(nseg):
            out[n, s] = _starts(seg_ends, adj_seg, adj_other, s, np.int64(0), n, st_pt, st_i, st_blk)
    return out


@jit_inline
def _support_sum(supports: np.ndarray, values: np.ndarray, num: np.int64, p: int, b: int) -> int:
    """The sum of block ``b``'s supports on ``p``'s sheet (``num``: its numbered blocks), -1 while one is blank."""
    t = 0
    for j in range(2):
        x = supports[b, j]
        if x < 0:
            continue
        if not (num >> x) & 1:
            return -1
        t += values[p, x]
    return t


@jit_leaf
def _legal(
    cfg: np.ndarray,
    seg_ends: np.ndarray,
    adj_seg: np.ndarray,
    adj_other: np.ndarray,
    outline: np.ndarray,
    supports: np.ndarray,
    p: int,
    die: int,
    drawn: np.ndarray,
    values: np.ndarray,
    numbered: np.ndarray,
    marked: np.ndarray,
    helps: np.ndarray,
    claims: np.ndarray,
    pend: np.ndarray,
    pmask: np.ndarray,
    fm: np.ndarray,
    fmd: np.ndarray,
    wit: np.ndarray,
    st_pt: np.ndarray,
    st_i: np.ndarray,
    st_blk: np.ndarray,
    out: np.ndarray,
) -> int:
    """Write player ``p``'s legal actions (the engine's ids) into ``out``; return how many."""
    nblocks = cfg[_B]
    help_ = pend[p, 0]
    n = pend[p, 1]
    kind = pend[p, 2]
    count = 0
    if kind == K_DRAW:
        # continue the trail from its free end (either end of a one-segment trail)
        left = n - pend[p, 4]
        blocked = drawn[p] | pmask[p]
        for e in range(2):
            if pend[p, 4] == 1:
                end = seg_ends[pend[p, 5], e]
            elif e == 0:
                end = pend[p, 6]
            else:
                break
            for i in range(1, adj_seg[end, 0] + 1):
                s = adj_seg[end, i]
                bit = np.int64(1) << s
                if blocked & bit:
                    continue
                if left == 1 or _trail_find(adj_seg, adj_other, adj_other[end, i], blocked | bit, left - 1,
                                              st_pt, st_i, st_blk):  # fmt: skip
                    out[count] = s
                    count += 1
        return count
    d = drawn[p]
    num = numbered[p]
    closed = np.int64(0)
    for b in range(nblocks):
        if d & outline[b] == outline[b]:
            closed |= np.int64(1) << b
    # blocks that may take a number: blank, outline drawn, supports numbered; t = the supports' sum
    cand = cfg[_UPPER] & ~num & closed
    max_t = 0
    same_ok = False
    write0 = cfg[_WRITE0]
    for b in range(nblocks):
        if not (cand >> b) & 1:
            continue
        t = _support_sum(supports, values, num, p, b)
        if t < 0:
            continue
        if t == n:
            same_ok = True
            if help_ == H_SAME:
                out[count] = write0 + b
                count += 1
        if t > max_t:
            max_t = t
    if help_ == H_SAME:
        return count
    # draws: the segments that can begin a trail of exactly n
    first = _first(seg_ends, adj_seg, adj_other, p, d, n, fm, fmd, wit, True, st_pt, st_i, st_blk)
    rest = first
    while rest:
        s = low_bit(rest)
        rest ^= np.int64(1) << s
        out[count] = s
        count += 1
    for b in range(nblocks):
        if not (cand >> b) & 1:
            continue
        t = _support_sum(supports, values, num, p, b)
        if t > n:  # a write is lower than its supports (a blank support: -1)
            out[count] = write0 + b
            count += 1
    # marks: numbered, unmarked, a base block only with its outline drawn
    todo = num & ~marked[p] & (cfg[_UPPER] | closed)
    mark_vals = 0
    for b in range(nblocks):
        if (todo >> b) & 1:
            v = values[p, b]
            mark_vals |= 1 << v
            if v == n:
                out[count] = cfg[_MARK0] + b
                count += 1
    if help_ != H_NONE:
        return count
    if count == 0:
        out[0] = cfg[_PASS]
        count = 1
    used = helps[p]
    if not used & U_SAME and same_ok:
        out[count] = cfg[_SAME]
        count += 1
    perm = claims[p] & BASE
    plus = perm or not used & U_PLUS
    six = die == DIE and not used & U_SUPER
    if plus:
        lo = n - 1 if n > 1 else DIE
        hi = n + 1 if n < DIE else 1
        if lo > hi:
            lo, hi = hi, lo
        for m in (lo, hi):
            # a help is offered only if the changed value makes some action possible
            ok = max_t > m or (mark_vals >> m) & 1 != 0 or (first != 0 and m < n)
            if not ok:
                ok = _first(seg_ends, adj_seg, adj_other, p, d, m, fm, fmd, wit, False, st_pt, st_i, st_blk) != 0
            if ok:
                out[count] = cfg[_PLUS0] + m - 1
                count += 1
    if six:
        for m in range(1, DIE):
            # a help is offered only if the changed value makes some action possible
            ok = max_t > m or (mark_vals >> m) & 1 != 0 or (first != 0 and m < n)
            if not ok:
                ok = _first(seg_ends, adj_seg, adj_other, p, d, m, fm, fmd, wit, False, st_pt, st_i, st_blk) != 0
            if ok:
                out[count] = cfg[_SUPER0] + m - 1
                count += 1
    return count


@jit_inline
def _could_act(
    cfg: np.ndarray,
    supports: np.ndarray,
    p: int,
    drawn: np.ndarray,
    values: np.ndarray,
    numbered: np.ndarray,
    marked: np.ndarray,
    helps: np.ndarray,
) -> bool:
    """True if some roll, with a help ``p`` still holds, lets ``p`` act (the engine's ``could_act``).

    A roll of 1 draws any undrawn segment; once all are drawn every outline is closed, so a
    roll of its value marks any unmarked numbered block, and a roll of 1 writes any blank
    block whose supports are numbered and worth 2 or more (1 only with same-value unused).
    """
    if drawn[p] != (np.int64(1) << cfg[_S]) - 1:
        return True
    num = numbered[p]
    if num & ~marked[p]:
        return True
    same = not helps[p] & U_SAME
    blank = cfg[_UPPER] & ~num
    for b in range(cfg[_B]):
        if not (blank >> b) & 1:
            continue
        t = _support_sum(supports, values, num, p, b)
        if t > 1 or (t == 1 and same):
            return True
    return False


# the arrays of the batch (gs): per game and player, then the shared scratch
(_DRAWN, _NUMBERED, _MARKED, _VALUES, _HELPS, _CLAIMS, _BONUS, _PEND, _PMASK, _FM, _FMD, _WIT, _KEYS, _SC, _STACK,
 _ROLLS) = range(16)  # fmt: skip
# a game's scalars (gs[_SC][i]): the die, the rounds rolled, the players whose choice is not complete
_DIE, _ROUNDS, _WAITING = range(3)
# a player's pending choice (gs[_PEND][i, p]): help, value, kind, target, trail length, first segment, free end, done
_P_HELP, _P_VAL, _P_KIND, _P_TARGET, _P_LEN, _P_FIRST, _P_END, _P_DONE = range(8)


@jit
def _dims(conf: Config) -> tuple[int, int, int, int, int, int]:
    """(players, legal capacity, observation size, action ids, chance events per step, outcomes per step)."""
    cfg = conf[0]
    return cfg[_P], cfg[_S] + 2 * cfg[_B] + 2 * DIE + 2, cfg[_OBS], cfg[_ACTIONS], 1, DIE


@jit
def _new(conf: Config, count: int) -> tuple[Any, ...]:
    cfg = conf[0]
    p = cfg[_P]
    return (
        np.zeros((count, p), np.int64),
        np.zeros((count, p), np.int64),
        np.zeros((count, p), np.int64),
        np.zeros((count, p, cfg[_B]), np.int32),
        np.zeros((count, p), np.int64),
        np.zeros((count, p), np.int64),
        np.zeros((count, p), np.int64),
        np.zeros((count, p, 8), np.int64),
        np.zeros((count, p), np.int64),
        np.zeros((count, p, DIE + 1), np.int64),
        np.zeros((count, p, DIE + 1), np.int64),
        np.zeros((count, p, DIE + 1, cfg[_S]), np.int64),
        np.zeros((count, p), np.float64),
        np.zeros((count, 3), np.int64),
        np.zeros((3, DIE + 2), np.int64),  # the trail search's stack, shared by the batch
        np.arange(DIE).astype(np.int32),  # the die's outcomes (a roll of n is outcome n - 1)
    )


@jit_inline
def _decide(conf: Config, core: Any, gs: Any, i: int, start: int) -> None:
    """Who decides next: the first player from seat ``start`` on (cyclically) still choosing; and the legal actions."""
    cfg, seg_ends, adj_seg, adj_other, outline, supports = conf[0], conf[1], conf[2], conf[3], conf[4], conf[5]
    nplayers = cfg[_P]
    pend = gs[_PEND][i]
    p = start % nplayers
    while pend[p, _P_DONE]:
        p = (p + 1) % nplayers
    stack = gs[_STACK]
    core[ACTOR][i] = p
    core[NLEGAL][i] = _legal(
        cfg, seg_ends, adj_seg, adj_other, outline, supports, p, gs[_SC][i, _DIE], gs[_DRAWN][i], gs[_VALUES][i],
        gs[_NUMBERED][i], gs[_MARKED][i], gs[_HELPS][i], gs[_CLAIMS][i], pend, gs[_PMASK][i], gs[_FM][i],
        gs[_FMD][i], gs[_WIT][i], stack[0], stack[1], stack[2], core[LEGAL][i],
    )  # fmt: skip


@jit_inline
def _roll(conf: Config, core: Any, gs: Any, i: int) -> None:
    """A new round: the die is rolled (chance) and every player starts a choice with that number."""
    nplayers = conf[0][_P]
    sc = gs[_SC][i]
    sc[_ROUNDS] += 1
    die = draw(core, i, gs[_ROLLS], DIE) + 1
    sc[_DIE] = die
    sc[_WAITING] = nplayers
    pend = gs[_PEND][i]
    for q in range(nplayers):
        pend[q, _P_HELP] = H_NONE
        pend[q, _P_VAL] = die
        pend[q, _P_KIND] = K_NONE
        pend[q, _P_TARGET] = -1
        pend[q, _P_LEN] = 0
        pend[q, _P_FIRST] = -1
        pend[q, _P_END] = -1
        pend[q, _P_DONE] = 0
        gs[_PMASK][i, q] = 0
    _decide(conf, core, gs, i, 0)


@jit_leaf
def _reset(conf: Config, core: Any, gs: Any, i: int) -> None:
    """Every sheet starts empty (nothing drawn, the base printed, the trails of ``wit0``: see ``_first``); the roll."""
    cfg, printed, wit0 = conf[0], conf[6], conf[7]
    nplayers = cfg[_P]
    nseg = cfg[_S]
    nblocks = cfg[_B]
    fm = gs[_FM][i]
    fmd = gs[_FMD][i]
    wit = gs[_WIT][i]
    values = gs[_VALUES][i]
    for q in range(nplayers):
        gs[_DRAWN][i, q] = 0
        gs[_NUMBERED][i, q] = cfg[_BASE]
        gs[_MARKED][i, q] = 0
        gs[_HELPS][i, q] = 0
        gs[_CLAIMS][i, q] = 0
        gs[_BONUS][i, q] = 0
        for b in range(nblocks):
            values[q, b] = printed[b]
        for n in range(1, DIE + 1):
            mask = np.int64(0)
            for s in range(nseg):
                wit[q, n, s] = wit0[n, s]
                if wit0[n, s]:
                    mask |= np.int64(1) << s
            fm[q, n] = mask
            fmd[q, n] = 0
    gs[_SC][i, _ROUNDS] = 0
    _roll(conf, core, gs, i)


@jit_leaf
def _step(conf: Config, core: Any, gs: Any, i: int, j: int, action: int) -> None:
    """:func:`_step_at`, called (a batched environment's step)."""
    _step_at(conf, core, gs, i, j, action)


@jit_inline
def _step_at(conf: Config, core: Any, gs: Any, i: int, j: int, action: int) -> None:
    """The player to decide takes ``action`` (hidden until the round's last choice is in); then who decides next.

    When every choice is complete they are revealed and applied together, the
    bonuses are checked, and the game ends or the die is rolled again.
    """
    cfg, seg_ends = conf[0], conf[1]
    nplayers = cfg[_P]
    write0 = cfg[_WRITE0]
    mark0 = cfg[_MARK0]
    pass_id = cfg[_PASS]
    plus0 = cfg[_PLUS0]
    super0 = cfg[_SUPER0]
    sc = gs[_SC][i]
    pend = gs[_PEND][i]
    pmask = gs[_PMASK][i]
    claims = gs[_CLAIMS][i]
    p = core[ACTOR][i]
    if action < write0:
        bit = np.int64(1) << action
        if pend[p, 4] == 0:
            pend[p, 2] = K_DRAW
            pend[p, 5] = action
        else:
            a = seg_ends[action, 0]
            b = seg_ends[action, 1]
            if pend[p, 4] == 1:
                x = seg_ends[pend[p, 5], 0]
                joint = x if x == a or x == b else seg_ends[pend[p, 5], 1]
            else:
                joint = pend[p, 6]
            pend[p, 6] = b if a == joint else a
        pmask[p] |= bit
        pend[p, 4] += 1
        if pend[p, 4] == pend[p, 1]:
            pend[p, 7] = 1
    elif action < mark0:
        pend[p, 2] = K_WRITE
        pend[p, 3] = action - write0
        pend[p, 7] = 1
    elif action < pass_id:
        pend[p, 2] = K_MARK
        pend[p, 3] = action - mark0
        pend[p, 7] = 1
    elif action == pass_id:
        pend[p, 2] = K_PASS
        pend[p, 7] = 1
    elif action == cfg[_SAME]:
        pend[p, 0] = H_SAME
    elif action < super0:
        pend[p, 0] = H_PERM if claims[p] & BASE else H_PLUS
        pend[p, 1] = action - plus0 + 1
    else:
        pend[p, 0] = H_SUPER
        pend[p, 1] = action - super0 + 1
    if pend[p, 7]:
        sc[_WAITING] -= 1
    if sc[_WAITING] > 0:
        _decide(conf, core, gs, i, p + 1)
    else:
        # every choice is in: reveal and apply them together, check the bonuses, then the end
        claimed = _reveal(conf, gs, i)
        end = -1
        rounds = sc[_ROUNDS]
        if claimed & NORMAL == NORMAL:
            end = END_BONUSES
        else:
            stuck = True
            for q in range(nplayers):
                if _could_act_at(conf, gs, i, q):
                    stuck = False
                    break
            if stuck:
                end = END_NO_ROLL
            elif rounds >= cfg[_MAX_ROUNDS]:
                end = END_ROUND_LIMIT
        if end < 0:
            _roll(conf, core, gs, i)
        else:
            _score(conf, core, gs, i, end)


@jit_inline
def _could_act_at(conf: Config, gs: Any, i: int, q: int) -> bool:
    """:func:`_could_act` for player ``q`` of game ``i``."""
    return _could_act(conf[0], conf[5], q, gs[_DRAWN][i], gs[_VALUES][i], gs[_NUMBERED][i], gs[_MARKED][i],
                      gs[_HELPS][i])  # fmt: skip


@jit_inline
def _reveal(conf: Config, gs: Any, i: int) -> np.int64:
    """Apply every player's choice; the bonuses earned (normal ones once per player, first-to-claim ones for all
    who qualify this round); every bonus claimed by anyone."""
    cfg = conf[0]
    nplayers = cfg[_P]
    nblocks = cfg[_B]
    pend = gs[_PEND][i]
    pmask = gs[_PMASK][i]
    claims = gs[_CLAIMS][i]
    drawn = gs[_DRAWN][i]
    numbered = gs[_NUMBERED][i]
    marked = gs[_MARKED][i]
    values = gs[_VALUES][i]
    helps = gs[_HELPS][i]
    bonus = gs[_BONUS][i]
    for q in range(nplayers):
        h = pend[q, 0]
        if h == H_SAME:
            helps[q] |= U_SAME
        elif h == H_PLUS:
            helps[q] |= U_PLUS
        elif h == H_SUPER:
            helps[q] |= U_SUPER
        k = pend[q, 2]
        if k == K_DRAW:
            drawn[q] |= pmask[q]
        elif k == K_WRITE:
            b = pend[q, 3]
            values[q, b] = pend[q, 1]
            numbered[q] |= np.int64(1) << b
        elif k == K_MARK:
            marked[q] |= np.int64(1) << pend[q, 3]
    a_bit = np.int64(1) << cfg[_A]
    c_bit = np.int64(1) << cfg[_C]
    b_bit = np.int64(1) << cfg[_BK]
    d_bit = np.int64(1) << cfg[_D]
    ac_open = True
    bd_open = True
    for q in range(nplayers):
        if claims[q] & AC:
            ac_open = False
        if claims[q] & BD:
            bd_open = False
    claimed = np.int64(0)
    for q in range(nplayers):
        c = claims[q]
        m = marked[q]
        if not c & BASE and cfg[_BASE] & ~m == 0:
            c |= BASE
        if not c & AXIS and cfg[_AXIS] & ~m == 0:
            c |= AXIS
            bonus[q] += cfg[_AXIS_POINTS]
        if not c & FULL and numbered[q] == cfg[_ALL]:
            c |= FULL
            top = 0
            for b in range(nblocks):
                if (cfg[_EXTERNAL] >> b) & 1 and values[q, b] > top:
                    top = values[q, b]
            bonus[q] += top
        if ac_open and m & (a_bit | c_bit) == (a_bit | c_bit):
            c |= AC
            bonus[q] += abs(values[q, cfg[_C]] - values[q, cfg[_A]])
        if bd_open and m & (b_bit | d_bit) == (b_bit | d_bit):
            c |= BD
            bonus[q] += abs(values[q, cfg[_D]] - values[q, cfg[_BK]])
        claims[q] = c
        claimed |= c
    return claimed


@jit_leaf
def _score(conf: Config, core: Any, gs: Any, i: int, end: int) -> None:
    """The game is over by ``end``. Scores: marked blocks plus bonuses; ties broken by marked blocks, then shared."""
    cfg = conf[0]
    scores = core[SCORES][i]
    keys = gs[_KEYS][i]
    for q in range(cfg[_P]):
        count = _count(gs[_MARKED][i, q])
        scores[q] = cfg[_BLOCK_POINTS] * count + gs[_BONUS][i, q]
        keys[q] = scores[q] * 64 + count
    competition_ranks(keys, core[RANKS][i])
    gs[_SC][i, _DIE] = 0
    finish(core, i, end)


@jit_leaf
def _encode(conf: Config, core: Any, gs: Any, i: int, seat: int, out: np.ndarray, again: bool) -> None:
    """:func:`ziggurat.games.kukulkan.encode.tensor` of ``view(seat)`` (at a decision or at the end).

    Of this round's choices the seat sees its own, and of the others only whether each is complete.
    """
    cfg = conf[0]
    nplayers = cfg[_P]
    nseg = cfg[_S]
    nblocks = cfg[_B]
    sc = gs[_SC][i]
    pend = gs[_PEND][i]
    drawn = gs[_DRAWN][i]
    marked = gs[_MARKED][i]
    values = gs[_VALUES][i]  # 0: blank (the view's None)
    helps = gs[_HELPS][i]
    claims = gs[_CLAIMS][i]
    over = core[ACTOR][i] == TERMINAL  # else the choosing phase: decisions are taken only there
    out[:] = 0.0
    per = nseg + 3 * nblocks + 11
    for k in range(nplayers):
        q = (seat + k) % nplayers  # the viewer first
        o = k * per
        d = drawn[q]
        for s in range(nseg):
            if (d >> s) & 1:
                out[o + s] = 1.0
        o += nseg
        for b in range(nblocks):
            v = values[q, b]
            if v != 0:
                out[o + 3 * b] = 1.0
                out[o + 3 * b + 1] = v / 6.0
            if (marked[q] >> b) & 1:
                out[o + 3 * b + 2] = 1.0
        o += 3 * nblocks
        used = helps[q]
        out[o] = 1.0 if used & U_SAME else 0.0
        out[o + 1] = 1.0 if used & U_PLUS else 0.0
        out[o + 2] = 1.0 if used & U_SUPER else 0.0
        c = claims[q]
        out[o + 3] = 1.0 if c & BASE else 0.0
        for t in range(5):  # base, axis, full, A-C, B-D
            out[o + 4 + t] = 1.0 if (c >> t) & 1 else 0.0
        out[o + 9] = min(1.0, gs[_BONUS][i, q] / 20.0)
        out[o + 10] = 1.0 if not over and pend[q, _P_DONE] else 0.0
    t = nplayers * per
    if not over:
        out[t + sc[_DIE] - 1] = 1.0
    out[t + 6 + (2 if over else 1)] = 1.0  # the phase: roll, choose, over
    out[t + 9] = min(1.0, sc[_ROUNDS] / cfg[_MAX_ROUNDS])
    if over:
        return
    # the seat's own pending choice: help (none last), value, kind (none last), trail
    h = pend[seat, _P_HELP]
    out[t + 10 + (h - 1 if h != H_NONE else 4)] = 1.0
    out[t + 15 + pend[seat, _P_VAL] - 1] = 1.0
    kind = pend[seat, _P_KIND]
    out[t + 21 + (kind - 1 if kind != K_NONE else 4)] = 1.0
    trail = gs[_PMASK][i, seat]
    for s in range(nseg):
        if (trail >> s) & 1:
            out[t + 26 + s] = 1.0


@jit_inline
def _g_mark(cfg: np.ndarray, look: np.ndarray, marked: np.int64, b: int) -> float:
    """:meth:`ziggurat.games.kukulkan.heuristic._Look.mark`."""
    after = marked | (np.int64(1) << b)
    score = 100.0 + 6 * look[b, _L_AXIS] + 6 * (look[b, _L_ROW] == 0) + 3 * (look[b, _L_LABEL] != 0)
    base, axis = cfg[_BASE], cfg[_AXIS]
    if (base >> b) & 1 and base & ~after == 0:
        score += 25  # completes the base bonus
    if (axis >> b) & 1 and axis & ~after == 0:
        score += 25  # completes the axis bonus
    return score


@jit_inline
def _g_write(cfg: np.ndarray, look: np.ndarray, numbered: np.int64, b: int, n: int, t: int) -> float:
    """:meth:`ziggurat.games.kukulkan.heuristic._Look.write`: ``n`` in ``b`` over supports worth ``t``."""
    need = look[b, _L_NEED]
    if n < need:
        return 4.0  # strands the column above
    score = 50.0
    if need > 1:
        score += 12 - 4 * min(3, max(0, min(t - 1, DIE) - n))
    else:
        score += 0.3 * n
    label = look[b, _L_LABEL]
    if label == 2:
        score += n
    elif label == 1:
        score += DIE - n
    if look[b, _L_AXIS]:
        score += 4
    if numbered | (np.int64(1) << b) == cfg[_ALL]:
        score += 25  # the full bonus
    return score


@jit_inline
def _g_draw(
    cfg: np.ndarray, outline: np.ndarray, look: np.ndarray, blocked: np.int64, numbered: np.int64,
    marked: np.int64, a: int,
) -> float:  # fmt: skip
    """:meth:`ziggurat.games.kukulkan.heuristic._Look.draw` of segment ``a`` (``blocked``: drawn, pending, ``a``)."""
    score = DRAW_BASE
    for b in range(cfg[_B]):
        o = outline[b]
        if not (o >> a) & 1:
            continue
        missing = _count(o & ~blocked)
        row = look[b, _L_ROW]
        if row == 0:
            weight = 2.0 if not (marked >> b) & 1 else 0.5
        elif (numbered >> b) & 1:
            weight = 0.5
        elif look[b, _L_SUPPORTS] & ~numbered == 0:
            weight = 2.0  # writable once closed
        else:
            weight = 1.0
        if look[b, _L_AXIS]:
            weight *= 1.5
        score += weight * 2.0 / (1 + missing) + (4 - row) * 0.1
    return score


@jit_leaf
def _g_best_with(conf: Config, gs: Any, i: int, p: int, m: int) -> float:
    """:meth:`ziggurat.games.kukulkan.heuristic._Look.best_with`: the best action a value of ``m`` would allow."""
    cfg, seg_ends, adj_seg, adj_other, outline, supports, look = (
        conf[0], conf[1], conf[2], conf[3], conf[4], conf[5], conf[8]
    )  # fmt: skip
    d = gs[_DRAWN][i, p]
    num = gs[_NUMBERED][i, p]
    marked = gs[_MARKED][i, p]
    values = gs[_VALUES][i]
    closed = np.int64(0)
    for b in range(cfg[_B]):
        if d & outline[b] == outline[b]:
            closed |= np.int64(1) << b
    best = 0.0
    todo = num & ~marked & (cfg[_UPPER] | closed)
    cand = cfg[_UPPER] & ~num & closed
    for b in range(cfg[_B]):
        if (todo >> b) & 1 and values[p, b] == m:
            best = max(best, _g_mark(cfg, look, marked, b))
    for b in range(cfg[_B]):
        if (cand >> b) & 1:
            t = _support_sum(supports, values, num, p, b)
            if t > m:
                best = max(best, _g_write(cfg, look, num, b, m, t))
    if best < DRAW_BASE + 2:
        stack = gs[_STACK]
        first = _first(seg_ends, adj_seg, adj_other, p, d, m, gs[_FM][i], gs[_FMD][i], gs[_WIT][i], False,
                       stack[0], stack[1], stack[2])  # fmt: skip
        if first != 0:
            best = max(best, DRAW_BASE + 2)
    return best


@jit_leaf
def _g_score(conf: Config, gs: Any, i: int, p: int, a: int) -> float:
    """:meth:`ziggurat.games.kukulkan.heuristic._Look.score` of action ``a`` for ``p`` (its own sheet and choice)."""
    cfg, outline, supports, look = conf[0], conf[4], conf[5], conf[8]
    pend = gs[_PEND][i]
    n = pend[p, _P_VAL]
    num = gs[_NUMBERED][i, p]
    marked = gs[_MARKED][i, p]
    values = gs[_VALUES][i]
    if a < cfg[_WRITE0]:
        blocked = gs[_DRAWN][i, p] | gs[_PMASK][i, p] | (np.int64(1) << a)
        return _g_draw(cfg, outline, look, blocked, num, marked, a)
    if a < cfg[_MARK0]:
        b = a - cfg[_WRITE0]
        return _g_write(cfg, look, num, b, n, _support_sum(supports, values, num, p, b))
    if a < cfg[_PASS]:
        return _g_mark(cfg, look, marked, a - cfg[_MARK0])
    if a == cfg[_PASS]:
        return 0.0
    if pend[p, _P_HELP] != H_NONE or pend[p, _P_KIND] == K_DRAW:
        return -1.0
    if a == cfg[_SAME]:
        d = gs[_DRAWN][i, p]
        cand = cfg[_UPPER] & ~num
        best = 0.0
        for b in range(cfg[_B]):
            if not (cand >> b) & 1 or d & outline[b] != outline[b]:
                continue
            t = _support_sum(supports, values, num, p, b)
            if t == n:
                best = max(best, _g_write(cfg, look, num, b, t, t))
        return best - HELP_COST
    if a < cfg[_SUPER0]:
        cost = 0.5 if gs[_CLAIMS][i, p] & BASE else HELP_COST
        return _g_best_with(conf, gs, i, p, a - cfg[_PLUS0] + 1) - cost
    return _g_best_with(conf, gs, i, p, a - cfg[_SUPER0] + 1) - HELP_COST


@jit_leaf
def _greedy(conf: Config, core: Any, gs: Any, i: int) -> int:
    """:func:`ziggurat.games.kukulkan.heuristic.heuristic` for the player to decide: the legal index it plays.

    Every legal action is scored as the heuristic scores it, plus a uniform
    draw from the opponents' RNG times 0.01 (its tie-break); the highest wins.
    It reads the player's own sheet and pending choice only: the other
    players' choices this round stay hidden until all are in.
    """
    n = core[NLEGAL][i]
    if n == 1:
        return 0
    p = core[ACTOR][i]
    best = 0
    best_score = -np.inf
    for j in range(n):
        u = below_at(core[ORNG], i, _UNIT_N) * _UNIT
        score = _g_score(conf, gs, i, p, core[LEGAL][i, j]) + u * 0.01
        if score > best_score:
            best = j
            best_score = score
    return best


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
    """Play one random game per seed: (scores, ranks, decisions, steps, ends)."""
    return _play(config, np.ascontiguousarray(seeds, np.uint64))


def trace(config: Config, seed: int) -> tuple[object, ...]:
    """The game of ``seed`` step by step (see :class:`~ziggurat.core.kernel.Trace`)."""
    return _trace(config, np.uint64(seed))


KERNEL = GameKernel(
    "kukulkan", unsupported, prepare, play, trace, StepKernel(_dims, _new, _vreset, _vstep, greedy=True)
)
