"""Responsible gaming, pure: limits, breaks, session time and reality checks, one policy.

Nothing here reads a clock or a database. The server loads a player's ``PlayerState``
(limits, breaks, session, recent activity), passes its clock's ``now`` and asks
``may_bet`` / ``may_deposit`` before it moves any money; it persists what the operations
return. The rules are written out in ``docs/responsible-gaming.md``.

>>> from datetime import UTC, datetime, timedelta
>>> now = datetime(2024, 6, 1, 12, tzinfo=UTC)
>>> limits, change = request_change(NO_LIMITS, LimitKind.LOSS, Period.DAY, 2_000, now)
>>> lost = Activity((Wager(now - timedelta(hours=1), 1_500, returned=0),))
>>> state = PlayerState(limits=limits, activity=lost)
>>> refusal = may_bet(state, 1_000, now)
>>> refusal.code.value, refusal.message
('limit_exceeded', 'loss limit (24 hours) reached: 5.00 left of 20.00')
>>> print(may_bet(state, 1_000, now + timedelta(hours=23, seconds=1)))
None
"""

from __future__ import annotations

from baccarat.responsible.activity import NO_ACTIVITY, Activity, Deposit, Totals, Wager
from baccarat.responsible.breaks import (
    NO_BREAKS,
    Break,
    BreakError,
    BreakKind,
    Breaks,
    allowed_range,
    check_breaks,
    take_break,
)
from baccarat.responsible.limit_checks import (
    LimitUsage,
    binding_limit,
    check_bet,
    check_deposit,
    usage,
)
from baccarat.responsible.limits import (
    COOLING_OFF,
    NO_LIMITS,
    Change,
    ChangeStatus,
    LimitError,
    LimitKind,
    LimitSettings,
    PendingIncrease,
    Period,
    cancel_pending,
    confirm,
    request_change,
)
from baccarat.responsible.policy import PlayerState, may_bet, may_deposit, may_play
from baccarat.responsible.session import (
    RealityCheck,
    Session,
    SessionError,
    SessionSettings,
    check_session,
)

__all__ = [
    "COOLING_OFF",
    "NO_ACTIVITY",
    "NO_BREAKS",
    "NO_LIMITS",
    "Activity",
    "Break",
    "BreakError",
    "BreakKind",
    "Breaks",
    "Change",
    "ChangeStatus",
    "Deposit",
    "LimitError",
    "LimitKind",
    "LimitSettings",
    "LimitUsage",
    "PendingIncrease",
    "Period",
    "PlayerState",
    "RealityCheck",
    "Session",
    "SessionError",
    "SessionSettings",
    "Totals",
    "Wager",
    "allowed_range",
    "binding_limit",
    "cancel_pending",
    "check_bet",
    "check_breaks",
    "check_deposit",
    "check_session",
    "confirm",
    "may_bet",
    "may_deposit",
    "may_play",
    "request_change",
    "take_break",
    "usage",
]
