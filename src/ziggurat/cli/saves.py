"""Terminal saves that hold nothing their player may not see.

A finished game is saved as its plain record (``ziggurat-record``: seed and chance included, as the terminal
shows the seed once a game is over). An unfinished one is a *sealed save* (``ziggurat-save``): the whole
record — the seed, the chance already drawn (a deal, the cards removed unseen), every seat's choices — is
encrypted (Fernet: AES with an HMAC, from ``cryptography``) with a key that stays on this machine, in the
player's data folder, never in the file. Beside it the file keeps what anyone at the table saw (the game,
its options, the seats, how many decisions were made) and, when one person played, what that person saw
(their player record). ``ziggurat play --resume`` opens the seal and goes on with the same game exactly; a
sealed save taken to another machine cannot be opened there (its hidden part cannot be read without the key).

The key: ``$ZIGGURAT_HOME/save.key``, else ``$XDG_DATA_HOME/ziggurat/save.key``, else
``~/.local/share/ziggurat/save.key``; made on first use, readable by its owner only.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ziggurat.core import GameRecord
from ziggurat.core.content import read_limited
from ziggurat.core.documents import load_json
from ziggurat.core.errors import DocumentError, RecordError

SAVE_FORMAT = "ziggurat-save"
SAVE_VERSION = 1
HUMAN = "human"


def key_path() -> Path:
    """Where this machine's key for sealed saves lives."""
    home = os.environ.get("ZIGGURAT_HOME")
    if home:
        return Path(home) / "save.key"
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "ziggurat" / "save.key"


def _key(create: bool) -> bytes | None:
    """This machine's key (made now if ``create`` and there is none; ``None`` if there is none)."""
    from cryptography.fernet import Fernet

    path = key_path()
    try:
        return path.read_bytes().strip()
    except FileNotFoundError:
        if not create:
            return None
    except OSError as exc:
        raise RecordError(f"cannot read the key for saved games at {path}: {exc.strerror or exc}") from None
    key = Fernet.generate_key()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it a moment ago
        return path.read_bytes().strip()
    except OSError as exc:
        raise RecordError(f"cannot keep the key for saved games at {path}: {exc.strerror or exc}") from None
    with os.fdopen(fd, "wb") as f:
        f.write(key + b"\n")
    return key


def save_document(record: GameRecord) -> dict[str, Any]:
    """What ``ziggurat play --save`` writes: the plain record once the game is over, else a sealed save."""
    if record.result is not None:
        return record.to_json()
    from cryptography.fernet import Fernet

    from ziggurat.core.export import player_record

    key = _key(create=True)
    assert key is not None
    try:
        sealer = Fernet(key)
    except ValueError:
        raise RecordError(
            f"the key for saved games at {key_path()} is damaged: move it away and a new one is made (the games "
            "sealed with it can then no longer be opened)"
        ) from None
    humans = [i for i, name in enumerate(record.seats) if name == HUMAN]
    doc: dict[str, Any] = {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "game": record.game,
        "players": record.players,
        "options": record.options,
        "seats": record.seats,
        "decisions": sum(1 for player, _ in record.actions if player >= 0),
        "sealed": sealer.encrypt(record.dumps().encode("utf-8")).decode("ascii"),
    }
    if len(humans) == 1:  # one person played: what they saw is theirs to keep (hot seat: nobody's alone)
        doc["seen"] = player_record(record, humans[0])
    return doc


def write_save(record: GameRecord, path: str | Path) -> None:
    """Write ``record`` to ``path`` as :func:`save_document` says."""
    Path(path).write_text(json.dumps(save_document(record), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def is_sealed(document: Any) -> bool:
    """Whether a parsed document is a sealed save."""
    return isinstance(document, dict) and document.get("format") == SAVE_FORMAT


def read_save(path: str | Path, allow_paths: bool = False) -> tuple[GameRecord, bool]:
    """The record in a file written by ``play --save`` (a sealed save is opened with this machine's key), and
    whether it was sealed. A plain record file reads as :meth:`GameRecord.load` does."""
    raw = read_limited(
        path, lambda: RecordError(f"cannot read {path} as a game record (it must be a readable file of at most 1 MiB)")
    )
    try:
        document = load_json(raw, str(path))
    except DocumentError as exc:
        raise RecordError(f"{path} is not a game record: {exc.problem}") from None
    if not is_sealed(document):
        return GameRecord.from_json(document, source=str(path), allow_paths=allow_paths), False
    return open_seal(document, str(path), allow_paths), True


def open_seal(document: dict[str, Any], source: str, allow_paths: bool = False) -> GameRecord:
    """The full record inside a sealed save (a clear RecordError when this machine cannot open it)."""
    from cryptography.fernet import Fernet, InvalidToken

    if document.get("version") != SAVE_VERSION:
        raise RecordError(f"{source}: saved game version {document.get('version')!r} is not supported")
    sealed = document.get("sealed")
    if not isinstance(sealed, str):
        raise RecordError(f"{source}: the saved game has no sealed part")
    key = _key(create=False)
    where = key_path()
    if key is None:
        raise RecordError(
            f"{source} was saved on another machine (or by another user): its hidden part (cards, deck, dice to "
            f"come) opens only with the key it was saved with, which is not here ({where})"
        )
    try:
        text = Fernet(key).decrypt(sealed.encode("ascii")).decode("utf-8")
    except (InvalidToken, ValueError, UnicodeError):
        raise RecordError(
            f"{source} cannot be opened with this machine's key ({where}): it was saved elsewhere, or changed since"
        ) from None
    record = GameRecord.from_json(text, source=source, allow_paths=allow_paths)
    for name in ("game", "players", "options", "seats"):
        if document.get(name) != getattr(record, name):
            raise RecordError(f"{source}: its {name!r} does not match the sealed game (the file was changed)")
    return record


def human_seats(record: GameRecord) -> list[int]:
    """The seats people played (named ``human``) in a saved game."""
    return [i for i, name in enumerate(record.seats) if name == HUMAN]
