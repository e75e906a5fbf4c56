"""The bot protocol: a bot picks one legal action for its player.

The driver never hands a bot the true state of a game with hidden information:
it hands it a *determinisation*, ``state.resample(player, rng)``, a full state
consistent with what that player can see. A bot therefore cannot peek.

Nor can it rebuild the deck from its seed: a driver (:class:`~ziggurat.core.match.Match`)
gives a bot only seeds derived one way from the game's secret root
(:mod:`ziggurat.core.seeds`), and a game resumed from its record goes on exactly
as it would have (a bot that carries its stream or a tree from one decision to
the next thinks its past decisions again first).
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
    #: What the driver must hand :meth:`choose`. True (the safe default): a
    #: determinisation, a full state of its own that the bot may read whole and
    #: change. False: the bot reads only its player's legal actions and view
    #: (``legal_actions``, ``view``, action texts) and changes nothing, so the
    #: driver may hand it the live state and skip the resample (a bot that
    #: peeks at anything else would see hidden information).
    needs_determinisation: bool = True

    def __init__(self, game: Game, player: int, seed: int | str | None = None, **params: Any):
        if params:
            raise TypeError(f"bot {self.name!r} takes no parameters {sorted(params)}")
        self.game = game
        self.player = player
        self.rng: random.Random = seeded_rng(seed, "bot", self.name, player)
        # how many of its seat's decisions in the game at hand it has thought (counted by the driver,
        # Match, caught-up past decisions included): a resumed game brings it up to date from there
        self.thought = 0

    fresh_stream_per_decision: ClassVar[bool] = False
    """Whether the driver restarts :attr:`rng` at every decision (:meth:`reseed`).

    A bot that draws a few numbers per decision keeps one stream for the game
    (restarting a stream costs more than such a decision); one that draws
    thousands (a search) gets a fresh stream per decision, so a resumed game
    needs none of its past decisions again.
    """

    @property
    def remembers(self) -> bool:
        """True if the bot carries something from one decision to the next (its stream, a search tree).

        A driver resuming a saved game lets such a bot think its earlier
        decisions again (:meth:`~ziggurat.core.match.Match.catch_up`), so that it
        goes on as if it had never stopped.
        """
        return not self.fresh_stream_per_decision

    def reseed(self, seed: int) -> None:
        """Start a new random stream (before each decision, for a bot with ``fresh_stream_per_decision``)."""
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, state: State) -> int:
        """One legal action for ``self.player`` in ``state`` (a determinisation)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(player={self.player})"
