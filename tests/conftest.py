"""Fixtures shared by the test folders: a real PostgreSQL server, SQLite files, live server processes."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from tests.server.pg import TempPostgres
from tests.server.util import LiveServer


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


@pytest.fixture
def live_server() -> Iterator[type[LiveServer]]:
    """Start real ``ziggurat serve`` processes; every one still running is killed at the end."""
    started: list[LiveServer] = []

    class Tracked(LiveServer):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            started.append(self)

    yield Tracked
    for server in started:
        server.kill()
