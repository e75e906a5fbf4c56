"""Ziggurat: five pyramid-building tabletop games behind one contract.

>>> import ziggurat
>>> "kuhnah" in ziggurat.game_ids()
True
"""

from ziggurat.core import GameRecord, Match, bot_names, game_ids, get_game, make_bot, make_game, player_record

__version__ = "0.1.0"
__all__ = [
    "GameRecord",
    "Match",
    "__version__",
    "bot_names",
    "game_ids",
    "get_game",
    "make_bot",
    "make_game",
    "player_record",
]
