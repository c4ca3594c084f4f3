"""The live table domain, pure: round phases, card by card dealing and card sources, bet
validation, bet orders and receipts, reveal order, crash policy.

Nothing here reads a clock, a database or the network; the server passes time in.

>>> from baccarat.table import Round
>>> Round.open(1, opened_at=0, closes_at=15_000).round.accepts_bets(14_999)
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
from baccarat.table.events import (
    BetsClosed,
    CardSqueezed,
    CardTurned,
    ResultShown,
    RoundEvent,
    RoundOpened,
    RoundSettled,
    RoundVoided,
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
from baccarat.table.reveal import HandName, RevealedCard, drawn_order, reveal_order, turn_order
from baccarat.table.round import ACTIONS, Phase, Round, Slot, Transition, TransitionError
from baccarat.table.settings import Dealing, TableSettings
from baccarat.table.sources import CardSource, FairShoeSource, PushedSource, StudioSource

__all__ = [
    "ACTIONS",
    "RESTART_VOID_REASON",
    "UNDEALT_VOID_REASON",
    "Action",
    "BetError",
    "BetOrder",
    "BetReceipt",
    "BetsClosed",
    "CardSource",
    "CardSqueezed",
    "CardTurned",
    "Dealing",
    "FairShoeSource",
    "HandName",
    "Phase",
    "PushedSource",
    "Recovery",
    "ResultShown",
    "RevealedCard",
    "Round",
    "RoundEvent",
    "RoundOpened",
    "RoundSettled",
    "RoundVoided",
    "Slot",
    "StudioSource",
    "TableSettings",
    "Transition",
    "TransitionError",
    "UndealtRecovery",
    "add_bets",
    "check_bets",
    "doubled",
    "drawn_order",
    "recovery_action",
    "reveal_order",
    "total_staked",
    "turn_order",
    "undealt_action",
]
