"""The account pages' own arithmetic, run in the browser and checked against Python.

Amounts typed into the limit and deposit fields become minor units by integer arithmetic
(Hypothesis over amounts and spellings); the session clock's durations (every second of the
first three hours, then Hypothesis); the end of a break of whole calendar months, against the
core's own ``add_months`` (Hypothesis over instants); UTC stamps as the history shows them.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from playwright.sync_api import Page
from web_support import call_module

from baccarat.responsible.breaks import add_months

pytest_plugins = ("web_support",)

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@pytest.fixture(scope="module")
def page(module_page: Page) -> Page:
    return module_page


def call(page: Page, module: str, function: str, calls: list[list[Any]]) -> list[Any]:
    return call_module(page, module, function, calls)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 10**13 - 1), min_size=1, max_size=50))
def test_typed_amounts_become_exact_minor_units(page: Page, minors: list[int]) -> None:
    texts, expected = [], []
    for minor in minors:
        major, cents = divmod(minor, 100)
        texts += [f"{major}.{cents:02d}", f" {major},{cents:02d} "]
        expected += [minor, minor]
        if cents % 10 == 0:
            texts.append(f"{major}.{cents // 10}")
            expected.append(minor)
        if cents == 0:
            texts.append(str(major))
            expected.append(minor)
    assert call(page, "limits.js", "parseMoney", [[t] for t in texts]) == expected


def test_anything_else_typed_is_not_an_amount(page: Page) -> None:
    bad = ["", " ", "-5", "1.234", "1e3", "$5", "5.", ".5", "1 000", "12345678901234", "abc"]
    results = call(page, "limits.js", "parseMoney", [[t] for t in bad])
    assert all(isinstance(r, float) and math.isnan(r) for r in results), results


def _duration(seconds: int) -> str:
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def test_session_clock_durations_for_the_first_three_hours(page: Page) -> None:
    seconds = list(range(3 * 3600 + 1))
    assert call(page, "sessionclock.js", "duration", [[s] for s in seconds]) == [
        _duration(s) for s in seconds
    ]


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 10**7), min_size=1, max_size=50))
def test_session_clock_durations_beyond(page: Page, seconds: list[int]) -> None:
    assert call(page, "sessionclock.js", "duration", [[s] for s in seconds]) == [
        _duration(s) for s in seconds
    ]


def _iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.datetimes(datetime(2000, 1, 1), datetime(2090, 12, 31)),
            st.sampled_from([6, 12, 24, 60]),
        ),
        min_size=1,
        max_size=40,
    )
)
def test_a_break_of_calendar_months_ends_where_the_core_says(
    page: Page, cases: list[tuple[datetime, int]]
) -> None:
    wide = {"earliest": "1970-01-01T00:00:00Z", "latest": "2999-01-01T00:00:00Z"}
    calls, expected = [], []
    for naive, months in cases:
        now = naive.replace(microsecond=naive.microsecond // 1000 * 1000, tzinfo=UTC)
        ms = (now - EPOCH) // timedelta(milliseconds=1)
        calls.append([{"months": months}, wide, ms])
        expected.append(_iso(add_months(now, months)))
    assert call(page, "breaks.js", "breakEnd", calls) == expected


def test_a_break_stays_a_minute_inside_the_allowed_range(page: Page) -> None:
    now = datetime(2026, 3, 31, 12, tzinfo=UTC)
    allowed = {
        "earliest": _iso(now + timedelta(hours=24)),
        "latest": _iso(now + timedelta(weeks=6)),
    }
    ms = (now - EPOCH) // timedelta(milliseconds=1)
    hour = 3_600_000
    ends = call(
        page,
        "breaks.js",
        "breakEnd",
        [
            [{"ms": 24 * hour}, allowed, ms],
            [{"ms": 72 * hour}, allowed, ms],
            [{"ms": 1008 * hour}, allowed, ms],
        ],
    )
    assert ends == [
        _iso(now + timedelta(hours=24, minutes=1)),
        _iso(now + timedelta(hours=72)),
        _iso(now + timedelta(weeks=6, minutes=-1)),
    ]


def test_utc_stamps_as_the_page_writes_them(page: Page) -> None:
    stamps = ["2024-06-01T12:00:00.123Z", "1999-12-31T23:59:59.000Z", "2026-03-31T12:00:00+00:00"]
    assert call(page, "auth.js", "utcText", [[s] for s in stamps]) == [
        "2024-06-01 12:00:00 UTC",
        "1999-12-31 23:59:59 UTC",
        "2026-03-31 12:00:00 UTC",
    ]
