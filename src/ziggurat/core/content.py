"""Reading content files (cards, cubes, tiles, sheets) shipped with a game or given by a user.

Each game validates its own content; this module does the part every game
shares: finding the file, reading it, and decoding TOML, with errors that name
the file (:class:`~ziggurat.core.errors.ContentError`).
"""

from __future__ import annotations

import os
import stat
import tomllib
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

from ziggurat.core.documents import MAX_BYTES, MAX_DEPTH, MAX_INT_DIGITS, check_document
from ziggurat.core.errors import ContentError, DocumentError


def read_content(package: str, name: str, path: str | Path | None, what: str) -> tuple[bytes, str]:
    """The bytes and source name of a content file.

    ``path`` is the user's file; without it, the file ``data/<name>`` shipped in
    ``package`` is read. ``what`` names the content in errors ("the card list").

    >>> raw, source = read_content("ziggurat.games.kuhnah", "cards.toml", None, "card list")
    >>> source
    'kuhnah/data/cards.toml'
    """
    if path is None:
        raw = resources.files(package).joinpath(f"data/{name}").read_bytes()
        return raw, f"{package.rsplit('.', 1)[-1]}/data/{name}"
    source = str(path)
    reason = f"cannot read the {what} (it must be a readable file of at most {MAX_FILE_BYTES // 1024} KiB)"
    return read_limited(path, lambda: ContentError(source, reason)), source


MAX_FILE_BYTES = MAX_BYTES
"""The largest file read as content, a record or a state (1 MiB: the real ones are a few KiB)."""


def read_limited(path: str | Path, error: Callable[[], Exception]) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most :data:`MAX_FILE_BYTES`.

    Anything else (missing, a folder, a device, a pipe, too big, unreadable)
    raises ``error()``, one error for every case, so an error
    never tells whether a path exists. The file is opened without following
    it into a FIFO or device: its type is checked on the open descriptor.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except (OSError, ValueError, TypeError):
        raise error() from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_FILE_BYTES:
            raise error()
        with os.fdopen(fd, "rb", closefd=False) as f:
            raw = f.read(MAX_FILE_BYTES + 1)
    except OSError:
        raise error() from None
    finally:
        os.close(fd)
    if len(raw) > MAX_FILE_BYTES:
        raise error()
    return raw


def parse_toml(raw: bytes, source: str) -> dict[str, Any]:
    """Decode TOML bytes; a ContentError naming ``source`` if they are not UTF-8 TOML within the limits
    of :func:`~ziggurat.core.documents.check_document` (nesting, integers of 64 bits as TOML says)."""
    if len(raw) > MAX_FILE_BYTES:
        raise ContentError(source, f"is too large ({len(raw)} bytes; at most {MAX_FILE_BYTES})")
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ContentError(source, "is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(source, f"is not valid TOML ({exc})") from None
    except RecursionError:  # tomllib recurses once per level of nesting
        raise ContentError(source, f"nested more than {MAX_DEPTH} levels deep (lists and objects)") from None
    except ValueError:  # an integer of more digits than Python reads (sys.get_int_max_str_digits)
        raise ContentError(source, f"holds a number of more than {MAX_INT_DIGITS} digits") from None
    try:
        check_document(data, source, int64=True, surrogates=False)  # TOML text has no lone surrogates
    except DocumentError as exc:
        raise ContentError(source, exc.problem) from None
    return data
