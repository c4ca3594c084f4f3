"""Instants and durations for the responsible-gaming rules: checked, converted, written out.

Nothing in ``baccarat.responsible`` reads a clock: every operation takes ``now``, a
timezone-aware ``datetime``, from its caller (the server passes its injectable clock's
reading; tests pass plain datetimes). A naive datetime is refused, because comparing it
with a stored UTC instant would silently shift every window by the local offset.
The store keeps instants as milliseconds since the Unix epoch; the conversions are exact.

>>> moment = from_epoch_ms(1_700_000_000_123)
>>> moment.isoformat(), to_epoch_ms(moment)
('2023-11-14T22:13:20.123000+00:00', 1700000000123)
>>> format_instant(moment), format_duration(timedelta(hours=1, minutes=5, seconds=59))
('2023-11-14 22:13:20 UTC', '1 h 05 min')
>>> require_aware(datetime(2024, 1, 1))
Traceback (most recent call last):
...
ValueError: now must be a timezone-aware datetime (UTC), not the naive 2024-01-01 00:00:00
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

__all__ = [
    "EPOCH",
    "format_duration",
    "format_instant",
    "from_epoch_ms",
    "require_aware",
    "to_epoch_ms",
]

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MS = timedelta(milliseconds=1)


def require_aware(moment: datetime, name: str = "now") -> datetime:
    """Return ``moment`` if it is a timezone-aware ``datetime``, else raise ``ValueError``."""
    if not isinstance(moment, datetime):
        raise TypeError(f"{name} must be a datetime, not {type(moment).__name__}")
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"{name} must be a timezone-aware datetime (UTC), not the naive {moment}")
    return moment


def from_epoch_ms(ms: int) -> datetime:
    """The UTC instant ``ms`` milliseconds after the Unix epoch (as the store keeps time)."""
    return EPOCH + timedelta(milliseconds=ms)


def to_epoch_ms(moment: datetime) -> int:
    """Whole milliseconds since the Unix epoch (rounded down), for the store."""
    return (require_aware(moment, "moment") - EPOCH) // _MS


def format_instant(moment: datetime) -> str:
    """``moment`` in UTC to the second, for a message: ``2024-06-01 12:00:00 UTC``."""
    return require_aware(moment, "moment").astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def format_duration(duration: timedelta) -> str:
    """A duration to the minute (rounded down), for a message.

    >>> format_duration(timedelta(days=2, hours=3)), format_duration(timedelta(seconds=59))
    ('51 h 00 min', '0 min')
    """
    minutes = max(0, duration // timedelta(minutes=1))
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"
