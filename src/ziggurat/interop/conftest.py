"""Doctest collection: skip the adapters whose optional library (extra ``rl``) is missing."""

from __future__ import annotations

import importlib.util

_NEEDS = {"openspiel.py": "pyspiel", "pettingzoo.py": "pettingzoo", "gymnasium.py": "gymnasium"}

collect_ignore = [module for module, lib in _NEEDS.items() if importlib.util.find_spec(lib) is None]
