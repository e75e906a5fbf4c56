"""Languages: an account remembers the language of the site for it (its mails are written in it).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``users.lang``."""
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("lang", sa.String(8), nullable=True))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("users") as batch:
        batch.drop_column("lang")
