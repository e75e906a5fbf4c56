"""Terminal saves keep nothing their player may not see: an unfinished game is sealed, and resumes exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ziggurat.cli.main import app
from ziggurat.cli.saves import key_path, read_save, save_document
from ziggurat.core import GameRecord, Match, RecordError, make_game
from ziggurat.core.export import player_record

runner = CliRunner()
LUCENT = ["play", "lucent", "--seats", "human,greedy,random", "--seed", "8"]


def stopped_game(tmp_path: Path, args: list[str] = LUCENT, moves: int = 2) -> Path:
    save = tmp_path / "part.json"
    result = runner.invoke(app, [*args, "--save", str(save)], input="1\n" * moves + "q\n")
    assert result.exit_code == 1, result.output
    return save


def test_a_stopped_game_against_bots_holds_no_seed_no_deal_and_no_bot_choice(tmp_path: Path) -> None:
    save = stopped_game(tmp_path)
    text = save.read_text()
    doc = json.loads(text)
    assert doc["format"] == "ziggurat-save"
    assert "seed" not in doc and "actions" not in doc and "ziggurat-record" not in text
    record, sealed = read_save(save)
    assert sealed and record.seed == 8
    # the deal and the bots' cards: every chance outcome and every bot decision stays inside the seal
    for player, action in record.actions:
        if player != 0:
            assert f'"{player}, {action}' not in text and f"[{player}, {action}" not in text
    # what the person at seat 1 saw is theirs to keep, exactly as an export of that seat says
    assert doc["seen"] == player_record(record, 0)
    assert doc["decisions"] == sum(1 for p, _ in record.actions if p >= 0)
    assert (doc["game"], doc["players"], doc["seats"]) == ("lucent", 3, ["human", "greedy", "random"])


def test_the_seal_opens_only_with_this_machines_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    save = stopped_game(tmp_path)
    assert key_path().stat().st_mode & 0o077 == 0, "the key is its owner's alone"
    monkeypatch.setenv("ZIGGURAT_HOME", str(tmp_path / "another-machine"))
    with pytest.raises(RecordError, match="saved on another machine"):
        read_save(save)
    result = runner.invoke(app, ["play", "--resume", str(save)])
    assert result.exit_code == 2 and "saved on another machine" in result.output and "Traceback" not in result.output
    (tmp_path / "another-machine").mkdir()
    key_path().write_text("not-a-key\n")
    with pytest.raises(RecordError, match="cannot be opened with this machine's key"):
        read_save(save)


def test_a_changed_save_is_refused(tmp_path: Path) -> None:
    save = stopped_game(tmp_path)
    doc = json.loads(save.read_text())
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps({**doc, "sealed": doc["sealed"][:-8] + "AAAAAAA="}))
    with pytest.raises(RecordError, match="changed since"):
        read_save(changed)
    changed.write_text(json.dumps({**doc, "players": 2}))
    with pytest.raises(RecordError, match="'players' does not match"):
        read_save(changed)
    changed.write_text(json.dumps({**doc, "version": 9}))
    with pytest.raises(RecordError, match="version 9"):
        read_save(changed)


def test_resume_goes_on_with_the_same_game(tmp_path: Path) -> None:
    whole = tmp_path / "whole.json"
    assert runner.invoke(app, [*LUCENT, "--save", str(whole)], input="1\n" * 400).exit_code == 0
    finished = json.loads(whole.read_text())
    assert finished["format"] == "ziggurat-record" and finished["seed"] == 8  # over: the seed may be shown
    save = stopped_game(tmp_path, moves=3)
    again = tmp_path / "again.json"
    resumed = runner.invoke(app, ["play", "--resume", str(save), "--save", str(again)], input="1\n" * 400)
    assert resumed.exit_code == 0, resumed.output
    assert GameRecord.load(again).actions == GameRecord.load(whole).actions


def test_an_unfinished_save_is_seen_only_as_its_people_saw_it(tmp_path: Path) -> None:
    save = stopped_game(tmp_path)
    for player in ("2", "3"):
        result = runner.invoke(app, ["replay", str(save), "--player", player, "--no-pause"])
        assert result.exit_code == 2 and "not as player" in result.output and "--player 1" in result.output
        result = runner.invoke(app, ["export", str(save), "--player", player])
        assert result.exit_code == 2 and "not as player" in result.output
    assert runner.invoke(app, ["replay", str(save), "--player", "1", "--no-pause"]).exit_code == 0
    assert runner.invoke(app, ["replay", str(save), "--no-pause"]).exit_code == 0
    exported = runner.invoke(app, ["export", str(save), "--player", "1"])
    assert exported.exit_code == 0 and json.loads(exported.output) == json.loads(save.read_text())["seen"]


def test_hot_seat_saves_keep_no_players_view() -> None:
    match = Match(make_game("lucent", 2), seed=4)
    match.resolve_chance()
    match.apply(match.state.legal_actions()[0])
    doc = save_document(match.record(["human", "human"]))
    assert "seen" not in doc and "sealed" in doc  # each one's hand is hidden from the other
    doc = save_document(match.record(["human", "random"]))
    assert doc["seen"] == player_record(match.record(["human", "random"]), 0)


def test_an_old_plain_record_still_resumes(tmp_path: Path) -> None:
    match = Match(make_game("kuhnah", 2), seed=5)
    match.resolve_chance()
    for _ in range(3):
        match.apply(match.state.legal_actions()[0])
        match.resolve_chance()
    old = tmp_path / "old.json"  # a plain record, as saves were written before they were sealed
    match.record(["human", "random"]).save(old)
    record, sealed = read_save(old)
    assert not sealed and record.seed == 5
    result = runner.invoke(app, ["play", "--resume", str(old)], input="1\n" * 200)
    assert result.exit_code == 0, result.output


def test_saving_with_a_damaged_key_is_a_clear_error(tmp_path: Path) -> None:
    key_path().parent.mkdir(parents=True, exist_ok=True)
    key_path().write_text("not-a-key\n")
    save = tmp_path / "part.json"
    result = runner.invoke(app, [*LUCENT, "--save", str(save)], input="1\nq\n")
    assert result.exit_code == 2 and "is damaged" in result.output and "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
