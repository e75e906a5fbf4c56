"""Ratings per game and player count: openskill's Plackett-Luce model over finished rated games.

Who is rated: signed-up players (``user:<id>``) and bots (``bot:greedy``,
``bot:ismcts:3``...), so that a newcomer can see what "ismcts level 3" is worth.
A rated table counts once it is over, exactly once (a job claims it, and the
table's ``rated_at`` is set in the same transaction as the new ratings). A player
who left, or ran out of time and was replaced by a bot, is rated as last; the
game then no longer counts for the others (their ratings stay as they were).
The leaderboard orders by the conservative estimate ``mu - 3 sigma``.

``calibrate`` plays bots against each other off the tables to give the bots
their ratings before people play them.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Engine, select, update

from ziggurat.core import Match, make_bot, make_game
from ziggurat.core.seeds import derive_seed
from ziggurat.server.bots import bot_params
from ziggurat.server.db import ratings, results, tables
from ziggurat.server.live import LiveTable

MODEL = PlackettLuce()


@dataclass(frozen=True)
class Rating:
    """A subject's rating in one game at one player count."""

    subject: str
    game: str
    players: int
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        """The conservative estimate the leaderboard sorts by."""
        return self.mu - 3 * self.sigma


def bot_subject(bot: str, params: dict[str, Any]) -> str:
    """How ratings name a bot: ``bot:greedy``, ``bot:ismcts:3``."""
    level = params.get("level")
    return f"bot:{bot}" + (f":{level}" if level is not None else "")


def subject_of(table: LiveTable, seat: int) -> str | None:
    """Who plays ``seat`` for the ratings (None: a guest, not rated)."""
    record = table.seats[seat]
    if record.kind == "bot":
        return bot_subject(record.bot or "random", record.bot_params)
    return f"user:{record.user_id}" if record.user_id is not None else None


def new_ratings(
    current: Sequence[tuple[float, float]], ranks: Sequence[int], counted: Sequence[bool]
) -> list[tuple[float, float]]:
    """Each player's rating after a game with these ``ranks`` (1 = first; ties share a rank).

    Only the ``counted`` players' ratings move (the others keep theirs).

    >>> after = new_ratings([(25.0, 25 / 3), (25.0, 25 / 3)], [1, 2], [True, True])
    >>> after[0][0] > 25 > after[1][0]
    True
    """
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in current]
    rated = MODEL.rate(teams, ranks=list(ranks))
    return [
        (team[0].mu, team[0].sigma) if count else old for team, count, old in zip(rated, counted, current, strict=True)
    ]


class Ratings:
    """Ratings and results in the database (blocking calls)."""

    def __init__(self, engine: Engine, now: Any):
        self.engine = engine
        self.now = now

    def rate_table(self, table: LiveTable) -> bool:
        """Put a finished rated table's result into the ratings, once; False if done already or not rated."""
        if table.status != "over" or not table.record.rated:
            return False
        n = table.game.num_players
        subjects = [subject_of(table, s) for s in range(n)]
        outcome = table.state.outcome()
        left = [table.seat_state[s] != "active" for s in range(n)]
        players = [s for s in range(n) if subjects[s] is not None]
        if len(players) < 2:
            return False
        # a player who left is last; the others' ratings do not move then
        ranks = [n + 1 if left[s] else outcome.ranks[s] for s in players]
        counted = [left[s] or not any(left) for s in players]
        at = self.now()
        game = table.game.spec.id
        with self.engine.begin() as conn:
            claimed = conn.execute(
                update(tables)
                .where(tables.c.id == table.id, tables.c.rated_at.is_(None), tables.c.rated.is_(True))
                .values(rated_at=at)
            ).rowcount
            if not claimed:
                return False
            known = {
                r.subject: r
                for r in conn.execute(
                    select(ratings).where(
                        ratings.c.game == game,
                        ratings.c.players == n,
                        ratings.c.subject.in_([subjects[s] for s in players]),
                    )
                )
            }
            default = MODEL.rating()
            current = [
                (known[subjects[s]].mu, known[subjects[s]].sigma)
                if subjects[s] in known
                else (default.mu, default.sigma)
                for s in players
            ]
            after = new_ratings(current, ranks, counted)
            for i, s in enumerate(players):
                subject = subjects[s]
                old = known.get(subject)
                values = {"mu": after[i][0], "sigma": after[i][1], "updated_at": at}
                if counted[i]:
                    if old is None:
                        conn.execute(ratings.insert().values(subject=subject, game=game, players=n, games=1, **values))
                    else:
                        conn.execute(
                            update(ratings)
                            .where(ratings.c.subject == subject, ratings.c.game == game, ratings.c.players == n)
                            .values(games=old.games + 1, **values)
                        )
                conn.execute(
                    results.insert().values(
                        table_id=table.id,
                        seat=s,
                        subject=subject,
                        game=game,
                        players=n,
                        rank=outcome.ranks[s],
                        score=float(outcome.scores[s]),
                        left=left[s],
                        counted=counted[i],
                        mu_before=current[i][0],
                        mu_after=after[i][0],
                        at=at,
                    )
                )
        return True

    def leaderboard(self, game: str, players: int, limit: int = 100) -> list[Rating]:
        """The best rated first (by ``mu - 3 sigma``)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(ratings)
                .where(ratings.c.game == game, ratings.c.players == players)
                .order_by((ratings.c.mu - 3 * ratings.c.sigma).desc())
                .limit(limit)
            )
            return [Rating(r.subject, r.game, r.players, r.mu, r.sigma, r.games) for r in rows]

    def of(self, subject: str) -> list[Rating]:
        """Every rating of one subject."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(ratings).where(ratings.c.subject == subject).order_by(ratings.c.game))
            return [Rating(r.subject, r.game, r.players, r.mu, r.sigma, r.games) for r in rows]

    def history(self, subject: str, limit: int = 50) -> list[dict[str, Any]]:
        """A subject's latest results, newest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(results).where(results.c.subject == subject).order_by(results.c.at.desc()).limit(limit)
            )
            return [dict(r._mapping) for r in rows]

    def record_game(self, game: str, subjects: Sequence[str], ranks: Sequence[int]) -> None:
        """Rate one game played off the tables (``calibrate``): every subject counts."""
        n = len(subjects)
        at = self.now()
        with self.engine.begin() as conn:
            known = {
                r.subject: r
                for r in conn.execute(
                    select(ratings).where(
                        ratings.c.game == game, ratings.c.players == n, ratings.c.subject.in_(list(subjects))
                    )
                )
            }
            current = [_current(known.get(s)) for s in subjects]
            after = new_ratings(current, ranks, [True] * n)
            for subject, (mu, sigma) in zip(subjects, after, strict=True):
                old = known.get(subject)
                if old is None:
                    conn.execute(
                        ratings.insert().values(
                            subject=subject, game=game, players=n, mu=mu, sigma=sigma, games=1, updated_at=at
                        )
                    )
                else:
                    conn.execute(
                        update(ratings)
                        .where(ratings.c.subject == subject, ratings.c.game == game, ratings.c.players == n)
                        .values(mu=mu, sigma=sigma, games=old.games + 1, updated_at=at)
                    )


def calibrate(
    store: Ratings, game: str, players: int, bots: Sequence[str], games: int, seed: int = 1
) -> dict[str, Rating]:
    """Play ``games`` games between the named bots (seats drawn at random) and rate them.

    ``bots`` are names as in the lobby: ``random``, ``greedy``, ``ismcts:2``.
    """
    rng = random.Random(seed)
    for g in range(games):
        seats = [rng.choice(list(bots)) for _ in range(players)]
        if len(set(seats)) == 1:
            seats[rng.randrange(players)] = rng.choice([b for b in bots if b != seats[0]] or list(bots))
        match = Match(make_game(game, players), seed=derive_seed(seed, "calibrate", g))
        made = []
        for p, name in enumerate(seats):
            bot, _, level = name.partition(":")
            params = {"level": int(level)} if level else {}
            made.append(make_bot(bot, match.game, p, derive_seed(seed, "bot", g, p), **bot_params(bot, params)))
        match.run_bots(made)
        subjects = [bot_subject(*_split(name)) for name in seats]
        if len(set(subjects)) < len(subjects):  # the same bot twice: rate each distinct bot by its best seat
            best: dict[str, int] = {}
            for s, r in zip(subjects, match.state.outcome().ranks, strict=True):
                best[s] = min(best.get(s, r), r)
            store.record_game(game, list(best), list(best.values()))
        else:
            store.record_game(game, subjects, list(match.state.outcome().ranks))
    return {r.subject: r for r in store.leaderboard(game, players)}


def _current(row: Any) -> tuple[float, float]:
    """A stored rating as (mu, sigma), or the model's starting rating."""
    if row is None:
        start = MODEL.rating()
        return start.mu, start.sigma
    return row.mu, row.sigma


def _split(name: str) -> tuple[str, dict[str, Any]]:
    bot, _, level = name.partition(":")
    return bot, ({"level": int(level)} if level else {})


def when(value: dt.datetime | None) -> str:
    """A time for a page (UTC, to the minute)."""
    return value.strftime("%Y-%m-%d %H:%M") if value else ""
