"""IS-MCTS speed: iterations per second for every registered game (2 players, a few positions).

    python benchmarks/ismcts.py --seconds 1 --playout random

Prints figures only; it asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import time

from ziggurat.bots.ismcts import ISMCTSBot
from ziggurat.core import Match, game_ids, make_game


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="search time per position")
    ap.add_argument("--positions", type=int, default=4, help="positions per game (early to late)")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--playout", default="random")
    ap.add_argument("--only", action="append", help="a game id (repeatable)")
    args = ap.parse_args()
    print(f"IS-MCTS iterations per second ({args.players} players, {args.playout} playouts)")
    for gid in args.only or game_ids():
        g = make_game(gid, args.players)
        rates = []
        for k in range(args.positions):
            m = Match(g, 7 + k)
            m.run_bots(["random"] * args.players, max_steps=6 * k)
            m.resolve_chance()
            if m.state.is_terminal():
                continue
            p = m.state.players_to_move()[0]
            state = m.determinisation(p)
            if len(state.legal_actions(p)) < 2:
                continue
            bot = ISMCTSBot(g, p, seed=k, seconds=args.seconds, playout=args.playout)
            t = time.perf_counter()
            bot.choose(state)
            rates.append(bot.last_iterations / (time.perf_counter() - t))
        if rates:
            print(
                f"{gid:10s} median {statistics.median(rates):8.0f} it/s   (min {min(rates):.0f}, max {max(rates):.0f})"
            )
        else:
            print(f"{gid:10s} no position with a choice")


if __name__ == "__main__":
    main()
