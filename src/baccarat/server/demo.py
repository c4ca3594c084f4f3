"""Demo money stays demo money: the cashier's dependency that refuses a guest.

A guest's balance is demo money (``players.demo``): it can be neither deposited to nor
withdrawn, so the cashier answers ``403 demo_account`` and writes nothing. Nor is an operator's
player's (provider mode): its money is at the operator's wallet (``403 operator_player``).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends

from baccarat.refusals import Refusal, RefusalCode
from baccarat.server.deps import CurrentPlayer, ServiceDep
from baccarat.server.errors import refused
from baccarat.store.operators import player_operator
from baccarat.store.players import is_demo

__all__ = ["RealMoneyPlayer", "real_money_player"]


async def real_money_player(player: CurrentPlayer, service: ServiceDep) -> str:
    """The caller's player id if it holds real money here; ``403 demo_account`` for a guest,
    ``403 operator_player`` for an operator's player (the operator holds their money)."""
    demo, theirs = await service.runner.read(
        lambda c: (is_demo(c, player), player_operator(c, player))
    )
    if demo:
        message = (
            "a guest plays with demo money, which can be neither deposited to nor withdrawn;"
            " register to use the cashier"
        )
        raise refused(Refusal(RefusalCode.DEMO_ACCOUNT, message))
    if theirs is not None:
        message = (
            "your balance is held by the casino that opened this game: deposit and withdraw there"
        )
        raise refused(Refusal(RefusalCode.OPERATOR_PLAYER, message))
    return player


RealMoneyPlayer = Annotated[str, Depends(real_money_player)]
