"""A batched multi-agent environment on the compiled kernels, in PettingZoo's AEC vocabulary.

>>> from ziggurat.interop.pettingzoo_vector import ZigguratBatchedAECEnv    # doctest: +SKIP
>>> env = ZigguratBatchedAECEnv("kuhnah", num_envs=256, players=3)         # doctest: +SKIP
>>> env.reset(seed=1)                                                      # doctest: +SKIP
>>> obs, reward, terminated, truncated, info = env.last()                  # doctest: +SKIP
>>> env.step(policy(obs["observation"], obs["action_mask"]))               # doctest: +SKIP

Every seat is an agent (``player_0`` .. ``player_{n-1}``, as in
:mod:`ziggurat.interop.pettingzoo`), and every agent is played by the caller:
self-play, league training, or one learner per seat. It is PettingZoo's AEC
environment with each of its values made a batch over ``num_envs`` games
(rows), stepped together by :class:`ziggurat.fast.VectorGame` in compiled code:

* :attr:`agent_selection` is an array: the agent that decides in each game
  (:attr:`acting` holds its seat number);
* :meth:`last` gives the acting agents' observations (``{"observation":
  (num_envs, size) float32, "action_mask": (num_envs, num_actions) int8}``,
  each row encoded exactly as the AEC adapter's :meth:`observe` of that agent),
  their rewards accumulated since they last acted, and termination flags;
* :meth:`step` takes one action per game, for the agent that decides there;
* :attr:`rewards`, :attr:`terminations`, :attr:`truncations` and :attr:`infos`
  are dicts by agent, each value an array over the games (the termination and
  truncation arrays are shared by the agents: a game ends for all at once).

Where the AEC environment would wait for every agent to see the end, a game here
starts again at once (same-step autoreset, as the Gymnasium vector
environments): in the step that ended game ``i``, every agent's
``terminations[agent][i]`` is true, its ``rewards[agent][i]`` is its return (in
``[-1, 1]``), and ``infos[agent]`` holds ``final_index`` (the games that
ended) and ``final_observation`` (the agent's last view of each, one row per
index); the observation and selection are already the new game's.
``copy=False`` hands out read-only views of the environment's own observation
and mask arrays, overwritten by the next step (faster). Rewards
come only at the end, so what an agent accumulates between two of its turns is
its return in the step a game of it ended and 0 otherwise: :meth:`last` gives the
acting agent's, and :attr:`rewards` every agent's, of the last step.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces

from ziggurat.core.errors import ZigguratError
from ziggurat.fast.vector import VectorGame, VectorStep
from ziggurat.interop.pettingzoo import observation_space

__all__ = ["ZigguratBatchedAECEnv"]


class ZigguratBatchedAECEnv:
    """``num_envs`` games in which the caller plays every seat (see the module docstring)."""

    metadata: dict[str, Any] = {"name": "ziggurat_batched", "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        game: str = "kuhnah",
        num_envs: int = 16,
        players: int | None = None,
        options: Mapping[str, object] | None = None,
        seed: int = 0,
        copy: bool = True,
    ):
        self._vector = VectorGame(game, num_envs, seed=seed, options=options, players=players, copy=False)
        self.copy = copy
        v = self._vector
        self.game = v.game
        self.num_envs = v.num_envs
        self.metadata = {**type(self).metadata, "name": f"ziggurat_batched_{self.game.spec.id}"}
        self.possible_agents = [f"player_{p}" for p in range(v.num_players)]
        self.agents = list(self.possible_agents)
        self._names = np.array(self.possible_agents)
        self._obs_space = observation_space(self.game)
        self._act_space = spaces.Discrete(v.num_actions)
        self._out: VectorStep = self._vector.reset()
        self._clear()

    # ----------------------------------------------------------------- spaces
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """One game's observation of ``agent``: the AEC adapter's space (view tensor and action mask)."""
        self._index(agent)
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """One game's action for ``agent``: Discrete over the game's action ids."""
        self._index(agent)
        return self._act_space

    # ---------------------------------------------------------------- playing
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal every game afresh (from ``seed``, else the seed given before) up to its first decision."""
        self._out = self._vector.reset(seed)
        self._clear()

    @property
    def acting(self) -> np.ndarray:
        """The seat that decides in each game (int32, ``num_envs``)."""
        return self._out.player.copy()

    @property
    def agent_selection(self) -> np.ndarray:
        """The agent that decides in each game (an array of names, ``num_envs``)."""
        return self._names[self._out.player]

    def observe_acting(self) -> dict[str, np.ndarray]:
        """Each game's acting agent's view tensor and action mask (one row per game)."""
        obs, mask = self._out.obs, self._out.mask.view(np.int8)
        if self.copy:
            obs, mask = obs.copy(), mask.copy()
        return {"observation": obs, "action_mask": mask}

    def last(self) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """``(observation, reward, termination, truncation, info)`` of each game's acting agent.

        The reward is the acting seat's from the last step: where the termination
        flag is set, the game ended there and that is the seat's return (the
        observation is already the next game's); else 0.
        """
        rows = np.arange(self.num_envs)
        reward = self._out.rewards[rows, self._out.player].copy()
        done = self._out.terminated.copy()
        return self.observe_acting(), reward, done, self.truncations[self.possible_agents[0]], {}

    def step(self, actions: Any) -> None:
        """One action per game, by the agent that decides there; chance is played inside.

        An action that is not legal in its game is a
        :class:`~ziggurat.core.errors.ZigguratError` naming the game, and no game changes.
        """
        self._out = self._vector.step(actions)
        out = self._out
        ended = out.terminated
        where = np.flatnonzero(ended)
        done = ended.copy()
        for p, agent in enumerate(self.possible_agents):
            self.rewards[agent] = out.rewards[:, p].copy()
            self.terminations[agent] = done
            info: dict[str, Any] = {}
            if len(where):
                info["final_index"] = where
                info["final_observation"] = out.final_obs[where, p]
            self.infos[agent] = info

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal action per game (seeded from the environment's seed)."""
        return self._vector.sample_actions()

    def close(self) -> None:
        """Nothing to release."""

    # -------------------------------------------------------------- internals
    def _index(self, agent: str) -> int:
        try:
            return self.possible_agents.index(agent)
        except ValueError:
            raise ZigguratError(f"no agent {agent!r}: the agents are {', '.join(self.possible_agents)}") from None

    def _clear(self) -> None:
        n = self.num_envs
        self.rewards: dict[str, np.ndarray] = {a: np.zeros(n) for a in self.possible_agents}
        self.terminations: dict[str, np.ndarray] = {a: np.zeros(n, np.bool_) for a in self.possible_agents}
        never = np.zeros(n, np.bool_)  # games never truncate
        never.flags.writeable = False
        self.truncations: dict[str, np.ndarray] = dict.fromkeys(self.possible_agents, never)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.possible_agents}
