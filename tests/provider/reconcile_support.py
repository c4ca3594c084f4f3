"""Helpers of the reconciliation tests: a migrated database (SQLite, or a PostgreSQL schema of
its own), and a ``Book`` that writes an operator, its players, rounds and wallet calls
straight to the store, with the ledger postings provider mode makes (a confirmed debit moves
``wallet:{op}`` → ``player:{id}``, a credit ``player:{id}`` → ``wallet:{op}``), as the bet
path (written beside this) will."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator
from pathlib import Path

from pg_schemas import postgres_schema
from sqlalchemy import Connection, select

from baccarat.store import Database, upgrade
from baccarat.store.ledger import Transaction, ensure_accounts, new_id, player_account, post
from baccarat.store.players import create_player, new_token
from baccarat.store.schema import (
    game_tables,
    operator_players,
    operators,
    rounds,
    shoes,
    wallet_transactions,
)
from baccarat.store.shoes import register_table

TABLE = "standard"
SHOE = "shoe-reconcile"


@contextlib.contextmanager
def database_url(kind: str, folder: Path) -> Iterator[str]:
    """A fresh database: a SQLite file, or a new PostgreSQL schema (dropped after); a skip
    without PostgreSQL unless BACCARAT_REQUIRE_SERVICES=1."""
    if kind == "sqlite":
        yield f"sqlite:///{folder / 'wallet.db'}"
        return
    with postgres_schema("baccarat_rec") as url:
        yield url


def migrated(url: str) -> Database:
    database = Database(url)
    upgrade(database)
    add_shoe(database)
    return database


def add_shoe(database: Database) -> None:
    """The table ``standard`` (if the database has none: a server's own is left as it is) and a
    shoe of it for ``Book.round``."""
    with database.write() as c:
        if c.scalar(select(game_tables.c.id).where(game_tables.c.id == TABLE)) is None:
            register_table(c, TABLE, TABLE, {}, 0)
        if c.scalar(select(shoes.c.id).where(shoes.c.id == SHOE)) is None:
            c.execute(
                shoes.insert().values(
                    id=SHOE, table_id=TABLE, number=10_000, algorithm="test", decks=8,
                    ruleset_toml="", commitment="", server_seed="", status="ended", started_at=0,
                )
            )  # fmt: skip


def wallet_account(operator_id: str) -> str:
    return f"wallet:{operator_id}"


class Book:
    """An operator of its own in ``database`` (a fresh id each time, so many books share one
    database), and what it writes."""

    def __init__(
        self,
        database: Database,
        operator_id: str | None = None,
        *,
        timeout_ms: int = 2_000,
        disabled: bool = False,
    ) -> None:
        """``disabled``: a disabled operator whose queued rows are due only in a long while,
        so a server's outbox sender (which pays disabled operators too) leaves them queued
        while a test reads them."""
        self.database = database
        self.disabled = disabled
        self.operator = operator_id or f"op-{uuid.uuid4().hex[:10]}"
        self.timeout_ms = timeout_ms
        with database.write() as c:
            c.execute(
                operators.insert().values(
                    id=self.operator, name=f"Casino {self.operator}",
                    wallet_url="http://127.0.0.1:9/wallet", currency="IDR",
                    secret_sealed="not-a-secret", timeout_ms=timeout_ms, created_at=0,
                    disabled_at=1 if disabled else None,
                )
            )  # fmt: skip
            ensure_accounts(c, {wallet_account(self.operator): "wallet"}, 0)

    def player(self, external_id: str | None = None) -> str:
        with self.database.write() as c:
            player = create_player(c, new_token(), 0, 0)
            c.execute(
                operator_players.insert().values(
                    player_id=player, operator_id=self.operator,
                    external_id=external_id or f"ext-{player[:8]}", display_name="P",
                    currency="IDR", language="en", created_at=0,
                )
            )  # fmt: skip
            return player

    def round(self, phase: str, number: int = 1) -> int:
        with self.database.write() as c:
            found = c.execute(
                rounds.insert().values(
                    table_id=TABLE, shoe_id=SHOE, number=number, phase=phase,
                    opened_at=0, closes_at=1,
                )
            )  # fmt: skip
            key = found.inserted_primary_key
            assert key is not None
            return int(key[0])

    def debit(self, player: str, round_id: int | None, amount: int, state: str, at: int) -> str:
        """A debit written at ``at``; a confirmed one is confirmed then too, and posted."""
        call = new_id()
        with self.database.write() as c:
            self._insert(c, call, "debit", player, round_id, amount, state, at, None, 0)
            if state == "confirmed":
                entries = [
                    (wallet_account(self.operator), -amount),
                    (player_account(player), amount),
                ]
                post(c, [Transaction("wallet_debit", entries, round_id)], at)
        return call

    def end(
        self, debit: str, kind: str, amount: int, state: str, at: int, attempts: int = 0
    ) -> str:
        """The credit (posted) or rollback that ends ``debit``, written at ``at``."""
        call = new_id()
        with self.database.write() as c:
            row = c.execute(
                wallet_transactions.select().where(wallet_transactions.c.id == debit)
            ).one()
            self._insert(
                c, call, kind, row.player_id, row.round_id, amount, state, at, debit, attempts
            )
            if kind == "credit":
                entries = [
                    (player_account(row.player_id), -amount),
                    (wallet_account(self.operator), amount),
                ]
                post(c, [Transaction("wallet_credit", entries, row.round_id)], at)
        return call

    def _due(self, at: int) -> int:
        return at + 10**12 if self.disabled else at

    def _insert(
        self, c: Connection, call: str, kind: str, player: str, round_id: int | None,
        amount: int, state: str, at: int, reference: str | None, attempts: int,
    ) -> None:  # fmt: skip
        c.execute(
            wallet_transactions.insert().values(
                id=call, operator_id=self.operator, player_id=player, kind=kind,
                round_id=round_id, table_id=TABLE, amount=amount, currency="IDR",
                reference_id=reference, round_closed=kind == "credit", state=state,
                attempts=attempts, next_attempt_at=self._due(at) if state == "queued" else None,
                last_error="reference_not_found" if state == "failed" else None,
                answer='{"status": "ok"}' if state in ("confirmed", "done") else None,
                created_at=at, updated_at=at,
            )
        )  # fmt: skip
