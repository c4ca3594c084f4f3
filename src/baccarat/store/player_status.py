"""A player an operator locked, or whose account an operator closed.

A locked player cannot log in and has no live session (the lock ends them); an unlock lets
them log in again. A closed account is locked for good: it cannot be unlocked. Its money
stays in the ledger, where ``baccarat ledger check`` keeps counting it.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, select, update

from baccarat.store.schema import player_status

__all__ = ["PlayerStatus", "get_status", "save_status"]


@dataclass(frozen=True, slots=True)
class PlayerStatus:
    """A player's status: locked since, closed since, and why (the last change's reason)."""

    locked_at: int | None = None
    closed_at: int | None = None
    reason: str | None = None

    @property
    def state(self) -> str:
        """``active``, ``locked`` or ``closed``.

        >>> PlayerStatus().state, PlayerStatus(5).state, PlayerStatus(5, 6).state
        ('active', 'locked', 'closed')
        """
        if self.closed_at is not None:
            return "closed"
        return "active" if self.locked_at is None else "locked"


def get_status(connection: Connection, player_id: str) -> PlayerStatus:
    """The player's status (active without a row)."""
    query = select(player_status).where(player_status.c.player_id == player_id)
    row = connection.execute(query).first()
    if row is None:
        return PlayerStatus()
    return PlayerStatus(row.locked_at, row.closed_at, row.reason)


def save_status(connection: Connection, player_id: str, status: PlayerStatus, at: int) -> None:
    """Write the player's status (insert or replace)."""
    values = {
        "locked_at": status.locked_at,
        "closed_at": status.closed_at,
        "reason": status.reason,
        "updated_at": at,
    }
    done = connection.execute(
        update(player_status).where(player_status.c.player_id == player_id).values(**values)
    ).rowcount
    if not done:
        connection.execute(player_status.insert().values(player_id=player_id, **values))
