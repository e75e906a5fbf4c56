"""The greedy policy: one move ahead, with a look at the next player's best reply.

A move is scored by the *projected margin* it leaves: the mover's score if the
game ended now (cubes taken, plus the tray colours their ankh majorities would
collect) minus the best opponent's, less half of the margin the next player
could then gain with their best reply (so a move that opens a rich cascade for
the next player is avoided). Ties are broken at random.
"""

from __future__ import annotations

import random

from ziggurat.core.game import State
from ziggurat.games.pyramix.rules import PyramixState

REPLY_WEIGHT = 0.5


def _margin(state: PyramixState, player: int) -> float:
    scores = state.score_now()
    others = [s for p, s in enumerate(scores) if p != player]
    return scores[player] - max(others)


def heuristic(state: State, player: int, rng: random.Random) -> int:
    """The greedy bot's move for ``player`` in ``state`` (which must be that player's turn)."""
    assert isinstance(state, PyramixState)
    moves = state.legal_actions()
    best: list[int] = []
    best_value = float("-inf")
    for move in moves:
        after = state.clone()
        assert isinstance(after, PyramixState)
        after.apply_action(move)
        value = _margin(after, player)
        if not after.is_terminal():
            nxt = after.current_player()
            base = _margin(after, nxt)
            gain = 0.0
            for reply in after.legal_actions():
                again = after.clone()
                assert isinstance(again, PyramixState)
                again.apply_action(reply)
                gain = max(gain, _margin(again, nxt) - base)
            value -= REPLY_WEIGHT * gain
        if value > best_value + 1e-9:
            best_value = value
            best = [move]
        elif abs(value - best_value) <= 1e-9:
            best.append(move)
    return best[int(rng.random() * len(best))]


def value(state: State, player: int) -> float:
    """``player``'s score if the game ended now (cubes taken plus the tray colours their ankhs would win)."""
    assert isinstance(state, PyramixState)
    return float(state.score_now()[player])
