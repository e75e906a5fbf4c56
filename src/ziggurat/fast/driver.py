"""The shared driver of the compiled kernels (see :mod:`ziggurat.fast`)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ziggurat.core.errors import ZigguratError
from ziggurat.core.game import CHANCE, SIMULTANEOUS, Game, State
from ziggurat.core.kernel import Batch, GameKernel, Trace
from ziggurat.core.registry import entry_for, game_ids, get_game, make_game

INSTALL_HINT = 'install the fast extra: pip install -e ".[fast]" (numba)'


class ReplayMismatch(ZigguratError):
    """A kernel game that the Python engine does not play the same way (a kernel bug)."""


def available() -> bool:
    """True when numba can be imported (the ``fast`` extra is installed)."""
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


def fast_games() -> list[str]:
    """Ids of the games that have a compiled kernel."""
    return [g for g in game_ids() if get_game(g).kernel is not None]


def _game(game: str | Game, players: int | None, options: Mapping[str, object] | None) -> Game:
    if isinstance(game, Game):
        if players is not None and players != game.num_players:
            raise ZigguratError(f"the game is set up for {game.num_players} players, not {players}")
        if options:
            raise ZigguratError("pass options when naming the game, not with a game already set up")
        return game
    return make_game(game, players, options)


def kernel_for(game: Game) -> GameKernel:
    """The compiled kernel of ``game`` (a clear error if there is none or numba is missing)."""
    entry = entry_for(game) or get_game(game.spec.id)
    if entry.kernel is None:
        have = ", ".join(fast_games()) or "none"
        raise ZigguratError(f"{game.spec.name} has no compiled kernel (the fast engine plays: {have})")
    if not available():
        raise ZigguratError(f"the fast engine needs numba: {INSTALL_HINT}")
    kernel = entry.kernel()
    reason = kernel.unsupported(game)
    if reason is not None:
        raise ZigguratError(f"the fast engine can't play this {game.spec.name} setup: {reason}")
    return kernel


def run_seeds(seed: int, start: int, count: int) -> np.ndarray:
    """Per-game seeds of games ``start .. start + count - 1`` of a run seeded ``seed`` (uint64)."""
    if not available():
        raise ZigguratError(f"the fast engine needs numba: {INSTALL_HINT}")
    from ziggurat.core.jit import game_seeds

    return game_seeds(np.uint64(seed % (1 << 64)), start, count)


def play_random(
    game: str | Game,
    players: int | None = None,
    games: int = 1,
    seed: int = 0,
    options: Mapping[str, object] | None = None,
    start: int = 0,
) -> Batch:
    """Play ``games`` games with uniformly random players in compiled code; one row per game.

    Game ``i`` is seeded from ``(seed, start + i)`` alone, so a run split into
    parts (``start``) gives the same rows as one run.
    """
    if games < 1:
        raise ZigguratError(f"the number of games must be at least 1, not {games}")
    g = _game(game, players, options)
    kernel = kernel_for(g)
    seeds = run_seeds(seed, start, games)
    scores, ranks, decisions, steps, ends = kernel.play(kernel.prepare(g), seeds)
    return Batch(scores, ranks, decisions, steps, ends, seeds)


def trace(game: Game, seed: int) -> Trace:
    """The kernel game of per-game seed ``seed`` (a :attr:`Batch.seeds` entry), step by step."""
    kernel = kernel_for(game)
    actors, actions, offsets, legal, scores, ranks, end = kernel.trace(kernel.prepare(game), seed)
    return Trace(actors, actions, offsets, legal, scores, ranks, int(end))


def replay(game: Game, kernel_trace: Trace) -> State:
    """Replay a kernel game through the Python engine's checked ``apply_action``; the final state.

    At every step the engine must have the same actor and the same set of legal
    actions (chance outcomes at chance nodes) as the kernel, and at the end the
    same end reason, scores and ranks; otherwise :class:`ReplayMismatch` names the step.
    Where several players choose at once (a simultaneous node), the kernel's
    actor must be one of those still to choose, and it acts with
    ``apply_action(action, actor)`` as any driver of the engine would.
    """
    state = game.new_initial_state()
    for i, (actor, action) in enumerate(kernel_trace.history()):
        cur = state.current_player()
        if cur == SIMULTANEOUS:
            if actor not in state.players_to_move():
                waiting = list(state.players_to_move())
                raise ReplayMismatch(f"step {i}: the kernel has actor {actor}, the engine waits for players {waiting}")
        elif cur != actor:
            raise ReplayMismatch(f"step {i}: the kernel has actor {actor}, the engine {cur}")
        if actor == CHANCE:
            engine = sorted(a for a, _ in state.chance_outcomes())
        else:
            engine = sorted(state.legal_actions(actor))
        mine = kernel_trace.legal_at(i)
        if engine != mine:
            missing = sorted(set(engine) - set(mine))
            extra = sorted(set(mine) - set(engine))
            raise ReplayMismatch(
                f"step {i} (actor {actor}): legal sets differ; kernel lacks {missing}, kernel adds {extra}"
            )
        state.apply_action(action, None if actor == CHANCE else actor)
    if not state.is_terminal():
        raise ReplayMismatch(f"the kernel ended after {len(kernel_trace)} steps but the engine's game goes on")
    outcome = state.outcome()
    ends = game.spec.ends
    mine_end = ends[kernel_trace.end].code if 0 <= kernel_trace.end < len(ends) else f"#{kernel_trace.end}"
    if outcome.end.code != mine_end:
        raise ReplayMismatch(f"the game ended differently: engine {outcome.end.code!r}, kernel {mine_end!r}")
    scores = tuple(float(s) for s in kernel_trace.scores)
    ranks = tuple(int(r) for r in kernel_trace.ranks)
    if outcome.scores != scores or outcome.ranks != ranks:
        raise ReplayMismatch(
            f"final scores/ranks differ: engine {outcome.scores}/{outcome.ranks}, kernel {scores}/{ranks}"
        )
    return state
