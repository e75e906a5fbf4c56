"""Doctest collection: skip the adapters whose optional library (extras ``rl``, ``train``) is missing."""

from __future__ import annotations

import importlib.util

_NEEDS = {
    "openspiel.py": "pyspiel",
    "pettingzoo.py": "pettingzoo",
    "gymnasium.py": "gymnasium",
    "sb3.py": "sb3_contrib",
}

collect_ignore = [module for module, lib in _NEEDS.items() if importlib.util.find_spec(lib) is None]
