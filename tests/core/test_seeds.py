"""Seeds: a bot can never rebuild the chance stream, and a resumed game goes on exactly as it would have."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ziggurat.core import CHANCE, Bot, GameRecord, Match, State, make_game, register_bot, seeded_rng
from ziggurat.core.seeds import derive_seed, derived_rng, stream_seed

SEEN: list[object] = []


class SpyBot(Bot):
    """A random bot that writes down every seed it is handed."""

    name = "spy"
    fresh_stream_per_decision = True  # so it is handed a seed at every decision too

    def __init__(self, game: Any, player: int, seed: int | str | None = None, **params: Any):
        SEEN.append(seed)
        super().__init__(game, player, seed, **params)

    def reseed(self, seed: int | str) -> None:
        SEEN.append(seed)
        super().reseed(seed)

    def choose(self, state: State) -> int:
        legal = state.legal_actions(self.player)
        return legal[int(self.rng.random() * len(legal))]


register_bot("spy", SpyBot, "test bot that records its seeds")


def _chance_draws(state: State) -> int:
    return sum(1 for p, _ in state.history if p == CHANCE)


def _streams_from(seed: object) -> list[random.Random]:
    """Every way a bot could try to turn a seed it saw into the chance stream."""
    return [
        seeded_rng(seed, "chance"),
        derived_rng(seed, "chance"),
        random.Random(seed),  # type: ignore[arg-type]
        random.Random(f"{seed}/chance"),
    ]


@pytest.mark.parametrize("game_id", ["kuhnah", "lucent", "nakum"])
def test_no_seed_handed_to_a_bot_rebuilds_the_deal(game_id: str) -> None:
    SEEN.clear()
    root = 123456
    game = make_game(game_id, 3)
    match = Match(game, seed=root)
    true_stream = derived_rng(root, "chance")
    match.run_bots(["spy"] * 3)
    n = _chance_draws(match.state)
    truth = [true_stream.random() for _ in range(n)]
    assert SEEN and root not in SEEN, "the root seed itself was handed to a bot"
    for seed in SEEN:
        for stream in _streams_from(seed):
            assert [stream.random() for _ in range(n)] != truth, f"seed {seed!r} rebuilds the chance stream"


def test_bot_seeds_are_per_decision_and_one_way() -> None:
    SEEN.clear()
    match = Match(make_game("kuhnah", 2), seed=5)
    match.run_bots(["spy", "spy"], max_steps=6)
    keys = [derive_seed(5, "bot", 0), derive_seed(5, "bot", 1)]
    assert SEEN[:2] == keys, "a bot is built with its seat's key, one way from the root"
    per_decision = SEEN[2:]
    assert len(per_decision) == 6 and len(set(per_decision)) == 6
    movers = [p for p, _ in match.state.history if p >= 0]
    counts = [0, 0]
    for p, seed in zip(movers, per_decision, strict=True):
        assert seed == stream_seed(keys[p], counts[p]) == match.bot_seed(p, counts[p])
        counts[p] += 1


CASES = [
    ("kuhnah", 3, ["random", "greedy", "random"], {}),
    ("lucent", 2, ["greedy", "random"], {}),
    ("kukulkan", 2, ["random", "greedy"], {}),
    ("pyramix", 2, ["ismcts", "random"], {"ismcts": {"iterations": 150}}),  # a bot that keeps its tree
    ("nakum", 2, ["random", "random"], {}),
]


@pytest.mark.parametrize(("game_id", "players", "bots", "params"), CASES)
def test_a_resumed_game_goes_on_exactly_as_the_uninterrupted_one(
    game_id: str, players: int, bots: list[str], params: dict[str, Any]
) -> None:
    whole = Match(make_game(game_id, players), seed=99)
    whole.run_bots(whole.seat_bots(bots, params))
    for stop in (1, 7, 20):
        part = Match(make_game(game_id, players), seed=99)
        part.run_bots(part.seat_bots(bots, params), max_steps=stop)
        saved = GameRecord.from_json(part.record(bots).dumps())
        resumed = Match.from_record(saved)
        resumed.run_bots(resumed.seat_bots(bots, params))
        assert resumed.state.history == whole.state.history, f"resumed after {stop} decisions, the game changed"
