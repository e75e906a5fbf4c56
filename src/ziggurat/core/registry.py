"""The registry: look games and bots up by id or alias.

Core knows no game and no bot: they are found through the package entry
points ``ziggurat.games`` and ``ziggurat.bots`` (declared in ``pyproject.toml``,
so a separate package can add its own). A ``ziggurat.games`` entry point names a
:class:`GameEntry` or a function returning them (the built-in one scans the
``ziggurat.games`` package, so adding a game touches only its own folder); a
``ziggurat.bots`` entry point names a module that calls :func:`register_bot`
when imported, or a function that does.

>>> game = make_game("kuh-nah", players=3)
>>> game.spec.id
'kuhnah'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, Protocol

from ziggurat.core.errors import UnknownBotError, UnknownGameError

if TYPE_CHECKING:
    import random

    import numpy as np

    from ziggurat.core.bot import Bot
    from ziggurat.core.game import Game, State
    from ziggurat.core.i18n import Translator
    from ziggurat.core.kernel import GameKernel
    from ziggurat.core.svg import Board

Heuristic = Callable[["State", int, "random.Random"], int]


class BoardDrawer(Protocol):
    """A game's web drawing: ``board(view, player, legal, tr=ENGLISH)`` (see :class:`GameEntry`)."""

    def __call__(
        self,
        view: Mapping[str, Any],
        player: int | None,
        legal: Sequence[tuple[int, str]],
        /,
        tr: Translator = ...,
    ) -> Board: ...


Evaluator = Callable[["State", int], float]
TensorWriter = Callable[[Mapping[str, Any], "np.ndarray"], None]
StateTensorWriter = Callable[["State", "int | None", "np.ndarray"], None]


@dataclass(frozen=True)
class GameEntry:
    """What a game package registers.

    ``render(view, player)`` turns a view (never a state: hidden information
    can't leak into the drawing) into something ``rich`` can print.
    ``heuristic(state, player, rng)`` is the game's one-move-ahead policy used by
    the ``greedy`` bot. ``rules`` is a one-screen summary for ``ziggurat rules``.
    ``tensor(game, view)`` encodes a player's view as a flat list of floats in
    [0, 1] of length ``tensor_size(game)`` (the same for every view of that
    game), for learning and for OpenSpiel's observation tensors; it is the
    readable reference of the encoding. ``tensor_writer(game)`` (optional, the
    fast path every adapter takes when it is there) returns ``write(view, out)``,
    which writes the same values into ``out``, a float32 NumPy vector of
    ``tensor_size(game)`` zeros (it sets only what is not zero); its tables are
    built once per game object. Its values must equal ``tensor``'s converted to
    float32, for every view (the conformance and interop tests check it).
    ``state_tensor_writer(game)`` (optional, faster still) returns
    ``write(state, seat, out)``, which writes ``tensor(game, state.view(seat))``
    into such a buffer straight from the state, without building the view. It
    must read only what ``view(seat)`` shows: the interop tests compare it with
    the view's encoding at every step of random games for every seat, and check
    that redrawing what the seat can't see (``state.resample(seat, rng)``)
    leaves it unchanged.
    ``value(state, player)`` is how the game stands for ``player`` in the
    game's own points: their final score once the game is over, an estimate of
    it before (points so far plus what their position is worth). Search bots
    judge a playout cut short by it, and the generic lookahead ranks moves by it.
    ``search`` holds the game's default options for the ``ismcts`` bot (the
    settings measured best for it; a user's options win).
    ``heuristic_needs_determinisation``: False when the heuristic reads only
    what its player may see (the legal actions, public parts, its own hand), so
    the ``greedy`` bot can decide on the live state and skip the resample; keep
    it True (the default) for a heuristic that looks at anything a
    determinisation redraws.
    ``board(view, player, legal, tr=ENGLISH)`` draws the table for the web as SVG
    from a view and gives the click path of each of ``player``'s ``legal``
    ``(id, text)`` actions (see :mod:`ziggurat.core.svg`); every text it writes
    goes through ``tr``, a :class:`~ziggurat.core.i18n.Translator` the front end
    hands it (the game imports no catalog). ``legal`` is empty whenever the viewer
    is not asked to decide now, even where the view names them as the one to move
    (the table has not started, a bot plays their seat): the board then invites
    no move ("Your turn" only with legal actions). Without a board the page shows
    the view as text and moves are made from the list of actions.
    ``kernel()`` imports the game's compiled kernel (numba, the ``fast``
    extra) and returns it as a :class:`~ziggurat.core.kernel.GameKernel`; it is
    called only for fast play, so the base install never imports numba.
    """

    game_class: type[Game]
    rules: str
    render: Callable[[Mapping[str, Any], int | None], Any] | None = None
    heuristic: Heuristic | None = None
    tensor: Callable[[Game, Mapping[str, Any]], list[float]] | None = None
    tensor_size: Callable[[Game], int] | None = None
    tensor_writer: Callable[[Game], TensorWriter] | None = None
    state_tensor_writer: Callable[[Game], StateTensorWriter] | None = None
    value: Evaluator | None = None
    search: Mapping[str, Any] = field(default_factory=dict)
    heuristic_needs_determinisation: bool = True
    board: BoardDrawer | None = None
    kernel: Callable[[], GameKernel] | None = None

    @property
    def id(self) -> str:
        """The game id."""
        return self.game_class.spec.id


@dataclass(frozen=True)
class BotEntry:
    """A registered bot: ``factory(game, player, seed, **params)`` makes one."""

    name: str
    factory: Callable[..., Bot]
    description: str


_games: dict[str, GameEntry] = {}
_game_keys: dict[str, str] = {}
_bots: dict[str, BotEntry] = {}
_discovered = False


def normalise(name: str) -> str:
    """Lowercase, accents and punctuation dropped: ``"K'uh-Nah"`` -> ``"kuhnah"``."""
    text = unicodedata.normalize("NFKD", name)
    return "".join(ch for ch in text.lower() if ch.isalnum())


def register_game(entry: GameEntry) -> None:
    """Register a game under its id and aliases (idempotent)."""
    spec = entry.game_class.spec
    _games[spec.id] = entry
    for key in (spec.id, spec.name, *spec.aliases):
        _game_keys[normalise(key)] = spec.id


def register_bot(name: str, factory: Callable[..., Bot], description: str) -> None:
    """Register a bot factory under ``name``."""
    _bots[name] = BotEntry(name, factory, description)


GAMES_GROUP = "ziggurat.games"
BOTS_GROUP = "ziggurat.bots"


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    _discovered = True
    for ep in sorted(entry_points(group=GAMES_GROUP), key=lambda e: e.name):
        found = ep.load()
        entries = found() if callable(found) and not isinstance(found, GameEntry) else found
        for entry in [entries] if isinstance(entries, GameEntry) else entries:
            if isinstance(entry, GameEntry):
                register_game(entry)
    for ep in sorted(entry_points(group=BOTS_GROUP), key=lambda e: e.name):
        found = ep.load()
        if callable(found):
            found()


_NOT_INSTALLED = " (none is registered: is ziggurat installed? `make setup` or `pip install -e .` declares them)"


def game_ids() -> list[str]:
    """Ids of every registered game, in a stable order."""
    _discover()
    order = ["kuhnah", "pyramix", "lucent", "kukulkan", "nakum"]
    return sorted(_games, key=lambda g: (order.index(g) if g in order else len(order), g))


def get_game(name: str) -> GameEntry:
    """The registered game called ``name`` (id, name or alias, any case)."""
    _discover()
    key = _game_keys.get(normalise(name))
    if key is None:
        known = ", ".join(game_ids())
        raise UnknownGameError(f"no game called {name!r} " + (f"(games: {known})" if known else _NOT_INSTALLED))
    return _games[key]


def entry_for(game: Game) -> GameEntry | None:
    """The registered entry of ``game``'s class, or ``None`` for a game that isn't registered."""
    _discover()
    entry = _games.get(game.spec.id)
    return entry if entry is not None and entry.game_class is type(game) else None


def make_game(name: str, players: int | None = None, options: Mapping[str, object] | None = None) -> Game:
    """Set up a game by name; ``players`` defaults to the smallest count."""
    entry = get_game(name)
    spec = entry.game_class.spec
    return entry.game_class(spec.min_players if players is None else players, options)


def bot_names() -> list[str]:
    """Names of every registered bot."""
    _discover()
    return sorted(_bots)


def get_bot(name: str) -> BotEntry:
    """The registered bot called ``name``."""
    _discover()
    entry = _bots.get(name.strip().lower())
    if entry is None:
        known = ", ".join(bot_names())
        raise UnknownBotError(f"no bot called {name!r} " + (f"(bots: {known})" if known else _NOT_INSTALLED))
    return entry


def make_bot(name: str, game: Game, player: int, seed: int | str | None = None, **params: Any) -> Bot:
    """Make a bot by name for ``player`` in ``game``."""
    return get_bot(name).factory(game, player, seed, **params)
