"""Errors, split by meaning.

Every error a user can cause derives from :class:`ZigguratError`, so a front end
can catch one type and show the message. The message is written for the person
who made the mistake: it names what was wrong and, where possible, what would
have been right.
"""

from __future__ import annotations

from typing import Any

from ziggurat.core.message import Message


class ZigguratError(Exception):
    """Base class of every error raised by Ziggurat on bad input."""


class ConfigError(ZigguratError, ValueError):
    """A game could not be set up as asked (players, options, game id)."""


class _NameNotFound(ConfigError, KeyError):
    """A lookup by name failed (a KeyError whose message is printed unquoted)."""

    def __str__(self) -> str:  # KeyError would otherwise quote the message
        return str(self.args[0]) if self.args else ""


class UnknownGameError(_NameNotFound):
    """No game is registered under that id or alias."""


class UnknownBotError(_NameNotFound):
    """No bot is registered under that name."""


class PlayerCountError(ConfigError):
    """The game cannot be played with that many players."""


class OptionError(ConfigError):
    """An option is unknown, or its value is not allowed."""


class ActionError(ZigguratError, ValueError):
    """Base class of errors about an action.

    Made from a plain text or from a :class:`~ziggurat.core.message.Message`;
    ``message`` keeps the message (``None`` for a plain text), so a front end
    can show the reason in its own language from ``message.id`` and
    ``message.params``. ``str(error)`` is the English text either way.
    """

    def __init__(self, reason: str | Message):
        self.message: Message | None = reason if isinstance(reason, Message) else None
        super().__init__(str(reason))

    @property
    def message_id(self) -> str | None:
        """The message id of the reason, if it was given as a message."""
        return self.message.id if self.message is not None else None

    @property
    def params(self) -> dict[str, Any]:
        """The parameters of the reason (empty for a plain text)."""
        return dict(self.message.params) if self.message is not None else {}


class ParseActionError(ActionError):
    """The action text or id does not name any action of this game."""


class IllegalActionError(ActionError):
    """The action is well formed but not allowed in this position."""


class GameOverError(ActionError):
    """An action was given, but the game is over."""


class NotOverError(ZigguratError):
    """The outcome was asked for before the game ended."""


class RecordError(ZigguratError, ValueError):
    """A saved game or state is corrupt, from another game, or of an unknown version."""


class ContentError(ZigguratError, ValueError):
    """A content data file (cards, tiles, sheet) is invalid.

    The message names the file, the entry and the field.
    """

    def __init__(self, source: str, message: str, entry: str | None = None, field: str | None = None):
        where = source
        if entry is not None:
            where += f", entry {entry}"
        if field is not None:
            where += f", field {field!r}"
        super().__init__(f"{where}: {message}")
        self.source = source
        self.entry = entry
        self.field = field


class DocumentError(ZigguratError, ValueError):
    """A document from outside (a file, a request body, a message) could not be read.

    It is not valid JSON (or TOML), not UTF-8 text, or it exceeds a limit of
    :mod:`ziggurat.core.documents` (size, nesting, a giant or infinite number).
    The message names the source and what was wrong.
    """

    def __init__(self, source: str, problem: str):
        super().__init__(f"{source}: {problem}")
        self.source = source
        self.problem = problem
