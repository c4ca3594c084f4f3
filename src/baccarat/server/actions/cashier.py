"""Deposits and withdrawals of play money, each one ledger transaction.

Money moves between the player's account and the ``world`` account (memo ``cashier``) under
the player's balance lock, the bet path's lock, taken first. A deposit is first asked of the
responsible-gaming policy (breaks, deposit limits), then of the operator's bounds
(``max_deposit`` per deposit, ``max_balance`` per balance: ``deposit_too_large`` and
``balance_limit``, 422); a refusal writes nothing. A withdrawal is never refused by the
policy, only by the balance.

An ``Idempotency-Key`` (optional) makes a request safe to resend: the same key and request
get the first answer and move no money again; the same key with another request is refused
(``idempotency_key_reused``, 422); a refused request is not remembered.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection

from baccarat.refusals import Refusal
from baccarat.responsible import may_deposit
from baccarat.responsible.instants import from_epoch_ms
from baccarat.server.clock import Clock
from baccarat.server.models import Balance
from baccarat.server.service import Service
from baccarat.store.cashier import move_money
from baccarat.store.idempotency import recall, remember, request_fingerprint
from baccarat.store.ledger import balances, player_account
from baccarat.store.money import MoneyBounds
from baccarat.store.responsible import player_state

__all__ = ["Cashier"]

_Outcome = dict[str, Any] | Refusal


class Cashier:
    """The cashier transactions of one server, judged by the server's clock ``clock``."""

    def __init__(self, service: Service, clock: Clock) -> None:
        self.service = service
        self.clock = clock

    async def deposit(self, player: str, amount: int, key: str | None) -> Balance | Refusal:
        """Move ``amount`` in from the world account, or the policy's refusal."""
        now_ms = self.clock.now_ms()
        bounds = self.service.config.money_bounds
        fingerprint = request_fingerprint("deposit", amount)

        def run(c: Connection) -> _Outcome:
            prior = _recalled(c, player, key, fingerprint)
            if prior is not None:
                return prior
            now = from_epoch_ms(now_ms)
            refusal = may_deposit(player_state(c, player, now_ms), amount, now)
            if refusal is not None:
                return refusal
            return _moved(c, player, amount, now_ms, bounds, key, fingerprint)

        return _answer(await self.service.runner.write(run))

    async def withdraw(self, player: str, amount: int, key: str | None) -> Balance | Refusal:
        """Move ``amount`` out to the world account (the policy never refuses it)."""
        now_ms = self.clock.now_ms()
        bounds = self.service.config.money_bounds
        fingerprint = request_fingerprint("withdrawal", amount)

        def run(c: Connection) -> _Outcome:
            prior = _recalled(c, player, key, fingerprint)
            if prior is not None:
                return prior
            return _moved(c, player, -amount, now_ms, bounds, key, fingerprint)

        return _answer(await self.service.runner.write(run))


def _recalled(
    c: Connection, player: str, key: str | None, fingerprint: str
) -> dict[str, Any] | Refusal | None:
    """Take the balance lock (the bet path's, first), then the answer a key already got."""
    balances(c, [player_account(player)], lock=True)
    return None if key is None else recall(c, player, key, fingerprint)


def _moved(
    c: Connection,
    player: str,
    amount: int,
    now_ms: int,
    bounds: MoneyBounds,
    key: str | None,
    fingerprint: str,
) -> _Outcome:
    balance = move_money(c, player, amount, now_ms, bounds)
    if isinstance(balance, Refusal):
        return balance
    answer = {"amount": abs(amount), "balance": balance}
    if key is not None:
        remember(c, player, key, fingerprint, answer, now_ms)
    return answer


def _answer(outcome: _Outcome) -> Balance | Refusal:
    """The balance, or the refusal: the policy's, a reused key, a bound or the balance."""
    if isinstance(outcome, Refusal):
        return outcome
    return Balance.model_validate(outcome)
