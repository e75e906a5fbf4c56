"""The greedy bot: the game's own one-move-ahead heuristic, or a generic one-ply lookahead.

Each game may register ``ENTRY.heuristic(state, player, rng) -> action``, a
policy written from its rules. Games without one get :func:`lookahead`: try
every legal action on a copy, let chance fall (sampled), and keep the action
whose resulting position evaluates best for the player (by the game's
registered ``value``, see :func:`position_value`).
"""

from __future__ import annotations

import random
from typing import Any

from ziggurat.core.bot import Bot
from ziggurat.core.game import CHANCE, Game, State
from ziggurat.core.registry import Evaluator, Heuristic, entry_for, register_bot


def evaluator_for(game: Game) -> Evaluator:
    """The game's registered ``value(state, player)``, or final scores only (0 before the end)."""
    entry = entry_for(game)
    return entry.value if entry is not None and entry.value is not None else _final_score


def _final_score(state: State, player: int) -> float:
    return state.scores()[player] if state.is_terminal() else 0.0


def position_value(state: State, player: int, value: Evaluator | None = None) -> float:
    """How good ``state`` looks for ``player``: their value less the best opponent's.

    ``value`` defaults to the game's registered evaluation (final scores at the
    end, the game's estimate before); scores where lower wins count negated.
    """
    v = value if value is not None else evaluator_for(state.game)
    sign = -1.0 if state.game.spec.lower_score_wins else 1.0
    n = state.num_players
    mine = sign * v(state, player)
    if n == 1:
        return mine
    return mine - max(sign * v(state, q) for q in range(n) if q != player)


def lookahead(state: State, player: int, rng: random.Random, samples: int = 2) -> int:
    """Generic one-ply lookahead: the legal action with the best evaluated result."""
    legal = state.legal_actions(player)
    if len(legal) == 1:
        return legal[0]
    evaluate = evaluator_for(state.game)
    best: list[int] = []
    best_value = -float("inf")
    for action in legal:
        total = 0.0
        for _ in range(samples):
            child = state.clone()
            child.apply_action(action, player)
            while child.current_player() == CHANCE:
                child.apply_action(child.sample_chance(rng))
            total += position_value(child, player, evaluate)
        value = total / samples
        if value > best_value + 1e-9:
            best, best_value = [action], value
        elif abs(value - best_value) <= 1e-9:
            best.append(action)
    return best[int(rng.random() * len(best))]


def heuristic_for(game: Game) -> Heuristic:
    """The game's registered heuristic, or the generic lookahead (also for an unregistered game)."""
    entry = entry_for(game)
    return entry.heuristic if entry is not None and entry.heuristic is not None else lookahead


class GreedyBot(Bot):
    """Plays the game's heuristic move (seeded tie-breaks)."""

    name = "greedy"

    def __init__(self, game: Game, player: int, seed: int | str | None = None, **params: Any):
        super().__init__(game, player, seed, **params)
        self.heuristic = heuristic_for(game)
        entry = entry_for(game)
        view_only = entry is not None and entry.heuristic is not None and not entry.heuristic_needs_determinisation
        # the generic lookahead lets chance fall on the state it is given: only a game without
        # hidden information, or a heuristic declared to read only the player's view, may see the live state
        self.needs_determinisation = game.spec.has_hidden_information and not view_only

    def choose(self, state: State) -> int:
        """The heuristic's action (checked: an illegal suggestion falls back to the lookahead)."""
        action = self.heuristic(state, self.player, self.rng)
        if action not in state.legal_actions(self.player):
            if not self.needs_determinisation and state.game.spec.has_hidden_information:
                state = state.resample(self.player, self.rng)  # the lookahead must not draw from the live deck
            return lookahead(state, self.player, self.rng)
        return action


register_bot("greedy", GreedyBot, "the game's one-move-ahead heuristic")
