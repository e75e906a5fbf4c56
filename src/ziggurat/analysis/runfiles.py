"""The files of a batch run while it runs: games written as they finish, and what is needed to resume.

A run writes its games to ``games.csv`` (or ``games.parquet`` with ``--format
parquet``) batch by batch as they finish, from columns
(:class:`~ziggurat.analysis.columns.GameTable`, never a dict per game), next to
a small JSON file that describes the run (game, players, options, bots, games,
seed...). If the run is stopped, the file holds every batch that finished;
``--resume`` reads both (in batches, so a run of millions of games stays in
bounded memory), plays only the missing games (every game's seed depends on its
index alone) and leaves the file in index order, so the result is the same as
an uninterrupted run.

A CSV is flushed after every batch and a last line cut short (the machine
stopped mid-write) is dropped on resume. A Parquet file gets its footer when
the run stops (Ctrl-C included); one cut short by a hard kill cannot be read,
and its games are played again.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import os
import signal
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np

from ziggurat.analysis.columns import TEXT_COLUMNS, GameTable, csv_header, csv_text, is_text, text_array
from ziggurat.core.content import read_limited
from ziggurat.core.documents import load_json
from ziggurat.core.errors import DocumentError, ZigguratError

RUN_FORMAT = "ziggurat-run"
RUN_VERSION = 1
GAME_FORMATS = ("csv", "parquet")
READ_BATCH = 16_384
SYNC_EVERY = 1.0  # seconds between two fsyncs of a growing CSV
__all__ = [
    "GAME_FORMATS",
    "TEXT_COLUMNS",
    "Encoded",
    "FileOrder",
    "GameLog",
    "encode",
    "read_games",
    "read_rows",
    "write_games",
    "write_rows",
]


def games_path(out: Path, fmt: str) -> Path:
    """The games file of a run folder: ``games.csv`` or ``games.parquet``."""
    check_format(fmt)
    return out / f"games.{fmt}"


def check_format(fmt: str) -> None:
    """A clear error for an unknown games format, or Parquet without pyarrow."""
    if fmt not in GAME_FORMATS:
        raise ZigguratError(f"unknown format {fmt!r} (formats: {', '.join(GAME_FORMATS)})")
    if fmt == "parquet":
        import_pyarrow()


def import_pyarrow() -> Any:
    """Import pyarrow (with its Parquet module), or explain how to get it."""
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise ZigguratError(
            "--format parquet needs pyarrow: install the parquet extra (pip install 'ziggurat[parquet]')"
        ) from None
    return pyarrow


def arrow_table(table: GameTable) -> Any:
    """``table`` as a pyarrow Table (text as strings, numbers as they are)."""
    pa = import_pyarrow()
    return pa.table({k: pa.array(c, type=pa.string() if is_text(k) else None) for k, c in table.columns.items()})


def from_arrow(batch: Any) -> GameTable:
    """A pyarrow Table or RecordBatch as a :class:`GameTable`."""
    cols = {}
    for name, column in zip(batch.schema.names, batch.columns, strict=True):
        values = column.to_numpy(zero_copy_only=False)
        cols[name] = text_array(values) if is_text(name) else values
    return GameTable(cols)


@dataclass
class FileOrder:
    """What a games file's order is: its columns, highest index, and whether indices increase throughout."""

    names: list[str] | None = None
    last: int = -1
    ordered: bool = True

    def note(self, table: GameTable) -> None:
        """Take the next rows of the file into account."""
        if self.names is None and table.names:
            self.names = table.names
        if len(table) and "index" in table:
            index = table["index"]
            if int(index[0]) <= self.last or (len(index) > 1 and bool(np.any(np.diff(index) <= 0))):
                self.ordered = False
            self.last = max(self.last, int(index.max()))


@dataclass
class Encoded:
    """A batch of games made ready to write (by the worker that played them, so the main process only writes).

    ``text``: the CSV lines; ``arrow``: a pyarrow Table; ``table``: the columns
    themselves when neither was made. ``first``/``last``: the lowest and highest
    index; ``ordered``: whether the indices increase row by row.
    """

    count: int
    names: list[str]
    first: int = -1
    last: int = -1
    ordered: bool = True
    text: str | None = None
    arrow: Any = None
    table: Any = None


def encode(table: GameTable, fmt: str | None) -> Encoded:
    """``table`` ready for a games file of format ``fmt`` (None: keep the columns)."""
    batch = Encoded(len(table), table.names)
    if len(table) and "index" in table:
        index = table["index"]
        batch.first, batch.last = int(index.min()), int(index.max())
        batch.ordered = len(index) < 2 or bool(np.all(np.diff(index) > 0))
    if fmt == "csv":
        batch.text = csv_text(table)
    elif fmt == "parquet":
        batch.arrow = arrow_table(table)
    else:
        batch.table = table
    return batch


class GameLog:
    """A games file that grows by whole batches: CSV flushed after each, Parquet one row group each.

    ``keep``: go on from the file there is (a resumed run; Parquet copies it
    into the new file first); ``known``: its order, when the caller has read it
    already (a CSV is then not read again). :meth:`close` leaves a whole file,
    and in index order if the batches did not come in order (the file is then
    rewritten).
    """

    def __init__(self, path: Path, fmt: str = "csv", keep: bool = False, known: FileOrder | None = None):
        check_format(fmt)
        self.path = path
        self.fmt = fmt
        self.count = 0  # games this log wrote
        self._last = -1  # the highest index in the file
        self._ordered = True
        self._names: list[str] | None = None
        self._file: IO[str] | None = None
        self._writer: Any = None
        self._tmp = path.with_name(path.name + ".tmp")
        self._synced = -SYNC_EVERY
        exists = keep and path.exists() and path.stat().st_size > 0
        if fmt == "csv":
            if exists:
                _trim_partial_line(path)
                if known is None:
                    known = FileOrder()
                    for t in read_games(path, fmt):
                        known.note(t)
                self._names, self._last, self._ordered = known.names, known.last, known.ordered
                if self._names is None:  # a header and no whole game: start the file again
                    path.write_text("", encoding="utf-8")
            else:
                path.write_text("", encoding="utf-8")
        elif exists:
            for t in read_games(path, fmt):
                self._write_parquet(t)
        else:
            path.unlink(missing_ok=True)

    def _note_batch(self, batch: Encoded) -> None:
        if self._names is None:
            self._names = batch.names
        if batch.count:
            if batch.first <= self._last or not batch.ordered:
                self._ordered = False
            self._last = max(self._last, batch.last)

    def _arrange(self, table: GameTable) -> GameTable:
        if self._names is not None and table.names != self._names and set(table.names) == set(self._names):
            return GameTable({k: table[k] for k in self._names})
        return table

    def _write_parquet(self, table: GameTable) -> None:
        self._write_arrow(encode(self._arrange(table), "parquet"))

    def _write_arrow(self, batch: Encoded) -> None:
        pq = import_pyarrow().parquet
        self._note_batch(batch)
        data = batch.arrow
        if self._writer is None:
            self._writer = pq.ParquetWriter(str(self._tmp), data.schema)
        elif data.schema != self._writer.schema:
            data = data.select(self._writer.schema.names).cast(self._writer.schema)
        self._writer.write_table(data)

    def add(self, table: GameTable, text: str | None = None) -> None:
        """Append ``table`` (``text``: its CSV lines, when already made) and flush (Ctrl-C waits for the write)."""
        if not len(table):
            return
        table = self._arrange(table)
        if self.fmt == "parquet":
            self.add_batch(encode(table, "parquet"))
        else:
            batch = encode(table, None)
            batch.text = csv_text(table) if text is None else text
            self.add_batch(batch)

    def add_batch(self, batch: Encoded) -> None:
        """Append a batch encoded for this log's format (by a worker: :func:`encode`) and flush it."""
        if not batch.count:
            return
        with sigint_deferred():
            if self.fmt == "parquet":
                self._write_arrow(batch if batch.arrow is not None else encode(batch.table, "parquet"))
            else:
                new = self._names is None
                if self._names is not None and batch.names != self._names:
                    raise ZigguratError(f"a batch of games with other columns than {self.path}'s")
                self._note_batch(batch)
                if self._file is None:
                    self._file = self.path.open("a", newline="", encoding="utf-8")
                if new:
                    self._file.write(csv_header(batch.names))
                text = batch.text if batch.text is not None else csv_text(batch.table)
                self._file.write(text)
                self._file.flush()  # a killed process loses no written batch
                now = time.monotonic()
                if now - self._synced >= SYNC_EVERY:  # nor, within a second, a stopped machine
                    os.fsync(self._file.fileno())
                    self._synced = now
            self.count += batch.count

    def close(self) -> None:
        """Finish the file (Parquet: its footer, then in place of the old file); sort it if need be."""
        with sigint_deferred():
            if self._file is not None:
                os.fsync(self._file.fileno())
                self._file.close()
                self._file = None
            if self._writer is not None:
                self._writer.close()
                self._writer = None
                self._tmp.replace(self.path)
            if not self._ordered:
                write_games(self.path, GameTable.concat(read_games(self.path, self.fmt)).sorted(), self.fmt)
                self._ordered = True


def _trim_partial_line(path: Path) -> None:
    """Drop a last line cut short (no line end): its game is played again."""
    size = path.stat().st_size
    with path.open("rb+") as f:
        f.truncate(_whole_lines_end(f, size))


def write_games(path: Path, table: GameTable, fmt: str = "csv") -> None:
    """Write ``table`` as the whole games file (atomically: a stop never leaves half a file)."""
    check_format(fmt)
    tmp = path.with_name(path.name + ".tmp")
    if fmt == "parquet":
        pq = import_pyarrow().parquet
        pq.write_table(arrow_table(table), str(tmp))
    else:
        with tmp.open("w", newline="", encoding="utf-8") as f:
            if table.names:
                f.write(csv_header(table.names))
            step = 1 << 18
            for start in range(0, len(table), step):
                f.write(csv_text(table.take(slice(start, start + step))))  # type: ignore[arg-type]
    tmp.replace(path)


def write_rows(path: Path, rows: Sequence[Mapping[str, Any]]) -> None:
    """Write result rows as the whole CSV (atomically)."""
    write_games(path, GameTable.from_rows(rows), "csv")


def _column(name: str, values: list[str]) -> np.ndarray:
    if is_text(name):
        return text_array(values)
    raw = np.asarray(values, dtype=str)
    for kind in (np.int64, np.uint64, np.float64):
        try:
            return raw.astype(kind)
        except (ValueError, OverflowError):
            continue
    return text_array(values)


def read_games(path: Path, fmt: str = "csv", batch: int = READ_BATCH) -> Iterator[GameTable]:
    """The games of a run's file, ``batch`` rows at a time (numbers as numbers, text as text).

    Nothing when the file does not exist. A CSV's last line cut short is left
    out (its game is played again); a Parquet file that cannot be read (a run
    killed before its footer was written) is a :class:`ZigguratError`.
    """
    check_format(fmt)
    if not path.exists():
        return
    if fmt == "parquet":
        pq = import_pyarrow().parquet
        try:
            reader = pq.ParquetFile(str(path))
        except Exception as exc:  # pyarrow raises its own errors for a file without a footer
            raise ZigguratError(f"cannot read the finished games in {path}: {exc}") from None
        for b in reader.iter_batches(batch_size=batch):
            yield from_arrow(b)
        return
    arrow = _csv_arrow()
    if arrow is not None:
        yield from _read_csv_arrow(arrow, path, batch)
        return
    try:
        with path.open(encoding="utf-8", newline="") as f:
            header = f.readline()
            if not header.endswith("\n"):
                return
            names = next(csv.reader([header]))
            while True:
                lines = list(itertools.islice(f, batch))
                if not lines:
                    return
                if not lines[-1].endswith("\n"):
                    lines.pop()
                if not lines:
                    return
                rows = list(csv.reader(io.StringIO("".join(lines), newline="")))
                if any(len(r) != len(names) for r in rows):
                    raise ZigguratError(f"cannot read the finished games in {path}: a line has the wrong field count")
                yield GameTable(
                    {k: _column(k, list(vals)) for k, vals in zip(names, zip(*rows, strict=True), strict=True)}
                )
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise ZigguratError(f"cannot read the finished games in {path}: {exc}") from None


def _csv_arrow() -> Any:
    """pyarrow (with its csv and compute modules) when installed, else None: CSV files are then read by Python."""
    try:
        import pyarrow
        import pyarrow.compute
        import pyarrow.csv
    except ImportError:
        return None
    return pyarrow


def _arrow_column(pa: Any, name: str, column: Any) -> np.ndarray:
    """One CSV column read as text, typed as :func:`_column` types it (whole numbers, then floats, else text).

    A cast that fails is slow in pyarrow, so whole numbers are recognised by a
    pattern before they are cast.
    """
    pc = pa.compute
    if not is_text(name) and len(column):
        kinds = ["float64"]
        if pc.all(pc.match_substring_regex(column, r"^-?[0-9]+$")).as_py():
            kinds = ["int64", "uint64", "float64"]
        for kind in kinds:
            try:
                return np.asarray(pc.cast(column, getattr(pa, kind)()).to_numpy(zero_copy_only=False))
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
                continue
    return text_array(column.to_numpy(zero_copy_only=False).tolist())


def _read_csv_arrow(pa: Any, path: Path, batch: int) -> Iterator[GameTable]:
    """:func:`read_games` of a CSV by pyarrow's reader (tens of times faster than Python's; the same tables).

    Only the whole lines are read (up to the last line end): a last line cut
    short is left out, as by the Python reader. Every field is read as text and
    typed column by column, so a column's type doesn't depend on where a block of
    the file starts.
    """
    try:
        with path.open("rb") as f:
            header = f.readline()
            if not header.endswith(b"\n"):
                return
            names = next(csv.reader([header.decode("utf-8")]))
            end = _whole_lines_end(f, path.stat().st_size)
        if end <= len(header):
            return
        source = pa.memory_map(str(path))
        try:
            reader = pa.csv.open_csv(
                pa.BufferReader(source.read_buffer(end)),
                read_options=pa.csv.ReadOptions(block_size=max(1 << 16, 64 * batch)),
                parse_options=pa.csv.ParseOptions(newlines_in_values=True),
                convert_options=pa.csv.ConvertOptions(
                    column_types={n: pa.string() for n in names},
                    strings_can_be_null=False,
                    quoted_strings_can_be_null=False,
                ),
            )
            for record in reader:
                if record.num_rows:
                    yield GameTable({n: _arrow_column(pa, n, record.column(k)) for k, n in enumerate(names)})
        finally:
            source.close()
    except (OSError, UnicodeDecodeError, csv.Error, pa.ArrowInvalid) as exc:
        message = "a line has the wrong field count" if "Expected" in str(exc) and "columns" in str(exc) else exc
        raise ZigguratError(f"cannot read the finished games in {path}: {message}") from None


def _whole_lines_end(f: IO[bytes], size: int) -> int:
    """The offset just past the last line end of the open file ``f`` of ``size`` bytes (0 when it has none)."""
    back = min(size, 1 << 16)
    while back:
        f.seek(size - back)
        cut = f.read(back).rfind(b"\n")
        if cut >= 0:
            return size - back + cut + 1
        if back == size:
            return 0
        back = min(size, back * 2)
    return 0


def read_rows(path: Path) -> list[dict[str, Any]]:
    """The rows of a run's CSV with their types back (numbers as numbers); for small files.

    A last line cut short (the machine stopped mid-write) is left out: its game is played again.
    """
    return GameTable.concat(read_games(path, "csv")).rows()


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
    if "games_format" in data and data["games_format"] not in GAME_FORMATS:
        raise ZigguratError(f"{path}: 'games_format' must be one of {', '.join(GAME_FORMATS)}")
    return data


def _kind(types: tuple[type, ...]) -> str:
    names = {str: "text", int: "whole number", dict: "JSON object", list: "list", bool: "true or false"}
    return " or ".join(names.get(t, t.__name__) for t in types)


def check_done(table: GameTable, expected: Mapping[int, int], path: Path) -> None:
    """Every finished game must be one of this run (index known, seed as the run gives it)."""
    if "index" not in table or "seed" not in table:
        raise ZigguratError(f"{path} is not a file of games (it has no index and seed columns)")
    for index, seed in zip(table["index"].tolist(), table["seed"].tolist(), strict=True):
        if index not in expected or seed != expected[index]:
            raise ZigguratError(f"{path} holds a game that is not part of this run (index {index!r})")
