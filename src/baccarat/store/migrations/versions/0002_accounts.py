"""Registered logins, expiring sessions, responsible-gaming controls, the audit log.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

_BIG = sa.BigInteger()


def upgrade() -> None:
    op.create_table(
        "logins",
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("username", sa.String(40), nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("last_login_at", _BIG, nullable=True),
        sa.Column("created_at", _BIG, nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name="fk_logins_player_id_players"),
        sa.PrimaryKeyConstraint("player_id", name="pk_logins"),
        sa.UniqueConstraint("username", name="uq_logins_username"),
    )
    op.create_table(
        "auth_sessions",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("created_at", _BIG, nullable=False),
        sa.Column("expires_at", _BIG, nullable=False),
        sa.Column("ended_at", _BIG, nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name="fk_auth_sessions_player_id_players"
        ),
        sa.PrimaryKeyConstraint("token_hash", name="pk_auth_sessions"),
    )
    op.create_index("ix_auth_sessions_player_id", "auth_sessions", ["player_id"])
    op.create_table(
        "player_controls",
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("limits", sa.Text(), nullable=False),
        sa.Column("breaks", sa.Text(), nullable=False),
        sa.Column("session_settings", sa.Text(), nullable=False),
        sa.Column("session", sa.Text(), nullable=True),
        sa.Column("updated_at", _BIG, nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name="fk_player_controls_player_id_players"
        ),
        sa.PrimaryKeyConstraint("player_id", name="pk_player_controls"),
    )
    op.create_table(
        "audit_log",
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("time", sa.String(32), nullable=False),
        sa.Column("actor", sa.String(100), nullable=False),
        sa.Column("action", sa.String(40), nullable=False),
        sa.Column("details", sa.Text(), nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("seq", name="pk_audit_log"),
    )


def downgrade() -> None:
    op.drop_table("audit_log")
    op.drop_table("player_controls")
    op.drop_index("ix_auth_sessions_player_id", table_name="auth_sessions")
    op.drop_table("auth_sessions")
    op.drop_table("logins")
