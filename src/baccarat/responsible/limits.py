"""Deposit, loss and wager limits over 24 hours, 7 days and 30 days; the lowest applies.

A player may set any of nine limits (three kinds times three periods). Making a limit
stricter applies at once; loosening it (a higher amount, or removing it) is a pending
increase that can be confirmed by the player once 24 hours have passed, and only then
applies. A new request replaces a pending one, and restarts the 24 hours.

What each kind counts over its window is defined in ``baccarat.responsible.activity``;
checking a bet or a deposit against the limits is ``baccarat.responsible.limit_checks``.

>>> from datetime import UTC, datetime, timedelta
>>> now = datetime(2024, 6, 1, 12, tzinfo=UTC)
>>> limits, change = request_change(NO_LIMITS, LimitKind.LOSS, Period.WEEK, 10_000, now)
>>> change.status.value, limits.amount(LimitKind.LOSS, Period.WEEK)
('applied', 10000)
>>> limits, change = request_change(limits, LimitKind.LOSS, Period.WEEK, 20_000, now)
>>> change.status.value, change.confirmable_at == now + timedelta(hours=24)
('pending', True)
>>> limits.amount(LimitKind.LOSS, Period.WEEK)
10000
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from baccarat.responsible.instants import format_duration, format_instant, require_aware
from baccarat.responsible.money import format_money

__all__ = [
    "COOLING_OFF",
    "KIND_ORDER",
    "NO_LIMITS",
    "Change",
    "ChangeStatus",
    "LimitError",
    "LimitKind",
    "LimitSettings",
    "PendingIncrease",
    "Period",
    "cancel_pending",
    "confirm",
    "limit_name",
    "request_change",
]

#: How long a loosening waits before the player may confirm it.
COOLING_OFF = timedelta(hours=24)


class LimitError(ValueError):
    """A limit change that cannot be made; the settings are unchanged."""


class LimitKind(StrEnum):
    """What a limit caps (see ``baccarat.responsible.activity`` for exactly what is counted)."""

    DEPOSIT = "deposit"
    LOSS = "loss"
    WAGER = "wager"


class Period(StrEnum):
    """The length of a limit's rolling window."""

    DAY = "24h"
    WEEK = "7d"
    MONTH = "30d"

    @property
    def duration(self) -> timedelta:
        return _DURATIONS[self]

    @property
    def label(self) -> str:
        """``24 hours``, ``7 days`` or ``30 days``."""
        return _LABELS[self]


_DURATIONS = {
    Period.DAY: timedelta(hours=24),
    Period.WEEK: timedelta(days=7),
    Period.MONTH: timedelta(days=30),
}
_LABELS = {Period.DAY: "24 hours", Period.WEEK: "7 days", Period.MONTH: "30 days"}

LimitKey = tuple[LimitKind, Period]
#: Kinds in their stated order (for sorting and for breaking ties).
KIND_ORDER = {kind: i for i, kind in enumerate(LimitKind)}


def limit_name(kind: LimitKind, period: Period) -> str:
    """How a limit is named in messages.

    >>> limit_name(LimitKind.LOSS, Period.WEEK)
    'loss limit (7 days)'
    """
    return f"{kind.value} limit ({period.label})"


def _show(amount: int | None) -> str:
    return "no limit" if amount is None else format_money(amount)


@dataclass(frozen=True, slots=True)
class PendingIncrease:
    """A loosening waiting for its cooling-off: the amount asked for (``None``: no limit)."""

    amount: int | None
    requested_at: datetime

    @property
    def confirmable_at(self) -> datetime:
        return self.requested_at + COOLING_OFF


@dataclass(frozen=True, slots=True)
class LimitSettings:
    """A player's limits: per kind and period an amount in minor units, and pending increases.

    A key left out has no limit. Build one with ``request_change`` rather than by hand.
    """

    amounts: Mapping[LimitKey, int] = field(default_factory=dict)
    pending: Mapping[LimitKey, PendingIncrease] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for kind, period in (*self.amounts, *self.pending):
            LimitKind(kind)
            Period(period)
        for amount in self.amounts.values():
            _check_amount(amount)
        for increase in self.pending.values():
            if increase.amount is not None:
                _check_amount(increase.amount)
        object.__setattr__(self, "amounts", MappingProxyType(dict(self.amounts)))
        object.__setattr__(self, "pending", MappingProxyType(dict(self.pending)))

    def amount(self, kind: LimitKind, period: Period) -> int | None:
        """The limit that applies now (``None``: no limit)."""
        return self.amounts.get((kind, period))

    def pending_for(self, kind: LimitKind, period: Period) -> PendingIncrease | None:
        return self.pending.get((kind, period))

    def __iter__(self) -> Iterator[tuple[LimitKind, Period, int]]:
        """Every limit set, as ``(kind, period, amount)``, kinds then periods in order."""
        for kind in LimitKind:
            for period in Period:
                amount = self.amount(kind, period)
                if amount is not None:
                    yield kind, period, amount

    def _with(
        self, key: LimitKey, amount: int | None, pending: PendingIncrease | None
    ) -> LimitSettings:
        amounts = dict(self.amounts)
        waiting = dict(self.pending)
        amounts.pop(key, None)
        waiting.pop(key, None)
        if amount is not None:
            amounts[key] = amount
        if pending is not None:
            waiting[key] = pending
        return LimitSettings(amounts, waiting)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready form for the store (instants as ISO 8601 text).

        >>> from datetime import UTC, datetime
        >>> at = datetime(2024, 6, 1, tzinfo=UTC)
        >>> s, _ = request_change(NO_LIMITS, LimitKind.WAGER, Period.DAY, 500, at)
        >>> s.to_json()
        {'limits': [{'kind': 'wager', 'period': '24h', 'amount': 500}], 'pending': []}
        >>> LimitSettings.from_json(s.to_json()) == s
        True
        """
        return {
            "limits": [
                {"kind": kind.value, "period": period.value, "amount": amount}
                for kind, period, amount in self
            ],
            "pending": [
                {
                    "kind": kind.value,
                    "period": period.value,
                    "amount": increase.amount,
                    "requested_at": increase.requested_at.isoformat(),
                }
                for (kind, period), increase in sorted(self.pending.items(), key=_key_order)
            ],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> LimitSettings:
        """The settings ``to_json`` wrote."""
        amounts = {
            (LimitKind(item["kind"]), Period(item["period"])): item["amount"]
            for item in data.get("limits", [])
        }
        pending = {
            (LimitKind(item["kind"]), Period(item["period"])): PendingIncrease(
                item["amount"],
                require_aware(datetime.fromisoformat(item["requested_at"]), "requested_at"),
            )
            for item in data.get("pending", [])
        }
        return cls(amounts, pending)


NO_LIMITS = LimitSettings()


def _key_order(item: tuple[LimitKey, object]) -> tuple[int, timedelta]:
    (kind, period), _ = item
    return KIND_ORDER[kind], period.duration


def _check_amount(amount: object) -> None:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
        raise LimitError(f"a limit is a whole number of minor units, 0 or more, not {amount!r}")


class ChangeStatus(StrEnum):
    """What became of a change: applied at once, pending, confirmed, or cancelled."""

    APPLIED = "applied"
    PENDING = "pending"
    CONFIRMED = "confirmed"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class Change:
    """One change to one limit, as the audit log records it."""

    kind: LimitKind
    period: Period
    before: int | None
    after: int | None
    status: ChangeStatus
    at: datetime
    #: For a pending increase: when the player may confirm it.
    confirmable_at: datetime | None = None

    @property
    def message(self) -> str:
        """What happened, for the player.

        >>> from datetime import UTC, datetime
        >>> at = datetime(2024, 6, 1, tzinfo=UTC)
        >>> Change(LimitKind.WAGER, Period.DAY, 500, None, ChangeStatus.PENDING, at, at).message
        'wager limit (24 hours): the change from 5.00 to no limit can be confirmed from 2024-06-01 00:00:00 UTC'
        """
        name = limit_name(self.kind, self.period)
        if self.status is ChangeStatus.PENDING and self.confirmable_at is not None:
            when = format_instant(self.confirmable_at)
            return (
                f"{name}: the change from {_show(self.before)} to {_show(self.after)} "
                f"can be confirmed from {when}"
            )
        if self.status is ChangeStatus.CANCELLED:
            return (
                f"{name}: the change to {_show(self.after)} is cancelled; "
                f"it stays {_show(self.before)}"
            )
        return f"{name}: now {_show(self.after)} (was {_show(self.before)})"

    def to_json(self) -> dict[str, Any]:
        """The change as details for the audit log."""
        body: dict[str, Any] = {
            "kind": self.kind.value,
            "period": self.period.value,
            "before": self.before,
            "after": self.after,
            "status": self.status.value,
            "at": self.at.isoformat(),
        }
        if self.confirmable_at is not None:
            body["confirmable_at"] = self.confirmable_at.isoformat()
        return body


def _is_loosening(amount: int | None, current: int | None) -> bool:
    if current is None:
        return False
    return amount is None or amount > current


def request_change(
    settings: LimitSettings,
    kind: LimitKind,
    period: Period,
    amount: int | None,
    now: datetime,
) -> tuple[LimitSettings, Change]:
    """Ask to set the ``kind`` limit over ``period`` to ``amount`` (``None``: remove it).

    A first limit, a lower one or the same amount applies at once and drops any pending
    increase. A higher amount or a removal becomes pending, replacing any earlier pending
    one; ``confirm`` applies it from 24 hours after this request.
    """
    require_aware(now)
    kind, period = LimitKind(kind), Period(period)
    if amount is not None:
        _check_amount(amount)
    current = settings.amount(kind, period)
    key = (kind, period)
    if _is_loosening(amount, current):
        increase = PendingIncrease(amount, now)
        change = Change(
            kind, period, current, amount, ChangeStatus.PENDING, now, increase.confirmable_at
        )
        return settings._with(key, current, increase), change
    return settings._with(key, amount, None), Change(
        kind, period, current, amount, ChangeStatus.APPLIED, now
    )


def _pending(
    settings: LimitSettings, kind: LimitKind, period: Period, verb: str
) -> PendingIncrease:
    increase = settings.pending_for(kind, period)
    if increase is None:
        raise LimitError(f"the {limit_name(kind, period)} has no pending change to {verb}")
    return increase


def confirm(
    settings: LimitSettings, kind: LimitKind, period: Period, now: datetime
) -> tuple[LimitSettings, Change]:
    """Apply the pending increase of one limit; refused before its 24 hours have passed."""
    require_aware(now)
    increase = _pending(settings, kind, period, "confirm")
    if now < increase.confirmable_at:
        wait = format_duration(increase.confirmable_at - now)
        raise LimitError(
            f"the {limit_name(kind, period)} of {_show(increase.amount)} can be confirmed from "
            f"{format_instant(increase.confirmable_at)} (in {wait}); until then it stays "
            f"{_show(settings.amount(kind, period))}"
        )
    before = settings.amount(kind, period)
    change = Change(kind, period, before, increase.amount, ChangeStatus.CONFIRMED, now)
    return settings._with((kind, period), increase.amount, None), change


def cancel_pending(
    settings: LimitSettings, kind: LimitKind, period: Period, now: datetime
) -> tuple[LimitSettings, Change]:
    """Drop the pending increase of one limit; the limit stays as it is."""
    require_aware(now)
    increase = _pending(settings, kind, period, "cancel")
    before = settings.amount(kind, period)
    change = Change(kind, period, before, increase.amount, ChangeStatus.CANCELLED, now)
    return settings._with((kind, period), before, None), change
