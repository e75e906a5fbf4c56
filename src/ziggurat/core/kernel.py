"""The hook a game offers for compiled batch play (the ``fast`` extra; see ``docs/fast.md``).

A game's registry entry may carry ``kernel``: a function that imports the
game's compiled kernel (numba) and returns a :class:`GameKernel`. The loader is
called only when someone asks for fast play, so the base install never imports
numba. The shared driver :mod:`ziggurat.fast` reaches kernels only through this
hook, so a new game adds its kernel in its own folder and nothing else.

A kernel plays whole games with uniformly random players and seeded chance,
many at once. It never shares the Python engine's random stream; instead it can
*trace* a game: every step's actor, action id and the whole set of legal
actions (or chance outcomes) it chose from, so the Python engine can replay the
game through its checked ``apply_action`` and confirm every step (the engine is
the reference; see ``tests/fast``).

This module is plain Python: it defines the shapes, not the compiled code.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from ziggurat.core.game import Game


@dataclass(frozen=True)
class Batch:
    """Results of a batch of kernel games, one row per game.

    ``scores`` (float64, games x players) are the game's own scores; ``ranks``
    (int32) are competition ranks as in :class:`~ziggurat.core.outcome.Outcome`
    (1 for the winners, ties shared, next place skipped); ``decisions`` counts
    player actions and ``steps`` every applied action, chance included (the
    ``length`` and ``actions`` columns of ``simulate``); ``ends`` (int8) say
    how each game ended, as an index of the game's ``spec.ends`` (the ``end``
    column); ``seeds`` are the per-game seeds the kernel played (uint64).
    """

    scores: np.ndarray
    ranks: np.ndarray
    decisions: np.ndarray
    steps: np.ndarray
    ends: np.ndarray
    seeds: np.ndarray

    def __len__(self) -> int:
        return int(self.scores.shape[0])


@dataclass(frozen=True)
class Trace:
    """One kernel game step by step.

    Step ``i`` was taken by ``actors[i]`` (a player, or -1 for chance; where several
    players choose at once, the one who made this atomic decision) and chose
    ``actions[i]`` from ``legal[offsets[i]:offsets[i + 1]]`` (the kernel's legal
    actions or chance outcomes there, in any order). ``scores``, ``ranks`` and
    ``end`` (an index of the game's ``spec.ends``) are the kernel's outcome of the game.
    """

    actors: np.ndarray
    actions: np.ndarray
    offsets: np.ndarray
    legal: np.ndarray
    scores: np.ndarray
    ranks: np.ndarray
    end: int

    def __len__(self) -> int:
        return int(self.actors.shape[0])

    def legal_at(self, step: int) -> list[int]:
        """The legal set the kernel saw at ``step``, sorted."""
        return sorted(int(a) for a in self.legal[self.offsets[step] : self.offsets[step + 1]])

    def history(self) -> list[tuple[int, int]]:
        """``(actor, action)`` pairs, the shape of :attr:`State.history <ziggurat.core.game.State.history>`."""
        return [(int(p), int(a)) for p, a in zip(self.actors, self.actions, strict=True)]


@dataclass(frozen=True)
class StepKernel:
    """A kernel written as step functions (see :mod:`ziggurat.core.loops`), which batched environments use.

    * ``dims(config)``: ``(players, legal capacity, observation size, number of
      action ids, chance events per step, chance outcomes per step)``;
    * ``new(config, n)``: the game's arrays for ``n`` games side by side;
    * ``vreset(config, core, gs, base, seat, obs, mask)`` and
      ``vstep(config, core, gs, base, seat, arrays)``: the shared driver's
      :func:`~ziggurat.core.loops.vreset` and :func:`~ziggurat.core.loops.vstep`
      run over this game's functions.
    * ``greedy``: the wrappers hand the game's compiled greedy policy to the
      driver (:func:`~ziggurat.core.loops.vstep_with`), so a learning seat's
      opponents can play it.
    """

    dims: Callable[[Any], tuple[int, ...]]
    new: Callable[[Any, int], tuple[Any, ...]]
    vreset: Callable[..., None]
    vstep: Callable[..., int]
    greedy: bool = False


@dataclass(frozen=True)
class GameKernel:
    """A game's compiled kernel (what its registry entry's ``kernel`` loader returns).

    * ``unsupported(game)``: why this configured game can't be played by the
      kernel (an option it doesn't implement), or ``None``.
    * ``prepare(game)``: the configuration the compiled functions take (numpy
      arrays and numbers derived from the game: its content and options).
    * ``play(config, seeds)``: play one game per seed (uint64 array); returns
      ``(scores, ranks, decisions, steps, ends)`` arrays as in :class:`Batch`.
    * ``trace(config, seed)``: play the game of one seed (the same game ``play``
      plays for that seed) and return ``(actors, actions, offsets, legal,
      scores, ranks, end)`` as in :class:`Trace`.

    A game with one end reports index 0 for every game; one with several must
    report the end its engine reaches (the replay checks it). ``stepper`` is
    there when the kernel is written as step functions (then ``play`` and
    ``trace`` are the shared driver's), for :class:`ziggurat.fast.VectorGame`.
    """

    game_id: str
    unsupported: Callable[[Game], str | None]
    prepare: Callable[[Game], Any]
    play: Callable[[Any, np.ndarray], tuple[np.ndarray, ...]]
    trace: Callable[[Any, int], tuple[Any, ...]]
    stepper: StepKernel | None = None
