"""Operator limits as a rule over the player's own (``baccarat.responsible.caps``): after a
cap is imposed the player's limits keep it, never rise, and keep a pending increase within
it; a player's change past it is what ``cap_problem`` names."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from baccarat.responsible import LimitKind, Period
from baccarat.responsible.caps import cap_problem, impose_cap
from baccarat.responsible.limits import NO_LIMITS, request_change

NOW = datetime(2026, 12, 1, tzinfo=UTC)
KEY = (LimitKind.LOSS, Period.WEEK)
amounts = st.integers(min_value=0, max_value=10**6)


@given(current=st.none() | amounts, wanted=st.none() | amounts, cap=amounts)
def test_an_imposed_cap_is_kept_and_never_raises_a_limit(
    current: int | None, wanted: int | None, cap: int
) -> None:
    settings = NO_LIMITS
    if current is not None:
        settings, _ = request_change(settings, *KEY, current, NOW - timedelta(days=2))
    # The player may have asked for an increase (or a removal) still waiting.
    settings, _ = request_change(settings, *KEY, wanted, NOW - timedelta(hours=1))
    before, waiting = settings.amount(*KEY), settings.pending_for(*KEY)

    capped, _ = impose_cap(settings, *KEY, cap, NOW)

    assert cap_problem(capped, {KEY: cap}) is None
    after = capped.amount(*KEY)
    assert after is not None and after <= cap
    assert before is None or after <= before
    if waiting is not None and waiting.amount is not None and waiting.amount <= cap:
        assert capped.pending_for(*KEY) == waiting
    # The player lowers it at once; raising it past the cap is what the server refuses.
    lower, _ = request_change(capped, *KEY, after // 2, NOW)
    assert cap_problem(lower, {KEY: cap}) is None
    higher, _ = request_change(capped, *KEY, cap + 1, NOW)
    assert cap_problem(higher, {KEY: cap}) is not None
