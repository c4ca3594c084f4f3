"""Breaks from play: a time-out (24 hours to 6 weeks) and self-exclusion (6 months to 5 years).

A break starts the moment it is asked for: the session ends, bets and deposits are refused
until ``until``. It can be extended but never shortened or ended early: there is no
operation that does so, and a request ending before the current end is refused. Months and
years are calendar ones (a day that a month lacks becomes its last day: 31 August plus six
months is the end of February). An extension may end at most the maximum after ``now``.

>>> from datetime import UTC, datetime, timedelta
>>> now = datetime(2024, 6, 1, 12, tzinfo=UTC)
>>> breaks, taken = take_break(NO_BREAKS, BreakKind.TIME_OUT, now + timedelta(days=7), now)
>>> breaks.is_blocked(now), breaks.is_blocked(now + timedelta(days=7))
(True, False)
>>> take_break(breaks, BreakKind.TIME_OUT, now + timedelta(days=2), now)
Traceback (most recent call last):
...
baccarat.responsible.breaks.BreakError: a time-out cannot be shortened: it runs until 2024-06-08 12:00:00 UTC
>>> allowed_range(BreakKind.SELF_EXCLUSION, datetime(2024, 8, 31, tzinfo=UTC))[0].date()
datetime.date(2025, 2, 28)
"""

from __future__ import annotations

import calendar
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from baccarat.refusals import Refusal, RefusalCode
from baccarat.responsible.instants import format_instant, require_aware

__all__ = [
    "NO_BREAKS",
    "Break",
    "BreakError",
    "BreakKind",
    "Breaks",
    "add_months",
    "allowed_range",
    "check_breaks",
    "take_break",
]


class BreakError(ValueError):
    """A break that cannot be taken as asked; nothing changed."""


class BreakKind(StrEnum):
    """The two kinds of break. Self-exclusion is the stronger and is named first when both run."""

    TIME_OUT = "time_out"
    SELF_EXCLUSION = "self_exclusion"

    @property
    def label(self) -> str:
        return "a time-out" if self is BreakKind.TIME_OUT else "a self-exclusion"


def add_months(moment: datetime, months: int) -> datetime:
    """``moment`` plus whole calendar months, the day clamped to the end of a shorter month.

    >>> from datetime import UTC
    >>> add_months(datetime(2024, 1, 31, 9, tzinfo=UTC), 1).isoformat()
    '2024-02-29T09:00:00+00:00'
    >>> add_months(datetime(2024, 2, 29, tzinfo=UTC), 60).date().isoformat()
    '2029-02-28'
    """
    index = moment.year * 12 + moment.month - 1 + months
    year, month = divmod(index, 12)
    day = min(moment.day, calendar.monthrange(year, month + 1)[1])
    return moment.replace(year=year, month=month + 1, day=day)


def allowed_range(kind: BreakKind, now: datetime) -> tuple[datetime, datetime]:
    """The earliest and the latest end a new break of ``kind`` asked for at ``now`` may have."""
    require_aware(now)
    if BreakKind(kind) is BreakKind.TIME_OUT:
        return now + timedelta(hours=24), now + timedelta(weeks=6)
    return add_months(now, 6), add_months(now, 60)


_RANGE_TEXT = {
    BreakKind.TIME_OUT: "a time-out lasts 24 hours to 6 weeks",
    BreakKind.SELF_EXCLUSION: "a self-exclusion lasts 6 months to 5 years",
}


@dataclass(frozen=True, slots=True)
class Break:
    """One break: its kind, when it started and when it ends (exclusive)."""

    kind: BreakKind
    started_at: datetime
    until: datetime

    def is_active(self, now: datetime) -> bool:
        # Only the end matters: a clock stepped back must not lift a break that has begun.
        return require_aware(now) < self.until

    def to_json(self) -> dict[str, str]:
        return {
            "kind": self.kind.value,
            "started_at": self.started_at.isoformat(),
            "until": self.until.isoformat(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Break:
        return cls(
            BreakKind(data["kind"]),
            require_aware(datetime.fromisoformat(data["started_at"]), "started_at"),
            require_aware(datetime.fromisoformat(data["until"]), "until"),
        )


@dataclass(frozen=True, slots=True)
class Breaks:
    """The latest break of each kind a player took (``None``: never)."""

    time_out: Break | None = None
    self_exclusion: Break | None = None

    def latest(self, kind: BreakKind) -> Break | None:
        return self.time_out if kind is BreakKind.TIME_OUT else self.self_exclusion

    def blocking(self, now: datetime) -> Break | None:
        """The break in force at ``now`` (self-exclusion before time-out), or ``None``."""
        for held in (self.self_exclusion, self.time_out):
            if held is not None and held.is_active(now):
                return held
        return None

    def is_blocked(self, now: datetime) -> bool:
        """Whether a break is in force at ``now``: no bet, no deposit, no new session."""
        return self.blocking(now) is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "time_out": None if self.time_out is None else self.time_out.to_json(),
            "self_exclusion": None
            if self.self_exclusion is None
            else self.self_exclusion.to_json(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Breaks:
        def read(key: str) -> Break | None:
            value = data.get(key)
            return None if value is None else Break.from_json(value)

        return cls(read("time_out"), read("self_exclusion"))


NO_BREAKS = Breaks()


def take_break(
    breaks: Breaks, kind: BreakKind, until: datetime, now: datetime
) -> tuple[Breaks, Break]:
    """Start a break of ``kind`` ending at ``until``, or extend the one running.

    A new break must end within the kind's range after ``now``. A running one can only be
    extended: an end before its current end is refused, the same end changes nothing, a
    later end (at most the maximum after ``now``) extends it from its original start.
    """
    kind = BreakKind(kind)
    require_aware(now)
    require_aware(until, "until")
    low, high = allowed_range(kind, now)
    running = breaks.latest(kind)
    if running is not None and running.is_active(now):
        if until < running.until:
            raise BreakError(
                f"{kind.label} cannot be shortened: it runs until {format_instant(running.until)}"
            )
        if until > high:
            raise BreakError(
                f"{_RANGE_TEXT[kind]}: it can be extended to {format_instant(high)} at most"
            )
        taken = Break(kind, running.started_at, until)
    else:
        if not low <= until <= high:
            raise BreakError(
                f"{_RANGE_TEXT[kind]}: choose an end from {format_instant(low)} "
                f"to {format_instant(high)}"
            )
        taken = Break(kind, now, until)
    field = "time_out" if kind is BreakKind.TIME_OUT else "self_exclusion"
    return replace(breaks, **{field: taken}), taken


def check_breaks(breaks: Breaks, now: datetime) -> Refusal | None:
    """Refuse play while a break is in force, saying until when."""
    held = breaks.blocking(now)
    if held is None:
        return None
    until = format_instant(held.until)
    if held.kind is BreakKind.SELF_EXCLUSION:
        return Refusal(
            RefusalCode.SELF_EXCLUDED,
            f"you have excluded yourself until {until}: bets and deposits are refused",
            until=held.until,
        )
    return Refusal(
        RefusalCode.TIME_OUT,
        f"you are taking a time-out until {until}: bets and deposits are refused",
        until=held.until,
    )
