"""Balance figures for the reconstructed content: simulated games between greedy and random players.

Run ``python -m ziggurat.games.nakum.balance`` for the table quoted in
``docs/games/nakum.md``: rounds per game, how many games end by a second
offering (rather than the round limit), score spreads, greedy-vs-random win
rates and how often each kind of action is used.
"""

from __future__ import annotations

import random
import statistics
import sys
from collections import Counter
from dataclasses import dataclass, field

from ziggurat.core.game import CHANCE, SIMULTANEOUS
from ziggurat.core.registry import make_game
from ziggurat.games.nakum.heuristic import heuristic
from ziggurat.games.nakum.rules import NakumGame, NakumState


@dataclass
class Figures:
    """What a batch of simulated games showed."""

    games: int = 0
    rounds: list[int] = field(default_factory=list)
    by_offering: int = 0
    scores: list[list[float]] = field(default_factory=list)
    wins: Counter[str] = field(default_factory=Counter)
    seat_wins: Counter[int] = field(default_factory=Counter)
    actions: Counter[str] = field(default_factory=Counter)
    placements: int = 0


def _kind(text: str) -> str:
    words = text.split()
    if words[0] == "place":
        return " ".join(words[1:3]) if len(words) > 2 else words[1]
    if words[0] in ("explore", "reveal"):
        return words[0]
    if words[0] == "camp":
        return " ".join(words[:3])
    return " ".join(words[:2])


def play(players: int, seats: list[str], seed: int, figures: Figures, options: dict[str, object] | None = None) -> None:
    """Play one game with ``seats`` ("greedy" or "random") and add it to ``figures``."""
    game = make_game("nakum", players, options)
    assert isinstance(game, NakumGame)
    rng = random.Random(seed)
    bot_rng = random.Random(seed + 1)
    state = game.new_initial_state()
    assert isinstance(state, NakumState)

    def choose(p: int) -> int:
        legal = state.legal_actions(p)
        if seats[p] == "greedy":
            return heuristic(state.resample(p, bot_rng), p, bot_rng)
        return legal[int(bot_rng.random() * len(legal))]

    while not state.is_terminal():
        cur = state.current_player()
        if cur == CHANCE:
            state.apply_action(state.sample_chance(rng))
            continue
        movers = state.players_to_move() if cur == SIMULTANEOUS else (cur,)
        for p in movers:
            a = choose(p)
            if seats[p] == "greedy" and state.round >= 1:
                text = state.action_to_text(a, p)
                figures.actions[_kind(text)] += 1
                if a < game.A_OPTION:
                    figures.placements += 1
            state.apply_action(a, p)
    figures.games += 1
    figures.rounds.append(state.round)
    figures.by_offering += state.end_triggered
    figures.scores.append(list(state.scores()))
    for p in state.outcome().winners:
        figures.wins[seats[p]] += 1
        figures.seat_wins[p] += 1


def report(players: int, seats: list[str], games: int, seed: int = 0) -> str:
    """A text summary of ``games`` games."""
    f = Figures()
    for i in range(games):
        # rotate the seats so no policy always starts
        shift = i % players
        rotated = seats[shift:] + seats[:shift]
        play(players, rotated, seed + 1000 * i, f)
    lines = [f"{players} players, seats {'/'.join(seats)}, {games} games"]
    lines.append(
        f"  rounds: mean {statistics.mean(f.rounds):.1f}, min {min(f.rounds)}, max {max(f.rounds)};"
        f" ended by a second offering: {100 * f.by_offering / f.games:.0f}%"
    )
    winners = [max(s) for s in f.scores]
    spreads = [max(s) - min(s) for s in f.scores]
    lines.append(
        f"  winning score: mean {statistics.mean(winners):.1f} (sd {statistics.pstdev(winners):.1f});"
        f" spread first-last: mean {statistics.mean(spreads):.1f}"
    )
    if len(set(seats)) > 1:
        lines.append("  wins: " + ", ".join(f"{k} {v}" for k, v in sorted(f.wins.items())))
    else:
        lines.append(
            "  wins by seat (seat 1 starts): " + ", ".join(f"{p + 1}: {v}" for p, v in sorted(f.seat_wins.items()))
        )
    if f.placements:
        top = sorted(f.actions.items(), key=lambda kv: -kv[1])
        lines.append(
            "  greedy choices (share of placements / sub-choices): "
            + ", ".join(f"{k} {100 * v / f.placements:.1f}%" for k, v in top)
        )
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    """Print the figures quoted in the docs."""
    games = int(argv[0]) if argv else 60
    for players in (2, 3, 4):
        print(report(players, ["greedy"] * players, games))
    print(report(2, ["greedy", "random"], games))
    print(report(4, ["greedy", "random", "random", "random"], games))
    print(report(2, ["random", "random"], games))


if __name__ == "__main__":  # pragma: no cover
    main(sys.argv[1:])
