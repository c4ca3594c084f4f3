"""The one entry point the server calls before it accepts a bet or a deposit.

``may_bet`` and ``may_deposit`` combine the player's breaks, session and limits and return
the first reason to refuse, or ``None``. The order is: self-exclusion, time-out, session
time limit, reality check, then the limits (the binding one is named). Each refusal has a
stable code (``baccarat.refusals.RefusalCode``) for the API to map to an HTTP 4xx status.
Withdrawals are never refused by this policy: a player can always take money out.

>>> from dataclasses import replace
>>> from datetime import UTC, datetime, timedelta
>>> from baccarat.responsible.breaks import BreakKind, take_break
>>> from baccarat.responsible.limits import LimitKind, Period, request_change
>>> now = datetime(2024, 6, 1, 12, tzinfo=UTC)
>>> limits, _ = request_change(NO_LIMITS, LimitKind.WAGER, Period.DAY, 5_000, now)
>>> state = PlayerState(limits=limits, session=Session.start(now))
>>> print(may_bet(state, 5_000, now))
None
>>> print(may_bet(state, 5_001, now))
limit_exceeded: wager limit (24 hours) reached: 50.00 left of 50.00
>>> breaks, _ = take_break(state.breaks, BreakKind.TIME_OUT, now + timedelta(days=1), now)
>>> may_deposit(replace(state, breaks=breaks), 1_000, now).code.value
'time_out'
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from baccarat.refusals import Refusal
from baccarat.responsible.activity import NO_ACTIVITY, Activity
from baccarat.responsible.breaks import NO_BREAKS, Breaks, check_breaks
from baccarat.responsible.instants import require_aware
from baccarat.responsible.limit_checks import check_bet, check_deposit
from baccarat.responsible.limits import NO_LIMITS, LimitSettings
from baccarat.responsible.session import Session, check_session

__all__ = ["PlayerState", "may_bet", "may_deposit", "may_play"]


@dataclass(frozen=True, slots=True)
class PlayerState:
    """Everything the policy needs to know about one player at one moment."""

    limits: LimitSettings = NO_LIMITS
    breaks: Breaks = NO_BREAKS
    #: The running session (``None``: no session rules, e.g. a caller outside a login).
    session: Session | None = None
    #: The player's wagers and deposits of (at least) the last 30 days.
    activity: Activity = NO_ACTIVITY


def _check_positive(amount: object, what: str) -> None:
    # Bad input is the caller's error to report, whatever the player's state.
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise ValueError(f"{what} must be a positive integer of minor units, not {amount!r}")


def may_play(state: PlayerState, now: datetime) -> Refusal | None:
    """Refuse to start a session (log in to play) while a break is in force."""
    return check_breaks(state.breaks, require_aware(now))


def may_bet(state: PlayerState, stake: int, now: datetime) -> Refusal | None:
    """Refuse a bet request whose stakes total ``stake`` minor units, or return ``None``."""
    require_aware(now)
    _check_positive(stake, "a stake")
    refusal = check_breaks(state.breaks, now)
    if refusal is None and state.session is not None:
        refusal = check_session(state.session, now)
    if refusal is None:
        refusal = check_bet(state.limits, state.activity, stake, now)
    return refusal


def may_deposit(state: PlayerState, amount: int, now: datetime) -> Refusal | None:
    """Refuse a deposit of ``amount`` minor units during a break or past a deposit limit."""
    require_aware(now)
    _check_positive(amount, "a deposit")
    refusal = check_breaks(state.breaks, now)
    if refusal is None:
        refusal = check_deposit(state.limits, state.activity, amount, now)
    return refusal
