"""Speed of this tree against another checkout of Ziggurat, side by side in one run.

Every figure is measured in a fresh subprocess with ``PYTHONPATH`` set to one
tree's ``src``; the two trees take turns (base, new, base, new, ...) so that
load from other work on the machine falls on both alike, and each figure is
the best of ``--rounds`` turns. Ratios are new / base (for times: base / new).

    git worktree add ../base main~0 --detach        # the code to compare against
    python benchmarks/compare.py --base ../base/src --what playout,ismcts
    python benchmarks/compare.py --base ../base/src --what simulate --games 100000 --jobs 2

What it measures:

* ``playout``: random-playout steps per second on one core, per game and player
  count, by ``random_playout`` (the fast path where the tree has one) and by a
  loop of checked calls (``legal_actions``, ``sample_chance``, ``apply_action``),
  which is what ``random_playout`` was before the fast path;
* ``ismcts``: IS-MCTS iterations per second (random playouts, 2 players), the
  median over a few positions of a game, the same positions in both trees (drawn
  with the public calls and a local stream; the bot is handed the true state: it
  draws its own determinisations);
* ``simulate``: seconds for ``ziggurat simulate`` from the command line (report
  and plots included), wall clock.

``--clock cpu`` divides by the CPU time the measuring process used instead of
the wall clock: steadier when others share the machine.

Prints figures only; it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()


# ------------------------------------------------------------------ worker side
def _clock(name: str) -> Any:
    return time.process_time if name == "cpu" else time.perf_counter


def _playout(game_id: str, players: int, seconds: float, mode: str, clock: str) -> dict[str, float]:
    import random

    from throughput import checked_playout  # beside this file; imports only what both trees have
    from ziggurat.core import make_game, random_playout

    play = random_playout if mode == "fast" else checked_playout
    game = make_game(game_id, players)
    rng = random.Random(0)
    steps = games = 0
    play(game.new_initial_state(), rng)  # warm caches
    now = _clock(clock)
    start = now()
    while True:
        state = play(game.new_initial_state(), rng)
        steps += len(state.history)
        games += 1
        elapsed = now() - start
        if elapsed >= seconds:
            return {"steps": steps / elapsed, "games": games / elapsed}


def _position(game: Any, seed: int, decisions: int) -> Any:
    """A position ``decisions`` random decisions into a game, then through any chance that follows.

    Drawn with the public calls and a local stream only (not the match's seeding,
    which changed with the seed scheme), so both trees reach the very same
    position as long as they list the same actions and outcomes.
    """
    import random

    from ziggurat.core import CHANCE, SIMULTANEOUS

    state = game.new_initial_state()
    rng = random.Random(seed)
    done = 0
    while not state.is_terminal():
        cur = state.current_player()
        if cur == CHANCE:
            u, acc = rng.random(), 0.0
            outcomes = state.chance_outcomes()
            pick = outcomes[-1][0]
            for action, prob in outcomes:
                acc += prob
                if u < acc:
                    pick = action
                    break
            state.apply_action(pick)
            continue
        if done >= decisions:
            break
        movers = state.players_to_move() if cur == SIMULTANEOUS else (cur,)
        for p in movers:
            legal = state.legal_actions(p)
            state.apply_action(legal[int(rng.random() * len(legal))], p)
        done += 1
    return state


def _ismcts(game_id: str, players: int, seconds: float, positions: int, clock: str) -> dict[str, float]:
    from ziggurat.bots.ismcts import ISMCTSBot
    from ziggurat.core import make_game

    g = make_game(game_id, players)
    rates = []
    for k in range(positions):
        state = _position(g, 7 + k, 6 * k)
        if state.is_terminal():
            continue
        p = state.players_to_move()[0]
        if len(state.legal_actions(p)) < 2:
            continue
        bot = ISMCTSBot(g, p, seed=k, seconds=seconds, playout="random")
        state = state.clone()
        now = _clock(clock)
        t = now()
        bot.choose(state)
        rates.append(bot.last_iterations / (now() - t))
    return {"iterations": statistics.median(rates) if rates else 0.0}


def _worker(spec: dict[str, Any]) -> dict[str, float]:
    if spec["what"] == "playout":
        return _playout(spec["game"], spec["players"], spec["seconds"], spec["mode"], spec["clock"])
    if spec["what"] == "ismcts":
        return _ismcts(spec["game"], spec["players"], spec["seconds"], spec["positions"], spec["clock"])
    raise SystemExit(f"unknown measurement {spec['what']!r}")


# ------------------------------------------------------------------ driver side
def _run(src: str, spec: dict[str, Any]) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": src}
    out = subprocess.run(
        [sys.executable, str(HERE), "--worker", json.dumps(spec)], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def _best(trees: dict[str, str], spec: dict[str, Any], rounds: int, key: str) -> dict[str, float]:
    best = {name: 0.0 for name in trees}
    for _ in range(rounds):
        for name, src in trees.items():
            best[name] = max(best[name], _run(src, spec)[key])
    return best


def _simulate(src: str, args: argparse.Namespace) -> float:
    out = tempfile.mkdtemp(prefix="ziggurat-compare-")
    cli = shutil.which("ziggurat") or str(Path(sys.executable).with_name("ziggurat"))
    cmd = [cli, "simulate", args.sim_game, "--players", str(args.sim_players), "--bots", "random"]
    cmd += ["--games", str(args.games), "--jobs", str(args.jobs), "--seed", "1", "--out", out]
    try:
        t = time.perf_counter()
        subprocess.run(cmd, env={**os.environ, "PYTHONPATH": src}, check=True, capture_output=True)
        return time.perf_counter() - t
    finally:
        shutil.rmtree(out, ignore_errors=True)


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        print(json.dumps(_worker(json.loads(sys.argv[2]))))
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", required=True, help="the src folder of the tree to compare against")
    ap.add_argument("--new", default=str(HERE.parent.parent / "src"), help="the src folder of this tree")
    ap.add_argument("--what", default="playout,ismcts", help="comma-separated: playout, ismcts, simulate")
    ap.add_argument("--only", action="append", help="a game id (repeatable)")
    ap.add_argument("--players", help="comma-separated player counts for playout (default: every count)")
    ap.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    ap.add_argument("--rounds", type=int, default=3, help="turns per tree; the best is kept")
    ap.add_argument(
        "--clock", choices=("wall", "cpu"), default="wall", help="rates per wall-clock or per CPU second (busy machine)"
    )
    ap.add_argument("--positions", type=int, default=4, help="IS-MCTS positions per game")
    ap.add_argument("--games", type=int, default=100_000, help="simulate: games")
    ap.add_argument("--jobs", type=int, default=2, help="simulate: jobs")
    ap.add_argument("--sim-game", default="kuhnah", help="simulate: game")
    ap.add_argument("--sim-players", type=int, default=3, help="simulate: players")
    ap.add_argument("--sim-rounds", type=int, default=1, help="simulate: runs per tree; the fastest is kept")
    args = ap.parse_args()
    trees = {"base": str(Path(args.base).resolve()), "new": str(Path(args.new).resolve())}
    what = args.what.split(",")
    print(f"base: {trees['base']}\nnew:  {trees['new']}\nload: {os.getloadavg()[0]:.2f}", flush=True)
    from ziggurat.core import game_ids, get_game

    games = args.only or game_ids()
    if "playout" in what:
        print(f"\nrandom-playout steps/s on one core (best of {args.rounds})")
        print(f"{'game':<10}{'pl':>3}{'base':>11}{'new checked':>13}{'ratio':>7}{'new fast':>11}{'ratio':>7}")
        for gid in games:
            spec = get_game(gid).game_class.spec
            counts = [int(c) for c in args.players.split(",")] if args.players else list(spec.player_counts)
            for n in [c for c in counts if c in spec.player_counts]:
                base_spec = {"what": "playout", "game": gid, "players": n, "seconds": args.seconds, "clock": args.clock}
                checked = _best(trees, {**base_spec, "mode": "checked"}, args.rounds, "steps")
                fast = _best({"new": trees["new"]}, {**base_spec, "mode": "fast"}, args.rounds, "steps")
                b = checked["base"]
                print(
                    f"{gid:<10}{n:>3}{b:>11,.0f}{checked['new']:>13,.0f}{checked['new'] / b:>6.2f}x"
                    f"{fast['new']:>11,.0f}{fast['new'] / b:>6.2f}x",
                    flush=True,
                )
    if "ismcts" in what:
        print(f"\nIS-MCTS iterations/s, 2 players, random playouts, median of {args.positions} positions")
        print(f"{'game':<10}{'base':>10}{'new':>10}{'ratio':>8}")
        for gid in games:
            spec = {"what": "ismcts", "game": gid, "players": 2, "seconds": args.seconds, "positions": args.positions}
            spec["clock"] = args.clock
            r = _best(trees, spec, args.rounds, "iterations")
            print(f"{gid:<10}{r['base']:>10,.0f}{r['new']:>10,.0f}{r['new'] / r['base']:>7.2f}x", flush=True)
    if "simulate" in what:
        print(
            f"\nziggurat simulate {args.sim_game} --players {args.sim_players} --bots random "
            f"--games {args.games} --jobs {args.jobs} (seconds, report included)"
        )
        times = {name: min(_simulate(src, args) for _ in range(args.sim_rounds)) for name, src in trees.items()}
        print(
            f"base {times['base']:.1f} s   new {times['new']:.1f} s   {times['base'] / times['new']:.2f}x", flush=True
        )
        print(f"load: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
