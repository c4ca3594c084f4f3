"""The playing session: a time limit, and reality checks at an interval the player chooses.

A session starts at login with the player's ``SessionSettings``. When its time limit is
reached, new bets are refused but the round in progress completes: bets already accepted
settle as usual, and the session may end once none is left open. A reality check falls due
every ``reality_check_every`` after the start (then after each acknowledgement); from then
on new bets are refused until the player acknowledges it. Bets already accepted settle.

A stricter time limit chosen during a session applies at once; a looser one (or none)
applies from the next session, so it cannot be used to play on.

>>> from datetime import UTC, datetime, timedelta
>>> from baccarat.responsible.activity import Activity, Wager
>>> login = datetime(2024, 6, 1, 20, tzinfo=UTC)
>>> hour = timedelta(hours=1)
>>> session = Session.start(login, SessionSettings(time_limit=2 * hour, reality_check_every=hour))
>>> print(check_session(session, login + hour - timedelta(seconds=1)))
None
>>> print(check_session(session, login + hour))
reality_check_due: a reality check is due: you have played for 1 h 00 min; acknowledge it to bet again
>>> played = Activity((Wager(login + timedelta(minutes=5), 1_000, returned=0),))
>>> session.reality_check(played, login + hour).message
'You have played for 1 h 00 min. Net result this session: -10.00 (wagered 10.00).'
>>> session = session.acknowledge(login + hour + timedelta(minutes=2))
>>> session.reality_check_due_at == login + 2 * hour + timedelta(minutes=2)
True
>>> check_session(session, login + 2 * hour).code.value
'session_limit'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from baccarat.refusals import Refusal, RefusalCode
from baccarat.responsible.activity import Activity
from baccarat.responsible.instants import format_duration, format_instant, require_aware
from baccarat.responsible.money import format_money

__all__ = [
    "REALITY_CHECK_RANGE",
    "SESSION_LIMIT_RANGE",
    "RealityCheck",
    "Session",
    "SessionError",
    "SessionSettings",
    "check_session",
]

#: The shortest and longest session time limit a player may choose.
SESSION_LIMIT_RANGE = (timedelta(minutes=5), timedelta(hours=24))
#: The shortest and longest interval between reality checks.
REALITY_CHECK_RANGE = (timedelta(minutes=5), timedelta(hours=24))


class SessionError(ValueError):
    """A session setting or operation that is not allowed; nothing changed."""


def _check_range(value: timedelta | None, bounds: tuple[timedelta, timedelta], what: str) -> None:
    if value is None:
        return
    if not isinstance(value, timedelta):
        raise SessionError(f"{what} must be a duration, not {value!r}")
    low, high = bounds
    if not low <= value <= high:
        raise SessionError(
            f"{what} must be from {format_duration(low)} to {format_duration(high)}, "
            f"not {format_duration(value)}"
        )


@dataclass(frozen=True, slots=True)
class SessionSettings:
    """A player's standing choices for each session (``None``: not used)."""

    time_limit: timedelta | None = None
    reality_check_every: timedelta | None = None

    def __post_init__(self) -> None:
        _check_range(self.time_limit, SESSION_LIMIT_RANGE, "a session time limit")
        _check_range(self.reality_check_every, REALITY_CHECK_RANGE, "a reality-check interval")

    def to_json(self) -> dict[str, int | None]:
        """Durations as whole seconds.

        >>> SessionSettings(timedelta(hours=1)).to_json()
        {'time_limit_s': 3600, 'reality_check_every_s': None}
        """

        def seconds(value: timedelta | None) -> int | None:
            return None if value is None else value // timedelta(seconds=1)

        return {
            "time_limit_s": seconds(self.time_limit),
            "reality_check_every_s": seconds(self.reality_check_every),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SessionSettings:
        def duration(key: str) -> timedelta | None:
            value = data.get(key)
            return None if value is None else timedelta(seconds=value)

        return cls(duration("time_limit_s"), duration("reality_check_every_s"))


@dataclass(frozen=True, slots=True)
class RealityCheck:
    """The reality-check event: how long the session has lasted and what it has won or lost."""

    at: datetime
    started_at: datetime
    #: Settled bets of this session: won (positive) or lost (negative), in minor units.
    net_result: int
    #: Stakes accepted this session, settled or not.
    wagered: int

    @property
    def time_played(self) -> timedelta:
        return self.at - self.started_at

    @property
    def message(self) -> str:
        return (
            f"You have played for {format_duration(self.time_played)}. "
            f"Net result this session: {format_money(self.net_result)} "
            f"(wagered {format_money(self.wagered)})."
        )

    def to_json(self) -> dict[str, object]:
        return {
            "type": "reality_check",
            "at": self.at.isoformat(),
            "started_at": self.started_at.isoformat(),
            "time_played_s": self.time_played // timedelta(seconds=1),
            "net_result": self.net_result,
            "wagered": self.wagered,
            "message": self.message,
        }


@dataclass(frozen=True, slots=True)
class Session:
    """One running session. Each operation returns the next state."""

    started_at: datetime
    time_limit: timedelta | None = None
    reality_check_every: timedelta | None = None
    #: When the last reality check was acknowledged (``None``: none yet).
    acknowledged_at: datetime | None = None

    def __post_init__(self) -> None:
        require_aware(self.started_at, "started_at")
        if self.acknowledged_at is not None:
            require_aware(self.acknowledged_at, "acknowledged_at")
        SessionSettings(self.time_limit, self.reality_check_every)

    @classmethod
    def start(cls, now: datetime, settings: SessionSettings | None = None) -> Session:
        """A session starting at ``now`` under the player's ``settings``."""
        chosen = settings or SessionSettings()
        return cls(require_aware(now), chosen.time_limit, chosen.reality_check_every)

    @property
    def ends_at(self) -> datetime | None:
        """When the time limit is reached (``None``: no limit)."""
        return None if self.time_limit is None else self.started_at + self.time_limit

    def time_played(self, now: datetime) -> timedelta:
        return require_aware(now) - self.started_at

    def limit_reached(self, now: datetime) -> bool:
        """Whether the time limit has been reached at ``now`` (from its last instant on)."""
        require_aware(now)
        return self.ends_at is not None and now >= self.ends_at

    def may_end(self, now: datetime, activity: Activity) -> bool:
        """Whether the server should end the session: limit reached and no bet left to settle."""
        return self.limit_reached(now) and not activity.open_wagers()

    @property
    def reality_check_due_at(self) -> datetime | None:
        """When the next reality check falls due (``None``: reality checks are off)."""
        if self.reality_check_every is None:
            return None
        return (self.acknowledged_at or self.started_at) + self.reality_check_every

    def reality_check_due(self, now: datetime) -> bool:
        """Whether a reality check is waiting for acknowledgement at ``now``."""
        require_aware(now)
        due = self.reality_check_due_at
        return due is not None and now >= due

    def reality_check(self, activity: Activity, now: datetime) -> RealityCheck | None:
        """The reality-check event to show at ``now``, if one is due."""
        if not self.reality_check_due(now):
            return None
        wagered = sum(w.stake for w in activity.wagers if w.at >= self.started_at)
        return RealityCheck(now, self.started_at, activity.net_result(self.started_at), wagered)

    def acknowledge(self, now: datetime) -> Session:
        """The player has read the due reality check; the next one is an interval from ``now``."""
        if not self.reality_check_due(now):
            due = self.reality_check_due_at
            when = "reality checks are off" if due is None else f"next at {format_instant(due)}"
            raise SessionError(f"no reality check is due ({when})")
        return replace(self, acknowledged_at=now)

    def apply(self, settings: SessionSettings) -> Session:
        """The player's new choices: a stricter time limit and any reality-check interval apply
        now; a looser time limit (or none) waits for the next session.

        >>> from datetime import UTC, datetime
        >>> s = Session.start(datetime(2024, 1, 1, tzinfo=UTC), SessionSettings(timedelta(hours=2)))
        >>> s.apply(SessionSettings(timedelta(hours=1))).time_limit
        datetime.timedelta(seconds=3600)
        >>> s.apply(SessionSettings(None)).time_limit
        datetime.timedelta(seconds=7200)
        """
        limit = self.time_limit
        if settings.time_limit is not None and (limit is None or settings.time_limit < limit):
            limit = settings.time_limit
        return replace(self, time_limit=limit, reality_check_every=settings.reality_check_every)

    def to_json(self) -> dict[str, object]:
        """The session for the store and the API; ``from_json`` reads it back.

        >>> from datetime import UTC, datetime
        >>> s = Session.start(datetime(2024, 1, 1, tzinfo=UTC), SessionSettings(timedelta(hours=1)))
        >>> Session.from_json(s.to_json()) == s, s.to_json()["ends_at"]
        (True, '2024-01-01T01:00:00+00:00')
        """

        def text(moment: datetime | None) -> str | None:
            return None if moment is None else moment.isoformat()

        return {
            "started_at": self.started_at.isoformat(),
            "acknowledged_at": text(self.acknowledged_at),
            **SessionSettings(self.time_limit, self.reality_check_every).to_json(),
            "ends_at": text(self.ends_at),
            "reality_check_due_at": text(self.reality_check_due_at),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Session:
        settings = SessionSettings.from_json(data)
        acknowledged = data.get("acknowledged_at")
        return cls(
            require_aware(datetime.fromisoformat(data["started_at"]), "started_at"),
            settings.time_limit,
            settings.reality_check_every,
            None if acknowledged is None else datetime.fromisoformat(acknowledged),
        )


def check_session(session: Session, now: datetime) -> Refusal | None:
    """Refuse a new bet once the time limit is reached, or while a reality check is due."""
    if session.limit_reached(now):
        assert session.ends_at is not None and session.time_limit is not None
        return Refusal(
            RefusalCode.SESSION_LIMIT,
            f"your session time limit of {format_duration(session.time_limit)} was reached at "
            f"{format_instant(session.ends_at)}: bets already placed settle, new bets are refused",
            until=None,
        )
    if session.reality_check_due(now):
        return Refusal(
            RefusalCode.REALITY_CHECK_DUE,
            f"a reality check is due: you have played for "
            f"{format_duration(session.time_played(now))}; acknowledge it to bet again",
        )
    return None
