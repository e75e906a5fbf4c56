"""A batched multi-agent environment in PettingZoo's parallel style, on the compiled kernels.

>>> from ziggurat.interop.pettingzoo_vector import ZigguratVectorAgents     # doctest: +SKIP
>>> env = ZigguratVectorAgents("kuhnah", num_envs=256, players=3, seed=1)     # doctest: +SKIP
>>> obs, infos = env.reset()                                                  # doctest: +SKIP
>>> obs["player_0"].shape, infos["player_0"]["action_mask"].shape             # doctest: +SKIP
((256, 2327), (256, 165))
>>> obs, rewards, terminations, truncations, infos = env.step(env.sample_actions())  # doctest: +SKIP

``num_envs`` games of one setup are stepped together by
:class:`ziggurat.fast.VectorGame` with ``seat=None``: every seat is an agent
(``player_0`` .. ``player_{n-1}``, as in :mod:`ziggurat.interop.pettingzoo`).
Everything comes back as one dict per agent of arrays with a row per game:

* ``obs[agent]`` (float32, games x size): the agent's observation in the games
  where it decides now (the same tensor as the adapters' ``view(seat)``
  encoding); zeros in the others;
* ``infos[agent]["action_mask"]`` (bool, games x actions): its legal action
  ids where it decides, all false elsewhere; ``infos[agent]["active"]``
  (bool, games): the games where it decides;
* ``rewards[agent]`` (float64, games): its return in a game that ended at this
  step, else 0; ``terminations[agent]``: the games that ended at this step
  (the same for every agent: a game that ends starts again at once, and
  ``infos[agent]["final_observation"]`` holds the agent's last observation of
  it); ``truncations[agent]``: all false.

``step(actions)`` takes, per agent, an integer array with a row per game; a
game uses the row of the agent that decides in it (the other rows are
ignored). An agent that decides in some game must be given; a missing agent,
an array of the wrong shape or kind, or an illegal action is a
:class:`~ziggurat.core.errors.ZigguratError`, and no game changes. Needs the
``fast`` extra (numba) and a game whose kernel can be stepped
(:func:`ziggurat.fast.vector.vector_games`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces

from ziggurat.core.errors import ZigguratError
from ziggurat.fast.vector import VectorGame, VectorStep

__all__ = ["ZigguratVectorAgents"]

Batch = dict[str, np.ndarray]


class ZigguratVectorAgents:
    """``num_envs`` games, every seat an agent, stepped together (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": [], "name": "ziggurat_vector"}  # noqa: RUF012 (PettingZoo declares it so)

    def __init__(
        self,
        game: str,
        num_envs: int,
        players: int | None = None,
        options: Mapping[str, object] | None = None,
        seed: int = 0,
    ):
        self.vector = VectorGame(game, num_envs, seed=seed, options=options, players=players, seat=None)
        self.num_envs = self.vector.num_envs
        self.metadata = {**type(self).metadata, "name": f"ziggurat_vector_{self.vector.game.spec.id}"}
        self.possible_agents = [f"player_{p}" for p in range(self.vector.num_players)]
        self.agents = list(self.possible_agents)
        self._index = {a: p for p, a in enumerate(self.possible_agents)}
        self._obs_space = spaces.Box(low=0.0, high=1.0, shape=(self.vector.obs_size,), dtype=np.float32)
        self._act_space = spaces.Discrete(self.vector.num_actions)
        self._last: VectorStep | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """One game's observation of ``agent`` (a row of ``obs[agent]``)."""
        self._agent(agent)
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """One game's action of ``agent`` (a row of ``actions[agent]``)."""
        self._agent(agent)
        return self._act_space

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Batch, dict[str, dict[str, np.ndarray]]]:
        """Deal every game afresh (``seed``: a new seed, else the one given before)."""
        out = self.vector.reset(seed)
        self._last = out
        obs, infos = self._split(out)
        return obs, infos

    def step(self, actions: Mapping[str, Any]) -> tuple[Batch, Batch, Batch, Batch, dict[str, dict[str, np.ndarray]]]:
        """One action per game, from the agent that decides in it (see the module docstring)."""
        last = self._require_reset()
        unknown = [a for a in actions if a not in self._index]
        if unknown:
            raise ZigguratError(f"no such agent: {', '.join(map(str, unknown))} (agents: {', '.join(self.agents)})")
        choice = np.zeros(self.num_envs, np.int64)
        for agent, p in self._index.items():
            rows = last.player == p
            if not rows.any():
                continue
            if agent not in actions:
                raise ZigguratError(f"no actions for {agent}, who decides in {int(rows.sum())} game(s)")
            given = np.asarray(actions[agent])
            if given.shape != (self.num_envs,) or given.dtype.kind not in "iu":
                raise ZigguratError(
                    f"the actions of {agent} must be whole numbers, one per game (shape ({self.num_envs},)), "
                    f"not {given.dtype} of shape {given.shape}"
                )
            choice[rows] = given[rows]
        out = self.vector.step(choice)  # an illegal action raises here, and no game has moved
        self._last = out
        obs, infos = self._split(out)
        rewards = {a: out.rewards[:, p].copy() for a, p in self._index.items()}
        terminations = {a: out.terminated.copy() for a in self.agents}
        truncations = {a: np.zeros(self.num_envs, np.bool_) for a in self.agents}
        for a, p in self._index.items():
            infos[a]["final_observation"] = out.final_obs[:, p].copy()
        return obs, rewards, terminations, truncations, infos

    def sample_actions(self) -> Batch:
        """A uniformly random legal action per game, as ``step`` takes it (every agent gets the same array)."""
        picks = self.vector.sample_actions()
        return dict.fromkeys(self.agents, picks)

    def close(self) -> None:
        """Nothing to release."""

    # ------------------------------------------------------------- internals
    def _agent(self, agent: str) -> int:
        if agent not in self._index:
            raise ZigguratError(f"no such agent: {agent!r} (agents: {', '.join(self.agents)})")
        return self._index[agent]

    def _require_reset(self) -> VectorStep:
        if self._last is None:
            raise ZigguratError("call reset() before step()")
        return self._last

    def _split(self, out: VectorStep) -> tuple[Batch, dict[str, dict[str, np.ndarray]]]:
        obs: Batch = {}
        infos: dict[str, dict[str, np.ndarray]] = {}
        for agent, p in self._index.items():
            active = out.player == p
            obs[agent] = np.where(active[:, None], out.obs, np.float32(0.0))
            infos[agent] = {"action_mask": out.mask & active[:, None], "active": active}
        return obs, infos
