"""Integrity alerts: what the integrity monitor raised, per table.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "integrity_alerts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("key", sa.String(200), nullable=False),
        sa.Column("scope", sa.String(100), nullable=False),
        sa.Column("subject", sa.String(100), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=True),
        sa.Column("shoe_id", sa.String(32), nullable=True),
        sa.Column("raised_at", sa.BigInteger(), nullable=False),
        sa.Column("z", sa.Float(), nullable=False),
        sa.Column("p_value", sa.Float(), nullable=False),
        sa.Column("alpha", sa.Float(), nullable=False),
        sa.Column("detail", sa.Text(), nullable=False),
    )
    op.create_index(
        "ix_integrity_alerts_table_id_raised_at", "integrity_alerts", ["table_id", "raised_at"]
    )


def downgrade() -> None:
    op.drop_index("ix_integrity_alerts_table_id_raised_at", "integrity_alerts")
    op.drop_table("integrity_alerts")
