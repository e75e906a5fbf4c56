"""The web app's languages: gettext catalogs, the reader's language, and the tools that keep the catalogs.

Everything a person reads on the site is an English message in the source, looked
up in the catalog of the reader's language when it is shown:

* templates: ``{{ _("Your turn") }}``, ``{{ _("Seat %(n)s", n=seat + 1) }}``,
  ``{% trans %}`` blocks (Jinja2's ``i18n`` extension, new-style gettext);
* Python (server, pages, every game's ``web.py``): ``tr.gettext("{n} cards to
  deal").format(n=deck)`` with the :class:`~ziggurat.core.i18n.Translator` of the
  request, ``N_("...")`` to mark a text translated later, and
  ``ServiceError(code, "message {x}", x=...)`` for errors sent to people;
* the ES modules (``static/*.js``): ``_("Connected.")``, ``ngettext(...)`` from
  ``static/i18n.js``, which reads the page's catalog of the JS messages (a JSON
  data block, not a script).

The catalogs are ``locale/<lang>/LC_MESSAGES/messages.po`` and nothing else: they are
compiled in memory when first used (Babel), so a fresh clone needs no build step.
``python -m ziggurat.web.i18n update`` extracts every message (Babel's extractors
for Python, Jinja2 and JavaScript, plus the texts of each game's spec) and merges
them into every catalog (new ones empty, changed ones fuzzy); ``check`` says what is
missing, fuzzy, stale or broken (the same check is a test); ``init LANG`` starts a
new language. English is the source language: its catalog is filled from the
source text by ``update``, so a wording can be changed in the catalog alone.

The reader's language: ``?lang=xx`` on any page (remembered in the ``zg_lang``
cookie), else the cookie, else the browser's ``Accept-Language``, else English.
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import sys
from collections.abc import Iterable, Mapping
from io import BytesIO
from pathlib import Path
from typing import Any

import orjson

from ziggurat.core.i18n import ENGLISH, Translator

__all__ = [
    "COOKIE",
    "DEFAULT",
    "LANGUAGES",
    "choose",
    "engine_text",
    "js_catalog",
    "negotiate",
    "translator",
]

LANGUAGES: Mapping[str, str] = {"en": "English", "es": "Español"}
"""Every language of the site, by code, with its name in itself (the switch shows these)."""
DEFAULT = "en"
COOKIE = "zg_lang"
DOMAIN = "messages"
LOCALE_DIR = Path(__file__).parent / "locale"
PACKAGE_DIR = Path(__file__).parent.parent  # src/ziggurat: the paths in the catalogs start here

# What Babel looks for: the standard gettext names, N_ (mark now, translate later) and the
# message (2nd argument) of ServiceError, the error the server answers with.
KEYWORDS: dict[str, Any] = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "N_": None,
    "ServiceError": (2,),
    "Plural": (1, 2),
}
METHOD_MAP = [
    ("server/admin.py", "ignore"),  # the operators' terminal tools: not the web's
    ("web/templates/**.html", "jinja2.ext:babel_extract"),
    ("web/static/**.js", "javascript"),
    ("**.py", "python"),
]
OPTIONS_MAP = {
    "web/templates/**.html": {"extensions": "jinja2.ext.i18n", "trim_blocks": "true", "lstrip_blocks": "true"},
}
SPEC_LOCATION = "games/{game}/spec"  # where the texts of a game's spec (summary, options) are said to come from
OPTION_CONTEXT = "option"  # msgctxt of an option's name (a label in the lobby, not its id)


# --------------------------------------------------------------------------- run time
def po_path(lang: str) -> Path:
    """The catalog of ``lang``."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def _catalog(lang: str) -> Any:
    from babel.messages.pofile import read_po

    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


@functools.cache
def translator(lang: str) -> Translator:
    """The translations of ``lang`` (English, or an unknown code: the source text).

    Compiled in memory from the ``.po`` file the first time (fuzzy entries are left
    out: they fall back to English until a translator confirms them).

    >>> translator("es").gettext("Your turn.")
    'Es tu turno.'
    """
    if lang not in LANGUAGES or not po_path(lang).exists():
        return ENGLISH
    from babel.messages.mofile import write_mo
    from babel.support import Translations

    buffer = BytesIO()
    write_mo(buffer, _catalog(lang), use_fuzzy=False)
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)  # type: ignore[return-value]  # Babel types pgettext loosely


@functools.cache
def js_catalog(lang: str) -> str:
    """The messages of the ES modules in ``lang``, as the JSON that ``static/i18n.js`` reads.

    ``{"lang": "es", "messages": {msgid: text, ...}, "plurals": {singular: [forms]}}``:
    only what the scripts show (the entries found in ``static/*.js``), translated.
    """
    messages: dict[str, str] = {}
    plurals: dict[str, list[str]] = {}
    if lang in LANGUAGES and po_path(lang).exists():
        for message in _catalog(lang):
            if not message.id or message.fuzzy or not any(path.endswith(".js") for path, _ in message.locations):
                continue
            if isinstance(message.id, tuple):
                forms = [s for s in message.string if s]
                if forms:
                    plurals[message.id[0]] = forms
            elif message.string:
                messages[message.id] = message.string
    return json.dumps({"lang": lang, "messages": messages, "plurals": plurals}, ensure_ascii=False, sort_keys=True)


_TAG = re.compile(r"^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$")


def negotiate(accept_language: str | None) -> str | None:
    """The site's language the browser prefers most (``Accept-Language``), or ``None``.

    >>> negotiate("es-MX,es;q=0.9,en;q=0.8")
    'es'
    >>> negotiate("fr-FR, de;q=0.5, en;q=0.1")
    'en'
    >>> negotiate("fr") is None
    True
    """
    if not accept_language:
        return None
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(accept_language.split(",")[:32]):
        tag, _, params = part.strip().partition(";")
        tag = tag.strip()
        if not tag or (tag != "*" and not _TAG.match(tag)):
            continue
        q = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if q > 0:
            ranked.append((-q, i, tag.lower()))
    for _, _, tag in sorted(ranked):
        primary = tag.split("-")[0]
        if primary in LANGUAGES:
            return primary
    return None


def choose(asked: str | None, cookie: str | None, accept_language: str | None) -> str:
    """The reader's language: asked for (``?lang=``), else remembered (cookie), else the browser's, else English.

    >>> choose("es", "en", "en"), choose(None, "es", "en"), choose(None, None, "es"), choose("xx", None, None)
    ('es', 'es', 'es', 'en')
    """
    for lang in (asked, cookie):
        if lang in LANGUAGES:
            return lang  # type: ignore[return-value]
    return negotiate(accept_language) or DEFAULT


# --------------------------------------------------------------------------- the engines' messages
ENGINE_LOCATION = "games/{prefix}/messages"  # where an engine message's template is said to come from


_texts: dict[tuple[object, bytes], str] = {}
_KEEP_TEXTS = 16_384  # the words of the moves and log lines of the tables being played, a few MB at most


def _plain(message: Any) -> Any:
    """What a message says, for :func:`orjson.dumps` (a message's id and parameters; its JSON is already plain)."""
    from ziggurat.core.message import Message

    if isinstance(message, Message):  # a name no parameter has: a list of the same values is not the message
        return {"\u0000message": [message.id, message.params]}
    raise TypeError(type(message).__name__)


def engine_text(message: Any, tr: Translator) -> str:
    """An engine's message (a :class:`~ziggurat.core.message.Message`, or its JSON) in the language of ``tr``
    (:func:`ziggurat.core.i18n.engine_text`, which the games' boards use too).

    A server writes the same words for every audience of a move (the log line) and for every legal move
    of the one to play (its button), after every move: each message is rendered once per language and
    kept (up to a bound; then the kept texts are dropped and kept anew).

    >>> from ziggurat.core.message import Message
    >>> card = Message("kuhnah.card", {"id": "17a", "value": 17, "left": "monkey", "right": "bat"})
    >>> m = Message("kuhnah.take", {"card": card, "jade": 2})
    >>> engine_text(m, translator("en")), engine_text(m, translator("es"))
    ('takes the 17 (monkey|bat) with 2 jade', 'toma el 17 (mono|murciélago) con 2 jade')
    """
    from ziggurat.core.i18n import engine_text as core_engine_text

    try:
        key = (tr, orjson.dumps(message, default=_plain))
    except (orjson.JSONEncodeError, TypeError):  # something no JSON holds: rendered every time
        return core_engine_text(message, tr)
    text = _texts.get(key)
    if text is None:
        if len(_texts) >= _KEEP_TEXTS:
            _texts.clear()
        text = _texts[key] = core_engine_text(message, tr)
    return text


def _engine_messages() -> Iterable[tuple[str, str, str]]:
    """(location, English template, message id) of every message an engine can give."""
    from ziggurat.core import game_ids, get_game
    from ziggurat.core.message import catalogs

    games = game_ids()  # a game's catalog is made when the game is imported
    for gid in games:
        get_game(gid)
    for prefix, catalog in sorted(catalogs().items()):
        if prefix != "core" and prefix not in games:
            continue  # a catalog made elsewhere (a test's, a doctest's) is no message the site gives
        for message_id, template in catalog.templates.items():
            yield ENGINE_LOCATION.format(prefix=prefix), template, message_id


# --------------------------------------------------------------------------- the catalogs' tools
def _spec_messages() -> Iterable[tuple[str, str | tuple[str, str], str | None]]:
    """(location, message, context) for the texts of every game's spec the web shows."""
    from ziggurat.core import game_ids, get_game

    for gid in game_ids():
        spec = get_game(gid).game_class.spec
        where = SPEC_LOCATION.format(game=gid)
        if spec.summary:
            yield where, spec.summary, None
        for option in spec.options:
            if option.kind == "path" or option.param:
                continue  # not offered on the web
            yield where, option.name, OPTION_CONTEXT
            if option.help:
                yield where, option.help, None
            for choice in option.choices:
                if not str(choice).isdigit():
                    yield where, str(choice), OPTION_CONTEXT


def extract() -> Any:
    """Every message of the web app, from the source (a Babel ``Catalog`` with no translations)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir

    template = Catalog(domain=DOMAIN, project="Ziggurat", charset="utf-8", fuzzy=False)

    def wanted(path: str) -> bool:
        return "__pycache__" not in path and "/migrations" not in path

    found = extract_from_dir(
        PACKAGE_DIR,
        METHOD_MAP,
        OPTIONS_MAP,  # type: ignore[arg-type]
        keywords=KEYWORDS,
        comment_tags=("TRANSLATORS:",),
        strip_comment_tags=True,
        directory_filter=wanted,
    )
    for filename, lineno, message, comments, context in found:
        template.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    for where, message, context in _spec_messages():
        template.add(message, None, [(where, 0)], context=context)
    for where, english_template, message_id in _engine_messages():
        template.add(english_template, None, [(where, 0)], context=message_id)
    template.add(
        "and", None, [("web/i18n.py", 0)], context="list", auto_comments=["the word that ends a list: a, b and c"]
    )
    return template


def update(langs: Iterable[str] | None = None) -> list[Path]:
    """Merge the source's messages into the catalogs (new: empty; changed: fuzzy; gone: removed)."""
    from babel.messages.catalog import Catalog

    written = []
    for lang in langs or LANGUAGES:
        template = extract()  # Babel merges new messages in without copying them: one template per catalog
        path = po_path(lang)
        if path.exists():
            catalog = _read(path, lang)
        else:
            catalog = Catalog(locale=lang, domain=DOMAIN, project="Ziggurat", fuzzy=False)
        catalog.update(template, no_fuzzy_matching=False, update_creation_date=False)
        catalog.fuzzy = False
        if lang == DEFAULT:  # the source language: its text is the source's (a translator may reword it)
            for message in catalog:
                if message.id and (message.fuzzy or not _translated(message)):
                    message.string = message.id if isinstance(message.id, str) else tuple(message.id)
                    message.flags.discard("fuzzy")
        _write(path, catalog)
        written.append(path)
    translator.cache_clear()
    js_catalog.cache_clear()
    _catalog.cache_clear()
    return written


def _read(path: Path, lang: str) -> Any:
    from babel.messages.pofile import read_po

    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def _write(path: Path, catalog: Any) -> None:
    from babel.messages.pofile import write_po

    path.parent.mkdir(parents=True, exist_ok=True)
    catalog.revision_date = catalog.creation_date  # no timestamps that change on every run
    with path.open("wb") as f:
        write_po(f, catalog, width=100, sort_by_file=True, ignore_obsolete=True, include_lineno=False)


def _translated(message: Any) -> bool:
    if isinstance(message.string, (tuple, list)):
        return bool(message.string) and all(message.string)
    return bool(message.string)


_BRACE = re.compile(r"\{(\w*)(?:![rsa])?(?::[^{}]*)?\}")
_PERCENT = re.compile(r"%\((\w+)\)[sd]")


def placeholders(text: str) -> set[str]:
    """The ``{name}`` and ``%(name)s`` placeholders of a message.

    >>> sorted(placeholders("Seat %(n)s: {name} {kind!r}"))
    ['%n', 'kind', 'name']
    """
    return set(_BRACE.findall(text)) | {"%" + p for p in _PERCENT.findall(text)}


def problems(langs: Iterable[str] | None = None) -> list[str]:
    """What is wrong with the catalogs against the source (empty: every message translated everywhere)."""
    template = extract()
    wanted = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in template if m.id}
    out: list[str] = []
    for lang in langs or LANGUAGES:
        path = po_path(lang)
        if not path.exists():
            out.append(f"{lang}: no catalog at {path} (python -m ziggurat.web.i18n init {lang})")
            continue
        catalog = _read(path, lang)
        have = {}
        for m in catalog:
            if m.id:
                have[(m.id if isinstance(m.id, str) else m.id[0], m.context)] = m
        for key in sorted(wanted - have.keys(), key=str):
            out.append(f"{lang}: missing {key[0]!r} (python -m ziggurat.web.i18n update, then translate it)")
        for key in sorted(have.keys() - wanted, key=str):
            out.append(f"{lang}: {key[0]!r} is no longer in the source (python -m ziggurat.web.i18n update)")
        for key in sorted(wanted & have.keys(), key=str):
            m = have[key]
            if m.fuzzy:
                out.append(f"{lang}: {key[0]!r} is fuzzy (check the translation, then drop the fuzzy flag)")
            elif not _translated(m):
                out.append(f"{lang}: {key[0]!r} has no translation")
            else:
                ids = [m.id] if isinstance(m.id, str) else list(m.id)
                strings = [m.string] if isinstance(m.string, str) else list(m.string)
                need = set().union(*(placeholders(i) for i in ids))
                for s in strings:
                    if placeholders(s) - need or (len(ids) == 1 and placeholders(s) != need):
                        out.append(f"{lang}: {key[0]!r} -> {s!r}: the placeholders differ")
        for m in catalog:
            for error in m.check(catalog) if m.id else ():
                out.append(f"{lang}: {m.id!r}: {error}")
    return out


def init(lang: str) -> Path:
    """Start the catalog of a new language (then add it to :data:`LANGUAGES` and translate it)."""
    from babel.core import Locale

    Locale.parse(lang)  # a clear error for a code Babel does not know
    if po_path(lang).exists():
        raise SystemExit(f"{po_path(lang)} exists already")
    return update([lang])[0]


def main(argv: list[str] | None = None) -> int:
    """``python -m ziggurat.web.i18n update|check|init LANG``."""
    parser = argparse.ArgumentParser(description="Keep the web app's message catalogs.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("update", help="merge the source's messages into every catalog")
    sub.add_parser("check", help="list what is missing, fuzzy or stale (exit 1 if anything is)")
    start = sub.add_parser("init", help="start the catalog of a new language")
    start.add_argument("lang")
    args = parser.parse_args(argv)
    if args.command == "update":
        for path in update():
            print(path)
        return 0
    if args.command == "init":
        print(init(args.lang))
        return 0
    found = problems()
    for problem in found:
        print(problem, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
