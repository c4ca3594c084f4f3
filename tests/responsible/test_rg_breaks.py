"""Time-outs and self-exclusion with a fake clock: at once, within their ranges, never shorter."""

from __future__ import annotations

import calendar
from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baccarat.refusals import RefusalCode
from baccarat.responsible import (
    NO_BREAKS,
    Break,
    BreakError,
    BreakKind,
    Breaks,
    PlayerState,
    allowed_range,
    check_breaks,
    may_bet,
    may_deposit,
    may_play,
    take_break,
)
from baccarat.responsible.breaks import add_months

T0 = datetime(2024, 6, 1, 12, 0, 0, tzinfo=UTC)
SECOND = timedelta(seconds=1)
TIME_OUT, SELF_EXCLUSION = BreakKind.TIME_OUT, BreakKind.SELF_EXCLUSION


# --- ranges ----------------------------------------------------------------------------------

# (kind, end, allowed): the bounds and one second either side, written from the rules.
RANGE_CASES = [
    (TIME_OUT, T0 + timedelta(hours=24) - SECOND, False),
    (TIME_OUT, T0 + timedelta(hours=24), True),
    (TIME_OUT, T0 + timedelta(days=20), True),
    (TIME_OUT, T0 + timedelta(days=42), True),
    (TIME_OUT, T0 + timedelta(days=42) + SECOND, False),
    (SELF_EXCLUSION, datetime(2024, 12, 1, 12, tzinfo=UTC) - SECOND, False),
    (SELF_EXCLUSION, datetime(2024, 12, 1, 12, tzinfo=UTC), True),
    (SELF_EXCLUSION, datetime(2026, 1, 1, tzinfo=UTC), True),
    (SELF_EXCLUSION, datetime(2029, 6, 1, 12, tzinfo=UTC), True),
    (SELF_EXCLUSION, datetime(2029, 6, 1, 12, tzinfo=UTC) + SECOND, False),
]


@pytest.mark.parametrize(("kind", "until", "allowed"), RANGE_CASES)
def test_a_break_must_end_within_its_range(kind: BreakKind, until: datetime, allowed: bool) -> None:
    if allowed:
        breaks, taken = take_break(NO_BREAKS, kind, until, T0)
        assert taken == Break(kind, T0, until)
        assert breaks.latest(kind) == taken
    else:
        text = "24 hours to 6 weeks" if kind is TIME_OUT else "6 months to 5 years"
        with pytest.raises(BreakError, match=text):
            take_break(NO_BREAKS, kind, until, T0)


def test_calendar_months_clamp_to_the_end_of_a_short_month() -> None:
    low, high = allowed_range(SELF_EXCLUSION, datetime(2023, 8, 31, 9, tzinfo=UTC))
    assert low == datetime(2024, 2, 29, 9, tzinfo=UTC)
    assert high == datetime(2028, 8, 31, 9, tzinfo=UTC)


def test_add_months_on_every_day_of_four_years() -> None:
    day = date(2023, 1, 1)
    while day < date(2027, 1, 1):
        moment = datetime(day.year, day.month, day.day, 7, 30, tzinfo=UTC)
        for months in (1, 6, 13, 60):
            later = add_months(moment, months)
            total = day.year * 12 + day.month - 1 + months
            assert later.year * 12 + later.month - 1 == total
            last = calendar.monthrange(later.year, later.month)[1]
            assert later.day == min(day.day, last)
            assert (later.hour, later.minute, later.tzinfo) == (7, 30, UTC)
        day += timedelta(days=1)


# --- at once, and for exactly as long as chosen -------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "until", "code"),
    [
        (TIME_OUT, T0 + timedelta(days=2), RefusalCode.TIME_OUT),
        (SELF_EXCLUSION, add_months(T0, 6), RefusalCode.SELF_EXCLUDED),
    ],
)
def test_a_break_applies_at_once_and_ends_at_its_end(
    kind: BreakKind, until: datetime, code: RefusalCode
) -> None:
    breaks, _ = take_break(NO_BREAKS, kind, until, T0)
    state = PlayerState(breaks=breaks)
    for moment in (T0, until - SECOND):
        assert breaks.is_blocked(moment)
        for refusal in (may_bet(state, 100, moment), may_deposit(state, 100, moment)):
            assert refusal is not None
            assert refusal.code is code
            assert refusal.until == until
        assert may_play(state, moment) is not None
    assert not breaks.is_blocked(until)
    assert may_bet(state, 100, until) is None
    assert may_deposit(state, 100, until) is None


def test_the_refusal_says_until_when() -> None:
    breaks, _ = take_break(NO_BREAKS, TIME_OUT, T0 + timedelta(days=7), T0)
    refusal = check_breaks(breaks, T0)
    assert refusal is not None
    assert refusal.message == (
        "you are taking a time-out until 2024-06-08 12:00:00 UTC: bets and deposits are refused"
    )
    breaks, _ = take_break(breaks, SELF_EXCLUSION, datetime(2025, 1, 1, tzinfo=UTC), T0)
    refusal = check_breaks(breaks, T0)
    assert refusal is not None and refusal.code is RefusalCode.SELF_EXCLUDED
    assert "until 2025-01-01 00:00:00 UTC" in refusal.message


def test_a_clock_stepped_back_does_not_lift_a_break() -> None:
    breaks, _ = take_break(NO_BREAKS, TIME_OUT, T0 + timedelta(days=2), T0)
    assert breaks.is_blocked(T0 - timedelta(hours=3))


def test_self_exclusion_is_named_before_a_time_out() -> None:
    breaks, _ = take_break(NO_BREAKS, TIME_OUT, T0 + timedelta(days=40), T0)
    breaks, _ = take_break(breaks, SELF_EXCLUSION, add_months(T0, 6), T0)
    held = breaks.blocking(T0)
    assert held is not None and held.kind is SELF_EXCLUSION


# --- never shorter ----------------------------------------------------------------------------


@pytest.mark.parametrize("kind", list(BreakKind))
def test_a_running_break_cannot_be_shortened(kind: BreakKind) -> None:
    low, high = allowed_range(kind, T0)
    breaks, taken = take_break(NO_BREAKS, kind, high, T0)
    later = T0 + timedelta(hours=1)
    for earlier in (high - SECOND, low, later + timedelta(hours=25)):
        with pytest.raises(BreakError, match="cannot be shortened: it runs until"):
            take_break(breaks, kind, earlier, later)
    # The same end changes nothing.
    same, again = take_break(breaks, kind, high, later)
    assert same == breaks and again == taken


@pytest.mark.parametrize("kind", list(BreakKind))
def test_a_running_break_can_be_extended_from_its_start(kind: BreakKind) -> None:
    low, _ = allowed_range(kind, T0)
    breaks, _ = take_break(NO_BREAKS, kind, low, T0)
    later = T0 + timedelta(hours=12)
    _, high_later = allowed_range(kind, later)
    extended, taken = take_break(breaks, kind, high_later, later)
    assert taken == Break(kind, T0, high_later)
    assert extended.latest(kind) == taken
    with pytest.raises(BreakError, match=r"extended to .* at most"):
        take_break(breaks, kind, high_later + SECOND, later)


def test_a_time_out_with_an_hour_left_may_be_extended_by_less_than_a_day() -> None:
    breaks, _ = take_break(NO_BREAKS, TIME_OUT, T0 + timedelta(hours=24), T0)
    later = T0 + timedelta(hours=23)
    extended, taken = take_break(breaks, TIME_OUT, T0 + timedelta(hours=26), later)
    assert taken.until == T0 + timedelta(hours=26)
    assert extended.is_blocked(T0 + timedelta(hours=25))


def test_after_a_break_ends_a_new_one_starts_afresh() -> None:
    breaks, _ = take_break(NO_BREAKS, TIME_OUT, T0 + timedelta(days=1), T0)
    end = T0 + timedelta(days=1)
    # A shorter break than the first one, now that the first is over, is a new break.
    breaks, taken = take_break(breaks, TIME_OUT, end + timedelta(hours=24), end)
    assert taken == Break(TIME_OUT, end, end + timedelta(hours=24))


@given(
    st.lists(
        st.tuples(
            st.sampled_from(list(BreakKind)),
            st.integers(0, 40 * 24 * 3600),  # how long after the previous request
            # The end asked for, from that moment: near the time-out range, or anywhere.
            st.integers(0, 50 * 24 * 3600) | st.integers(0, 6 * 366 * 24 * 3600),
        ),
        max_size=12,
    )
)
def test_no_sequence_of_requests_ever_ends_a_break_early(
    requests: list[tuple[BreakKind, int, int]],
) -> None:
    breaks, now = NO_BREAKS, T0
    for kind, step, length in requests:
        now += timedelta(seconds=step)
        before = breaks.blocking(now)
        held = breaks.latest(kind)
        try:
            breaks, _ = take_break(breaks, kind, now + timedelta(seconds=length), now)
        except BreakError:
            continue
        after = breaks.latest(kind)
        assert after is not None
        if held is not None and held.is_active(now):
            assert after.until >= held.until
            assert after.started_at == held.started_at
        _, high = allowed_range(kind, now)
        assert after.until <= high
        # Whatever blocked before still blocks, at least as long.
        if before is not None:
            blocking = breaks.blocking(now)
            assert blocking is not None
            assert (
                max(b.until for b in (breaks.time_out, breaks.self_exclusion) if b) >= before.until
            )


def test_naive_datetimes_are_refused() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        take_break(NO_BREAKS, TIME_OUT, datetime(2024, 6, 3), T0)


def test_breaks_round_trip_through_json() -> None:
    breaks, _ = take_break(NO_BREAKS, TIME_OUT, T0 + timedelta(days=3), T0)
    assert Breaks.from_json(breaks.to_json()) == breaks
    assert breaks.to_json()["self_exclusion"] is None
