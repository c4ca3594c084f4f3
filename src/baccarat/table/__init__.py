"""The live table domain, pure: round phases, bet validation, bet orders and receipts, reveal
order, crash policy.

Nothing here reads a clock, a database or the network; the server passes time in.

>>> from baccarat.table import Round
>>> Round.open(1, opened_at=0, closes_at=15_000).accepts_bets(14_999)
True
"""

from __future__ import annotations

from baccarat.table.betting import (
    BetError,
    add_bets,
    check_bets,
    doubled,
    total_staked,
)
from baccarat.table.orders import Action, BetOrder, BetReceipt
from baccarat.table.recovery import (
    RESTART_VOID_REASON,
    UNDEALT_VOID_REASON,
    Recovery,
    UndealtRecovery,
    recovery_action,
    undealt_action,
)
from baccarat.table.reveal import HandName, RevealedCard, reveal_order
from baccarat.table.round import ACTIONS, Phase, Round, TransitionError
from baccarat.table.settings import Dealing, TableSettings

__all__ = [
    "ACTIONS",
    "RESTART_VOID_REASON",
    "UNDEALT_VOID_REASON",
    "Action",
    "BetError",
    "BetOrder",
    "BetReceipt",
    "Dealing",
    "HandName",
    "Phase",
    "Recovery",
    "RevealedCard",
    "Round",
    "TableSettings",
    "TransitionError",
    "UndealtRecovery",
    "add_bets",
    "check_bets",
    "doubled",
    "recovery_action",
    "reveal_order",
    "total_staked",
    "undealt_action",
]
