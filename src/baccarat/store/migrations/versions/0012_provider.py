"""Provider mode: operators, their players and launches, and the calls of their wallets.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

# As ``store.money.money_check`` gave it for MONEY_LIMIT when this migration was written.
_AMOUNT = (
    "amount BETWEEN -9007199254740991 AND 9007199254740991 AND amount = CAST(amount AS BIGINT)"
)


def upgrade() -> None:
    op.create_table(
        "operators",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("wallet_url", sa.String(500), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("secret_sealed", sa.Text(), nullable=False),
        sa.Column("previous_secret_sealed", sa.Text(), nullable=True),
        sa.Column("previous_until", sa.BigInteger(), nullable=True),
        sa.Column("timeout_ms", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("disabled_at", sa.BigInteger(), nullable=True),
    )
    op.create_table(
        "operator_players",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("operator_id", sa.String(40), sa.ForeignKey("operators.id"), nullable=False),
        sa.Column("external_id", sa.String(100), nullable=False),
        sa.Column("display_name", sa.String(100), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.UniqueConstraint("operator_id", "external_id"),
    )
    op.create_table(
        "launch_tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("operator_id", sa.String(40), sa.ForeignKey("operators.id"), nullable=False),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("table_id", sa.String(64), nullable=True),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("expires_at", sa.BigInteger(), nullable=False),
        sa.Column("used_at", sa.BigInteger(), nullable=True),
    )
    op.create_table(
        "launch_requests",
        sa.Column("operator_id", sa.String(40), primary_key=True),
        sa.Column("signature", sa.String(64), primary_key=True),
        sa.Column("received_at", sa.BigInteger(), nullable=False),
    )
    op.create_index(None, "launch_requests", ["received_at"])
    op.create_table(
        "wallet_transactions",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("operator_id", sa.String(40), sa.ForeignKey("operators.id"), nullable=False),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=True),
        sa.Column("table_id", sa.String(64), nullable=True),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("reference_id", sa.String(40), nullable=True, unique=True),
        sa.Column("round_closed", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("state", sa.String(12), nullable=False),
        sa.Column("bet_txn_id", sa.String(32), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("next_attempt_at", sa.BigInteger(), nullable=True),
        sa.Column("last_error", sa.String(500), nullable=True),
        sa.Column("answer", sa.Text(), nullable=True),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", sa.BigInteger(), nullable=False),
        sa.CheckConstraint("kind IN ('debit', 'credit', 'rollback')", name="ck_wallet_kind"),
        sa.CheckConstraint(_AMOUNT, name="ck_wallet_amount"),
        sa.CheckConstraint("amount >= 0", name="ck_wallet_amount_positive"),
    )
    op.create_index(None, "wallet_transactions", ["state", "next_attempt_at"])
    op.create_index(None, "wallet_transactions", ["operator_id", "created_at"])
    op.create_index(None, "wallet_transactions", ["round_id"])


def downgrade() -> None:
    op.drop_table("wallet_transactions")
    op.drop_table("launch_requests")
    op.drop_table("launch_tokens")
    op.drop_table("operator_players")
    op.drop_table("operators")
