"""Operator limits: the most a player's own limit of a kind and period may be.

An operator caps a limit; the player may set it lower (at once, as always) but never
higher, and never remove it. Imposing a cap lowers the player's limit to it at once when
the limit is higher or unset, and drops a pending increase that would pass it.

>>> from datetime import UTC, datetime
>>> from baccarat.responsible.limits import NO_LIMITS
>>> now = datetime(2024, 6, 1, tzinfo=UTC)
>>> caps = {(LimitKind.LOSS, Period.DAY): 5_000}
>>> limits, change = impose_cap(NO_LIMITS, LimitKind.LOSS, Period.DAY, 5_000, now)
>>> limits.amount(LimitKind.LOSS, Period.DAY), change.status.value
(5000, 'applied')
>>> lower, _ = request_change(limits, LimitKind.LOSS, Period.DAY, 1_000, now)
>>> cap_problem(lower, caps) is None
True
>>> higher, _ = request_change(lower, LimitKind.LOSS, Period.DAY, 9_000, now)
>>> cap_problem(higher, caps)
'loss limit (24 hours): the operator set it to at most 50.00'
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from baccarat.responsible.limits import (
    Change,
    ChangeStatus,
    LimitKind,
    LimitSettings,
    Period,
    cancel_pending,
    limit_name,
    request_change,
)
from baccarat.responsible.money import format_money

__all__ = ["Caps", "cap_problem", "impose_cap"]

#: The operator's caps: per kind and period, the most the player's limit may be.
Caps = Mapping[tuple[LimitKind, Period], int]


def _over(amount: int | None, cap: int) -> bool:
    return amount is None or amount > cap


def cap_problem(settings: LimitSettings, caps: Caps) -> str | None:
    """Why ``settings`` break ``caps`` (a limit or a pending increase above its cap, or
    removed under one), or ``None`` when they keep them all."""
    for (kind, period), cap in sorted(caps.items()):
        pending = settings.pending_for(kind, period)
        if _over(settings.amount(kind, period), cap) or (
            pending is not None and _over(pending.amount, cap)
        ):
            return f"{limit_name(kind, period)}: the operator set it to at most {format_money(cap)}"
    return None


def impose_cap(
    settings: LimitSettings, kind: LimitKind, period: Period, cap: int, now: datetime
) -> tuple[LimitSettings, Change]:
    """The player's limits under a new cap: the limit lowered to ``cap`` at once if it is
    higher or unset, and a pending increase past ``cap`` dropped.

    >>> from datetime import UTC, datetime
    >>> from baccarat.responsible.limits import NO_LIMITS
    >>> now = datetime(2024, 6, 1, tzinfo=UTC)
    >>> low, _ = request_change(NO_LIMITS, LimitKind.WAGER, Period.WEEK, 100, now)
    >>> waiting, _ = request_change(low, LimitKind.WAGER, Period.WEEK, 900, now)
    >>> capped, change = impose_cap(waiting, LimitKind.WAGER, Period.WEEK, 500, now)
    >>> capped.amount(LimitKind.WAGER, Period.WEEK), capped.pending_for(LimitKind.WAGER, Period.WEEK)
    (100, None)
    >>> change.status.value
    'cancelled'
    >>> within, _ = impose_cap(waiting, LimitKind.WAGER, Period.WEEK, 1_000, now)
    >>> within == waiting
    True
    """
    current = settings.amount(kind, period)
    if _over(current, cap):
        return request_change(settings, kind, period, cap, now)
    pending = settings.pending_for(kind, period)
    if pending is not None and _over(pending.amount, cap):
        return cancel_pending(settings, kind, period, now)
    # Within the cap already (a pending increase within it stays pending).
    return settings, Change(kind, period, current, current, ChangeStatus.APPLIED, now)
