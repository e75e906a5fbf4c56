"""Gymnasium adapter: one seat of a game, the other seats played by ziggurat bots.

>>> from ziggurat.interop.gymnasium import ZigguratEnv
>>> e = ZigguratEnv(game="kuhnah", players=2, seat=0, opponents=["random"])
>>> obs, info = e.reset(seed=3)
>>> obs.shape == e.observation_space.shape and bool(info["action_mask"].any())
True

* Observation: ``Box`` — the tensor of the seat's view (the game's ``tensor``
  hook or the generic encoding, see :mod:`ziggurat.interop.encoding`).
  ``info["action_mask"]`` (and :meth:`ZigguratEnv.action_masks`, the name
  MaskablePPO looks for) marks the legal action ids.
* Action: ``Discrete(game.num_actions)``. An illegal action raises
  :class:`~ziggurat.core.errors.IllegalActionError` and changes nothing, unless
  ``illegal_action="penalty"``: then the episode ends at once with reward
  ``illegal_penalty`` (default -1, a sure loss) and ``info["illegal_action"]``
  set. Gymnasium's ``check_env`` samples actions without a mask, so it needs the
  penalty mode.
* Reward: the seat's return (in ``[-1, 1]``) when the game ends, 0 before.
* Opponents: bot names from the registry (``"random"``, ``"greedy"``,
  ``"ismcts"``...), one per other seat in seat order, or one name for all;
  ``bot_params`` go to every opponent (``{"iterations": 50}`` for IS-MCTS). Like
  :class:`~ziggurat.core.match.Match`, a bot in a game with hidden information
  is handed a determinisation (``state.resample``), never the true state. At a
  simultaneous decision the bots choose on determinisations taken before the
  agent's choice is applied, so they cannot see it.
* Chance and the bots are seeded from ``reset(seed=...)`` through a
  :class:`~ziggurat.core.match.Match`: a bot only ever gets seeds derived one
  way from the episode's root, never the chance stream's.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ziggurat.core.bot import Bot
from ziggurat.core.game import Game, State
from ziggurat.core.match import Match
from ziggurat.core.registry import make_game
from ziggurat.interop.encoding import action_id, action_mask, check_seed, encode_state, tensor_size, value_bounds

__all__ = ["ZigguratEnv"]


class ZigguratEnv(gym.Env[np.ndarray, np.int64]):
    """One seat of a ziggurat game as a single-agent environment (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012 (gymnasium declares it so)

    def __init__(
        self,
        game: str = "kuhnah",
        players: int | None = None,
        seat: int = 0,
        opponents: Sequence[str] | str | None = None,
        options: Mapping[str, object] | None = None,
        illegal_action: str = "raise",
        illegal_penalty: float = -1.0,
        render_mode: str | None = None,
        bot_params: Mapping[str, Any] | None = None,
    ):
        self.game: Game = make_game(game, players, options)
        n = self.game.num_players
        if not 0 <= seat < n:
            raise ValueError(f"seat must be 0..{n - 1} in a {n}-player game, not {seat}")
        others = n - 1
        if opponents is None:
            opponents = ["random"] * others
        elif isinstance(opponents, str):
            opponents = [opponents] * others
        if len(opponents) != others:
            raise ValueError(f"{len(opponents)} opponents given for the {others} other seat(s)")
        if illegal_action not in ("raise", "penalty"):
            raise ValueError(f"illegal_action must be 'raise' or 'penalty', not {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.seat = seat
        self.opponent_names = list(opponents)
        self.bot_params = dict(bot_params or {})
        self.illegal_action = illegal_action
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = render_mode
        low, high = value_bounds(self.game)
        self.observation_space = spaces.Box(low=low, high=high, shape=(tensor_size(self.game),), dtype=np.float32)
        self.action_space = spaces.Discrete(self.game.num_actions)
        self._match = Match(self.game, 0)
        self._bots: dict[int, Bot] = {}
        self._done = True

    # ------------------------------------------------------------ internals
    def _seat_players(self) -> list[int]:
        return [p for p in range(self.game.num_players) if p != self.seat]

    @property
    def state(self) -> State:
        """The game's true state (for tests and wrappers; the agent sees only observations)."""
        return self._match.state

    def _resolve_chance(self) -> None:
        self._match.resolve_chance()

    def _play_opponents(self) -> None:
        """Let the bots move until the seat must decide or the game ends."""
        state = self.state
        self._resolve_chance()
        while not state.is_terminal():
            movers = state.players_to_move()
            if self.seat in movers:
                return
            choices = [(p, self._match.decide(self._bots[p], p)) for p in movers]
            for p, a in choices:
                state.apply_action(a, p)
            self._resolve_chance()

    def _mask(self) -> np.ndarray:
        return action_mask(self.state.legal_actions(self.seat), self.game.num_actions)

    def _obs(self) -> np.ndarray:
        return encode_state(self.game, self.state, self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask()}

    # --------------------------------------------------------------- the API
    def action_masks(self) -> np.ndarray:
        """Legal action ids of the seat as a 0/1 vector."""
        return self._mask()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal a new game and play the bots up to the seat's first decision."""
        super().reset(seed=check_seed(seed))
        base = int(self.np_random.integers(2**62))
        self._match = Match(self.game, base)
        seats = zip(self._seat_players(), self.opponent_names, strict=True)
        self._bots = {p: self._match.make_bot(name, p, **self.bot_params) for p, name in seats}
        self._done = False
        self._play_opponents()
        self._done = self.state.is_terminal()
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Apply the seat's action, then the bots' until the seat decides again or the game ends."""
        if self._done:
            raise RuntimeError("the game is over: call reset() to start a new one")
        a = action_id(action)  # a malformed action is an error in every mode, and changes nothing
        state = self.state
        seat = self.seat
        if a not in state.legal_actions(seat):
            if self.illegal_action == "penalty":
                self._done = True
                info = self._info()
                info["illegal_action"] = True
                return self._obs(), self.illegal_penalty, True, False, info
            state.apply_action(a, seat)  # raises IllegalActionError before any bot has thought: nothing changes
        movers = state.players_to_move()
        if len(movers) == 1:  # the seat alone decides: the common case
            state.apply_action(a, seat)
        else:
            # Other players deciding at the same (simultaneous) node choose before seeing ours.
            choices = [(p, self._match.decide(self._bots[p], p)) for p in movers if p != seat]
            state.apply_action(a, seat)
            for p, b in choices:
                state.apply_action(b, p)
        self._play_opponents()
        done = state.is_terminal()
        self._done = done
        reward = float(state.returns()[self.seat]) if done else 0.0
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, done, False, self._info()

    def render(self) -> str | None:
        """``ansi``: the seat's view as text; ``human``: print it."""
        if self.render_mode is None:
            return None
        text = json.dumps(self.state.view(self.seat), indent=1)
        if self.render_mode == "human":
            print(text)
            return None
        return text
