"""How games end: the share of each end reason, rounds and the winner's score, per bot and player count.

Plays seeded games with the same bot in every seat and prints, per player
count: games, the share of each end (the game's own end codes, see
``State.end_reason``), mean rounds (chance rolls for Kukulkán; the game's
``round`` otherwise where its view has one), the mean winning score and the
mean decisions. Figures only: it asserts nothing.

    python benchmarks/ends.py kukulkan --players 2 4 --bots greedy --games 200 --jobs 2
    python benchmarks/ends.py kukulkan --players 2 --bots ismcts --games 20 --bot-option iterations=400
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ziggurat.core import CHANCE, Match, make_game


def end_code(state: Any) -> str:
    """The end's code (``end_reason``; before that API existed, the view's end text)."""
    if hasattr(state, "end_reason"):
        return str(state.end_reason().code)
    return str(state.view(None).get("end", "over"))


def play(args: tuple[str, int, str, dict[str, Any], int]) -> dict[str, Any]:
    game_id, players, bot, options, seed = args
    game = make_game(game_id, players)
    match = Match(game, seed)
    match.run_bots(match.seat_bots([bot] * players, {bot: options}))
    st = match.state
    view = st.view(None)
    rolls = sum(1 for p, _ in st.history if p == CHANCE)
    rounds = view.get("round", rolls) if game_id != "kukulkan" else rolls
    return {
        "end": end_code(st),
        "rounds": rounds,
        "win": max(st.scores()),
        "decisions": sum(1 for p, _ in st.history if p >= 0),
    }


def _option(text: str) -> tuple[str, Any]:
    name, _, raw = text.partition("=")
    for kind in (int, float):
        try:
            return name, kind(raw)
        except ValueError:
            pass
    return name, raw


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, nargs="+", default=[2])
    ap.add_argument("--bots", default="greedy", help="the bot in every seat")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--bot-option", action="append", default=[], help="NAME=VALUE for the bot (repeatable)")
    args = ap.parse_args()
    options = dict(_option(o) for o in args.bot_option)
    for players in args.players:
        t0 = time.perf_counter()
        tasks = [(args.game, players, args.bots, options, args.seed * 1_000_003 + g) for g in range(args.games)]
        if args.jobs > 1:
            with ProcessPoolExecutor(args.jobs) as pool:
                rows = list(pool.map(play, tasks))
        else:
            rows = [play(t) for t in tasks]
        ends = Counter(r["end"] for r in rows)
        share = ", ".join(f"{code} {100 * k / len(rows):.1f}%" for code, k in ends.most_common())
        rounds = [r["rounds"] for r in rows]
        wins = [r["win"] for r in rows]
        print(
            f"{args.game} {players}p {args.bots} {options or ''}: {len(rows)} games; ends: {share}; "
            f"rounds {statistics.mean(rounds):.1f} (median {statistics.median(rounds):g}, "
            f"{min(rounds)}-{max(rounds)}); winning score {statistics.mean(wins):.2f} "
            f"(sd {statistics.pstdev(wins):.2f}); decisions {statistics.mean(r['decisions'] for r in rows):.0f}; "
            f"{time.perf_counter() - t0:.0f}s",
            flush=True,
        )


if __name__ == "__main__":
    main()
