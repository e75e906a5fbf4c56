"""The ``arena`` and ``simulate`` commands, and their errors (exit code 2)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ziggurat.cli.main import app

runner = CliRunner()


def test_simulate_writes_csv_plots_and_report(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["simulate", "kuhnah", "--players", "2", "--bots", "random,greedy", "--games", "12", "--seed", "4"]
    result = runner.invoke(app, [*args, "--jobs", "1", "--out", str(out), "--compare-variants"])
    assert result.exit_code == 0, result.output
    assert "win rate" in result.output and "jade-wild" in result.output
    for name in ("games.csv", "report.html", "seat_win_rates.png", "summary.json"):
        assert (out / name).exists()
    rows = list(csv.DictReader((out / "games.csv").open()))
    assert len(rows) == 24 and rows[0]["p1_bot"] == "random"
    out2 = tmp_path / "run2"
    again = runner.invoke(app, [*args, "--jobs", "2", "--out", str(out2), "--compare-variants"])
    assert again.exit_code == 0, again.output
    assert (out / "games.csv").read_bytes() == (out2 / "games.csv").read_bytes()


def test_arena_prints_rates_and_ratings(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        ["arena", "kuhnah", "--bots", "ismcts,greedy,random", "--games", "2", "--jobs", "1",
         "--bot-option", "ismcts.iterations=20", "--csv", str(tmp_path / "a.csv")],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    for word in ("ismcts", "greedy", "random", "rating", "Head to head", "%"):
        assert word in result.output
    assert len((tmp_path / "a.csv").read_text().splitlines()) == 7


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["arena", "kuhnah", "--bots", "greedy,nobot"], "no bot called 'nobot'"),
        (["arena", "chess"], "no game called 'chess'"),
        (["arena", "kuhnah", "--games", "0"], "--games"),
        (["arena", "kuhnah", "--bots", "greedy,greedy"], "two different bots"),
        (["arena", "kuhnah", "--bots", "ismcts,random", "--bot-option", "ismcts.width=3"], "width"),
        (["arena", "kuhnah", "--bots", "ismcts,random", "--bot-option", "ismcts.seconds=soon"], "seconds"),
        (["arena", "kuhnah", "--bots", "ismcts,random", "--bot-option", "seconds=1"], "BOT.NAME=VALUE"),
        (["arena", "kuhnah", "--bots", "ismcts,random", "--bot-option", "greedy.x=1"], "not playing"),
        (["simulate", "kuhnah", "--games", "-5"], "--games"),
        (["simulate", "kuhnah", "--games", "many"], "--games"),
        (["simulate", "kuhnah", "--bots", "nobot"], "no bot called"),
        (["simulate", "kuhnah", "--players", "9"], "2 to 6 players"),
        (["simulate", "kuhnah", "--variant", "nope"], "no option"),
        (["simulate", "kuhnah", "--backend", "spark"], "unknown backend"),
        (["simulate", "kuhnah", "--jobs", "0"], "--jobs"),
        (["simulate", "kuhnah", "--format", "xlsx"], "unknown format 'xlsx' (formats: csv, parquet)"),
    ],
)
def test_bad_input_is_a_clear_error(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert message in result.output


def test_simulate_writes_the_same_games_as_csv_and_as_parquet(tmp_path: Path) -> None:
    """The engine with bots: games.parquet holds games.csv's rows, and the report is the same."""
    pq = pytest.importorskip("pyarrow.parquet")
    args = ["simulate", "kukulkan", "--players", "3", "--bots", "greedy,random", "--rotate", "--games", "15"]
    for fmt in ("csv", "parquet"):
        result = runner.invoke(
            app, [*args, "--seed", "6", "--jobs", "2", "--out", str(tmp_path / fmt), "--format", fmt]
        )
        assert result.exit_code == 0, result.output
        assert f"games.{fmt}, summary.json" in result.output
    assert not (tmp_path / "csv" / "games.parquet").exists() and not (tmp_path / "parquet" / "games.csv").exists()
    rows = list(csv.DictReader((tmp_path / "csv" / "games.csv").open(newline="")))
    table = pq.read_table(tmp_path / "parquet" / "games.parquet")
    assert [{k: str(v) for k, v in r.items()} for r in table.to_pylist()] == rows and len(rows) == 15
    assert (tmp_path / "csv" / "summary.json").read_text() == (tmp_path / "parquet" / "summary.json").read_text()


def test_parquet_without_pyarrow_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import builtins

    real = builtins.__import__

    def no_pyarrow(name: str, *args: object, **kwargs: object) -> object:
        if name.startswith("pyarrow"):
            raise ImportError("no pyarrow here")
        return real(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_pyarrow)
    out = tmp_path / "run"
    result = runner.invoke(app, ["simulate", "kuhnah", "--games", "3", "--out", str(out), "--format", "parquet"])
    assert result.exit_code == 2, result.output
    assert "pip install 'ziggurat[parquet]'" in result.output
    assert not out.exists()


def test_a_stopped_parquet_run_of_the_engine_resumes_to_the_same_games(tmp_path: Path) -> None:
    """The games kept are any of the run's (workers finish in any order): the resumed file is in index order."""
    pq = pytest.importorskip("pyarrow.parquet")
    args = ["simulate", "kuhnah", "--bots", "greedy,random", "--games", "30", "--seed", "2", "--format", "parquet"]
    whole, stopped = tmp_path / "whole", tmp_path / "stopped"
    assert runner.invoke(app, [*args, "--out", str(whole)]).exit_code == 0
    assert runner.invoke(app, [*args, "--out", str(stopped)]).exit_code == 0
    table = pq.read_table(stopped / "games.parquet")
    kept = [i for i in range(30) if i % 3 != 1 and i < 25]
    pq.write_table(table.take(list(reversed(kept))), stopped / "games.parquet")
    resumed = runner.invoke(app, ["simulate", "--resume", str(stopped), "--jobs", "2"])
    assert resumed.exit_code == 0, resumed.output
    assert f"{30 - len(kept)} games in" in resumed.output
    assert pq.read_table(stopped / "games.parquet").equals(pq.read_table(whole / "games.parquet"))
    assert (stopped / "summary.json").read_text() == (whole / "summary.json").read_text()
