"""Alembic environment: migrations run on the connection the server hands over (see ``db.migrate``)."""

from __future__ import annotations

from alembic import context

from ziggurat.server.db import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - the server always passes its connection
    raise RuntimeError("run migrations through ziggurat.server.db.migrate(engine)")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
