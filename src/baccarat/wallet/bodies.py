"""The bodies of the wallet calls: their fields, builders and the one check of a body received.

Part of the wire contract (``baccarat.wallet.contract`` re-exports every name here). Pure.
"""

from __future__ import annotations

import re
from typing import TypedDict

__all__ = [
    "MAX_AMOUNT",
    "BalanceBody",
    "CreditBody",
    "DebitBody",
    "RollbackBody",
    "balance_body",
    "check_body",
    "credit_body",
    "debit_body",
    "rollback_body",
]

#: The largest amount or balance on the wire: exact in a JavaScript number too.
MAX_AMOUNT = 2**53 - 1
_CURRENCY = re.compile(r"[A-Z]{3}")
_ID_MAX = 100


class BalanceBody(TypedDict):
    player_id: str
    currency: str


class DebitBody(TypedDict):
    transaction_id: str
    player_id: str
    round_id: str
    table_id: str
    amount: int
    currency: str


class CreditBody(TypedDict):
    transaction_id: str
    reference_id: str
    player_id: str
    round_id: str
    table_id: str
    amount: int
    currency: str
    round_closed: bool


class RollbackBody(TypedDict):
    transaction_id: str
    reference_id: str
    player_id: str
    round_id: str
    table_id: str
    amount: int
    currency: str


def balance_body(*, player_id: str, currency: str) -> BalanceBody:
    return {"player_id": player_id, "currency": currency}


def debit_body(
    *,
    transaction_id: str,
    player_id: str,
    round_id: int | str,
    table_id: str,
    amount: int,
    currency: str,
) -> DebitBody:
    """A debit's body; ``round_id`` travels as a string.

    >>> debit_body(transaction_id="t", player_id="p", round_id=7, table_id="x", amount=5, currency="USD")["round_id"]
    '7'
    """
    return {
        "transaction_id": transaction_id,
        "player_id": player_id,
        "round_id": str(round_id),
        "table_id": table_id,
        "amount": amount,
        "currency": currency,
    }


def credit_body(
    *,
    transaction_id: str,
    reference_id: str,
    player_id: str,
    round_id: int | str,
    table_id: str,
    amount: int,
    currency: str,
    round_closed: bool,
) -> CreditBody:
    return {
        "transaction_id": transaction_id,
        "reference_id": reference_id,
        "player_id": player_id,
        "round_id": str(round_id),
        "table_id": table_id,
        "amount": amount,
        "currency": currency,
        "round_closed": round_closed,
    }


def rollback_body(
    *,
    transaction_id: str,
    reference_id: str,
    player_id: str,
    round_id: int | str,
    table_id: str,
    amount: int,
    currency: str,
) -> RollbackBody:
    return {
        "transaction_id": transaction_id,
        "reference_id": reference_id,
        "player_id": player_id,
        "round_id": str(round_id),
        "table_id": table_id,
        "amount": amount,
        "currency": currency,
    }


_FIELDS: dict[str, frozenset[str]] = {
    "balance": frozenset(BalanceBody.__annotations__),
    "debit": frozenset(DebitBody.__annotations__),
    "credit": frozenset(CreditBody.__annotations__),
    "rollback": frozenset(RollbackBody.__annotations__),
}


def check_body(call: str, body: object) -> str | None:
    """Why ``body`` is not a valid ``call`` body (exactly its fields, each of its type), or None.

    >>> check_body("balance", {"player_id": "p", "currency": "USD"}) is None
    True
    >>> check_body("debit", {"player_id": "p", "currency": "usd"})
    'missing amount, round_id, table_id, transaction_id'
    >>> check_body("credit", {**credit_body(transaction_id="t", reference_id="d", player_id="p",
    ...     round_id=1, table_id="x", amount=-1, currency="USD", round_closed=True)})
    'amount is an integer from 0 to 9007199254740991'
    """
    fields = _FIELDS.get(call)
    if fields is None:
        return f"unknown call {call!r}"
    if not isinstance(body, dict):
        return "the body is a JSON object"
    missing, extra = fields - body.keys(), body.keys() - fields
    if missing:
        return "missing " + ", ".join(sorted(missing))
    if extra:
        return "unknown field " + ", ".join(sorted(map(str, extra)))
    for name in sorted(fields):
        problem = _check_field(call, name, body[name])
        if problem is not None:
            return problem
    return None


def _check_field(call: str, name: str, value: object) -> str | None:
    if name == "amount":
        low = 1 if call == "debit" else 0
        ok = isinstance(value, int) and not isinstance(value, bool) and low <= value <= MAX_AMOUNT
        return None if ok else f"amount is an integer from {low} to {MAX_AMOUNT}"
    if name == "currency":
        ok = isinstance(value, str) and _CURRENCY.fullmatch(value) is not None
        return None if ok else "currency is three capital letters (ISO 4217)"
    if name == "round_closed":
        return None if isinstance(value, bool) else "round_closed is true or false"
    ok = isinstance(value, str) and 0 < len(value) <= _ID_MAX and value.isprintable()
    return None if ok else f"{name} is a string of 1 to {_ID_MAX} printable characters"
