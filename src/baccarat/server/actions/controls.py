"""A player's responsible-gaming controls: limits, breaks, session settings, the reality check.

A decrease of a limit (or a first limit) applies at once; an increase or a removal waits
24 hours and then needs confirming. A break (time-out or self-exclusion) starts at once,
ends every session of the player, and can be extended but never shortened. A login starts a
session with the player's settings (a guest's starts when it first saves settings); a
stricter time limit and any reality-check interval apply to the running session at once.
Every change is one transaction: the controls loaded under lock, changed by the pure policy,
saved, and audited.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import Connection

from baccarat.refusals import Refusal, RefusalCode
from baccarat.responsible import (
    BreakError,
    BreakKind,
    Change,
    LimitError,
    LimitKind,
    LimitSettings,
    Period,
    SessionError,
    SessionSettings,
    allowed_range,
    cancel_pending,
    confirm,
    request_change,
    take_break,
    usage,
)
from baccarat.responsible import Session as PolicySession
from baccarat.responsible.caps import cap_problem
from baccarat.responsible.instants import from_epoch_ms
from baccarat.server.clock import Clock
from baccarat.server.feedsessions import end_feeds
from baccarat.server.models import (
    BreaksView,
    BreakTaken,
    LimitChanged,
    LimitsView,
    SessionSettingsModel,
    SessionView,
)
from baccarat.server.service import Service
from baccarat.store.accounts import end_sessions
from baccarat.store.audit_log import append_audit
from baccarat.store.operator_limits import load_caps
from baccarat.store.players import is_demo
from baccarat.store.responsible import Controls, load_activity, load_controls, save_controls

__all__ = ["PlayerControls", "breaks_view", "limits_view", "session_view", "update_controls"]

T = TypeVar("T")

#: A change of the controls: the new controls, the audit action, its details, the result.
ControlChange = Callable[[Controls, datetime], tuple[Controls, str, dict[str, Any], T]]


class _AboveCapError(LimitError):
    """A player's limit above the operator's."""


def update_controls(c: Connection, player: str, now_ms: int, change: ControlChange[T]) -> T:
    """Load the player's controls under lock, change them, save them and audit the change.

    ``change`` returns the new controls, the audit action, its details and the result;
    it raises to change nothing.
    """
    controls = load_controls(c, [player], lock=True).get(player, Controls())
    updated, action, details, result = change(controls, from_epoch_ms(now_ms))
    save_controls(c, player, updated, now_ms)
    append_audit(c, now_ms, f"player:{player}", action, details)
    return result


def _controls(c: Connection, player: str) -> Controls:
    return load_controls(c, [player]).get(player, Controls())


def limits_view(controls: Controls, c: Connection, player: str, now_ms: int) -> dict[str, Any]:
    """The limits, the pending increases (with when each may be confirmed) and each limit's
    use in its window."""
    activity = load_activity(c, [player], now_ms)[player]
    used = [
        {
            "kind": u.kind.value,
            "period": u.period.value,
            "limit": u.limit,
            "used": u.used,
            "left": u.left,
        }
        for u in usage(controls.limits, activity, from_epoch_ms(now_ms))
    ]
    stored = controls.limits.to_json()
    pending = stored["pending"]
    for item in pending:
        increase = controls.limits.pending_for(LimitKind(item["kind"]), Period(item["period"]))
        assert increase is not None
        item["confirmable_at"] = increase.confirmable_at.isoformat()
    return {"limits": stored["limits"], "pending": pending, "usage": used}


def breaks_view(controls: Controls, now_ms: int) -> dict[str, Any]:
    """The breaks taken, the one in force, and the ends a new break may have."""
    now = from_epoch_ms(now_ms)
    blocking = controls.breaks.blocking(now)
    ranges = {}
    for kind in BreakKind:
        earliest, latest = allowed_range(kind, now)
        ranges[kind.value] = {"earliest": earliest.isoformat(), "latest": latest.isoformat()}
    return {
        **controls.breaks.to_json(),
        "in_force": None if blocking is None else blocking.to_json(),
        "allowed": ranges,
    }


def session_view(controls: Controls, c: Connection, player: str, now_ms: int) -> SessionView:
    """The session as a client shows it: clock, limit, the reality check if due; the running
    session's figures are left unset (absent from the body) when no session runs."""
    session = controls.session
    settings = SessionSettingsModel.model_validate(controls.session_settings.to_json())
    if session is None:
        return SessionView(
            settings=settings, session=None, reality_check_due=False, reality_check=None
        )
    now = from_epoch_ms(now_ms)
    activity = load_activity(c, [player], now_ms)[player]
    check = session.reality_check(activity, now)
    ends_at = session.ends_at
    return SessionView.model_validate(
        {
            "settings": settings,
            "session": session.to_json(),
            "session_ends_at": None if ends_at is None else ends_at.isoformat(),
            "time_played_s": session.time_played(now) // timedelta(seconds=1),
            "net_result": activity.net_result(session.started_at),
            "limit_reached": session.limit_reached(now),
            "may_end": session.may_end(now, activity),
            "reality_check_due": check is not None,
            "reality_check": None if check is None else check.to_json(),
        }
    )


class PlayerControls:
    """The control transactions of one server, judged by the server's clock ``clock``."""

    def __init__(self, service: Service, clock: Clock) -> None:
        self.service = service
        self.clock = clock

    # Limits.

    async def limits(self, player: str) -> LimitsView:
        """The player's limits, pending increases (and when each may be confirmed), and use."""
        now_ms = self.clock.now_ms()

        def run(c: Connection) -> dict[str, Any]:
            return limits_view(_controls(c, player), c, player, now_ms)

        return LimitsView.model_validate(await self.service.runner.read(run))

    async def change_limit(
        self, player: str, kind: LimitKind, period: Period, amount: int | None
    ) -> LimitChanged | Refusal:
        """Set, lower, raise or remove one limit (raising or removing waits 24 h)."""
        return await self._limit_change(
            player,
            lambda limits, now: request_change(limits, kind, period, amount, now),
        )

    async def confirm_limit(
        self, player: str, kind: LimitKind, period: Period
    ) -> LimitChanged | Refusal:
        """Apply a pending increase, 24 hours or more after it was asked for."""
        return await self._limit_change(
            player, lambda limits, now: confirm(limits, kind, period, now)
        )

    async def cancel_limit(
        self, player: str, kind: LimitKind, period: Period
    ) -> LimitChanged | Refusal:
        """Drop a pending increase; the current limit stays."""
        return await self._limit_change(
            player, lambda limits, now: cancel_pending(limits, kind, period, now)
        )

    async def _limit_change(
        self,
        player: str,
        operate: Callable[[LimitSettings, datetime], tuple[LimitSettings, Change]],
    ) -> LimitChanged | Refusal:
        now_ms = self.clock.now_ms()

        def run(c: Connection) -> dict[str, Any]:
            caps = load_caps(c, player)  # the operator's: a limit may not pass them

            def change(
                controls: Controls, now: datetime
            ) -> tuple[Controls, str, dict[str, Any], Change]:
                limits, made = operate(controls.limits, now)
                problem = cap_problem(limits, caps)
                if problem is not None:
                    raise _AboveCapError(problem)
                return replace(controls, limits=limits), "limit_change", made.to_json(), made

            made = update_controls(c, player, now_ms, change)
            view = limits_view(load_controls(c, [player])[player], c, player, now_ms)
            return {"change": {**made.to_json(), "message": made.message}, **view}

        # The policy's errors are raised inside the transaction, so that it writes nothing.
        try:
            return LimitChanged.model_validate(await self.service.runner.write(run))
        except _AboveCapError as error:
            return Refusal(RefusalCode.ABOVE_OPERATOR_LIMIT, str(error))
        except LimitError as error:
            return Refusal(RefusalCode.INVALID_LIMIT, str(error))

    # Breaks.

    async def breaks(self, player: str) -> BreaksView:
        """The player's breaks and the allowed range of a new one."""
        now_ms = self.clock.now_ms()
        controls = await self.service.runner.read(lambda c: _controls(c, player))
        return BreaksView.model_validate(breaks_view(controls, now_ms))

    async def take_break(
        self, player: str, kind: BreakKind, until: datetime
    ) -> BreakTaken | Refusal:
        """Take (or extend) a break from now until ``until``: it ends every session of the
        player at once (a guest keeps its token: it sees, and may lengthen, its break) and
        closes the player's feeds."""
        now_ms = self.clock.now_ms()

        def change(
            controls: Controls, now: datetime
        ) -> tuple[Controls, str, dict[str, Any], Controls]:
            breaks, taken = take_break(controls.breaks, kind, until, now)
            updated = replace(controls, breaks=breaks, session=None)
            return updated, "break", taken.to_json(), updated

        def run(c: Connection) -> dict[str, Any]:
            updated = update_controls(c, player, now_ms, change)
            ended = 0 if is_demo(c, player) else end_sessions(c, player, now_ms)
            return {**breaks_view(updated, now_ms), "sessions_ended": ended}

        try:
            view = await self.service.runner.write(run)
        except BreakError as error:
            return Refusal(RefusalCode.INVALID_BREAK, str(error))
        end_feeds(self.service, player)
        return BreakTaken.model_validate(view)

    # The session.

    async def session(self, player: str) -> SessionView:
        """The running session: time played, net result, time limit, a due reality check."""
        now_ms = self.clock.now_ms()
        return await self.service.runner.read(
            lambda c: session_view(_controls(c, player), c, player, now_ms)
        )

    async def session_settings(self, player: str) -> SessionSettingsModel:
        """The player's standing session settings."""
        controls = await self.service.runner.read(lambda c: _controls(c, player))
        return SessionSettingsModel.model_validate(controls.session_settings.to_json())

    async def save_session_settings(
        self, player: str, settings: dict[str, Any]
    ) -> SessionView | Refusal:
        """Save the settings: a stricter time limit and any reality-check interval apply to
        the running session at once, a looser time limit to the next session."""
        now_ms = self.clock.now_ms()
        try:
            wanted = SessionSettings.from_json(settings)
        except SessionError as error:
            return Refusal(RefusalCode.INVALID_SESSION_SETTINGS, str(error))

        def change(controls: Controls, now: datetime) -> tuple[Controls, str, dict[str, Any], None]:
            running = controls.session
            session = PolicySession.start(now, wanted) if running is None else running.apply(wanted)
            updated = replace(controls, session_settings=wanted, session=session)
            return updated, "session_settings", wanted.to_json(), None

        def run(c: Connection) -> SessionView:
            update_controls(c, player, now_ms, change)
            return session_view(load_controls(c, [player])[player], c, player, now_ms)

        return await self.service.runner.write(run)

    async def acknowledge_reality_check(self, player: str) -> SessionView | Refusal:
        """Acknowledge the due reality check: betting opens again, the next is an interval
        away; ``no_reality_check`` without a running session."""
        now_ms = self.clock.now_ms()

        def change(controls: Controls, now: datetime) -> tuple[Controls, str, dict[str, Any], None]:
            if controls.session is None:
                raise SessionError("there is no running session")
            session = controls.session.acknowledge(now)
            return replace(controls, session=session), "reality_check_ack", {}, None

        def run(c: Connection) -> SessionView:
            update_controls(c, player, now_ms, change)
            return session_view(load_controls(c, [player])[player], c, player, now_ms)

        try:
            return await self.service.runner.write(run)
        except SessionError as error:
            return Refusal(RefusalCode.NO_REALITY_CHECK, str(error))
