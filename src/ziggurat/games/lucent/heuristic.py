"""The greedy policy for Lucent (the ``greedy`` bot).

Lucent is a game of mobility: the player who cannot place is out, and the last
to place wins. Each legal play is tried on a light copy of the (determinised)
pyramid and scored by:

* winning at once (nobody else can play after it) is best;
* every opponent it puts out is good;
* mobility: the plays left to the next player count against, my own playable
  cards count for; slots only I can fill (given what the others may hold) are
  spare tempo for me, slots only they can fill are tempo for them;
* keep Wildcards and Geomancers (always playable) for when nothing else fits,
  and with ``points`` + ``geomancers`` keep the Geomancer for your last card;
* with ``points``, emptying your hand is worth a point.

With two players still in and few cards left, a small exact search (negamax
with a node budget) over the determinised hands decides instead: with two
players and no removed or set-aside gems (``wildcards``, ``geomancer-focus``)
the determinisation *is* the position, since every card is either placed or in
one of the two hands.
"""

from __future__ import annotations

import random

from ziggurat.core.game import State
from ziggurat.games.lucent.rules import ABOVE, NUM_SLOTS, PLAY, WIDTH, LucentState, open_slots

# exact search: start when both hands together hold at most this many cards
SOLVE_CARDS = 22
SOLVE_BUDGET = 3000
# weights: slots only I (only they) can fill; the next player's playable cards; mine
W_PRIV = 4.0
W_NEXT = 2.0
W_MINE = 1.5


class _Budget(Exception):
    pass


class _Board:
    """A light, undoable copy of the pyramid and the hands."""

    __slots__ = ("all_mask", "allow", "hands", "hi", "lo", "nk", "nodes", "pyr", "table", "upper")

    def __init__(self, state: LucentState):
        g = state.game
        self.pyr = list(state.pyramid)
        self.lo = state.lo
        self.hi = state.hi
        self.upper = list(state.upper)
        self.hands = [list(h) for h in state.hands]
        self.allow = g.allow_pair
        self.nk = g.num_kinds
        self.all_mask = g.all_mask
        self.nodes = 0
        self.table: dict[tuple[tuple[int, ...], tuple[int, ...]], bool] = {}

    def slots(self) -> list[tuple[int, int]]:
        """Open slots with the mask of kinds that fit."""
        return open_slots(self.lo, self.hi, self.pyr, self.upper, self.allow, self.nk, self.all_mask)

    def play(self, kind: int, slot: int, player: int) -> tuple[int, int, list[int]]:
        undo: tuple[int, int, list[int]] = (self.lo, self.hi, [])
        pyr = self.pyr
        pyr[slot] = kind
        self.hands[player][kind] -= 1
        if slot < WIDTH:
            if slot < self.lo:
                self.lo = slot
            else:
                self.hi = slot
        else:
            self.upper.remove(slot)
        for above, other in ABOVE[slot]:
            if pyr[other] >= 0:
                self.upper.append(above)
                undo[2].append(above)
        return undo

    def unplay(self, kind: int, slot: int, player: int, undo: tuple[int, int, list[int]]) -> None:
        self.lo, self.hi, added = undo
        for a in added:
            self.upper.remove(a)
        if slot >= WIDTH:
            self.upper.append(slot)
        self.pyr[slot] = -1
        self.hands[player][kind] += 1

    def have(self, player: int) -> int:
        return sum(1 << k for k, c in enumerate(self.hands[player]) if c)

    def wins(self, me: int, opp: int) -> bool:
        """Does ``me``, to move, win the two-player game against ``opp`` (normal play)?"""
        self.nodes += 1
        if self.nodes > SOLVE_BUDGET:
            raise _Budget
        key = (tuple(self.pyr), tuple(self.hands[me]))
        hit = self.table.get(key)
        if hit is not None:
            return hit
        result = False
        slots = self.slots()
        hand = self.hands[me]
        moves = [(k, s) for s, m in slots for k in range(self.nk) if hand[k] and m >> k & 1]
        # a play after which the opponent is stuck wins at once
        for k, s in moves:
            undo = self.play(k, s, me)
            ohave = self.have(opp)
            stuck = not any(m & ohave for _, m in self.slots())
            self.unplay(k, s, me, undo)
            if stuck:
                result = True
                break
        if not result:
            for k, s in moves:
                undo = self.play(k, s, me)
                try:
                    lost = self.wins(opp, me)
                finally:
                    self.unplay(k, s, me, undo)
                if not lost:
                    result = True
                    break
        self.table[key] = result
        return result


def _mobility(slots: list[tuple[int, int]], hand: list[int]) -> int:
    """How many cards of ``hand`` have a slot."""
    mask = 0
    for _, m in slots:
        mask |= m
    return sum(c for k, c in enumerate(hand) if c and mask >> k & 1)


def _score(board: _Board, state: LucentState, action: int, player: int, others: list[int]) -> float:
    """Greedy value of ``action`` for ``player`` (larger is better)."""
    g = state.game
    kind, slot = divmod(action, NUM_SLOTS)
    undo = board.play(kind, slot, player)
    slots = board.slots()
    board.unplay(kind, slot, player, undo)
    hand = board.hands[player]
    size_after = state.sizes[player] - 1
    # who could play next: the others in turn order
    stuck = []
    mob = []
    for q in others:
        qhave = state.have[q]
        can = any(m & qhave for _, m in slots)
        stuck.append(not can)
        mob.append(_mobility(slots, board.hands[q]) if can else 0)
    hand_after = list(hand)
    hand_after[kind] -= 1
    my_mob = _mobility(slots, hand_after)
    if all(stuck):
        base = 1000.0
        if g.points:
            base += 100.0 * (size_after == 0) + 100.0 * (g.geomancers and size_after == 0 and kind == g.geo)
        return base + my_mob
    value = 8.0 * sum(stuck)
    nxt = next((i for i, st in enumerate(stuck) if not st), -1)
    if nxt >= 0:
        value -= W_NEXT * mob[nxt]
    # tempo: slots that only I can use, or only the others can use
    my_have = sum(1 << k for k, c in enumerate(hand_after) if c)
    their_have = 0
    for q, st in zip(others, stuck, strict=True):
        if not st:
            their_have |= state.have[q]
    mine = theirs = 0
    for _, m in slots:
        a = m & my_have
        b = m & their_have
        if a and not b:
            mine += 1
        elif b and not a:
            theirs += 1
    value += W_PRIV * (mine - theirs)
    value += W_MINE * my_mob - 0.5 * size_after
    special = kind in (g.wild, g.geo)
    if special and state.sizes[player] > 1:
        value -= 6.0
    if g.points:
        if size_after == 0:
            value += 50.0
            if g.geomancers and kind == g.geo:
                value += 50.0
        elif g.geomancers and kind == g.geo:
            value -= 10.0
    return value


def heuristic(state: State, player: int, rng: random.Random) -> int:
    """Pick the best play by :func:`evaluate` (or by exact search late); ties are broken at random."""
    assert isinstance(state, LucentState)
    legal = state.legal_actions(player)
    if len(legal) == 1:
        return legal[0]
    g = state.game
    n = g.num_players
    others = [(player + i) % n for i in range(1, n)]
    others = [q for q in others if not state.out[q] and state.sizes[q]]
    board = _Board(state)
    if len(others) == 1 and not g.points:
        opp = others[0]
        if state.sizes[player] + state.sizes[opp] <= SOLVE_CARDS and state.lo >= 0:
            winners = _solve_root(board, legal, player, opp)
            if winners:
                return winners[int(rng.random() * len(winners))]
    best: list[int] = []
    best_value = float("-inf")
    for action in legal:
        v = _score(board, state, action, player, others)
        if v > best_value + 1e-9:
            best, best_value = [action], v
        elif abs(v - best_value) <= 1e-9:
            best.append(action)
    return best[int(rng.random() * len(best))]


def _solve_root(board: _Board, legal: list[int], player: int, opp: int) -> list[int]:
    """The winning plays by exact search, or [] if none or the budget ran out."""
    winners = []
    try:
        for action in legal:
            kind, slot = divmod(action, NUM_SLOTS)
            undo = board.play(kind, slot, player)
            try:
                ohave = board.have(opp)
                if not any(m & ohave for _, m in board.slots()) or not board.wins(opp, player):
                    winners.append(action)
                    return winners
            finally:
                board.unplay(kind, slot, player, undo)
    except _Budget:
        return []
    return winners


def evaluate(state: LucentState, action: int, player: int) -> float:
    """Greedy value of ``action`` for ``player`` (larger is better)."""
    g = state.game
    n = g.num_players
    others = [(player + i) % n for i in range(1, n)]
    others = [q for q in others if not state.out[q] and state.sizes[q]]
    return _score(_Board(state), state, action, player, others)


def value(state: State, player: int) -> float:
    """``player``'s final score at the end; before it, an even share of the last-placer point among the
    players still in (none once out) and, with ``points``, the point for an emptied hand."""
    assert isinstance(state, LucentState)
    if state.is_terminal():
        return state.scores()[player]
    g = state.game
    still_in = sum(1 for q in range(g.num_players) if not state.out[q])
    v = 0.0 if state.out[player] else 1.0 / still_in
    if g.points and state.sizes[player] == 0 and state.phase == PLAY:
        v += 1.0
    return v
