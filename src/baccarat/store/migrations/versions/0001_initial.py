"""The initial schema: accounts, the ledger, players, tables, shoes, rounds, bets.

Revision ID: 0001
Revises:
Create Date: 2024-06-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

_BIG = sa.BigInteger()


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(100), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("balance", _BIG, nullable=False),
        sa.Column("created_at", _BIG, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_accounts"),
    )
    op.create_table(
        "ledger_transactions",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=True),
        sa.Column("memo", sa.String(200), nullable=True),
        sa.Column("created_at", _BIG, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_ledger_transactions"),
    )
    op.create_table(
        "ledger_entries",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("txn_id", sa.String(32), nullable=False),
        sa.Column("account_id", sa.String(100), nullable=False),
        sa.Column("amount", _BIG, nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name="fk_ledger_entries_account_id_accounts"
        ),
        sa.ForeignKeyConstraint(
            ["txn_id"],
            ["ledger_transactions.id"],
            name="fk_ledger_entries_txn_id_ledger_transactions",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_ledger_entries"),
    )
    op.create_index("ix_ledger_entries_txn_id", "ledger_entries", ["txn_id"])
    op.create_index("ix_ledger_entries_account_id", "ledger_entries", ["account_id"])
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("account_id", sa.String(100), nullable=False),
        sa.Column("created_at", _BIG, nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name="fk_players_account_id_accounts"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_players"),
        sa.UniqueConstraint("token_hash", name="uq_players_token_hash"),
    )
    op.create_table(
        "game_tables",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("ruleset", sa.String(200), nullable=False),
        sa.Column("settings", sa.Text(), nullable=False),
        sa.Column("created_at", _BIG, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_game_tables"),
    )
    op.create_table(
        "shoes",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("algorithm", sa.String(40), nullable=False),
        sa.Column("decks", sa.Integer(), nullable=False),
        sa.Column("ruleset_toml", sa.Text(), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("server_seed", sa.String(64), nullable=False),
        sa.Column("client_seed", sa.String(64), nullable=True),
        sa.Column("digest", sa.String(64), nullable=True),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("started_at", _BIG, nullable=False),
        sa.Column("ended_at", _BIG, nullable=True),
        sa.ForeignKeyConstraint(
            ["table_id"], ["game_tables.id"], name="fk_shoes_table_id_game_tables"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_shoes"),
    )
    op.create_index("ix_shoes_table_id_status", "shoes", ["table_id", "status"])
    op.create_table(
        "rounds",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("shoe_id", sa.String(32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("phase", sa.String(8), nullable=False),
        sa.Column("opened_at", _BIG, nullable=False),
        sa.Column("closes_at", _BIG, nullable=False),
        sa.Column("closed_at", _BIG, nullable=True),
        sa.Column("cards", sa.String(24), nullable=True),
        sa.Column("dealt_at", _BIG, nullable=True),
        sa.Column("void_reason", sa.String(200), nullable=True),
        sa.Column("finished_at", _BIG, nullable=True),
        sa.ForeignKeyConstraint(["shoe_id"], ["shoes.id"], name="fk_rounds_shoe_id_shoes"),
        sa.ForeignKeyConstraint(
            ["table_id"], ["game_tables.id"], name="fk_rounds_table_id_game_tables"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_rounds"),
    )
    op.create_index("ix_rounds_table_id_phase", "rounds", ["table_id", "phase"])
    op.create_index("ix_rounds_shoe_id", "rounds", ["shoe_id"])
    op.create_table(
        "bets",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("spot", sa.String(32), nullable=False),
        sa.Column("stake", _BIG, nullable=False),
        sa.Column("txn_id", sa.String(32), nullable=False),
        sa.Column("created_at", _BIG, nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name="fk_bets_player_id_players"),
        sa.ForeignKeyConstraint(["round_id"], ["rounds.id"], name="fk_bets_round_id_rounds"),
        sa.ForeignKeyConstraint(
            ["table_id"], ["game_tables.id"], name="fk_bets_table_id_game_tables"
        ),
        sa.ForeignKeyConstraint(
            ["txn_id"], ["ledger_transactions.id"], name="fk_bets_txn_id_ledger_transactions"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_bets"),
    )
    op.create_index("ix_bets_round_id_player_id", "bets", ["round_id", "player_id"])
    op.create_index(
        "ix_bets_player_id_table_id_round_id", "bets", ["player_id", "table_id", "round_id"]
    )
    op.create_table(
        "bet_outcomes",
        sa.Column("bet_id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("event", sa.String(32), nullable=True),
        sa.Column("result", sa.String(8), nullable=True),
        sa.Column("returned", _BIG, nullable=False),
        sa.Column("txn_id", sa.String(32), nullable=False),
        sa.Column("created_at", _BIG, nullable=False),
        sa.ForeignKeyConstraint(["bet_id"], ["bets.id"], name="fk_bet_outcomes_bet_id_bets"),
        sa.ForeignKeyConstraint(
            ["round_id"], ["rounds.id"], name="fk_bet_outcomes_round_id_rounds"
        ),
        sa.ForeignKeyConstraint(
            ["txn_id"],
            ["ledger_transactions.id"],
            name="fk_bet_outcomes_txn_id_ledger_transactions",
        ),
        sa.PrimaryKeyConstraint("bet_id", name="pk_bet_outcomes"),
    )
    op.create_index("ix_bet_outcomes_round_id", "bet_outcomes", ["round_id"])
    op.create_table(
        "idempotency_keys",
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("key", sa.String(200), nullable=False),
        sa.Column("request_hash", sa.String(64), nullable=False),
        sa.Column("response", sa.Text(), nullable=False),
        sa.Column("created_at", _BIG, nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name="fk_idempotency_keys_player_id_players"
        ),
        sa.PrimaryKeyConstraint("player_id", "key", name="pk_idempotency_keys"),
    )
    op.create_table(
        "player_seeds",
        sa.Column("shoe_id", sa.String(32), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("created_at", _BIG, nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name="fk_player_seeds_player_id_players"
        ),
        sa.ForeignKeyConstraint(["shoe_id"], ["shoes.id"], name="fk_player_seeds_shoe_id_shoes"),
        sa.PrimaryKeyConstraint("shoe_id", "player_id", name="pk_player_seeds"),
    )


def downgrade() -> None:
    for table in (
        "player_seeds",
        "idempotency_keys",
        "bet_outcomes",
        "bets",
        "rounds",
        "shoes",
        "game_tables",
        "players",
        "ledger_entries",
        "ledger_transactions",
        "accounts",
    ):
        op.drop_table(table)
