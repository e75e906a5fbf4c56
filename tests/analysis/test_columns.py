"""Columnar results: tables, their CSV and Parquet files, and the tally the report is made from."""

from __future__ import annotations

import csv
import io
import math
import random
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ziggurat.analysis.columns import GameTable, csv_header, csv_text, seats_of_winners, text_array, winners_text
from ziggurat.analysis.report import summarise
from ziggurat.analysis.runfiles import GameLog, encode, read_games, write_games
from ziggurat.analysis.simulate import Setup, simulate, variant_setups
from ziggurat.analysis.tally import Histogram, RunTally
from ziggurat.core import ZigguratError


def _csv_module(rows: list[dict[str, Any]]) -> str:
    buf = io.StringIO(newline="")
    w = csv.writer(buf)
    w.writerow(list(rows[0]))
    w.writerows([list(r.values()) for r in rows])
    return buf.getvalue()


def test_csv_text_is_what_the_csv_module_writes() -> None:
    rng = random.Random(3)
    labels = ["base", "jade,wild", 'say "hi"', "two\nlines", ""]
    rows = [
        {
            "index": i,
            "setup": rng.choice(labels),
            "seed": rng.randrange(1 << 53),
            "big": rng.randrange(10**6),
            "p1_score": rng.choice([1.5, 2.0, -3.25, 1e-7, 12345678.0]),
            "p1_bot": rng.choice(["random", "greedy"]),
            "winners": rng.choice(["1", "1;2", ""]),
        }
        for i in range(3000)
    ]
    table = GameTable.from_rows(rows)
    assert csv_header(table.names) + csv_text(table) == _csv_module(rows)
    assert table.rows() == rows  # and back, with the Python types


def test_from_rows_keeps_floats_and_whole_numbers_apart() -> None:
    t = GameTable.from_rows([{"a": 1, "b": 1.0, "c": "x"}, {"a": 2, "b": 2.5, "c": "y"}])
    assert t["a"].dtype == np.int64 and t["b"].dtype == np.float64 and t["c"].dtype.kind == "U"
    assert t.rows() == [{"a": 1, "b": 1.0, "c": "x"}, {"a": 2, "b": 2.5, "c": "y"}]
    with pytest.raises(ValueError, match="different lengths"):
        GameTable({"a": np.arange(2), "b": np.arange(3)})


def test_winners_columns_both_ways() -> None:
    ranks = np.array([[1, 2, 3], [1, 1, 3], [2, 2, 1], [1, 1, 1]])
    text = winners_text(ranks)
    assert text.tolist() == ["1", "1;2", "3", "1;2;3"]
    won, shared = seats_of_winners(text, 3)
    assert won.tolist() == (ranks == 1).tolist() and shared.tolist() == [1, 2, 1, 3]


def test_histogram_statistics_are_those_of_the_values() -> None:
    rng = np.random.default_rng(5)
    values = rng.integers(-20, 60, 4001).astype(float)
    h = Histogram()
    for part in np.array_split(values, 7):
        h.add(part)
    m, sd = h.mean_sd()
    assert m == pytest.approx(statistics.fmean(values)) and sd == pytest.approx(statistics.stdev(values))
    for q in (0.0, 0.25, 0.5, 0.9, 1.0):
        assert h.percentile(q) == pytest.approx(float(np.quantile(values, q)))
    assert (h.min(), h.max(), h.n) == (values.min(), values.max(), len(values))
    assert math.isnan(Histogram().mean()) and math.isnan(Histogram().percentile(0.5))


def _reference(rows: list[dict[str, Any]], lower_wins: bool) -> dict[str, Any]:
    """The figures of one setup, row by row (as the report computed them before it read columns)."""
    n, players = len(rows), int(rows[0]["players"])
    credit, bots, margins = [0.0] * players, defaultdict(lambda: [0.0, 0]), []
    for r in rows:
        winners = str(r["winners"]).split(";")
        for p in range(players):
            share = 1.0 / len(winners) if str(p + 1) in winners else 0.0
            credit[p] += share
            bots[r[f"p{p + 1}_bot"]][0] += share
            bots[r[f"p{p + 1}_bot"]][1] += 1
        scores = sorted((float(r[f"p{p + 1}_score"]) for p in range(players)), reverse=not lower_wins)
        margins.append(abs(scores[1] - scores[0]))
    lengths = [float(r["length"]) for r in rows]
    ends: dict[str, int] = defaultdict(int)
    for r in rows:
        ends[r["end"]] += 1
    return {
        "games": n,
        "win": [c / n for c in credit],
        "score_mean": [statistics.fmean(float(r[f"p{p + 1}_score"]) for r in rows) for p in range(players)],
        "score_sd": [statistics.stdev(float(r[f"p{p + 1}_score"]) for r in rows) for p in range(players)],
        "bots": {b: (v[0] / v[1], v[1]) for b, v in bots.items()},  # in order of first seat taken
        "length": (statistics.fmean(lengths), statistics.stdev(lengths), min(lengths), max(lengths)),
        "length_median": statistics.median(lengths),
        "margin": (statistics.fmean(margins), statistics.stdev(margins), statistics.median(margins)),
        "shared": sum(";" in str(r["winners"]) for r in rows) / n,
        "ends": {k: v / n for k, v in ends.items()},
    }


@pytest.mark.parametrize(
    ("game_id", "players", "bots", "compare"),
    [
        ("kuhnah", 2, ["greedy", "random"], True),
        ("lucent", 3, ["random", "greedy"], False),
        ("nakum", 3, ["random"], False),
    ],
)
def test_the_report_tallied_from_columns_gives_the_row_by_row_figures(
    game_id: str, players: int, bots: list[str], compare: bool
) -> None:
    setups = variant_setups(game_id, players, {}, compare)[:2]
    result = simulate(setups, bots, games=30, seed=9, jobs=2, rotate=True)
    lower = setups[0].make().spec.lower_score_wins
    summary = summarise(result, lower)
    for s in setups:
        ref = _reference([r for r in result.rows if r["setup"] == s.label], lower)
        got = summary["setups"][s.label]
        assert got["games"] == ref["games"] == 30
        assert [x["win"]["rate"] for x in got["seats"]] == pytest.approx(ref["win"])
        assert [x["score_mean"] for x in got["seats"]] == pytest.approx(ref["score_mean"])
        assert [x["score_sd"] for x in got["seats"]] == pytest.approx(ref["score_sd"])
        assert list(got["bots"]) == list(ref["bots"])
        assert [b["win"]["rate"] for b in got["bots"].values()] == pytest.approx([v[0] for v in ref["bots"].values()])
        assert [b["games"] for b in got["bots"].values()] == [v[1] for v in ref["bots"].values()]
        ln, mg = got["length"], got["margin"]
        assert (ln["mean"], ln["sd"], ln["min"], ln["max"]) == pytest.approx(ref["length"])
        assert ln["median"] == ref["length_median"]
        assert (mg["mean"], mg["sd"], mg["median"]) == pytest.approx(ref["margin"])
        assert got["shared_wins"]["rate"] == pytest.approx(ref["shared"])
        assert {k: v["rate"] for k, v in got["ends"].items()} == pytest.approx(ref["ends"])


def test_a_tally_in_parts_is_the_tally_of_the_whole() -> None:
    result = simulate(Setup("kuhnah", 2), ["greedy", "random"], games=24, seed=1, rotate=True)
    whole = RunTally(["default"], True).add_all([result.table])
    parts = RunTally(["default"], True)
    for order in (np.arange(24)[12:], np.arange(24)[:5], np.arange(24)[5:12]):
        part = RunTally(["default"], True)
        part.add(result.table.take(order))
        parts.merge(part)
    a, b = whole.setups["default"], parts.setups["default"]
    assert a.games == b.games == 24 and np.array_equal(a.seat_credit, b.seat_credit)
    assert a.length.counts == b.length.counts and a.margin.counts == b.margin.counts
    assert [h.counts for h in a.scores] == [h.counts for h in b.scores]
    assert a.bot_order() == b.bot_order() and a.ends == b.ends and a.shared == b.shared


def test_csv_and_parquet_files_hold_the_same_games(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    table = simulate(Setup("kukulkan", 3), ["random", "greedy"], games=40, seed=2, rotate=True).table
    write_games(tmp_path / "games.csv", table, "csv")
    write_games(tmp_path / "games.parquet", table, "parquet")
    from_csv = list(csv.DictReader((tmp_path / "games.csv").open(newline="")))
    from_parquet = pq.read_table(tmp_path / "games.parquet").to_pylist()
    assert len(from_csv) == len(from_parquet) == 40
    assert [{k: str(v) for k, v in r.items()} for r in from_parquet] == from_csv
    assert GameTable.concat(read_games(tmp_path / "games.parquet", "parquet", batch=7)) == table
    assert GameTable.concat(read_games(tmp_path / "games.csv", "csv", batch=7)) == table


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_a_log_written_out_of_order_ends_in_index_order(tmp_path: Path, fmt: str) -> None:
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    table = simulate(Setup("kuhnah", 2), ["random"], games=20, seed=4).table
    path = tmp_path / f"games.{fmt}"
    log = GameLog(path, fmt)
    log.add(table.take(np.arange(10, 20)))
    log.add_batch(encode(table.take(np.arange(0, 10)), fmt))
    log.close()
    assert log.count == 20
    assert GameTable.concat(read_games(path, fmt)) == table
    # and a resumed log goes on from the file there is
    log = GameLog(path, fmt, keep=True)
    log.close()
    assert GameTable.concat(read_games(path, fmt)) == table


def test_a_csv_line_cut_short_is_left_out(tmp_path: Path) -> None:
    table = simulate(Setup("kuhnah", 2), ["random"], games=6, seed=4).table
    path = tmp_path / "games.csv"
    write_games(path, table)
    text = path.read_bytes()
    path.write_bytes(text[: len(text) - 9])
    assert GameTable.concat(read_games(path)) == table.take(np.arange(5))
    log = GameLog(path, "csv", keep=True)
    log.add(table.take(np.arange(5, 6)))
    log.close()
    assert path.read_bytes() == text


def test_without_pyarrow_parquet_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import builtins

    real = builtins.__import__

    def no_pyarrow(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("pyarrow"):
            raise ImportError("no pyarrow here")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pyarrow)
    table = GameTable.from_rows([{"index": 0, "seed": 1}])
    with pytest.raises(ZigguratError, match=r"pip install 'ziggurat\[parquet\]'"):
        write_games(tmp_path / "games.parquet", table, "parquet")
    assert not (tmp_path / "games.parquet").exists()


def test_a_log_resumed_from_a_file_with_only_its_header_writes_one_header(tmp_path: Path) -> None:
    table = simulate(Setup("kuhnah", 2), ["random"], games=4, seed=4).table
    path, whole = tmp_path / "games.csv", tmp_path / "whole.csv"
    write_games(whole, table)
    path.write_bytes(whole.read_bytes().splitlines(keepends=True)[0])
    log = GameLog(path, "csv", keep=True)
    log.add(table)
    log.close()
    assert path.read_bytes() == whole.read_bytes()


def _python_csv_only(monkeypatch: pytest.MonkeyPatch) -> None:
    import ziggurat.analysis.runfiles as runfiles

    monkeypatch.setattr(runfiles, "_csv_arrow", lambda: None)


@pytest.mark.parametrize("cut", [0, 1, 9, 40])
def test_pyarrow_reads_a_csv_as_python_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cut: int) -> None:
    pytest.importorskip("pyarrow.csv")
    table = simulate(Setup("lucent", 3), ["random", "greedy"], games=60, seed=5, rotate=True).table
    odd = GameTable(
        {
            **table.columns,
            "seed": np.full(len(table), 2**64 - 3, np.uint64),  # past int64
            "note_bot": text_array([f'a "quoted", {i}' if i % 2 else "" for i in range(len(table))]),
            "empty": text_array([""] * len(table)),
        }
    )
    path = tmp_path / "games.csv"
    write_games(path, odd)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - cut])
    by_arrow = list(read_games(path, batch=7))
    _python_csv_only(monkeypatch)
    by_python = list(read_games(path, batch=7))
    assert GameTable.concat(by_arrow) == GameTable.concat(by_python)
    assert [c.dtype for c in GameTable.concat(by_arrow).columns.values()] == [
        c.dtype for c in GameTable.concat(by_python).columns.values()
    ]
    kept = len(GameTable.concat(by_python))
    assert kept == (60 if cut == 0 else 59)
    assert GameTable.concat(by_arrow)["seed"].dtype == np.uint64
    assert GameTable.concat(by_arrow)["note_bot"].dtype.kind == "U"


@pytest.mark.parametrize("arrow", [True, False])
def test_a_csv_line_with_the_wrong_field_count_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, arrow: bool
) -> None:
    if arrow:
        pytest.importorskip("pyarrow.csv")
    else:
        _python_csv_only(monkeypatch)
    path = tmp_path / "games.csv"
    path.write_text("index,seed,winner\n0,1,2\n1,2\n", encoding="utf-8")
    with pytest.raises(ZigguratError, match=r"cannot read the finished games in .*wrong field count"):
        list(read_games(path))
    path.write_bytes(b"index,seed,winner\n0,1,\xff\xfe\n")
    with pytest.raises(ZigguratError, match="cannot read the finished games in"):
        list(read_games(path))
