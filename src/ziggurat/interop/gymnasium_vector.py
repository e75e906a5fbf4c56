"""Gymnasium vector environment on the compiled kernels: ``n`` games of one learning seat at once.

>>> from ziggurat.interop.gymnasium_vector import ZigguratVectorEnv       # doctest: +SKIP
>>> envs = ZigguratVectorEnv("kuhnah", num_envs=64, players=3, seat=0)    # doctest: +SKIP
>>> obs, info = envs.reset(seed=1)                                       # doctest: +SKIP
>>> obs.shape, info["action_mask"].shape                                  # doctest: +SKIP
((64, 2327), (64, 165))

A :class:`gymnasium.vector.VectorEnv` over :class:`ziggurat.fast.VectorGame`
(needs the ``fast`` and ``rl`` extras). Each sub-environment is one game where
the agent plays ``seat`` and the others are played in compiled code, on their
own random stream: uniformly at random (``opponents="random"``, the default) or
by the game's greedy heuristic (``opponents="greedy"``, where
:func:`ziggurat.fast.vector.greedy_games` has it); chance is played inside.

* Observation: ``Box(0, 1, (num_envs, size), float32)``, the seat's view encoded
  exactly as :class:`~ziggurat.interop.gymnasium.ZigguratEnv` encodes it.
* Action: ``MultiDiscrete([num_actions] * num_envs)``; ``info["action_mask"]``
  (bool, ``num_envs x num_actions``) marks the legal ones, as does
  :meth:`ZigguratVectorEnv.action_masks`. An illegal action is a
  :class:`~ziggurat.core.errors.ZigguratError` naming the game, and nothing changes.
* Reward: the seat's return in ``[-1, 1]`` at the step its game ends, else 0.
  Games never truncate.
* Autoreset: same-step (``metadata["autoreset_mode"]``): a game that ends is
  dealt again at once; the returned observation is the new game's, and
  ``info["final_obs"]`` (with ``info["_final_obs"]``) holds the last one.
* Seeded: ``reset(seed=s)`` makes the whole run repeat exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from ziggurat.fast.vector import VectorGame

__all__ = ["ZigguratVectorEnv"]


class ZigguratVectorEnv(gym.vector.VectorEnv[np.ndarray, np.ndarray, np.ndarray]):
    """``num_envs`` games of one learning seat, stepped together in compiled code (see the module docstring)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 (gymnasium declares it so)

    def __init__(
        self,
        game: str = "kuhnah",
        num_envs: int = 16,
        players: int | None = None,
        seat: int = 0,
        options: Mapping[str, object] | None = None,
        seed: int = 0,
        opponents: str = "random",
    ):
        self._vector = VectorGame(
            game, num_envs, seed=seed, options=options, players=players, seat=seat, opponents=opponents
        )
        v = self._vector
        self.game = v.game
        self.seat = seat
        self.num_envs = v.num_envs
        self.single_observation_space = spaces.Box(0.0, 1.0, (v.obs_size,), np.float32)
        self.single_action_space = spaces.Discrete(v.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._mask = np.zeros((self.num_envs, v.num_actions), np.bool_)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal every game afresh (from ``seed``, else the seed given before) up to the seat's first decision."""
        super().reset(seed=seed)
        out = self._vector.reset(seed)
        self._mask = out.mask
        return out.obs, {"action_mask": out.mask}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action per game; the opponents and chance move inside until the seat decides again."""
        out = self._vector.step(actions)
        self._mask = out.mask
        rewards = out.rewards[:, self.seat].copy()
        info: dict[str, Any] = {"action_mask": out.mask}
        if out.terminated.any():
            final = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(out.terminated):
                final[i] = out.final_obs[i, 0]
            info["final_obs"] = final
            info["_final_obs"] = out.terminated.copy()
            info["final_info"] = {}
        truncated = np.zeros(self.num_envs, np.bool_)
        return out.obs, rewards, out.terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions of every game, ``num_envs x num_actions`` booleans (the name MaskablePPO looks for)."""
        return self._mask

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal action per game (seeded from the environment's seed)."""
        return self._vector.sample_actions()
