"""A one-move-ahead greedy policy for Kukulkán that plays for the three normal bonuses.

The game ends once each normal bonus (base, axis, full) has been claimed by
someone, so the policy builds toward them:

* **Marks** first (a point now, and the base and axis bonuses need every one of
  their blocks marked): axis and base blocks before the rest, a mark that
  completes a bonus before any.
* **Writes** keep every block above writable: a block resting on one support
  must show less than it, so a column of blocks on single supports falls one
  value at a time — the axis from the base's 6: 5, 4, 3, 2. A write may not
  leave a block too low for the column above it (its *need*); within that, the
  highest value its supports allow is best (the number that falls "one at a
  time"), and C and D high, A and B low serve the first-to-claim differences.
  A write that would strand the blocks above loses to a draw.
* **Draws** close the outlines that matter: blocks whose supports are numbered
  (writable once closed), base blocks (markable once closed), the axis, lower
  rows first.
* A **help** is taken when the value it makes allows a clearly better action
  than the roll (an exact mark, a write at the right height); the permanent
  plus/minus one of the base bonus costs nothing, a one-use help a little.
* **Pass** last.
"""

from __future__ import annotations

import random
from functools import cache

from ziggurat.core.game import State
from ziggurat.games.kukulkan.rules import DIE, H_NONE, K_DRAW, KukulkanState
from ziggurat.games.kukulkan.sheet import Sheet

# what a one-use help costs against the action it would allow (the permanent one is free)
HELP_COST = 12.0
DRAW_BASE = 10.0


@cache
def needs(sheet: Sheet) -> tuple[int, ...]:
    """Per block: the least value it must show so that every block resting on it alone can still be numbered.

    A block resting on a single support must be lower than it, so a column of single-support
    blocks needs its foot at least as high as the column above it is tall: the axis over the
    printed 6 needs at least 4, 3, 2 and 1 from the bottom up. Blocks resting on two add their
    supports, which leaves room to spare, so they ask nothing of either.
    """
    need = [1] * len(sheet.blocks)
    for b in sorted(range(len(sheet.blocks)), key=lambda x: -sheet.blocks[x].row):
        for x, sup in enumerate(sheet.supports):
            if sup == (b,):
                need[b] = max(need[b], need[x] + 1)
    return tuple(need)


def heuristic(state: State, player: int, rng: random.Random) -> int:
    """The greedy action for ``player`` in ``state`` (a determinisation)."""
    legal = state.legal_actions(player)
    if len(legal) == 1 or not isinstance(state, KukulkanState):
        return legal[int(rng.random() * len(legal))] if len(legal) > 1 else legal[0]
    look = _Look(state, player)
    best, best_score = legal[0], float("-inf")
    for a in legal:
        score = look.score(a) + rng.random() * 0.01
        if score > best_score:
            best, best_score = a, score
    return best


class _Look:
    """One player's sheet as the policy reads it, for one decision."""

    def __init__(self, st: KukulkanState, p: int):
        g = st.game
        self.st, self.p, self.g = st, p, g
        self.sheet = g.sheet
        self.need = needs(g.sheet)
        self.n = st.p_val[p]
        self.writes = dict(st._writable(p))  # block -> the sum of its supports
        self.marked = st.marked[p]
        self.numbered = st.numbered[p]

    def score(self, a: int) -> float:
        g = self.g
        if a < g.write0:
            return self.draw(a)
        if a < g.mark0:
            b = a - g.write0
            return self.write(b, self.n, self.writes.get(b, self.n + 1))
        if a < g.pass_id:
            return self.mark(a - g.mark0)
        if a == g.pass_id:
            return 0.0
        return self.help(a)

    # ------------------------------------------------------------ actions
    def mark(self, b: int) -> float:
        blk = self.sheet.blocks[b]
        g = self.g
        after = self.marked | 1 << b
        score = 100.0 + 6 * blk.axis + 6 * (blk.row == 0) + 3 * bool(blk.label)
        for group in (g.base_mask, g.axis_mask):
            if group >> b & 1 and group & ~after == 0:
                score += 25  # completes the base or the axis bonus
        return score

    def write(self, b: int, n: int, t: int) -> float:
        """Writing ``n`` in ``b`` over supports worth ``t`` (``n == t``: with same-value)."""
        need = self.need[b]
        if n < need:
            return 4.0  # strands the column above: worse than a draw, better than nothing
        blk = self.sheet.blocks[b]
        score = 50.0
        if need > 1:
            # a column block: the higher the better, the ideal falling one below its support
            score += 12 - 4 * min(3, max(0, min(t - 1, DIE) - n))
        else:
            score += 0.3 * n
        if blk.label in ("C", "D"):
            score += n
        elif blk.label in ("A", "B"):
            score += DIE - n
        if blk.axis:
            score += 4
        if self.numbered | 1 << b == self.g.all_blocks:
            score += 25  # the full bonus
        return score

    def draw(self, a: int) -> float:
        st, p, g = self.st, self.p, self.g
        blocked = st.drawn[p] | st.p_mask[p] | (1 << a)
        score = DRAW_BASE
        for b in range(g.B):
            outline = g.outline_mask[b]
            if not outline >> a & 1:
                continue
            missing = (outline & ~blocked).bit_count()
            blk = self.sheet.blocks[b]
            if blk.row == 0:
                weight = 2.0 if not self.marked >> b & 1 else 0.5
            elif self.numbered >> b & 1:
                weight = 0.5
            elif g.support_mask[b] & ~self.numbered == 0:
                weight = 2.0  # writable once closed
            else:
                weight = 1.0
            weight *= 1.5 if blk.axis else 1.0
            score += weight * 2.0 / (1 + missing) + (4 - blk.row) * 0.1
        return score

    # --------------------------------------------------------------- helps
    def help(self, a: int) -> float:
        st, p, g = self.st, self.p, self.g
        if st.p_help[p] != H_NONE or st.p_kind[p] == K_DRAW:
            return -1.0
        if a == g.same_id:
            best = max((self.write(b, t, t) for b, t in self.writes.items() if t == self.n), default=0.0)
            return best - HELP_COST
        m = (a - g.plus0 + 1) if a < g.super0 else (a - g.super0 + 1)
        free = a < g.super0 and st.has_permanent(p)
        return self.best_with(m) - (0.5 if free else HELP_COST)

    def best_with(self, m: int) -> float:
        """The best action a value of ``m`` would allow (a draw's worth estimated)."""
        st, p, g = self.st, self.p, self.g
        best = 0.0
        for b, v in st._markable(p):
            if v == m:
                best = max(best, self.mark(b))
        for b, t in self.writes.items():
            if t > m:
                best = max(best, self.write(b, m, t))
        if best < DRAW_BASE + 2 and g.can_draw(st.drawn[p], m):
            best = max(best, DRAW_BASE + 2)
        return best


def value(state: State, player: int) -> float:
    """``player``'s points so far (marked blocks and bonuses): the final score at the end."""
    assert isinstance(state, KukulkanState)
    return float(state.score(player))
