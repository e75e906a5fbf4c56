"""One package per game; each exposes ``ENTRY``, and :func:`entries` finds them all.

:func:`entries` is the ``ziggurat.games`` entry point (``pyproject.toml``) through
which the registry finds the built-in games, so adding a game touches only its
own folder.
"""

from __future__ import annotations

import importlib
import pkgutil

from ziggurat.core.registry import GameEntry


def entries() -> list[GameEntry]:
    """The ``ENTRY`` of every game package here, by package name."""
    found = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.ispkg:
            entry = getattr(importlib.import_module(f"{__name__}.{info.name}"), "ENTRY", None)
            if isinstance(entry, GameEntry):
                found.append(entry)
    return found
