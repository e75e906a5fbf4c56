"""Bots at tables: one decision, made in a worker process from a determinisation.

The job runner (:mod:`ziggurat.server.jobs`) decides when a bot moves (after the
pace delay) and hands :func:`choose` the bot's determinisation: a state
consistent with the bot's view, never the true state of a game with hidden
information. Its random streams are derived from the table's secret root for
that decision, so a bot asked again (after a restart) decides the same.
"""

from __future__ import annotations

from typing import Any

from ziggurat.core import State, make_bot
from ziggurat.server.service import BOT_LEVELS, DEFAULT_LEVEL


def bot_params(bot: str, params: dict[str, Any]) -> dict[str, Any]:
    """The bot factory's options for a seat (an ismcts level becomes its budget)."""
    if bot == "ismcts":
        return dict(BOT_LEVELS[int(params.get("level", DEFAULT_LEVEL))])
    return {}


def choose(state: State, seat: int, bot: str, params: dict[str, Any], seed: int) -> int:
    """One bot decision (runs in a worker): ``state`` is already the bot's determinisation."""
    return make_bot(bot, state.game, seat, seed, **bot_params(bot, params)).choose(state)
