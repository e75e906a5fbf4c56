"""``ziggurat simulate --engine fast`` and the base install without numba."""

from __future__ import annotations

import csv
import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ziggurat.cli.main import app
from ziggurat.core import registry
from ziggurat.core.registry import make_game

runner = CliRunner()

needs_numba = pytest.mark.skipif(
    __import__("importlib.util").util.find_spec("numba") is None, reason="the fast extra is not installed"
)


@needs_numba
def test_fast_simulate_writes_the_same_report_and_csv_shape(tmp_path: Path) -> None:
    from ziggurat.fast import replay, trace

    base = ["simulate", "kuhnah", "--players", "3", "--bots", "random", "--games", "40", "--seed", "4"]
    slow = runner.invoke(app, [*base, "--jobs", "1", "--out", str(tmp_path / "py")])
    assert slow.exit_code == 0, slow.output
    fast = runner.invoke(app, [*base, "--jobs", "1", "--out", str(tmp_path / "fast"), "--engine", "fast"])
    assert fast.exit_code == 0, fast.output
    assert "win rate" in fast.output and "games/s" in fast.output
    for name in ("games.csv", "report.html", "seat_win_rates.png", "summary.json"):
        assert (tmp_path / "fast" / name).exists()
    py_rows = list(csv.DictReader((tmp_path / "py" / "games.csv").open()))
    rows = list(csv.DictReader((tmp_path / "fast" / "games.csv").open()))
    assert len(rows) == 40 and list(rows[0]) == list(py_rows[0])
    assert [r["index"] for r in rows] == [str(i) for i in range(40)]
    # every row is a game the engine replays from its seed, to the same scores and ranks
    game = make_game("kuhnah", 3)
    for row in rows[:10]:
        state = replay(game, trace(game, int(row["seed"])))
        assert [str(s) for s in state.outcome().scores] == [row[f"p{p}_score"] for p in (1, 2, 3)]
        assert [str(r) for r in state.outcome().ranks] == [row[f"p{p}_rank"] for p in (1, 2, 3)]
        assert row["winners"] == ";".join(str(p + 1) for p in state.outcome().winners)
        assert int(row["length"]) == sum(1 for p, _ in state.history if p >= 0)
        assert int(row["actions"]) == len(state.history)
        assert row["end"] == state.end_reason().code == "quarry-empty"
    # the same rows with any job count; compared variants share the game seeds
    again = runner.invoke(
        app, [*base, "--jobs", "2", "--out", str(tmp_path / "fast2"), "--engine", "fast", "--compare-variants"]
    )
    assert again.exit_code == 0, again.output
    rows2 = list(csv.DictReader((tmp_path / "fast2" / "games.csv").open()))
    assert rows2[:40] == rows
    assert {r["setup"] for r in rows2[40:]} == {"jade-wild"}
    assert [r["seed"] for r in rows2[40:]] == [r["seed"] for r in rows]


@needs_numba
@pytest.mark.parametrize(("game_id", "players"), [("kukulkan", 4), ("nakum", 3)])
def test_fast_simulate_rows_of_simultaneous_games_replay(tmp_path: Path, game_id: str, players: int) -> None:
    """Rows of the games where several players choose at once replay in the engine from their seeds."""
    from ziggurat.fast import replay, trace

    args = ["simulate", game_id, "--players", str(players), "--games", "30", "--seed", "2", "--engine", "fast"]
    result = runner.invoke(app, [*args, "--out", str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader((tmp_path / "run" / "games.csv").open()))
    assert len(rows) == 30
    game = make_game(game_id, players)
    for row in rows[:5]:
        state = replay(game, trace(game, int(row["seed"])))
        assert [str(s) for s in state.outcome().scores] == [row[f"p{p + 1}_score"] for p in range(players)]
        assert [str(r) for r in state.outcome().ranks] == [row[f"p{p + 1}_rank"] for p in range(players)]
        assert int(row["length"]) == sum(1 for p, _ in state.history if p >= 0)
        assert int(row["actions"]) == len(state.history)
    # the end of every row is the engine's (Kukulkán's random games end both ways)
    assert game_id != "kukulkan" or {r["end"] for r in rows} == {"bonuses", "no-usable-roll"}
    for row in rows:
        assert row["end"] == replay(game, trace(game, int(row["seed"]))).end_reason().code
    assert "ends: " in result.output


def _cut(path: Path, keep: int) -> None:
    """Leave the first ``keep`` games in a games file (a stopped run), the CSV with half a line after them."""
    if path.suffix == ".csv":
        lines = path.read_bytes().splitlines(keepends=True)
        path.write_bytes(b"".join(lines[: keep + 1]) + lines[keep + 1][:7])
    else:
        import pyarrow.parquet as pq

        pq.write_table(pq.read_table(path).slice(0, keep), path)


@needs_numba
@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_a_stopped_fast_run_resumes_to_the_same_files(tmp_path: Path, fmt: str) -> None:
    """Games are written in index order as batches finish; --resume plays only the missing ones."""
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    args = ["simulate", "kuhnah", "--games", "3000", "--seed", "3", "--engine", "fast", "--format", fmt]
    whole, stopped = tmp_path / "whole", tmp_path / "stopped"
    assert runner.invoke(app, [*args, "--jobs", "2", "--out", str(whole), "--compare-variants"]).exit_code == 0
    assert runner.invoke(app, [*args, "--jobs", "2", "--out", str(stopped), "--compare-variants"]).exit_code == 0
    _cut(stopped / f"games.{fmt}", 1234)
    resumed = runner.invoke(app, ["simulate", "--resume", str(stopped), "--jobs", "2"])
    assert resumed.exit_code == 0, resumed.output
    assert "4766 games in" in resumed.output  # only the missing ones were played
    for name in ("summary.json", "report.html"):
        assert (stopped / name).read_bytes() == (whole / name).read_bytes(), name
    if fmt == "csv":
        assert (stopped / "games.csv").read_bytes() == (whole / "games.csv").read_bytes()
    else:  # the same rows (in other row groups)
        import pyarrow.parquet as pq

        assert pq.read_table(stopped / "games.parquet").equals(pq.read_table(whole / "games.parquet"))


@needs_numba
def test_a_fast_run_resumes_only_its_own_games(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["simulate", "kuhnah", "--games", "200", "--seed", "3", "--engine", "fast", "--out", str(out)]
    assert runner.invoke(app, args).exit_code == 0
    path = out / "games.csv"
    path.write_text(path.read_text().replace(",3,", ",4,", 1))  # a seed that is not this run's
    result = runner.invoke(app, ["simulate", "--resume", str(out)])
    assert result.exit_code == 2 and "not part of this run" in result.output


@needs_numba
def test_a_parquet_file_cut_short_is_played_again(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    out = tmp_path / "run"
    args = ["simulate", "kuhnah", "--games", "500", "--seed", "8", "--engine", "fast", "--format", "parquet"]
    assert runner.invoke(app, [*args, "--out", str(out)]).exit_code == 0
    whole = (out / "games.parquet").read_bytes()
    (out / "games.parquet").write_bytes(whole[: len(whole) // 2])  # killed before the footer was written
    result = runner.invoke(app, ["simulate", "--resume", str(out)])
    assert result.exit_code == 0, result.output
    assert "its games are played again" in result.output and "500 games in" in result.output
    assert (out / "games.parquet").read_bytes() == whole


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "random,greedy"], "plays random bots only, not greedy"),
        (["--engine", "turbo"], "unknown engine 'turbo'"),
    ],
)
def test_fast_engine_bad_input_is_a_clear_error(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["simulate", "kuhnah", "--games", "5", "--engine", "fast", *args])
    assert result.exit_code == 2, result.output
    assert message in result.output


def test_without_numba_the_fast_engine_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("ziggurat.fast.driver.available", lambda: False)
    result = runner.invoke(app, ["simulate", "kuhnah", "--games", "5", "--engine", "fast"])
    assert result.exit_code == 2, result.output
    assert 'pip install -e ".[fast]"' in result.output


def test_a_game_without_a_kernel_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    registry._discover()
    entry = registry.get_game("kuhnah")
    monkeypatch.setitem(registry._games, "kuhnah", dataclasses.replace(entry, kernel=None))
    result = runner.invoke(app, ["simulate", "kuhnah", "--games", "5", "--engine", "fast"])
    assert result.exit_code == 2, result.output
    assert "K'uh Nah has no compiled kernel" in result.output


def test_the_base_install_works_without_numba(tmp_path: Path) -> None:
    """numba hidden from the interpreter: every game plays, and the fast engine explains itself."""
    blocker = tmp_path / "sitecustomize.py"
    blocker.write_text(
        "import sys\n"
        "class _NoNumba:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'numba' or name.startswith(('numba.', 'llvmlite')):\n"
        "            raise ImportError('numba is hidden for this test')\n"
        "sys.meta_path.insert(0, _NoNumba())\n"
    )
    script = (
        "import random, sys\n"
        "from ziggurat import make_game\n"
        "from ziggurat.core import game_ids, random_playout\n"
        "from ziggurat.cli.main import app\n"
        "import ziggurat.fast as fast\n"
        "for g in game_ids():\n"
        "    assert random_playout(make_game(g).new_initial_state(), random.Random(1)).is_terminal()\n"
        "assert not fast.available()\n"
        "try:\n"
        "    fast.play_random('kuhnah', 2, 10)\n"
        "except Exception as exc:\n"
        "    print(type(exc).__name__, exc)\n"
        "assert 'numba' not in sys.modules\n"
    )
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "ZigguratError" in done.stdout and 'pip install -e ".[fast]"' in done.stdout
