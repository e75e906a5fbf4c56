"""The adapters' overhead: one random loop, natively and through OpenSpiel, PettingZoo and Gymnasium.

Per game (one player count each) and per path, the same loop runs on one core
for ``--seconds``: ask for the legal actions, pick one with a seeded NumPy
``Generator``, apply it; chance is drawn from the same generator. Steps are
every action the engine applied (chance and every seat included, counted from
the engine state's history at the end of each game), so the paths compare like
for like:

* ``native``: ``state.legal_actions()`` / ``state.apply_action(a)``; chance by
  ``state.sample_chance(gen)``; a simultaneous node seat by seat.
* ``openspiel``: ``python_<id>`` through ``pyspiel``: ``state.legal_actions()``,
  ``state.apply_action(a)``; chance from ``state.chance_outcomes()`` (OpenSpiel
  has no sampling call), so a second ratio, ``x*``, compares it with a native
  loop that draws chance the same way.
* ``pettingzoo``: the AEC loop of PettingZoo's documentation with masking from
  ``info``: ``agent_iter``, ``last(observe=False)``, the legal ids from
  ``info["action_mask"]``, ``step(a)`` (no observation tensor is built).
* ``pettingzoo-obs``: the same with ``last()``, the legal ids from
  ``observation["action_mask"]``: every decision builds the view's tensor.
* ``gymnasium``: seat 0 learns, the others are ``random`` bots; the legal ids
  from ``info["action_mask"]``, ``step(a)``; every step returns the observation
  tensor, as Gymnasium requires.

The PettingZoo and Gymnasium loops turn a mask into ids with ``np.flatnonzero``
(``--ids nonzero``: ``mask.nonzero()[0]``, the same ids with less of NumPy's
Python around it). Prints steps/s per path and the ratio native / adapter (1.0: no overhead).

With the OpenSpiel path, the same OpenSpiel loop runs once more calling each
state's Python ``_apply_action`` directly, which is what pyspiel's C++
``apply_action`` calls after its own work (the player to move asked back from
Python, the history kept): the difference is what pyspiel itself costs a Python
game per step, in this very loop, which no adapter can avoid. ``floor`` is the
smallest ``x*`` that leaves: (native step + pyspiel's cost) / native step.
Figures only: nothing here passes or fails on time. ``--clock cpu`` counts this
process's CPU time (the machine may be busy with other work).

    python benchmarks/adapters.py [--seconds 2] [--games kuhnah,lucent] [--players 3] [--clock cpu] [--ids nonzero]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from ziggurat.core import CHANCE, SIMULTANEOUS, game_ids, get_game, make_game

PATHS = ("native", "openspiel", "pettingzoo", "pettingzoo-obs", "gymnasium")
Clock = Callable[[], float]


def _flatnonzero(mask: np.ndarray) -> np.ndarray:
    return np.flatnonzero(mask)


def _nonzero(mask: np.ndarray) -> np.ndarray:
    return mask.nonzero()[0]


ids_of = _flatnonzero  # how the loops turn a mask into action ids (--ids)


def players_for(game_id: str, wanted: int | None) -> int:
    """``wanted`` players if the game allows it, else 3 if allowed, else its smallest count."""
    counts = get_game(game_id).game_class.spec.player_counts
    for n in (wanted, 3):
        if n is not None and n in counts:
            return n
    return min(counts)


def _draw(outcomes: list[tuple[int, float]], u: float) -> int:
    """The outcome at cumulative probability ``u`` (how a loop over OpenSpiel draws chance)."""
    acc = 0.0
    for a, p in outcomes:
        acc += p
        if u < acc:
            return a
    return outcomes[-1][0]


def run_native(game_id: str, players: int, seconds: float, seed: int, clock: Clock, outcomes: bool = False) -> float:
    """Steps/s of the engine's own checked calls (``outcomes``: chance drawn from ``chance_outcomes()``)."""
    game = make_game(game_id, players)
    gen = np.random.default_rng(seed)
    steps = 0
    start = clock()
    while True:
        state = game.new_initial_state()
        while True:
            cur = state.current_player()
            if cur >= 0:
                legal = state.legal_actions()
                state.apply_action(legal[int(gen.random() * len(legal))])
            elif cur == CHANCE:
                if outcomes:
                    state.apply_action(_draw(state.chance_outcomes(), gen.random()))
                else:
                    state.apply_action(state.sample_chance(gen))  # type: ignore[arg-type]
            elif cur == SIMULTANEOUS:
                for p in state.players_to_move():
                    legal = state.legal_actions(p)
                    state.apply_action(legal[int(gen.random() * len(legal))], p)
            else:
                break
        steps += len(state.history)
        elapsed = clock() - start
        if elapsed >= seconds:
            return steps / elapsed


def run_openspiel(game_id: str, players: int, seconds: float, seed: int, clock: Clock, direct: bool = False) -> float:
    """Steps/s through ``pyspiel`` (``python_<id>``); ``direct``: the state's ``_apply_action`` called
    without pyspiel's ``apply_action`` around it (to measure what pyspiel adds; no history is kept)."""
    from ziggurat.interop.openspiel import load

    game = load(game_id, players)
    gen = np.random.default_rng(seed)
    steps = 0
    start = clock()
    while True:
        state = game.new_initial_state()
        apply = state._apply_action if direct else state.apply_action
        while not state.is_terminal():
            if state.is_chance_node():
                apply(_draw(state.chance_outcomes(), gen.random()))
            else:
                legal = state.legal_actions()
                apply(legal[int(gen.random() * len(legal))])
        steps += len(state.zstate.history)
        elapsed = clock() - start
        if elapsed >= seconds:
            return steps / elapsed


def run_pettingzoo(game_id: str, players: int, seconds: float, seed: int, clock: Clock, observe: bool = False) -> float:
    """Steps/s through the PettingZoo AEC environment (``observe``: build every observation)."""
    from ziggurat.interop.pettingzoo import env

    e = env(game=game_id, players=players, seed=seed)
    gen = np.random.default_rng(seed)
    steps = 0
    start = clock()
    while True:
        e.reset()
        for _agent in e.agent_iter():
            observation, _reward, terminated, truncated, info = e.last(observe)
            if terminated or truncated:
                e.step(None)
                continue
            legal = ids_of(observation["action_mask"] if observe else info["action_mask"])
            e.step(legal[int(gen.random() * len(legal))])
        steps += len(e.unwrapped.table.state.history)
        elapsed = clock() - start
        if elapsed >= seconds:
            return steps / elapsed


def run_pettingzoo_obs(game_id: str, players: int, seconds: float, seed: int, clock: Clock) -> float:
    """Steps/s through the PettingZoo AEC environment, every observation built."""
    return run_pettingzoo(game_id, players, seconds, seed, clock, observe=True)


def run_gymnasium(game_id: str, players: int, seconds: float, seed: int, clock: Clock) -> float:
    """Steps/s through the Gymnasium environment (seat 0; random bots in the other seats)."""
    from ziggurat.interop.gymnasium import ZigguratEnv

    e = ZigguratEnv(game=game_id, players=players, seat=0, opponents="random")
    gen = np.random.default_rng(seed)
    steps = 0
    episode = 0
    start = clock()
    while True:
        _obs, info = e.reset(seed=seed + episode)
        episode += 1
        done = e.state.is_terminal()
        while not done:
            legal = ids_of(info["action_mask"])
            _obs, _reward, done, _truncated, info = e.step(legal[int(gen.random() * len(legal))])
        steps += len(e.state.history)
        elapsed = clock() - start
        if elapsed >= seconds:
            return steps / elapsed


RUNNERS: dict[str, Callable[[str, int, float, int, Clock], float]] = {
    "native": run_native,
    "openspiel": run_openspiel,
    "pettingzoo": run_pettingzoo,
    "pettingzoo-obs": run_pettingzoo_obs,
    "gymnasium": run_gymnasium,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per game and path")
    parser.add_argument("--games", default=",".join(game_ids()), help="comma-separated game ids")
    parser.add_argument("--players", type=int, default=None, help="player count (default: 3 where allowed)")
    parser.add_argument("--paths", default=",".join(PATHS), help="comma-separated paths (native is always run)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall", help="wall clock or this process's CPU")
    parser.add_argument("--ids", choices=("flatnonzero", "nonzero"), default="flatnonzero", help="mask to action ids")
    args = parser.parse_args()
    global ids_of
    ids_of = _nonzero if args.ids == "nonzero" else _flatnonzero
    clock: Clock = time.process_time if args.clock == "cpu" else time.perf_counter
    paths = [p for p in args.paths.split(",") if p != "native"]
    for p in paths:
        if p not in RUNNERS:
            parser.error(f"unknown path {p!r}; choose from {', '.join(PATHS)}")
    header = f"{'game':<10} {'players':>7} {'native/s':>11}"
    for p in paths:
        header += f" {p + '/s':>13} {'x':>5}"
        if p == "openspiel":
            header += f" {'x*':>5} {'floor':>5}"
    print(header)
    for game_id in args.games.split(","):
        players = players_for(game_id, args.players)
        native = run_native(game_id, players, args.seconds, args.seed, clock)
        line = f"{game_id:<10} {players:>7} {native:>11,.0f}"
        for p in paths:
            rate = RUNNERS[p](game_id, players, args.seconds, args.seed, clock)
            line += f" {rate:>13,.0f} {native / rate:>5.2f}"
            if p == "openspiel":  # against a native loop that draws chance the same way
                same = run_native(game_id, players, args.seconds, args.seed, clock, outcomes=True)
                direct = run_openspiel(game_id, players, args.seconds, args.seed, clock, direct=True)
                pyspiel_cost = max(0.0, 1 / rate - 1 / direct)  # seconds a step
                line += f" {same / rate:>5.2f} {(1 / same + pyspiel_cost) * same:>5.2f}"
        print(line, flush=True)
    if "openspiel" in paths:
        print("x*: OpenSpiel against the native loop drawing chance from chance_outcomes() as the OpenSpiel loop must")
        print(
            "floor: the smallest x* left by what pyspiel's apply_action itself costs a step in this loop "
            "(the loop through pyspiel, less the same loop calling the state's _apply_action directly)"
        )


if __name__ == "__main__":
    main()
