"""Fixtures for the server tests: SQLite and a real PostgreSQL, an in-process app, live server processes."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from tests.server.pg import TempPostgres
from tests.server.util import LiveServer, ThreadedServer
from ziggurat.server.app import Settings, create_app


@pytest.fixture(scope="session")
def postgres() -> Iterator[TempPostgres]:
    """One PostgreSQL server per test process (each test gets its own database)."""
    pg = TempPostgres().start()
    try:
        yield pg
    finally:
        pg.stop()


@pytest.fixture
def pg_url(postgres: TempPostgres) -> str:
    """A fresh PostgreSQL database for one test."""
    return postgres.create_database("t_" + uuid.uuid4().hex[:12])


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    """A fresh SQLite database file for one test."""
    return f"sqlite:///{tmp_path / 'ziggurat.db'}"


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
def live_server(tmp_path) -> Iterator[type[LiveServer]]:
    """Start real ``ziggurat serve`` processes; every one still running is killed at the end."""
    started: list[LiveServer] = []

    class Tracked(LiveServer):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            started.append(self)

    yield Tracked
    for server in started:
        server.kill()


@pytest.fixture
def wire_server(sqlite_url: str) -> Iterator[ThreadedServer]:
    """The app served over real loopback sockets by uvicorn, in a thread of the test process."""
    server = ThreadedServer(create_app(Settings(db_url=sqlite_url, bot_delay=0, bot_workers=0)))
    try:
        yield server
    finally:
        server.stop()
