"""Operators' tools: accounts can be banned (``users.banned_at``, ``users.ban_reason``).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the ban columns."""
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("banned_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("ban_reason", sa.String(200), nullable=True))
    op.create_index("ix_users_banned_at", "users", ["banned_at"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_users_banned_at", "users")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("ban_reason")
        batch.drop_column("banned_at")
