"""``ziggurat simulate --engine fast``: the rows of a simulation, played by the compiled kernels.

The rows have the shape of :func:`ziggurat.analysis.simulate.simulate`'s, so
the same report, CSV and summary follow. Only random bots can be played (the
kernels play uniformly random legal actions). Game ``g`` of every setup gets the
kernel seed of ``(seed, g)`` (setups compared side by side share it), so the
same seed gives the same rows with any ``--jobs`` and backend; they are not the
Python engine's games of that seed (another random stream), but each one can be
replayed in the engine from its ``seed`` column (see ``docs/fast.md``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ziggurat.analysis.backends import run_chunks
from ziggurat.analysis.columns import GameTable, text_array, winners_text
from ziggurat.analysis.runfiles import Encoded, encode
from ziggurat.analysis.simulate import RunResult, Setup
from ziggurat.analysis.tally import RunTally
from ziggurat.core.errors import ZigguratError
from ziggurat.core.kernel import Batch
from ziggurat.core.registry import get_game
from ziggurat.fast.driver import kernel_for, play_random, run_seeds

FAST_BOTS = ("random",)
CHUNK = 25_000


def check_fast(setups: Sequence[Setup], bots: Sequence[str]) -> None:
    """A clear error unless every bot is random and every setup has a kernel (and numba is installed)."""
    others = sorted({b for b in bots if b not in FAST_BOTS})
    if others:
        raise ZigguratError(
            f"--engine fast plays random bots only, not {', '.join(others)}: use --engine python for other bots"
        )
    for s in setups:
        kernel_for(s.make())


def fast_table(setup: Setup, setup_no: int, games: int, bots: Sequence[str], start: int, batch: Batch) -> GameTable:
    """The columns ``simulate`` writes, from a kernel batch of games ``start ..`` of setup ``setup_no``."""
    seeds, scores, ranks = batch.seeds, batch.scores, batch.ranks
    decisions, steps, ends = batch.decisions, batch.steps, batch.ends
    n = len(seeds)
    players = setup.players
    codes = text_array([e.code for e in get_game(setup.game).game_class.spec.ends])
    g = np.arange(start, start + n, dtype=np.int64)
    cols: dict[str, np.ndarray] = {
        "index": g + setup_no * games,
        "setup": np.full(n, setup.label),
        "game": g,
        "players": np.full(n, players, dtype=np.int64),
        "seed": seeds.astype(np.int64),  # 53-bit seeds (they survive JSON and CSV)
        "length": decisions.astype(np.int64),
        "actions": steps.astype(np.int64),
        "end": codes[ends],
    }
    for p in range(players):
        cols[f"p{p + 1}_bot"] = np.full(n, bots[p % len(bots)])
    for p in range(players):
        cols[f"p{p + 1}_score"] = scores[:, p]
    for p in range(players):
        cols[f"p{p + 1}_rank"] = ranks[:, p].astype(np.int64)
    cols["winners"] = winners_text(ranks)
    return GameTable(cols)


FastPayload = tuple[Setup, int, int, int, list[str], int, int, str]


def _fast_chunk(payload: FastPayload) -> tuple[Encoded, RunTally]:
    """Worker: ``count`` games from game ``start``, encoded as ``send`` asks, and their tally.

    ``send``: ``csv`` (the CSV lines), ``parquet`` (an Arrow table), ``table``
    (the columns) or ``none`` (only the count): the main process then only
    writes and adds up counts.
    """
    setup, setup_no, games, seed, bots, start, count, send = payload
    game = setup.make()
    table = fast_table(setup, setup_no, games, bots, start, play_random(game, games=count, seed=seed, start=start))
    tally = RunTally([setup.label], game.spec.lower_score_wins)
    tally.add(table)
    batch = encode(table, send if send in ("csv", "parquet") else None)
    if send == "none":
        batch.table = None
    return batch, tally


def _missing_runs(done: np.ndarray | None, games: int, size: int) -> list[tuple[int, int]]:
    """``(start, count)`` pieces of at most ``size`` games covering the games not ``done``."""
    todo = np.ones(games, dtype=bool) if done is None else ~done
    edges = np.flatnonzero(np.diff(np.concatenate([[0], todo.astype(np.int8), [0]])))
    pieces = []
    for lo, hi in zip(edges[::2].tolist(), edges[1::2].tolist(), strict=True):
        pieces += [(start, min(size, hi - start)) for start in range(lo, hi, size)]
    return pieces


def expected_fast_seeds(seed: int, games: np.ndarray) -> np.ndarray:
    """The kernel seeds of game numbers ``games`` of a run seeded ``seed`` (to check a stopped run's games)."""
    if not len(games):
        return np.zeros(0, dtype=np.int64)
    low = int(games.min())
    return run_seeds(seed, low, int(games.max()) - low + 1).astype(np.int64)[games - low]


def simulate_fast(
    setups: Sequence[Setup],
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    jobs: int = 1,
    backend: str = "process",
    address: str | None = None,
    progress: Callable[[int], None] | None = None,
    on_batch: Callable[[Encoded], None] | None = None,
    send: str = "table",
    done: np.ndarray | None = None,
    tally: RunTally | None = None,
) -> RunResult:
    """Play ``games`` random games of every setup with the kernels; columns as :func:`simulate` makes them.

    ``send="table"`` keeps every game in the result's ``table``. For runs too
    big for that, ``send`` is ``csv`` or ``parquet`` (each batch reaches
    ``on_batch`` in index order, made ready for that file by the worker) or
    ``none``: the result keeps no game, only ``tally``, the counts of every game
    (added to the ``tally`` given), so a run of any size stays in bounded
    memory. ``done``: a mask over every game of the run (setup by setup) of the
    games a stopped run has already played; they are not played again.
    """
    if games < 1:
        raise ZigguratError(f"the number of games must be at least 1, not {games}")
    if send not in ("table", "csv", "parquet", "none"):
        raise ZigguratError(f"unknown batch encoding {send!r}")
    check_fast(setups, bots)
    size = max(1, min(CHUNK, -(-games // max(1, jobs))))
    payloads: list[FastPayload] = []
    for s_i, s in enumerate(setups):
        mask = None if done is None else done[s_i * games : (s_i + 1) * games]
        for start, count in _missing_runs(mask, games, size):
            payloads.append((s, s_i, games, seed, list(bots), start, count, send))
    keep = send == "table"
    if tally is None:
        tally = RunTally([s.label for s in setups], get_game(setups[0].game).game_class.spec.lower_score_wins)
    kept: list[GameTable] = []
    waiting: dict[int, Encoded] = {}
    following = 0

    def on_chunk(i: int, result: tuple[Encoded, RunTally]) -> None:
        nonlocal following
        batch, part = result
        tally.merge(part)
        waiting[i] = batch
        while following in waiting:  # in index order: the file grows as an uninterrupted run's does
            b = waiting.pop(following)
            following += 1
            if on_batch is not None:
                on_batch(b)
            if keep:
                kept.append(b.table)
            if progress is not None:
                progress(b.count)

    run_chunks(_fast_chunk, payloads, jobs=jobs, backend=backend, address=address, on_chunk=on_chunk, keep=False)
    table = GameTable.concat(kept) if keep else GameTable({})
    return RunResult(list(setups), table, seed, list(bots), tally=None if keep else tally)
