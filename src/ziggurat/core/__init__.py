"""The contract every Ziggurat game meets (imports no game)."""

from ziggurat.core.bot import Bot, seeded_rng
from ziggurat.core.documents import load_json
from ziggurat.core.errors import (
    ActionError,
    ConfigError,
    ContentError,
    DocumentError,
    GameOverError,
    IllegalActionError,
    NotOverError,
    OptionError,
    ParseActionError,
    PlayerCountError,
    RecordError,
    UnknownBotError,
    UnknownGameError,
    ZigguratError,
)
from ziggurat.core.export import player_record
from ziggurat.core.game import CHANCE, SIMULTANEOUS, TERMINAL, Game, State
from ziggurat.core.match import Match, random_playout
from ziggurat.core.outcome import EndReason, Outcome, scores_line
from ziggurat.core.record import GameRecord
from ziggurat.core.registry import (
    GameEntry,
    bot_names,
    game_ids,
    get_bot,
    get_game,
    make_bot,
    make_game,
    register_bot,
    register_game,
)
from ziggurat.core.spec import GameSpec, OptionSpec

__all__ = [
    "CHANCE",
    "SIMULTANEOUS",
    "TERMINAL",
    "ActionError",
    "Bot",
    "ConfigError",
    "ContentError",
    "DocumentError",
    "EndReason",
    "Game",
    "GameEntry",
    "GameOverError",
    "GameRecord",
    "GameSpec",
    "IllegalActionError",
    "Match",
    "NotOverError",
    "OptionError",
    "OptionSpec",
    "Outcome",
    "ParseActionError",
    "PlayerCountError",
    "RecordError",
    "State",
    "UnknownBotError",
    "UnknownGameError",
    "ZigguratError",
    "bot_names",
    "game_ids",
    "get_bot",
    "get_game",
    "load_json",
    "make_bot",
    "make_game",
    "player_record",
    "random_playout",
    "register_bot",
    "register_game",
    "scores_line",
    "seeded_rng",
]
