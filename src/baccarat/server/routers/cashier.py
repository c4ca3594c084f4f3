"""``/api/me/deposits`` and ``/api/me/withdrawals``: the play-money cashier.

Money moves between the player's account and the ``world`` account in one ledger
transaction (memo ``cashier``), under the player's balance lock. A deposit is first asked
of the responsible-gaming policy (breaks, deposit limits), then of the operator's bounds
(``--max-deposit`` per deposit, ``--max-balance`` per balance: ``deposit_too_large`` and
``balance_limit``, 422); a refusal writes nothing. A withdrawal is never refused by the
policy, only by the balance. A guest's demo money can be neither deposited to nor withdrawn:
both answer ``403 demo_account`` and write nothing.

An ``Idempotency-Key`` (optional) makes a request safe to resend, with the bets' rules: the
same key and request get the first answer and move no money again; the same key with another
request is refused (``idempotency_key_reused``, 422); a refused request is not remembered.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header
from pydantic import BaseModel, ConfigDict, Field, StrictInt
from sqlalchemy import Connection

from baccarat.responsible import Refusal, may_deposit
from baccarat.responsible.instants import from_epoch_ms
from baccarat.server.demo import RealMoneyPlayer
from baccarat.server.deps import ServiceDep
from baccarat.server.errors import ApiError
from baccarat.server.models import KEY_PATTERN
from baccarat.server.routers.accounts import PolicyDep, documented, refused
from baccarat.store.cashier import CashierRefusal, move_money
from baccarat.store.idempotency import KeyReused, recall, remember, request_fingerprint
from baccarat.store.ledger import balances, player_account
from baccarat.store.money import MONEY_LIMIT, MoneyBounds
from baccarat.store.responsible import player_state

__all__ = ["OptionalKey", "router"]

router = APIRouter(tags=["cashier"])

OptionalKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        min_length=1,
        max_length=200,
        pattern=KEY_PATTERN,
        description="Optional: a fresh random string per request; resend it to retry safely.",
    ),
]


class Amount(BaseModel):
    model_config = ConfigDict(extra="forbid")
    amount: StrictInt = Field(ge=1, le=MONEY_LIMIT, description="Minor units.")


class Balance(BaseModel):
    model_config = ConfigDict(extra="forbid")
    amount: int
    balance: int


Outcome = dict[str, Any] | Refusal | CashierRefusal | KeyReused


def _answer(outcome: Outcome) -> Balance:
    if isinstance(outcome, Refusal):
        raise refused(outcome)
    if isinstance(outcome, CashierRefusal | KeyReused):
        raise ApiError(422, outcome.code, outcome.message)
    return Balance.model_validate(outcome)


@router.post("/api/me/deposits", status_code=201, responses=documented(401, 403, 409, 422))
async def deposit(
    body: Amount,
    player: RealMoneyPlayer,
    service: ServiceDep,
    policy: PolicyDep,
    key: OptionalKey = None,
) -> Balance:
    """Move play money in from the world account (refused during a break, past a deposit
    limit, past ``max_deposit`` or when the balance would pass ``max_balance``)."""
    now_ms = policy.clock.now_ms()
    bounds = service.config.money_bounds
    fingerprint = request_fingerprint("deposit", body.amount)

    def run(c: Connection) -> Outcome:
        balances(c, [player_account(player)], lock=True)  # the bet path's lock, taken first
        if key is not None:
            prior = recall(c, player, key, fingerprint)
            if prior is not None:
                return prior
        now = from_epoch_ms(now_ms)
        refusal = may_deposit(player_state(c, player, now), body.amount, now)
        if refusal is not None:
            return refusal
        return _moved(c, player, body.amount, now_ms, bounds, key, fingerprint)

    return _answer(await service.runner.write(run))


@router.post("/api/me/withdrawals", status_code=201, responses=documented(401, 403, 422))
async def withdraw(
    body: Amount,
    player: RealMoneyPlayer,
    service: ServiceDep,
    policy: PolicyDep,
    key: OptionalKey = None,
) -> Balance:
    """Move play money out to the world account (never refused but by the balance)."""
    now_ms = policy.clock.now_ms()
    bounds = service.config.money_bounds
    fingerprint = request_fingerprint("withdrawal", body.amount)

    def run(c: Connection) -> Outcome:
        balances(c, [player_account(player)], lock=True)
        if key is not None:
            prior = recall(c, player, key, fingerprint)
            if prior is not None:
                return prior
        return _moved(c, player, -body.amount, now_ms, bounds, key, fingerprint)

    return _answer(await service.runner.write(run))


def _moved(
    c: Connection,
    player: str,
    amount: int,
    now_ms: int,
    bounds: MoneyBounds,
    key: str | None,
    fingerprint: str,
) -> Outcome:
    balance = move_money(c, player, amount, now_ms, bounds)
    if isinstance(balance, CashierRefusal):
        return balance
    answer = {"amount": abs(amount), "balance": balance}
    if key is not None:
        remember(c, player, key, fingerprint, answer, now_ms)
    return answer
