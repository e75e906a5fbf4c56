"""The greedy one-move-ahead policy for Lucent (the ``greedy`` bot).

Each legal play is tried on a copy of the (determinised) state and scored:

* winning at once (nobody else can play after it) is best;
* every opponent it puts out is good, every play it leaves the next player is bad;
* keep your own options open: count your cards that still have a slot;
* keep Wildcards and Geomancers (always playable) for when nothing else fits,
  and with ``points`` + ``geomancers`` keep the Geomancer for your last card;
* with ``points``, emptying your hand is worth a point.
"""

from __future__ import annotations

import random

from ziggurat.core.game import State
from ziggurat.games.lucent.rules import NUM_SLOTS, LucentState


def _playable_cards(state: LucentState, player: int) -> int:
    """How many of ``player``'s cards could be placed somewhere now."""
    mask = state.playable_mask()
    hand = state.hands[player]
    return sum(c for k, c in enumerate(hand) if c and mask >> k & 1)


def evaluate(state: LucentState, action: int, player: int) -> float:
    """Greedy value of ``action`` for ``player`` (larger is better)."""
    g = state.game
    kind = action // NUM_SLOTS
    child = state.clone()
    assert isinstance(child, LucentState)
    child.apply_action(action)
    value = 0.0
    if child.is_terminal():
        return 1000.0 + 100.0 * child.scores()[player]
    newly_out = sum(1 for p in range(g.num_players) if child.out[p] and not state.out[p] and p != player)
    value += 8.0 * newly_out
    nxt = child.current_player()
    if nxt == player:
        # everyone else is out or empty-handed: I keep placing and will place last
        value += 500.0 if all(child.out[p] or not child.sizes[p] for p in range(g.num_players) if p != player) else 20
    else:
        value -= 1.0 * _playable_cards(child, nxt)
    value += 1.5 * _playable_cards(child, player) - 0.5 * child.sizes[player]
    special = kind in (g.wild, g.geo)
    if special and state.sizes[player] > 1:
        value -= 6.0
    if g.points:
        if child.sizes[player] == 0:
            value += 50.0
            if g.geomancers and kind == g.geo:
                value += 50.0
        elif g.geomancers and kind == g.geo:
            value -= 10.0
    return value


def heuristic(state: State, player: int, rng: random.Random) -> int:
    """Pick the best play by :func:`evaluate`; ties are broken at random."""
    assert isinstance(state, LucentState)
    legal = state.legal_actions(player)
    if len(legal) == 1:
        return legal[0]
    best: list[int] = []
    best_value = float("-inf")
    for action in legal:
        v = evaluate(state, action, player)
        if v > best_value + 1e-9:
            best, best_value = [action], v
        elif abs(v - best_value) <= 1e-9:
            best.append(action)
    return best[int(rng.random() * len(best))]
