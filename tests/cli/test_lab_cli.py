"""--param on play, simulate and arena; simulate --sweep; the measures in the reports; their errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ziggurat.cli.main import app

runner = CliRunner()


def test_rules_lists_the_parameters() -> None:
    result = runner.invoke(app, ["rules", "pyramix"])
    assert result.exit_code == 0, result.output
    assert "Parameters" in result.output and "ankhs = 8 (int 0..14)" in result.output


def test_play_with_a_parameter_says_so_and_saves_it(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    args = ["play", "kuhnah", "--players", "2", "--seats", "random,random", "--seed", "3", "--param", "start-jade=2",
            "--save", str(save)]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "start-jade=2" in result.output and "not the printed rules" in result.output
    record = json.loads(save.read_text())
    assert record["options"] == {"start-jade": 2}
    shown = runner.invoke(app, ["replay", str(save)])
    assert shown.exit_code == 0, shown.output
    assert "not the printed rules" in shown.output


def test_simulate_with_a_parameter_reports_it_and_its_measures(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["simulate", "kuhnah", "--games", "12", "--jobs", "1", "--param", "start-jade=5", "--measure-games", "4"]
    result = runner.invoke(app, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "non-printed parameters: start-jade=5 (printed 8)" in result.output
    assert "measures:" in result.output and "lead_changes" in result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["measures"]["play_games"] == 4
    assert set(summary["measures"]["results"]["base"]) >= {"seat1_advantage", "balance", "length", "margin"}
    assert summary["measures"]["play"]["base"]["branching"]["n"] == 4
    report = (out / "report.html").read_text()
    assert "Quality measures" in report and "never rated" in report
    run = json.loads((out / "run.json").read_text())
    assert run["options"] == {"start-jade": 5}


def test_search_bots_are_not_followed_unless_asked(tmp_path: Path) -> None:
    args = ["simulate", "kuhnah", "--games", "2", "--jobs", "1", "--bots", "ismcts,random", "--bot-option",
            "ismcts.iterations=5", "--out", str(tmp_path)]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["measures"]["play"] == {} and summary["measures"]["play_games"] == 0
    assert "give --measure-games N" in (tmp_path / "report.html").read_text()
    assert "balance" in summary["measures"]["results"]["base"]


def test_simulate_sweep_compares_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a terminal of its own, wide enough for the whole table (the shared console keeps the width and any live
    # display another test of this worker left it with)
    from rich.console import Console

    import ziggurat.cli.analysis as cli_analysis

    monkeypatch.setattr(cli_analysis, "console", Console(markup=False, width=200))
    out = tmp_path / "sweep"
    args = ["simulate", "kuhnah", "--games", "10", "--jobs", "1", "--sweep", "start-jade=2,8", "--sweep",
            "remove-2=19,29", "--measure-games", "3", "--out", str(out)]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "sweep" in result.output and "P1 adv %" in result.output
    summary = json.loads((out / "summary.json").read_text())
    labels = [s["label"] for s in summary["sweep"]["settings"]]
    assert labels == ["start-jade=2 remove-2=19", "start-jade=2 remove-2=29", "start-jade=8 remove-2=19",
                      "start-jade=8 remove-2=29"]  # fmt: skip
    assert list(summary["setups"]) == labels
    assert (out / "sweep_seat1_advantage_by_start-jade.png").exists()
    assert "Sweep: every setting on the same seeds" in (out / "report.html").read_text()
    run = json.loads((out / "run.json").read_text())
    assert run["sweep"] == [["start-jade", [2, 8]], ["remove-2", [19, 29]]]
    # a stopped run resumes with its sweep (here: nothing left to play, the same rows)
    rows = (out / "games.csv").read_bytes()
    again = runner.invoke(app, ["simulate", "--resume", str(out), "--jobs", "1"])
    assert again.exit_code == 0, again.output
    assert (out / "games.csv").read_bytes() == rows


def test_fast_sweep_honours_the_parameters(tmp_path: Path) -> None:
    pytest.importorskip("numba")
    args = ["simulate", "kuhnah", "--games", "50", "--jobs", "1", "--engine", "fast", "--sweep", "start-jade=1,12",
            "--measure-games", "0", "--out", str(tmp_path)]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    measures = json.loads((tmp_path / "summary.json").read_text())["measures"]
    assert measures["play"] == {}
    length = [measures["results"][f"start-jade={j}"]["length"]["mean"] for j in (1, 12)]
    assert length[0] < length[1]  # fewer jade, shorter games: the kernel played the parameter


def test_arena_with_a_parameter() -> None:
    result = runner.invoke(app, ["arena", "pyramix", "--bots", "greedy,random", "--games", "2", "--jobs", "1",
                                 "--param", "ankhs=7", "--param", "cobras=8"])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "non-printed parameters: ankhs=7 (printed 8), cobras=8 (printed 4)" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "kuhnah", "--param", "jade=3"], "no parameter 'jade'"),
        (["simulate", "kuhnah", "--param", "start-jade=99"], "between 0 and 50"),
        (["simulate", "kuhnah", "--param", "open-jade=true"], "not a parameter"),
        (["simulate", "kuhnah", "--param", "start-jade"], "NAME=VALUE"),
        (["simulate", "pyramix", "--param", "ankhs=7"], "the pyramid has 56 places"),
        (["simulate", "kuhnah", "--sweep", "start-jade=1,,2"], "separated by commas"),
        (["simulate", "kuhnah", "--sweep", "start-jade=1,2", "--compare-variants"], "give one of them"),
        (["simulate", "kuhnah", "--sweep", "start-jade=1,2", "--param", "start-jade=3"], "both set"),
        (["simulate", "pyramix", "--sweep", "ankhs=7,8"], "setting ankhs=7 cannot be played"),
        (["simulate", "kuhnah", "--measure-games", "-1"], "--measure-games"),
        (["simulate", "kuhnah", "--option", "start-jade=3", "--param", "start-jade=4"], "both --option and --param"),
        (["arena", "kuhnah", "--param", "remove-2=48"], "between 0 and 47"),
        (["play", "kuhnah", "--param", "start-jade=-1"], "between 0 and 50"),
    ],
)
def test_bad_parameters_are_clear_errors(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert message in result.output


def test_fast_engine_plays_kukulkans_axis_bonus() -> None:
    """Once refused by the kernel, now played (replayed against the engine in tests/fast/test_params_kernels.py)."""
    pytest.importorskip("numba")
    result = runner.invoke(app, ["simulate", "kukulkan", "--engine", "fast", "--param", "axis-bonus=5", "-n", "5"])
    assert result.exit_code == 0, result.output
    assert "axis-bonus=5 (printed 3)" in result.output
