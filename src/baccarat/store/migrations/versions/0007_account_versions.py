"""Account versions: a counter on each account row, moved by every posting to it.

A bet writer keeps the stakes it last read for a player, with the version of the player's
account it read them under; the version it reads with the balance under the account's lock
says whether anyone has posted to the account since (``baccarat.store.stakes_cache``).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("version", sa.BigInteger(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("version")
