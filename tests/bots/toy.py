"""A tiny unregistered game for search tests: a public die roll, then a simultaneous pick.

Each player picks 0, 1 or 2 at the same time; the higher pick wins (the die
adds nothing to the choice), so picking 2 is dominant.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ziggurat.core.game import CHANCE, SIMULTANEOUS, TERMINAL, Game, State
from ziggurat.core.spec import GameSpec

SPEC = GameSpec(
    id="toyduel", name="Toy duel", min_players=2, max_players=2, has_chance=True, has_simultaneous_moves=True
)


class ToyGame(Game):
    spec = SPEC

    @property
    def num_actions(self) -> int:
        return 3

    @property
    def max_chance_outcomes(self) -> int:
        return 3

    @property
    def max_game_length(self) -> int:
        return 3

    def new_initial_state(self) -> ToyState:
        return ToyState(self)


class ToyState(State):
    __slots__ = ("die", "picks")

    def __init__(self, game: Game):
        super().__init__(game)
        self.die = -1
        self.picks = [-1, -1]

    def current_player(self) -> int:
        if self.die < 0:
            return CHANCE
        if -1 in self.picks:
            return SIMULTANEOUS
        return TERMINAL

    current = property(current_player)  # the core's hook, worked out on each read

    def players_to_move(self) -> tuple[int, ...]:
        if self.current_player() == SIMULTANEOUS:
            return tuple(p for p in (0, 1) if self.picks[p] < 0)
        return ()

    def _legal_actions(self, player: int) -> list[int]:
        return [0, 1, 2]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]

    def _apply(self, action: int, player: int) -> None:
        if player == CHANCE:
            self.die = action
        else:
            self.picks[player] = action

    def _action_text(self, action: int, player: int) -> str:
        return str(action)

    def _parse(self, text: str, player: int) -> int:
        return int(text)

    def _copy(self) -> ToyState:
        new = ToyState(self.game)
        new.die = self.die
        new.picks = self.picks.copy()
        return new

    def _dump(self) -> dict[str, Any]:
        return {"die": self.die, "picks": list(self.picks)}

    def _load(self, data: Mapping[str, Any]) -> None:
        self.die = data["die"]
        self.picks = list(data["picks"])

    def view(self, player: int | None = None) -> dict[str, Any]:
        return {"die": self.die}

    def _scores(self) -> tuple[float, ...]:
        return (float(self.picks[0]), float(self.picks[1]))
