"""``/api/me/deposits`` and ``/api/me/withdrawals``: the play-money cashier.

Money moves between the player's account and the ``world`` account in one ledger
transaction (memo ``cashier``), under the player's balance lock. A deposit is first asked
of the responsible-gaming policy (breaks, deposit limits); a refusal writes nothing. A
withdrawal is never refused by the policy, only by the balance.
"""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field, StrictInt
from sqlalchemy import Connection

from baccarat.responsible import Refusal, may_deposit
from baccarat.responsible.instants import from_epoch_ms
from baccarat.server.deps import CurrentPlayer, ServiceDep
from baccarat.server.errors import ApiError
from baccarat.server.models import MAX_INT
from baccarat.server.routers.accounts import PolicyDep, documented, refused
from baccarat.store.accounts import cashier
from baccarat.store.ledger import balances, player_account
from baccarat.store.responsible import player_state

__all__ = ["router"]

router = APIRouter(tags=["cashier"])


class Amount(BaseModel):
    model_config = ConfigDict(extra="forbid")
    amount: StrictInt = Field(ge=1, le=MAX_INT, description="Minor units.")


class Balance(BaseModel):
    model_config = ConfigDict(extra="forbid")
    amount: int
    balance: int


@router.post("/api/me/deposits", status_code=201, responses=documented(401, 403, 409, 422))
async def deposit(
    body: Amount, player: CurrentPlayer, service: ServiceDep, policy: PolicyDep
) -> Balance:
    """Move play money in from the world account (refused during a break or past a
    deposit limit, with the limit and what is left)."""
    now_ms = policy.clock.now_ms()

    def run(c: Connection) -> int | Refusal:
        account = player_account(player)
        balances(c, [account], lock=True)  # the bet path's lock, taken first
        refusal = may_deposit(
            player_state(c, player, from_epoch_ms(now_ms)), body.amount, from_epoch_ms(now_ms)
        )
        if refusal is not None:
            return refusal
        return cashier(c, player, body.amount, now_ms)

    outcome = await service.runner.write(run)
    if isinstance(outcome, Refusal):
        raise refused(outcome)
    return Balance(amount=body.amount, balance=outcome)


@router.post("/api/me/withdrawals", status_code=201, responses=documented(401, 422))
async def withdraw(
    body: Amount, player: CurrentPlayer, service: ServiceDep, policy: PolicyDep
) -> Balance:
    """Move play money out to the world account (never refused but by the balance)."""
    now_ms = policy.clock.now_ms()
    try:
        balance = await service.runner.write(lambda c: cashier(c, player, -body.amount, now_ms))
    except ValueError as error:
        raise ApiError(422, "insufficient_balance", str(error)) from None
    return Balance(amount=body.amount, balance=balance)
