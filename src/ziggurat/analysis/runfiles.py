"""The files of a batch run while it runs: rows written as games finish, and what is needed to resume.

A run writes each finished game to its CSV at once (the file grows during the
run, flushed after every batch), next to a small JSON file that describes the
run (game, players, options, bots, games, seed...). If the run is stopped, the
CSV holds every game that finished; ``--resume`` reads both, plays only the
missing games (every game's seed depends on its index alone) and writes the
whole CSV again in index order, so the result is the same as an uninterrupted run.
"""

from __future__ import annotations

import csv
import io
import json
import os
import signal
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from ziggurat.core.content import read_limited
from ziggurat.core.documents import load_json
from ziggurat.core.errors import DocumentError, ZigguratError

RUN_FORMAT = "ziggurat-run"
RUN_VERSION = 1
TEXT_COLUMNS = ("setup", "winners", "end")  # and every column ending in "_bot"


class RowLog:
    """A CSV that grows by whole rows: header with the first row, flushed after every batch."""

    def __init__(self, path: Path, rows: Sequence[Mapping[str, Any]] = ()):
        self.path = path
        self._file: IO[str] | None = None
        self._writer: csv.DictWriter[str] | None = None
        self.count = 0
        write_rows(path, rows)  # start from what is already done (a resumed run)
        if rows:
            self._open(list(rows[0]))

    def _open(self, fields: list[str]) -> None:
        new = not self.path.exists() or self.path.stat().st_size == 0
        self._file = self.path.open("a", newline="", encoding="utf-8")
        self._writer = csv.DictWriter(self._file, fieldnames=fields)
        if new:
            self._writer.writeheader()

    def add(self, rows: Iterable[Mapping[str, Any]]) -> None:
        """Append ``rows`` and flush them to disk (Ctrl-C waits: rows are written whole, and counted)."""
        rows = list(rows)
        if not rows:
            return
        with sigint_deferred():
            if self._writer is None:
                self._open(list(rows[0]))
            assert self._writer is not None and self._file is not None
            self._writer.writerows(rows)
            self._file.flush()
            os.fsync(self._file.fileno())
            self.count += len(rows)

    def close(self) -> None:
        """Close the file (rows already written stay)."""
        if self._file is not None:
            self._file.close()
            self._file = None
            self._writer = None


def write_rows(path: Path, rows: Sequence[Mapping[str, Any]]) -> None:
    """Write ``rows`` as the whole CSV (atomically: a stop never leaves half a file)."""
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", newline="", encoding="utf-8") as f:
        if rows:
            fields: list[str] = []
            for r in rows:
                for k in r:
                    if k not in fields:
                        fields.append(k)
            w = csv.DictWriter(f, fieldnames=fields)
            w.writeheader()
            w.writerows(rows)
    tmp.replace(path)


def _value(column: str, text: str) -> Any:
    if column in TEXT_COLUMNS or column.endswith("_bot"):
        return text
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


def read_rows(path: Path) -> list[dict[str, Any]]:
    """The rows of a run's CSV with their types back (numbers as numbers).

    A last line cut short (the machine stopped mid-write) is left out: its game is played again.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError) as exc:
        raise ZigguratError(f"cannot read the finished games in {path}: {exc}") from None
    if not text.endswith("\n"):
        text = text[: text.rfind("\n") + 1]
    try:
        return [{k: _value(k, v) for k, v in row.items()} for row in csv.DictReader(io.StringIO(text, newline=""))]
    except csv.Error as exc:
        raise ZigguratError(f"cannot read the finished games in {path}: {exc}") from None


@contextmanager
def sigint_deferred() -> Iterator[None]:
    """Hold Ctrl-C off while something must finish whole (a write); it takes effect right after."""
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: nothing to hold off
        yield
        return
    pending: list[bool] = []
    signal.signal(signal.SIGINT, lambda *_: pending.append(True))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if pending and callable(previous):
            previous(signal.SIGINT, None)


def save_spec(path: Path, spec: Mapping[str, Any]) -> None:
    """Write the description of a run (what ``--resume`` needs)."""
    path.write_text(json.dumps({"format": RUN_FORMAT, "version": RUN_VERSION, **spec}, indent=1) + "\n")


RUN_FIELDS: dict[str, tuple[type, ...]] = {
    "game": (str,),
    "players": (int,),
    "options": (dict,),
    "bots": (list,),
    "games": (int,),
    "seed": (int,),
    "bot_options": (dict,),
}
"""The fields of every run description and their JSON types (a command may add its own)."""

COMMAND_FIELDS: dict[str, dict[str, tuple[type, ...]]] = {
    "simulate": {"rotate": (bool,), "compare_variants": (bool,)},
}
"""Further fields a command's run description must have."""


def load_spec(path: Path, command: str) -> dict[str, Any]:
    """Read the description of a run of ``command`` (a clear error if there is none or it is not one).

    The file is read as every document from outside is (:func:`~ziggurat.core.documents.load_json`:
    at most 1 MiB, nesting and numbers within limits), and each field must have its type.
    """
    reason = "it must be a readable file of at most 1 MiB"
    if not path.exists():
        raise ZigguratError(f"nothing to resume: {path} does not exist (was the run started with this output?)")
    raw = read_limited(path, lambda: ZigguratError(f"cannot read the run description {path} ({reason})"))
    try:
        data = load_json(raw, str(path))
    except DocumentError as exc:
        raise ZigguratError(f"cannot read the run description {path}: {exc.problem}") from None
    if not isinstance(data, dict) or data.get("format") != RUN_FORMAT or data.get("version") != RUN_VERSION:
        raise ZigguratError(f"{path} is not a run description")
    if data.get("command") != command:
        raise ZigguratError(f"{path} describes a {data.get('command')!r} run, not {command!r}")
    for name, types in {**RUN_FIELDS, **COMMAND_FIELDS.get(command, {})}.items():
        value = data.get(name)
        if not isinstance(value, types) or (int in types and isinstance(value, bool)):
            raise ZigguratError(f"{path} is not a whole run description: {name!r} is missing or not a {_kind(types)}")
    if not data["bots"] or not all(isinstance(b, str) for b in data["bots"]):
        raise ZigguratError(f"{path}: 'bots' must be a list of bot names")
    if not all(isinstance(v, dict) for v in data["bot_options"].values()):
        raise ZigguratError(f"{path}: 'bot_options' must map each bot to its options")
    if "engine" in data and not isinstance(data["engine"], str):
        raise ZigguratError(f"{path}: 'engine' must be a name")
    return data


def _kind(types: tuple[type, ...]) -> str:
    names = {str: "text", int: "whole number", dict: "JSON object", list: "list", bool: "true or false"}
    return " or ".join(names.get(t, t.__name__) for t in types)


def check_done(rows: Sequence[Mapping[str, Any]], expected: Mapping[int, int], path: Path) -> None:
    """Every finished row must be a game of this run (index known, seed as the run gives it)."""
    for row in rows:
        index = row.get("index")
        if not isinstance(index, int) or index not in expected or row.get("seed") != expected[index]:
            raise ZigguratError(f"{path} holds a game that is not part of this run (index {index!r})")
