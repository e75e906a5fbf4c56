"""The figures of a run, tallied chunk by chunk from columns (in any order, in bounded memory).

A :class:`RunTally` takes each :class:`~ziggurat.analysis.columns.GameTable`
as it comes (from the workers, or read back from a run file) and keeps counts
only: win credits per seat and bot, and a histogram of every score, length and
winning margin. Scores, lengths and margins take few distinct values, so the
histograms stay small however many games are played, and means, standard
deviations, medians and the plots come from them exactly as from the values.

>>> from ziggurat.analysis.columns import GameTable
>>> t = RunTally(["base"])
>>> t.add(GameTable.from_rows([{"index": 0, "setup": "base", "players": 2, "length": 3, "p1_bot": "a", "p2_bot": "b",
...                             "p1_score": 5, "p2_score": 2, "winners": "1", "end": "x"}]))
>>> t.setups["base"].games, t.setups["base"].length.mean()
(1, 3.0)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from ziggurat.analysis.columns import GameTable, seats_of_winners


class Histogram:
    """How often each value was seen (values as floats); the statistics of the values it stands for."""

    def __init__(self) -> None:
        self.counts: dict[float, int] = {}

    def add(self, values: np.ndarray) -> None:
        """Count ``values``."""
        if not len(values):
            return
        keys, counts = np.unique(np.asarray(values, dtype=np.float64), return_counts=True)
        for k, c in zip(keys.tolist(), counts.tolist(), strict=True):
            self.counts[k] = self.counts.get(k, 0) + c

    def merge(self, other: Histogram) -> None:
        """Add the counts of ``other``."""
        for k, c in other.counts.items():
            self.counts[k] = self.counts.get(k, 0) + c

    @property
    def n(self) -> int:
        """How many values were counted."""
        return sum(self.counts.values())

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The distinct values (ascending) and their counts."""
        keys = sorted(self.counts)
        return np.asarray(keys, dtype=np.float64), np.asarray([self.counts[k] for k in keys], dtype=np.int64)

    def mean(self) -> float:
        """The mean (NaN with no values)."""
        n = self.n
        if not n:
            return math.nan
        return sum(k * c for k, c in sorted(self.counts.items())) / n

    def mean_sd(self) -> tuple[float, float]:
        """Mean and sample standard deviation (0 for fewer than two values), as ``stats.mean_sd`` gives."""
        n = self.n
        if not n:
            return math.nan, math.nan
        m = self.mean()
        if n < 2:
            return m, 0.0
        return m, math.sqrt(sum(c * (k - m) ** 2 for k, c in sorted(self.counts.items())) / (n - 1))

    def percentile(self, q: float) -> float:
        """The ``q`` quantile, interpolated between neighbours as over the sorted values (NaN with none)."""
        n = self.n
        if not n:
            return math.nan
        keys, counts = self.arrays()
        cum = np.cumsum(counts)
        k = (n - 1) * q
        f = math.floor(k)
        c = min(f + 1, n - 1)
        low = float(keys[np.searchsorted(cum, f, side="right")])
        high = float(keys[np.searchsorted(cum, c, side="right")])
        return low + (high - low) * (k - f)

    def min(self) -> float:
        """The smallest value (NaN with none)."""
        return min(self.counts, default=math.nan)

    def max(self) -> float:
        """The largest value (NaN with none)."""
        return max(self.counts, default=math.nan)


class SetupTally:
    """The counts of one setup's games."""

    def __init__(self, lower_wins: bool = False) -> None:
        self.lower_wins = lower_wins
        self.games = 0
        self.players = 0
        self.seat_credit: np.ndarray = np.zeros((0, 1), dtype=np.int64)  # [seat, k]: games won shared by k
        self.scores: list[Histogram] = []
        self.bots: dict[str, dict[str, Any]] = {}  # name -> {"credit": [k counts], "games": n, "first": (index, seat)}
        self.length = Histogram()
        self.margin = Histogram()
        self.shared = 0
        self.ends: dict[str, int] = {}
        self.patterns: dict[int, int] = {}  # who won, as a bit per seat (shared wins set several) -> games

    def _grow(self, players: int) -> None:
        if players > self.players:
            credit = np.zeros((players, players + 1), dtype=np.int64)
            credit[: self.players, : self.seat_credit.shape[1]] = self.seat_credit
            self.seat_credit = credit
            self.scores += [Histogram() for _ in range(players - self.players)]
            for b in self.bots.values():
                b["credit"] = np.concatenate([b["credit"], np.zeros(players + 1 - len(b["credit"]), np.int64)])
            self.players = players

    def add(self, t: GameTable) -> None:
        """Count the games of ``t`` (all of this setup, all with one player count)."""
        n = len(t)
        if not n:
            return
        players = int(t["players"][0]) if "players" in t else t.players()
        self._grow(players)
        self.games += n
        won, shared = seats_of_winners(t["winners"], players)
        width = self.players + 1
        shared = np.minimum(shared, width - 1)
        for p in range(players):
            self.seat_credit[p] += np.bincount(shared[won[:, p]], minlength=width)[:width]
            self.scores[p].add(t[f"p{p + 1}_score"])
        index = t["index"] if "index" in t else np.arange(n)
        for p in range(players):
            column = t[f"p{p + 1}_bot"]
            names, inverse = np.unique(column, return_inverse=True)
            for i, name in enumerate(names.tolist()):
                mask = inverse == i
                b = self.bots.setdefault(name, {"credit": np.zeros(width, np.int64), "games": 0, "first": None})
                b["games"] += int(mask.sum())
                b["credit"] += np.bincount(shared[mask & won[:, p]], minlength=width)[:width]
                first = (int(index[mask].min()), p)
                if b["first"] is None or first < b["first"]:
                    b["first"] = first
        if players > 1:
            scores = np.sort(np.stack([t[f"p{p + 1}_score"].astype(np.float64) for p in range(players)], axis=1))
            self.margin.add(np.abs(scores[:, 1] - scores[:, 0]) if self.lower_wins else scores[:, -1] - scores[:, -2])
        self.length.add(t["length"])
        self.shared += int((shared > 1).sum())
        bits = won[:, :players].astype(np.int64) @ (np.int64(1) << np.arange(players, dtype=np.int64))
        keys, counts = np.unique(bits, return_counts=True)
        for k, c in zip(keys.tolist(), counts.tolist(), strict=True):
            self.patterns[k] = self.patterns.get(k, 0) + c
        if "end" in t:
            codes, counts = np.unique(t["end"], return_counts=True)
            for code, c in zip(codes.tolist(), counts.tolist(), strict=True):
                if code:
                    self.ends[code] = self.ends.get(code, 0) + c

    def merge(self, other: SetupTally) -> None:
        """Add the counts of ``other`` (the same setup's other games)."""
        if not other.games:
            return
        self._grow(other.players)
        self.games += other.games
        self.seat_credit[: other.players, : other.seat_credit.shape[1]] += other.seat_credit
        for mine, theirs in zip(self.scores, other.scores, strict=False):
            mine.merge(theirs)
        width = self.players + 1
        for name, b in other.bots.items():
            mine_b = self.bots.setdefault(name, {"credit": np.zeros(width, np.int64), "games": 0, "first": None})
            mine_b["games"] += b["games"]
            mine_b["credit"][: len(b["credit"])] += b["credit"]
            if mine_b["first"] is None or (b["first"] is not None and b["first"] < mine_b["first"]):
                mine_b["first"] = b["first"]
        self.length.merge(other.length)
        self.margin.merge(other.margin)
        self.shared += other.shared
        for k, c in other.patterns.items():
            self.patterns[k] = self.patterns.get(k, 0) + c
        for code, c in other.ends.items():
            self.ends[code] = self.ends.get(code, 0) + c

    @staticmethod
    def credit(counts: np.ndarray) -> float:
        """Win credit from counts of games won shared by k (each counts 1/k)."""
        return float(sum(int(c) / k for k, c in enumerate(counts.tolist()) if k and c))

    def bot_order(self) -> list[str]:
        """The bots in the order they first sat at the table (game index, then seat)."""
        return sorted(self.bots, key=lambda b: self.bots[b]["first"])


class RunTally:
    """One :class:`SetupTally` per setup label (in setup order); ``add`` splits each table by its ``setup``."""

    def __init__(self, labels: Sequence[str], lower_wins: bool = False) -> None:
        self.lower_wins = lower_wins
        self.setups = {label: SetupTally(lower_wins) for label in labels}

    @property
    def games(self) -> int:
        """Games tallied, every setup."""
        return sum(s.games for s in self.setups.values())

    def add(self, t: GameTable) -> None:
        """Tally the games of ``t``."""
        if not len(t):
            return
        labels, inverse = np.unique(t["setup"], return_inverse=True)
        if len(labels) == 1:
            self._setup(str(labels[0])).add(t)
            return
        for i, label in enumerate(labels.tolist()):
            self._setup(label).add(t.take(inverse == i))

    def merge(self, other: RunTally) -> None:
        """Add the counts of ``other`` (a worker's tally of its games)."""
        for label, s in other.setups.items():
            self._setup(label).merge(s)

    def add_all(self, tables: Iterable[GameTable]) -> RunTally:
        """Tally every table; return self."""
        for t in tables:
            self.add(t)
        return self

    def _setup(self, label: str) -> SetupTally:
        if label not in self.setups:
            self.setups[label] = SetupTally(self.lower_wins)
        return self.setups[label]
