"""Replaying kernel games through the Python engine (the reference)."""

from __future__ import annotations

from collections.abc import Mapping

from ziggurat.core.game import CHANCE, Game, State
from ziggurat.core.kernel import GameKernel, Trace
from ziggurat.core.registry import make_game
from ziggurat.fast import kernel_for, replay, run_seeds


def legal_set(state: State, actor: int) -> list[int]:
    """The engine's legal actions of ``actor`` (chance outcomes for CHANCE), sorted as ``Trace.legal_at``."""
    if actor == CHANCE:
        return sorted(a for a, _ in state.chance_outcomes())
    return sorted(state.legal_actions(actor))


def kernel_trace(kernel: GameKernel, game: Game, seed: int) -> Trace:
    """A trace from ``kernel`` (which may be a test's mutant rather than the registered one)."""
    return Trace(*kernel.trace(kernel.prepare(game), seed))


def replay_many(
    game_id: str,
    players: int,
    options: Mapping[str, object],
    games: int,
    run_seed: int = 0,
    kernel: GameKernel | None = None,
) -> int:
    """Replay ``games`` kernel games step by step in the engine (raises on the first mismatch); steps checked."""
    game = make_game(game_id, players, options)
    k = kernel if kernel is not None else kernel_for(game)
    config = k.prepare(game)
    seeds = run_seeds(run_seed, 0, games)
    scores, ranks, decisions, steps, ends = k.play(config, seeds)
    checked = 0
    for i, seed in enumerate(seeds):
        trace = Trace(*k.trace(config, int(seed)))
        state = replay(game, trace)  # the same end, scores and ranks as the engine's
        # play() and trace() play the same game for a seed
        assert list(trace.scores) == list(scores[i]) and list(trace.ranks) == list(ranks[i])
        assert trace.end == ends[i]
        assert len(trace) == steps[i] == len(state.history)
        assert decisions[i] == sum(1 for p, _ in state.history if p >= 0)
        checked += len(trace)
    return checked
