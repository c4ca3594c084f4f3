"""The money part of ``ledger check``: values that are not bounded integers, and safe sums.

The schema's CHECK constraints (``baccarat.store.money``) keep every money column an integer
in range; a database written before them, or edited by hand, may still hold a REAL or a value
past the bounds. These helpers find such values and sum the ledger without ever failing on
them: an account's entries are summed by the database when it can, else in Python (SQLite
refuses a sum past 64 bits with an error).
"""

from __future__ import annotations

import math
from collections import defaultdict
from decimal import Decimal
from typing import Any

from sqlalchemy import Column, Connection, Table, func, not_, select
from sqlalchemy.exc import DBAPIError

from baccarat.store.money import BALANCE_LIMIT, MONEY_LIMIT
from baccarat.store.schema import accounts, bet_outcomes, bets, ledger_entries

__all__ = ["MONEY_COLUMNS", "account_sums", "bad_money", "whole"]

#: Every money column, its bound, and the column that names its row in a report.
MONEY_COLUMNS: tuple[tuple[Table, str, int, str], ...] = (
    (accounts, "balance", BALANCE_LIMIT, "id"),
    (ledger_entries, "amount", MONEY_LIMIT, "id"),
    (bets, "stake", MONEY_LIMIT, "id"),
    (bet_outcomes, "returned", MONEY_LIMIT, "bet_id"),
)


def whole(value: Any) -> int:
    """``value`` as an ``int`` for the figures (a REAL is truncated, a NaN or infinity is 0).

    >>> whole(7), whole(2.9), whole(float("inf")), whole(None)
    (7, 2, 0, 0)
    """
    if isinstance(value, int):
        return value
    if isinstance(value, Decimal) and value.is_finite():
        return int(value)
    if isinstance(value, float) and math.isfinite(value):
        return int(value)
    return 0


def bad_money(c: Connection, limit_rows: int = 100) -> list[str]:
    """Money values that are not integers within their bound, as ``table.column id: value``."""
    found: list[str] = []
    for table, name, limit, key in MONEY_COLUMNS:
        column: Column[Any] = table.c[name]
        exact = column == func.cast(column, ledger_entries.c.amount.type)
        good = column.between(-limit, limit) & exact
        query = select(table.c[key], column).where(not_(good)).limit(limit_rows)
        for row_key, value in c.execute(query):
            found.append(f"{table.name}.{name} {row_key}: {value!r}")
    return found


def account_sums(c: Connection) -> dict[str, int]:
    """The sum of each account's entries, exact whatever the values (never an error)."""
    query = select(ledger_entries.c.account_id, func.sum(ledger_entries.c.amount)).group_by(
        ledger_entries.c.account_id
    )
    try:
        with c.begin_nested():
            rows = list(c.execute(query))
        # PostgreSQL sums exactly (numeric); SQLite gives a float if a REAL is in the sum.
        if all(isinstance(total, int | Decimal) or total is None for _, total in rows):
            return {account: whole(total) for account, total in rows}
    except DBAPIError:
        pass  # a sum past 64 bits (SQLite says "integer overflow"): add them up here
    sums: dict[str, int] = defaultdict(int)
    stream = c.execution_options(yield_per=10_000).execute(
        select(ledger_entries.c.account_id, ledger_entries.c.amount)
    )
    for account, amount in stream:
        sums[account] += whole(amount)
    return dict(sums)
