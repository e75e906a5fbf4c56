"""Seeds derived one way from a secret root: independent streams for chance, bots and determinisations.

A game's chance stream and every bot's random stream come from one root seed, but
through a one-way hash with a label per stream, so that knowing a bot's seed (or
a determinisation's) tells nothing about the chance stream: a bot handed its
seed cannot rebuild the deck.

>>> derive_seed(7, "chance", 0) == derive_seed(7, "chance", 0)
True
>>> derive_seed(7, "bot", 1, 0) != derive_seed(7, "chance", 0)
True
"""

from __future__ import annotations

import hashlib
import random


def derive_seed(*parts: object) -> int:
    """A 64-bit seed derived one way (SHA-256) from ``parts``, the root seed first."""
    digest = hashlib.sha256("/".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def derived_rng(*parts: object) -> random.Random:
    """A private RNG seeded by :func:`derive_seed`."""
    return random.Random(derive_seed(*parts))


_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def mix64(x: int) -> int:
    """SplitMix64's finaliser: a fast bijective scramble of 64 bits (not one-way: use it below a hash)."""
    z = x & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def stream_seed(key: int, n: int) -> int:
    """The seed of stream ``n`` under ``key`` (itself from :func:`derive_seed`): cheap, one per decision.

    Only ``key`` needs to be one way from the root: knowing these seeds gives
    back at most ``key``, never the root or another stream's key.
    """
    return mix64(key + (n + 1) * _GOLDEN)
