"""Hostile documents against every loader and every command that reads a file: a clear error, never a traceback.

The inputs Python's own parsers fail on or spend without end on: nesting far
deeper than the recursion limit, integers of thousands of digits, numbers that
are not finite, lone surrogates, bytes that are not UTF-8, text of the largest
size read; each both as a whole file and placed inside an otherwise good
record, sealed save, saved state or run description (where the loader's later
code would meet it). Records and sealed saves are also cut short at every
kind of place and garbled byte by byte. Every loader must answer with its own
error (RecordError, ContentError, a ZigguratError), and every command with
``error: ...`` and exit code 2.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from tests.fuzz.positions import GAMES, positions
from ziggurat.analysis.runfiles import load_spec
from ziggurat.cli.main import app
from ziggurat.cli.saves import _key, read_save, save_document
from ziggurat.core import GameRecord, Match, RecordError, ZigguratError, make_game
from ziggurat.core.documents import MAX_BYTES

runner = CliRunner()

DEEP = 100_000


def _record() -> dict[str, Any]:
    match = Match(make_game("kuhnah", 2), seed=11)
    match.run_bots(["random", "random"], max_steps=12)
    return match.record(["human", "random"]).to_json()


RECORD = _record()
SPEC = {
    "format": "ziggurat-run",
    "version": 1,
    "command": "simulate",
    "game": "kuhnah",
    "players": 2,
    "options": {},
    "bots": ["random"],
    "games": 4,
    "seed": 0,
    "bot_options": {},
    "rotate": False,
    "compare_variants": False,
}

# whole files
RAW: dict[str, bytes] = {
    "deep-lists": b"[" * DEEP + b"]" * DEEP,
    "deep-objects": b'{"a":' * 5000 + b"1" + b"}" * 5000,
    "just-too-deep": b"[" * 65 + b"]" * 65,
    "giant-integer": b"9" * 5000,
    "long-integer": b"[" + b"9" * 101 + b"]",
    "nan": b"[NaN]",
    "infinite": b'{"a": 1e999}',
    "surrogate": b'["\\ud800"]',
    "not-utf8": b"\xff\xfe\x00{",
    "empty": b"",
    "too-large": b" " * (MAX_BYTES + 1),
    "largest-string": b'"' + b"x" * (MAX_BYTES - 2) + b'"',
}


# hostile values placed inside a good document (the text is written by hand where json.dumps refuses)
PLANTED: dict[str, str] = {
    "deep": "[" * 900 + "1" + "]" * 900,
    "giant-integer": "9" * 5000,
    "long-integer": "-" + "9" * 101,
    "nan": "NaN",
    "infinite": "-1e999",
    "surrogate": '"\\udfff"',
    "huge-string": json.dumps("y" * (MAX_BYTES // 2)),
}


def _planted(doc: dict[str, Any], field: str, value: str) -> bytes:
    marker = "__HOSTILE__"
    text = json.dumps({**doc, field: marker})
    return text.replace(json.dumps(marker), value).encode()


def _record_files() -> dict[str, bytes]:
    files = {f"raw-{k}": v for k, v in RAW.items()}
    for field in ("game", "players", "seed", "options", "seats", "actions", "result", "version"):
        for name, value in PLANTED.items():
            files[f"{field}-{name}"] = _planted(RECORD, field, value)
    actions = json.dumps(RECORD["actions"])
    for name, value in PLANTED.items():
        hostile = actions.replace("[", f"[{value}, ", 1) if name != "deep" else actions[:-1] + ", " + value + "]"
        files[f"an-action-{name}"] = _planted(RECORD, "actions", hostile)
    return files


RECORD_FILES = _record_files()


def _fails_clearly(load: Callable[[], Any], error: type[Exception] = ZigguratError) -> None:
    try:
        load()
    except error:
        return
    # loading may also succeed: a huge string is text, not an error; it must then be usable


@pytest.mark.parametrize("name", sorted(RECORD_FILES))
def test_record_loaders_refuse_hostile_records_clearly(name: str, tmp_path: Path) -> None:
    raw = RECORD_FILES[name]
    path = tmp_path / "record.json"
    path.write_bytes(raw)
    for load in (
        lambda: GameRecord.load(path).replay(),
        lambda: read_save(path)[0].replay(),
        lambda: GameRecord.from_json(raw).replay(),
        lambda: GameRecord.from_json(raw.decode("utf-8", "surrogateescape")).replay(),  # a str made elsewhere
    ):
        try:
            load()
        except RecordError:
            continue
        assert name.endswith("huge-string") and "seats" in name, f"{name} loaded"


@pytest.mark.parametrize("name", sorted(RAW))
def test_saved_states_refuse_hostile_documents_clearly(name: str) -> None:
    for game_id in GAMES:
        game = positions(game_id)[0].game
        with pytest.raises(RecordError):
            game.state_from_json(RAW[name])
        state = positions(game_id)[len(positions(game_id)) // 2].to_json()
        for planted, value in PLANTED.items():
            for field in ("state", "history", "players"):
                with pytest.raises(RecordError):
                    game.state_from_json(_planted(state, field, value))
            assert planted


def _sealed(tmp_path: Path) -> dict[str, Any]:
    record = GameRecord.from_json(RECORD)
    doc = save_document(record)
    assert doc["format"] == "ziggurat-save"
    return doc


def test_sealed_saves_holding_hostile_records_are_refused_clearly(tmp_path: Path) -> None:
    """The seal opens with this machine's key, and what is inside is read like any record."""
    from cryptography.fernet import Fernet

    doc = _sealed(tmp_path)
    key = _key(create=False)
    assert key is not None
    path = tmp_path / "save.json"
    for name, raw in [*RAW.items(), *(("record-" + k, v) for k, v in RECORD_FILES.items())]:
        if len(raw) > MAX_BYTES // 2:  # the sealed token is larger than what it seals: the file would be refused
            continue
        path.write_text(json.dumps({**doc, "sealed": Fernet(key).encrypt(raw).decode("ascii")}))
        try:
            read_save(path)[0].replay()
        except RecordError:
            continue
        pytest.fail(f"a sealed save holding {name} was opened")


def test_sealed_saves_with_hostile_outer_fields_are_refused_clearly(tmp_path: Path) -> None:
    doc = _sealed(tmp_path)
    path = tmp_path / "save.json"
    for field in ("version", "sealed", "game", "players", "options", "seats", "decisions", "seen"):
        for name, value in PLANTED.items():
            path.write_bytes(_planted(doc, field, value))
            try:
                read_save(path)[0].replay()
            except RecordError:
                continue
            assert name == "huge-string" and field in ("decisions", "seen"), f"{field}={name} was opened"


@given(cut=st.integers(0, 10**6), flips=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), max_size=3))
def test_cut_and_garbled_records_and_sealed_saves_are_clear_errors(
    cut: int, flips: list[tuple[int, int]], tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = tmp_path_factory.mktemp("garbled")
    for text in (json.dumps(RECORD).encode(), json.dumps(_sealed(folder)).encode()):
        raw = bytearray(text[: cut % (len(text) + 1)])
        for where, byte in flips:
            if raw:
                raw[where % len(raw)] = byte
        path = folder / "save.json"
        path.write_bytes(bytes(raw))
        with contextlib.suppress(RecordError):
            read_save(path)[0].replay()


@pytest.mark.parametrize("name", sorted(RAW))
def test_run_descriptions_refuse_hostile_documents_clearly(name: str, tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    path.write_bytes(RAW[name])
    with pytest.raises(ZigguratError):
        load_spec(path, "simulate")
    for field in ("game", "players", "options", "bots", "games", "seed", "bot_options", "rotate", "command"):
        for planted, value in PLANTED.items():
            path.write_bytes(_planted(SPEC, field, value))
            try:
                load_spec(path, "simulate")
            except ZigguratError:
                continue
            assert planted == "huge-string" and field == "game", f"{field}={planted} was read"


def _cli_fails_clearly(args: list[str]) -> None:
    result = runner.invoke(app, args, input="q\n")
    assert result.exit_code == 2, (args, result.output[-500:])
    assert "error:" in result.output and "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception


# the example first; then one of each kind
CLI_FILES = ["raw-deep-lists", "raw-giant-integer", "raw-nan", "raw-surrogate", "raw-not-utf8", "raw-too-large",
             "seed-giant-integer", "options-deep", "actions-infinite", "an-action-long-integer"]  # fmt: skip


@pytest.mark.parametrize("name", CLI_FILES)
def test_commands_that_read_records_answer_hostile_files_with_a_clear_error(name: str, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(RECORD_FILES[name])
    _cli_fails_clearly(["replay", str(path), "--no-pause"])
    _cli_fails_clearly(["play", "--resume", str(path)])
    _cli_fails_clearly(["export", str(path), "--player", "1"])


@pytest.mark.parametrize("name", ["deep-lists", "giant-integer", "nan", "not-utf8", "too-large"])
def test_resuming_runs_from_hostile_descriptions_is_a_clear_error(name: str, tmp_path: Path) -> None:
    out = tmp_path / "run"
    out.mkdir()
    (out / "run.json").write_bytes(RAW[name])
    _cli_fails_clearly(["simulate", "--resume", str(out)])
    csv = tmp_path / "arena.csv"
    csv.write_text("")
    (tmp_path / "arena.csv.run.json").write_bytes(RAW[name])
    _cli_fails_clearly(["arena", "--resume", str(csv)])
    (tmp_path / "arena.csv.run.json").write_bytes(_planted({**SPEC, "command": "arena"}, "bots", PLANTED["deep"]))
    _cli_fails_clearly(["arena", "--resume", str(csv)])


@pytest.mark.parametrize("name", ["deep-lists", "giant-integer", "nan", "surrogate", "not-utf8"])
def test_a_rules_page_draft_with_a_hostile_saved_state_is_a_clear_error(name: str, tmp_path: Path) -> None:
    """The learn pages read saved states beside learn.toml (a draft folder may be anyone's)."""
    from importlib import resources

    from ziggurat.core import ContentError
    from ziggurat.web import learn

    shipped = resources.files("ziggurat.games.kuhnah").joinpath("data")
    for item in shipped.iterdir():
        if item.is_file():
            (tmp_path / item.name).write_bytes(item.read_bytes())
    learn.load("kuhnah", tmp_path)  # the copy is good
    (tmp_path / "support.json").write_bytes(RAW[name])
    with pytest.raises(ContentError, match=r"support\.json"):
        learn.load("kuhnah", tmp_path)
