"""Reading documents from outside (files, requests, messages) within limits, with one clear error.

Everything Ziggurat parses from a file or a string that someone else may have
written — game records, sealed saves, saved states, run descriptions, HTTP
bodies and WebSocket messages — goes through :func:`load_json`, and content
files (TOML) through :func:`check_document`. Both refuse, with a
:class:`~ziggurat.core.errors.DocumentError` that names the source, what
Python's own parsers would turn into a traceback or into work without end:

* more than :data:`MAX_BYTES` bytes (or the ``max_bytes`` given);
* lists and objects nested more than :data:`MAX_DEPTH` deep (``'[' * 100000``
  is a ``RecursionError`` in ``json.loads``, and code that walks a document,
  copies or prints it, recurses as deep as it goes);
* an integer of more than :data:`MAX_INT_DIGITS` digits (Python refuses to read
  one of 4,300 digits with a ``ValueError``; a smaller giant still costs time
  wherever it is used), and a number that is not finite (``NaN``,
  ``Infinity``, ``1e999``), which no document of ours holds;
* text that is not Unicode: bytes that are not UTF-8, a lone surrogate
  (``"\\ud800"``, which JSON lets through and every later ``encode`` trips on).

Real documents are far inside these limits (a record is a few levels deep and
a few KiB), so the limits are generous; a caller that knows its documents are
smaller (an HTTP body) passes a tighter ``max_bytes``.

>>> load_json('{"game": "kuhnah", "players": 2}', "record")
{'game': 'kuhnah', 'players': 2}
>>> load_json('[' * 100000 + ']' * 100000, "x.json")
Traceback (most recent call last):
...
ziggurat.core.errors.DocumentError: x.json: nested more than 64 levels deep (lists and objects)
>>> load_json('{"seed": ' + '9' * 5000 + '}', "x.json")
Traceback (most recent call last):
...
ziggurat.core.errors.DocumentError: x.json: holds a number of more than 100 digits
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from ziggurat.core.errors import DocumentError

MAX_BYTES = 1 << 20
"""The largest document read by default (1 MiB, the limit of files read as records or content)."""

MAX_DEPTH = 64
"""How deep lists and objects may nest (a record is 3 levels deep, a saved state or a player's export under 10)."""

MAX_INT_DIGITS = 100
"""The most digits an integer may have (a seed has at most 20)."""

INT64 = (-(1 << 63), (1 << 63) - 1)
"""The range of integers TOML promises (:func:`check_document` with ``int64=True``)."""

_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abcdefABCDEF]")
_INF = math.inf


class _Refused(Exception):
    """Raised inside the JSON parser's hook; turned into a DocumentError."""


def _parse_constant(name: str) -> Any:
    raise _Refused(f"holds {name}, which is not a JSON number")


def load_json(text: str | bytes, source: str, max_depth: int = MAX_DEPTH, max_bytes: int = MAX_BYTES) -> Any:
    """The JSON value in ``text`` (UTF-8 bytes or a string), read within the limits of this module.

    ``source`` names the document in errors (a path, "request body"). Anything
    that is not a JSON document within ``max_bytes`` bytes and ``max_depth``
    levels of nesting, with every integer at most :data:`MAX_INT_DIGITS` digits
    long, every number finite and every string Unicode text, is a
    :class:`~ziggurat.core.errors.DocumentError` whose message says what was wrong.

    >>> load_json(b'[1, 2.5, "three", null]', "list")
    [1, 2.5, 'three', None]
    """
    if isinstance(text, bytes | bytearray | memoryview):
        raw = bytes(text)
        _check_size(len(raw), source, max_bytes)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise DocumentError(source, "not UTF-8 text") from None
    elif not isinstance(text, str):
        raise DocumentError(source, f"not text (a {type(text).__name__})")
    elif not text.isascii():  # a string made elsewhere may hold lone surrogates (surrogateescape)
        try:
            size = len(text.encode("utf-8"))
        except UnicodeEncodeError:
            raise DocumentError(source, "holds text that is not Unicode (a lone surrogate)") from None
        _check_size(size, source, max_bytes)
    else:
        _check_size(len(text), source, max_bytes)
    try:
        data = json.loads(text, parse_constant=_parse_constant)
    except _Refused as exc:
        raise DocumentError(source, str(exc)) from None
    except RecursionError:
        raise DocumentError(source, _too_deep(max_depth)) from None
    except json.JSONDecodeError as exc:
        raise DocumentError(source, f"invalid JSON ({exc})") from None
    except ValueError:  # Python reads no integer of more than 4,300 digits (sys.get_int_max_str_digits)
        raise DocumentError(source, _too_long(None)) from None
    # strings need a look only if the text escapes a surrogate: JSON text that is UTF-8 holds no other way to one
    check_document(data, source, max_depth, surrogates=_SURROGATE_ESCAPE.search(text) is not None)
    return data


def check_document(
    data: Any, source: str, max_depth: int = MAX_DEPTH, int64: bool = False, surrogates: bool = True
) -> None:
    """Refuse a parsed document (JSON or TOML) that :func:`load_json` would refuse.

    That is: lists and objects nested more than ``max_depth`` deep, an integer
    of more than :data:`MAX_INT_DIGITS` digits (or, with ``int64``, outside
    :data:`INT64`), a number that is not finite, and, if ``surrogates``, text
    holding a lone surrogate. The document is walked level by level, without
    recursion; a DocumentError names ``source``.

    >>> check_document({"a": [[[]]]}, "doc", max_depth=3)
    Traceback (most recent call last):
    ...
    ziggurat.core.errors.DocumentError: doc: nested more than 3 levels deep (lists and objects)
    """
    low, high = INT64 if int64 else (1 - 10**MAX_INT_DIGITS, 10**MAX_INT_DIGITS - 1)
    odd: list[Any] = [data]  # what needs a closer look: containers, and leaves other than text and small integers
    depth = 0
    while True:
        level = []
        for v in odd:
            kind = type(v)
            if kind is dict or kind is list or kind is tuple:
                level.append(v)
            elif isinstance(v, bool) or v is None:
                pass
            elif isinstance(v, int):
                if not low <= v <= high:
                    raise DocumentError(source, f"holds an integer outside {low} .. {high}" if int64 else _too_long(v))
            elif isinstance(v, float):
                if not -_INF < v < _INF:
                    raise DocumentError(source, "holds a number that is not finite (nan or inf)")
            elif isinstance(v, str):
                try:
                    v.encode("utf-8")
                except UnicodeEncodeError:
                    raise DocumentError(source, "holds text that is not Unicode (a lone surrogate)") from None
        if not level:
            return
        depth += 1
        if depth > max_depth:
            raise DocumentError(source, _too_deep(max_depth))
        # a comprehension per container rather than a call per leaf: checking costs about what parsing does
        odd = []
        for container in level:
            if type(container) is dict:
                if surrogates:
                    odd += container.keys()
                items: Any = container.values()
            else:
                items = container
            if surrogates:
                odd += [v for v in items if not (type(v) is int and low <= v <= high)]
            else:
                odd += [v for v in items if type(v) is not str and not (type(v) is int and low <= v <= high)]


def _too_long(value: int | None) -> str:
    if value is not None:
        try:
            return f"holds a number of {len(str(abs(value)))} digits (at most {MAX_INT_DIGITS})"
        except ValueError:  # too long for str() itself (sys.get_int_max_str_digits)
            pass
    return f"holds a number of more than {MAX_INT_DIGITS} digits"


def _check_size(size: int, source: str, max_bytes: int) -> None:
    if size > max_bytes:
        raise DocumentError(source, f"too large ({size} bytes; at most {max_bytes})")


def _too_deep(max_depth: int) -> str:
    return f"nested more than {max_depth} levels deep (lists and objects)"
