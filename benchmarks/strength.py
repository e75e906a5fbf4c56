"""Bot strength in every registered game at two players: IS-MCTS vs greedy, greedy vs random.

Seats are rotated; win rates come with 95% Wilson intervals. IS-MCTS gets an
*iteration* budget calibrated to ``--seconds`` of search per move on this
machine (so results are reproducible and unaffected by load during the run).

    python benchmarks/strength.py --games 20 --seconds 1 --jobs 2
    python benchmarks/strength.py --only kuhnah --games 40 --seconds 0.25

Prints figures only; it asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import time

from ziggurat.analysis.report import arena_summary
from ziggurat.analysis.simulate import Setup, arena
from ziggurat.analysis.stats import fmt_rate
from ziggurat.bots.ismcts import ISMCTSBot
from ziggurat.core import Match, game_ids, make_game


def calibrate(game_id: str, seconds: float, samples: int = 3, **opts: object) -> tuple[int, float]:
    """(iterations in ``seconds``, iterations per second), median over a few mid-game positions."""
    rates = []
    g = make_game(game_id, 2)
    for k in range(samples):
        m = Match(g, 100 + k)
        m.run_bots(["random", "random"], max_steps=4 * k)
        m.resolve_chance()
        if m.state.is_terminal():
            continue
        p = m.state.players_to_move()[0]
        bot = ISMCTSBot(g, p, seed=k, seconds=min(seconds, 0.5), **opts)  # type: ignore[arg-type]
        state = m.determinisation(p)
        if len(state.legal_actions(p)) < 2:
            continue
        t = time.perf_counter()
        bot.choose(state)
        rates.append(bot.last_iterations / (time.perf_counter() - t))
    rate = statistics.median(rates) if rates else 1000.0
    return max(10, int(rate * seconds)), rate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="games per pairing (seats alternate)")
    ap.add_argument("--random-games", type=int, default=100, help="games of greedy vs random")
    ap.add_argument("--seconds", type=float, default=1.0, help="IS-MCTS search time per move to calibrate for")
    ap.add_argument("--iterations", type=int, default=None, help="fixed IS-MCTS iterations (skips calibration)")
    ap.add_argument("--playout", default="random", help="IS-MCTS playout policy: random or heuristic")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", action="append", help="a game id (repeatable); default every registered game")
    args = ap.parse_args()
    lines = []
    for gid in args.only or game_ids():
        if args.iterations:
            iters, rate = args.iterations, float("nan")
        else:
            iters, rate = calibrate(gid, args.seconds, playout=args.playout)
        opts = {"ismcts": {"iterations": iters, "playout": args.playout}}
        t = time.perf_counter()
        top = arena_summary(arena(Setup(gid, 2), ["ismcts", "greedy"], args.games, args.seed, args.jobs, opts))
        t_top = time.perf_counter() - t
        t = time.perf_counter()
        low = arena_summary(arena(Setup(gid, 2), ["greedy", "random"], args.random_games, args.seed, args.jobs))
        t_low = time.perf_counter() - t
        a, b = top["head_to_head"]["ismcts vs greedy"], low["head_to_head"]["greedy vs random"]
        line = (
            f"{gid:9s} ismcts({iters} it ~{args.seconds:g}s @ {rate:.0f} it/s) vs greedy: "
            f"{fmt_rate(a['rate'] * a['n'], int(a['n']))} of {int(a['n'])} ({t_top:.0f}s)   "
            f"greedy vs random: {fmt_rate(b['rate'] * b['n'], int(b['n']))} of {int(b['n'])} ({t_low:.0f}s)"
        )
        print(line, flush=True)
        lines.append(line)
    print("\nBot strength at 2 players (seats rotated; share of games finished ahead, 95% Wilson CI):")
    for line in lines:
        print(" ", line)


if __name__ == "__main__":
    main()
