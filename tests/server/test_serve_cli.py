"""``ziggurat serve``: every bad argument is a clear error before anything listens."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ziggurat.cli.main import app

runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--port", "0"], "--port must be between 1 and 65535"),
        (["--port", "70000"], "--port must be between 1 and 65535"),
        (["--db", "ziggurat.db"], "--db takes a URL"),
        (["--db", "postgresql://nobody@127.0.0.1:1/none"], "cannot use the database"),
        (["--workers", "2"], "--workers above 1 needs a database all processes share"),
        (["--smtp", "mail.example.org:http"], "--smtp takes HOST:PORT"),
        (["--bot-delay", "-1"], "--bot-delay must be between 0 and 60"),
        (["--bot-workers", "99"], "--bot-workers must be between 0 and 64"),
        (["--ws-window-bits", "16"], "--ws-window-bits is 9 to 15 (a window of 512 bytes to 32 KB), not 16"),
        (["--ws-window-bits", "8"], "--ws-window-bits is 9 to 15"),
        (["--ws-window-bits", "12", "--no-ws-compression"], "it means nothing with --no-ws-compression"),
        (["--log-level", "loud"], "log"),
        (["--public-url", "games.example"], "--public-url takes the whole address people open"),
        (["--public-url", "https://games.example:99999"], "--public-url takes the whole address"),
        (["--public-url", "ftp://games.example"], "--public-url takes the whole address"),
        (["--host", "no-such-host.invalid"], "is not an address of this machine"),
        (["--bus", "localhost:6379"], "--bus takes a Redis URL such as redis://"),
        (["--bus", "redis://127.0.0.1:1/0"], "--bus is for processes sharing a PostgreSQL database"),
        (["--db", "postgresql://nobody@127.0.0.1:1/none", "--bus", "redis://127.0.0.1:1/0"], "cannot reach Redis at"),
    ],
)
def test_bad_arguments_are_clear_errors(tmp_path: Path, args: list[str], words: str) -> None:
    result = runner.invoke(app, ["serve", "--data", str(tmp_path / "data"), *args])
    assert result.exit_code == 2, result.output
    assert words in " ".join(result.output.split()), result.output
    assert "Traceback" not in result.output


def test_a_port_in_use_is_a_clear_error(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = runner.invoke(app, ["serve", "--data", str(tmp_path), "--port", str(port)])
    assert result.exit_code == 2 and f"port {port} is in use" in result.output
