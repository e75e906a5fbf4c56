"""Nakum's content as data: jungle tiles, offering, market and heritage cards, the family card.

The rulebook names only a few pieces (El Maizal, El Cazador, a market card "pay 1 mask:
gain 2 maize, 2 points at the end", two camp examples), so the shipped files in
``data/`` are a **reconstruction**; see their headers and ``docs/games/nakum.md``.
A user may pass their own file of the same shape for any of them.

Resources are maize, skins and masks (jade masks). An *effect* is written as a
TOML table::

    { cost = { maize = 3 }, gain = { masks = 1, points = 1 } }   # pay, then gain
    { action = "market" }                                        # buy a market card
    { action = "heritage" }                                      # play a heritage card

Every loader checks its file and raises :class:`ContentError` naming the file,
the entry and the field.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ziggurat.core.content import parse_toml, read_content
from ziggurat.core.errors import ContentError

RESOURCES = ("maize", "skins", "masks")
GAINS = (*RESOURCES, "points")
ACTIONS = ("none", "market", "heritage")
NO_ACTION, MARKET_ACTION, HERITAGE_ACTION = 0, 1, 2
NUM_TILES = 8
MAX_OPTIONS = 3
MAX_BASICS = 2
CENTRAL_SPACES = ("pyramid", "pituk", "start", "grow")


@dataclass(frozen=True)
class Effect:
    """Pay ``cost`` (maize, skins, masks), gain ``gain`` (maize, skins, masks, points), then ``action``."""

    cost: tuple[int, int, int] = (0, 0, 0)
    gain: tuple[int, int, int, int] = (0, 0, 0, 0)
    action: int = NO_ACTION

    def text(self) -> str:
        """Short human text, e.g. ``"pay 3 maize: 1 mask + 1 point"``."""
        gains = _amounts(self.gain, GAINS)
        if self.action != NO_ACTION:
            gains = [*gains, "a market card" if self.action == MARKET_ACTION else "a heritage card"]
        body = " + ".join(gains) or "nothing"
        cost = _amounts(self.cost, RESOURCES)
        return f"pay {' + '.join(cost)}: {body}" if cost else body

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "cost": dict(zip(RESOURCES, self.cost, strict=True)),
            "gain": dict(zip(GAINS, self.gain, strict=True)),
            "action": ACTIONS[self.action],
            "text": self.text(),
        }


def _amounts(values: tuple[int, ...], names: tuple[str, ...]) -> list[str]:
    out = []
    for v, name in zip(values, names, strict=True):
        if v:
            single = {"maize": "maize", "skins": "skin", "masks": "mask", "points": "point"}[name]
            out.append(f"{v} {single if v == 1 else name}")
    return out


@dataclass(frozen=True)
class Space:
    """A basic space of a jungle tile: its effect; ``double`` spaces take two workers with 4 players."""

    effect: Effect
    double: bool


@dataclass(frozen=True)
class Tile:
    """A jungle tile: a key used in action texts, basic spaces and a camp with 2–3 options."""

    key: str
    name: str
    basics: tuple[Space, ...]
    camp: tuple[Effect, ...]
    camp_double: bool


@dataclass(frozen=True)
class Card:
    """A market or heritage card: pay ``effect.cost`` once, gain the rest; ``end_points`` at the end."""

    id: str
    name: str
    effect: Effect
    end_points: int
    free_camp: bool

    def text(self) -> str:
        """Short human text of the card."""
        gains = [" + ".join(_amounts(self.effect.gain, GAINS))] if any(self.effect.gain) else []
        if self.free_camp:
            gains.append("free a camp")
        if self.end_points:
            gains.append(f"{self.end_points} point{'s' if self.end_points != 1 else ''} at the end")
        body = ", ".join(gains) or "nothing"
        cost = _amounts(self.effect.cost, RESOURCES)
        return f"pay {' + '.join(cost)}: {body}" if cost else body

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "id": self.id,
            "name": self.name,
            "cost": dict(zip(RESOURCES, self.effect.cost, strict=True)),
            "gain": dict(zip(GAINS, self.effect.gain, strict=True)),
            "end_points": self.end_points,
            "free_camp": self.free_camp,
            "text": self.text(),
        }


@dataclass(frozen=True)
class Offering:
    """An offering card: sacrifice ``sacrifice`` of the two workers, pay ``cost``, score ``points``."""

    id: str
    name: str
    cost: tuple[int, int, int]
    sacrifice: int
    points: int

    def text(self) -> str:
        """Short human text of the offering."""
        cost = " + ".join(_amounts(self.cost, RESOURCES)) or "nothing"
        sac = f", sacrifice {self.sacrifice}" if self.sacrifice else ""
        return f"pay {cost}{sac}: {self.points} points"

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "id": self.id,
            "name": self.name,
            "cost": dict(zip(RESOURCES, self.cost, strict=True)),
            "sacrifice": self.sacrifice,
            "points": self.points,
            "text": self.text(),
        }


@dataclass(frozen=True)
class Family:
    """The family card: storage limits and how many of a resource make one point at the end."""

    limits: tuple[int, int, int]
    per_point: tuple[int, int, int]


# ------------------------------------------------------------------ loading
def _read(path: str | Path | None, default: str) -> tuple[dict[str, Any], str]:
    raw, source = read_content("ziggurat.games.nakum", default, path, "file")
    return parse_toml(raw, source), source


def _int(source: str, entry: str, field: str, value: object, lo: int = 0, hi: int = 99) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ContentError(source, f"must be a whole number from {lo} to {hi}, not {value!r}", entry=entry, field=field)
    return value


def _amount_table(source: str, entry: str, field: str, value: object, names: tuple[str, ...]) -> tuple[int, ...]:
    if value is None:
        return (0,) * len(names)
    if not isinstance(value, dict):
        raise ContentError(source, f"must be a table of {', '.join(names)}", entry=entry, field=field)
    for key in value:
        if key not in names:
            raise ContentError(source, f"{key!r} is not one of {', '.join(names)}", entry=entry, field=field)
    return tuple(_int(source, entry, f"{field}.{k}", value.get(k, 0), 0, 20) for k in names)


def _keys(source: str, entry: str, table: dict[str, Any], allowed: tuple[str, ...]) -> None:
    for key in table:
        if key not in allowed:
            raise ContentError(source, f"is not a field here (fields: {', '.join(allowed)})", entry=entry, field=key)


def _effect(source: str, entry: str, field: str, table: object) -> Effect:
    if not isinstance(table, dict):
        raise ContentError(source, "must be a table like { gain = { maize = 2 } }", entry=entry, field=field)
    for key in table:
        if key not in ("cost", "gain", "action"):
            raise ContentError(
                source, "is not an effect field (cost, gain, action)", entry=entry, field=f"{field}.{key}"
            )
    cost = _amount_table(source, entry, f"{field}.cost", table.get("cost"), RESOURCES)
    gain = _amount_table(source, entry, f"{field}.gain", table.get("gain"), GAINS)
    action_name = table.get("action", "none")
    if action_name not in ACTIONS:
        raise ContentError(source, f"must be one of {', '.join(ACTIONS)}", entry=entry, field=f"{field}.action")
    action = ACTIONS.index(action_name)
    if action != NO_ACTION and any(cost):
        raise ContentError(source, "an effect with an action has no cost of its own", entry=entry, field=field)
    if action == NO_ACTION and not any(gain):
        raise ContentError(source, "gives nothing", entry=entry, field=field)
    return Effect(cost, gain, action)  # type: ignore[arg-type]


def _ident(source: str, entry: str, value: object, seen: set[str], field: str = "id") -> str:
    if not isinstance(value, str) or not value or not value.isascii() or not value.isalnum() or value != value.lower():
        raise ContentError(source, "must be a short lower-case name of letters and digits", entry=entry, field=field)
    if value in seen:
        raise ContentError(source, "is used by an earlier entry", entry=entry, field=field)
    seen.add(value)
    return value


def _entries(source: str, data: dict[str, Any], name: str) -> list[tuple[str, dict[str, Any]]]:
    entries = data.get(name)
    if not isinstance(entries, list) or not entries:
        raise ContentError(source, f"needs [[{name}]] entries", field=name)
    out = []
    for n, entry in enumerate(entries, 1):
        label = f"#{n}" + (f" ({entry.get('id', entry.get('key'))})" if isinstance(entry, dict) else "")
        if not isinstance(entry, dict):
            raise ContentError(source, "is not a table", entry=label)
        out.append((label, entry))
    return out


def _name(source: str, label: str, entry: dict[str, Any]) -> str:
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ContentError(source, "needs a name", entry=label, field="name")
    return name


def parse_tiles(data: dict[str, Any], source: str) -> tuple[Tile, ...]:
    """The 8 jungle tiles from parsed TOML."""
    entries = _entries(source, data, "tile")
    if len(entries) != NUM_TILES:
        raise ContentError(source, f"has {len(entries)} tiles; Nakum has {NUM_TILES} jungle tiles", field="tile")
    seen: set[str] = set()
    reserved = {"pyramid", "pituk", "start", "grow", "basic", "camp"}
    tiles = []
    for label, entry in entries:
        _keys(source, label, entry, ("key", "name", "basic", "camp"))
        key = _ident(source, label, entry.get("key"), seen, "key")
        if key in reserved or key.isdigit():
            raise ContentError(source, f"{key!r} is reserved for another action word", entry=label, field="key")
        name = _name(source, label, entry)
        basics_raw = entry.get("basic")
        if not isinstance(basics_raw, list) or not 1 <= len(basics_raw) <= MAX_BASICS:
            raise ContentError(source, f"needs 1 to {MAX_BASICS} [[tile.basic]] spaces", entry=label, field="basic")
        basics = []
        for j, b in enumerate(basics_raw, 1):
            if not isinstance(b, dict):
                raise ContentError(source, "is not a table", entry=label, field=f"basic {j}")
            double = b.get("double", False)
            if not isinstance(double, bool):
                raise ContentError(source, "must be true or false", entry=label, field=f"basic {j}.double")
            effect = _effect(source, label, f"basic {j}", {k: v for k, v in b.items() if k != "double"})
            basics.append(Space(effect, double))
        camp = entry.get("camp")
        if not isinstance(camp, dict):
            raise ContentError(source, "needs a [tile.camp] table", entry=label, field="camp")
        _keys(source, label, camp, ("options", "double"))
        options = camp.get("options")
        if not isinstance(options, list) or not 2 <= len(options) <= MAX_OPTIONS:
            raise ContentError(source, f"a camp has 2 to {MAX_OPTIONS} options", entry=label, field="camp.options")
        camp_effects = tuple(_effect(source, label, f"camp.options {k}", o) for k, o in enumerate(options, 1))
        camp_double = camp.get("double", False)
        if not isinstance(camp_double, bool):
            raise ContentError(source, "must be true or false", entry=label, field="camp.double")
        tiles.append(Tile(key, name, tuple(basics), camp_effects, camp_double))
    return tuple(tiles)


def parse_cards(data: dict[str, Any], source: str, kind: str) -> tuple[Card, ...]:
    """Market or heritage cards from parsed TOML."""
    entries = _entries(source, data, "card")
    seen: set[str] = set()
    cards = []
    for label, entry in entries:
        _keys(source, label, entry, ("id", "name", "cost", "gain", "end_points", "free_camp"))
        card_id = _ident(source, label, entry.get("id"), seen)
        name = _name(source, label, entry)
        cost = _amount_table(source, label, "cost", entry.get("cost"), RESOURCES)
        gain = _amount_table(source, label, "gain", entry.get("gain"), GAINS)
        end_points = _int(source, label, "end_points", entry.get("end_points", 0), 0, 20)
        free_camp = entry.get("free_camp", False)
        if not isinstance(free_camp, bool):
            raise ContentError(source, "must be true or false", entry=label, field="free_camp")
        if kind == "heritage" and any(cost):
            raise ContentError(
                source, "heritage cards have no cost (one is played at setup)", entry=label, field="cost"
            )
        if not any(gain) and not end_points and not free_camp:
            raise ContentError(source, f"this {kind} card gives nothing", entry=label)
        cards.append(Card(card_id, name, Effect(cost, gain), end_points, free_camp))  # type: ignore[arg-type]
    return tuple(cards)


def parse_offerings(data: dict[str, Any], source: str) -> tuple[Offering, ...]:
    """Offering cards from parsed TOML."""
    entries = _entries(source, data, "offering")
    seen: set[str] = set()
    out = []
    for label, entry in entries:
        _keys(source, label, entry, ("id", "name", "cost", "sacrifice", "points"))
        oid = _ident(source, label, entry.get("id"), seen)
        name = _name(source, label, entry)
        cost = _amount_table(source, label, "cost", entry.get("cost"), RESOURCES)
        sacrifice = _int(source, label, "sacrifice", entry.get("sacrifice", 0), 0, 2)
        points = _int(source, label, "points", entry.get("points"), 1, 50)
        out.append(Offering(oid, name, cost, sacrifice, points))  # type: ignore[arg-type]
    if len(out) < 2:
        raise ContentError(source, "needs at least 2 offerings", field="offering")
    return tuple(out)


def parse_family(data: dict[str, Any], source: str) -> Family:
    """The family card from parsed TOML."""
    _keys(source, "family", data, ("limits", "per_point"))
    limits = _amount_table(source, "family", "limits", data.get("limits"), RESOURCES)
    per_point = _amount_table(source, "family", "per_point", data.get("per_point"), RESOURCES)
    for i, name in enumerate(RESOURCES):
        if limits[i] < 1:
            raise ContentError(source, "a storage limit must be at least 1", entry="family", field=f"limits.{name}")
        if per_point[i] < 1:
            raise ContentError(source, "must be at least 1", entry="family", field=f"per_point.{name}")
    return Family(limits, per_point)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Content:
    """Everything a game of Nakum is played with."""

    tiles: tuple[Tile, ...]
    market: tuple[Card, ...]
    offerings: tuple[Offering, ...]
    heritage: tuple[Card, ...]
    family: Family
    sources: tuple[str, ...] = ()
    """The file each part was read from, in the order of the fields above (for errors that name it)."""

    def source(self, part: str) -> str:
        """The file ``part`` (``"heritage"``, ...) was read from."""
        parts = ("tiles", "market", "offerings", "heritage", "family")
        return self.sources[parts.index(part)] if self.sources else f"the {part} file"


def _load(path: str | Path | None, default: str, parse: Callable[[dict[str, Any], str], Any]) -> tuple[Any, str]:
    data, source = _read(path, default)
    return parse(data, source), source


def _content(*parts: tuple[Any, str]) -> Content:
    tiles, market, offerings, heritage, family = (value for value, _ in parts)
    return Content(tiles, market, offerings, heritage, family, sources=tuple(source for _, source in parts))


def load_content(
    tiles: str | None = None,
    market: str | None = None,
    offerings: str | None = None,
    heritage: str | None = None,
    family: str | None = None,
) -> Content:
    """Load and check every content file (the shipped reconstruction for each ``None``)."""
    if tiles is market is offerings is heritage is family is None:
        return _default_content()
    return _content(
        _load(tiles, "tiles.toml", parse_tiles),
        _load(market, "market.toml", lambda d, s: parse_cards(d, s, "market")),
        _load(offerings, "offerings.toml", parse_offerings),
        _load(heritage, "heritage.toml", lambda d, s: parse_cards(d, s, "heritage")),
        _load(family, "family.toml", parse_family),
    )


@cache
def _default_content() -> Content:
    return _content(
        _load(None, "tiles.toml", parse_tiles),
        _load(None, "market.toml", lambda d, s: parse_cards(d, s, "market")),
        _load(None, "offerings.toml", parse_offerings),
        _load(None, "heritage.toml", lambda d, s: parse_cards(d, s, "heritage")),
        _load(None, "family.toml", parse_family),
    )
