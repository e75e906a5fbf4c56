"""simulate and arena keep every finished game: rows written as they come, Ctrl-C, --resume."""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.cli.signals import ctrl_c_on
from ziggurat.cli.main import app

runner = CliRunner()
ZIGGURAT = [sys.executable, "-m", "ziggurat"]


def _rows(path: Path) -> int:
    return max(0, len(path.read_text().splitlines()) - 1) if path.exists() else 0


def _ctrl_c_once_rows_appear(args: list[str], csv: Path, total: int) -> tuple[int, str, str]:
    """Run ``ziggurat ARGS`` as in a terminal, press Ctrl-C (the whole process group) once some rows are written."""
    with ctrl_c_on():
        proc = subprocess.Popen(
            [*ZIGGURAT, *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            text=True,
        )
    try:
        end = time.monotonic() + 120
        while _rows(csv) == 0:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < end
            time.sleep(0.02)
        grown = _rows(csv)
        assert 0 < grown < total, "the CSV grows while the run goes on"
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return proc.returncode, out, err


def test_simulate_stopped_by_ctrl_c_resumes_to_the_same_result(tmp_path: Path) -> None:
    games = 1600
    run = ["simulate", "kuhnah", "--players", "2", "--bots", "random", "--games", str(games), "--seed", "5"]
    out = tmp_path / "stopped"
    code, stdout, stderr = _ctrl_c_once_rows_appear([*run, "--jobs", "2", "--out", str(out)], out / "games.csv", games)
    assert code == 130, (stdout, stderr)
    assert "Traceback" not in stderr + stdout, stderr
    assert f"ziggurat simulate --resume {out}" in stdout
    kept = _rows(out / "games.csv")
    assert 0 < kept < games and f"{kept} of {games} games kept" in stdout
    resumed = runner.invoke(app, ["simulate", "--resume", str(out), "--jobs", "1"])
    assert resumed.exit_code == 0, resumed.output
    whole = tmp_path / "whole"
    assert runner.invoke(app, [*run, "--jobs", "1", "--out", str(whole)]).exit_code == 0
    assert (out / "games.csv").read_bytes() == (whole / "games.csv").read_bytes()
    assert (out / "summary.json").read_text() == (whole / "summary.json").read_text()
    again = runner.invoke(app, ["simulate", "kuhnah", "--resume", str(out)])
    assert again.exit_code == 2 and "give none of --game" in again.output


@pytest.mark.skipif(importlib.util.find_spec("numba") is None, reason="the fast extra is not installed")
def test_a_fast_simulate_stopped_by_ctrl_c_resumes_to_the_same_result(tmp_path: Path) -> None:
    """The compiled kernels' batches are kept too: a stopped fast run goes on where it stopped."""
    games = 400_000
    run = ["simulate", "kuhnah", "--games", str(games), "--seed", "5", "--engine", "fast"]
    out = tmp_path / "stopped"
    code, stdout, stderr = _ctrl_c_once_rows_appear([*run, "--jobs", "2", "--out", str(out)], out / "games.csv", games)
    assert code == 130 and "Traceback" not in stderr + stdout, (stdout, stderr)
    kept = _rows(out / "games.csv")
    assert 0 < kept < games and f"{kept} of {games} games kept" in stdout
    resumed = runner.invoke(app, ["simulate", "--resume", str(out), "--jobs", "2"])
    assert resumed.exit_code == 0, resumed.output
    assert f"{games - kept} games in" in resumed.output
    whole = tmp_path / "whole"
    assert runner.invoke(app, [*run, "--jobs", "2", "--out", str(whole)]).exit_code == 0
    assert (out / "games.csv").read_bytes() == (whole / "games.csv").read_bytes()
    assert (out / "summary.json").read_text() == (whole / "summary.json").read_text()


def test_arena_stopped_by_ctrl_c_resumes_to_the_same_result(tmp_path: Path) -> None:
    run = ["arena", "kuhnah", "--bots", "greedy,random", "--games", "500", "--seed", "2"]
    csv = tmp_path / "stopped.csv"
    code, stdout, stderr = _ctrl_c_once_rows_appear([*run, "--jobs", "2", "--csv", str(csv)], csv, 500)
    assert code == 130 and "Traceback" not in stderr, stderr
    assert f"ziggurat arena --resume {csv}" in stdout
    assert runner.invoke(app, ["arena", "--resume", str(csv), "--jobs", "1"]).exit_code == 0
    whole = tmp_path / "whole.csv"
    assert runner.invoke(app, [*run, "--jobs", "1", "--csv", str(whole)]).exit_code == 0
    assert csv.read_bytes() == whole.read_bytes()


def test_output_paths_are_checked_before_any_game_is_played(tmp_path: Path) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("x")
    cases = [
        (["simulate", "kuhnah", "--games", "1000000", "--out", str(a_file)], "is a file, not a folder"),
        (["simulate", "kuhnah", "--games", "1000000", "--out", str(a_file / "sub")], "cannot write the run to"),
        (["arena", "kuhnah", "--games", "1000000", "--csv", str(tmp_path)], "it is a folder"),
        (["arena", "kuhnah", "--games", "1000000", "--csv", str(tmp_path / "no" / "a.csv")], "does not exist"),
        (["simulate", "--resume", str(tmp_path / "nothing")], "nothing to resume"),
        (["arena", "--resume", str(a_file)], "nothing to resume"),
    ]
    for args, message in cases:
        t0 = time.perf_counter()
        result = runner.invoke(app, args)
        assert result.exit_code == 2 and message in result.output, (args, result.output)
        assert time.perf_counter() - t0 < 5, "refused at once, not after the run"
