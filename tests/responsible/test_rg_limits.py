"""Limits with a fake clock: stricter now, looser after 24 h and a confirmation, the lowest wins,
rolling windows to the second, and what counts as a loss."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baccarat.refusals import RefusalCode
from baccarat.responsible import (
    COOLING_OFF,
    NO_LIMITS,
    Activity,
    ChangeStatus,
    Deposit,
    LimitError,
    LimitKind,
    LimitSettings,
    Period,
    Wager,
    binding_limit,
    cancel_pending,
    check_bet,
    check_deposit,
    confirm,
    request_change,
    usage,
)

T0 = datetime(2024, 6, 1, 12, 0, 0, tzinfo=UTC)
SECOND = timedelta(seconds=1)
HOUR = timedelta(hours=1)
DAY = timedelta(days=1)
LOSS, WAGER, DEPOSIT = LimitKind.LOSS, LimitKind.WAGER, LimitKind.DEPOSIT


def with_limits(*items: tuple[LimitKind, Period, int]) -> LimitSettings:
    settings = NO_LIMITS
    for kind, period, amount in items:
        settings, change = request_change(settings, kind, period, amount, T0)
        assert change.status is ChangeStatus.APPLIED
    return settings


# --- setting, lowering, raising ---------------------------------------------------------


def test_a_first_limit_applies_at_once() -> None:
    settings, change = request_change(NO_LIMITS, LOSS, Period.WEEK, 10_000, T0)
    assert (change.status, change.before, change.after) == (ChangeStatus.APPLIED, None, 10_000)
    assert settings.amount(LOSS, Period.WEEK) == 10_000
    assert settings.amount(LOSS, Period.DAY) is None
    lost = Activity((Wager(T0, 10_000, returned=0),))
    assert check_bet(settings, lost, 1, T0) is not None


@pytest.mark.parametrize("lower", [0, 1, 4_999, 5_000])
def test_a_decrease_applies_at_once(lower: int) -> None:
    settings = with_limits((WAGER, Period.DAY, 5_000))
    settings, change = request_change(settings, WAGER, Period.DAY, lower, T0 + HOUR)
    assert change.status is ChangeStatus.APPLIED
    assert change.confirmable_at is None
    assert settings.amount(WAGER, Period.DAY) == lower
    assert settings.pending_for(WAGER, Period.DAY) is None
    # The very same instant, a bet of one unit more than the new limit is refused.
    assert check_bet(settings, Activity(), lower + 1, T0 + HOUR) is not None
    if lower:
        assert check_bet(settings, Activity(), lower, T0 + HOUR) is None


@pytest.mark.parametrize("higher", [5_001, 1_000_000, None])
def test_an_increase_waits_24_hours_and_a_confirmation(higher: int | None) -> None:
    settings = with_limits((LOSS, Period.DAY, 5_000))
    asked = T0 + HOUR
    settings, change = request_change(settings, LOSS, Period.DAY, higher, asked)
    assert change.status is ChangeStatus.PENDING
    assert change.confirmable_at == asked + timedelta(hours=24)
    # Nothing changes by itself: the old limit holds, even long after the 24 hours.
    for later in (asked, asked + COOLING_OFF, asked + 30 * DAY):
        assert settings.amount(LOSS, Period.DAY) == 5_000
        refusal = check_bet(settings, Activity(), 5_001, later)
        assert refusal is not None and refusal.limit == 5_000
    with pytest.raises(LimitError, match="can be confirmed from 2024-06-02 13:00:00 UTC"):
        confirm(settings, LOSS, Period.DAY, asked + timedelta(hours=23, minutes=59, seconds=59))
    confirmed, change = confirm(settings, LOSS, Period.DAY, asked + timedelta(hours=24))
    assert (change.status, change.before, change.after) == (ChangeStatus.CONFIRMED, 5_000, higher)
    assert confirmed.amount(LOSS, Period.DAY) == higher
    assert confirmed.pending_for(LOSS, Period.DAY) is None
    assert check_bet(confirmed, Activity(), 5_001, asked + timedelta(hours=24)) is None


def test_the_refusal_before_24_hours_says_how_long_to_wait() -> None:
    settings = with_limits((DEPOSIT, Period.MONTH, 100_00))
    settings, _ = request_change(settings, DEPOSIT, Period.MONTH, 200_00, T0)
    with pytest.raises(LimitError) as refused:
        confirm(settings, DEPOSIT, Period.MONTH, T0 + timedelta(hours=20, minutes=30))
    assert "(in 3 h 30 min)" in str(refused.value)
    assert "it stays 100.00" in str(refused.value)


def test_a_new_request_replaces_the_pending_one_and_restarts_the_wait() -> None:
    settings = with_limits((WAGER, Period.WEEK, 1_000))
    settings, _ = request_change(settings, WAGER, Period.WEEK, 2_000, T0)
    settings, change = request_change(settings, WAGER, Period.WEEK, 9_000, T0 + 20 * HOUR)
    assert change.confirmable_at == T0 + 44 * HOUR
    with pytest.raises(LimitError):
        confirm(settings, WAGER, Period.WEEK, T0 + 24 * HOUR)
    settings, change = confirm(settings, WAGER, Period.WEEK, T0 + 44 * HOUR)
    assert settings.amount(WAGER, Period.WEEK) == 9_000


@pytest.mark.parametrize("amount", [500, 1_000])
def test_a_decrease_or_the_same_amount_drops_a_pending_increase(amount: int) -> None:
    settings = with_limits((WAGER, Period.WEEK, 1_000))
    settings, _ = request_change(settings, WAGER, Period.WEEK, 2_000, T0)
    settings, change = request_change(settings, WAGER, Period.WEEK, amount, T0 + HOUR)
    assert change.status is ChangeStatus.APPLIED
    assert settings.amount(WAGER, Period.WEEK) == amount
    assert settings.pending_for(WAGER, Period.WEEK) is None
    with pytest.raises(LimitError, match="no pending change"):
        confirm(settings, WAGER, Period.WEEK, T0 + 2 * DAY)


def test_cancelling_a_pending_increase_keeps_the_limit() -> None:
    settings = with_limits((LOSS, Period.MONTH, 300))
    settings, _ = request_change(settings, LOSS, Period.MONTH, None, T0)
    settings, change = cancel_pending(settings, LOSS, Period.MONTH, T0 + HOUR)
    assert (change.status, change.before, change.after) == (ChangeStatus.CANCELLED, 300, None)
    assert settings.amount(LOSS, Period.MONTH) == 300
    assert settings.pending_for(LOSS, Period.MONTH) is None
    with pytest.raises(LimitError, match="no pending change to cancel"):
        cancel_pending(settings, LOSS, Period.MONTH, T0 + HOUR)


def test_removing_no_limit_changes_nothing() -> None:
    settings, change = request_change(NO_LIMITS, LOSS, Period.DAY, None, T0)
    assert settings == NO_LIMITS
    assert change.status is ChangeStatus.APPLIED


@pytest.mark.parametrize("bad", [-1, 1.5, True, "100", 10**2 + 0.0])
def test_a_limit_is_a_whole_number_of_minor_units(bad: object) -> None:
    with pytest.raises(LimitError, match="whole number of minor units"):
        request_change(NO_LIMITS, LOSS, Period.DAY, bad, T0)  # type: ignore[arg-type]


def test_now_must_be_timezone_aware() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        request_change(NO_LIMITS, LOSS, Period.DAY, 100, datetime(2024, 6, 1))
    with pytest.raises(ValueError, match="timezone-aware"):
        check_bet(with_limits((LOSS, Period.DAY, 100)), Activity(), 1, datetime(2024, 6, 1))


@pytest.mark.parametrize("stake", [0, -5, 2.5, False])
def test_a_stake_to_check_is_a_positive_integer(stake: object) -> None:
    with pytest.raises(ValueError, match="positive integer"):
        check_bet(NO_LIMITS, Activity(), stake, T0)  # type: ignore[arg-type]


# --- the lowest limit wins -------------------------------------------------------------

# Three lost bets: 1 h, 3 days and 20 days before T0. So the 24 h window holds 100, the
# 7 days 300 and the 30 days 700, both wagered and lost.
HISTORY = Activity(
    (
        Wager(T0 - HOUR, 100, returned=0),
        Wager(T0 - 3 * DAY, 200, returned=0),
        Wager(T0 - 20 * DAY, 400, returned=0),
    )
)
USED = {Period.DAY: 100, Period.WEEK: 300, Period.MONTH: 700}
CHOICES = (None, 150, 400, 1_000)


@pytest.mark.parametrize("amounts", list(itertools.product(CHOICES, repeat=3)))
def test_the_limit_with_least_room_binds_across_periods(
    amounts: tuple[int | None, int | None, int | None],
) -> None:
    items = [(LOSS, p, a) for p, a in zip(Period, amounts, strict=True) if a is not None]
    settings = with_limits(*items)
    room = {p: max(0, a - USED[p]) for p, a in zip(Period, amounts, strict=True) if a is not None}
    for stake in (1, 49, 50, 51, 300, 301, 900, 901):
        refusal = check_bet(settings, HISTORY, stake, T0)
        if not room or stake <= min(room.values()):
            assert refusal is None, (amounts, stake)
            continue
        assert refusal is not None
        assert refusal.code is RefusalCode.LIMIT_EXCEEDED
        assert refusal.left == min(room.values())
        # On equal room the lower limit binds, then the shorter period.
        limit_of = dict(zip(Period, amounts, strict=True))
        tied = [p for p in room if room[p] == min(room.values())]
        expected = min(tied, key=lambda p: (limit_of[p], p.duration))
        assert refusal.period is not None
        assert (Period(refusal.period), refusal.limit) == (expected, limit_of[expected])


def test_the_lowest_limit_wins_across_kinds() -> None:
    # 1,000 wagered in the last hour, but the player is 500 up: the loss limit has more room.
    won = Activity((Wager(T0 - HOUR, 1_000, returned=1_500),))
    settings = with_limits((WAGER, Period.DAY, 1_500), (LOSS, Period.DAY, 200))
    assert check_bet(settings, won, 500, T0) is None
    refusal = check_bet(settings, won, 501, T0)
    assert refusal is not None
    assert (refusal.kind, refusal.period, refusal.left) == ("wager", "24h", 500)
    # After a loss of the same size the loss limit binds instead.
    lost = Activity((Wager(T0 - HOUR, 1_000, returned=0),))
    settings = with_limits((WAGER, Period.DAY, 5_000), (LOSS, Period.DAY, 1_200))
    refusal = check_bet(settings, lost, 201, T0)
    assert refusal is not None
    assert (refusal.kind, refusal.left, refusal.limit) == ("loss", 200, 1_200)
    assert refusal.message == "loss limit (24 hours) reached: 2.00 left of 12.00"


def test_deposits_and_bets_count_against_their_own_limits_only() -> None:
    settings = with_limits((DEPOSIT, Period.DAY, 1_000), (WAGER, Period.DAY, 1_000))
    deposited = Activity(deposits=(Deposit(T0 - HOUR, 1_000),))
    assert check_bet(settings, deposited, 1_000, T0) is None
    refused = check_deposit(settings, deposited, 1, T0)
    assert refused is not None and refused.kind == "deposit" and refused.left == 0
    wagered = Activity((Wager(T0 - HOUR, 1_000, returned=0),))
    assert check_deposit(settings, wagered, 1_000, T0) is None
    assert check_bet(settings, wagered, 1, T0) is not None


def test_the_refusal_message_names_the_limit_and_what_is_left() -> None:
    settings = with_limits((LOSS, Period.WEEK, 100_00))
    lost = Activity((Wager(T0 - 2 * DAY, 87_50, returned=0),))
    refusal = check_bet(settings, lost, 12_51, T0)
    assert refusal is not None
    assert refusal.message == "loss limit (7 days) reached: 12.50 left of 100.00"
    assert refusal.to_json() == {
        "code": "limit_exceeded",
        "message": "loss limit (7 days) reached: 12.50 left of 100.00",
        "kind": "loss",
        "period": "7d",
        "limit": 100_00,
        "left": 12_50,
    }
    assert check_bet(settings, lost, 12_50, T0) is None


def test_usage_lists_every_limit_with_its_window() -> None:
    settings = with_limits(
        (LOSS, Period.DAY, 150), (LOSS, Period.MONTH, 1_000), (WAGER, Period.WEEK, 250)
    )
    rows = {(u.kind, u.period): (u.used, u.left) for u in usage(settings, HISTORY, T0)}
    assert rows == {
        (LOSS, Period.DAY): (100, 50),
        (LOSS, Period.MONTH): (700, 300),
        (WAGER, Period.WEEK): (300, 0),
    }
    assert binding_limit(settings, HISTORY, [DEPOSIT], T0) is None


# --- rolling windows ----------------------------------------------------------------------

AGES = {
    "24h - 1s": timedelta(hours=24) - SECOND,
    "24h": timedelta(hours=24),
    "24h + 1s": timedelta(hours=24) + SECOND,
    "7d + 1s": timedelta(days=7) + SECOND,
    "30d - 1s": timedelta(days=30) - SECOND,
    "30d + 1s": timedelta(days=30) + SECOND,
}
# Which windows still hold an event of each age: written from the rule "counts while
# younger than the window", by hand.
COUNTED = {
    "24h - 1s": {Period.DAY, Period.WEEK, Period.MONTH},
    "24h": {Period.WEEK, Period.MONTH},
    "24h + 1s": {Period.WEEK, Period.MONTH},
    "7d + 1s": {Period.MONTH},
    "30d - 1s": {Period.MONTH},
    "30d + 1s": set(),
}


@pytest.mark.parametrize("age", list(AGES))
@pytest.mark.parametrize("kind", list(LimitKind))
@pytest.mark.parametrize("period", list(Period))
def test_an_event_counts_while_younger_than_the_window(
    age: str, kind: LimitKind, period: Period
) -> None:
    at = T0 - AGES[age]
    if kind is DEPOSIT:
        activity = Activity(deposits=(Deposit(at, 600),))
    else:
        activity = Activity((Wager(at, 600, returned=0),))
    settings = with_limits((kind, period, 1_000))
    check = check_deposit if kind is DEPOSIT else check_bet
    counted = period in COUNTED[age]
    # 600 used leaves 400; nothing used leaves the whole 1,000.
    assert (check(settings, activity, 401, T0) is not None) == counted
    assert check(settings, activity, 400, T0) is None
    assert (check(settings, activity, 1_000, T0) is None) == (not counted)


def test_an_event_dated_after_now_still_counts() -> None:
    settings = with_limits((WAGER, Period.DAY, 1_000))
    ahead = Activity((Wager(T0 + HOUR, 1_000, returned=0),))
    assert check_bet(settings, ahead, 1, T0) is not None


# --- what a loss is -------------------------------------------------------------------------


def test_an_unsettled_bet_counts_as_lost_until_it_settles() -> None:
    settings = with_limits((LOSS, Period.DAY, 1_000))
    open_bet = Wager(T0 - SECOND, 800)
    refusal = check_bet(settings, Activity((open_bet,)), 201, T0)
    assert refusal is not None and refusal.left == 200
    pushed = Activity((open_bet.settle(800),))
    assert check_bet(settings, pushed, 1_000, T0) is None
    won = Activity((open_bet.settle(1_600),))
    assert check_bet(settings, won, 1_800, T0) is None
    assert check_bet(settings, won, 1_801, T0) is not None


def test_winnings_leaving_the_window_can_leave_no_room() -> None:
    # Won 500 two days ago, lost 600 yesterday: 100 net over 7 days, 600 over 24 hours.
    activity = Activity(
        (
            Wager(T0 - 2 * DAY, 500, returned=1_000),
            Wager(T0 - 20 * HOUR, 600, returned=0),
        )
    )
    settings = with_limits((LOSS, Period.WEEK, 300), (LOSS, Period.DAY, 1_000))
    assert check_bet(settings, activity, 200, T0) is None
    # Six days later the win has left the 7-day window: 600 lost against a limit of 300.
    later = T0 + 5 * DAY + 2 * HOUR
    refusal = check_bet(settings, activity, 1, later)
    assert refusal is not None
    assert (refusal.period, refusal.left) == ("7d", 0)
    assert refusal.message == "loss limit (7 days) reached: 0.00 left of 3.00"


def test_settings_round_trip_through_json() -> None:
    settings = with_limits((LOSS, Period.DAY, 150), (DEPOSIT, Period.MONTH, 0))
    settings, _ = request_change(settings, LOSS, Period.DAY, None, T0)
    settings, _ = request_change(settings, WAGER, Period.WEEK, 10, T0)
    data = settings.to_json()
    assert LimitSettings.from_json(data) == settings
    assert data["pending"] == [
        {"kind": "loss", "period": "24h", "amount": None, "requested_at": T0.isoformat()}
    ]


@given(
    st.lists(
        st.tuples(
            st.integers(-40 * 86_400, 3_600),
            st.integers(1, 1_000),
            st.none() | st.integers(0, 3_000),
        ),
        max_size=30,
    ),
    st.lists(st.tuples(st.integers(-40 * 86_400, 3_600), st.integers(1, 1_000)), max_size=10),
)
def test_the_one_pass_totals_agree_with_each_window(
    wagers: list[tuple[int, int, int | None]], deposits: list[tuple[int, int]]
) -> None:
    activity = Activity(
        tuple(Wager(T0 + timedelta(seconds=s), stake, back) for s, stake, back in wagers),
        tuple(Deposit(T0 + timedelta(seconds=s), amount) for s, amount in deposits),
    )
    lengths = [period.duration for period in Period]
    totals = activity.totals(T0, lengths)
    for length in lengths:
        assert totals[length].wagered == activity.wagered(T0, length)
        assert totals[length].net_loss == activity.net_loss(T0, length)
        assert totals[length].deposited == activity.deposited(T0, length)
        # And both agree with the rule read literally.
        younger = [w for w in activity.wagers if T0 - w.at < length]
        assert totals[length].net_loss == sum(w.stake - (w.returned or 0) for w in younger)
