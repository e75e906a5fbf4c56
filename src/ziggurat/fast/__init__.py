"""Compiled batch play: millions of random games through the games' numba kernels.

An optional extra (``pip install -e ".[fast]"``); without numba everything else
in Ziggurat works and these functions say how to get it. Each game's kernel
lives in its own folder (``games/<id>/kernel.py``) and is reached through its
registry entry's ``kernel`` hook, so this driver knows no game by name.

>>> from ziggurat.fast import play_random
>>> batch = play_random("kuhnah", players=3, games=1000, seed=1)   # doctest: +SKIP
>>> batch.scores.shape, batch.ranks.min()                            # doctest: +SKIP
((1000, 3), 1)

A kernel game is not the Python engine's game of the same seed (the kernel has
its own random stream), but every kernel game can be replayed through the
engine: :func:`trace` gives its steps and :func:`replay` checks each one (see
``docs/fast.md``).
"""

from __future__ import annotations

from ziggurat.fast.driver import (
    available,
    fast_games,
    kernel_for,
    play_random,
    replay,
    run_seeds,
    trace,
)
from ziggurat.fast.vector import VectorGame, VectorStep, greedy_games, vector_games

__all__ = [
    "VectorGame",
    "VectorStep",
    "available",
    "fast_games",
    "greedy_games",
    "kernel_for",
    "play_random",
    "replay",
    "run_seeds",
    "trace",
    "vector_games",
]
