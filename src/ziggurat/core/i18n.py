"""Translatable text: what a game's drawing is handed to write in the reader's language.

Core and the games write English and never load a catalog: translation happens at
the edge (the web's catalogs live in :mod:`ziggurat.web.i18n`). A front end that
speaks another language hands a :class:`Translator` to the code that writes text a
person reads, such as a game's web board (``board(view, player, legal,
tr=...)``, see :class:`~ziggurat.core.registry.GameEntry`); without one,
:data:`ENGLISH` writes the text as it is in the source.

Messages are English literals with ``{name}`` placeholders, filled after the
lookup, so every language can put the parts in its own order::

    tr.gettext("{count} cards to deal").format(count=deck)
    tr.ngettext("{n} card", "{n} cards", n).format(n=n)

The catalogs are extracted from the source by Babel, which finds every call of
``gettext``, ``ngettext``, ``pgettext`` and ``N_`` with literal arguments: a
message built at run time (an f-string) cannot be found, so it is never
translated (a test of :mod:`ziggurat.web` fails on one).

>>> ENGLISH.gettext("Your turn")
'Your turn'
>>> ENGLISH.ngettext("{n} card", "{n} cards", 2).format(n=2)
'2 cards'
"""

from __future__ import annotations

import gettext
from dataclasses import dataclass
from typing import Protocol

__all__ = ["ENGLISH", "N_", "Message", "Plural", "Translator", "engine_text"]


class Translator(Protocol):
    """The three lookups of the standard ``gettext`` module (Babel's ``Translations`` has them)."""

    def gettext(self, message: str) -> str:
        """``message`` in the reader's language."""
        ...

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form of ``singular``/``plural`` that suits the number ``n``, translated."""
        ...

    def pgettext(self, context: str, message: str) -> str:
        """``message`` translated in ``context`` (one English word, two meanings)."""
        ...


ENGLISH: Translator = gettext.NullTranslations()
"""The source text as it is (English)."""


class Message(str):
    """English text marked for the catalogs and translated where it is shown (what :func:`N_` returns).

    A front end translates a :class:`Message` it is handed (an error's reason, say)
    and leaves any other text (a player's name) as it is.
    """

    __slots__ = ()


@dataclass(frozen=True)
class Plural:
    """A number and its words, marked for the catalogs and put in the reader's language where it is shown.

    ``str()`` gives the English (``{n}`` filled with ``n``); a front end writes
    :meth:`text` instead. The catalogs find ``Plural("{n} second", "{n} seconds", n)``
    like an ``ngettext`` call.

    >>> wait = Plural("{n} second", "{n} seconds", 3)
    >>> str(wait), wait.text(ENGLISH)
    ('3 seconds', '3 seconds')
    """

    singular: str
    plural: str
    n: int

    def __str__(self) -> str:
        return (self.singular if self.n == 1 else self.plural).format(n=self.n)

    def text(self, tr: Translator) -> str:
        """The words in the language of ``tr``."""
        return tr.ngettext(self.singular, self.plural, self.n).format(n=self.n)


def N_(message: str) -> Message:
    """Mark ``message`` for the catalogs without translating it here (it is translated where it is shown).

    >>> N_("random")
    'random'
    >>> isinstance(N_("random"), Message)
    True
    """
    return Message(message)


def engine_text(message: object, tr: Translator = ENGLISH) -> str:
    """An engine's message (a :class:`~ziggurat.core.message.Message`, or its JSON) in the language of ``tr``.

    The engines write English templates by message id (``games/<id>/messages.py``); a
    front end's catalogs hold each one under its id as context, so the same English
    may read differently for two ids. A string parameter the catalog knows (an animal,
    a colour, a resource: the content's own words) is translated too; any other (a
    card's id, Nakum's names) stays as it is. A game's board writes the engine's words
    with this, so games need no catalog of their own.
    """
    from ziggurat.core.message import Message as EngineMessage
    from ziggurat.core.message import english, render
    from ziggurat.core.registry import game_ids

    game_ids()  # the games' catalogs are made when the games are found
    if not isinstance(message, EngineMessage):
        message = EngineMessage.from_json(message)  # type: ignore[arg-type]

    def lookup(message_id: str) -> str:
        return tr.pgettext(message_id, english(message_id))

    def terms(m: EngineMessage) -> EngineMessage:
        def term(value: object) -> object:
            if isinstance(value, EngineMessage):
                return terms(value)
            if isinstance(value, str) and value:
                return tr.gettext(value)
            if isinstance(value, list | tuple):
                return [term(v) for v in value]
            return value

        return EngineMessage(m.id, {k: term(v) for k, v in m.params.items()})

    return render(terms(message), lookup, conjunction=tr.pgettext("list", "and"))
