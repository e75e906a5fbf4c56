"""Hardening: whether a table's seed was chosen by its creator; failed jobs are tried again.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``tables.seed_chosen`` and ``jobs.attempts``."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("seed_chosen", sa.Boolean, nullable=False, server_default=sa.false()))
    with op.batch_alter_table("jobs") as batch:
        batch.add_column(sa.Column("attempts", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("jobs") as batch:
        batch.drop_column("attempts")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("seed_chosen")
