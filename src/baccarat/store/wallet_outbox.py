"""The outbox of operators' wallets: claiming the credits and rollbacks due, and their answers.

A credit or rollback (``store.wallet_calls``) is written ``queued`` with ``next_attempt_at``
set. A sender claims due rows by pushing their ``next_attempt_at`` past a lease
(``claim_due``; on PostgreSQL ``FOR UPDATE SKIP LOCKED``, so nodes claim different rows, and no
node claims a row another leased until the lease ends), and records each answer
(``record_send``): ``done``, ``failed`` (a person must look), or tried again after
``backoff_ms`` (1 s doubling to 60 s, jittered). An answer is recorded only while its row is
``queued``: a sender that outlived its lease cannot record a row twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from sqlalchemy import ColumnElement, Connection, func, select, update

from baccarat.store.schema import operator_players, wallet_transactions

__all__ = [
    "BACKOFF_FIRST_MS",
    "BACKOFF_MAX_MS",
    "OutboxItem",
    "SendResult",
    "backoff_ms",
    "claim_due",
    "due_count",
    "record_send",
]

BACKOFF_FIRST_MS = 1_000
BACKOFF_MAX_MS = 60_000

_W = wallet_transactions

SendResult = Literal["done", "failed", "retry"]


def backoff_ms(attempts: int, fraction: float) -> int:
    """The wait before the next attempt after ``attempts`` tries: 1 s doubling to 60 s, of
    which the second half is jitter (``fraction`` in [0, 1), from the caller's random source),
    so many rows refused together do not come back together.

    >>> [backoff_ms(n, 0.0) for n in (1, 2, 3, 7, 8, 50)]
    [500, 1000, 2000, 30000, 30000, 30000]
    >>> [backoff_ms(n, 0.999999) for n in (1, 2, 7, 8)]
    [999, 1999, 59999, 59999]
    """
    ceiling: int = min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS << min(max(attempts, 1) - 1, 16))
    half = ceiling // 2
    return half + int(fraction * (ceiling - half))


@dataclass(frozen=True, slots=True)
class OutboxItem:
    """A credit or rollback claimed for sending, with what its body needs."""

    id: str
    kind: Literal["credit", "rollback"]
    operator_id: str
    player_id: str
    #: The operator's id of the player (the wire's ``player_id``).
    external_id: str
    reference_id: str
    round_id: int | None
    table_id: str | None
    amount: int
    currency: str
    round_closed: bool
    attempts: int


def _due(now: int) -> list[ColumnElement[bool]]:
    return [_W.c.state == "queued", _W.c.next_attempt_at <= now]


def due_count(connection: Connection, now: int) -> int:
    """How many credits and rollbacks are due to be sent at ``now`` (a cheap read first)."""
    return int(connection.scalar(select(func.count()).select_from(_W).where(*_due(now))) or 0)


def claim_due(
    connection: Connection,
    now: int,
    *,
    limit: int,
    lease_ms: int,
    per_operator: int | None = None,
    busy: Mapping[str, int] | None = None,
) -> list[OutboxItem]:
    """Claim up to ``limit`` due rows (oldest due first), leased until ``now + lease_ms``: no
    sender claims them again before then, so a node that dies mid-send leaves them to the
    next. ``per_operator``: at most so many rows of one operator in flight, counting the
    caller's ``busy`` ones (the rest of a slow operator's rows wait, unclaimed)."""
    busy = busy or {}
    query = (
        select(_W.c.id, _W.c.operator_id)
        .where(*_due(now))
        .order_by(_W.c.next_attempt_at, _W.c.id)
        .limit(limit if per_operator is None else limit * 4)
    )
    if per_operator is not None:
        full = sorted(op for op, n in busy.items() if n >= per_operator)
        if full:
            query = query.where(_W.c.operator_id.not_in(full))
    if connection.dialect.name == "postgresql":
        query = query.with_for_update(skip_locked=True)
    taken: dict[str, int] = dict(busy)
    ids: list[str] = []
    for call_id, operator_id in connection.execute(query):
        if len(ids) == limit:
            break
        if per_operator is not None and taken.get(operator_id, 0) >= per_operator:
            continue
        taken[operator_id] = taken.get(operator_id, 0) + 1
        ids.append(call_id)
    if not ids:
        return []
    connection.execute(
        update(_W)
        .where(_W.c.id.in_(ids))
        .values(next_attempt_at=now + lease_ms, attempts=_W.c.attempts + 1, updated_at=now)
    )
    rows = connection.execute(
        select(_W, operator_players.c.external_id)
        .select_from(_W.join(operator_players, operator_players.c.player_id == _W.c.player_id))
        .where(_W.c.id.in_(ids))
        .order_by(_W.c.next_attempt_at, _W.c.id)
    )
    return [
        OutboxItem(
            id=row.id,
            kind=row.kind,
            operator_id=row.operator_id,
            player_id=row.player_id,
            external_id=row.external_id,
            reference_id=row.reference_id,
            round_id=row.round_id,
            table_id=row.table_id,
            amount=int(row.amount),
            currency=row.currency,
            round_closed=bool(row.round_closed),
            attempts=int(row.attempts),
        )
        for row in rows
    ]


def record_send(
    connection: Connection,
    item: OutboxItem,
    result: SendResult,
    at: int,
    *,
    answer: str | None = None,
    error: str | None = None,
    fraction: float = 0.0,
) -> bool:
    """Record a send's result: ``done`` (the wallet's definite yes, or a definite answer that
    needs nothing more), ``failed`` (a definite refusal a person must look at) or ``retry``
    (no definite answer: due again after ``backoff_ms(attempts, fraction)``). False if the row
    is no longer queued (another sender, whose lease this one outlived, recorded it first)."""
    values: dict[str, object] = {"updated_at": at}
    if error is not None:
        values["last_error"] = error[:500]
    if result == "retry":
        values["next_attempt_at"] = at + backoff_ms(item.attempts, fraction)
    else:
        values.update(state=result, answer=answer, next_attempt_at=None)
    moved = connection.execute(
        update(_W).where(_W.c.id == item.id, _W.c.state == "queued").values(**values)
    )
    return moved.rowcount == 1
