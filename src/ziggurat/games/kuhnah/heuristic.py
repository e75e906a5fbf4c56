"""K'uh Nah's one-move-ahead heuristic (the ``greedy`` bot's policy).

A card's *cost* to a player is what its best placement adds to their score:
its value, minus the uncovered cards it would cover, minus the jade lying on
it. A base card also gets a small discount: it is future support. Then:

* take the cheapest Quarry card when its cost is low enough (covering heavy
  cards, or carrying enough jade), or when out of jade;
* otherwise pay one jade onto the card the next player wants least (jade on a
  card nobody wants waits there until it is worth taking);
* place a taken card where it covers the most weight; in the base, at the end
  beside the heavier card (the pair can carry a card later).
"""

from __future__ import annotations

import random

from ziggurat.core.game import State
from ziggurat.games.kuhnah.rules import (
    BASE_LEFT,
    BASE_RIGHT,
    JADE_ON,
    ORIGIN,
    PLACE,
    ROW,
    TAKE,
    TURN,
    KuhNahState,
    _key,
)

BASE_DISCOUNT = 0.25  # share of a base card's value we hope to cover later
TAKE_THRESHOLD = 4.0  # take a card costing at most this much rather than pay jade


def placement_cost(state: KuhNahState, player: int, card: int, action: int) -> float:
    """What placing ``card`` by ``action`` adds to ``player``'s score (before discounts)."""
    g = state.game
    v = g.value[card]
    if action in (BASE_LEFT, BASE_RIGHT):
        return float(v)
    cells = state.cells[player]
    row, col = state._slot(action)
    key = _key(row, col + state.base_left[player])
    covered = 0
    for support in (key - ROW, key - ROW + 1):
        c = cells.get(support)
        if c is not None and support + ROW not in cells and support + ROW - 1 not in cells:
            covered += g.value[c]
    return float(v - covered)


def _base_neighbour(state: KuhNahState, player: int, action: int) -> int:
    cells = state.cells[player]
    if not cells:
        return 0
    col = state.base_left[player] if action == BASE_LEFT else state.base_right[player]
    c = cells.get(ORIGIN + col)
    return state.game.value[c] if c is not None else 0


def best_placement(state: KuhNahState, player: int, card: int) -> tuple[float, int]:
    """(effective cost, action) of the best legal placement of ``card`` for ``player``."""
    g = state.game
    best = (float("inf"), BASE_LEFT)
    for action in state._placements(player, card):
        if action >= g.wild_base:
            continue
        cost = placement_cost(state, player, card, action)
        if action in (BASE_LEFT, BASE_RIGHT):
            # base cards may be covered later, the more so beside a heavy card
            cost -= BASE_DISCOUNT * g.value[card] + 0.1 * _base_neighbour(state, player, action)
        if cost < best[0] - 1e-9:
            best = (cost, action)
    return best


def heuristic(state: State, player: int, rng: random.Random) -> int:
    """The greedy K'uh Nah move for ``player``."""
    assert isinstance(state, KuhNahState)
    legal = state.legal_actions(player)
    if state.phase == PLACE:
        card = state.quarry[state.taken]
        return best_placement(state, player, card)[1]
    if state.phase != TURN:
        return legal[int(rng.random() * len(legal))]
    slots = [s for s in (0, 1) if state.quarry[s] >= 0]
    costs = {s: best_placement(state, player, state.quarry[s])[0] - state.quarry_jade[s] for s in slots}
    cheapest = min(slots, key=lambda s: (costs[s], rng.random()))
    if state.jade[player] == 0 or costs[cheapest] <= TAKE_THRESHOLD:
        return TAKE + cheapest
    # pay a jade onto the card the next player likes least (and we mind least)
    nxt = (player + 1) % state.num_players
    theirs = {s: best_placement(state, nxt, state.quarry[s])[0] - state.quarry_jade[s] for s in slots}
    target = max(slots, key=lambda s: (theirs[s] - 0.5 * costs[s], rng.random()))
    return JADE_ON + target


def value(state: State, player: int) -> float:
    """``player``'s score as it stands (uncovered values less jade; lower is better): final at the end."""
    assert isinstance(state, KuhNahState)
    return state.score(player)
