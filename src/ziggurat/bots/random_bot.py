"""The uniformly random bot."""

from __future__ import annotations

from ziggurat.core.bot import Bot
from ziggurat.core.game import State
from ziggurat.core.registry import register_bot


class RandomBot(Bot):
    """Picks a legal action uniformly at random (seeded)."""

    name = "random"
    needs_determinisation = False  # reads its legal actions only

    def choose(self, state: State) -> int:
        """A uniformly random legal action."""
        legal = state.legal_actions(self.player)
        return legal[int(self.rng.random() * len(legal))]


register_bot("random", RandomBot, "uniformly random legal actions")
