"""Batch simulation: many seeded bot games, one result row per game.

A run is a list of *tasks* (game index, setup, the bot in each seat). Each
game's seed comes from ``(seed, index)`` alone and the rows are gathered in
index order, so the same seed gives the same rows whatever the job count or
backend. :func:`simulate` and :func:`arena` build task lists; :func:`run_tasks`
plays them. ``on_table`` hears of every batch of games as it finishes (the CLI
writes them at once), and ``previous`` rows of a stopped run are kept and
their games not played again (:mod:`ziggurat.analysis.runfiles`). Workers send their games back as
columns (:class:`~ziggurat.analysis.columns.GameTable`), and the result keeps them so.

>>> rows = simulate(Setup("kuhnah", 2), ["random"], games=4, seed=1).rows
>>> [r["index"] for r in rows]
[0, 1, 2, 3]
>>> rows == simulate(Setup("kuhnah", 2), ["random"], games=4, seed=1, jobs=2).rows
True
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ziggurat.analysis.backends import chunk, run_chunks
from ziggurat.analysis.columns import GameTable
from ziggurat.analysis.tally import RunTally
from ziggurat.core.errors import ConfigError, ZigguratError
from ziggurat.core.game import Game
from ziggurat.core.match import Match
from ziggurat.core.registry import get_bot, get_game, make_bot, make_game

BotOptions = Mapping[str, Mapping[str, Any]]


@dataclass(frozen=True)
class Setup:
    """A game configuration: game id, player count, options; ``label`` names it in reports."""

    game: str
    players: int
    options: Mapping[str, Any] = field(default_factory=dict)
    label: str = "default"

    def make(self) -> Game:
        """The configured game (checked)."""
        return make_game(self.game, self.players, dict(self.options))


@dataclass(frozen=True)
class Task:
    """One game to play: its index in the run, which setup, the bots in the seats.

    ``game`` picks the seed (default: ``index``); setups compared side by side
    share it, so their games see the same chance stream (paired comparison).
    """

    index: int
    setup: int
    seats: tuple[str, ...]
    game: int = -1


@dataclass
class RunResult:
    """The games of a run as columns (in index order) and the setups they refer to.

    A run too big to keep (``simulate --engine fast`` streaming to its files) has
    an empty ``table`` and its figures in ``tally``, counted as the games came.
    """

    setups: list[Setup]
    table: GameTable
    seed: int
    bots: list[str]
    tally: RunTally | None = None  # when the games were tallied as they came (and not kept)

    @property
    def rows(self) -> list[dict[str, Any]]:
        """One dict per game (built from the columns: for small runs)."""
        return self.table.rows()

    @property
    def games(self) -> int:
        """How many games the run holds."""
        return self.tally.games if self.tally is not None else len(self.table)


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``seed`` (stable, well mixed).

    >>> game_seed(1, 0) == game_seed(1, 0) != game_seed(1, 1)
    True
    """
    digest = hashlib.sha256(f"ziggurat/{seed}/{index}".encode()).digest()
    return int.from_bytes(digest[:7], "big")


def play_game(game: Game, seats: Sequence[str], seed: int, bot_options: BotOptions | None = None) -> dict[str, Any]:
    """Play one seeded game with the named bots; return its result row (without run fields)."""
    match = Match(game, seed)
    match.run_bots(match.seat_bots(seats, bot_options))
    state = match.state
    outcome = state.outcome()
    decisions = sum(1 for actor, _ in state.history if actor >= 0)
    row: dict[str, Any] = {"seed": seed, "length": decisions, "actions": len(state.history), "end": outcome.end.code}
    for p, name in enumerate(seats):
        row[f"p{p + 1}_bot"] = name
    for p in range(game.num_players):
        row[f"p{p + 1}_score"] = outcome.scores[p]
    for p in range(game.num_players):
        row[f"p{p + 1}_rank"] = outcome.ranks[p]
    row["winners"] = ";".join(str(p + 1) for p in outcome.winners)
    return row


_GAMES: dict[str, list[Game]] = {}


def _play_chunk(payload: tuple[list[Setup], dict[str, dict[str, Any]], int, list[Task]]) -> GameTable:
    """Worker: play every task of a chunk (module level so processes and Ray can import it)."""
    setups, bot_options, seed, tasks = payload
    key = repr(setups)
    games = _GAMES.get(key)
    if games is None:  # chunks are small (a stop loses little): set the games up once per worker
        games = _GAMES[key] = [s.make() for s in setups]
    rows = []
    for task in tasks:
        s = setups[task.setup]
        game_no = task.index if task.game < 0 else task.game
        gseed = game_seed(seed, game_no)
        row: dict[str, Any] = {"index": task.index, "setup": s.label, "game": game_no, "players": s.players}
        row.update(play_game(games[task.setup], task.seats, gseed, bot_options))
        rows.append(row)
    return GameTable.from_rows(rows)


def run_tasks(
    setups: Sequence[Setup],
    tasks: Sequence[Task],
    seed: int,
    bot_options: BotOptions | None = None,
    jobs: int = 1,
    backend: str = "process",
    address: str | None = None,
    progress: Callable[[int], None] | None = None,
    done: Collection[int] = (),
    on_table: Callable[[GameTable], None] | None = None,
) -> GameTable:
    """Play ``tasks`` (chunked over ``jobs`` workers) but those whose index is in ``done``; games in index order.

    ``progress(n)`` is called with the number of games just finished,
    ``on_table(table)`` with their columns, as each batch finishes.
    """
    opts = {k: dict(v) for k, v in (bot_options or {}).items()}
    chunks = chunk([t for t in tasks if t.index not in done], jobs)
    payloads = [(list(setups), opts, seed, c) for c in chunks]

    def on_chunk(_: int, table: GameTable) -> None:
        if on_table is not None:
            on_table(table)
        if progress is not None:
            progress(len(table))

    results = run_chunks(_play_chunk, payloads, jobs=jobs, backend=backend, address=address, on_chunk=on_chunk)
    return GameTable.concat(results).sorted()


def check_bots(game: Game, bots: Sequence[str], bot_options: BotOptions | None = None) -> None:
    """Raise a clear error for an unknown bot or a bad bot option (by making each bot once)."""
    opts = bot_options or {}
    for name in opts:
        if name not in bots:
            raise ZigguratError(f"--bot-option names bot {name!r}, which is not playing (bots: {', '.join(bots)})")
    for name in dict.fromkeys(bots):
        get_bot(name)
        try:
            make_bot(name, game, 0, 0, **dict(opts.get(name, {})))
        except (TypeError, ValueError) as exc:
            raise ZigguratError(f"bad option for bot {name!r}: {exc}") from None


def seat_lineup(bots: Sequence[str], players: int, index: int, rotate: bool) -> tuple[str, ...]:
    """The bots in each seat of game ``index``: ``bots`` repeated to fill the table, rotated if asked.

    >>> seat_lineup(["a", "b"], 3, 1, rotate=True)
    ('b', 'a', 'a')
    """
    base = [bots[i % len(bots)] for i in range(players)]
    if rotate:
        k = index % players
        base = base[k:] + base[:k]
    return tuple(base)


def variant_setups(game: str, players: int, options: Mapping[str, Any], compare: bool) -> list[Setup]:
    """The chosen setup, and with ``compare`` the same with each other variant switched on.

    A variant that cannot be combined with the chosen ones (the game's ConfigError, e.g.
    Lucent's ``geomancers`` and ``geomancer-focus``) is left out of the comparison.
    """
    spec = get_game(game).game_class.spec
    on = [v for v in spec.variants if options.get(v) in (True, "true", "yes", "1", "on")]
    base_label = "+".join(on) if on else "base"
    setups = [Setup(spec.id, players, dict(options), base_label)]
    if compare:
        for v in spec.variants:
            if v in on:
                continue
            opts = dict(options)
            opts[v] = True
            try:
                make_game(spec.id, players, opts)
            except ConfigError:
                continue
            setups.append(Setup(spec.id, players, opts, "+".join([*on, v])))
    return setups


def simulate(
    setup: Setup | Sequence[Setup],
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    jobs: int = 1,
    rotate: bool = False,
    bot_options: BotOptions | None = None,
    backend: str = "process",
    address: str | None = None,
    progress: Callable[[int], None] | None = None,
    previous: GameTable | None = None,
    on_table: Callable[[GameTable], None] | None = None,
) -> RunResult:
    """Play ``games`` games of every setup (the same game seeds for each: paired comparisons).

    ``previous``: games already played in a stopped run (kept; their games are not played again).
    """
    setups = [setup] if isinstance(setup, Setup) else list(setup)
    if games < 1:
        raise ZigguratError(f"the number of games must be at least 1, not {games}")
    if not bots:
        raise ZigguratError("name at least one bot")
    tasks = simulate_tasks(setups, bots, games, rotate)
    table = _merge(previous, run_tasks(setups, tasks, seed, bot_options, jobs, backend, address, progress,
                                       _done(previous), on_table))  # fmt: skip
    return RunResult(setups, table, seed, list(bots))


def _done(previous: GameTable | None) -> set[int]:
    return set() if previous is None or not len(previous) else set(previous["index"].tolist())


def _merge(previous: GameTable | None, new: GameTable) -> GameTable:
    if previous is None or not len(previous):
        return new
    if not len(new):
        return previous.sorted()
    return GameTable.concat([previous, _like(new, previous)]).sorted()


def _like(table: GameTable, other: GameTable) -> GameTable:
    """``table`` with ``other``'s column order (rows read back from a file keep the file's order)."""
    if table.names == other.names or set(table.names) != set(other.names):
        return table
    return GameTable({k: table[k] for k in other.names})


def expected_seeds(tasks: Sequence[Task], seed: int) -> dict[int, int]:
    """Each task's index and the seed its game is played with (to check a stopped run's rows)."""
    return {t.index: game_seed(seed, t.index if t.game < 0 else t.game) for t in tasks}


def simulate_tasks(setups: Sequence[Setup], bots: Sequence[str], games: int, rotate: bool) -> list[Task]:
    """The tasks of :func:`simulate`: ``games`` games of every setup."""
    tasks = []
    for s_i, s in enumerate(setups):
        for g in range(games):
            tasks.append(Task(s_i * games + g, s_i, seat_lineup(bots, s.players, g, rotate), game=g))
    return tasks


def arena_tasks(bots: Sequence[str], players: int, games: int) -> list[Task]:
    """Round robin: every group of ``players`` bots plays ``games`` games, seats rotated.

    With fewer distinct bots than seats, groups repeat bots (never one bot alone).
    """
    if len(set(bots)) < 2:
        raise ZigguratError("an arena needs at least two different bots")
    if players < 2:
        raise ZigguratError("an arena needs at least two players at the table")
    if len(bots) >= players:
        groups = list(itertools.combinations(bots, players))
    else:
        groups = [g for g in itertools.combinations_with_replacement(bots, players) if len(set(g)) > 1]
    tasks = []
    index = 0
    for group in groups:
        for g in range(games):
            k = g % players
            seats = tuple(group[k:]) + tuple(group[:k])
            tasks.append(Task(index, 0, seats))
            index += 1
    return tasks


def arena(
    setup: Setup,
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    jobs: int = 1,
    bot_options: BotOptions | None = None,
    backend: str = "process",
    address: str | None = None,
    progress: Callable[[int], None] | None = None,
    previous: GameTable | None = None,
    on_table: Callable[[GameTable], None] | None = None,
) -> RunResult:
    """Play an arena (see :func:`arena_tasks`); games, ``previous`` and ``on_table`` as for :func:`simulate`."""
    if games < 1:
        raise ZigguratError(f"the number of games must be at least 1, not {games}")
    tasks = arena_tasks(bots, setup.players, games)
    done = _done(previous)
    table = _merge(
        previous, run_tasks([setup], tasks, seed, bot_options, jobs, backend, address, progress, done, on_table)
    )
    return RunResult([setup], table, seed, list(dict.fromkeys(bots)))
