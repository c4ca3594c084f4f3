"""Studio tables: shoes of a kind (fair or studio) with a shuffle certificate, every card read
from a studio shoe, the dealer seated at each studio table, device tokens, and the dealer role.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

_ROLES = "role IN ('operator', 'auditor', 'admin', 'dealer')"
_OLD_ROLES = "role IN ('operator', 'auditor', 'admin')"


def upgrade() -> None:
    with op.batch_alter_table("shoes") as batch:
        batch.add_column(sa.Column("kind", sa.String(8), nullable=False, server_default="fair"))
        batch.add_column(sa.Column("certificate", sa.Text(), nullable=True))
    with op.batch_alter_table("staff_users") as batch:
        batch.drop_constraint("ck_staff_users_role", type_="check")
        batch.create_check_constraint("ck_staff_users_role", _ROLES)
    op.create_table(
        "studio_reads",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(64), sa.ForeignKey("game_tables.id"), nullable=False),
        sa.Column("shoe_id", sa.String(32), sa.ForeignKey("shoes.id"), nullable=False),
        sa.Column("scan_id", sa.String(64), nullable=False),
        sa.Column("card", sa.String(3), nullable=False),
        sa.Column("use", sa.String(12), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=True),
        sa.Column("position", sa.String(16), nullable=True),
        sa.Column("round_id", sa.Integer(), sa.ForeignKey("rounds.id"), nullable=True),
        sa.Column("at", sa.BigInteger(), nullable=False),
        sa.Column("read_by", sa.String(80), nullable=False),
        sa.Column("reason", sa.String(200), nullable=True),
        sa.Column("resolved_by", sa.String(80), nullable=True),
        sa.Column("resolution", sa.String(16), nullable=True),
        sa.Column("resolved_at", sa.BigInteger(), nullable=True),
        sa.UniqueConstraint("table_id", "scan_id", name="uq_studio_reads_table_id_scan_id"),
    )
    op.create_index("ix_studio_reads_shoe_id_seq", "studio_reads", ["shoe_id", "seq"])
    op.create_table(
        "studio_desks",
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("dealer", sa.String(40), nullable=False),
        sa.Column("since", sa.BigInteger(), nullable=False),
    )
    op.create_table(
        "device_tokens",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("label", sa.String(80), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("created_by", sa.String(80), nullable=False),
        sa.Column("revoked_at", sa.BigInteger(), nullable=True),
        sa.UniqueConstraint("token_hash", name="uq_device_tokens_token_hash"),
    )


def downgrade() -> None:
    op.drop_table("device_tokens")
    op.drop_table("studio_desks")
    op.drop_table("studio_reads")
    with op.batch_alter_table("staff_users") as batch:
        batch.drop_constraint("ck_staff_users_role", type_="check")
        batch.create_check_constraint("ck_staff_users_role", _OLD_ROLES)
    with op.batch_alter_table("shoes") as batch:
        batch.drop_column("certificate")
        batch.drop_column("kind")
