"""``ziggurat ratings``: rating the bots in the server's database, and its leaderboards."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from ziggurat.cli.main import app

runner = CliRunner()


def test_calibrate_then_show(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'z.db'}"
    args = ["ratings", "calibrate", "lucent", "--players", "2", "--bots", "random,greedy", "--games", "16"]
    done = runner.invoke(app, [*args, "--db", db, "--seed", "3"])
    assert done.exit_code == 0, done.output
    assert "greedy bot" in done.output and "random bot" in done.output
    shown = runner.invoke(app, ["ratings", "show", "lucent", "--players", "2", "--db", db])
    assert shown.exit_code == 0, shown.output
    lines = [line for line in shown.output.splitlines() if " bot" in line]
    assert "greedy bot" in lines[0] and "random bot" in lines[1]  # the better bot first
    assert " 16 " in lines[0] or lines[0].rstrip().endswith("16")  # it played every game
    # the same games again count again (the ratings grow more certain), and the same seed plays the same games
    again = runner.invoke(app, [*args, "--db", db, "--seed", "3"])
    assert again.exit_code == 0 and "32" in again.output
    empty = runner.invoke(app, ["ratings", "show", "kuhnah", "--players", "3", "--db", db])
    assert empty.exit_code == 0 and "Nobody is rated" in empty.output


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (["calibrate", "lucent", "--bots", "random,chess"], "the bots are random, greedy, ismcts"),
        (["calibrate", "lucent", "--bots", "random,ismcts:9"], "an ismcts level is 1 to 5"),
        (["calibrate", "lucent", "--bots", "random,greedy:2"], "only ismcts has levels"),
        (["calibrate", "lucent", "--bots", "greedy,greedy"], "at least two different bots"),
        (["calibrate", "lucent", "--bots", "random,greedy", "--players", "9"], "not 9"),
        (["calibrate", "lucent", "--bots", "random,greedy", "--games", "0"], "--games"),
        (["calibrate", "chess", "--bots", "random,greedy"], "no game called 'chess'"),
        (["show", "lucent", "--db", "not-a-url"], "--db takes a URL"),
    ],
)
def test_bad_calibrations_are_clear_errors(tmp_path: Path, words: list[str], expected: str) -> None:
    db = ["--db", f"sqlite:///{tmp_path / 'z.db'}"] if "--db" not in words else []
    result = runner.invoke(app, ["ratings", *words, *db])
    assert result.exit_code == 2 and expected in " ".join(result.output.split()), result.output
    assert not (tmp_path / "z.db").exists() or words[0] == "show"  # nothing was written
