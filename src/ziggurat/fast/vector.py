"""Batched environments on the compiled kernels: ``n`` games stepped at once from an array of actions.

>>> from ziggurat.fast import VectorGame
>>> env = VectorGame("kuhnah", 256, seed=1, players=3)               # doctest: +SKIP
>>> out = env.reset()                                                  # doctest: +SKIP
>>> out = env.step(env.sample_actions())                               # doctest: +SKIP
>>> out.obs.shape, out.mask.shape, out.rewards.shape                   # doctest: +SKIP
((256, 2327), (256, 165), (256, 3))

Every game is a kernel game (see :mod:`ziggurat.core.loops`): chance is played
inside, each row's observation is the acting seat's, encoded exactly as the
adapters encode ``state.view(seat)`` (the game's ``tensor`` hook), and a game
that ends starts again at once (its last observations and returns are in
:attr:`VectorStep.final_obs` and :attr:`VectorStep.final_returns`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ziggurat.core.errors import ZigguratError
from ziggurat.core.game import Game
from ziggurat.core.kernel import StepKernel
from ziggurat.fast.driver import _game, kernel_for

__all__ = ["VectorGame", "VectorStep", "greedy_games", "vector_games"]

OPPONENTS = ("random", "greedy")


@dataclass(frozen=True)
class VectorStep:
    """What a step (or reset) of a :class:`VectorGame` gives back, one row per game.

    * ``player`` (int32, n): the seat that decides next in each game;
    * ``obs`` (float32, n x size): that seat's observation;
    * ``mask`` (bool, n x actions): its legal action ids;
    * ``rewards`` (float64, n x players): each seat's return where the game just
      ended (the outcome's returns, in [-1, 1]), else 0;
    * ``terminated`` (bool, n): the game ended at this step (and a new one began:
      ``player``, ``obs`` and ``mask`` are already the new game's);
    * ``final_obs`` (float32, n x k x size): where ``terminated``, the last
      observation of every seat (``k`` = players), or of the learning seat only
      (``k`` = 1) when the environment has one; other rows hold stale data;
    * ``final_returns`` (float64, n x players): where ``terminated``, the returns.
    """

    player: np.ndarray
    obs: np.ndarray
    mask: np.ndarray
    rewards: np.ndarray
    terminated: np.ndarray
    final_obs: np.ndarray
    final_returns: np.ndarray


def vector_games() -> list[str]:
    """Ids of the games a :class:`VectorGame` can step (their kernels are written as step functions)."""
    from ziggurat.core.registry import get_game
    from ziggurat.fast.driver import fast_games

    return [g for g in fast_games() if _stepper_of(get_game(g).kernel) is not None]


def greedy_games() -> list[str]:
    """Ids of the games whose greedy heuristic is compiled: a :class:`VectorGame`'s ``opponents="greedy"``."""
    from ziggurat.core.registry import get_game
    from ziggurat.fast.driver import fast_games

    out = []
    for g in fast_games():
        stepper = _stepper_of(get_game(g).kernel)
        if stepper is not None and stepper.greedy:
            out.append(g)
    return out


def _stepper_of(loader: Any) -> StepKernel | None:
    kernel = loader() if loader is not None else None
    return None if kernel is None else kernel.stepper


def _read_only(a: np.ndarray) -> np.ndarray:
    """A view of ``a`` that can't be written (the environment's own arrays, handed out with ``copy=False``)."""
    v = a.view()
    v.flags.writeable = False
    return v


class VectorGame:
    """``n`` games of one setup, stepped together in compiled code (see the module docstring).

    ``seat``: ``None`` (every seat is stepped by the caller: the acting seat of
    each game comes back in ``player``), or one seat that the caller plays while
    uniformly random players (on their own random stream) play the others; then
    every step is that seat's decision. ``opponents``: how the other seats play
    then, ``"random"`` (uniformly among the legal moves) or ``"greedy"`` (the
    game's greedy heuristic, compiled: the ``greedy`` bot's moves, ties broken at
    random; see :func:`greedy_games`); both draw from the opponents' own random
    stream. ``seed`` makes a run repeat exactly:
    episode ``k`` of game ``i`` is dealt from ``(seed, i, k)`` alone.
    ``copy=False`` returns read-only views of the environment's own arrays,
    overwritten by the next step (faster); by default each step returns fresh arrays.
    ``record_chance=True`` keeps every step's chance outcomes for
    :meth:`chance_log` (to replay the games in the engine; a little slower).
    """

    def __init__(
        self,
        game: str | Game,
        n: int,
        seed: int = 0,
        options: Mapping[str, object] | None = None,
        players: int | None = None,
        seat: int | None = None,
        copy: bool = True,
        record_chance: bool = False,
        opponents: str = "random",
    ):
        if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 1:
            raise ZigguratError(f"the number of games must be a whole number from 1, not {n!r}")
        self.game = _game(game, players, options)
        kernel = kernel_for(self.game)
        if kernel.stepper is None:
            raise ZigguratError(
                f"{self.game.spec.name} can't be stepped yet: its kernel plays whole games only "
                f"(stepped games: {', '.join(vector_games()) or 'none'})"
            )
        self._stepper: StepKernel = kernel.stepper
        self._config = kernel.prepare(self.game)
        nplayers, cap, size, actions, log_events, log_set = (int(x) for x in self._stepper.dims(self._config))
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < nplayers):
            raise ZigguratError(f"seat must be None or 0..{nplayers - 1} in a {nplayers}-player game, not {seat!r}")
        if not isinstance(opponents, str) or opponents not in OPPONENTS:
            raise ZigguratError(f"opponents must be one of {', '.join(OPPONENTS)}, not {opponents!r}")
        if opponents != "random" and seat is None:
            raise ZigguratError(
                f'opponents="{opponents}" needs a learning seat (seat=0..{nplayers - 1}): '
                "without one the caller plays every seat"
            )
        if opponents == "greedy" and not self._stepper.greedy:
            raise ZigguratError(
                f"{self.game.spec.name} has no compiled greedy opponents yet "
                f"(games that have: {', '.join(greedy_games()) or 'none'})"
            )
        self.opponents = opponents
        self.num_envs = int(n)
        self.num_players = nplayers
        self.num_actions = actions
        self.obs_size = size
        self.seat = seat
        self.copy = copy
        self.record_chance = record_chance
        from ziggurat.core import loops

        self._loops = loops
        # a step and the next game's setup may both draw: room for twice a step's chance
        # (with a learning seat, the opponents' moves too)
        events = 2 * log_events + (0 if seat is None else 64 * nplayers)
        room = 2 * log_set + (0 if seat is None else 64 * nplayers * cap)
        self._core = loops.new_core(self.num_envs, nplayers, cap, events, room, record_chance)
        bounds = self.game.score_bounds
        if nplayers == 1 and bounds is not None:  # a one-player game's returns scale its score (as the engine's)
            self._core[loops.BOUNDS][:] = bounds
        self._gs = self._stepper.new(self._config, self.num_envs)
        self._core[loops.OPPONENTS][0] = loops.GREEDY if opponents == "greedy" else loops.RANDOM
        k = 1 if seat is not None else nplayers
        self._choice = np.zeros(n, np.int32)
        self._obs = np.zeros((n, size), np.float32)
        self._mask = np.zeros((n, actions), np.bool_)
        self._rewards = np.zeros((n, nplayers), np.float64)
        self._terminated = np.zeros(n, np.bool_)
        self._final_obs = np.zeros((n, k, size), np.float32)
        self._final_returns = np.zeros((n, nplayers), np.float64)
        self._outputs = (
            self._choice,
            self._obs,
            self._mask,
            self._rewards,
            self._terminated,
            self._final_obs,
            self._final_returns,
        )
        self.reset(seed)

    # ------------------------------------------------------------------ API
    def reset(self, seed: int | None = None) -> VectorStep:
        """Deal every game afresh (from ``seed``, else the seed given before) up to its first decision.

        A new ``seed`` also restarts :meth:`sample_actions`' stream.
        """
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
                raise ZigguratError(f"a seed is a whole number from 0, not {seed!r}")
            self._seed = int(seed)
            self._sampler = np.array([self._loops.mix64_seed(np.uint64((self._seed + 0x5A1) % (1 << 64)))], np.uint64)
        self._base = np.uint64(self._loops.mix64_seed(np.uint64(self._seed % (1 << 64))))
        self._core[self._loops.LOG_N][:] = 0
        self._stepper.vreset(self._config, self._core, self._gs, self._base, self._seat(), self._obs, self._mask)
        self._rewards[:] = 0.0
        self._terminated[:] = False
        return self._result()

    def step(self, actions: Any) -> VectorStep:
        """Apply one action per game (the acting seat's), then play chance (and the opponents) inside.

        ``actions`` is an integer array of shape ``(n,)``; an action that is not
        legal in its game is a :class:`~ziggurat.core.errors.ZigguratError`
        naming the game, and no game changes.
        """
        a = np.asarray(actions)
        if a.shape != (self.num_envs,):
            raise ZigguratError(f"actions must have shape ({self.num_envs},), one per game, not {a.shape}")
        if a.dtype.kind not in "iu":
            raise ZigguratError(f"actions must be whole numbers (an integer array), not {a.dtype}")
        if a.min() < 0 or a.max() >= self.num_actions:
            bad = int(np.flatnonzero((a < 0) | (a >= self.num_actions))[0])
            raise ZigguratError(
                f"game {bad}: action {a[bad]} is not an action id (0..{self.num_actions - 1}); nothing was applied"
            )
        a = np.ascontiguousarray(a, np.int32) if a.dtype != np.int32 else np.ascontiguousarray(a)
        L = self._loops
        arrays = (a, *self._outputs)
        bad = int(self._stepper.vstep(self._config, self._core, self._gs, self._base, self._seat(), arrays))
        if bad >= 0:
            legal = sorted(int(x) for x in np.flatnonzero(self._mask[bad]))
            raise ZigguratError(
                f"game {bad}: action {int(actions[bad])} is not legal for player {int(self._core[L.ACTOR][bad])} "
                f"(legal: {legal}); nothing was applied"
            )
        return self._result()

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal action per game (seeded from the environment's seed)."""
        out = np.empty(self.num_envs, np.int64)
        self._loops.sample(self._core, self._sampler, out)
        return out

    def chance_log(self, i: int) -> list[tuple[int, int, list[int]]]:
        """What happened inside game ``i`` since the last step or reset, in order: ``(actor, choice, choices)``.

        ``actor`` is -1 for chance (``choices``: the outcomes it drew from) or an
        opponent's seat (``choices``: its legal actions), sorted. Only with
        ``record_chance=True``. After a step that ended the game the log runs on
        into the next game's setup.
        """
        if not self.record_chance:
            raise ZigguratError("chance is recorded only by a VectorGame made with record_chance=True")
        L = self._loops
        core = self._core
        if core[L.TRACING][1]:
            raise ZigguratError("the chance log overflowed (more happened in one step than it holds)")
        out = []
        for k in range(int(core[L.LOG_N][i])):
            lo, hi = int(core[L.LOG_OFF][i, k]), int(core[L.LOG_OFF][i, k + 1])
            choices = sorted(int(x) for x in core[L.LOG_SET][i, lo:hi])
            out.append((int(core[L.LOG_ACTOR][i, k]), int(core[L.LOG_OUT][i, k]), choices))
        return out

    # ------------------------------------------------------------- internals
    def _seat(self) -> int:
        return -1 if self.seat is None else self.seat

    def _result(self) -> VectorStep:
        c = np.copy if self.copy else _read_only
        return VectorStep(
            player=c(self._core[self._loops.ACTOR]),
            obs=c(self._obs),
            mask=c(self._mask),
            rewards=c(self._rewards),
            terminated=c(self._terminated),
            final_obs=c(self._final_obs),
            final_returns=c(self._final_returns),
        )
