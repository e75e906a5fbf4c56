"""Hypothesis strategies that damage JSON-like documents a little (one leaf, one key, one list item)."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

JSON_LEAF = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 70),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
)
JSON = st.recursive(
    JSON_LEAF,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=8,
)


def paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside ``doc`` (the root excluded)."""
    out = []
    if isinstance(doc, dict):
        for k, v in doc.items():
            out.append((*prefix, k))
            out += paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out.append((*prefix, i))
            out += paths(v, (*prefix, i))
    return out


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        doc = doc[p]
    return doc


def _nudge(value: Any, delta: int) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + delta
    if isinstance(value, float):
        return value + delta / 2
    if isinstance(value, str):
        return value[:-1] if value and delta < 0 else value + "x"
    return value


@st.composite
def damaged(draw: st.DrawFn, doc: Any, times: int = 2) -> Any:
    """``doc`` with one to ``times`` small damages: a leaf replaced or nudged, a key or item dropped or doubled."""
    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(1, times))):
        where = paths(doc)
        if not where:
            return doc
        path = draw(st.sampled_from(where))
        parent = _get(doc, path[:-1])
        key = path[-1]
        how = draw(st.sampled_from(["replace", "nudge", "nudge", "drop", "double", "swap"]))
        if how == "replace":
            parent[key] = draw(JSON)
        elif how == "nudge":
            parent[key] = _nudge(parent[key], draw(st.sampled_from([-1, 1, 2, -2, 7])))
        elif how == "drop":
            del parent[key]
        elif how == "double" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
        elif how == "swap" and isinstance(parent, list) and len(parent) > 1:
            other = draw(st.integers(0, len(parent) - 1))
            parent[key], parent[other] = parent[other], parent[key]
    return doc
