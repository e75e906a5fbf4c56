"""What a move costs the server's own code, in one process: no sockets, no database, no event loop.

``benchmarks/server.py`` measures the whole server over real sockets, and its
figures move with whatever else the machine runs (the same code gave 0.7 and
1.4 ms of CPU a move on the same day). This one times only what the server's
main thread does in Python for every move, on tables of seeded random games
replayed through :class:`~ziggurat.server.live.LiveTable` exactly as the server
plays them:

- ``plan``: the move checked on a copy and the chance after it drawn (``LiveTable.plan``);
- ``apply``: the rows applied to the live table (``LiveTable.apply_row``);
- ``frames``: the frame built for every seat and the spectators (``frames.build``),
  each seat's with the log entries it has not had yet, as the hub sends them;
- ``encode``: those frames made JSON text (``frames.encode``).

Each phase is timed over all the moves of the games, the best of ``--repeat``
passes (a pass replays the same games again). What the boards and the words of
the moves keep between drawings (``Svg.fragment``, the engine messages' texts) is
dropped before each pass: a server meets new positions all the time, and a pass
that found every part of every board already drawn would time a server that does
not exist. Prints microseconds per move. Figures only: nothing here passes or
fails on time.

    python benchmarks/movepath.py [--games kuhnah,nakum] [--players 2] [--format data html] [--games-played 5]
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import time
from typing import Any

from ziggurat.core import game_ids, get_game, svg
from ziggurat.server import frames
from ziggurat.server.live import LiveTable
from ziggurat.server.store import SeatRecord, TableRecord
from ziggurat.web import i18n

PHASES = ("plan", "apply", "frames", "encode")


def _table(gid: str, players: int, seed: int) -> LiveTable:
    """A started table of ``players`` people (the server's way: setup rows, then every seat taken)."""
    at = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    record = TableRecord(
        id=f"bench-{gid}-{seed}",
        game=gid,
        players=players,
        options={},
        seed=seed,
        engine_version="bench",
        position=None,
        public=True,
        status="waiting",
        created_at=at,
        seats=[SeatRecord(seat=s, kind="human") for s in range(players)],
        rows=[],
    )
    table = LiveTable(record)
    for row in table.setup_rows(at):
        table.apply_row(row)
    for s in range(players):
        table.seat_joined(s, f"p{s + 1}", SeatRecord(seat=s, kind="human", name=f"p{s + 1}", claimed_at=at))
    return table


def _choices(gid: str, players: int, seed: int) -> list[tuple[int, int]]:
    """The (seat, action) decisions of one seeded random game, as a server would receive them."""
    table = _table(gid, players, seed)
    rng = random.Random(seed)
    out = []
    while table.status == "playing":
        seat = table.to_move()[0]
        action = rng.choice(table.state.legal_actions(seat))
        out.append((seat, action))
        for row in table.plan(seat, action, None):
            table.apply_row(row)
    return out


def _forget() -> None:
    """Drop what boards and move words keep between drawings (this script's only reach into private state)."""
    svg.forget()
    i18n._texts.clear()


def _play(gid: str, players: int, seed: int, moves: list[tuple[int, int]], fmt: str) -> dict[str, float]:
    """Seconds spent in each phase replaying ``moves`` on a fresh table."""
    table = _table(gid, players, seed)
    audiences: list[Any] = [*range(players), None]
    sent = {a: table.journal.count(a) for a in audiences}
    spent = dict.fromkeys(PHASES, 0.0)
    clock = time.perf_counter
    for seat, action in moves:
        t0 = clock()
        rows = table.plan(seat, action, None)
        t1 = clock()
        for row in rows:
            table.apply_row(row)
        t2 = clock()
        built = []
        for a in audiences:
            built.append(frames.build(table, a, sent[a], fmt))
            sent[a] = table.journal.count(a)
        t3 = clock()
        for frame in built:
            frames.encode(frame)
        t4 = clock()
        spent["plan"] += t1 - t0
        spent["apply"] += t2 - t1
        spent["frames"] += t3 - t2
        spent["encode"] += t4 - t3
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(game_ids()), help="comma-separated game ids")
    parser.add_argument("--players", type=int, default=2, help="player count (the smallest allowed if not)")
    parser.add_argument("--format", nargs="+", default=["data", "html"], choices=["data", "html"])
    parser.add_argument("--games-played", type=int, default=5, help="seeded random games replayed per pass")
    parser.add_argument("--repeat", type=int, default=3, help="passes (the best of each phase counts)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"{'game':<10} {'players':>7} {'format':>6} {'moves':>6}" + "".join(f" {p:>8}" for p in PHASES) + "    total")
    for gid in args.games.split(","):
        entry = get_game(gid)
        allowed = entry.game_class.spec.player_counts
        players = args.players if args.players in allowed else min(allowed)
        games = [(args.seed + g, _choices(gid, players, args.seed + g)) for g in range(args.games_played)]
        count = sum(len(m) for _, m in games)
        for fmt in args.format:
            best = dict.fromkeys(PHASES, float("inf"))
            for _ in range(args.repeat):
                total = dict.fromkeys(PHASES, 0.0)
                _forget()
                for seed, moves in games:
                    for phase, seconds in _play(gid, players, seed, moves, fmt).items():
                        total[phase] += seconds
                best = {p: min(best[p], total[p]) for p in PHASES}
            us = {p: 1e6 * best[p] / count for p in PHASES}
            print(
                f"{gid:<10} {players:>7} {fmt:>6} {count:>6}"
                + "".join(f" {us[p]:>8.1f}" for p in PHASES)
                + f" {sum(us.values()):>8.1f}"
            )


if __name__ == "__main__":
    main()
