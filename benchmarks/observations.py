"""What one observation tensor costs, per game: the readable list hook, the view writer, the state writer.

Per game (one player count each), seeded random games are played and every
state met is kept, in order; then each way of building the float32
observation of the seat to move (seat 0 at chance and at the end) is timed over
those states, in order, as an adapter meets them:

* ``list``: ``np.array(tensor(game, state.view(seat)), float32)``, the way every
  adapter built it before the writers (the readable reference);
* ``view``: ``state.view(seat)`` then the game's ``tensor_writer`` into zeros
  (:func:`~ziggurat.interop.encoding.encode_array`);
* ``state``: the game's ``state_tensor_writer``, no view built
  (:func:`~ziggurat.interop.encoding.encode_state`, what Gymnasium, PettingZoo and
  OpenSpiel call).

Prints microseconds per observation and the speed-up of ``state`` over ``list``.
Figures only: nothing here passes or fails on time; every way gives the same
values (``tests/interop/test_state_encoding.py``, ``test_tensor_writer.py``).

    python benchmarks/observations.py [--games kuhnah,lucent] [--players 3] [--games-played 20] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np

from ziggurat.core import CHANCE, game_ids, get_game, make_game
from ziggurat.core.game import Game, State
from ziggurat.interop import encoding
from ziggurat.interop.encoding import encode_array, encode_state


def _states(game: Game, games: int, seed: int) -> list[tuple[State, int]]:
    """Every state of ``games`` seeded random games with the seat whose observation an adapter would build."""
    rng = random.Random(seed)
    out: list[tuple[State, int]] = []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            movers = state.players_to_move()
            out.append((state.clone(), movers[0] if movers else 0))
            if state.current_player() == CHANCE:
                state.apply_action(state.sample_chance(rng), CHANCE)
            else:
                for p in movers:
                    state.apply_action(rng.choice(state.legal_actions(p)), p)
        out.append((state.clone(), 0))
    return out


def _time(build: Callable[[State, int], object], states: list[tuple[State, int]], repeat: int) -> float:
    """Microseconds per observation, the best of ``repeat`` passes over ``states`` (CPU time)."""
    best = float("inf")
    for _ in range(repeat):
        encoding._encoders.clear()  # fresh writers: nothing a writer keeps (K'uh Nah's pyramids) outlives a pass
        start = time.process_time()
        for state, seat in states:
            build(state, seat)
        best = min(best, time.process_time() - start)
    return best / len(states) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(game_ids()), help="comma-separated game ids")
    parser.add_argument("--players", type=int, default=3, help="player count (the smallest allowed if not)")
    parser.add_argument("--games-played", type=int, default=20, help="random games whose states are encoded")
    parser.add_argument("--repeat", type=int, default=3, help="passes over the states (the best counts)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"{'game':<10} {'players':>7} {'states':>7} {'list us':>8} {'view us':>8} {'state us':>8} {'x':>6}")
    for gid in args.games.split(","):
        entry = get_game(gid)
        counts = entry.game_class.spec.player_counts
        players = args.players if args.players in counts else min(counts)
        game = make_game(gid, players)
        states = _states(game, args.games_played, args.seed)
        hook = entry.tensor
        assert hook is not None, f"{gid} has no tensor hook"

        def listed(state: State, seat: int, game: Game = game, hook: Callable = hook) -> np.ndarray:
            return np.array(hook(game, state.view(seat)), dtype=np.float32)

        def viewed(state: State, seat: int, game: Game = game) -> np.ndarray:
            return encode_array(game, state.view(seat))

        def direct(state: State, seat: int, game: Game = game) -> np.ndarray:
            return encode_state(game, state, seat)

        slow, mid, fast = (_time(f, states, args.repeat) for f in (listed, viewed, direct))
        print(f"{gid:<10} {players:>7} {len(states):>7} {slow:>8.1f} {mid:>8.1f} {fast:>8.1f} {slow / fast:>6.1f}")


if __name__ == "__main__":
    main()
