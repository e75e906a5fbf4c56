"""Tuning with Optuna: objectives, ranges, a study that resumes, pruning, the confirmation on fresh seeds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ziggurat.analysis.tune import Objective, parse_objective, parse_range, tune
from ziggurat.cli.main import app
from ziggurat.core import OptionError, ZigguratError, make_game
from ziggurat.core.registry import get_game

optuna = pytest.importorskip("optuna")

SPEC = get_game("kuhnah").game_class.spec


def test_objectives_parse_and_score() -> None:
    assert parse_objective("fairness") == Objective("fairness")
    assert parse_objective(" p1:0.02*3 ") == Objective("p1", 0.02, 3.0)
    m = {"balance": {"mean": 0.9}, "length": {"mean": 45.0}, "seat1_advantage": {"mean": -0.05},
         "shared_wins": {"mean": 0.1}}  # fmt: skip
    assert Objective("fairness").value(m) == pytest.approx(0.1)
    assert Objective("length", 50.0).value(m) == pytest.approx(0.1)
    assert Objective("p1", 0.02).value(m) == pytest.approx(0.03) and Objective("p1", 0.1).value(m) == 0
    assert Objective("decisive").value(m) == pytest.approx(0.1)
    for bad, words in (("fun", "say one of"), ("length", "takes a number"), ("length:-3", "above 0"),
                       ("p1:2", "0 to 1"), ("fairness:1", "no argument"), ("fairness*0", "above 0"),
                       ("fairness*x", "must be a number")):  # fmt: skip
        with pytest.raises(ZigguratError, match=words):
            parse_objective(bad)


def test_ranges_parse_within_the_parameters_range() -> None:
    assert parse_range(SPEC, "start-jade=4..12") == ("start-jade", 4, 12)
    for bad, words in (("start-jade=4", "LOW..HIGH"), ("start-jade=9..3", "below the high end"),
                       ("start-jade=0..99", "between 0 and 50"), ("jade=1..2", "no parameter")):  # fmt: skip
        with pytest.raises((ZigguratError, OptionError), match=words):
            parse_range(SPEC, bad)


def test_a_study_runs_resumes_and_confirms(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    game = make_game("kuhnah", 2)
    ranges = [("start-jade", 1, 12)]
    goal = [Objective("length", 40.0)]
    first = tune(game, ranges, goal, db, trials=8, games=8, stages=2, seed=1)
    assert len(first.history) == 8 and 1 <= first.best["start-jade"] <= 12
    assert {h["state"] for h in first.history} <= {"complete", "pruned"}
    assert set(first.confirm) >= {"length", "balance"} and first.confirm["length"]["n"] == 8
    again = tune(game, ranges, goal, db, trials=11, games=8, stages=2, seed=1)
    assert len(again.history) == 11 and again.history[:8] == first.history  # the study went on
    assert again.best_value <= first.best_value
    with pytest.raises(ZigguratError, match="at least"):
        tune(game, ranges, goal, db, trials=0, games=8)


def test_refused_settings_are_not_trials_that_count(tmp_path: Path) -> None:
    game = make_game("pyramix", 2)
    result = tune(game, [("ankhs", 7, 9)], [Objective("fairness")], tmp_path / "p.db", trials=6, games=4, stages=1)
    refused = [h for h in result.history if h["refused"]]
    assert all(h["params"]["ankhs"] != 8 and h["state"] == "pruned" for h in refused)
    assert result.best == {"ankhs": 8}  # the only setting whose cubes fill the pyramid


def test_tune_command(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["tune", "kuhnah", "--param", "start-jade=2..10", "--objective", "fairness", "--objective", "length:40*0.5",
            "--study", str(tmp_path / "t.db"), "--trials", "6", "--games", "8", "--stages", "2",
            "--out", str(tmp_path / "out")]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "best: start-jade=" in result.output and "fresh seeds" in result.output
    doc = json.loads((tmp_path / "out" / "tune.json").read_text())
    assert len(doc["history"]) == 6 and (tmp_path / "out" / "tune_history.png").exists()
    bad = runner.invoke(app, ["tune", "kuhnah", "--param", "start-jade=2..10", "--objective", "joy",
                              "--study", str(tmp_path / "t.db")])  # fmt: skip
    assert bad.exit_code == 2 and "say one of" in bad.output
