"""``/api/me/deposits`` and ``/api/me/withdrawals``: the play-money cashier.

A deposit is asked of the responsible-gaming policy (breaks, deposit limits: 403), then of
the operator's bounds (``deposit_too_large``, ``balance_limit``: 422); a withdrawal only of
the balance (``insufficient_balance``, 422). A guest's demo money can be neither deposited
to nor withdrawn: ``403 demo_account``. An ``Idempotency-Key`` (optional) makes a request
safe to resend. The transactions are ``baccarat.server.actions.cashier``.
"""

from __future__ import annotations

from fastapi import APIRouter

from baccarat.server.demo import RealMoneyPlayer
from baccarat.server.deps import CashierDep, OptionalKey
from baccarat.server.errors import answer
from baccarat.server.models import Amount, Balance
from baccarat.server.routers.responses import errors

__all__ = ["router"]

router = APIRouter(tags=["cashier"])


@router.post("/api/me/deposits", status_code=201, responses=errors(401, 403, 409, 422))
async def deposit(
    body: Amount, player: RealMoneyPlayer, cashier: CashierDep, key: OptionalKey = None
) -> Balance:
    """Move play money in from the world account (refused during a break, past a deposit
    limit, past ``max_deposit`` or when the balance would pass ``max_balance``)."""
    return answer(await cashier.deposit(player, body.amount, key))


@router.post("/api/me/withdrawals", status_code=201, responses=errors(401, 403, 422))
async def withdraw(
    body: Amount, player: RealMoneyPlayer, cashier: CashierDep, key: OptionalKey = None
) -> Balance:
    """Move play money out to the world account (never refused but by the balance)."""
    return answer(await cashier.withdraw(player, body.amount, key))
