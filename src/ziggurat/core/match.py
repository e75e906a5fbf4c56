"""Driving a game: chance from a seeded RNG, bots fed determinisations, records out.

>>> from ziggurat.core.registry import make_game
>>> a = Match(make_game("kuhnah", 3), seed=7); a.run_bots(["random"] * 3)
>>> b = Match(make_game("kuhnah", 3), seed=7); b.run_bots(["random"] * 3)
>>> a.state == b.state
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ziggurat.core.bot import Bot, seeded_rng
from ziggurat.core.game import CHANCE, Game, State
from ziggurat.core.record import GameRecord
from ziggurat.core.registry import make_bot


class Match:
    """One game in progress with its seed.

    Chance outcomes come from ``seeded_rng(seed, "chance")``, one draw per chance
    node, so resuming a saved game continues the same stream.
    """

    def __init__(self, game: Game, seed: int, state: State | None = None):
        self.game = game
        self.seed = seed
        self.state = state if state is not None else game.new_initial_state()
        self.chance_rng = seeded_rng(seed, "chance")
        self.view_rng = seeded_rng(seed, "determinise")
        for player, _ in self.state.history:
            if player == CHANCE:
                self.chance_rng.random()

    @classmethod
    def from_record(cls, record: GameRecord) -> Match:
        """Resume a saved game where it stopped."""
        state = record.replay()
        return cls(state.game, record.seed if record.seed is not None else 0, state)

    def resolve_chance(self) -> None:
        """Apply chance outcomes until a player (or nobody) is to move."""
        state = self.state
        while state.current_player() == CHANCE:
            state.apply_action(state.sample_chance(self.chance_rng))

    def determinisation(self, player: int) -> State:
        """What a bot for ``player`` is shown: a state consistent with its view."""
        if self.game.spec.has_hidden_information:
            return self.state.resample(player, self.view_rng)
        return self.state.clone()

    def apply(self, action: int, player: int | None = None) -> None:
        """Apply a player's action, then any chance that follows."""
        self.state.apply_action(action, player)
        self.resolve_chance()

    def run_bots(
        self,
        bots: Sequence[Bot | str],
        on_action: Callable[[State, int, int], None] | None = None,
        max_steps: int | None = None,
    ) -> None:
        """Play to the end (or ``max_steps`` decisions) with a bot in every seat."""
        seats = [make_bot(b, self.game, p, self.seed) if isinstance(b, str) else b for p, b in enumerate(bots)]
        if len(seats) != self.game.num_players:
            raise ValueError(f"{len(seats)} bots for {self.game.num_players} players")
        self.resolve_chance()
        steps = 0
        while not self.state.is_terminal():
            if max_steps is not None and steps >= max_steps:
                return
            for player in self.state.players_to_move():
                action = seats[player].choose(self.determinisation(player))
                if on_action is not None:
                    on_action(self.state, player, action)
                self.state.apply_action(action, player)
                steps += 1
            self.resolve_chance()

    def record(self, seats: Sequence[str] = ()) -> GameRecord:
        """The record of the game so far."""
        return GameRecord.from_state(self.state, self.seed, seats)


def random_playout(state: State, rng: random.Random) -> State:
    """Play ``state`` to the end in place with uniformly random actions and chance."""
    while True:
        cur = state.current_player()
        if cur >= 0:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
        elif cur == CHANCE:
            state.apply_action(state.sample_chance(rng))
        elif cur == -2:
            for p in state.players_to_move():
                legal = state.legal_actions(p)
                state.apply_action(legal[int(rng.random() * len(legal))], p)
        else:
            return state
