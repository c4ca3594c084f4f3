"""Shifts of the back office: who opened one, when it was handed over, and its report.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "shifts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("opened_at", sa.BigInteger(), nullable=False),
        sa.Column("opened_by", sa.String(40), nullable=False),
        sa.Column("closed_at", sa.BigInteger(), nullable=True),
        sa.Column("closed_by", sa.String(40), nullable=True),
        sa.Column("note", sa.String(500), nullable=True),
        sa.Column("open_slot", sa.Integer(), nullable=True),
        sa.UniqueConstraint("open_slot", name="uq_shifts_open_slot"),
        sa.CheckConstraint("open_slot = 1", name="ck_shifts_open_slot"),
    )
    op.create_table(
        "shift_reports",
        sa.Column("shift_id", sa.Integer(), sa.ForeignKey("shifts.id"), primary_key=True),
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("rounds_dealt", sa.Integer(), nullable=False),
        sa.Column("rounds_voided", sa.Integer(), nullable=False),
        sa.Column("alerts", sa.Integer(), nullable=False),
        sa.Column("real_bets", sa.Integer(), nullable=False),
        sa.Column("real_turnover", sa.BigInteger(), nullable=False),
        sa.Column("real_paid", sa.BigInteger(), nullable=False),
        sa.Column("demo_bets", sa.Integer(), nullable=False),
        sa.Column("demo_turnover", sa.BigInteger(), nullable=False),
        sa.Column("demo_paid", sa.BigInteger(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("shift_reports")
    op.drop_table("shifts")
