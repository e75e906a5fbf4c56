"""The frozen description of a game: id, players, options and what kind of game it is."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ziggurat.core.errors import OptionError, PlayerCountError
from ziggurat.core.outcome import EndReason

OptionValue = bool | int | float | str | None

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}
_INF = float("inf")


@dataclass(frozen=True)
class OptionSpec:
    """One option of a game.

    ``kind`` is ``"bool"``, ``"int"``, ``"float"``, ``"choice"`` or ``"path"``. A
    *variant* is a boolean option that changes the rules (``--variant NAME`` on the
    command line); a *parameter* (``param``) is one of the rulebook's numbers made
    tunable, its default the printed value (``--param NAME=VALUE``; see
    :mod:`ziggurat.core.params`); other options change the setup or what is shown.

    >>> opt = OptionSpec("open-jade", "bool", False, help="show every jade count")
    >>> opt.parse("yes")
    True
    """

    name: str
    kind: str
    default: OptionValue
    help: str = ""
    choices: tuple[str, ...] = ()
    minimum: int | float | None = None
    maximum: int | float | None = None
    variant: bool = False
    param: bool = False

    def parse(self, raw: object) -> OptionValue:
        """Check ``raw`` (a Python value or a command-line string) and return the value."""
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            if isinstance(raw, str) and raw.strip().lower() in _TRUE | _FALSE:
                return raw.strip().lower() in _TRUE
            raise OptionError(f"option {self.name!r} takes true or false, not {raw!r}")
        if self.kind == "int":
            if isinstance(raw, bool):
                raise OptionError(f"option {self.name!r} takes a whole number, not {raw!r}")
            if isinstance(raw, str):
                try:
                    raw = int(raw.strip())
                except ValueError:
                    raise OptionError(f"option {self.name!r} takes a whole number, not {raw!r}") from None
            if not isinstance(raw, int):
                raise OptionError(f"option {self.name!r} takes a whole number, not {raw!r}")
            if (self.minimum is not None and raw < self.minimum) or (self.maximum is not None and raw > self.maximum):
                raise OptionError(f"option {self.name!r} must be between {self.minimum} and {self.maximum}, not {raw}")
            return raw
        if self.kind == "float":
            if isinstance(raw, str):
                try:
                    raw = float(raw.strip())
                except ValueError:
                    raise OptionError(f"option {self.name!r} takes a number, not {raw!r}") from None
            if isinstance(raw, bool) or not isinstance(raw, int | float) or raw != raw or raw in (_INF, -_INF):
                raise OptionError(f"option {self.name!r} takes a finite number, not {raw!r}")
            raw = float(raw)
            if (self.minimum is not None and raw < self.minimum) or (self.maximum is not None and raw > self.maximum):
                raise OptionError(f"option {self.name!r} must be between {self.minimum} and {self.maximum}, not {raw}")
            return raw
        if self.kind == "choice":
            if not isinstance(raw, str) or raw not in self.choices:
                raise OptionError(f"option {self.name!r} must be one of {', '.join(self.choices)}; got {raw!r}")
            return raw
        if self.kind == "path":
            if raw is None:
                return None
            if not isinstance(raw, str) or not raw:
                raise OptionError(f"option {self.name!r} takes a file path, not {raw!r}")
            return raw
        raise AssertionError(f"unknown option kind {self.kind!r}")  # pragma: no cover - spec bug


@dataclass(frozen=True)
class GameSpec:
    """What a game is, independent of any one play of it.

    ``lower_score_wins`` is true for games where the lowest score wins (K'uh Nah).
    ``ends`` lists every way a game of it can end (see
    :class:`~ziggurat.core.outcome.EndReason`), the rulebook's own end first; a
    finished state's :meth:`~ziggurat.core.game.State.end_reason` is one of
    them, and a compiled kernel reports an end as its index here.
    """

    id: str
    name: str
    min_players: int
    max_players: int
    aliases: tuple[str, ...] = ()
    options: tuple[OptionSpec, ...] = ()
    has_chance: bool = True
    has_hidden_information: bool = False
    has_simultaneous_moves: bool = False
    lower_score_wins: bool = False
    summary: str = ""
    min_players_note: str = ""
    ends: tuple[EndReason, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        codes = [e.code for e in self.ends]
        if len(set(codes)) != len(codes):
            raise ValueError(f"{self.id}: end codes must differ, not {codes}")

    def end(self, code: str) -> EndReason:
        """The end called ``code`` (a KeyError names the known ones)."""
        for e in self.ends:
            if e.code == code:
                return e
        raise KeyError(f"{self.name} has no end {code!r} (ends: {', '.join(e.code for e in self.ends) or 'none'})")

    @property
    def player_counts(self) -> range:
        """Every allowed number of players."""
        return range(self.min_players, self.max_players + 1)

    @property
    def params(self) -> tuple[OptionSpec, ...]:
        """The game's parameters: the rulebook's numbers, each with its printed value as default."""
        return tuple(o for o in self.options if o.param)

    @property
    def variants(self) -> tuple[str, ...]:
        """Names of the boolean options that are rule variants."""
        return tuple(o.name for o in self.options if o.variant)

    def option(self, name: str) -> OptionSpec:
        """The option called ``name`` (underscores and dashes are the same)."""
        key = name.replace("_", "-")
        for opt in self.options:
            if opt.name == key:
                return opt
        known = ", ".join(o.name for o in self.options) or "none"
        raise OptionError(f"{self.name} has no option {name!r} (options: {known})")

    def check_players(self, players: int) -> int:
        """Return ``players`` if the game can be played with that many, else raise."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise PlayerCountError(f"the number of players must be a whole number, not {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise PlayerCountError(
                f"{self.name} is played by {self.min_players} to {self.max_players} players, not {players}"
            )
        return players

    def resolve_options(self, options: Mapping[str, object] | None = None) -> dict[str, OptionValue]:
        """Every option with its default, overridden by ``options`` (checked)."""
        values: dict[str, OptionValue] = {o.name: o.default for o in self.options}
        for name, raw in (options or {}).items():
            opt = self.option(name)
            values[opt.name] = opt.parse(raw)
        return values
