"""A small TOML writer for the fuzz tests (every table inline: any JSON-like document, one key per line)."""

from __future__ import annotations

import json
import math
from typing import Any

INT64 = 2**63


def _string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _value(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value) if -INT64 <= value < INT64 else _string(str(value))
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list):
        items = [v for v in (_value(x) for x in value) if v is not None]
        return "[" + ", ".join(items) + "]"
    if isinstance(value, dict):
        pairs = [(k, _value(v)) for k, v in value.items()]
        return "{" + ", ".join(f"{_string(str(k))} = {v}" for k, v in pairs if v is not None) + "}"
    raise TypeError(value)


def dumps(doc: dict[str, Any]) -> str:
    """``doc`` as TOML text (``None`` values are left out: TOML has no null)."""
    lines = []
    for key, value in doc.items():
        text = _value(value)
        if text is not None:
            lines.append(f"{_string(str(key))} = {text}")
    return "\n".join(lines) + "\n"
