"""PettingZoo adapters: an AEC environment for every game, a parallel one for simultaneous play.

>>> from ziggurat.interop.pettingzoo import env
>>> e = env(game="kuhnah", players=3, seed=1)
>>> e.reset()
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs)
['action_mask', 'observation']

Agents are ``player_0`` .. ``player_{n-1}`` (seat order). Each observation is a
dict: ``observation`` is the tensor of the agent's view (the game's ``tensor``
hook or the generic encoding, see :mod:`ziggurat.interop.encoding`) and
``action_mask`` marks the agent's legal action ids (all zeros when it is not
to move). ``infos[agent]["action_mask"]`` is the selected agent's mask too (all
zeros for the others), so a loop that needs only the legal actions can skip the
tensor with ``last(observe=False)``: an observation is built only when asked.
Chance is resolved inside the environment with its own RNG, seeded by
``seed`` (constructor) or ``reset(seed=...)``. Rewards are the game's returns,
given once at the end. An illegal action raises the engine's
:class:`~ziggurat.core.errors.IllegalActionError` and changes nothing.

Simultaneous decisions: in the AEC environment the players of a simultaneous
node are selected one after the other (lowest seat first); a choice stays hidden
from the others (their views don't show it) until the last one is in. The
parallel environment, :func:`parallel_env`, asks every player who has to decide
for an action in the same ``step``; at a one-player decision only that
player's action is used (the others' are ignored; their masks are all zeros).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from ziggurat.core.errors import ParseActionError
from ziggurat.core.game import CHANCE, TERMINAL, Game, State
from ziggurat.core.registry import make_game
from ziggurat.interop.encoding import action_id, action_mask, check_seed, encode_state, tensor_size, value_bounds

__all__ = ["ZigguratAECEnv", "ZigguratParallelEnv", "env", "parallel_env", "raw_env"]


def observation_space(game: Game) -> spaces.Dict:
    """An agent's observation of ``game``: the view tensor (its bounds) and the action mask (int8)."""
    low, high = value_bounds(game)
    return spaces.Dict(
        {
            "observation": spaces.Box(low=low, high=high, shape=(tensor_size(game),), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(game.num_actions,), dtype=np.int8),
        }
    )


class _Table:
    """The game, its state, the chance RNG and the spaces, shared by both environments."""

    def __init__(self, game: str, players: int | None, options: Mapping[str, object] | None, seed: int | None):
        self.game: Game = make_game(game, players, options)
        self.n = self.game.num_players
        self.num_actions = self.game.num_actions
        self.agents = [f"player_{p}" for p in range(self.n)]
        self.index = {a: p for p, a in enumerate(self.agents)}
        self.rng = random.Random(check_seed(seed))
        self.state: State = self.game.new_initial_state()
        self.obs_space = observation_space(self.game)
        self.act_space = spaces.Discrete(self.game.num_actions)
        # the mask of a player who is not to move: all zeros, shared, so read-only
        self.no_mask = np.zeros(self.game.num_actions, dtype=np.int8)
        self.no_mask.flags.writeable = False

    def new_game(self, seed: int | None) -> None:
        seed = check_seed(seed)
        if seed is not None:
            self.rng = random.Random(seed)
        self.state = self.game.new_initial_state()
        self.resolve_chance()

    def resolve_chance(self) -> None:
        state = self.state
        rng = self.rng
        while state.current_player() == CHANCE:
            state.apply_trusted(state.sample_chance(rng), CHANCE)  # drawn here, so legal: no check needed

    def mask(self, player: int) -> np.ndarray:
        """A new 0/1 vector of ``player``'s legal action ids."""
        return action_mask(self.state.legal_actions(player), self.num_actions)

    def observe(self, player: int) -> dict[str, np.ndarray]:
        obs = encode_state(self.game, self.state, player)
        return {"observation": obs, "action_mask": self.mask(player)}

    def render_text(self) -> str:
        return json.dumps(self.state.view(None), indent=1)


_action_id = action_id


class _TableEnv:
    """What the AEC and the parallel environment share: the table, spaces, rendering."""

    metadata: ClassVar[dict[str, Any]]
    table: _Table
    render_mode: str | None
    possible_agents: list[str]
    agents: list[str]

    def _open(
        self,
        game: str,
        players: int | None,
        options: Mapping[str, object] | None,
        seed: int | None,
        render_mode: str | None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.table = _Table(game, players, options, seed)
        self.metadata = {**type(self).metadata, "name": f"ziggurat_{self.table.game.spec.id}"}  # type: ignore[misc]
        self.render_mode = render_mode
        self.possible_agents = list(self.table.agents)
        self.agents = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """Dict of the view tensor and the action mask (the same object every call)."""
        return self.table.obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Discrete over the game's action ids (the same object every call)."""
        return self.table.act_space

    def render(self) -> str | None:
        """``ansi``: the spectator view as text; ``human``: print it."""
        if self.render_mode is None:
            return None
        text = self.table.render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


class ZigguratAECEnv(_TableEnv, AECEnv):  # type: ignore[misc]
    """A ziggurat game as a PettingZoo AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "ziggurat",
        "is_parallelizable": False,  # turns are not one per agent per cycle; use parallel_env
    }

    def __init__(
        self,
        game: str = "kuhnah",
        players: int | None = None,
        options: Mapping[str, object] | None = None,
        seed: int | None = None,
        render_mode: str | None = None,
    ):
        super().__init__()
        self._open(game, players, options, seed, render_mode)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game (``seed`` reseeds chance; otherwise the stream continues)."""
        self.table.new_game(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {"action_mask": self.table.no_mask} for a in self.agents}
        self._select()

    def _select(self) -> None:
        table = self.table
        state = table.state
        previous = getattr(self, "agent_selection", None)
        infos = self.infos
        if previous in infos:  # its mask was for the position it chose in: all zeros now, until it is selected
            infos[previous] = {"action_mask": table.no_mask}
        if state.current == TERMINAL:
            returns = state.returns()
            for a in self.agents:
                self.rewards[a] = float(returns[table.index[a]])
                self.terminations[a] = True
            if self.agents and previous not in self.agents:
                self.agent_selection = self.agents[0]
            return
        player = state.current
        if player < 0:  # a simultaneous node: its players are selected lowest seat first
            player = state.players_to_move()[0]
        agent = table.agents[player]
        self.agent_selection = agent
        infos[agent] = {"action_mask": table.mask(player)}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's view tensor and action mask (built now: ``last(observe=False)`` skips it)."""
        return self.table.observe(self.table.index[agent])

    def step(self, action: Any) -> None:
        """Apply the selected agent's action (``None`` once it is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        state = table.state
        state.apply_action(action if type(action) is int else _action_id(action), table.index[agent])
        if state.current == CHANCE:
            table.resolve_chance()
        self._cumulative_rewards[agent] = 0.0
        self._select()
        if state.current == TERMINAL:  # the rewards are zeros until the end: nothing to add before
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()


class ZigguratParallelEnv(_TableEnv, ParallelEnv):  # type: ignore[misc]
    """A ziggurat game as a PettingZoo parallel environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "ansi"], "name": "ziggurat"}

    def __init__(
        self,
        game: str = "kukulkan",
        players: int | None = None,
        options: Mapping[str, object] | None = None,
        seed: int | None = None,
        render_mode: str | None = None,
    ):
        self._open(game, players, options, seed, render_mode)

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        return {a: self.table.observe(self.table.index[a]) for a in self.agents}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """Start a new game (``seed`` reseeds chance)."""
        self.table.new_game(seed)
        self.agents = list(self.possible_agents)
        return self._observations(), {a: {} for a in self.agents}

    def step(
        self, actions: Mapping[str, Any]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]]:
        """Apply the actions of every player who has to decide now; resolve chance."""
        state = self.table.state
        movers = [self.table.agents[p] for p in state.players_to_move()]
        missing = [a for a in movers if a not in actions]
        if missing:
            raise ParseActionError(f"no action for {', '.join(missing)}, who must decide now")
        index = self.table.index
        chosen = [(index[agent], _action_id(actions[agent])) for agent in movers]  # malformed: refused here
        # Check every choice before applying any, so a bad one changes nothing. The choices of a
        # simultaneous node are hidden from each other, so each is legal or not on its own: no trial copy.
        for p, a in chosen:
            if a not in state.legal_actions(p):
                state.apply_action(a, p)  # raises the engine's error; nothing has been applied yet
        for p, a in chosen:
            state.apply_action(a, p)
        self.table.resolve_chance()
        done = state.is_terminal()
        returns = state.returns()
        agents = list(self.agents)
        rewards = {a: float(returns[self.table.index[a]]) if done else 0.0 for a in agents}
        terminations = dict.fromkeys(agents, done)
        truncations = dict.fromkeys(agents, False)
        observations = {a: self.table.observe(self.table.index[a]) for a in agents}
        infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
        if done:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def state(self) -> np.ndarray:
        """The spectator view's tensor (public information only)."""
        return encode_state(self.table.game, self.table.state, None)


def raw_env(
    game: str = "kuhnah",
    players: int | None = None,
    options: Mapping[str, object] | None = None,
    seed: int | None = None,
    render_mode: str | None = None,
) -> ZigguratAECEnv:
    """The AEC environment without wrappers."""
    return ZigguratAECEnv(game, players, options, seed, render_mode)


def env(
    game: str = "kuhnah",
    players: int | None = None,
    options: Mapping[str, object] | None = None,
    seed: int | None = None,
    render_mode: str | None = None,
) -> ZigguratAECEnv:
    """An AEC environment for ``game`` (see the module docstring).

    Returned unwrapped: PettingZoo's ``OrderEnforcingWrapper`` would hide nothing
    here, and illegal actions already raise clear errors.
    """
    return raw_env(game, players, options, seed, render_mode)


def parallel_env(
    game: str = "kukulkan",
    players: int | None = None,
    options: Mapping[str, object] | None = None,
    seed: int | None = None,
    render_mode: str | None = None,
) -> ZigguratParallelEnv:
    """A parallel environment for ``game`` (see the module docstring)."""
    return ZigguratParallelEnv(game, players, options, seed, render_mode)
