"""Hand-built Lucent positions for rule tests.

A position names every card in play (the hands and the pyramid), so each test
writes a small deck file holding exactly those cards and loads the position
through the checked JSON route.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path

from ziggurat.core import CHANCE, make_game
from ziggurat.games.lucent.rules import LucentGame, LucentState

KINDS = ("red", "blue", "yellow", "green", "purple", "wildcard", "geomancer")


def parse_slot(name: str) -> int:
    """``"base 3"`` or ``"row 2 slot 3"`` -> slot id."""
    game = make_game("lucent", 2)
    state = game.new_initial_state()
    return state._parse_slot(name.split(), name)  # type: ignore[attr-defined]


def position(
    tmp_path: Path,
    hands: Sequence[Mapping[str, int]],
    pyramid: Mapping[str, str],
    *,
    to_move: int = 0,
    options: Mapping[str, object] | None = None,
    out: Sequence[bool] | None = None,
    last_placer: int = -1,
    last_kind: Sequence[str | None] | None = None,
    removed: Sequence[str] = (),
) -> LucentState:
    """A play-phase state: ``hands[p]`` maps kinds to counts, ``pyramid`` maps slot names to kinds.

    ``removed`` lists the kinds of the gems removed by the wildcards variant.
    """
    players = len(hands)
    counts = dict.fromkeys(KINDS, 0)
    for hand in hands:
        for k, c in hand.items():
            counts[k] += c
    for k in pyramid.values():
        counts[k] += 1
    for k in removed:
        counts[k] += 1
    opts = dict(options or {})
    gems = "\n".join(f"{k} = {counts[k]}" for k in KINDS[:5])
    path = tmp_path / f"deck{random.random()}.toml"
    path.write_text(
        'colours = ["red", "blue", "yellow", "green", "purple"]\n'
        f"wildcards = {counts['wildcard']}\ngeomancers = {max(counts['geomancer'], players)}\n[gems]\n{gems}\n"
    )
    opts["deck"] = str(path)
    game = make_game("lucent", players, opts)
    assert isinstance(game, LucentGame)
    index = {k: i for i, k in enumerate(KINDS)}
    cells = [-1] * 45
    for name, k in pyramid.items():
        cells[parse_slot(name)] = index[k]
    removed_cards = []
    used: dict[int, int] = {}
    for k in removed:
        kind = index[k]
        removed_cards.append(game.deck.first_index(kind) + used.get(kind, 0))
        used[kind] = used.get(kind, 0) + 1
    data = {
        "phase": "play",
        "deck": [],
        "removed": sorted(removed_cards),
        "dealt": 0,
        "hands": [[h.get(k, 0) for k in KINDS] for h in hands],
        "pyramid": cells,
        "out": list(out or [False] * players),
        "out_mask": [0] * players,
        "to_move": to_move,
        "last_placer": last_placer,
        "last_kind": [index[k] if k else -1 for k in (last_kind or [None] * players)],
    }
    state = game.new_initial_state()
    state._load(data)
    return state


def deal(game: LucentGame, rng: random.Random) -> LucentState:
    """A fresh state with every chance step of the setup applied."""
    state = game.new_initial_state()
    while state.current_player() == CHANCE:
        state.apply_action(state.sample_chance(rng))
    return state


def full_base(kinds: str = "red blue yellow green purple red blue yellow green") -> dict[str, str]:
    """A full base row, base 1..9, from a space-separated list of kinds."""
    return {f"base {j}": k for j, k in enumerate(kinds.split(), 1)}
