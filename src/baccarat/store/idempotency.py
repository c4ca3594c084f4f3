"""Idempotency keys outside the bet queue (which keeps its own in its batch): the cashier.

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

from baccarat.refusals import Refusal, RefusalCode
from baccarat.store.schema import idempotency_keys

__all__ = ["KEY_REUSED", "recall", "remember", "request_fingerprint"]

#: The refusal of a key used before with a different request.
KEY_REUSED = Refusal(
    RefusalCode.KEY_REUSED, "this Idempotency-Key was already used with a different request"
)


def request_fingerprint(*parts: Any) -> str:
    """A SHA-256 of the request's parts (JSON, keys sorted)."""
    text = json.dumps(list(parts), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def recall(
    connection: Connection, player_id: str, key: str, request_hash: str
) -> dict[str, Any] | Refusal | None:
    """The answer remembered for this key and request, ``KEY_REUSED``, or ``None`` (a new key)."""
    row = connection.execute(
        select(idempotency_keys.c.request_hash, idempotency_keys.c.response).where(
            idempotency_keys.c.player_id == player_id, idempotency_keys.c.key == key
        )
    ).first()
    if row is None:
        return None
    if row.request_hash != request_hash:
        return KEY_REUSED
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
