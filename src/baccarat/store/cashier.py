"""The cashier's bounds in the ledger: a deposit or withdrawal checked, then moved.

``move_money`` takes the player's balance lock, refuses what the operator's ``MoneyBounds``
forbid (per deposit, per balance) or what the balance cannot pay, and otherwise moves the
money with ``baccarat.store.accounts.cashier`` (world to player or back, memo ``cashier``).
A refusal writes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection

from baccarat.store.accounts import cashier
from baccarat.store.ledger import balances, player_account
from baccarat.store.money import MoneyBounds

__all__ = ["CashierRefusal", "move_money"]


@dataclass(frozen=True, slots=True)
class CashierRefusal:
    """A refused deposit or withdrawal: a stable code and a message for people."""

    code: str
    message: str


def move_money(
    connection: Connection, player_id: str, amount: int, at: int, bounds: MoneyBounds
) -> int | CashierRefusal:
    """Deposit (``amount`` > 0) or withdraw (< 0); the new balance, or why not."""
    account = player_account(player_id)
    balance = balances(connection, [account], lock=True).get(account, 0)
    if amount == 0:
        return CashierRefusal("invalid_amount", "an amount is at least 1")
    if amount > 0:
        refusal = bounds.refuse_deposit(balance=balance, amount=amount)
        if refusal is not None:
            return CashierRefusal(refusal.code, refusal.message)
    elif -amount > balance:
        return CashierRefusal(
            "insufficient_balance", f"you cannot withdraw {-amount}: the balance is {balance}"
        )
    return cashier(connection, player_id, amount, at)
