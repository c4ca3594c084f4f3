"""The double-entry ledger: accounts, balanced transactions, balances.

Every movement of money is a transaction whose entries sum to zero; entries are only ever
inserted, so a correction is a new transaction. An account's balance is the sum of its
entries; ``accounts.balance`` caches it and is updated in the same database transaction,
except for the two sources (``world`` and ``demo-bank``): each is minus what it gave out,
unbounded by design, so its cache stays 0 and nothing can pin it (``baccarat.store.money``
has the argument).

Sign convention: an entry adds its amount to the account. A deposit of 100 is
``world -100, player +100``; a bet of 10 is ``player -10, stake +10``.

>>> Transaction("bet", [("player:a", -10), ("stake:t", 10)]).total
0
>>> Transaction("bet", [("player:a", -10), ("stake:t", 9)])
Traceback (most recent call last):
...
baccarat.store.ledger.LedgerError: transaction 'bet' does not balance: entries sum to -1
>>> Transaction("deposit", [("world", -(2**53)), ("player:a", 2**53)])
Traceback (most recent call last):
...
baccarat.store.ledger.LedgerError: transaction 'deposit' moves 9007199254740992, past the limit of 9007199254740991
>>> player_account("p1"), stake_account("ez"), house_account("ez")
('player:p1', 'stake:ez', 'house:ez')
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from sqlalchemy import Connection, bindparam, select, update

from baccarat.store.money import MONEY_LIMIT
from baccarat.store.schema import accounts, ledger_entries, ledger_transactions

__all__ = [
    "DEMO_BANK",
    "UNCACHED",
    "WORLD",
    "LedgerError",
    "Transaction",
    "balance_versions",
    "balances",
    "ensure_accounts",
    "house_account",
    "new_id",
    "player_account",
    "post",
    "stake_account",
]

#: The account that funds deposits (it goes negative by what it gave).
WORLD = "world"
#: The account that funds the guests' demo credit: demo money never comes from ``world``.
DEMO_BANK = "demo-bank"
#: The accounts whose balance is not cached (``accounts.balance`` stays 0): money comes from
#: them without end, so their sums are the only ones no bound can hold.
UNCACHED = frozenset({WORLD, DEMO_BANK})


class LedgerError(ValueError):
    """A transaction that would break the ledger (unbalanced, or an empty one)."""


def new_id() -> str:
    """A fresh 32-hex-digit identifier."""
    return uuid.uuid4().hex


def player_account(player_id: str) -> str:
    return f"player:{player_id}"


def stake_account(table_id: str) -> str:
    """Where a table's stakes wait while their round is in play."""
    return f"stake:{table_id}"


def house_account(table_id: str) -> str:
    """What a table has won (positive) or paid out (negative)."""
    return f"house:{table_id}"


@dataclass(frozen=True, slots=True)
class Transaction:
    """A balanced set of entries, not yet written: ``(account, amount)`` pairs."""

    kind: str
    entries: Sequence[tuple[str, int]]
    round_id: int | None = None
    memo: str | None = None
    id: str = field(default_factory=new_id)

    def __post_init__(self) -> None:
        if not self.entries:
            raise LedgerError(f"transaction {self.kind!r} has no entries")
        for _, amount in self.entries:
            if isinstance(amount, bool) or not isinstance(amount, int):
                raise LedgerError(f"transaction {self.kind!r} moves {amount!r}, not an integer")
            if abs(amount) > MONEY_LIMIT:
                raise LedgerError(
                    f"transaction {self.kind!r} moves {abs(amount)}, past the limit of {MONEY_LIMIT}"
                )
        if self.total != 0:
            raise LedgerError(
                f"transaction {self.kind!r} does not balance: entries sum to {self.total}"
            )

    @property
    def total(self) -> int:
        return sum(amount for _, amount in self.entries)


def ensure_accounts(connection: Connection, kinds: Mapping[str, str], at: int) -> None:
    """Create the accounts named (id to kind) that do not exist yet, with a zero balance."""
    existing = set(
        connection.scalars(select(accounts.c.id).where(accounts.c.id.in_(list(kinds)))).all()
    )
    missing = [
        {"id": account, "kind": kind, "balance": 0, "created_at": at}
        for account, kind in kinds.items()
        if account not in existing
    ]
    if missing:
        connection.execute(accounts.insert(), missing)


def post(connection: Connection, transactions: Iterable[Transaction], at: int) -> None:
    """Write balanced transactions and move the cached balances, in the caller's transaction.

    Many transactions go in one batch: one insert for the transactions, one for the
    entries, one balance update per account touched.
    """
    rows = list(transactions)
    if not rows:
        return
    connection.execute(
        ledger_transactions.insert(),
        [
            {"id": t.id, "kind": t.kind, "round_id": t.round_id, "memo": t.memo, "created_at": at}
            for t in rows
        ],
    )
    connection.execute(
        ledger_entries.insert(),
        [
            {"txn_id": t.id, "account_id": account, "amount": amount}
            for t in rows
            for account, amount in t.entries
        ],
    )
    deltas: dict[str, int] = defaultdict(int)
    for t in rows:
        for account, amount in t.entries:
            deltas[account] += amount
    # Every account posted to moves its version, even when its entries cancel out: a cached
    # reading of what the account's owner holds (``stakes_cache``) is good only while it stays.
    changes = [{"account": a, "delta": d} for a, d in sorted(deltas.items()) if a not in UNCACHED]
    if changes:
        connection.execute(
            update(accounts)
            .where(accounts.c.id == bindparam("account"))
            .values(
                balance=accounts.c.balance + bindparam("delta"), version=accounts.c.version + 1
            ),
            changes,
        )


def balance_versions(
    connection: Connection, account_ids: Iterable[str], *, lock: bool = False
) -> dict[str, tuple[int, int]]:
    """(balance, version) of the accounts named (missing accounts are left out); ``lock``
    takes their row locks on PostgreSQL, as ``balances``."""
    ids = sorted(set(account_ids))
    query = select(accounts.c.id, accounts.c.balance, accounts.c.version).where(
        accounts.c.id.in_(ids)
    )
    if lock and connection.dialect.name == "postgresql":
        query = query.with_for_update()
    return {row.id: (row.balance, row.version) for row in connection.execute(query)}


def balances(
    connection: Connection, account_ids: Iterable[str], *, lock: bool = False
) -> dict[str, int]:
    """The cached balances of the accounts named (missing accounts are left out; an
    ``UNCACHED`` source's is always 0).

    ``lock`` takes row locks (``FOR UPDATE``) on PostgreSQL; SQLite's ``BEGIN IMMEDIATE``
    already holds the whole database.
    """
    held = balance_versions(connection, account_ids, lock=lock)
    return {account: balance for account, (balance, _) in held.items()}
