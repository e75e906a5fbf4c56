"""Batched environments (``ziggurat.fast.VectorGame``) against the Gymnasium adapter: steps per second, one core.

For every game a ``VectorGame`` can step and every player count, prints the
environment steps per second of ``VectorGame`` (every seat stepped by the
caller: one step = one decision of one game, with its observation and
legal-action mask materialised as arrays, chance played inside, random legal
actions drawn by ``sample_actions`` in NumPy) and of ``ZigguratVectorEnv`` (one
learning seat, the kernel's random players on the other seats: one step = one
decision of the seat, the opponents' moves inside), next to the Gymnasium
adapter ``ZigguratEnv`` (random opponents, masked random actions, one game) and
the ratios. Rates are per second of this process's CPU time (one core: on a
shared machine wall time counts other programs' turns too). Compile time is
excluded (numba's disk cache, one warm-up step). Figures only: nothing here
passes or fails on time. Needs the fast and rl extras.

    nice python benchmarks/vector.py [--envs 256] [--seconds 2] [--only kuhnah]

``--greedy`` prints instead, for the games with compiled greedy opponents, the
learning seat's steps per second against random and against greedy opponents.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from ziggurat.core import get_game
from ziggurat.fast import VectorGame, greedy_games, vector_games


def vector_rate(
    game_id: str, players: int, envs: int, seconds: float, seat: int | None, opponents: str = "random"
) -> float:
    """Environment steps per second of a ``VectorGame`` of ``envs`` games."""
    env = VectorGame(game_id, envs, seed=1, players=players, seat=seat, copy=False, opponents=opponents)
    env.step(env.sample_actions())  # compile (or load from the cache) first
    steps = 0
    start = time.process_time()
    while True:
        for _ in range(20):
            out = env.step(env.sample_actions())
        steps += 20 * envs
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            assert out.obs.shape == (envs, env.obs_size) and out.mask.any(axis=1).all()
            return steps / elapsed


def gymnasium_rate(game_id: str, players: int, seconds: float) -> float:
    """Steps per second of the Gymnasium adapter (one seat, random opponents, masked random actions)."""
    from ziggurat.interop.gymnasium import ZigguratEnv

    env = ZigguratEnv(game=game_id, players=players, seat=0)
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    steps = 0
    start = time.process_time()
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, _, done, _, info = env.step(action)
        steps += 1
        if done:
            _, info = env.reset()
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return steps / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--envs", type=int, default=256, help="games stepped side by side")
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU time per measurement")
    parser.add_argument("--only", help="one game id")
    parser.add_argument("--greedy", action="store_true", help="a learning seat against random and greedy opponents")
    args = parser.parse_args()
    if args.greedy:
        greedy_table(args)
        return
    print(f"{'game':<10} {'n':>2} {'VectorGame/s':>13} {'seat env/s':>11} {'Gymnasium/s':>12} {'x':>6} {'seat x':>7}")
    for game_id in vector_games():
        if args.only and game_id != args.only:
            continue
        for players in get_game(game_id).game_class.spec.player_counts:
            vec = vector_rate(game_id, players, args.envs, args.seconds, None)
            seat = vector_rate(game_id, players, args.envs, args.seconds, 0)
            gym = gymnasium_rate(game_id, players, args.seconds)
            ratios = f"{vec / gym:>6.0f} {seat / gym:>7.0f}"
            print(f"{game_id:<10} {players:>2} {vec:>13,.0f} {seat:>11,.0f} {gym:>12,.0f} {ratios}", flush=True)


def greedy_table(args: argparse.Namespace) -> None:
    """The learning seat's steps/s against random and greedy opponents (a step: one decision of the seat)."""
    print(f"{'game':<10} {'n':>2} {'random opp. /s':>15} {'greedy opp. /s':>15} {'x':>6}")
    for game_id in greedy_games():
        if args.only and game_id != args.only:
            continue
        for players in get_game(game_id).game_class.spec.player_counts:
            rand = vector_rate(game_id, players, args.envs, args.seconds, 0)
            greedy = vector_rate(game_id, players, args.envs, args.seconds, 0, "greedy")
            print(f"{game_id:<10} {players:>2} {rand:>15,.0f} {greedy:>15,.0f} {greedy / rand:>6.2f}", flush=True)


if __name__ == "__main__":
    main()
