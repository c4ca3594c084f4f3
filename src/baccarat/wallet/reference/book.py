"""The contract's server side: what the reference wallet answers to each call, and what it moves.

``answer_call`` runs in one write transaction: the idempotency check, the movement and the
record of the transaction id (the primary key of ``transactions``) commit together or not at
all. A money call answered on its merits (a movement or a definite refusal other than
``bad_request`` and ``transaction_conflict``) is recorded with its answer, and the same id with
the same body gets that answer again and moves nothing; the same id with another body is a
``transaction_conflict``. A rollback before its debit leaves a tombstone and is ``ok``; the late
debit is then refused with ``transaction_rolled_back``. Credits and rollbacks check no block: they
must always land.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Row, insert, select, update

from baccarat.wallet.contract import canonical, error_answer, ok_answer
from baccarat.wallet.reference.schema import players, tombstones, transactions

__all__ = ["Player", "answer_call", "get_player", "list_transactions", "set_player"]


@dataclass(frozen=True)
class Player:
    player_id: str
    balance: int
    currency: str
    blocked: bool


@dataclass(frozen=True)
class _Decision:
    """What a call does: its answer, and (when recorded) the row that keeps it."""

    answer: dict[str, object]
    player_id: str = ""
    moved: int = 0
    record: bool = True


def answer_call(connection: Connection, call: str, body: Mapping[str, Any], now_ms: int) -> str:
    """The answer's text to a valid, signed call (``contract.check_body`` passed)."""
    if call == "balance":
        return canonical(_balance(connection, body)).decode()
    request = canonical(body).decode()
    transaction_id = str(body["transaction_id"])
    seen = connection.execute(
        select(transactions.c.kind, transactions.c.request, transactions.c.answer).where(
            transactions.c.transaction_id == transaction_id
        )
    ).first()
    if seen is not None:
        if seen.kind == call and seen.request == request:
            return str(seen.answer)
        return _text(error_answer("transaction_conflict", "this id was used with another body"))
    decide = {"debit": _debit, "credit": _credit, "rollback": _rollback}[call]
    wallet_id = secrets.token_hex(16)
    decision = decide(connection, body, transaction_id, wallet_id, now_ms)
    text = _text(decision.answer)
    if decision.record:
        refused = decision.answer["status"] == "error"
        connection.execute(
            insert(transactions).values(
                transaction_id=transaction_id,
                kind=call,
                request=request,
                answer=text,
                status="refused" if refused else "ok",
                code=decision.answer.get("code"),
                player_id=decision.player_id or str(body["player_id"]),
                amount=int(body["amount"]),
                moved=decision.moved,
                reference_id=body.get("reference_id"),
                wallet_transaction_id=None if refused else wallet_id,
                created_at=now_ms,
            )
        )
    return text


def _text(answer: Mapping[str, object]) -> str:
    return canonical(answer).decode()


def _player(connection: Connection, player_id: str) -> Row[Any] | None:
    return connection.execute(select(players).where(players.c.player_id == player_id)).first()


def _move(connection: Connection, player_id: str, delta: int) -> int:
    """Add ``delta`` to the player's balance; the new balance."""
    connection.execute(
        update(players)
        .where(players.c.player_id == player_id)
        .values(balance=players.c.balance + delta)
    )
    row = _player(connection, player_id)
    assert row is not None  # moved only after it was read in this transaction
    return int(row.balance)


def _balance(connection: Connection, body: Mapping[str, Any]) -> dict[str, object]:
    player = _player(connection, body["player_id"])
    if player is None:
        return error_answer("player_not_found", "no such player")
    if player.currency != body["currency"]:
        return error_answer("currency_mismatch", f"the player's currency is {player.currency}")
    return ok_answer(int(player.balance), str(player.currency))


def _debit(
    connection: Connection, body: Mapping[str, Any], tid: str, wid: str, _now: int
) -> _Decision:
    if _tombstone(connection, tid):
        return _Decision(error_answer("transaction_rolled_back", "this debit was rolled back"))
    player = _player(connection, body["player_id"])
    amount = int(body["amount"])
    if player is None:
        return _Decision(error_answer("player_not_found", "no such player"))
    if player.blocked:
        return _Decision(error_answer("player_blocked", "the player is blocked"))
    if player.currency != body["currency"]:
        why = f"the player's currency is {player.currency}"
        return _Decision(error_answer("currency_mismatch", why))
    if player.balance < amount:
        why = f"balance {player.balance}, debit {amount}"
        return _Decision(error_answer("insufficient_funds", why))
    balance = _move(connection, player.player_id, -amount)
    return _Decision(ok_answer(balance, player.currency, tid, wid), moved=-amount)


def _credit(
    connection: Connection, body: Mapping[str, Any], tid: str, wid: str, _now: int
) -> _Decision:
    debit, ended_by = _debit_and_end(connection, body["reference_id"])
    if debit is None or debit.status != "ok":
        if _tombstone(connection, body["reference_id"]):
            return _Decision(error_answer("transaction_rolled_back", "the debit was rolled back"))
        return _Decision(error_answer("reference_not_found", "no such debit taken"))
    mismatch = _mismatch(debit, body, rollback=False)
    if mismatch is not None:
        return mismatch
    if ended_by == "rollback":
        return _Decision(error_answer("transaction_rolled_back", "the debit was rolled back"))
    if ended_by == "credit":
        return _Decision(error_answer("bet_already_closed", "the debit has its credit"))
    amount = int(body["amount"])
    balance = _move(connection, debit.player_id, amount)
    return _Decision(ok_answer(balance, body["currency"], tid, wid), moved=amount)


def _rollback(
    connection: Connection, body: Mapping[str, Any], tid: str, wid: str, now: int
) -> _Decision:
    reference = str(body["reference_id"])
    debit, ended_by = _debit_and_end(connection, reference)
    if debit is None:
        # Before its debit (or of one never sent): a tombstone, so the late debit is refused.
        if not _tombstone(connection, reference):
            values = {"debit_id": reference, "rollback_id": tid, "created_at": now}
            connection.execute(insert(tombstones).values(**values))
        return _Decision(_ok_nothing_moved(connection, body, tid, wid))
    mismatch = _mismatch(debit, body, rollback=True)
    if mismatch is not None:
        return mismatch
    if debit.status != "ok" or ended_by == "rollback":
        return _Decision(_ok_nothing_moved(connection, body, tid, wid))  # never refund twice
    if ended_by == "credit":
        return _Decision(error_answer("bet_already_closed", "the debit has its credit"))
    refund = int(debit.amount)
    balance = _move(connection, debit.player_id, refund)
    return _Decision(ok_answer(balance, body["currency"], tid, wid), moved=refund)


def _mismatch(debit: Row[Any], body: Mapping[str, Any], *, rollback: bool) -> _Decision | None:
    """A credit or rollback that does not fit its debit (player, currency, a rollback's amount)."""
    if debit.player_id != body["player_id"]:
        return _Decision(error_answer("bad_request", "player_id is not the debit's"), record=False)
    debit_currency = str(json.loads(debit.request)["currency"])
    if debit_currency != body["currency"]:
        return _Decision(error_answer("currency_mismatch", f"the debit was in {debit_currency}"))
    if rollback and int(body["amount"]) != int(debit.amount):
        why = "a rollback's amount is its debit's"
        return _Decision(error_answer("bad_request", why), record=False)
    return None


def _ok_nothing_moved(
    connection: Connection, body: Mapping[str, Any], tid: str, wid: str
) -> dict[str, object]:
    player = _player(connection, body["player_id"])
    balance = 0 if player is None else int(player.balance)
    return ok_answer(balance, body["currency"], tid, wid)


def _tombstone(connection: Connection, debit_id: str) -> bool:
    found = connection.execute(
        select(tombstones.c.debit_id).where(tombstones.c.debit_id == debit_id)
    ).first()
    return found is not None


def _debit_and_end(connection: Connection, debit_id: str) -> tuple[Row[Any] | None, str | None]:
    """The debit recorded under ``debit_id``, and the kind of call that ended it (if any)."""
    debit = connection.execute(
        select(transactions).where(
            transactions.c.transaction_id == debit_id, transactions.c.kind == "debit"
        )
    ).first()
    if debit is None:
        return None, None
    end = connection.execute(
        select(transactions.c.kind).where(
            transactions.c.reference_id == debit_id,
            transactions.c.status == "ok",
            transactions.c.kind.in_(("credit", "rollback")),
        )
    ).first()
    return debit, None if end is None else str(end.kind)


def set_player(
    connection: Connection, player_id: str, balance: int, currency: str, blocked: bool | None
) -> Player:
    """Create the player or set its balance and currency (and its block, when given)."""
    row = _player(connection, player_id)
    if row is None:
        values = {"balance": balance, "currency": currency, "blocked": bool(blocked)}
        connection.execute(insert(players).values(player_id=player_id, **values))
    else:
        changes: dict[str, object] = {"balance": balance, "currency": currency}
        if blocked is not None:
            changes["blocked"] = blocked
        connection.execute(
            update(players).where(players.c.player_id == player_id).values(**changes)
        )
    found = get_player(connection, player_id)
    assert found is not None
    return found


def get_player(connection: Connection, player_id: str) -> Player | None:
    row = _player(connection, player_id)
    if row is None:
        return None
    return Player(row.player_id, int(row.balance), row.currency, bool(row.blocked))


def list_transactions(connection: Connection) -> list[dict[str, object]]:
    """Every recorded transaction, oldest first, with the tombstone each rollback left."""
    stones = {row.rollback_id: row.debit_id for row in connection.execute(select(tombstones)).all()}
    rows = connection.execute(
        select(transactions).order_by(transactions.c.created_at, transactions.c.transaction_id)
    ).all()
    return [
        {
            "transaction_id": row.transaction_id,
            "kind": row.kind,
            "status": row.status,
            "code": row.code,
            "player_id": row.player_id,
            "amount": int(row.amount),
            "moved": int(row.moved),
            "reference_id": row.reference_id,
            "wallet_transaction_id": row.wallet_transaction_id,
            "tombstone": row.transaction_id in stones,
            "created_at": int(row.created_at),
            "request": json.loads(row.request),
            "answer": json.loads(row.answer),
        }
        for row in rows
    ]
