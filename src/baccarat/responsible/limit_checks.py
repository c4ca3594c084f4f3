"""Checking a bet or a deposit against a player's limits; the lowest limit applies.

A bet of ``stake`` (a request's total) adds ``stake`` to the amount wagered and, in the
worst case (it loses), to the net loss; it is refused if that would take any wager or loss
limit past its amount. A deposit is checked against the deposit limits alone. The refusal
names the binding limit, the one with the least room left, and what is left.

>>> from datetime import UTC, datetime, timedelta
>>> from baccarat.responsible.activity import Activity, Wager
>>> from baccarat.responsible.limits import NO_LIMITS, LimitKind, Period, request_change
>>> now = datetime(2024, 6, 1, 12, tzinfo=UTC)
>>> limits, _ = request_change(NO_LIMITS, LimitKind.LOSS, Period.WEEK, 10_000, now)
>>> lost = Activity((Wager(now - timedelta(days=2), 8_750, returned=0),))
>>> print(check_bet(limits, lost, 1_250, now))
None
>>> print(check_bet(limits, lost, 1_300, now))
limit_exceeded: loss limit (7 days) reached: 12.50 left of 100.00
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from baccarat.refusals import Refusal, RefusalCode
from baccarat.responsible.activity import Activity, Totals
from baccarat.responsible.instants import require_aware
from baccarat.responsible.limits import KIND_ORDER, LimitKind, LimitSettings, Period, limit_name
from baccarat.responsible.money import format_money

__all__ = ["LimitUsage", "binding_limit", "check_bet", "check_deposit", "usage"]


@dataclass(frozen=True, slots=True)
class LimitUsage:
    """One limit against the activity in its window ending now."""

    kind: LimitKind
    period: Period
    limit: int
    #: What the window holds (a net loss is negative after a winning spell).
    used: int

    @property
    def left(self) -> int:
        """Room left before the limit, never below zero."""
        return max(0, self.limit - self.used)

    @property
    def message(self) -> str:
        return (
            f"{limit_name(self.kind, self.period)} reached: "
            f"{format_money(self.left)} left of {format_money(self.limit)}"
        )


def _used(kind: LimitKind, totals: Totals) -> int:
    if kind is LimitKind.DEPOSIT:
        return totals.deposited
    if kind is LimitKind.WAGER:
        return totals.wagered
    return totals.net_loss


def usage(settings: LimitSettings, activity: Activity, now: datetime) -> tuple[LimitUsage, ...]:
    """Every limit set, with what its window holds at ``now`` (for the limits panel)."""
    require_aware(now)
    limits = list(settings)
    totals = activity.totals(now, {period.duration for _, period, _ in limits})
    return tuple(
        LimitUsage(kind, period, amount, _used(kind, totals[period.duration]))
        for kind, period, amount in limits
    )


def binding_limit(
    settings: LimitSettings, activity: Activity, kinds: Iterable[LimitKind], now: datetime
) -> LimitUsage | None:
    """Of the limits of ``kinds``, the one with the least room left (``None`` if none is set).

    On equal room the lower limit binds, then the shorter period, then the kind's order.
    """
    wanted = set(kinds)
    candidates = [u for u in usage(settings, activity, now) if u.kind in wanted]
    if not candidates:
        return None
    return min(
        candidates,
        key=lambda u: (u.left, u.limit, u.period.duration, KIND_ORDER[u.kind]),
    )


def _check(
    settings: LimitSettings,
    activity: Activity,
    amount: int,
    now: datetime,
    kinds: tuple[LimitKind, ...],
) -> Refusal | None:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise ValueError(f"an amount to check is a positive integer of minor units, not {amount!r}")
    binding = binding_limit(settings, activity, kinds, now)
    if binding is None or amount <= binding.left:
        return None
    return Refusal(
        RefusalCode.LIMIT_EXCEEDED,
        binding.message,
        kind=binding.kind.value,
        period=binding.period.value,
        limit=binding.limit,
        left=binding.left,
    )


def check_bet(
    settings: LimitSettings, activity: Activity, stake: int, now: datetime
) -> Refusal | None:
    """Refuse a bet of ``stake`` (the whole request's total) that a wager or loss limit forbids."""
    return _check(settings, activity, stake, now, (LimitKind.WAGER, LimitKind.LOSS))


def check_deposit(
    settings: LimitSettings, activity: Activity, amount: int, now: datetime
) -> Refusal | None:
    """Refuse a deposit of ``amount`` that a deposit limit forbids."""
    return _check(settings, activity, amount, now, (LimitKind.DEPOSIT,))
