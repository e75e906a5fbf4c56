"""Throughput of ``simulate``: games per second for every registered game at 1 and 2 jobs.

    python benchmarks/simulate.py --games 2000 --bots random

With ``--command N[,N...]`` it times the whole command instead, as a user runs it:
``ziggurat simulate GAME --games N --engine fast --out DIR`` under ``/usr/bin/time -v``
(wall time and the peak resident memory of the largest process), for each games file format:

    nice python benchmarks/simulate.py --command 1000000,10000000 --only kuhnah

Prints figures only; it asserts nothing.

Figures (K'uh Nah, default 2 players, ``--engine fast --jobs 2 --out DIR``, ``nice``, on 2 cores
kept at a load of 5-7 by other work: a process got about half a core; ``docs/fast.md`` has the
whole table, with the CPU each command costs whatever the load):

    games         before (a dict per game, CSV)   columns, CSV          columns, Parquet
    1,000,000      62.3 s   1692 MB               19.0 s    197 MB      25.0 s    264 MB
    10,000,000     -                              114 s     303 MB      115 s     347 MB
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ziggurat.analysis.simulate import Setup, simulate
from ziggurat.core import game_ids


def time_command(args: list[str]) -> tuple[float, float]:
    """Wall seconds and peak resident MB of ``args`` under ``/usr/bin/time -v``."""
    done = subprocess.run(["/usr/bin/time", "-v", *args], capture_output=True, text=True, check=True)
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", done.stderr)
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    assert wall and rss, done.stderr
    seconds = sum(float(part) * 60**i for i, part in enumerate(reversed(wall.group(1).split(":"))))
    return seconds, int(rss.group(1)) / 1024


def commands(counts: list[int], games: list[str], jobs: int, formats: list[str]) -> None:
    """Time the whole fast ``simulate`` command, report included."""
    if not Path("/usr/bin/time").exists():
        sys.exit("--command needs /usr/bin/time (Debian: apt-get install time)")
    ziggurat = [sys.executable, "-m", "ziggurat"]
    print(f"ziggurat simulate GAME --games N --engine fast --jobs {jobs} --out DIR (wall s, peak MB)")
    print(f"{'game':10s}{'games':>12s}" + "".join(f"{fmt:>22s}" for fmt in formats))
    for gid in games:
        for n in counts:
            cells = []
            for fmt in formats:
                out = Path(tempfile.mkdtemp(prefix="zsim"))
                try:
                    args = [*ziggurat, "simulate", gid, "--games", str(n), "--engine", "fast"]
                    wall, mb = time_command([*args, "--jobs", str(jobs), "--out", str(out / "run"), "--format", fmt])
                finally:
                    shutil.rmtree(out, ignore_errors=True)
                cells.append(f"{wall:8.1f} s {mb:7.0f} MB")
            print(f"{gid:10s}{n:12,d}" + "".join(f"{c:>22s}" for c in cells), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--bots", default="random", help="comma-separated bots, one per seat")
    ap.add_argument("--jobs", default="1,2", help="job counts to time")
    ap.add_argument("--only", action="append", help="a game id (repeatable)")
    ap.add_argument("--command", help="time the fast command for these game counts (e.g. 1000000,10000000)")
    ap.add_argument("--formats", default="csv,parquet", help="with --command: games file formats")
    args = ap.parse_args()
    jobs = [int(j) for j in args.jobs.split(",")]
    if args.command:
        counts = [int(n) for n in args.command.split(",")]
        commands(counts, args.only or ["kuhnah"], max(jobs), args.formats.split(","))
        return
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
