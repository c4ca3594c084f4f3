"""The calls of operators' wallets that move money, as rows: debits, and the outbox that ends them.

A debit is written ``pending`` (and committed) before it is sent, so a crash between the send
and the answer leaves a trace. Its answer is recorded in one transaction with everything it
causes: ``confirmed`` with the ``wallet_debit`` posting (``wallet:{op}`` → ``player:{id}``) and
the placement of the bets it paid for (``confirm_debit``); ``refused`` (a definite no, nothing
moved); or ``unknown`` (a timeout, a 5xx, garbage) with its rollback queued (``lose_debit``).

A credit or a rollback is the outbox: written ``queued`` in the transaction that decides it,
sent by ``server.outbox_sender`` until the wallet answers definitely (``done``, or ``failed``
for a refusal a person must look at). Its ``reference_id`` is its debit's id and is unique, so a
debit is ended at most once: a second credit or rollback of it cannot be written. How the
outbox is claimed and its answers recorded is ``store.wallet_outbox``.

>>> wallet_account("casino-1")
'wallet:casino-1'
>>> debit_id("p1", "k1") == debit_id("p1", "k1") != debit_id("p2", "k1")
True
>>> len(debit_id("p1", "k1"))
32
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Literal, TypeVar

from sqlalchemy import ColumnElement, Connection, func, select, update

from baccarat.store.ledger import Transaction, ensure_accounts, new_id, player_account, post
from baccarat.store.schema import operators, wallet_transactions

__all__ = [
    "PENDING_GRACE_MS",
    "WALLET_KIND",
    "WalletCall",
    "call_of",
    "confirm_debit",
    "debit_id",
    "find_call",
    "lose_debit",
    "note_error",
    "open_debit",
    "queue_credit",
    "queue_rollback",
    "refuse_debit",
    "stale_count",
    "sweep_pending",
    "wallet_account",
]

T = TypeVar("T")

#: The kind of an operator's ``wallet:{id}`` account: minus what its debits brought in, plus
#: what its credits gave back.
WALLET_KIND = "wallet"
#: How long past its operator's timeout a debit may stay ``pending`` before it is taken for
#: lost (a crash between the send and the answer): the time to record an answer that came.
PENDING_GRACE_MS = 10_000

_W = wallet_transactions


def wallet_account(operator_id: str) -> str:
    """The ledger account of an operator's wallet."""
    return f"wallet:{operator_id}"


def debit_id(player_id: str, key: str) -> str:
    """The debit of a player's request: the same for every retry of its Idempotency-Key, so
    neither a retry in flight nor the wallet can take the stake twice."""
    return hashlib.sha256(f"{player_id}\n{key}".encode()).hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class WalletCall:
    """A row of ``wallet_transactions``."""

    id: str
    operator_id: str
    player_id: str
    kind: str
    round_id: int | None
    table_id: str | None
    amount: int
    currency: str
    reference_id: str | None
    round_closed: bool
    state: str
    bet_txn_id: str | None
    attempts: int
    next_attempt_at: int | None
    last_error: str | None
    answer: str | None
    created_at: int
    updated_at: int


def call_of(row: object) -> WalletCall:
    """A selected row of ``wallet_transactions`` (all its columns) as a ``WalletCall``."""
    return WalletCall(**{field.name: getattr(row, field.name) for field in fields(WalletCall)})


def find_call(connection: Connection, call_id: str) -> WalletCall | None:
    """The wallet call ``call_id``, or ``None``."""
    row = connection.execute(select(_W).where(_W.c.id == call_id)).first()
    return None if row is None else call_of(row)


def open_debit(
    connection: Connection,
    *,
    call_id: str,
    operator_id: str,
    player_id: str,
    round_id: int,
    table_id: str,
    amount: int,
    currency: str,
    at: int,
) -> WalletCall:
    """Write a debit ``pending``, before it is sent (the caller commits first)."""
    values = {
        "id": call_id,
        "operator_id": operator_id,
        "player_id": player_id,
        "kind": "debit",
        "round_id": round_id,
        "table_id": table_id,
        "amount": amount,
        "currency": currency,
        "state": "pending",
        "created_at": at,
        "updated_at": at,
    }
    connection.execute(_W.insert().values(**values))
    found = find_call(connection, call_id)
    assert found is not None
    return found


def _settle_debit(
    connection: Connection, call_id: str, state: str, at: int, **values: object
) -> bool:
    """Move a pending debit to ``state``; False if it is no longer pending (swept meanwhile)."""
    moved = connection.execute(
        update(_W)
        .where(_W.c.id == call_id, _W.c.kind == "debit", _W.c.state == "pending")
        .values(state=state, updated_at=at, **values)
    )
    return moved.rowcount == 1


def confirm_debit(
    connection: Connection,
    debit: WalletCall,
    answer: str,
    at: int,
    place: Callable[[Connection], tuple[str | None, T]],
) -> T | None:
    """Record the wallet's yes, in the caller's transaction: the debit ``confirmed``, the money
    posted from ``wallet:{op}`` to the player, and the bets placed by ``place`` (which returns
    the bets' ledger transaction id, or ``None`` if it placed nothing, and its result).

    If ``place`` placed nothing (the window closed meanwhile), what it did is undone and a
    credit of the whole amount is queued (``round_closed``): the money goes back. ``None`` if
    the debit is no longer pending (swept into a rollback while the answer came).
    """
    if not _settle_debit(connection, debit.id, "confirmed", at, answer=answer):
        return None
    wallet = wallet_account(debit.operator_id)
    ensure_accounts(connection, {wallet: WALLET_KIND}, at)
    entries = [(wallet, -debit.amount), (player_account(debit.player_id), debit.amount)]
    post(connection, [Transaction("wallet_debit", entries, debit.round_id, memo=debit.id)], at)
    savepoint = connection.begin_nested()
    txn_id, result = place(connection)
    if txn_id is None:
        savepoint.rollback()
        queue_credit(connection, debit, debit.amount, round_closed=True, at=at)
    else:
        savepoint.commit()
        connection.execute(update(_W).where(_W.c.id == debit.id).values(bet_txn_id=txn_id))
    return result


def note_error(connection: Connection, call_id: str, error: str) -> None:
    """Keep why a call's request went no further (a debit whose bets could not be placed)."""
    connection.execute(update(_W).where(_W.c.id == call_id).values(last_error=error[:500]))


def refuse_debit(connection: Connection, debit_id: str, answer: str, at: int) -> bool:
    """Record the wallet's definite no: nothing moved, nothing follows."""
    return _settle_debit(connection, debit_id, "refused", at, answer=answer)


def lose_debit(connection: Connection, debit: WalletCall, reason: str, at: int) -> bool:
    """Record a debit without a definite answer: ``unknown``, and its rollback queued in the
    same transaction (the wallet may have taken the money)."""
    if not _settle_debit(connection, debit.id, "unknown", at, last_error=reason[:500]):
        return False
    queue_rollback(connection, debit, at)
    return True


def _queue(
    connection: Connection,
    debit: WalletCall,
    kind: Literal["credit", "rollback"],
    amount: int,
    round_closed: bool,
    at: int,
) -> str:
    call_id = new_id()
    connection.execute(
        _W.insert().values(
            id=call_id,
            operator_id=debit.operator_id,
            player_id=debit.player_id,
            kind=kind,
            round_id=debit.round_id,
            table_id=debit.table_id,
            amount=amount,
            currency=debit.currency,
            reference_id=debit.id,
            round_closed=round_closed,
            state="queued",
            next_attempt_at=at,
            created_at=at,
            updated_at=at,
        )
    )
    return call_id


def queue_credit(
    connection: Connection, debit: WalletCall, amount: int, *, round_closed: bool, at: int
) -> str:
    """Queue the credit that ends a confirmed debit (``amount`` 0 for a loss) and post it
    from the player back to ``wallet:{op}``; returns its id. A debit already ended cannot be
    ended again (the unique ``reference_id`` refuses it: an ``IntegrityError``)."""
    call_id = _queue(connection, debit, "credit", amount, round_closed, at)
    if amount:
        wallet = wallet_account(debit.operator_id)
        entries = [(player_account(debit.player_id), -amount), (wallet, amount)]
        post(connection, [Transaction("wallet_credit", entries, debit.round_id, memo=call_id)], at)
    return call_id


def queue_rollback(connection: Connection, debit: WalletCall, at: int) -> str:
    """Queue the rollback of a debit whose answer is unknown (nothing was posted for it)."""
    return _queue(connection, debit, "rollback", debit.amount, False, at)


def _stale(now: int, grace_ms: int) -> list[ColumnElement[bool]]:
    return [
        _W.c.kind == "debit",
        _W.c.state == "pending",
        _W.c.created_at + operators.c.timeout_ms + grace_ms <= now,
    ]


def stale_count(connection: Connection, now: int, grace_ms: int = PENDING_GRACE_MS) -> int:
    """How many debits ``sweep_pending`` would take (a cheap read first)."""
    joined = _W.join(operators, operators.c.id == _W.c.operator_id)
    query = select(func.count()).select_from(joined).where(*_stale(now, grace_ms))
    return int(connection.scalar(query) or 0)


def sweep_pending(connection: Connection, now: int, grace_ms: int = PENDING_GRACE_MS) -> list[str]:
    """Take every debit still ``pending`` past its operator's timeout and ``grace_ms`` for lost
    (a crash between the send and the answer): ``unknown``, its rollback queued. Returns
    their ids."""
    stale = (
        select(_W)
        .select_from(_W.join(operators, operators.c.id == _W.c.operator_id))
        .where(*_stale(now, grace_ms))
        .order_by(_W.c.created_at)
    )
    swept = []
    for row in connection.execute(stale).all():
        debit = call_of(row)
        if lose_debit(connection, debit, "no answer recorded (swept as stale)", now):
            swept.append(debit.id)
    return swept
