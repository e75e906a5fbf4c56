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

from ziggurat.core import Match, ZigguratError, make_bot, make_game
from ziggurat.core.params import is_printed
from ziggurat.core.seeds import derive_seed
from ziggurat.server.bots import bot_params
from ziggurat.server.db import ratings, results, tables, users
from ziggurat.server.live import LiveTable
from ziggurat.server.service import BOT_LEVELS, DEFAULT_LEVEL, WEB_BOTS

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
        if not is_printed(table.game):  # never rated: the service refuses such tables; a stray one stays unrated
            return False
        n = table.game.num_players
        subjects = [subject_of(table, s) for s in range(n)]
        outcome = table.state.outcome()
        left = [table.seat_state[s] != "active" for s in range(n)]
        # a player who left is last; the others' ratings do not move then
        rank = [n + 1 if left[s] else outcome.ranks[s] for s in range(n)]
        by_subject: dict[str, int] = {}  # the seat each subject is rated by: the same bot at two seats counts once
        for s in range(n):
            subject = subjects[s]
            if subject is not None and (subject not in by_subject or rank[s] < rank[by_subject[subject]]):
                by_subject[subject] = s
        if len(by_subject) < 2:
            return False
        rated = list(by_subject)
        counted = {subject: left[by_subject[subject]] or not any(left) for subject in rated}
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
                    select(ratings).where(ratings.c.game == game, ratings.c.players == n, ratings.c.subject.in_(rated))
                )
            }
            current = {subject: _current(known.get(subject)) for subject in rated}
            after = dict(
                zip(
                    rated,
                    new_ratings(
                        [current[x] for x in rated],
                        [rank[by_subject[x]] for x in rated],
                        [counted[x] for x in rated],
                    ),
                    strict=True,
                )
            )
            for subject in rated:
                if counted[subject]:
                    _store(conn, subject, game, n, known.get(subject), after[subject], at)
            for s in range(n):
                subject = subjects[s]
                if subject is None:
                    continue
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
                        counted=counted[subject] and by_subject[subject] == s,
                        mu_before=current[subject][0],
                        mu_after=after[subject][0],
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

    def names(self, subjects: Sequence[str]) -> dict[str, str]:
        """How pages name these subjects (players' names read in one query)."""
        ids = {int(s[5:]) for s in subjects if s.startswith("user:") and s[5:].isdigit()}
        users_by_id: dict[int, str] = {}
        if ids:
            with self.engine.connect() as conn:
                users_by_id = dict(conn.execute(select(users.c.id, users.c.name).where(users.c.id.in_(ids))).all())
        return {s: subject_name(s, users_by_id) for s in subjects}

    def history(self, subject: str, limit: int = 50) -> list[dict[str, Any]]:
        """A subject's latest results, newest first (with whether the table is listed: ``public``)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(results, tables.c.public)
                .join(tables, tables.c.id == results.c.table_id)
                .where(results.c.subject == subject)
                .order_by(results.c.at.desc())
                .limit(limit)
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
            for subject, rating in zip(subjects, after, strict=True):
                _store(conn, subject, game, n, known.get(subject), rating, at)


def calibrate(
    store: Ratings, game: str, players: int, bots: Sequence[str], games: int, seed: int = 1
) -> dict[str, Rating]:
    """Play ``games`` games between the named bots (seats drawn at random) and rate them.

    ``bots`` are names as in the lobby: ``random``, ``greedy``, ``ismcts:2``
    (``ismcts`` alone is level 3, as at a table).
    """
    parsed = [parse_bot(name) for name in bots]
    rng = random.Random(seed)
    for g in range(games):
        seats = [rng.randrange(len(parsed)) for _ in range(players)]
        if len(set(seats)) == 1 and len(parsed) > 1:
            seats[rng.randrange(players)] = rng.choice([b for b in range(len(parsed)) if b != seats[0]])
        match = Match(make_game(game, players), seed=derive_seed(seed, "calibrate", g))
        made = []
        for p, b in enumerate(seats):
            bot, params = parsed[b]
            made.append(make_bot(bot, match.game, p, derive_seed(seed, "bot", g, p), **bot_params(bot, params)))
        match.run_bots(made)
        subjects = [bot_subject(*parsed[b]) for b in seats]
        best: dict[str, int] = {}  # the same bot at two seats is rated once, by its best seat
        for subject, rank in zip(subjects, match.state.outcome().ranks, strict=True):
            best[subject] = min(best.get(subject, rank), rank)
        if len(best) > 1:
            store.record_game(game, list(best), list(best.values()))
    return {r.subject: r for r in store.leaderboard(game, players)}


def parse_bot(name: str) -> tuple[str, dict[str, Any]]:
    """A bot named as in the lobby (``greedy``, ``ismcts:2``) as (bot, params); a clear error otherwise.

    >>> parse_bot("ismcts:2"), parse_bot("ismcts"), parse_bot("random")
    (('ismcts', {'level': 2}), ('ismcts', {'level': 3}), ('random', {}))
    """
    bot, colon, level = name.strip().partition(":")
    if bot not in WEB_BOTS:
        raise ZigguratError(f"the bots are {', '.join(WEB_BOTS)} (ismcts:1 to ismcts:{len(BOT_LEVELS)}), not {name!r}")
    if bot != "ismcts":
        if colon:
            raise ZigguratError(f"only ismcts has levels, not {name!r}")
        return bot, {}
    if not colon:
        return bot, {"level": DEFAULT_LEVEL}
    if not (level.isascii() and level.isdigit()) or int(level) not in BOT_LEVELS:
        raise ZigguratError(f"an ismcts level is 1 to {len(BOT_LEVELS)}, not {level!r}")
    return bot, {"level": int(level)}


def subject_name(subject: str, users: dict[int, str] | None = None) -> str:
    """How a page names a rated subject: a player's name, or ``greedy bot``, ``ismcts bot, level 3``.

    >>> subject_name("bot:ismcts:3"), subject_name("user:4", {4: "Ana"}), subject_name("user:5", {})
    ('ismcts bot, level 3', 'Ana', '(gone)')
    """
    kind, _, rest = subject.partition(":")
    if kind == "user":
        return (users or {}).get(int(rest), "(gone)") if rest.isdigit() else "(gone)"
    bot, _, level = rest.partition(":")
    return f"{bot} bot" + (f", level {level}" if level else "")


def _store(conn: Any, subject: str, game: str, players: int, old: Any, rating: tuple[float, float], at: Any) -> None:
    """Write a subject's new rating (one more game counted)."""
    values = {"mu": rating[0], "sigma": rating[1], "updated_at": at}
    if old is None:
        conn.execute(ratings.insert().values(subject=subject, game=game, players=players, games=1, **values))
    else:
        conn.execute(
            update(ratings)
            .where(ratings.c.subject == subject, ratings.c.game == game, ratings.c.players == players)
            .values(games=old.games + 1, **values)
        )


def _current(row: Any) -> tuple[float, float]:
    """A stored rating as (mu, sigma), or the model's starting rating."""
    if row is None:
        start = MODEL.rating()
        return start.mu, start.sigma
    return row.mu, row.sigma


def when(value: dt.datetime | None) -> str:
    """A time for a page (UTC, to the minute)."""
    return value.strftime("%Y-%m-%d %H:%M") if value else ""
