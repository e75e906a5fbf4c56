"""Invites apart from seat secrets: an open seat's invite (or a seated player's link for another device) is
kept in ``seats.invite_hash``; ``seats.token_hash`` is only ever the secret of whoever sits there.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``seats.invite_hash``; an open seat's secret so far was its invite: it moves there."""
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("invite_hash", sa.String(64), nullable=True))
        batch.create_unique_constraint("uq_seats_invite_hash", ["invite_hash"])
    seats = sa.table(
        "seats",
        sa.column("token_hash", sa.String),
        sa.column("invite_hash", sa.String),
        sa.column("claimed_at", sa.DateTime),
        sa.column("kind", sa.String),
    )
    op.execute(
        seats.update()
        .where(seats.c.claimed_at.is_(None), seats.c.kind == "human")
        .values(invite_hash=seats.c.token_hash, token_hash=None)
    )


def downgrade() -> None:
    """Open seats' invites back into ``token_hash``; drop the column."""
    seats = sa.table(
        "seats",
        sa.column("token_hash", sa.String),
        sa.column("invite_hash", sa.String),
        sa.column("claimed_at", sa.DateTime),
    )
    op.execute(seats.update().where(seats.c.claimed_at.is_(None)).values(token_hash=seats.c.invite_hash))
    with op.batch_alter_table("seats") as batch:
        batch.drop_constraint("uq_seats_invite_hash", type_="unique")
        batch.drop_column("invite_hash")
