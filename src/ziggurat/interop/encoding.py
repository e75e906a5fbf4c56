"""Fixed-length numeric encodings of a player's view, shared by every adapter.

A game that registers a ``tensor`` hook (see :class:`~ziggurat.core.registry.GameEntry`)
is encoded by it. A game without one gets the *generic encoding*: the view (JSON-ready
data) is flattened into ``path = value`` features and hashed into
:data:`GENERIC_TENSOR_SIZE` buckets (numbers add their value, ``true`` adds 1,
strings and ``null`` add 1 to the bucket of ``path=value``). It is deterministic,
reveals exactly what the view reveals, and is good enough for smoke tests and
baselines; a hand-made encoding learns better.

>>> from ziggurat.core.registry import make_game
>>> game = make_game("kuhnah", 2)
>>> state = game.new_initial_state()
>>> len(encode_view(game, state.view(0))) == tensor_size(game)
True
"""

from __future__ import annotations

import math
import weakref
import zlib
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from ziggurat.core.errors import ConfigError, ParseActionError
from ziggurat.core.game import Game, State
from ziggurat.core.registry import get_game

GENERIC_TENSOR_SIZE = 512


def has_tensor_hook(game_id: str) -> bool:
    """True when the game registers its own view encoding."""
    entry = get_game(game_id)
    return entry.tensor is not None and entry.tensor_size is not None


def tensor_size(game: Game) -> int:
    """Length of :func:`encode_view` for ``game``."""
    entry = get_game(game.spec.id)
    if entry.tensor is not None and entry.tensor_size is not None:
        return int(entry.tensor_size(game))
    return GENERIC_TENSOR_SIZE


def value_bounds(game: Game) -> tuple[float, float]:
    """The range of every value :func:`encode_view` gives: [0, 1] for a game's own encoding
    (the registry's contract, checked by the conformance suite), unbounded for the generic one."""
    return (0.0, 1.0) if has_tensor_hook(game.spec.id) else (-math.inf, math.inf)


def encode_view(game: Game, view: Mapping[str, Any]) -> list[float]:
    """The view as ``tensor_size(game)`` floats (the game's hook, else the generic encoding)."""
    entry = get_game(game.spec.id)
    if entry.tensor is not None and entry.tensor_size is not None:
        out = [float(x) for x in entry.tensor(game, view)]
        size = int(entry.tensor_size(game))
        if len(out) != size:
            raise ValueError(f"{game.spec.id}: tensor hook gave {len(out)} values, tensor_size says {size}")
        return out
    return generic_encoding(view)


class _Encoder:
    """One game object's encoding: the hook, the size and the writer's tables looked up once."""

    __slots__ = ("array", "into", "size", "state_array", "state_into")
    size: int
    array: Callable[[Mapping[str, Any]], np.ndarray]
    into: Callable[[Mapping[str, Any], np.ndarray], None]
    state_array: Callable[[State, int | None], np.ndarray]
    state_into: Callable[[State, int | None, np.ndarray], None]

    def __init__(self, game: Game) -> None:
        entry = get_game(game.spec.id)
        hook = entry.tensor
        gid = game.spec.id
        if hook is None or entry.tensor_size is None:
            self.size = GENERIC_TENSOR_SIZE
            self.array = lambda view: np.array(generic_encoding(view), dtype=np.float32)
            self.into = self._copy_into
            self._from_views()
            return
        size = self.size = int(entry.tensor_size(game))
        if entry.tensor_writer is not None:
            write = entry.tensor_writer(game)
            zeros = np.zeros
            float32 = np.float32

            def array(view: Mapping[str, Any]) -> np.ndarray:
                out = zeros(size, float32)
                write(view, out)
                return out

            def into(view: Mapping[str, Any], out: np.ndarray) -> None:
                out.fill(0.0)
                write(view, out)

            self.array, self.into = array, into
            if entry.state_tensor_writer is None:
                self._from_views()
                return
            write_state = entry.state_tensor_writer(game)

            def state_array(state: State, seat: int | None) -> np.ndarray:
                out = zeros(size, float32)
                write_state(state, seat, out)
                return out

            def state_into(state: State, seat: int | None, out: np.ndarray) -> None:
                out.fill(0.0)
                write_state(state, seat, out)

            self.state_array, self.state_into = state_array, state_into
            return

        def from_list(view: Mapping[str, Any]) -> np.ndarray:
            out = np.array(hook(game, view), dtype=np.float32)
            if out.shape != (size,):
                raise ValueError(f"{gid}: tensor hook gave {out.size} values, tensor_size says {size}")
            return out

        self.array, self.into = from_list, self._copy_into
        self._from_views()

    def _copy_into(self, view: Mapping[str, Any], out: np.ndarray) -> None:
        out[:] = self.array(view)

    def _from_views(self) -> None:
        """No state writer: a state is encoded through its view."""
        array, into = self.array, self.into
        self.state_array = lambda state, seat: array(state.view(seat))
        self.state_into = lambda state, seat, out: into(state.view(seat), out)


# One encoder per game object: the hook, the size and the writer's tables made once, not at every observation.
_encoders: weakref.WeakKeyDictionary[Game, _Encoder] = weakref.WeakKeyDictionary()


def _encoder(game: Game) -> _Encoder:
    try:
        encoder = _encoders.get(game)
    except TypeError:  # a game object that can't be weakly referenced or hashed: no cache
        return _Encoder(game)
    if encoder is None:
        encoder = _encoders[game] = _Encoder(game)
    return encoder


def encode_array(game: Game, view: Mapping[str, Any]) -> np.ndarray:
    """:func:`encode_view` as a new float32 NumPy array (what every adapter hands out).

    The game's ``tensor_writer`` fills it when the game has one (the fast path),
    else the list of its ``tensor`` hook (or the generic encoding) is converted;
    either way the values are those of :func:`encode_view` as float32. The
    registry entry, the size and the writer's tables are made once per game object.

    >>> from ziggurat.core.registry import make_game
    >>> game = make_game("kuhnah", 2)
    >>> view = game.new_initial_state().view(0)
    >>> encode_array(game, view).tolist() == encode_view(game, view)
    True
    """
    return _encoder(game).array(view)


def encode_into(game: Game, view: Mapping[str, Any], out: np.ndarray) -> None:
    """Write :func:`encode_array` of ``view`` into ``out``, a float32 vector of ``tensor_size(game)``.

    With the game's ``tensor_writer`` no new array is made (OpenSpiel's observers fill theirs).

    >>> from ziggurat.core.registry import make_game
    >>> game = make_game("kuhnah", 2)
    >>> view = game.new_initial_state().view(0)
    >>> out = np.ones(tensor_size(game), np.float32)
    >>> encode_into(game, view, out)
    >>> out.tolist() == encode_view(game, view)
    True
    """
    encoder = _encoder(game)
    if out.shape != (encoder.size,) or out.dtype != np.float32:
        raise ValueError(
            f"{game.spec.id}: the buffer is {out.dtype} {out.shape}, the encoding float32 ({encoder.size},)"
        )
    encoder.into(view, out)


def encode_state(game: Game, state: State, seat: int | None) -> np.ndarray:
    """:func:`encode_array` of ``state.view(seat)`` (``None``: a spectator), a new float32 array.

    Written straight from the state by the game's ``state_tensor_writer`` when
    it has one (no view is built; it reads only what the view shows), else
    through the view.

    >>> from ziggurat.core.registry import make_game
    >>> game = make_game("pyramix", 2)
    >>> state = game.new_initial_state()
    >>> encode_state(game, state, 0).tolist() == encode_view(game, state.view(0))
    True
    """
    return _encoder(game).state_array(state, seat)


def encode_state_into(game: Game, state: State, seat: int | None, out: np.ndarray) -> None:
    """:func:`encode_state` written into ``out``, a float32 vector of ``tensor_size(game)``."""
    encoder = _encoder(game)
    if out.shape != (encoder.size,) or out.dtype != np.float32:
        raise ValueError(
            f"{game.spec.id}: the buffer is {out.dtype} {out.shape}, the encoding float32 ({encoder.size},)"
        )
    encoder.state_into(state, seat, out)


def action_mask(legal: list[int], num_actions: int) -> np.ndarray:
    """A new int8 vector of ``num_actions`` with a 1 at each id in ``legal``.

    >>> action_mask([0, 2], 4).tolist()
    [1, 0, 1, 0]
    """
    if len(legal) > 24:
        mask = np.zeros(num_actions, dtype=np.int8)
        mask[legal] = 1
        return mask
    # a few ids: set bytes one by one (NumPy's fancy indexing costs more for a short list)
    buffer = bytearray(num_actions)
    for a in legal:
        buffer[a] = 1
    return np.frombuffer(buffer, dtype=np.int8)


def generic_encoding(view: Mapping[str, Any], size: int = GENERIC_TENSOR_SIZE) -> list[float]:
    """Hash the flattened view into ``size`` buckets (see the module docstring)."""
    out = [0.0] * size
    _flatten(view, "", out, size)
    return out


def _bucket(key: str, size: int) -> int:
    return zlib.crc32(key.encode()) % size


def _flatten(value: Any, path: str, out: list[float], size: int) -> None:
    if isinstance(value, Mapping):
        for k in sorted(value, key=str):
            _flatten(value[k], f"{path}/{k}", out, size)
    elif isinstance(value, list | tuple):
        out[_bucket(path + "#len", size)] += float(len(value))
        for i, item in enumerate(value):
            _flatten(item, f"{path}/{i}", out, size)
    elif isinstance(value, bool):
        if value:
            out[_bucket(path, size)] += 1.0
    elif isinstance(value, int | float):
        out[_bucket(path, size)] += float(value)
    else:
        out[_bucket(f"{path}={value}", size)] += 1.0


_NUMPY_INTS = frozenset({np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64})


def action_id(action: Any) -> int:
    """An agent's action as a plain int: a Python or NumPy integer, or an array holding one integer.

    Anything else (a float, a bool, a text, an array of several values) is a
    ParseActionError, raised before the environment changes anything.

    >>> import numpy as np
    >>> action_id(3), action_id(np.int64(3)), action_id(np.array([3]))
    (3, 3, 3)
    """
    if type(action) is int:
        return action
    if type(action) in _NUMPY_INTS:  # what np.flatnonzero(mask)[i] gives: the common case of a masked pick
        return int(action)
    if hasattr(action, "dtype") and hasattr(action, "size"):  # a NumPy array or scalar
        if action.size != 1 or action.dtype.kind not in "iu":
            raise ParseActionError(f"an action is one whole number, not {action!r}")
        return int(action.reshape(()).item()) if hasattr(action, "reshape") else int(action)
    if isinstance(action, bool) or not isinstance(action, int):
        raise ParseActionError(f"an action is one whole number, not {action!r}")
    return int(action)


def check_seed(seed: Any) -> int | None:
    """A seed given to ``reset``: ``None`` or a whole number from 0 (a ConfigError otherwise)."""
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        if isinstance(seed, np.integer) and seed >= 0:
            return int(seed)
        raise ConfigError(f"a seed is a whole number from 0, not {seed!r}")
    return seed
