"""Kukulkán compiled (numba) for batches of random games: the ``fast`` extra.

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

Every player chooses uniformly among the engine's legal actions at each atomic
decision. Within a round the players decide in turn, one atomic decision each,
as the engine's drivers do (``Match.run_bots``, ``random_playout``); a player
whose choice is complete drops out until the next roll. The trace records the
player of each step, so the engine replays it with ``apply_action(a, player)``.

A sheet is arrays: segment masks fit in 64 bits, so a user's sheet may have up
to 63 segments and 63 blocks. Trails are searched depth first with an explicit
stack (at most six segments deep). A player's drawn segments only grow, so a
segment that begins no trail of ``n`` never will again, and a trail found once
proves its first segment until one of its segments is drawn (``_first``). The
game loop and its helpers are :func:`~ziggurat.core.jit.jit_leaf` functions:
they allocate nothing, so no call pays for reference counting.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ziggurat.core.jit import below, competition_ranks, jit, jit_inline, jit_leaf, low_bit, put_step, seed_rng
from ziggurat.core.kernel import GameKernel

if TYPE_CHECKING:
    from ziggurat.core.game import Game

CHANCE = -1
DIE = 6
MAX_BITS = 63

# cfg fields
(_P, _S, _B, _WRITE0, _MARK0, _PASS, _SAME, _PLUS0, _SUPER0, _A, _BK, _C, _D, _UPPER, _BASE, _AXIS, _ALL,
 _EXTERNAL, _MAX_LEN, _MAX_ROUNDS) = range(20)  # fmt: skip
_CFG = 20

# the round's help, the used one-use helps, the kind of choice, the bonuses (as in the engine)
H_NONE, H_SAME, H_PLUS, H_SUPER, H_PERM = range(5)
U_SAME, U_PLUS, U_SUPER = 1, 2, 4
K_NONE, K_DRAW, K_WRITE, K_MARK, K_PASS = range(5)
BASE, AXIS, FULL, AC, BD = 1, 2, 4, 8, 16
NORMAL = BASE | AXIS | FULL
AXIS_POINTS = 3
# the ends, as indices of the engine's ENDS
END_BONUSES, END_NO_ROLL, END_ROUND_LIMIT = 0, 1, 2

Config = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def unsupported(game: Game) -> str | None:
    """A sheet too large for 64-bit masks, or a parameter the kernel does not play yet; every other setup is played."""
    g: Any = game
    if g.S > MAX_BITS or g.B > MAX_BITS:
        return f"the sheet has {g.S} segments and {g.B} blocks; the kernel plays at most {MAX_BITS} of each"
    if g.axis_points != AXIS_POINTS:
        return f"the kernel plays the printed axis bonus ({AXIS_POINTS} points), not axis-bonus={g.axis_points}"
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
    return cfg, seg_ends, adj_seg, adj_other, outline, supports, printed, wit0


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


@jit_leaf
def _run(
    cfg: np.ndarray,
    seg_ends: np.ndarray,
    adj_seg: np.ndarray,
    adj_other: np.ndarray,
    outline: np.ndarray,
    supports: np.ndarray,
    printed: np.ndarray,
    wit0: np.ndarray,
    seed: np.uint64,
    ws: tuple[np.ndarray, ...],
    scores: np.ndarray,
    ranks: np.ndarray,
    tracing: bool,
    tr_actor: np.ndarray,
    tr_action: np.ndarray,
    tr_off: np.ndarray,
    tr_legal: np.ndarray,
) -> tuple[int, int, int, bool]:
    """Play one game from ``seed`` in the workspace ``ws``; fill ``scores`` and ``ranks``.

    Returns (decisions, steps, the end, whether the whole trace fitted in the buffers).
    """
    rng, drawn, numbered, marked, values, helps, claims, bonus, pend, pmask, fm, fmd, wit, st_pt, st_i, st_blk, \
        legal, rolls, keys = ws  # fmt: skip
    nplayers = cfg[_P]
    nseg = cfg[_S]
    nblocks = cfg[_B]
    write0 = cfg[_WRITE0]
    mark0 = cfg[_MARK0]
    pass_id = cfg[_PASS]
    plus0 = cfg[_PLUS0]
    super0 = cfg[_SUPER0]
    seed_rng(rng, seed)
    # every sheet starts empty: nothing drawn, the base printed, the trails of wit0 (see _first)
    for q in range(nplayers):
        drawn[q] = 0
        numbered[q] = cfg[_BASE]
        marked[q] = 0
        helps[q] = 0
        claims[q] = 0
        bonus[q] = 0
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
    fits = True
    steps = 0
    decisions = 0
    a_bit = np.int64(1) << cfg[_A]
    c_bit = np.int64(1) << cfg[_C]
    b_bit = np.int64(1) << cfg[_BK]
    d_bit = np.int64(1) << cfg[_D]
    rounds = 0
    end = -1

    while True:
        # the roll
        rounds += 1
        die = below(rng, DIE) + 1
        if tracing:
            fits = fits and put_step(tr_actor, tr_action, tr_off, tr_legal, steps, CHANCE, die - 1, rolls, DIE)
        steps += 1
        for q in range(nplayers):
            pend[q, 0] = H_NONE
            pend[q, 1] = die
            pend[q, 2] = K_NONE
            pend[q, 3] = -1
            pend[q, 4] = 0
            pend[q, 5] = -1
            pend[q, 6] = -1
            pend[q, 7] = 0
            pmask[q] = 0
        # every player's choice, one atomic decision each in turn
        waiting = nplayers
        while waiting > 0:
            for p in range(nplayers):
                if pend[p, 7]:
                    continue
                n = _legal(cfg, seg_ends, adj_seg, adj_other, outline, supports, p, die, drawn, values, numbered,
                           marked, helps, claims, pend, pmask, fm, fmd, wit, st_pt, st_i, st_blk, legal)  # fmt: skip
                action = legal[below(rng, n)]
                if tracing:
                    fits = fits and put_step(tr_actor, tr_action, tr_off, tr_legal, steps, p, action, legal, n)
                steps += 1
                decisions += 1
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
                    waiting -= 1

        # every choice is in: reveal and apply them together
        for p in range(nplayers):
            h = pend[p, 0]
            if h == H_SAME:
                helps[p] |= U_SAME
            elif h == H_PLUS:
                helps[p] |= U_PLUS
            elif h == H_SUPER:
                helps[p] |= U_SUPER
            k = pend[p, 2]
            if k == K_DRAW:
                drawn[p] |= pmask[p]
            elif k == K_WRITE:
                b = pend[p, 3]
                values[p, b] = pend[p, 1]
                numbered[p] |= np.int64(1) << b
            elif k == K_MARK:
                marked[p] |= np.int64(1) << pend[p, 3]
        # bonuses: normal ones once per player; first-to-claim ones for all who qualify this round
        ac_open = True
        bd_open = True
        for p in range(nplayers):
            if claims[p] & AC:
                ac_open = False
            if claims[p] & BD:
                bd_open = False
        claimed = 0
        for p in range(nplayers):
            c = claims[p]
            m = marked[p]
            if not c & BASE and cfg[_BASE] & ~m == 0:
                c |= BASE
            if not c & AXIS and cfg[_AXIS] & ~m == 0:
                c |= AXIS
                bonus[p] += AXIS_POINTS
            if not c & FULL and numbered[p] == cfg[_ALL]:
                c |= FULL
                top = 0
                for b in range(nblocks):
                    if (cfg[_EXTERNAL] >> b) & 1 and values[p, b] > top:
                        top = values[p, b]
                bonus[p] += top
            if ac_open and m & (a_bit | c_bit) == (a_bit | c_bit):
                c |= AC
                bonus[p] += abs(values[p, cfg[_C]] - values[p, cfg[_A]])
            if bd_open and m & (b_bit | d_bit) == (b_bit | d_bit):
                c |= BD
                bonus[p] += abs(values[p, cfg[_D]] - values[p, cfg[_BK]])
            claims[p] = c
            claimed |= c
        if claimed & NORMAL == NORMAL:
            end = END_BONUSES
        else:
            stuck = True
            for p in range(nplayers):
                if _could_act(cfg, supports, p, drawn, values, numbered, marked, helps):
                    stuck = False
                    break
            if stuck:
                end = END_NO_ROLL
            elif rounds >= cfg[_MAX_ROUNDS]:
                end = END_ROUND_LIMIT
        if end >= 0:
            break

    # scores: marked blocks plus bonuses; ties broken by marked blocks, then shared
    for q in range(nplayers):
        count = _count(marked[q])
        scores[q] = count + bonus[q]
        keys[q] = scores[q] * 64 + count
    competition_ranks(keys, ranks)
    return decisions, steps, end, fits


@jit
def _workspace(cfg: np.ndarray) -> tuple[np.ndarray, ...]:
    p = cfg[_P]
    nseg = cfg[_S]
    nblocks = cfg[_B]
    rng = np.zeros(1, np.uint64)
    drawn = np.zeros(p, np.int64)
    numbered = np.zeros(p, np.int64)
    marked = np.zeros(p, np.int64)
    values = np.zeros((p, nblocks), np.int32)
    helps = np.zeros(p, np.int64)
    claims = np.zeros(p, np.int64)
    bonus = np.zeros(p, np.int64)
    # the pending choice: help, value, kind, target, trail length, first segment, free end, done
    pend = np.zeros((p, 8), np.int64)
    pmask = np.zeros(p, np.int64)
    fm = np.zeros((p, DIE + 1), np.int64)
    fmd = np.zeros((p, DIE + 1), np.int64)
    wit = np.zeros((p, DIE + 1, nseg), np.int64)
    st_pt = np.zeros(DIE + 2, np.int64)
    st_i = np.zeros(DIE + 2, np.int64)
    st_blk = np.zeros(DIE + 2, np.int64)
    legal = np.zeros(nseg + 2 * nblocks + 2 * DIE + 2, np.int32)
    rolls = np.arange(DIE).astype(np.int32)
    keys = np.zeros(p, np.float64)
    return (rng, drawn, numbered, marked, values, helps, claims, bonus, pend, pmask, fm, fmd, wit, st_pt, st_i,
            st_blk, legal, rolls, keys)  # fmt: skip


@jit
def _play(
    cfg: np.ndarray,
    seg_ends: np.ndarray,
    adj_seg: np.ndarray,
    adj_other: np.ndarray,
    outline: np.ndarray,
    supports: np.ndarray,
    printed: np.ndarray,
    wit0: np.ndarray,
    seeds: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    count = seeds.shape[0]
    nplayers = cfg[_P]
    scores = np.zeros((count, nplayers), np.float64)
    ranks = np.zeros((count, nplayers), np.int32)
    decisions = np.zeros(count, np.int32)
    steps = np.zeros(count, np.int32)
    ends = np.zeros(count, np.int8)
    ws = _workspace(cfg)
    dummy = np.zeros(1, np.int32)
    for g in range(count):
        d, s, e, _ = _run(
            cfg, seg_ends, adj_seg, adj_other, outline, supports, printed, wit0, seeds[g], ws, scores[g], ranks[g],
            False, dummy, dummy, dummy, dummy,
        )  # fmt: skip
        decisions[g] = d
        steps[g] = s
        ends[g] = e
    return scores, ranks, decisions, steps, ends


@jit
def _trace(
    cfg: np.ndarray,
    seg_ends: np.ndarray,
    adj_seg: np.ndarray,
    adj_other: np.ndarray,
    outline: np.ndarray,
    supports: np.ndarray,
    printed: np.ndarray,
    wit0: np.ndarray,
    seed: np.uint64,
    room: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, int, bool]:
    max_len = cfg[_MAX_LEN]
    tr_actor = np.zeros(max_len, np.int32)
    tr_action = np.zeros(max_len, np.int32)
    tr_off = np.zeros(max_len + 1, np.int32)
    tr_legal = np.zeros(room, np.int32)
    scores = np.zeros(cfg[_P], np.float64)
    ranks = np.zeros(cfg[_P], np.int32)
    _, steps, end, fits = _run(
        cfg, seg_ends, adj_seg, adj_other, outline, supports, printed, wit0, seed, _workspace(cfg), scores, ranks,
        True, tr_actor, tr_action, tr_off, tr_legal,
    )  # fmt: skip
    kept = min(steps, max_len)
    return (tr_actor[:kept], tr_action[:kept], tr_off[: kept + 1], tr_legal[: tr_off[kept]], scores, ranks, end,
            steps, fits)  # fmt: skip


def play(config: Config, seeds: np.ndarray) -> tuple[np.ndarray, ...]:
    """Play one random game per seed: (scores, ranks, decisions, steps, ends)."""
    return _play(*config, np.ascontiguousarray(seeds, np.uint64))


def trace(config: Config, seed: int) -> tuple[object, ...]:
    """The game of ``seed`` step by step (see :class:`~ziggurat.core.kernel.Trace`)."""
    room = 1 << 15
    while True:
        *out, steps, fits = _trace(*config, np.uint64(seed), room)
        if fits:
            return tuple(out)
        if steps > config[0][_MAX_LEN]:
            raise RuntimeError(f"the Kukulkán kernel's game of seed {seed} is longer than the engine's bound")
        room *= 4  # the legal sets did not fit: the same game again with more room


KERNEL = GameKernel("kukulkan", unsupported, prepare, play, trace)
