"""Fixtures shared by the test folders: a real PostgreSQL server, SQLite files, live server processes."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from tests.server.pg import TempPostgres
from tests.server.redis_server import TempRedis
from tests.server.util import LiveServer

# The fuzz tests' budget: "ci" (the default, and what `make test` runs) keeps the whole suite well
# under its time limit; HYPOTHESIS_PROFILE=deep runs many more cases per loader when hunting.
FUZZ_EXAMPLES = {"ci": 60, "deep": 2000}
for _name, _n in FUZZ_EXAMPLES.items():
    settings.register_profile(
        _name,
        max_examples=_n,
        deadline=None,
        derandomize=_name == "ci",
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def saves_key_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test keeps the key of sealed terminal saves in a folder of its own, never in the user's home."""
    monkeypatch.setenv("ZIGGURAT_HOME", str(tmp_path_factory.mktemp("ziggurat-home")))


@pytest.fixture(scope="session")
def postgres() -> Iterator[TempPostgres]:
    """One PostgreSQL server per test process (each test gets its own database)."""
    pg = TempPostgres().start()
    try:
        yield pg
    finally:
        pg.stop()


@pytest.fixture(scope="session")
def redis() -> Iterator[TempRedis]:
    """One Redis server per test process (the other carrier of news between server processes)."""
    server = TempRedis().start()
    try:
        yield server
    finally:
        server.stop()


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
