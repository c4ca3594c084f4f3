"""Device tokens: what a studio's card-reading shoe shows the server, one table each.

Only the SHA-256 of a token is stored (a copy of the database opens no shoe), the token itself
is shown once when issued. A token pushes cards to its table and does nothing else; a revoked
one opens nothing. Issuing and revoking are audited by the caller, in the same transaction.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from sqlalchemy import Connection, select, update

from baccarat.store.ledger import new_id
from baccarat.store.players import token_hash
from baccarat.store.schema import device_tokens

__all__ = ["DEVICE_PREFIX", "DeviceToken", "device_of", "issue_device_token", "revoke_device_token"]

#: Device tokens start so, so that a log or a leaked file says what it is.
DEVICE_PREFIX = "bdv_"


@dataclass(frozen=True, slots=True)
class DeviceToken:
    """A device token as stored (never the token)."""

    id: str
    table_id: str
    label: str
    created_at: int
    revoked_at: int | None


def issue_device_token(
    connection: Connection, *, table_id: str, label: str, by: str, at: int
) -> tuple[DeviceToken, str]:
    """A new token for ``table_id``: its row, and the token (shown once, never stored)."""
    token = DEVICE_PREFIX + secrets.token_urlsafe(32)
    row = DeviceToken(new_id(), table_id, label, at, None)
    connection.execute(
        device_tokens.insert().values(
            id=row.id,
            token_hash=token_hash(token),
            table_id=table_id,
            label=label,
            created_at=at,
            created_by=by,
            revoked_at=None,
        )
    )
    return row, token


def revoke_device_token(connection: Connection, token_id: str, at: int) -> DeviceToken | None:
    """Revoke a token; the token as stored before, or ``None`` if there is none (or it was
    revoked already)."""
    row = connection.execute(
        select(device_tokens).where(
            device_tokens.c.id == token_id, device_tokens.c.revoked_at.is_(None)
        )
    ).first()
    if row is None:
        return None
    connection.execute(
        update(device_tokens).where(device_tokens.c.id == token_id).values(revoked_at=at)
    )
    return DeviceToken(row.id, row.table_id, row.label, row.created_at, None)


def device_of(connection: Connection, token: str) -> DeviceToken | None:
    """The live device behind ``token``, or ``None`` (unknown, revoked, not a device token)."""
    if not token.startswith(DEVICE_PREFIX):
        return None
    row = connection.execute(
        select(device_tokens).where(
            device_tokens.c.token_hash == token_hash(token), device_tokens.c.revoked_at.is_(None)
        )
    ).first()
    if row is None:
        return None
    return DeviceToken(row.id, row.table_id, row.label, row.created_at, None)
