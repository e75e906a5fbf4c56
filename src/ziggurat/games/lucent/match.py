"""A points match: several games of Lucent with the ``points`` variant, running totals.

The rulebook's points variant is meant for "multiple games". Between games the
deal rotates: in game ``i`` (0-based) match player ``m`` sits in seat
``(m - i) % players``, so seat 1 (who goes first) is match player ``i % players``.

>>> result = play_points_match(3, games=4, bots=["random"] * 3, seed=1)
>>> len(result.games), sum(result.totals) == sum(sum(g) for g in result.games)
(4, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ziggurat.core.match import Match
from ziggurat.core.registry import make_game


def seat_of(player: int, game_index: int, players: int) -> int:
    """Seat (0 goes first) of match player ``player`` in game ``game_index``."""
    return (player - game_index) % players


@dataclass
class PointsMatch:
    """Running totals of a points match; feed it finished games with :meth:`add_game`.

    ``games`` holds each game's points per match player (not per seat).
    """

    players: int
    totals: list[float] = field(default_factory=list)
    games: list[list[float]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.totals:
            self.totals = [0.0] * self.players

    def add_game(self, seat_scores: Sequence[float]) -> list[float]:
        """Add one finished game's scores (by seat); returns them by match player."""
        index = len(self.games)
        by_player = [float(seat_scores[seat_of(m, index, self.players)]) for m in range(self.players)]
        self.games.append(by_player)
        self.totals = [t + s for t, s in zip(self.totals, by_player, strict=True)]
        return by_player

    @property
    def leaders(self) -> list[int]:
        """Match players with the highest total."""
        best = max(self.totals)
        return [m for m, t in enumerate(self.totals) if t == best]


def play_points_match(
    players: int,
    games: int,
    bots: Sequence[str],
    seed: int = 0,
    options: Mapping[str, object] | None = None,
) -> PointsMatch:
    """Play ``games`` games of Lucent with the points variant, bots by match player; return the totals.

    ``bots[m]`` names the bot of match player ``m``; the deal rotates every game.
    ``options`` may add the other variants (``points`` is always on).
    """
    if len(bots) != players:
        raise ValueError(f"{len(bots)} bots for {players} players")
    opts = dict(options or {})
    opts["points"] = True
    game = make_game("lucent", players, opts)
    result = PointsMatch(players)
    for i in range(games):
        seats = [bots[(s + i) % players] for s in range(players)]
        match = Match(game, seed=seed * 100_003 + i)
        match.run_bots(seats)
        result.add_game(match.state.scores())
    return result
