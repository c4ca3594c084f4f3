"""The cashier's bounds in the ledger: a deposit or withdrawal checked, then moved.

``move_money`` takes the player's balance lock, refuses what the operator's ``MoneyBounds``
forbid (per deposit, per balance) or what the balance cannot pay, and otherwise moves the
money with ``baccarat.store.accounts.cashier`` (world to player or back, memo ``cashier``).
A refusal writes nothing.
"""

from __future__ import annotations

from sqlalchemy import Connection

from baccarat.refusals import Refusal, RefusalCode
from baccarat.store.accounts import cashier
from baccarat.store.ledger import balances, player_account
from baccarat.store.money import MoneyBounds

__all__ = ["move_money"]


def move_money(
    connection: Connection, player_id: str, amount: int, at: int, bounds: MoneyBounds
) -> int | Refusal:
    """Deposit (``amount`` > 0) or withdraw (< 0); the new balance, or why not."""
    account = player_account(player_id)
    balance = balances(connection, [account], lock=True).get(account, 0)
    if amount == 0:
        return Refusal(RefusalCode.INVALID_AMOUNT, "an amount is at least 1")
    if amount > 0:
        refusal = bounds.refuse_deposit(balance=balance, amount=amount)
        if refusal is not None:
            return refusal
    elif -amount > balance:
        return Refusal(
            RefusalCode.INSUFFICIENT_BALANCE,
            f"you cannot withdraw {-amount}: the balance is {balance}",
        )
    return cashier(connection, player_id, amount, at)
