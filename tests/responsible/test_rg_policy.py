"""The one policy: the order of refusals, the codes, a loss limit reached mid-session, and
Hypothesis properties over random histories checked against a brute-force reading of the rules."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baccarat.refusals import RESPONSIBLE_GAMING, RefusalCode
from baccarat.responsible import (
    NO_LIMITS,
    Activity,
    BreakKind,
    Deposit,
    LimitKind,
    LimitSettings,
    Period,
    PlayerState,
    Session,
    SessionSettings,
    Wager,
    may_bet,
    may_deposit,
    may_play,
    request_change,
    take_break,
)
from baccarat.responsible.breaks import add_months

T0 = datetime(2024, 6, 1, 12, 0, 0, tzinfo=UTC)
MINUTE = timedelta(minutes=1)
HOUR = timedelta(hours=1)
DAY = timedelta(days=1)


def limited(*items: tuple[LimitKind, Period, int]) -> LimitSettings:
    settings = NO_LIMITS
    for kind, period, amount in items:
        settings, _ = request_change(settings, kind, period, amount, T0)
    return settings


def everything_on() -> PlayerState:
    """A state where every rule refuses a bet at T0 + 1 h."""
    breaks, _ = take_break(
        PlayerState().breaks, BreakKind.SELF_EXCLUSION, add_months(T0 + HOUR, 6), T0 + HOUR
    )
    breaks, _ = take_break(breaks, BreakKind.TIME_OUT, T0 + HOUR + 2 * DAY, T0 + HOUR)
    session = Session.start(T0, SessionSettings(time_limit=HOUR, reality_check_every=HOUR))
    limits = limited((LimitKind.LOSS, Period.DAY, 0))
    return PlayerState(limits=limits, breaks=breaks, session=session)


def test_refusals_come_in_a_fixed_order() -> None:
    now = T0 + HOUR
    state = everything_on()
    seen = []
    steps: list[Callable[[PlayerState], PlayerState]] = [
        lambda s: replace(s, breaks=replace(s.breaks, self_exclusion=None)),
        lambda s: replace(s, breaks=replace(s.breaks, time_out=None)),
        lambda s: replace(s, session=Session.start(T0, SessionSettings(reality_check_every=HOUR))),
        lambda s: replace(s, session=None),
        lambda s: replace(s, limits=NO_LIMITS),
    ]
    for lift in steps:
        refusal = may_bet(state, 100, now)
        assert refusal is not None
        seen.append(refusal.code)
        state = lift(state)
    assert may_bet(state, 100, now) is None
    assert seen == [
        RefusalCode.SELF_EXCLUDED,
        RefusalCode.TIME_OUT,
        RefusalCode.SESSION_LIMIT,
        RefusalCode.REALITY_CHECK_DUE,
        RefusalCode.LIMIT_EXCEEDED,
    ]
    assert {code.value for code in RESPONSIBLE_GAMING} == {
        "limit_exceeded",
        "time_out",
        "self_excluded",
        "session_limit",
        "reality_check_due",
    }


def test_deposits_ignore_the_session_but_not_breaks_or_deposit_limits() -> None:
    session = Session.start(T0, SessionSettings(time_limit=HOUR, reality_check_every=HOUR))
    state = PlayerState(
        limits=limited((LimitKind.DEPOSIT, Period.WEEK, 5_000), (LimitKind.LOSS, Period.DAY, 0)),
        session=session,
        activity=Activity(deposits=(Deposit(T0, 4_000),)),
    )
    now = T0 + 2 * HOUR
    assert may_bet(state, 100, now) is not None
    assert may_deposit(state, 1_000, now) is None
    refusal = may_deposit(state, 1_001, now)
    assert refusal is not None and refusal.code is RefusalCode.LIMIT_EXCEEDED
    assert refusal.message == "deposit limit (7 days) reached: 10.00 left of 50.00"
    breaks, _ = take_break(state.breaks, BreakKind.TIME_OUT, now + DAY, now)
    refusal = may_deposit(replace(state, breaks=breaks), 1, now)
    assert refusal is not None and refusal.code is RefusalCode.TIME_OUT


def test_may_play_only_looks_at_breaks() -> None:
    state = everything_on()
    refusal = may_play(state, T0 + HOUR)
    assert refusal is not None and refusal.code is RefusalCode.SELF_EXCLUDED
    lifted = replace(state, breaks=replace(state.breaks, self_exclusion=None, time_out=None))
    assert may_play(lifted, T0 + HOUR) is None


@pytest.mark.parametrize("bad", [0, -1, 1.0, True, None])
def test_a_bad_amount_is_an_error_whatever_the_state(bad: object) -> None:
    for state in (PlayerState(), everything_on()):
        with pytest.raises(ValueError, match="positive integer of minor units"):
            may_bet(state, bad, T0 + HOUR)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="positive integer of minor units"):
            may_deposit(state, bad, T0 + HOUR)  # type: ignore[arg-type]


def test_a_loss_limit_reached_mid_session_refuses_with_the_right_message() -> None:
    # Loss limit 50.00 a day. Rounds of 20.00 on Banker: lose, win 19.00, lose, lose.
    state = PlayerState(
        limits=limited((LimitKind.LOSS, Period.DAY, 50_00)), session=Session.start(T0)
    )
    rounds = [0, 39_00, 0, 0]
    now = T0
    for returned in rounds:
        now += MINUTE
        assert may_bet(state, 20_00, now) is None
        bet = Wager(now, 20_00)
        state = replace(state, activity=state.activity.with_wagers([bet]))
        # Mid-round, the open stake already counts: net so far plus 20.00 at risk.
        settled = Activity((*state.activity.wagers[:-1], bet.settle(returned)))
        state = replace(state, activity=settled)
    # Net loss: 20 - 19 + 20 + 20 = 41.00, so 9.00 is left.
    now += MINUTE
    refusal = may_bet(state, 20_00, now)
    assert refusal is not None
    assert refusal.code is RefusalCode.LIMIT_EXCEEDED
    assert refusal.message == "loss limit (24 hours) reached: 9.00 left of 50.00"
    assert (refusal.left, refusal.limit) == (9_00, 50_00)
    assert may_bet(state, 9_00, now) is None
    # A day on, the first two rounds (lost 20.00, won 19.00) leave the window: 40.00 lost.
    later = may_bet(state, 20_00, T0 + DAY + 2 * MINUTE)
    assert later is not None and later.left == 10_00
    assert may_bet(state, 20_00, T0 + DAY + 3 * MINUTE) is None


# --- properties ---------------------------------------------------------------------------

KEYS = [(kind, period) for kind in LimitKind for period in Period]


def window_sum(items: list[tuple[datetime, int]], now: datetime, length: timedelta) -> int:
    """The rules read literally: an item counts while it is younger than the window (and, to
    probe past windows, not after its end)."""
    return sum(amount for at, amount in items if now - length < at <= now)


def used(
    kind: LimitKind, wagers: list[Wager], deposits: list[Deposit], now: datetime, length: timedelta
) -> int:
    if kind is LimitKind.DEPOSIT:
        return window_sum([(d.at, d.amount) for d in deposits], now, length)
    if kind is LimitKind.WAGER:
        return window_sum([(w.at, w.stake) for w in wagers], now, length)
    # Worst case: an open bet has returned nothing yet.
    return window_sum([(w.at, w.stake - (w.returned or 0)) for w in wagers], now, length)


limit_maps = st.dictionaries(st.sampled_from(KEYS), st.integers(0, 6_000), max_size=5)
# (seconds since the previous action, deposit?, amount, what the bet returns per unit).
actions = st.lists(
    st.tuples(
        st.integers(0, 3 * 24 * 3600) | st.integers(0, 600),
        st.booleans(),
        st.integers(1, 2_500),
        # 1.95 is a Banker win at 19:20; None leaves the bet open during the next action.
        st.sampled_from([0, 0, 1, 2, 1.95, None]),
    ),
    max_size=40,
)


@settings(max_examples=150, deadline=None)
@given(limit_maps, actions)
def test_accepted_exactly_when_every_limit_holds(
    amounts: dict[tuple[LimitKind, Period], int],
    steps: list[tuple[int, bool, int, float | None]],
) -> None:
    limits = limited(*((k, p, a) for (k, p), a in amounts.items()))
    wagers: list[Wager] = []
    deposits: list[Deposit] = []
    now = T0
    for wait, is_deposit, amount, ratio in steps:
        now += timedelta(seconds=wait)
        state = PlayerState(limits=limits, activity=Activity(tuple(wagers), tuple(deposits)))
        kinds = (LimitKind.DEPOSIT,) if is_deposit else (LimitKind.WAGER, LimitKind.LOSS)
        was_open = [i for i, w in enumerate(wagers) if not w.settled]
        room = {
            (k, p): a - used(k, wagers, deposits, now, p.duration)
            for (k, p), a in amounts.items()
            if k in kinds
        }
        refusal = may_deposit(state, amount, now) if is_deposit else may_bet(state, amount, now)
        allowed = all(amount <= left for left in room.values())
        assert (refusal is None) == allowed
        if refusal is not None:
            assert refusal.code is RefusalCode.LIMIT_EXCEEDED
            assert refusal.kind is not None and refusal.period is not None
            named = (LimitKind(refusal.kind), Period(refusal.period))
            assert refusal.left == max(0, room[named]) == max(0, min(room.values()))
            assert refusal.limit == amounts[named]
        elif is_deposit:
            deposits.append(Deposit(now, amount))
        elif ratio is None:
            wagers.append(Wager(now, amount))
        else:
            # Settled before the next action (as a round would be), in the player's favour or not.
            returned = int(amount * ratio) if ratio != 1.95 else amount + amount * 19 // 20
            wagers.append(Wager(now, amount, returned))
        # A bet left open stayed open through this action; its round ends now, and it lost.
        for i in was_open:
            wagers[i] = wagers[i].settle(0)
    # No window ending at any moment ever holds more than a wager or deposit limit allows.
    for (kind, period), limit in amounts.items():
        if kind is LimitKind.LOSS:
            continue
        moments = [w.at for w in wagers] + [d.at for d in deposits]
        for moment in moments:
            assert used(kind, wagers, deposits, moment, period.duration) <= limit


@settings(max_examples=100, deadline=None)
@given(
    st.dictionaries(st.sampled_from(list(Period)), st.integers(0, 5_000), min_size=1),
    st.lists(st.tuples(st.integers(0, 2 * 24 * 3600), st.integers(1, 2_000)), max_size=40),
)
def test_a_losing_player_never_loses_more_than_a_loss_limit_in_any_window(
    amounts: dict[Period, int], bets: list[tuple[int, int]]
) -> None:
    limits = limited(*((LimitKind.LOSS, p, a) for p, a in amounts.items()))
    activity, now = Activity(), T0
    for wait, stake in bets:
        now += timedelta(seconds=wait)
        if may_bet(PlayerState(limits=limits, activity=activity), stake, now) is None:
            activity = activity.with_wagers([Wager(now, stake, returned=0)])
    lost = [(w.at, w.stake) for w in activity.wagers]
    for period, limit in amounts.items():
        for moment in [at for at, _ in lost]:
            assert window_sum(lost, moment, period.duration) <= limit
