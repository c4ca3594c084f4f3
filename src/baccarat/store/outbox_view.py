"""The outbox of operators' wallets as staff see it (reads only): the credits and rollbacks
still to send or refused for good, by state, oldest first, and their counts per operator.

A row of the outbox is stored ``queued``, ``done`` or ``failed`` (``store.wallet_calls``);
staff tell a queued row that was tried already (``retrying``: a wallet that did not answer
definitely, or a row being sent now, whose claim counted its attempt) from one never tried
(``queued``).

>>> outbox_state("queued", 0), outbox_state("queued", 3), outbox_state("failed", 1)
('queued', 'retrying', 'failed')
"""

from __future__ import annotations

from collections import defaultdict

from sqlalchemy import ColumnElement, Connection, and_, func, select

from baccarat.store.schema import wallet_transactions
from baccarat.store.wallet_calls import WalletCall, call_of

__all__ = ["OUTBOX_STATES", "operator_call", "outbox_counts", "outbox_rows", "outbox_state"]

#: The outbox's states as staff see them: queued (never tried yet), retrying (queued after
#: an attempt), failed (a definite refusal); ``done`` rows are the outbox's past.
OUTBOX_STATES = ("queued", "retrying", "failed")

_W = wallet_transactions


def outbox_state(state: str, attempts: int) -> str:
    """The outbox state staff see of a credit or rollback stored as ``state``."""
    return "retrying" if state == "queued" and attempts > 0 else state


def operator_call(connection: Connection, operator_id: str, call_id: str) -> WalletCall | None:
    """The operator's call ``call_id`` (``None`` if it has none of that id)."""
    query = select(_W).where(_W.c.id == call_id, _W.c.operator_id == operator_id)
    row = connection.execute(query).first()
    return None if row is None else call_of(row)


def _where(operator_id: str, state: str | None) -> list[ColumnElement[bool]]:
    where = [_W.c.operator_id == operator_id, _W.c.kind.in_(("credit", "rollback"))]
    if state == "queued":
        return [*where, _W.c.state == "queued", _W.c.attempts == 0]
    if state == "retrying":
        return [*where, _W.c.state == "queued", _W.c.attempts > 0]
    if state == "failed":
        return [*where, _W.c.state == "failed"]
    return [*where, _W.c.state.in_(("queued", "failed"))]


def outbox_rows(
    connection: Connection,
    operator_id: str,
    state: str | None = None,
    *,
    limit: int = 100,
    after: tuple[int, str] | None = None,
) -> list[WalletCall]:
    """The operator's credits and rollbacks in ``state`` (one of ``OUTBOX_STATES``; ``None``:
    all three), oldest first, at most ``limit``, those after ``(created_at, id)`` ``after``."""
    where = _where(operator_id, state)
    if after is not None:
        at, last = after
        where.append((_W.c.created_at > at) | and_(_W.c.created_at == at, _W.c.id > last))
    query = select(_W).where(*where).order_by(_W.c.created_at, _W.c.id).limit(limit)
    return [call_of(row) for row in connection.execute(query)]


def outbox_counts(connection: Connection) -> dict[str, dict[str, int]]:
    """Per operator, how many credits and rollbacks are queued, retrying, failed and done
    (every state present, 0 when none)."""
    # Grouped by the attempts themselves (a few values), portable where a boolean is not.
    query = (
        select(_W.c.operator_id, _W.c.state, _W.c.attempts, func.count())
        .where(_W.c.kind.in_(("credit", "rollback")))
        .group_by(_W.c.operator_id, _W.c.state, _W.c.attempts)
    )
    counts: dict[str, dict[str, int]] = defaultdict(
        lambda: dict.fromkeys((*OUTBOX_STATES, "done"), 0)
    )
    for operator_id, state, attempts, count in connection.execute(query):
        counts[operator_id][outbox_state(state, attempts)] += count
    return dict(counts)
