"""K'uh Nah's cards as data: loading and validating a card list (TOML).

The shipped list (``data/cards.toml``) is a reconstruction; see its header.
A user's own list has the same shape::

    animals = ["bat", "monkey", "quetzal", "serpent", "jaguar"]
    wild = "jaguar"
    [[card]]
    id = "6a"
    value = 6
    left = "bat"
    right = "monkey"
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ziggurat.core.content import parse_toml, read_content
from ziggurat.core.errors import ContentError

DECK_SIZE = 50
MAX_VALUE = 999
"""The heaviest card a list may hold (the printed ones weigh 6 to 30; the compiled kernel counts in 32 bits)."""
MAX_ANIMALS = 2 * DECK_SIZE
"""More animals than the cards have halves would name animals no card shows."""


@dataclass(frozen=True)
class Card:
    """One card: a weight (value) and an animal on each half."""

    id: str
    value: int
    left: str
    right: str

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"id": self.id, "value": self.value, "left": self.left, "right": self.right}


@dataclass(frozen=True)
class CardList:
    """A validated card list. ``wild`` is the jaguar (or ``None`` if no symbol is wild)."""

    source: str
    animals: tuple[str, ...]
    wild: str | None
    cards: tuple[Card, ...]

    def index(self, card_id: str) -> int:
        """Position of the card called ``card_id`` (KeyError if none)."""
        return self._ids()[card_id.lower()]

    @cache  # noqa: B019 - the list is immutable and lives as long as the program
    def _ids(self) -> dict[str, int]:
        return {c.id.lower(): i for i, c in enumerate(self.cards)}


def load_cards(path: str | Path | None = None) -> CardList:
    """Load and check a card list; the shipped reconstruction when ``path`` is None."""
    if path is None:
        return _default_cards()
    return parse_cards(*read_content("ziggurat.games.kuhnah", "cards.toml", path, "card list"))


@cache
def _default_cards() -> CardList:
    return parse_cards(*read_content("ziggurat.games.kuhnah", "cards.toml", None, "card list"))


def parse_cards(raw: bytes, source: str) -> CardList:
    """Check a card list given as TOML bytes; errors name the file, card and field."""
    data = parse_toml(raw, source)
    animals = data.get("animals")
    if not isinstance(animals, list) or not animals or not all(isinstance(a, str) and a for a in animals):
        raise ContentError(source, "needs 'animals', a list of animal names", field="animals")
    if len(set(animals)) != len(animals):
        raise ContentError(source, "an animal is listed twice", field="animals")
    if len(animals) > MAX_ANIMALS:
        raise ContentError(
            source, f"lists {len(animals)} animals; {DECK_SIZE} cards show at most {MAX_ANIMALS}", field="animals"
        )
    wild = data.get("wild")
    if wild is not None and wild not in animals:
        raise ContentError(source, f"the wild symbol {wild!r} is not one of the animals", field="wild")
    entries = data.get("card")
    if not isinstance(entries, list):
        raise ContentError(source, "needs [[card]] entries", field="card")
    if len(entries) != DECK_SIZE:
        raise ContentError(source, f"has {len(entries)} cards; K'uh Nah is played with {DECK_SIZE}")
    cards: list[Card] = []
    seen: set[str] = set()
    for n, entry in enumerate(entries, 1):
        name = f"#{n}" + (f" ({entry.get('id')})" if isinstance(entry, dict) and "id" in entry else "")
        if not isinstance(entry, dict):
            raise ContentError(source, "is not a table", entry=name)
        for key in entry:
            if key not in ("id", "value", "left", "right"):
                raise ContentError(source, "is not a card field (id, value, left, right)", entry=name, field=key)
        card_id = entry.get("id")
        if not isinstance(card_id, str) or not card_id.strip() or " " in card_id.strip():
            raise ContentError(source, "must be a short name without spaces", entry=name, field="id")
        if card_id.lower() in seen:
            raise ContentError(source, "is used by an earlier card", entry=name, field="id")
        seen.add(card_id.lower())
        value = entry.get("value")
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_VALUE:
            raise ContentError(source, f"must be a whole number from 0 to {MAX_VALUE}", entry=name, field="value")
        for side in ("left", "right"):
            if entry.get(side) not in animals:
                raise ContentError(
                    source, f"must be one of {', '.join(animals)}, not {entry.get(side)!r}", entry=name, field=side
                )
        cards.append(Card(card_id, value, entry["left"], entry["right"]))
    return CardList(source, tuple(animals), wild, tuple(cards))
