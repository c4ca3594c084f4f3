"""Staff: users with a role, their sessions, table controls, player status and operator limits.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_BIG = sa.BigInteger()


def upgrade() -> None:
    op.create_table(
        "staff_users",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("username", sa.String(40), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created_at", _BIG, nullable=False),
        sa.Column("disabled_at", _BIG, nullable=True),
        sa.CheckConstraint("role IN ('operator', 'auditor', 'admin')", name="ck_staff_users_role"),
        sa.PrimaryKeyConstraint("id", name="pk_staff_users"),
        sa.UniqueConstraint("username", name="uq_staff_users_username"),
    )
    op.create_table(
        "staff_sessions",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("staff_id", sa.String(32), nullable=False),
        sa.Column("created_at", _BIG, nullable=False),
        sa.Column("expires_at", _BIG, nullable=False),
        sa.Column("ended_at", _BIG, nullable=True),
        sa.Column("last_seen_at", _BIG, nullable=False),
        sa.ForeignKeyConstraint(
            ["staff_id"], ["staff_users.id"], name="fk_staff_sessions_staff_id_staff_users"
        ),
        sa.PrimaryKeyConstraint("token_hash", name="pk_staff_sessions"),
    )
    op.create_index("ix_staff_sessions_staff_id", "staff_sessions", ["staff_id"])
    op.create_table(
        "table_controls",
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("pending", sa.Text(), nullable=True),
        sa.Column("applied", sa.Text(), nullable=True),
        sa.Column("updated_at", _BIG, nullable=False),
        sa.CheckConstraint(
            "status IN ('open', 'paused', 'closed')", name="ck_table_controls_status"
        ),
        sa.PrimaryKeyConstraint("table_id", name="pk_table_controls"),
    )
    op.create_table(
        "player_status",
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("locked_at", _BIG, nullable=True),
        sa.Column("closed_at", _BIG, nullable=True),
        sa.Column("reason", sa.String(200), nullable=True),
        sa.Column("updated_at", _BIG, nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name="fk_player_status_player_id_players"
        ),
        sa.PrimaryKeyConstraint("player_id", name="pk_player_status"),
    )
    op.create_table(
        "operator_limits",
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("period", sa.String(4), nullable=False),
        sa.Column("amount", _BIG, nullable=False),
        sa.Column("set_at", _BIG, nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name="fk_operator_limits_player_id_players"
        ),
        sa.PrimaryKeyConstraint("player_id", "kind", "period", name="pk_operator_limits"),
    )


def downgrade() -> None:
    op.drop_table("operator_limits")
    op.drop_table("player_status")
    op.drop_table("table_controls")
    op.drop_index("ix_staff_sessions_staff_id", table_name="staff_sessions")
    op.drop_table("staff_sessions")
    op.drop_table("staff_users")
