"""The ``ziggurat`` command: listing, rules, play (bots, humans, hot seat), save and replay, errors."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from ziggurat.cli.main import app
from ziggurat.cli.saves import read_save
from ziggurat.core import GameRecord

runner = CliRunner()


def test_games_lists_every_game_and_bot() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    assert "kuhnah" in result.output and "K'uh Nah" in result.output and "jade-wild" in result.output
    assert "random" in result.output


def test_rules_summary() -> None:
    result = runner.invoke(app, ["rules", "kuh-nah"])
    assert result.exit_code == 0 and "Lowest score wins" in result.output and "jade-wild" in result.output


def test_unknown_game_is_a_clear_error() -> None:
    result = runner.invoke(app, ["rules", "chess"])
    assert result.exit_code == 2 and "no game called 'chess'" in result.output


def test_bots_only_game_runs_to_the_end_and_saves(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    args = ["play", "kuhnah", "--players", "3", "--seats", "random,random,random", "--seed", "7", "--save", str(save)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "Final result" in result.output and ("Winner" in result.output or "Shared win" in result.output)
    assert "The game ended: the deck ran out and the Quarry could not be refilled." in " ".join(result.output.split())
    record = GameRecord.load(save)
    assert record.seed == 7 and record.seats == ["random"] * 3 and record.result is not None
    assert record.result["end"]["code"] == "quarry-empty"
    again = runner.invoke(app, args[:-2])
    assert again.output in result.output, "same seed, same game"
    replay = runner.invoke(app, ["replay", str(save), "--no-pause"])
    assert replay.exit_code == 0 and "Final:" in replay.output
    # chance outcomes (cards removed unseen) are never printed
    assert "remove " not in result.output and "remove " not in replay.output


def test_a_human_answers_by_number_or_text_and_bad_input_re_asks(tmp_path: Path) -> None:
    answers = ["", "99", "take zz", "build", "?"] + ["1"] * 400
    result = runner.invoke(
        app,
        ["play", "kuhnah", "--players", "2", "--seats", "human,random", "--seed", "3"],
        input="\n".join(answers) + "\n",
    )
    assert result.exit_code == 0, result.output
    assert "There is no choice 99" in result.output
    assert "there is no card 'zz'" in result.output
    assert "is not a K'uh Nah action" in result.output
    assert "Type the number" in result.output
    assert "Player 1 (human):" in result.output and "Final result" in result.output
    assert "(you)" in result.output


def test_hot_seat_is_refused_when_the_output_is_not_a_terminal() -> None:
    result = runner.invoke(
        app, ["play", "kuhnah", "--players", "2", "--seats", "human,human", "--seed", "1"], input="\n1\n" * 400
    )
    assert result.exit_code == 2 and "hot seat (several humans) needs a terminal" in result.output


def test_quitting_keeps_what_was_played_and_exits_non_zero(tmp_path: Path) -> None:
    save = tmp_path / "partial.json"
    result = runner.invoke(
        app,
        ["play", "kuhnah", "--seats", "human,random", "--seed", "2", "--save", str(save)],
        input="1\n1\nq\n",
    )
    assert result.exit_code == 1 and "Game stopped" in result.output
    assert f"ziggurat play --resume {save}" in result.output
    assert "seed 2" not in result.output, "the seed is shown only once the game is over"
    record, sealed = read_save(save)
    assert sealed and record.result is None and sum(1 for p, _ in record.actions if p == 0) == 2


def test_bad_arguments_are_clear_errors(tmp_path: Path) -> None:
    cases = [
        (["play", "kuhnah", "--players", "9"], "played by 2 to 6 players"),
        (["play", "kuhnah", "--players", "3", "--seats", "human,random"], "lists 2 seats for 3 players"),
        (["play", "kuhnah", "--seats", "human,alphago"], "no bot called 'alphago'"),
        (["play", "kuhnah", "--variant", "open-jade"], "is an option, not a variant"),
        (["play", "kuhnah", "--option", "colour=red"], "no option 'colour'"),
        (["play", "kuhnah", "--option", "open-jade"], "NAME=VALUE"),
        (["play", "kuhnah", "--option", "open-jade=perhaps"], "true or false"),
        (["play", "kuhnah", "--deck", str(tmp_path / "missing.toml")], "cannot read the card list"),
        (["play", "kuhnah", "--save", str(tmp_path / "no" / "g.json")], "does not exist"),
        (["play", "kuhnah", "--save", str(tmp_path)], "it is a folder"),
    ]
    for args, message in cases:
        result = runner.invoke(app, args, input="q\n")
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output, (args, result.output)


def test_replay_rejects_a_corrupt_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps(
            {
                "format": "ziggurat-record",
                "version": 1,
                "game": "kuhnah",
                "players": 2,
                "actions": [[0, 999999, "take it"]],
            }
        )
    )
    result = runner.invoke(app, ["replay", str(bad)])
    assert result.exit_code == 2 and "step 1" in result.output
    result = runner.invoke(app, ["replay", str(tmp_path / "none.json")])
    assert result.exit_code == 2 and "cannot read" in result.output and "as a game record" in result.output


def test_player_count_follows_the_seats_when_not_given() -> None:
    result = runner.invoke(app, ["play", "kuhnah", "--seats", "random,random,random,random", "--seed", "1"])
    assert result.exit_code == 0 and "4 players" in result.output
    result = runner.invoke(app, ["play", "kuhnah", "--players", "2", "--seats", "random", "--seed", "1"])
    assert result.exit_code == 2 and "lists 1 seats for 2 players" in result.output


def test_a_refused_move_says_why_and_the_end_shows_every_score_term_by_term() -> None:
    # K'uh Nah's first turn: placing before taking is refused with the rule; 'score' shows the standing
    answers = ["base left", "score"] + ["1"] * 400
    result = runner.invoke(
        app,
        ["play", "kuhnah", "--players", "2", "--seats", "human,random", "--seed", "3"],
        input="\n".join(answers) + "\n",
    )
    assert result.exit_code == 0, result.output
    assert "Not allowed: take a card from the Quarry first" in result.output
    assert "Scores as they stand" in result.output and "jade held (secret until the end)" in result.output
    # the log names the card moved, not the short action text
    assert "Player 1 (human): puts a jade on the " in result.output
    assert "Score breakdown" in result.output and "supports no card" in result.output
