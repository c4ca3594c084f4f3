"""Operator limits as stored: per player, kind and period, the most the player's own limit
may be (``baccarat.responsible.caps``)."""

from __future__ import annotations

from sqlalchemy import Connection, delete, select

from baccarat.responsible import LimitKind, Period
from baccarat.responsible.caps import Caps
from baccarat.store.schema import operator_limits

__all__ = ["load_caps", "remove_cap", "save_cap"]


def load_caps(connection: Connection, player_id: str) -> Caps:
    """The player's caps (empty: none)."""
    query = select(operator_limits).where(operator_limits.c.player_id == player_id)
    return {
        (LimitKind(row.kind), Period(row.period)): int(row.amount)
        for row in connection.execute(query)
    }


def save_cap(
    connection: Connection, player_id: str, kind: LimitKind, period: Period, amount: int, at: int
) -> None:
    """Set one cap (replacing any)."""
    remove_cap(connection, player_id, kind, period)
    connection.execute(
        operator_limits.insert().values(
            player_id=player_id, kind=kind.value, period=period.value, amount=amount, set_at=at
        )
    )


def remove_cap(connection: Connection, player_id: str, kind: LimitKind, period: Period) -> bool:
    """Remove one cap; ``False`` if there was none. The player's own limit stays as it is."""
    return bool(
        connection.execute(
            delete(operator_limits).where(
                operator_limits.c.player_id == player_id,
                operator_limits.c.kind == kind.value,
                operator_limits.c.period == period.value,
            )
        ).rowcount
    )
