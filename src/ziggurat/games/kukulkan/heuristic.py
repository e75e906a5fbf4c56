"""A one-move-ahead greedy policy for Kukulkán, written from the rules.

Order of preference: mark a block (a point now, bonus progress); write a number
(prefer high numbers under blocks that rest on one support, high C/D and low A/B
for the first-to-claim bonuses); draw segments that close nearly finished block
outlines, lower rows first; a help only when it turns the die into a mark or a
write; pass last.
"""

from __future__ import annotations

import random

from ziggurat.core.game import State
from ziggurat.games.kukulkan.rules import H_NONE, K_DRAW, KukulkanState


def heuristic(state: State, player: int, rng: random.Random) -> int:
    """The greedy action for ``player`` in ``state`` (a determinisation)."""
    legal = state.legal_actions(player)
    if len(legal) == 1 or not isinstance(state, KukulkanState):
        return legal[int(rng.random() * len(legal))] if len(legal) > 1 else legal[0]
    best, best_score = legal[0], float("-inf")
    for a in legal:
        score = _score(state, player, a) + rng.random() * 0.01
        if score > best_score:
            best, best_score = a, score
    return best


def _score(st: KukulkanState, p: int, a: int) -> float:
    g = st.game
    sheet = g.sheet
    n = st.p_val[p]
    if a < g.write0:
        blocked = st.drawn[p] | st.p_mask[p] | (1 << a)
        score = 10.0
        for b, outline in enumerate(sheet.outline):
            if a in outline:
                missing = sum(1 for s in outline if not blocked >> s & 1)
                score += 2.0 / (1 + missing) + (4 - sheet.blocks[b].row) * 0.1
        return score
    if a < g.mark0:
        b = a - g.write0
        score = 50.0 + 0.3 * n
        above_single = any(sup == (b,) for sup in g.supports)
        if above_single:
            score += n
        label = sheet.blocks[b].label
        if label in ("C", "D"):
            score += n
        elif label in ("A", "B"):
            score += 6 - n
        if sheet.blocks[b].axis:
            score += 2
        return score
    if a < g.pass_id:
        b = a - g.mark0
        blk = sheet.blocks[b]
        return 100.0 + 5 * blk.axis + 5 * bool(blk.label) + 3 * (blk.row == 0)
    if a == g.pass_id:
        return 0.0
    # a help: worth it if the new value opens a mark or a write
    if st.p_help[p] != H_NONE or st.p_kind[p] == K_DRAW:
        return -1.0
    if a == g.same_id:
        return 20.0
    m = (a - g.plus0 + 1) if a < g.super0 else (a - g.super0 + 1)
    free = a < g.super0 and st.has_permanent(p)
    if any(v == m for _, v in st._markable(p)):
        return 90.0 if free else 60.0
    if any(t > m for _, t in st._writable(p)):
        return 45.0 if free else 15.0
    return 9.0 if free else 1.0


def value(state: State, player: int) -> float:
    """``player``'s points so far (marked blocks and bonuses): the final score at the end."""
    assert isinstance(state, KukulkanState)
    return float(state.score(player))
