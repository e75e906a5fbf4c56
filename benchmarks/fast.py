"""Compiled kernels against the Python engine: random-playout throughput on one core.

For every game with a kernel and every player count, prints the kernel's steps
per second (every applied action, chance included, as ``throughput.py``
counts them) and whole games per second, the Python engine's random playouts
measured in the same run, and the ratios. Compile time is excluded (one small
batch first, and numba's disk cache). Figures only: nothing here passes or
fails on time. Needs the fast extra (numba).

The kernel plays ``--games`` games per game and player count, or (without
``--games``) batches of doubling size until ``--seconds`` have passed, so the
slower kernels (Kukulkán's trails) are measured as long as the fast ones.

With ``--clock cpu`` the kernel is timed by the process's CPU time rather than
the wall clock (steadier on a machine shared with other work).

    python benchmarks/fast.py [--games 200000] [--seconds 2] [--only kuhnah] [--clock cpu]
"""

from __future__ import annotations

import argparse
import random
import time

from ziggurat.core import get_game, make_game, random_playout
from ziggurat.fast import fast_games, play_random


def engine_rate(game_id: str, players: int, seconds: float) -> tuple[float, float]:
    """(steps/s, games/s) of the Python engine's random playouts for ``seconds``."""
    game = make_game(game_id, players)
    rng = random.Random(0)
    steps = games = 0
    start = time.perf_counter()
    while True:
        state = random_playout(game.new_initial_state(), rng)
        steps += len(state.history)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed, games / elapsed


def kernel_rate(
    game_id: str, players: int, games: int | None, seconds: float, clock: str = "wall"
) -> tuple[float, float, float]:
    """(steps/s, decisions/s, games/s) of the compiled kernel over ``games`` games (or ``seconds`` of batches)."""
    now = time.process_time if clock == "cpu" else time.perf_counter
    play_random(game_id, players, 16, seed=1)  # compile (or load from the cache) first
    steps = decisions = played = 0
    size = games or 1000
    elapsed = 0.0
    while True:
        start = now()
        batch = play_random(game_id, players, size, seed=2, start=played)
        elapsed += now() - start
        steps += int(batch.steps.sum())
        decisions += int(batch.decisions.sum())
        played += size
        if games is not None or elapsed >= seconds:
            return steps / elapsed, decisions / elapsed, played / elapsed
        size *= 2


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=None, help="kernel games per game and player count")
    ap.add_argument("--seconds", type=float, default=2.0, help="engine (and kernel) time per game and player count")
    ap.add_argument("--only", action="append", help="a game id (repeatable)")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall", help="time the kernel by wall clock or CPU")
    args = ap.parse_args()
    print(f"{'game':<10} {'players':>7} {'kernel steps/s':>15} {'games/s':>10} "
          f"{'engine steps/s':>15} {'games/s':>9} {'ratio':>7}")  # fmt: skip
    for game_id in args.only or fast_games():
        spec = get_game(game_id).game_class.spec
        for players in spec.player_counts:
            k_steps, _, k_games = kernel_rate(spec.id, players, args.games, args.seconds, args.clock)
            e_steps, e_games = engine_rate(spec.id, players, args.seconds)
            print(
                f"{spec.id:<10} {players:>7} {k_steps:>15,.0f} {k_games:>10,.0f} {e_steps:>15,.0f} {e_games:>9,.0f} "
                f"{k_steps / e_steps:>6.0f}x",
                flush=True,
            )


if __name__ == "__main__":
    main()
