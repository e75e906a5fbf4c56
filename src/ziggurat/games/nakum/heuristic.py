"""A one-move-ahead greedy policy for Nakum, written from the rules.

Every legal action is tried on a copy; a placement that asks for a further
choice (camp option, market card, offering, heritage card, favour, cube) is
followed by the best such choice. The resulting position is valued for the
player by :func:`value`: the points they would score now, plus what their
resources, workers and heritage hand are worth for the rest of the game and a
premium for being close to paying an active offering.
"""

from __future__ import annotations

import functools
import random

from ziggurat.core.game import State
from ziggurat.games.nakum.rules import BUY, CAMP, FAVOUR, FREE, OFFER, OVER, PLAY, NakumGame, NakumState

SUB_DECISIONS = (CAMP, BUY, OFFER, PLAY, FAVOUR, FREE)
WORKER_VALUE = 2.5  # a clan worker: about one point per action over the rounds left
HAND_VALUE = 0.6  # a worker not yet placed this Day
HERITAGE_VALUE = 1.2  # a heritage card in hand (worth ~1.5-2, but playing it takes a worker)
START_VALUE = 1.5  # moving first next round
CRIPPLED = 12.0  # fewer than two workers: no more offerings, and the clan can never grow again
OFFER_WEIGHT = 0.5


def relative_value(state: NakumState, p: int) -> float:
    """``value`` for ``p`` less the best of the other players' (so ending the game when ahead is good)."""
    others = [value(state, q) for q in range(state.num_players) if q != p]
    return value(state, p) - max(others)


class _Premiums(dict[tuple[int, int, int, int], float]):
    """The premium for being close to paying an offering, by (offering, maize, skins, masks) held.

    Filled only with the stores met (with the shipped family card there are at most
    4,200 keys): a search values every player at the end of every playout.
    """

    def __init__(self, game: NakumGame):
        super().__init__()
        per = game.per_point
        self.terms = []
        for c, cost in enumerate(game.offer_cost):
            gain = (
                game.offer_points[c]
                - cost[0] / per[0]
                - cost[1] / per[1]
                - cost[2] / per[2]
                - WORKER_VALUE * game.offer_sacrifice[c]
            )
            self.terms.append((gain, cost[0] + cost[1] + cost[2], cost))

    def __missing__(self, key: tuple[int, int, int, int]) -> float:
        c, m, s, k = key
        gain, total, cost = self.terms[c]
        x = 0.0  # no premium: nothing to gain, or nothing to pay
        if gain > 0 and total:
            covered = min(m, cost[0]) + min(s, cost[1]) + min(k, cost[2])
            x = OFFER_WEIGHT * gain * (covered / total) ** 2
        self[key] = x
        return x


@functools.lru_cache(maxsize=16)
def _premiums(game: NakumGame) -> _Premiums:
    return _Premiums(game)


def value(state: State, p: int) -> float:
    """How good ``state`` is for player ``p`` in points: the final score at the end, before it points so far
    plus what resources, workers, heritage cards and a nearly paid offering are worth for the rest of the game."""
    assert isinstance(state, NakumState)
    g = state.game
    b = 3 * p
    res = state.res
    m, s, k = res[b], res[b + 1], res[b + 2]
    per = g.per_point
    offerings, cards, tokens, storage = state.score_terms(p)
    score = float(offerings + cards + tokens + storage)
    if state.phase == OVER:
        return score
    v = score - storage + m / per[0] + s / per[1] + k / per[2]
    if state.end_triggered:
        return v + HAND_VALUE * state.hand[p]
    premium = 0.0
    workers = state.workers[p]
    if workers >= 2:  # no offering without two workers
        premiums = _premiums(g)
        for c in state.offers:
            bonus = premiums[c, m, s, k]
            if bonus > premium:
                premium = bonus
    v += premium
    v += WORKER_VALUE * workers + HAND_VALUE * state.hand[p]
    if workers < 2:
        v -= CRIPPLED
    v += HERITAGE_VALUE * len(state.hands[p])
    if state.start == p:
        v += START_VALUE
    return v


def _best(state: NakumState, p: int, depth: int) -> float:
    if depth > 0 and state.phase in SUB_DECISIONS and state.current_player() == p:
        best = float("-inf")
        for a in state.legal_actions():
            child = state.clone()
            assert isinstance(child, NakumState)
            child.apply_trusted(a, p)  # an action just listed: no need to check it again
            best = max(best, _best(child, p, depth - 1))
        return best
    return relative_value(state, p)


def heuristic(state: State, player: int, rng: random.Random) -> int:
    """The greedy action for ``player`` in ``state`` (a determinisation); ties broken at random."""
    assert isinstance(state, NakumState)
    legal = state.legal_actions(player)
    if len(legal) == 1:
        return legal[0]
    best: list[int] = []
    best_value = float("-inf")
    for a in legal:
        child = state.clone()
        assert isinstance(child, NakumState)
        child.apply_trusted(a, player)  # an action just listed: no need to check it again
        v = _best(child, player, 3)
        if v > best_value + 1e-9:
            best, best_value = [a], v
        elif v > best_value - 1e-9:
            best.append(a)
    return best[int(rng.random() * len(best))]
