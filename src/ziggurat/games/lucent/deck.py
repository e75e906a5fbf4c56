"""Lucent's deck as data: loading and validating a deck file (TOML).

The shipped deck (``data/deck.toml``) is a reconstruction; see its header.
A user's own deck has the same shape::

    colours = ["red", "blue", "yellow", "green", "purple"]
    wildcards = 2
    geomancers = 5
    [gems]
    red = 9
    blue = 9
    yellow = 9
    green = 9
    purple = 9

Cards are numbered in that order (every red gem, then every blue gem, ...,
then the Wildcards, then the Geomancers); the number is a card's *index*, used
as the chance outcome id when it is removed or dealt. A card's *kind* is its
colour's position in ``colours``, then ``wildcard`` and ``geomancer``; cards of
one kind are interchangeable.

>>> deck = load_deck()
>>> len(deck.kinds), deck.card_ids[9], deck.card_ids[45], deck.card_ids[47]
(7, 'blue1', 'wildcard1', 'geomancer1')
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ziggurat.core.content import parse_toml, read_content
from ziggurat.core.errors import ContentError

WILDCARD = "wildcard"
GEOMANCER = "geomancer"
RESERVED = frozenset(
    {"wildcard", "wildcards", "geomancer", "geomancers", "wild", "geo", "base", "row", "slot", "focus", "play", "at",
     "as", "deal", "remove", "to", "player", "any"}
)  # fmt: skip
MAX_COLOURS = 8


@dataclass(frozen=True)
class Deck:
    """A validated deck.

    ``kinds`` is ``colours + ("wildcard", "geomancer")``; ``card_kind[i]`` is the
    kind of card ``i`` and ``card_ids[i]`` its name (``red3``, ``wildcard1``).
    """

    source: str
    colours: tuple[str, ...]
    gem_counts: tuple[int, ...]
    wildcards: int
    geomancers: int

    @property
    def kinds(self) -> tuple[str, ...]:
        """Every kind name: the colours, then ``wildcard`` and ``geomancer``."""
        return (*self.colours, WILDCARD, GEOMANCER)

    @property
    def wild_kind(self) -> int:
        """Kind number of the Wildcards."""
        return len(self.colours)

    @property
    def geo_kind(self) -> int:
        """Kind number of the Geomancers."""
        return len(self.colours) + 1

    @property
    def num_gems(self) -> int:
        """Number of coloured gems."""
        return sum(self.gem_counts)

    @property
    def counts(self) -> tuple[int, ...]:
        """How many cards of each kind the file lists."""
        return (*self.gem_counts, self.wildcards, self.geomancers)

    @property
    def card_kind(self) -> tuple[int, ...]:
        """Kind of every card index."""
        return tuple(k for k, n in enumerate(self.counts) for _ in range(n))

    @property
    def card_ids(self) -> tuple[str, ...]:
        """Name of every card index (``red1`` .. ``red9``, ``wildcard1``, ``geomancer1``)."""
        return tuple(f"{name}{i}" for name, n in zip(self.kinds, self.counts, strict=True) for i in range(1, n + 1))

    def first_index(self, kind: int) -> int:
        """Index of the first card of ``kind``."""
        return sum(self.counts[:kind])


def load_deck(path: str | Path | None = None) -> Deck:
    """Load and check a deck file; the shipped reconstruction when ``path`` is None."""
    if path is None:
        return _default_deck()
    return parse_deck(*read_content("ziggurat.games.lucent", "deck.toml", path, "deck file"))


@cache
def _default_deck() -> Deck:
    return parse_deck(*read_content("ziggurat.games.lucent", "deck.toml", None, "deck file"))


def _count(source: str, value: object, entry: str | None, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0 or value > 99:
        raise ContentError(source, f"must be a whole number from 0 to 99, not {value!r}", entry=entry, field=field)
    return value


def parse_deck(raw: bytes, source: str) -> Deck:
    """Check a deck given as TOML bytes; errors name the file, entry and field."""
    data = parse_toml(raw, source)
    for key in data:
        if key not in ("colours", "wildcards", "geomancers", "gems"):
            raise ContentError(source, "is not a deck field (colours, wildcards, geomancers, gems)", field=key)
    colours = data.get("colours")
    if not isinstance(colours, list) or not colours:
        raise ContentError(source, "needs 'colours', a list of colour names", field="colours")
    if len(colours) > MAX_COLOURS:
        raise ContentError(source, f"has {len(colours)} colours; at most {MAX_COLOURS} are supported", field="colours")
    for c in colours:
        if not isinstance(c, str) or not c.isalpha() or not c.islower():
            raise ContentError(source, f"{c!r} is not a colour name (one lower-case word)", field="colours")
        if c in RESERVED:
            raise ContentError(source, f"{c!r} is reserved for action texts; name the colour differently",
                               field="colours")  # fmt: skip
    if len(set(colours)) != len(colours):
        raise ContentError(source, "a colour is listed twice", field="colours")
    gems = data.get("gems")
    if not isinstance(gems, dict):
        raise ContentError(source, "needs a [gems] table: how many gems of each colour", field="gems")
    for key in gems:
        if key not in colours:
            raise ContentError(source, "is not one of the colours", entry="gems", field=key)
    counts = []
    for c in colours:
        if c not in gems:
            raise ContentError(source, "is missing: say how many gems of this colour", entry="gems", field=c)
        counts.append(_count(source, gems[c], "gems", c))
    if sum(counts) == 0:
        raise ContentError(source, "has no gems at all", entry="gems")
    wildcards = _count(source, data.get("wildcards", 0), None, "wildcards")
    geomancers = _count(source, data.get("geomancers", 0), None, "geomancers")
    return Deck(source, tuple(colours), tuple(counts), wildcards, geomancers)
