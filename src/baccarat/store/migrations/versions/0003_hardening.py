"""Operator-grade hardening: bounded money, encrypted shoe seeds, sessions, demo play, voids.

Each concern has its own function below; ``upgrade`` applies them in order.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

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
    _record_pseudonyms()
    _forget_uncached_balances()  # again: a step above may have moved them


def downgrade() -> None:
    raise NotImplementedError("the hardening migration is one-way")


#: The money columns and their CHECKs (``baccarat.store.money``; mirrored in ``schema``).
_MONEY_CHECKS = (
    ("accounts", "balance", "ck_accounts_balance", 2**62),
    ("ledger_entries", "amount", "ck_ledger_entries_amount", 2**53 - 1),
    ("bets", "stake", "ck_bets_stake", 2**53 - 1),
    ("bet_outcomes", "returned", "ck_bet_outcomes_returned", 2**53 - 1),
)
#: The sources of money whose balance is no longer cached (``baccarat.store.ledger.UNCACHED``).
_UNCACHED = ("world", "demo-bank")


def _check_sql(column: str, limit: int) -> str:
    return f"{column} BETWEEN -{limit} AND {limit} AND {column} = CAST({column} AS BIGINT)"


def _money_bounds() -> None:
    """Ledger columns provably integer and bounded: a CHECK per money column refuses a REAL
    (SQLite) and any value past the bounds, so no sum can overflow into one.

    The world's cached balance is dropped first (it is not kept any more, and an attacked
    database may hold it past the bound). SQLite cannot add a CHECK in place and Alembic's
    batch copy cannot drop a table other tables refer to while foreign keys are enforced, so
    each table is rebuilt by hand with foreign-key checks deferred to the commit: copy the
    rows aside, drop the table, create it again with the CHECK, put the rows back (which
    satisfies the references again), and recreate its indexes.
    """
    _forget_uncached_balances()
    bind = op.get_bind()
    for table, column, name, limit in _MONEY_CHECKS:
        condition = _check_sql(column, limit)
        if bind.dialect.name != "sqlite":
            op.create_check_constraint(name, table, condition)
            continue
        _sqlite_add_check(table, f"CONSTRAINT {name} CHECK ({condition})")


def _forget_uncached_balances() -> None:
    accounts = sa.table("accounts", sa.column("id"), sa.column("balance"))
    op.get_bind().execute(accounts.update().where(accounts.c.id.in_(_UNCACHED)).values(balance=0))


def _sqlite_add_check(table: str, constraint: str) -> None:
    bind = op.get_bind()
    bind.exec_driver_sql("PRAGMA defer_foreign_keys = ON")  # until this transaction commits
    create = bind.exec_driver_sql(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
    ).scalar_one()
    index_sql = "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ?"
    indexes = bind.exec_driver_sql(f"{index_sql} AND sql IS NOT NULL", (table,)).scalars().all()
    body = create.rstrip().removesuffix(")")
    copy = f"_money_copy_{table}"
    bind.exec_driver_sql(f"CREATE TABLE {copy} AS SELECT * FROM {table}")
    bind.exec_driver_sql(f"DROP TABLE {table}")
    bind.exec_driver_sql(f"{body}, {constraint})")
    bind.exec_driver_sql(f"INSERT INTO {table} SELECT * FROM {copy}")
    bind.exec_driver_sql(f"DROP TABLE {copy}")
    for index in indexes:
        bind.exec_driver_sql(index)


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
    """Shoe server seeds encrypted at rest.

    A migration cannot know the operator's key: the server seals the seeds of shoes still
    in play at start (``baccarat.store.shoes.seal_open_shoes``). Only a column is added, so
    SQLite needs no table rebuild (which foreign keys to ``shoes`` would refuse).
    """
    op.add_column("shoes", sa.Column("sealed_seed", sa.String(128), nullable=True))


def _demo_play() -> None:
    """Guests play with demo money: ``players.demo``, their accounts of kind ``demo``, and
    what ``world`` gave the guests so far moved to ``demo-bank`` (one correction), so that
    real money and demo money each add up on their own."""
    import time
    import uuid

    op.add_column(
        "players", sa.Column("demo", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    players = sa.table("players", sa.column("id"), sa.column("account_id"), sa.column("demo"))
    logins = sa.table("logins", sa.column("player_id"))
    accounts = sa.table(
        "accounts",
        sa.column("id"),
        sa.column("kind"),
        sa.column("balance"),
        sa.column("created_at"),
    )
    entries = sa.table(
        "ledger_entries", sa.column("txn_id"), sa.column("account_id"), sa.column("amount")
    )
    transactions = sa.table(
        "ledger_transactions",
        sa.column("id"),
        sa.column("kind"),
        sa.column("memo"),
        sa.column("created_at"),
    )
    bind = op.get_bind()
    # Until now every player without a login was a guest.
    guest = ~sa.exists().where(logins.c.player_id == players.c.id)
    bind.execute(players.update().where(guest).values(demo=True))
    demo_accounts = sa.select(players.c.account_id).where(players.c.demo == sa.true())
    bind.execute(accounts.update().where(accounts.c.id.in_(demo_accounts)).values(kind="demo"))
    with_world = sa.select(entries.c.txn_id).where(entries.c.account_id == "world")
    given = bind.scalar(
        sa.select(sa.func.coalesce(sa.func.sum(entries.c.amount), 0)).where(
            entries.c.account_id.in_(demo_accounts), entries.c.txn_id.in_(with_world)
        )
    )
    if not given:
        return
    given, now = int(given), time.time_ns() // 1_000_000
    if bind.scalar(sa.select(accounts.c.id).where(accounts.c.id == "demo-bank")) is None:
        bind.execute(
            accounts.insert().values(id="demo-bank", kind="demo-bank", balance=0, created_at=now)
        )
    txn = uuid.uuid4().hex
    bind.execute(
        transactions.insert().values(
            id=txn,
            kind="correction",
            memo="guests' demo credit: from world to demo-bank",
            created_at=now,
        )
    )
    # The two sources keep no cached balance (baccarat.store.ledger.UNCACHED): entries only.
    bind.execute(
        entries.insert(),
        [
            {"txn_id": txn, "account_id": "world", "amount": given},
            {"txn_id": txn, "account_id": "demo-bank", "amount": -given},
        ],
    )


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


def _record_pseudonyms() -> None:
    """The secret key of the per-shoe player pseudonyms in public shoe records
    (``baccarat.store.pseudonyms``): random, made once, never shown."""
    import secrets

    table = op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("value", sa.String(128), nullable=False),
        sa.PrimaryKeyConstraint("name", name="pk_server_secrets"),
    )
    op.bulk_insert(table, [{"name": "record_pseudonyms", "value": secrets.token_hex(32)}])
