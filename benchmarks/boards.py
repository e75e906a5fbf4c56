"""What drawing a board costs, per game: the SVG the web page gets with every move, for every audience.

A browser's socket asks for ``html`` frames: with every move the server draws the
board again for each seat and for the spectators (``pages.board``, the game's
``web.board`` from its view), which makes an ``html`` frame several times dearer than
a ``data`` one (``benchmarks/server.py --format html``). Per game, seeded random
games are played and every state is kept; then every audience's board is drawn
from its view at each of them, in order, as a server meets them (the view is built
beforehand and not timed). Each pass starts with nothing kept (``svg.forget``): a pass
that found every part of its boards already drawn would time a server that does not exist.

Prints microseconds per board drawn. Figures only: nothing here passes or fails
on time.

    python benchmarks/boards.py [--games kuhnah,lucent] [--players 2] [--games-played 3] [--repeat 2]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from ziggurat.core import CHANCE, game_ids, get_game, make_game, svg
from ziggurat.web import pages


def _boards(gid: str, players: int, games: int, seed: int) -> list[tuple[Any, int | None, list[tuple[int, str]]]]:
    """(view, audience, legal texts) of every audience at every state of ``games`` seeded random games."""
    game = make_game(gid, players)
    rng = random.Random(seed)
    out: list[tuple[Any, int | None, list[tuple[int, str]]]] = []
    for _ in range(games):
        state = game.new_initial_state()
        while True:
            movers = state.players_to_move() if not state.is_terminal() else []
            for audience in [*range(players), None]:
                legal = state.legal_action_texts(audience) if audience in movers else []
                out.append((state.view(audience), audience, legal))
            if state.is_terminal():
                break
            if state.current_player() == CHANCE:
                state.apply_action(state.sample_chance(rng), CHANCE)
            else:
                for p in movers:
                    state.apply_action(rng.choice(state.legal_actions(p)), p)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(game_ids()), help="comma-separated game ids")
    parser.add_argument("--players", type=int, default=2, help="player count (the smallest allowed if not)")
    parser.add_argument("--games-played", type=int, default=3, help="random games whose boards are drawn")
    parser.add_argument("--repeat", type=int, default=2, help="passes over the boards (the best counts)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"{'game':<10} {'players':>7} {'boards':>7} {'us/board':>9}")
    for gid in args.games.split(","):
        entry = get_game(gid)
        counts = entry.game_class.spec.player_counts
        players = args.players if args.players in counts else min(counts)
        boards = _boards(gid, players, args.games_played, args.seed)
        best = float("inf")
        for _ in range(args.repeat):
            svg.forget()  # what a pass keeps is not there for the next: a server meets new positions
            start = time.process_time()
            for view, audience, legal in boards:
                pages.board(entry, view, audience, legal)
            best = min(best, time.process_time() - start)
        print(f"{gid:<10} {players:>7} {len(boards):>7} {best / len(boards) * 1e6:>9.0f}")


if __name__ == "__main__":
    main()
