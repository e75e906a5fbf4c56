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
from typing import Any

import numpy as np

from ziggurat.analysis.backends import run_chunks
from ziggurat.analysis.simulate import RunResult, Setup
from ziggurat.core.errors import ZigguratError
from ziggurat.core.registry import get_game
from ziggurat.fast.driver import kernel_for, run_seeds

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


def _fast_chunk(payload: tuple[Setup, int, int, int]) -> tuple[np.ndarray, ...]:
    """Worker: the kernel results of ``count`` games from game ``start`` (module level for processes and Ray)."""
    setup, seed, start, count = payload
    game = setup.make()
    kernel = kernel_for(game)
    seeds = run_seeds(seed, start, count)
    scores, ranks, decisions, steps, ends = kernel.play(kernel.prepare(game), seeds)
    return seeds, scores, ranks, decisions, steps, ends


def simulate_fast(
    setups: Sequence[Setup],
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    jobs: int = 1,
    backend: str = "process",
    address: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> RunResult:
    """Play ``games`` random games of every setup with the kernels; rows as :func:`simulate` writes them."""
    if games < 1:
        raise ZigguratError(f"the number of games must be at least 1, not {games}")
    check_fast(setups, bots)
    size = max(1, min(CHUNK, -(-games // max(1, jobs))))
    parts = [(s_i, start) for s_i in range(len(setups)) for start in range(0, games, size)]
    payloads = [(setups[s_i], seed, start, min(size, games - start)) for s_i, start in parts]

    def on_chunk(_: int, result: tuple[np.ndarray, ...]) -> None:
        if progress is not None:
            progress(len(result[0]))

    results = run_chunks(_fast_chunk, payloads, jobs=jobs, backend=backend, address=address, on_chunk=on_chunk)
    rows: list[dict[str, Any]] = []
    for (s_i, start), (seeds, scores, ranks, decisions, steps, ends) in zip(parts, results, strict=True):
        setup = setups[s_i]
        players = setup.players
        codes = [e.code for e in get_game(setup.game).game_class.spec.ends]
        names = [bots[i % len(bots)] for i in range(players)]
        score_list = scores.tolist()
        rank_list = ranks.tolist()
        for k, (gseed, length, actions, end) in enumerate(
            zip(seeds.tolist(), decisions.tolist(), steps.tolist(), ends.tolist(), strict=True)
        ):
            g = start + k
            row: dict[str, Any] = {"index": s_i * games + g, "setup": setup.label, "game": g, "players": players,
                                   "seed": gseed, "length": length, "actions": actions, "end": codes[end]}  # fmt: skip
            for p in range(players):
                row[f"p{p + 1}_bot"] = names[p]
            sc = score_list[k]
            rk = rank_list[k]
            for p in range(players):
                row[f"p{p + 1}_score"] = sc[p]
            for p in range(players):
                row[f"p{p + 1}_rank"] = rk[p]
            row["winners"] = ";".join(str(p + 1) for p in range(players) if rk[p] == 1)
            rows.append(row)
    rows.sort(key=lambda r: r["index"])
    return RunResult(list(setups), rows, seed, list(bots))
