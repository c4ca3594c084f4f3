"""Demo money stays demo money: the cashier's dependency that refuses a guest.

A guest's balance is demo money (``players.demo``): it can be neither deposited to nor
withdrawn, so the cashier answers ``403 demo_account`` and writes nothing.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends

from baccarat.refusals import Refusal, RefusalCode
from baccarat.server.deps import CurrentPlayer, ServiceDep
from baccarat.server.errors import refused
from baccarat.store.players import is_demo

__all__ = ["RealMoneyPlayer", "real_money_player"]


async def real_money_player(player: CurrentPlayer, service: ServiceDep) -> str:
    """The caller's player id if it holds real money; ``403 demo_account`` for a guest."""
    if await service.runner.read(lambda c: is_demo(c, player)):
        message = (
            "a guest plays with demo money, which can be neither deposited to nor withdrawn;"
            " register to use the cashier"
        )
        raise refused(Refusal(RefusalCode.DEMO_ACCOUNT, message))
    return player


RealMoneyPlayer = Annotated[str, Depends(real_money_player)]
