"""Game results as columns: one numpy array per column, one entry per game.

A :class:`GameTable` is what the workers send back, what the run files are
written from and what the report is tallied from: a million games are a few
dozen arrays, not a million dicts. Text columns (``setup``, ``end``,
``winners`` and every ``pN_bot``) are numpy unicode arrays; the others are
numbers (``seed`` may be ``uint64``). Columns keep the order of the rows
:func:`~ziggurat.analysis.simulate.play_game` has always written.

>>> t = GameTable.from_rows([{"index": 1, "setup": "base", "winners": "1;2"},
...                          {"index": 0, "setup": "base", "winners": "2"}])
>>> len(t), t.names, t["index"].tolist()
(2, ['index', 'setup', 'winners'], [1, 0])
>>> t.sorted().rows()[0]
{'index': 0, 'setup': 'base', 'winners': '2'}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

TEXT_COLUMNS = ("setup", "winners", "end")  # and every column ending in "_bot"


def is_text(name: str) -> bool:
    """Whether column ``name`` holds text (the others hold numbers)."""
    return name in TEXT_COLUMNS or name.endswith("_bot")


def text_array(values: Iterable[Any]) -> np.ndarray:
    """A numpy unicode array of ``values`` (at least one character wide, so empty text stays text)."""
    arr = np.asarray(list(values) if not isinstance(values, np.ndarray) else values, dtype=str)
    return arr if arr.dtype.itemsize else arr.astype("<U1")


def number_array(values: Sequence[Any]) -> np.ndarray:
    """A numpy array of numbers: int64 when every value is a whole number (uint64 past int64), else float64."""
    if isinstance(values, np.ndarray) and values.dtype.kind in "iuf":
        return values
    if all(isinstance(v, (int, np.integer)) for v in values):
        try:
            return np.asarray(values, dtype=np.int64)
        except OverflowError:
            return np.asarray(values, dtype=np.uint64)
    try:
        return np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        return text_array(values)


class GameTable:
    """Results of games, one array per column, all of one length."""

    def __init__(self, columns: Mapping[str, np.ndarray]):
        self.columns: dict[str, np.ndarray] = dict(columns)
        lengths = {len(c) for c in self.columns.values()}
        if len(lengths) > 1:
            raise ValueError(f"columns of different lengths: {sorted(lengths)}")
        self._n = lengths.pop() if lengths else 0

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, name: str) -> np.ndarray:
        return self.columns[name]

    def __contains__(self, name: object) -> bool:
        return name in self.columns

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameTable):
            return NotImplemented
        return self.names == other.names and all(np.array_equal(self.columns[k], other.columns[k]) for k in self.names)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"GameTable({self._n} games: {', '.join(self.names)})"

    @property
    def names(self) -> list[str]:
        """The column names, in order."""
        return list(self.columns)

    @classmethod
    def from_rows(cls, rows: Sequence[Mapping[str, Any]]) -> GameTable:
        """Columns of result rows (the union of their keys, first seen first; a missing value is empty)."""
        names: dict[str, None] = {}
        for r in rows:
            for k in r:
                names.setdefault(k, None)
        cols = {}
        for k in names:
            values = [r.get(k, "") for r in rows]
            cols[k] = text_array(values) if is_text(k) else number_array(values)
        return cls(cols)

    @classmethod
    def concat(cls, tables: Iterable[GameTable]) -> GameTable:
        """The rows of ``tables`` one after another (empty tables are skipped; columns must agree)."""
        parts = [t for t in tables if len(t)]
        if not parts:
            return cls({})
        names = parts[0].names
        for t in parts[1:]:
            if t.names != names:
                raise ValueError(f"tables with different columns: {names} and {t.names}")
        return cls({k: np.concatenate([t.columns[k] for t in parts]) for k in names})

    def take(self, which: np.ndarray) -> GameTable:
        """The rows picked by an index array or a boolean mask."""
        return GameTable({k: c[which] for k, c in self.columns.items()})

    def sorted(self) -> GameTable:
        """The rows in ``index`` order."""
        if not self._n or "index" not in self.columns:
            return self
        order = np.argsort(self.columns["index"], kind="stable")
        return self.take(order)

    def rows(self) -> list[dict[str, Any]]:
        """One dict per row, with Python values (for small tables: tests, arenas, the API)."""
        lists = {k: c.tolist() for k, c in self.columns.items()}
        names = self.names
        return [dict(zip(names, values, strict=True)) for values in zip(*lists.values(), strict=True)]

    def players(self) -> int:
        """The seats that have columns (``p1_score``, ``p2_score``...)."""
        p = 0
        while f"p{p + 1}_score" in self.columns:
            p += 1
        return p


def winners_text(ranks: np.ndarray) -> np.ndarray:
    """The ``winners`` column from ranks (games x players): the seats ranked 1, joined by ``;``.

    >>> winners_text(np.array([[1, 2], [1, 1], [2, 1]])).tolist()
    ['1', '1;2', '2']
    """
    players = ranks.shape[1]
    code = np.zeros(len(ranks), dtype=np.int64)
    for p in range(players):
        code |= (ranks[:, p] == 1).astype(np.int64) << p
    names = [";".join(str(p + 1) for p in range(players) if m >> p & 1) for m in range(1 << players)]
    return text_array(names)[code]


def seats_of_winners(winners: np.ndarray, players: int) -> tuple[np.ndarray, np.ndarray]:
    """From the ``winners`` column: which seats won each game (games x players, bool) and how many shared it."""
    if not len(winners):
        return np.zeros((0, players), dtype=bool), np.zeros(0, dtype=np.int64)
    values, inverse = np.unique(winners, return_inverse=True)
    member = np.zeros((len(values), players), dtype=bool)
    for i, text in enumerate(values.tolist()):
        for part in str(text).split(";"):
            if part.strip().isdigit() and 1 <= int(part) <= players:
                member[i, int(part) - 1] = True
    count = np.array([len(str(t).split(";")) for t in values.tolist()], dtype=np.int64)
    return member[inverse], count[inverse]


def _csv_field(text: str) -> str:
    """``text`` as the csv module writes a field (quoted when it holds a comma, a quote or a line break)."""
    if any(ch in text for ch in ',"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def _csv_strings(column: np.ndarray) -> list[str]:
    """Each value of ``column`` as CSV text: few distinct values are formatted once and looked up."""
    n = len(column)
    if column.dtype.kind in "iu" and n:
        low, high = int(column.min()), int(column.max())
        if high - low < max(4096, n // 8):
            table = [str(v) for v in range(low, high + 1)]
            return [table[i] for i in (column - low).tolist()]
        return list(map(str, column.tolist()))
    if column.dtype.kind in "U" or n > 256:
        values, inverse = np.unique(column, return_inverse=True)
        if len(values) <= n // 4 or column.dtype.kind == "U":
            fmt = [_csv_field(v) if isinstance(v, str) else str(v) for v in values.tolist()]
            return [fmt[i] for i in inverse.tolist()]
    return [_csv_field(v) if isinstance(v, str) else str(v) for v in column.tolist()]


CSV_NEWLINE = "\r\n"  # what the csv module ends rows with (the files of earlier runs)


def csv_header(names: Sequence[str]) -> str:
    """The header line of a games CSV."""
    return ",".join(_csv_field(n) for n in names) + CSV_NEWLINE


def csv_text(table: GameTable) -> str:
    """The rows of ``table`` as CSV lines (no header), as :mod:`csv` writes them, each ended by CRLF."""
    if not len(table):
        return ""
    parts = [_csv_strings(c) for c in table.columns.values()]
    return CSV_NEWLINE.join(map(",".join, zip(*parts, strict=True))) + CSV_NEWLINE
