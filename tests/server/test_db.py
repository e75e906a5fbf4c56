"""The schema: Alembic's migrations build exactly the tables the code describes, on both databases."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from ziggurat.server.db import make_engine, metadata, migrate, normalise_url


def test_migrations_match_the_models(db_url: str) -> None:
    engine = make_engine(db_url)
    migrate(engine)
    migrate(engine)  # running again changes nothing
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
    engine.dispose()
    assert diff == []


def test_postgres_urls_use_psycopg3() -> None:
    assert normalise_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_url("sqlite:///x.db") == "sqlite:///x.db"
