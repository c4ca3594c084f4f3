"""Idempotency keys outside the bet queue: the cashier and the undo of the last bet.

A request sent with an ``Idempotency-Key`` is remembered with a hash of the request and the
answer it got, in the transaction that acted on it. The same key with the same request gets
that answer again (nothing moves twice); with another request it is refused. Keys belong to
one player and share one namespace with the bets' keys (``idempotency_keys``). Only accepted
requests are remembered: a refused request left nothing, so retrying it asks again.

>>> request_fingerprint("deposit", 100) == request_fingerprint("deposit", 100)
True
>>> request_fingerprint("deposit", 100) == request_fingerprint("withdrawal", 100)
False
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from sqlalchemy import Connection, select

from baccarat.store.schema import idempotency_keys

__all__ = ["KeyReused", "recall", "remember", "request_fingerprint"]


class KeyReused:
    """The key was used before with a different request."""

    code = "idempotency_key_reused"
    message = "this Idempotency-Key was already used with a different request"


def request_fingerprint(*parts: Any) -> str:
    """A SHA-256 of the request's parts (JSON, keys sorted)."""
    text = json.dumps(list(parts), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def recall(
    connection: Connection, player_id: str, key: str, request_hash: str
) -> dict[str, Any] | KeyReused | None:
    """The answer remembered for this key and request, ``KeyReused``, or ``None`` (a new key)."""
    row = connection.execute(
        select(idempotency_keys.c.request_hash, idempotency_keys.c.response).where(
            idempotency_keys.c.player_id == player_id, idempotency_keys.c.key == key
        )
    ).first()
    if row is None:
        return None
    if row.request_hash != request_hash:
        return KeyReused()
    answer: dict[str, Any] = json.loads(row.response)
    return answer


def remember(
    connection: Connection,
    player_id: str,
    key: str,
    request_hash: str,
    answer: Mapping[str, Any],
    at: int,
) -> None:
    """Keep the answer of an accepted request under its key (in the caller's transaction)."""
    connection.execute(
        idempotency_keys.insert().values(
            player_id=player_id,
            key=key,
            request_hash=request_hash,
            response=json.dumps(dict(answer), sort_keys=True),
            created_at=at,
        )
    )
