"""Adapters to research tools (optional extra ``rl``).

* :mod:`ziggurat.interop.openspiel` registers every game with ``pyspiel`` as ``python_<id>``.
* :mod:`ziggurat.interop.pettingzoo` offers ``env(...)`` (AEC) and ``parallel_env(...)``.
* :mod:`ziggurat.interop.gymnasium` offers :class:`~ziggurat.interop.gymnasium.ZigguratEnv`.
* :mod:`ziggurat.interop.encoding` turns a view into a fixed-length tensor (no extra needed).

Import the submodule you need; this package imports none of the optional libraries.
"""
