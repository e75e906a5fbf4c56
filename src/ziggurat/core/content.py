"""Reading content files (cards, cubes, tiles, sheets) shipped with a game or given by a user.

Each game validates its own content; this module does the part every game
shares: finding the file, reading it, and decoding TOML, with errors that name
the file (:class:`~ziggurat.core.errors.ContentError`).
"""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from ziggurat.core.errors import ContentError


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
    try:
        return Path(path).read_bytes(), source
    except OSError as exc:
        raise ContentError(source, f"cannot read the {what} ({exc.strerror})") from None


def parse_toml(raw: bytes, source: str) -> dict[str, Any]:
    """Decode TOML bytes; a ContentError naming ``source`` if they are not UTF-8 TOML."""
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ContentError(source, "is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(source, f"is not valid TOML ({exc})") from None
