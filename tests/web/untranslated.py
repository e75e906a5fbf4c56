"""Finding English left on a page meant for another language.

Two nets: every English message of the catalog whose translation differs (a text
a person reads that equals it, placeholders filled with anything, was written
without the catalog), and English function words that no Spanish text has (a
text that never went through the catalog at all).
"""

from __future__ import annotations

import functools
import re
from html.parser import HTMLParser

from ziggurat.web import i18n

# words that are English and never Spanish: a text a person reads that holds one was not translated
ENGLISH_WORDS = frozenset(
    [
        "the",
        "your",
        "you",
        "and",
        "with",
        "of",
        "to",
        "is",
        "are",
        "from",
        "this",
        "that",
        "it",
        "its",
        "on",
        "at",
        "for",
        "by",
        "have",
        "not",
        "or",
        "an",
        "when",
        "which",
        "who",
        "what",
        "than",
        "must",
        "only",
        "yet",
        "still",
        "been",
        "were",
        "will",
        "would",
        "there",
        "their",
        "they",
        "them",
    ]
)
_READ_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt", "value")
_PLACEHOLDER = re.compile(r"\{\w*(?:![rsa])?\}|%\(\w+\)[sd]")


class _Texts(HTMLParser):
    """Every text node and read attribute of a page, with the classes of its enclosing elements."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[tuple[str, frozenset[str]]] = []
        self._stack: list[tuple[str, frozenset[str]]] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        classes = frozenset((values.get("class") or "").split())
        inherited = self._stack[-1][1] if self._stack else frozenset()
        if tag in ("script", "style", "code", "kbd", "pre"):  # code: identifiers, the same in every language
            self._skip += 1
        if tag not in ("input", "meta", "link", "br", "img", "hr", "rect", "circle", "line", "polygon", "path"):
            self._stack.append((tag, inherited | classes))
        for name in _READ_ATTRIBUTES:
            if values.get(name) and not (name == "value" and tag != "button"):
                self.texts.append((values[name] or "", inherited | classes))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if self._stack and self._stack[-1][0] == tag:
            self._stack.pop()

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "code", "kbd", "pre"):
            self._skip -= 1
        while self._stack:
            open_tag, _ = self._stack.pop()
            if open_tag == tag:
                break

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.texts.append((data, self._stack[-1][1] if self._stack else frozenset()))


def read_texts(html: str) -> list[tuple[str, frozenset[str]]]:
    """The texts a person reads on ``html`` (text and the attributes a screen reader or a hover shows)."""
    parser = _Texts()
    parser.feed(html)
    return [(" ".join(t.split()), classes) for t, classes in parser.texts]


@functools.cache
def english_messages(lang: str) -> re.Pattern[str]:
    """One pattern that matches a whole text equal to an English message that ``lang`` translates otherwise."""
    catalog = i18n._catalog(lang)
    patterns = []
    for message in catalog:
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        for english in ids:
            if english in strings:
                continue
            literal = _PLACEHOLDER.sub("", english)
            if sum(ch.isalpha() for ch in literal) < 3:
                continue  # "{who}: {move}", "P{n}": nothing of it is English
            words = set(re.findall(r"[^\W\d_]+", literal.lower()))
            if words <= set(re.findall(r"[^\W\d_]+", " ".join(strings).lower())):
                continue  # "{bot} bot": its words are the same in the translation
            parts = _PLACEHOLDER.split(english)
            patterns.append(".+?".join(re.escape(re.sub(r"\s+", " ", p)) for p in parts))
    return re.compile("^(?:" + "|".join(sorted(patterns, key=len, reverse=True)) + ")$")


def untranslated(html: str, lang: str = "es", ignore_classes: frozenset[str] = frozenset()) -> list[str]:
    """The texts of ``html`` still in English: catalog messages left as they are, or English words."""
    pattern = english_messages(lang)
    found = []
    for text, classes in read_texts(html):
        if classes & ignore_classes:
            continue
        words = {w.lower() for w in re.findall(r"[^\W\d_]+", text) if not (w.isupper() and len(w) > 1)}  # not IS-MCTS
        if pattern.match(text) or words & ENGLISH_WORDS:
            found.append(text)
    return found
