"""Fixtures for the server tests: databases of both kinds, an in-process app, the app on real sockets."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.pg import free_port
from tests.server.util import ThreadedServer
from ziggurat.server.app import Settings, create_app


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path) -> str:
    """Each test that takes it runs on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'ziggurat.db'}"
    pg = request.getfixturevalue("postgres")
    return pg.create_database("t_" + uuid.uuid4().hex[:12])


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    """The app in process on SQLite, bots moving at once in threads."""
    with TestClient(create_app(Settings(db_url=sqlite_url, bot_delay=0, bot_workers=0))) as c:
        yield c


@pytest.fixture
def any_client(db_url: str) -> Iterator[TestClient]:
    """The app in process, once on SQLite and once on PostgreSQL."""
    with TestClient(create_app(Settings(db_url=db_url, bot_delay=0, bot_workers=0))) as c:
        yield c


@pytest.fixture
def wire_server(sqlite_url: str) -> Iterator[ThreadedServer]:
    """The app served over real loopback sockets by uvicorn, in a thread of the test process."""
    server = ThreadedServer(create_app(Settings(db_url=sqlite_url, bot_delay=0, bot_workers=0)))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=["notify", "redis"])
def bus(request: pytest.FixtureRequest) -> str | None:
    """The carrier of the news between processes: None for PostgreSQL's LISTEN/NOTIFY, else a Redis URL."""
    if request.param == "notify":
        return None
    return str(request.getfixturevalue("redis").url)


@pytest.fixture
def smtp_sink() -> Iterator[tuple[str, list[Any]]]:
    """A real SMTP server on loopback (aiosmtpd) and the list of what it received."""
    from aiosmtpd.controller import Controller

    received: list[Any] = []

    class Handler:
        async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
            received.append(envelope)
            return "250 OK"

    port = free_port()
    controller = Controller(Handler(), hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield f"127.0.0.1:{port}", received
    finally:
        controller.stop()
