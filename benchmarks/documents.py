"""What reading documents within limits costs: ``load_json`` against plain ``json.loads``.

For every game, a finished game's record, its final saved state and one
player's export (the largest document a game makes), then the hostile
documents the guard refuses (how long the refusal takes). Then what resuming
costs: ``Match.from_record`` and seating bots that think the past decisions
again. Figures only: nothing here passes or fails on time.

    python benchmarks/documents.py [--repeat 20]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable

from ziggurat.core import DocumentError, GameRecord, Match, game_ids, get_game, load_json, make_game
from ziggurat.core.export import player_record


def best(fn: Callable[[], object], repeat: int) -> float:
    """The fastest of ``repeat`` runs, in milliseconds (the least disturbed by the machine's other work)."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times) * 1000


def _refused(text: str) -> Callable[[], object]:
    def run() -> None:
        try:
            load_json(text, "doc")
        except DocumentError:
            return
        raise AssertionError("not refused")

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    r = args.repeat
    print(f"{'document':28} {'bytes':>9} {'json.loads ms':>14} {'load_json ms':>13} {'ratio':>6}")
    for gid in game_ids():
        spec = get_game(gid).game_class.spec
        players = max(spec.min_players, min(3, spec.max_players))
        match = Match(make_game(gid, players), seed=1)
        match.run_bots(["random"] * players)
        docs = {
            "record": match.record().dumps(),
            "saved state": json.dumps(match.state.to_json()),
            "export": json.dumps(player_record(match.record(), 0)),
        }
        for name, text in docs.items():
            plain = best(lambda text=text: json.loads(text), r)  # type: ignore[misc]
            guarded = best(lambda text=text: load_json(text, "doc", max_bytes=1 << 30), r)  # type: ignore[misc]
            label = f"{gid} {name}"
            print(f"{label:28} {len(text):>9} {plain:>14.3f} {guarded:>13.3f} {guarded / plain:>6.1f}")
    print()
    hostile = {
        "'[' * 100000": "[" * 100_000 + "]" * 100_000,
        "65 levels": "[" * 65 + "]" * 65,
        "5,000 digits": "9" * 5000,
        "1 MiB of [1,": "[" + "1," * (500_000 - 1) + "1]",
    }
    print(f"{'hostile document':28} {'bytes':>9} {'refused in ms':>14}")
    for name, text in hostile.items():
        if name.startswith("1 MiB"):
            t = best(lambda text=text: load_json(text, "doc"), r)  # type: ignore[misc]  # read, not refused
            print(f"{name + ' (read)':28} {len(text):>9} {t:>14.3f}")
            continue
        print(f"{name:28} {len(text):>9} {best(_refused(text), r):>14.3f}")
    print()
    print(f"{'resume (3 players)':28} {'decisions':>9} {'from_record ms':>14} {'seat bots ms':>13}")
    for gid in game_ids():
        spec = get_game(gid).game_class.spec
        players = max(spec.min_players, min(3, spec.max_players))
        match = Match(make_game(gid, players), seed=1)
        match.run_bots(["greedy"] * players, max_steps=40)
        record = GameRecord.from_json(match.record().dumps())
        resume = best(lambda record=record: Match.from_record(record), max(3, r // 4))  # type: ignore[misc]

        def seat(record: GameRecord = record, players: int = players) -> None:
            Match.from_record(record).seat_bots(["greedy"] * players)

        seating = best(seat, max(3, r // 4)) - resume
        made = sum(1 for p, _ in record.actions if p >= 0)
        print(f"{gid:28} {made:>9} {resume:>14.2f} {seating:>13.2f}")


if __name__ == "__main__":
    main()
