"""The terminal front end under a careless user and an attacker: markup, hidden choices, stops and resumes."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from tests.cli.signals import ctrl_c_on
from ziggurat.cli.main import app
from ziggurat.cli.saves import read_save
from ziggurat.cli.session import replay_record
from ziggurat.core import GameRecord, Match, RecordError, make_game
from ziggurat.core.export import player_record

runner = CliRunner()
ZIGGURAT = [sys.executable, "-m", "ziggurat"]


def test_markup_typed_at_the_prompt_is_shown_as_typed_and_crashes_nothing() -> None:
    answers = ["[/b]", "[bold]take [zz]", "[/]"] + ["1"] * 400
    result = runner.invoke(
        app, ["play", "kuhnah", "--players", "2", "--seats", "human,random", "--seed", "3"], input="\n".join(answers)
    )
    assert result.exit_code == 0, result.output
    assert "'[/b]'" in result.output and "[zz]" in result.output
    assert "Final result" in result.output


def _kukulkan_mid_round(described: bool = False) -> tuple[GameRecord, list[str]]:
    """A Kukulkán game stopped after player 1 made their whole choice of a round, player 2 not yet.

    Also the texts of that choice: the action texts, or (``described``) the log's descriptions.
    """
    m = Match(make_game("kukulkan", 2), seed=4)
    m.run_bots(["random", "random"], max_steps=30)
    while m.state.players_to_move() != (0, 1):
        m.apply(m.state.legal_actions(m.state.players_to_move()[0])[0], m.state.players_to_move()[0])
    texts = []
    while 0 in m.state.players_to_move():
        action = m.state.legal_actions(0)[-1]
        texts.append(
            m.state.describe_action(action, 0, audience=0).text if described else m.state.action_to_text(action, 0)
        )
        m.apply(action, 0)
    return GameRecord.from_json(m.record(["human", "human"]).dumps()), texts


def _replay_text(record: GameRecord, player: int | None) -> str:
    out = io.StringIO()
    replay_record(record, Console(file=out, width=200, markup=False), player=player, pause=False)
    return out.getvalue()


@pytest.mark.parametrize("audience", [1, None])
def test_replay_never_shows_an_unrevealed_choice(audience: int | None) -> None:
    record, hidden = _kukulkan_mid_round(described=True)
    text = _replay_text(record, audience)
    assert "Player 1 (human) is ready" in text
    for line in text.splitlines():
        assert not any(line.strip() == f"Player 1 (human): {h}" for h in hidden), line
    mine = _replay_text(record, 0)
    assert any(f"Player 1 (human): {h}" in mine for h in hidden), "a player sees their own choice"


def test_a_player_record_holds_only_what_that_player_saw(tmp_path: Path) -> None:
    record, hidden = _kukulkan_mid_round()
    path = tmp_path / "game.json"
    record.save(path)
    result = runner.invoke(app, ["export", str(path), "--player", "2"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["format"] == "ziggurat-player-record" and doc["player"] == 1
    assert "seed" not in json.dumps(doc) and "actions" not in doc
    assert doc == json.loads(json.dumps(player_record(record, 1))), "the CLI and the API give the same document"
    logs = [e for step in doc["steps"] for e in step["log"]]
    assert not any(e["seat"] == 0 and e["kind"] == "move" and e["text"] in hidden for e in logs[-5:])
    # every step's view is the player's own view of the state at that step, never more
    state = record.replay()
    assert doc["steps"][-1]["view"] == json.loads(json.dumps(state.view(1)))
    # player 1's own export does show the choice
    own = player_record(record, 0)
    assert any(e["text"] == hidden[0] for step in own["steps"] for e in step["log"] if e["seat"] == 0)
    out = tmp_path / "p2.json"
    assert runner.invoke(app, ["export", str(path), "--player", "2", "--out", str(out)]).exit_code == 0
    assert json.loads(out.read_text()) == doc
    for bad in (["--player", "3"], ["--player", "0"], ["--player", "2", "--out", str(tmp_path)]):
        failed = runner.invoke(app, ["export", str(path), *bad])
        assert failed.exit_code == 2 and "Traceback" not in failed.output, failed.output


def test_a_record_may_not_make_the_program_read_local_files(tmp_path: Path) -> None:
    secret = tmp_path / "secret.toml"
    secret.write_text('[[card]]\nvalue = "top secret"\n')
    m = Match(make_game("kuhnah", 2), seed=1)
    m.run_bots(["random", "random"], max_steps=3)
    doc = m.record().to_json()
    for target in (str(secret), "/etc/passwd", str(tmp_path / "missing.toml")):
        doc["options"] = {"deck": target}
        path = tmp_path / "evil.json"
        path.write_text(json.dumps(doc))
        for args in (
            ["replay", str(path), "--no-pause"],
            ["play", "--resume", str(path)],
            ["export", str(path), "--player", "1"],
        ):
            result = runner.invoke(app, args, input="q\n")
            assert result.exit_code == 2, result.output
            assert "may not make the program read" in result.output and "top secret" not in result.output
        with pytest.raises(RecordError, match="local file"):
            GameRecord.load(path).replay()


def test_content_errors_do_not_tell_whether_a_path_exists(tmp_path: Path) -> None:
    from ziggurat.core.content import MAX_FILE_BYTES

    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (MAX_FILE_BYTES + 1))
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    messages = set()
    for path in (tmp_path / "missing.toml", tmp_path, big, fifo, Path("/dev/zero"), Path("/proc/self/mem")):
        result = runner.invoke(app, ["play", "kuhnah", "--deck", str(path)], input="q\n")
        assert result.exit_code == 2 and "Traceback" not in result.output
        messages.add(result.output.replace(str(path), "PATH"))
    assert len(messages) == 1, messages


def test_a_stopped_game_resumes_and_ends_as_the_uninterrupted_one(tmp_path: Path) -> None:
    whole = tmp_path / "whole.json"
    args = ["play", "lucent", "--seats", "human,greedy,random", "--seed", "8"]
    assert runner.invoke(app, [*args, "--save", str(whole)], input="1\n" * 400).exit_code == 0
    part = tmp_path / "part.json"
    stopped = runner.invoke(app, [*args, "--save", str(part)], input="1\n1\n1\n")  # input ends: EOF
    assert stopped.exit_code == 1 and "Traceback" not in stopped.output
    assert read_save(part)[0].result is None
    again = tmp_path / "again.json"
    resumed = runner.invoke(app, ["play", "--resume", str(part), "--save", str(again)], input="1\n" * 400)
    assert resumed.exit_code == 0, resumed.output
    assert GameRecord.load(again).actions == GameRecord.load(whole).actions
    over = runner.invoke(app, ["play", "--resume", str(again)])
    assert over.exit_code == 2 and "is over" in over.output
    mixed = runner.invoke(app, ["play", "kuhnah", "--resume", str(part)])
    assert mixed.exit_code == 2 and "give none" in mixed.output


def _wait_for(predicate, timeout: float = 30.0) -> None:  # type: ignore[no-untyped-def]
    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.05)


def test_ctrl_c_while_a_bot_thinks_saves_and_exits_without_a_traceback(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    env = {**os.environ, "COLUMNS": "120"}
    with ctrl_c_on():
        proc = subprocess.Popen(
            [*ZIGGURAT, "play", "nakum", "--seats", "ismcts,ismcts", "--seed", "3", "--save", str(save)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()  # the header: the game is on, the bots are thinking
        assert b"Nakum" in first
        time.sleep(1.0)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, (out, err)
    assert b"Traceback" not in err and b"Traceback" not in out, err.decode()
    assert b"ziggurat play --resume" in out
    record, sealed = read_save(save)
    assert sealed and record.result is None and record.seed == 3
    record.replay()
