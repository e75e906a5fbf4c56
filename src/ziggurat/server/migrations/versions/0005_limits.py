"""Abuse limits: the shared counts and blocks, and who created each table (quotas).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``limits`` and ``tables.creator_addr`` / ``creator_user_id`` (with their indexes)."""
    op.create_table(
        "limits",
        sa.Column("key", sa.String(160), primary_key=True),
        sa.Column("count", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("blocked_until", sa.DateTime(timezone=True), nullable=True),
    )
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("creator_addr", sa.String(64), nullable=True))
        batch.add_column(sa.Column("creator_user_id", sa.Integer, nullable=True))
    op.create_index("ix_tables_creator_addr", "tables", ["creator_addr", "status"])
    op.create_index("ix_tables_creator_user", "tables", ["creator_user_id", "status"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_tables_creator_user", "tables")
    op.drop_index("ix_tables_creator_addr", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("creator_user_id")
        batch.drop_column("creator_addr")
    op.drop_table("limits")
