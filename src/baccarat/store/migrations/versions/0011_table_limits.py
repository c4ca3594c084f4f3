"""Table limits an operator changes between rounds.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_limits",
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("pending", sa.Text(), nullable=True),
        sa.Column("current", sa.Text(), nullable=True),
        sa.Column("updated_at", sa.BigInteger(), nullable=False),
    )
    with op.batch_alter_table("rounds") as batch:
        batch.add_column(sa.Column("limits", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rounds") as batch:
        batch.drop_column("limits")
    op.drop_table("table_limits")
