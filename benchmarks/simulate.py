"""Throughput of ``simulate``: games per second for every registered game at 1 and 2 jobs.

    python benchmarks/simulate.py --games 2000 --bots random

Prints figures only; it asserts nothing.
"""

from __future__ import annotations

import argparse
import time

from ziggurat.analysis.simulate import Setup, simulate
from ziggurat.core import game_ids


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--bots", default="random", help="comma-separated bots, one per seat")
    ap.add_argument("--jobs", default="1,2", help="job counts to time")
    ap.add_argument("--only", action="append", help="a game id (repeatable)")
    args = ap.parse_args()
    jobs = [int(j) for j in args.jobs.split(",")]
    bots = args.bots.split(",")
    print(f"simulate: {args.games} games, {args.players} players, bots {args.bots}")
    print(f"{'game':10s}" + "".join(f"{f'{j} job(s)':>16s}" for j in jobs))
    for gid in args.only or game_ids():
        cells = []
        for j in jobs:
            t = time.perf_counter()
            simulate(Setup(gid, args.players), bots, args.games, seed=1, jobs=j)
            dt = time.perf_counter() - t
            cells.append(f"{args.games / dt:11.0f} g/s")
        print(f"{gid:10s}" + "".join(f"{c:>16s}" for c in cells), flush=True)


if __name__ == "__main__":
    main()
