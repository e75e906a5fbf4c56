"""OpenSpiel adapter: every registered game as a ``pyspiel`` Python game.

Importing this module registers each game as ``python_<id>``:

>>> import pyspiel
>>> import ziggurat.interop.openspiel
>>> game = pyspiel.load_game("python_kuhnah(players=3,jade_wild=True)")
>>> game.num_players()
3

Parameters are ``players`` (default: the smallest count) and every option of the
game with dashes written as underscores (``jade-wild`` -> ``jade_wild``); a
``path`` option takes ``""`` for "none"; a choice whose value is a number is
written with a leading underscore (``start_player=_2``: OpenSpiel would read a
bare ``2`` as an integer). :func:`load` does these conversions for you.

How the contract maps onto OpenSpiel:

* Chance nodes are OpenSpiel chance nodes with the same explicit outcomes.
* Every game is exposed with ``Dynamics.SEQUENTIAL``. A simultaneous decision
  (Kukulkán's rounds, Nakum's setup) becomes a run of turns, lowest seat first,
  in which each player's choice stays hidden from the others until the last one
  is in; only then are the choices applied to the engine together. That is a
  valid turn-based conversion with imperfect information, and it is what
  OpenSpiel's sequential algorithms (MCTS, IS-MCTS, CFR, ...) need. Games with
  simultaneous decisions are therefore ``IMPERFECT_INFORMATION`` even without
  hidden cards.
* Observations come only from ``state.view(player)``: the observation string is
  the view as compact JSON, the observation tensor is the game's ``tensor`` hook
  (or the generic encoding, see :mod:`ziggurat.interop.encoding`). The
  information-state string appends the player's own actions so far (its own
  hidden pending choice included); the information-state tensor appends how
  many times the player took each action id.
* ``resample_from_infostate(player, sampler)`` (used by IS-MCTS) is the game's
  ``resample`` with other players' hidden pending choices redrawn uniformly;
  their own-action histories keep only what everyone has seen (nothing of their
  true unrevealed choices survives).
  A resampled state has no OpenSpiel action history (its hidden past is
  invented), so it cannot be serialized; search never needs that.
* Returns are the engine's: in ``[-1, 1]``, summing to zero with two or more
  players (``ZERO_SUM``), at the end only (``RewardModel.TERMINAL``). A
  one-player game is ``GENERAL_SUM``.
* Serialization is OpenSpiel's default for Python games (the action history,
  replayed), which is exact because the engine is deterministic given chance
  outcomes.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from ziggurat.core.game import CHANCE, SIMULTANEOUS, TERMINAL, Game
from ziggurat.core.game import State as ZState
from ziggurat.core.registry import game_ids, get_game
from ziggurat.core.spec import GameSpec, OptionSpec
from ziggurat.interop.encoding import encode_state_into, tensor_size

PREFIX = "python_"

__all__ = [
    "PREFIX",
    "ZigguratSpielGame",
    "ZigguratSpielState",
    "choice_param",
    "load",
    "param_name",
    "register_all",
    "short_name",
]


def short_name(game_id: str) -> str:
    """OpenSpiel name of a game: ``python_<id>``."""
    return PREFIX + game_id


def param_name(option: str) -> str:
    """OpenSpiel parameter name of an option (``jade-wild`` -> ``jade_wild``)."""
    return option.replace("-", "_")


def _looks_numeric(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def choice_param(value: str) -> str:
    """OpenSpiel spelling of a choice value: numbers get a ``_`` prefix (``"2"`` -> ``"_2"``).

    OpenSpiel reads ``start_player=2`` in a game string as an integer, which a
    text parameter refuses; ``start_player=_2`` stays text.
    """
    return "_" + value if _looks_numeric(value) else value


def _choice_from_param(raw: object) -> str:
    text = str(raw)
    return text[1:] if text.startswith("_") and _looks_numeric(text[1:]) else text


def _param_default(opt: OptionSpec) -> bool | int | float | str:
    if opt.kind == "bool":
        return bool(opt.default)
    if opt.kind == "int":
        return int(opt.default)  # type: ignore[arg-type]
    if opt.kind == "float":
        return float(opt.default)  # type: ignore[arg-type]
    if opt.kind == "choice":
        return choice_param(str(opt.default))
    return "" if opt.default is None else str(opt.default)


def _is_imperfect(spec: GameSpec) -> bool:
    return spec.has_hidden_information or spec.has_simultaneous_moves


def _game_type(spec: GameSpec, players: int | None = None) -> pyspiel.GameType:
    params: dict[str, Any] = {"players": spec.min_players}
    for opt in spec.options:
        params[param_name(opt.name)] = _param_default(opt)
    one_player = players == 1 or (players is None and spec.max_players == 1)
    return pyspiel.GameType(
        short_name=short_name(spec.id),
        long_name=f"Ziggurat {spec.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if spec.has_chance
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if _is_imperfect(spec)
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=pyspiel.GameType.Utility.GENERAL_SUM if one_player else pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


def _options_from_params(spec: GameSpec, params: Mapping[str, Any]) -> dict[str, object]:
    options: dict[str, object] = {}
    for opt in spec.options:
        key = param_name(opt.name)
        if key not in params:
            continue
        raw = params[key]
        if opt.kind == "path":
            options[opt.name] = None if raw in ("", None) else str(raw)
        elif opt.kind == "choice":
            options[opt.name] = _choice_from_param(raw)
        else:
            options[opt.name] = raw
    return options


class _Core:
    """The engine state plus the adapter's bookkeeping, copied cheaply by ``clone``.

    ``pending`` holds the hidden choices already made at a simultaneous node;
    ``own[p]`` is player ``p``'s own actions (for its information state), of
    which the first ``revealed[p]`` everyone has seen. ``legal`` keeps the legal
    actions asked for at a simultaneous node while its choices are collected
    (the engine state does not move then), for the position whose history has
    ``legal_at`` actions: any engine move makes it stale, and it is dropped.
    """

    __slots__ = ("legal", "legal_at", "own", "pending", "revealed", "state")

    def __init__(self, state: ZState, pending: dict[int, int], own: list[list[int]], revealed: list[int] | None = None):
        self.state = state
        self.pending = pending
        self.own = own
        # how many of each player's own actions everyone has seen (the rest: choices of a round not yet revealed)
        self.revealed = [len(o) for o in own] if revealed is None else revealed
        self.legal: dict[int, list[int]] = {}
        self.legal_at = -1

    def sim_legal(self, player: int) -> list[int]:
        """``player``'s legal actions at the current simultaneous node (kept while the node lasts)."""
        n = len(self.state.history)
        if self.legal_at != n:
            self.legal = {}
            self.legal_at = n
        legal = self.legal.get(player)
        if legal is None:
            legal = self.legal[player] = self.state.legal_actions(player)
        return legal

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        return _Core(self.state.clone(), dict(self.pending), [o.copy() for o in self.own], self.revealed.copy())

    def to_move(self) -> int:
        cur = self.state.current_player()
        if cur == SIMULTANEOUS:
            for p in self.state.players_to_move():
                if p not in self.pending:
                    return p
        return cur


class ZigguratSpielGame(pyspiel.Game):
    """One configured ziggurat game as an OpenSpiel game (subclassed once per game id)."""

    game_id: str = ""

    def __init__(self, params: Mapping[str, Any] | None = None):
        entry = get_game(self.game_id)
        spec = entry.game_class.spec
        params = dict(params or {})
        players = int(params.get("players", spec.min_players))
        self.zgame: Game = entry.game_class(players, _options_from_params(spec, params))
        one_player = players == 1
        info = pyspiel.GameInfo(
            num_distinct_actions=self.zgame.num_actions,
            max_chance_outcomes=self.zgame.max_chance_outcomes,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None if one_player else 0.0,
            max_game_length=self.zgame.max_game_length,
        )
        full: dict[str, Any] = {"players": players}
        for opt in spec.options:
            full[param_name(opt.name)] = _param_default(opt)
        full.update(params)
        super().__init__(_game_type(spec, players), info, full)

    def new_initial_state(self) -> ZigguratSpielState:
        """The state before the first action."""
        return ZigguratSpielState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Mapping[str, Any] | None = None
    ) -> ZigguratObserver:
        """An observer (see ``open_spiel/python/observation.py``)."""
        return ZigguratObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class ZigguratSpielState(pyspiel.State):
    """An OpenSpiel state wrapping an engine state (see the module docstring)."""

    def __init__(self, game: ZigguratSpielGame, core: _Core | None = None):
        super().__init__(game)
        if core is None:
            zstate = game.zgame.new_initial_state()
            core = _Core(zstate, {}, [[] for _ in range(game.zgame.num_players)])
        self._core = core

    @property
    def zstate(self) -> ZState:
        """The wrapped engine state (pending simultaneous choices not yet applied)."""
        return self._core.state

    # The calls of a plain loop (current_player, is_terminal, is_chance_node, legal_actions) are answered
    # here in Python: through pyspiel's C++ base each one is several calls back into Python.
    def current_player(self) -> int:
        """The player to decide (one at a time, even at simultaneous nodes), CHANCE or TERMINAL."""
        core = self._core
        cur = core.state.current
        return core.to_move() if cur == SIMULTANEOUS else cur

    def is_chance_node(self) -> bool:
        """True when chance decides next."""
        return self._core.state.current == CHANCE

    def is_player_node(self) -> bool:
        """True when a player decides next."""
        cur = self._core.state.current
        return cur >= 0 or cur == SIMULTANEOUS

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Legal actions of ``player`` (default: the one to move), sorted; chance outcomes at a chance node.

        The same answers as pyspiel's own ``State.legal_actions``, without its
        round trips through C++. The list is a fresh copy of the engine's list,
        which the engine caches until the position changes.
        """
        core = self._core
        zs = core.state
        cur = zs.current
        if cur >= 0:
            if player is None or player == cur:
                return zs.legal_actions(cur).copy()
        elif cur == CHANCE:
            return [a for a, _ in zs.chance_outcomes()]
        elif cur == TERMINAL:
            return []
        elif player is None or player == core.to_move():  # a simultaneous node, one player at a time
            return core.sim_legal(core.to_move()).copy()
        return pyspiel.State.legal_actions(self, player)  # type: ignore[no-any-return]  # other players: C++ says

    def _legal_actions(self, player: int) -> list[int]:
        core = self._core
        if core.state.current == SIMULTANEOUS:
            return core.sim_legal(player).copy()
        return core.state.legal_actions(player).copy()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Explicit chance outcomes with probabilities."""
        return list(self._core.state.chance_outcomes())

    def _apply_action(self, action: int) -> None:
        core = self._core
        zs = core.state
        cur = zs.current
        if cur >= 0:  # the common case first: one player's turn
            zs.apply_action(action, cur)
            own = core.own[cur]
            own.append(action)
            core.revealed[cur] = len(own)
            return
        action = int(action)
        if cur == SIMULTANEOUS:
            player = core.to_move()
            if action not in core.sim_legal(player):
                zs.apply_action(action, player)  # raises the engine's clear error, changes nothing
            core.pending[player] = action
            core.own[player].append(action)
            waiting = zs.players_to_move()
            if all(p in core.pending for p in waiting):
                choices, core.pending = core.pending, {}
                for p in sorted(choices):
                    zs.apply_action(choices[p], p)
                still = zs.players_to_move() if zs.current_player() == SIMULTANEOUS else None
                if still is None or not set(still) <= set(waiting):  # the round is over: every choice is shown
                    core.revealed = [len(o) for o in core.own]
            return
        zs.apply_action(action)  # chance

    def _action_to_string(self, player: int, action: int) -> str:
        zs = self._core.state
        try:
            text = zs.action_to_text(int(action), CHANCE if player == CHANCE else player)
        except Exception:
            text = f"action {action}"
        return f"chance:{text}" if player == CHANCE else text

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self._core.state.current == TERMINAL

    def returns(self) -> list[float]:
        """Zeros until the end, then the engine's returns."""
        return [float(r) for r in self._core.state.returns()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> ZigguratSpielState:
        """A state ``player_id`` can't tell from this one, hidden parts redrawn (for IS-MCTS).

        ``probability_sampler()`` returns a float in ``[0, 1)``; it seeds the redraw.
        """
        rng = random.Random(int(float(probability_sampler()) * 2**53))
        core = self._core
        zs = core.state
        hidden = zs.game.spec.has_hidden_information or zs.game.spec.has_simultaneous_moves
        new_z = zs.resample(player_id, rng) if hidden else zs.clone()
        pending: dict[int, int] = {}
        for p, a in core.pending.items():
            if p == player_id:
                pending[p] = a
            else:
                legal = new_z.legal_actions(p)
                pending[p] = legal[int(rng.random() * len(legal))]
        # Other players' histories keep only what everyone has seen, then the redrawn pending choice:
        # their true choices of a round not yet revealed must not survive into the determinisation.
        own = [o.copy() if p == player_id else o[: core.revealed[p]] for p, o in enumerate(core.own)]
        for p, a in pending.items():
            if p != player_id:
                own[p].append(a)
        revealed = [min(r, len(o)) for r, o in zip(core.revealed, own, strict=True)]
        game = self.get_game()
        return ZigguratSpielState(game, _Core(new_z, pending, own, revealed))

    def __str__(self) -> str:
        data = self._core.state.to_json()["state"]
        text = json.dumps(data, sort_keys=True, separators=(",", ":"))
        if self._core.pending:
            text += f" pending={sorted(self._core.pending.items())}"
        return text


def _view(state: ZigguratSpielState, player: int | None) -> dict[str, Any]:
    return state.zstate.view(player)


class ZigguratObserver:
    """Observations from ``view(player)`` (the PyObserver interface of OpenSpiel)."""

    def __init__(self, game: ZigguratSpielGame, iig_obs_type: pyspiel.IIGObservationType, params: Any):
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("ziggurat observers show one player's view (private_info=ALL_PLAYERS is not supported)")
        self.zgame = game.zgame
        self.public_only = private == pyspiel.PrivateInfoType.NONE
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        view_size = tensor_size(self.zgame)
        pieces = [("view", view_size)]
        if self.perfect_recall:
            pieces.append(("own_action_counts", self.zgame.num_actions))
        self.tensor = np.zeros(sum(size for _, size in pieces), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        index = 0
        for name, size in pieces:
            self.dict[name] = self.tensor[index : index + size]
            index += size

    def set_from(self, state: ZigguratSpielState, player: int) -> None:
        """Fill ``tensor`` with ``state`` seen by ``player``."""
        encode_state_into(self.zgame, state.zstate, None if self.public_only else player, self.dict["view"])
        if self.perfect_recall:
            counts = self.dict["own_action_counts"]
            counts.fill(0)
            if not self.public_only:
                for a in state._core.own[player]:
                    counts[a] += 1

    def string_from(self, state: ZigguratSpielState, player: int) -> str:
        """``state`` seen by ``player`` as text: the view as JSON (+ own actions)."""
        view = _view(state, None if self.public_only else player)
        text = json.dumps(view, sort_keys=True, separators=(",", ":"))
        if self.perfect_recall and not self.public_only:
            text += " own:" + ",".join(str(a) for a in state._core.own[player])
        return text


_registered: dict[str, type[ZigguratSpielGame]] = {}


def register_all() -> list[str]:
    """Register every game of the registry with ``pyspiel`` (idempotent); return the short names."""
    names = []
    for gid in game_ids():
        name = short_name(gid)
        if gid not in _registered:
            spec = get_game(gid).game_class.spec
            cls = type(f"Spiel_{gid}", (ZigguratSpielGame,), {"game_id": gid, "__module__": __name__})
            globals()[cls.__name__] = cls  # so pickle finds the class
            pyspiel.register_game(_game_type(spec), cls)
            _registered[gid] = cls
        names.append(name)
    return names


def load(game: str, players: int | None = None, options: Mapping[str, object] | None = None) -> pyspiel.Game:
    """Load a ziggurat game as an OpenSpiel game by registry name, players and options."""
    register_all()
    entry = get_game(game)
    spec = entry.game_class.spec
    params: dict[str, Any] = {"players": spec.min_players if players is None else players}
    for name, value in (options or {}).items():
        opt = spec.option(name)
        if value is None:
            value = ""
        elif opt.kind == "choice":
            value = choice_param(str(value))
        params[param_name(opt.name)] = value
    return pyspiel.load_game(short_name(spec.id), params)


register_all()
