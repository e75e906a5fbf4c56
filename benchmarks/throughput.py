"""Random-playout throughput of every registered game, on one core.

Prints, per game and player count: steps per second (every applied action,
chance included) by ``random_playout`` (the fast path: actions drawn from the
position are applied unchecked) and by a loop of checked calls
(``legal_actions``, ``sample_chance``, ``apply_action``), then decisions per
second (player actions only) and games per second of the fast path. Figures
only: nothing here passes or fails on time. ``--clock cpu`` counts this
process's CPU time instead of the wall clock: on a machine busy with other
work the wall clock measures the others too.

    python benchmarks/throughput.py [--seconds 2] [--games kuhnah,pyramix] [--clock cpu]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from ziggurat.core import CHANCE, SIMULTANEOUS, State, game_ids, get_game, make_game, random_playout


def checked_playout(state: State, rng: random.Random) -> State:
    """``random_playout`` through the checked public calls (the reference path)."""
    while True:
        cur = state.current_player()
        if cur >= 0:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
        elif cur == CHANCE:
            state.apply_action(state.sample_chance(rng))
        elif cur == SIMULTANEOUS:
            for p in state.players_to_move():
                legal = state.legal_actions(p)
                state.apply_action(legal[int(rng.random() * len(legal))], p)
        else:
            return state


def measure(
    game_id: str,
    players: int,
    seconds: float,
    seed: int = 0,
    play: Callable[[State, random.Random], State] = random_playout,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[float, float, float]:
    """(steps/s, decisions/s, games/s) of random playouts for ``seconds`` of ``clock``."""
    game = make_game(game_id, players)
    rng = random.Random(seed)
    steps = decisions = games = 0
    start = clock()
    while True:
        state = play(game.new_initial_state(), rng)
        steps += len(state.history)
        decisions += sum(1 for p, _ in state.history if p != CHANCE)
        games += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            return steps / elapsed, decisions / elapsed, games / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per game, player count and path")
    parser.add_argument("--games", default=",".join(game_ids()), help="comma-separated game ids")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall", help="wall clock or this process's CPU")
    args = parser.parse_args()
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    print(f"{'game':<10} {'players':>7} {'checked/s':>12} {'steps/s':>12} {'decisions/s':>12} {'games/s':>10}")
    for game_id in args.games.split(","):
        spec = get_game(game_id).game_class.spec
        for players in spec.player_counts:
            checked, _, _ = measure(spec.id, players, args.seconds, play=checked_playout, clock=clock)
            steps, decisions, games = measure(spec.id, players, args.seconds, clock=clock)
            print(
                f"{spec.id:<10} {players:>7} {checked:>12,.0f} {steps:>12,.0f} {decisions:>12,.0f} {games:>10,.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
