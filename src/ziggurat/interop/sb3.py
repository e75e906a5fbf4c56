"""Stable-Baselines3 on the compiled kernels: a ``VecEnv`` for MaskablePPO, and policy export (the ``train`` extra).

>>> from ziggurat.interop.sb3 import KernelVecEnv                          # doctest: +SKIP
>>> from sb3_contrib import MaskablePPO                                    # doctest: +SKIP
>>> env = KernelVecEnv("kuhnah", num_envs=64, players=2, seed=1)           # doctest: +SKIP
>>> model = MaskablePPO("MlpPolicy", env, seed=1).learn(20_000)            # doctest: +SKIP
>>> export_policy(model, "kuhnah-2p.npz", env.game)                        # doctest: +SKIP

:class:`KernelVecEnv` is a :class:`stable_baselines3.common.vec_env.VecEnv`
over :class:`ziggurat.fast.VectorGame`: every sub-environment is one game in
which the agent plays one seat and kernel random players play the others
(chance inside, same-step autoreset). The learning seats are spread over the
sub-environments (by default every seat in equal shares, so the agent learns to
play first and last). Observations are the seat's view encoded as the adapters
encode it, rewards the seat's return in [-1, 1] when its game ends;
:meth:`KernelVecEnv.action_masks` gives the legal actions, as sb3-contrib's
``MaskablePPO`` asks. Each finished game's ``info`` carries
``terminal_observation`` and ``episode`` (``r``: return, ``l``: decisions), as
Stable-Baselines3's ``Monitor`` would.

:func:`export_policy` writes the actor of a trained ``MaskablePPO`` as a policy
file the ``learned`` bot plays (:mod:`ziggurat.bots.learned`).
"""

from __future__ import annotations

import hashlib
import itertools
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv

from ziggurat.bots.learned import save_policy
from ziggurat.core.errors import ConfigError, ZigguratError
from ziggurat.core.game import Game
from ziggurat.fast.driver import _game
from ziggurat.fast.vector import VectorGame

__all__ = ["KernelVecEnv", "export_policy", "part_seed"]


def part_seed(seed: int, part: int) -> int:
    """The seed of the ``part``-th block of games (one block per learning seat) of a run seeded ``seed``.

    >>> part_seed(1, 0) == part_seed(1, 0) != part_seed(1, 1)
    True
    """
    return int.from_bytes(hashlib.sha256(f"ziggurat/train/{seed}/{part}".encode()).digest()[:7], "big")


class KernelVecEnv(VecEnv):
    """``num_envs`` kernel games of one setup for Stable-Baselines3 (see the module docstring).

    ``seats``: the learning seats, spread over the games in equal shares
    (default: every seat). ``seed``: the whole run repeats exactly from it
    (``seed()`` before a ``reset()`` changes it, as Stable-Baselines3 does).
    """

    def __init__(
        self,
        game: str | Game = "kuhnah",
        num_envs: int = 64,
        players: int | None = None,
        seats: Sequence[int] | None = None,
        options: Mapping[str, object] | None = None,
        seed: int = 0,
    ):
        g = _game(game, players, options)
        chosen = list(range(g.num_players)) if seats is None else [int(s) for s in seats]
        if not chosen or len(set(chosen)) != len(chosen):
            raise ZigguratError(f"seats must name one or more different seats, not {seats!r}")
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < len(chosen):
            raise ZigguratError(f"num_envs must be a whole number from {len(chosen)} (one per seat), not {num_envs!r}")
        self.game = g
        self.seats = chosen
        self._seed = int(seed)
        counts = [num_envs // len(chosen) + (1 if k < num_envs % len(chosen) else 0) for k in range(len(chosen))]
        self._parts = [
            VectorGame(g, c, seed=part_seed(self._seed, k), seat=s, copy=False)
            for k, (s, c) in enumerate(zip(chosen, counts, strict=True))
        ]
        bounds = np.cumsum([0, *counts])
        self._slices = [slice(int(a), int(b)) for a, b in itertools.pairwise(bounds)]
        first = self._parts[0]
        self.seat_of = np.concatenate([np.full(c, s, np.int32) for s, c in zip(chosen, counts, strict=True)])
        self._obs = np.zeros((num_envs, first.obs_size), np.float32)
        self._mask = np.zeros((num_envs, first.num_actions), np.bool_)
        self._return = np.zeros(num_envs, np.float64)
        self._length = np.zeros(num_envs, np.int64)
        self._actions: np.ndarray | None = None
        self._t0 = time.perf_counter()
        super().__init__(
            num_envs,
            spaces.Box(0.0, 1.0, (first.obs_size,), np.float32),
            spaces.Discrete(first.num_actions),
        )

    # ------------------------------------------------------------ VecEnv
    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Use ``seed`` for the whole run from the next :meth:`reset` (``None``: keep the seed given before)."""
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
                raise ZigguratError(f"a seed is a whole number from 0, not {seed!r}")
            self._seed = int(seed)
        return [self._seed] * self.num_envs

    def reset(self) -> np.ndarray:
        """Deal every game afresh from the run's seed, up to its learning seat's first decision."""
        for k, (part, sl) in enumerate(zip(self._parts, self._slices, strict=True)):
            out = part.reset(part_seed(self._seed, k))
            self._obs[sl] = out.obs
            self._mask[sl] = out.mask
        self._return[:] = 0.0
        self._length[:] = 0
        self._reset_seeds()
        self._reset_options()
        return self._obs.copy()

    def step_async(self, actions: np.ndarray) -> None:
        """Keep one action per game for :meth:`step_wait`."""
        self._actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        """Step every game; finished ones start again at once (their last observation in the info)."""
        if self._actions is None:
            raise ZigguratError("step_wait without step_async: no actions to apply")
        actions, self._actions = self._actions.astype(np.int64), None
        rewards = np.zeros(self.num_envs, np.float32)
        dones = np.zeros(self.num_envs, np.bool_)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        finished: list[tuple[int, np.ndarray]] = []
        for seat, part, sl in zip(self.seats, self._parts, self._slices, strict=True):
            out = part.step(actions[sl])
            self._obs[sl] = out.obs
            self._mask[sl] = out.mask
            rewards[sl] = out.rewards[:, seat]
            dones[sl] = out.terminated
            for j in np.flatnonzero(out.terminated):
                finished.append((sl.start + int(j), out.final_obs[j, 0].copy()))
        self._return += rewards
        self._length += 1
        elapsed = round(time.perf_counter() - self._t0, 6)
        for i, last in finished:
            infos[i] = {
                "terminal_observation": last,
                "episode": {"r": float(self._return[i]), "l": int(self._length[i]), "t": elapsed},
            }
            self._return[i] = 0.0
            self._length[i] = 0
        return self._obs.copy(), rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """The legal actions of every game's learning seat now (bool, ``num_envs x actions``)."""
        return self._mask.copy()

    def close(self) -> None:
        """Nothing to release (the games live in this process)."""

    def _indices(self, indices: Any) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int | np.integer):
            return [int(indices)]
        return [int(i) for i in indices]

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """``action_masks`` (the bound method, for sb3-contrib's check) or ``render_mode`` (``None``) per game."""
        idx = self._indices(indices)
        if attr_name == "render_mode":
            return [None] * len(idx)
        if attr_name == "action_masks":
            return [self.action_masks] * len(idx)
        raise AttributeError(f"the kernel games have no attribute {attr_name!r}")

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        """The kernel games have no attributes to set."""
        raise AttributeError(f"the kernel games have no attribute {attr_name!r} to set")

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any) -> list[Any]:
        """``action_masks``: each game's mask (what sb3-contrib's ``get_action_masks`` stacks)."""
        if method_name != "action_masks":
            raise AttributeError(f"the kernel games have no method {method_name!r}")
        return [self._mask[i].copy() for i in self._indices(indices)]

    def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
        """No game is wrapped (episode statistics come in the infos already)."""
        return [False] * len(self._indices(indices))


def export_policy(model: Any, path: str | Path, game: Game, meta: Mapping[str, Any] | None = None) -> Path:
    """Write the actor of a trained ``MaskablePPO`` (an MLP policy) as a policy file for the ``learned`` bot.

    The file holds the policy layers (``mlp_extractor.policy_net`` then
    ``action_net``), the activation and ``meta`` (the game, players, options,
    and what is given here); see :func:`ziggurat.bots.learned.save_policy`.
    """
    import torch

    policy = model.policy
    if not isinstance(policy.features_extractor, torch.nn.Flatten) and type(policy.features_extractor).__name__ != (
        "FlattenExtractor"
    ):
        raise ConfigError(f"only a flat MLP policy can be exported, not {type(policy.features_extractor).__name__}")
    linears: list[Any] = []
    activations = set()
    for module in policy.mlp_extractor.policy_net:
        if isinstance(module, torch.nn.Linear):
            linears.append(module)
        elif isinstance(module, torch.nn.Tanh):
            activations.add("tanh")
        elif isinstance(module, torch.nn.ReLU):
            activations.add("relu")
        else:
            raise ConfigError(f"the policy network holds a {type(module).__name__}: only Linear, Tanh and ReLU export")
    if len(activations) > 1:
        raise ConfigError(f"the policy network mixes activations {sorted(activations)}")
    linears.append(policy.action_net)
    weights = [m.weight.detach().cpu().numpy().astype(np.float32) for m in linears]
    biases = [m.bias.detach().cpu().numpy().astype(np.float32) for m in linears]
    header = {"game": game.spec.id, "players": game.num_players, "options": game.params()["options"], **(meta or {})}
    return save_policy(path, weights, biases, activations.pop() if activations else "tanh", header)
