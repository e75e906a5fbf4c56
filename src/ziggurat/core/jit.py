"""Compiled helpers shared by the games' kernels: a seeded RNG, ranks, trace buffers.

Imports numba, so only kernels (``games/<id>/kernel.py``) and the ``fast``
driver import it; the rest of the package never does.

The RNG is SplitMix64 with its state in a one-element ``uint64`` array, one
stream per game seeded from that game's seed alone, so a game's moves don't
depend on the batch it was played in. :func:`game_seeds` derives per-game seeds
from a run seed and game indices.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit

F = TypeVar("F", bound=Callable[..., Any])


def jit(fn: F) -> F:
    """Compile ``fn`` with numba (no Python objects, cached on disk so a new process doesn't recompile)."""
    return cast(F, njit(cache=True)(fn))


def jit_inline(fn: F) -> F:
    """As :func:`jit`, and inlined into its callers (for the small helpers of the inner loops)."""
    return cast(F, njit(cache=True, inline="always")(fn))


_LEAF: dict[str, Any] = {"cache": True, "_nrt": False}


def jit_leaf(fn: F) -> F:
    """As :func:`jit`, for a function that allocates nothing: it only reads and writes the arrays it is given.

    Compiled without numba's reference counting (``_nrt=False``). Otherwise every
    call with array arguments costs an atomic increment and decrement per array,
    which dominated Kukulkán's inner loop (a legal-action helper with twenty
    arrays, called at every step). A leaf may call other leaves and
    :func:`jit_inline` helpers; allocating (``np.zeros``, :func:`record_step`)
    fails to compile, so the caller allocates and hands the arrays in.
    """
    return cast(F, njit(**_LEAF)(fn))


GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_SEED_MASK = np.uint64((1 << 53) - 1)
_TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53


@jit_inline
def mix64(z: np.uint64) -> np.uint64:
    """SplitMix64's finaliser: a bijective scramble of 64 bits."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@jit_inline
def seed_rng(rng: np.ndarray, seed: np.uint64) -> None:
    """Start the stream of ``rng`` (a uint64[1] array) from ``seed``."""
    rng[0] = mix64(np.uint64(seed) ^ GOLDEN)


@jit_inline
def below(rng: np.ndarray, n: int) -> int:
    """A uniform integer in ``range(n)`` (``n >= 1``), advancing ``rng``."""
    rng[0] += GOLDEN
    u = mix64(rng[0]) >> _S11
    return int(u * _TO_UNIT * n)


# lowest set bit of a 64-bit mask: de Bruijn multiplication (Leiserson, Prokop, Randall 1998)
_DE_BRUIJN = np.int64(0x03F79D71B4CB0A89)
_S58 = np.int64(58)
_BIT_INDEX = np.zeros(64, np.int64)
for _i in range(64):
    _BIT_INDEX[(((1 << _i) * 0x03F79D71B4CB0A89) & ((1 << 64) - 1)) >> 58] = _i


@jit_inline
def low_bit(mask: np.int64) -> int:
    """Index of the lowest set bit of ``mask`` (an int64, not 0; bit 63 too).

    >>> int(low_bit(np.int64(40)))
    3
    """
    low = mask & -mask
    return _BIT_INDEX[((low * _DE_BRUIJN) >> _S58) & 63]


@jit
def game_seeds(run_seed: np.uint64, start: int, count: int) -> np.ndarray:
    """Seeds of games ``start .. start + count - 1`` of a run (53-bit, so they survive JSON and CSV)."""
    out = np.empty(count, np.uint64)
    base = mix64(np.uint64(run_seed) + GOLDEN)
    for i in range(count):
        out[i] = mix64(base + np.uint64(start + i) * GOLDEN) & _SEED_MASK
    return out


@jit_inline
def competition_ranks(keys: np.ndarray, ranks: np.ndarray) -> None:
    """``ranks[p]`` = 1 + how many players have a strictly larger key (ties share; 1, 1, 3)."""
    n = keys.shape[0]
    for p in range(n):
        r = 1
        for q in range(n):
            if keys[q] > keys[p]:
                r += 1
        ranks[p] = r


@jit
def grow(buf: np.ndarray, need: int) -> np.ndarray:
    """``buf`` if it holds ``need`` items, else a copy at least twice as long."""
    if need <= buf.shape[0]:
        return buf
    size = max(need, 2 * buf.shape[0])
    new = np.empty(size, buf.dtype)
    new[: buf.shape[0]] = buf
    return new


@jit_inline
def put_step(
    actors: np.ndarray,
    actions: np.ndarray,
    offsets: np.ndarray,
    legal: np.ndarray,
    step: int,
    actor: int,
    action: int,
    choices: np.ndarray,
    count: int,
) -> bool:
    """:func:`record_step` into buffers that never grow (for :func:`jit_leaf` code); False if they are full.

    The caller plays on without recording and tries again with larger buffers
    (the game of a seed is the same every time).
    """
    start = offsets[step] if step < offsets.shape[0] else 0
    if step + 1 >= offsets.shape[0] or start + count > legal.shape[0]:
        return False
    actors[step] = actor
    actions[step] = action
    for i in range(count):
        legal[start + i] = choices[i]
    offsets[step + 1] = start + count
    return True


@jit
def record_step(
    actors: np.ndarray,
    actions: np.ndarray,
    offsets: np.ndarray,
    legal: np.ndarray,
    step: int,
    actor: int,
    action: int,
    choices: np.ndarray,
    count: int,
) -> np.ndarray:
    """Write step ``step`` of a trace (its legal set is ``choices[:count]``); returns the legal buffer."""
    actors[step] = actor
    actions[step] = action
    start = offsets[step]
    legal = grow(legal, start + count)
    legal[start : start + count] = choices[:count]
    offsets[step + 1] = start + count
    return legal
