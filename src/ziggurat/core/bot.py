"""The bot protocol: a bot picks one legal action for its player.

The driver never hands a bot the true state of a game with hidden information:
it hands it a *determinisation*, ``state.resample(player, rng)``, a full state
consistent with what that player can see. A bot therefore cannot peek.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any, ClassVar

from ziggurat.core.game import Game, State


def seeded_rng(*parts: object) -> random.Random:
    """A private RNG seeded from ``parts`` (stable across runs and machines).

    >>> seeded_rng(7, "chance").random() == seeded_rng(7, "chance").random()
    True
    """
    return random.Random("/".join(str(p) for p in parts))


class Bot(ABC):
    """A seeded player. Subclasses implement :meth:`choose`."""

    name: ClassVar[str] = "bot"

    def __init__(self, game: Game, player: int, seed: int | str | None = None, **params: Any):
        if params:
            raise TypeError(f"bot {self.name!r} takes no parameters {sorted(params)}")
        self.game = game
        self.player = player
        self.rng = seeded_rng(seed, "bot", self.name, player)

    @abstractmethod
    def choose(self, state: State) -> int:
        """One legal action for ``self.player`` in ``state`` (a determinisation)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(player={self.player})"
