"""Messages a person reads, as data: a stable id, JSON-ready parameters and the English text.

The engine says why a move is not legal (:meth:`State.why_illegal`), what a move
did (:meth:`State.describe_action`) and how a score comes about
(:meth:`State.score_breakdown`) as :class:`Message` values, in the same words for
every front end. ``text`` is the English; a translated front end looks the
``id`` up in its own catalog and renders the same ``params`` with :func:`render`,
never by parsing the English.

Every message comes from a :class:`Catalog`: one per game (``games/<id>/messages.py``)
and the core's own (:data:`CORE`), each holding the English *template* of every id
it can produce. :func:`catalogs` lists them all, so a translation tool can extract
every id with its English template.

Templates are Python format strings over the parameters (``"the {value} is
heavier"``), with three additions that a translated catalog uses the same way:

* ``{n:segment|segments}`` on a whole number picks the first word for 1 and the
  second for anything else;
* a list parameter is written as a list, ``"a, b and c"`` (:func:`render` takes the
  word for "and");
* a parameter that is itself a :class:`Message` (a reason inside a reason, a card's
  name) is rendered from its own template, so it is translated too.

Parameters are JSON-ready: numbers, strings, booleans, ``None``, lists of them
and nested messages. Player numbers are written as people see them (``player``:
1 for seat 0), and a ``seat`` parameter beside them gives the 0-based seat.
Strings naming pieces are the content's own words (``"monkey"``, ``"red"``,
``"maizal"``): a catalog may translate them as terms (Nakum's names stay as
printed).

>>> demo = Catalog("demo", {"drawn": "draws {n} {n:segment|segments}: {segments}"})
>>> m = demo("drawn", n=3, segments=["s1", "s2", "s3"])
>>> m.id, m.text
('demo.drawn', 'draws 3 segments: s1, s2 and s3')
>>> render(m, {"demo.drawn": "dibuja {n} {n:segmento|segmentos}: {segments}"}.__getitem__, conjunction="y")
'dibuja 3 segmentos: s1, s2 y s3'
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

Lookup = Callable[[str], str]


class Message:
    """One message: ``id`` (stable, dotted: ``"kuhnah.support"``), ``params`` and the English ``text``.

    ``str(message)`` is the text. Make messages with a :class:`Catalog`, which
    renders the text from the id's template, so text and id never disagree. The
    text is rendered when first read: a message asked for its id alone (a front
    end that translates) costs no formatting. Two messages are equal when their
    ids and parameters are.
    """

    __slots__ = ("_text", "id", "params")

    def __init__(self, id: str, params: Mapping[str, Any], text: str | None = None):
        self.id = id
        self.params = params
        self._text = text

    @property
    def text(self) -> str:
        """The English text (rendered from the English template on first use)."""
        if self._text is None:
            self._text = render(self)
        return self._text

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Message({self.id!r}, {dict(self.params)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Message):
            return NotImplemented
        return self.id == other.id and dict(self.params) == dict(other.params)

    __hash__ = None  # type: ignore[assignment]  # params is a dict

    def to_json(self) -> dict[str, Any]:
        """``{"id", "params", "text"}``, nested messages as the same kind of object."""
        return {"id": self.id, "params": {k: _json(v) for k, v in self.params.items()}, "text": self.text}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Message:
        """The message written by :meth:`to_json` (nested messages included)."""
        return cls(str(data["id"]), {k: _unjson(v) for k, v in dict(data["params"]).items()}, str(data["text"]))


def _json(value: Any) -> Any:
    if isinstance(value, Message):
        return value.to_json()
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    return value


def _unjson(value: Any) -> Any:
    if isinstance(value, Mapping) and set(value) == {"id", "params", "text"}:
        return Message.from_json(value)
    if isinstance(value, list):
        return [_unjson(v) for v in value]
    return value


def join_list(items: Sequence[str], conjunction: str = "and") -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"``.

    >>> join_list(["s1", "s2", "s3"]), join_list(["x"], "y")
    ('s1, s2 and s3', 'x')
    """
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {conjunction} " + items[-1]


class _Count(int):
    """A whole-number parameter that also takes the plural spec ``{n:cube|cubes}``."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        if "|" in spec:
            one, _, other = spec.partition("|")
            return one if self == 1 else other
        return int.__format__(self, spec)


def _prepare(value: Any, lookup: Lookup, conjunction: str) -> Any:
    """A parameter as ``str.format`` takes it: nested messages rendered, lists joined, counts pluralisable."""
    if isinstance(value, Message):
        return render(value, lookup, conjunction)
    if isinstance(value, list | tuple):
        return join_list([str(_prepare(v, lookup, conjunction)) for v in value], conjunction)
    if isinstance(value, int) and not isinstance(value, bool):
        return _Count(value)
    if value is None:
        return ""
    return value


def render(message: Message, lookup: Lookup | None = None, conjunction: str = "and") -> str:
    """The text of ``message`` from the template ``lookup(id)`` gives (default: the English catalogs).

    Nested messages are looked up the same way, so one lookup translates the
    whole text. ``conjunction`` is the word that ends a list.
    """
    get = lookup if lookup is not None else english
    return format_template(get(message.id), message.params, get, conjunction)


def format_template(
    template: str, params: Mapping[str, Any], lookup: Lookup | None = None, conjunction: str = "and"
) -> str:
    """``template`` filled with ``params`` (see the module docstring for the additions to ``str.format``)."""
    get = lookup if lookup is not None else english
    return template.format_map({k: _prepare(v, get, conjunction) for k, v in params.items()})


def _fields(template: str) -> Iterator[str]:
    """The names of the parameters a template uses."""
    for _, name, _, _ in string.Formatter().parse(template):
        if name:
            yield name


_CATALOGS: dict[str, Catalog] = {}


class Catalog:
    """The English templates of one source's messages (a game, or the core), by id.

    ``catalog(key, **params)`` makes the message ``"<prefix>.<key>"``; an unknown
    key or a missing parameter is a programming error (KeyError), caught by the
    tests that make every message.
    """

    def __init__(self, prefix: str, templates: Mapping[str, str]):
        self.prefix = prefix
        self.templates = {f"{prefix}.{key}": template for key, template in templates.items()}
        # the parameters each template needs, checked when a message is made (its text is rendered later)
        self._needs = {mid: frozenset(_fields(t)) for mid, t in self.templates.items()}
        _CATALOGS[prefix] = self

    def __call__(self, key: str, /, **params: Any) -> Message:
        mid = f"{self.prefix}.{key}"
        needs = self._needs[mid]
        if not needs <= params.keys():
            raise KeyError(f"{mid} needs the parameters {sorted(needs - params.keys())}")
        return Message(mid, params)

    def __contains__(self, message_id: str) -> bool:
        return message_id in self.templates

    def __iter__(self) -> Iterator[str]:
        return iter(self.templates)


def catalogs() -> Mapping[str, Catalog]:
    """Every catalog made so far, by prefix (a game's is made when the game is imported)."""
    return dict(_CATALOGS)


def english(message_id: str) -> str:
    """The English template of ``message_id`` (KeyError if no catalog has it)."""
    prefix = message_id.split(".", 1)[0]
    catalog = _CATALOGS.get(prefix)
    if catalog is None or message_id not in catalog.templates:
        raise KeyError(message_id)
    return catalog.templates[message_id]


CORE = Catalog(
    "core",
    {
        # why a player may not act at all now (before any rule of the game)
        "game_over": "the game is over; no more actions",
        "chance_decides": "chance decides now, not a player: wait for it",
        "not_chance": "chance does not decide now",
        "not_your_turn": "it is player {current}'s turn, not player {player}'s",
        "say_who": "players choose at the same time here: say which player acts (waiting for {waiting})",
        "already_chosen": "player {player} has already chosen or is not playing this round",
        # a game that says no more (never used by the built-in games)
        "not_legal": "{action!r} is not legal now",
        "chance_impossible": "chance outcome {outcome} is not possible now",
        # descriptions
        "action": "{action}",
        "choice_hidden": "makes a choice (shown once everyone has chosen)",
        # score breakdowns
        "score": "score",
        # why a game ended, for a game that declares no end of its own
        "end_over": "the game is over",
    },
)
