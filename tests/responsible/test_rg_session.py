"""Session time limits and reality checks with a fake clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from baccarat.refusals import RefusalCode
from baccarat.responsible import (
    Activity,
    PlayerState,
    Session,
    SessionError,
    SessionSettings,
    Wager,
    check_session,
    may_bet,
)

LOGIN = datetime(2024, 6, 1, 20, 0, 0, tzinfo=UTC)
SECOND = timedelta(seconds=1)
MINUTE = timedelta(minutes=1)
HOUR = timedelta(hours=1)


def test_the_session_limit_refuses_new_bets_from_its_last_instant() -> None:
    session = Session.start(LOGIN, SessionSettings(time_limit=HOUR))
    assert session.ends_at == LOGIN + HOUR
    assert check_session(session, LOGIN + HOUR - SECOND) is None
    for moment in (LOGIN + HOUR, LOGIN + 5 * HOUR):
        refusal = check_session(session, moment)
        assert refusal is not None
        assert refusal.code is RefusalCode.SESSION_LIMIT
        assert refusal.message == (
            "your session time limit of 1 h 00 min was reached at 2024-06-01 21:00:00 UTC: "
            "bets already placed settle, new bets are refused"
        )


def test_the_session_limit_lets_the_round_in_progress_finish() -> None:
    session = Session.start(LOGIN, SessionSettings(time_limit=HOUR))
    # A bet accepted ten seconds before the limit, in a round that deals after it.
    bet_at = LOGIN + HOUR - 10 * SECOND
    state = PlayerState(session=session)
    assert may_bet(state, 500, bet_at) is None
    open_round = Activity((Wager(LOGIN + 5 * MINUTE, 1_000, returned=0), Wager(bet_at, 500)))
    state = PlayerState(session=session, activity=open_round)
    # The limit is reached while the round is still running: no new bet, even in that round...
    refusal = may_bet(state, 100, LOGIN + HOUR)
    assert refusal is not None and refusal.code is RefusalCode.SESSION_LIMIT
    # ...but the session stays open until the accepted bet is settled.
    assert not session.may_end(LOGIN + HOUR + 5 * SECOND, open_round)
    settled = Activity((open_round.wagers[0], open_round.wagers[1].settle(1_000)))
    assert session.may_end(LOGIN + HOUR + 20 * SECOND, settled)
    # Before the limit nothing ends the session, open bets or not.
    assert not session.may_end(LOGIN + HOUR - SECOND, settled)


def test_no_time_limit_never_ends_the_session() -> None:
    session = Session.start(LOGIN)
    assert session.ends_at is None
    assert not session.limit_reached(LOGIN + 1000 * HOUR)
    assert check_session(session, LOGIN + 1000 * HOUR) is None


def test_a_reality_check_blocks_bets_until_acknowledged() -> None:
    every = 30 * MINUTE
    session = Session.start(LOGIN, SessionSettings(reality_check_every=every))
    assert session.reality_check_due_at == LOGIN + every
    before = LOGIN + every - SECOND
    assert check_session(session, before) is None
    assert session.reality_check(Activity(), before) is None
    due = LOGIN + every
    for moment in (due, due + 10 * MINUTE):
        refusal = check_session(session, moment)
        assert refusal is not None and refusal.code is RefusalCode.REALITY_CHECK_DUE
    acknowledged = session.acknowledge(due + 2 * MINUTE)
    assert check_session(acknowledged, due + 2 * MINUTE) is None
    # The next check is one interval after the acknowledgement, not after the due time.
    assert acknowledged.reality_check_due_at == due + 2 * MINUTE + every
    assert check_session(acknowledged, due + 2 * MINUTE + every - SECOND) is None
    assert check_session(acknowledged, due + 2 * MINUTE + every) is not None


def test_the_reality_check_shows_time_played_and_the_session_net_result() -> None:
    session = Session.start(LOGIN, SessionSettings(reality_check_every=HOUR))
    activity = Activity(
        (
            Wager(LOGIN - HOUR, 10_000, returned=0),  # before this session: left out
            Wager(LOGIN + MINUTE, 2_000, returned=0),  # lost 20.00
            Wager(LOGIN + 2 * MINUTE, 1_000, returned=1_950),  # won 9.50
            Wager(LOGIN + HOUR - SECOND, 500),  # still open: wagered, no result yet
        )
    )
    check = session.reality_check(activity, LOGIN + HOUR + 5 * MINUTE)
    assert check is not None
    assert check.time_played == HOUR + 5 * MINUTE
    assert check.net_result == -2_000 + 950
    assert check.wagered == 2_000 + 1_000 + 500
    assert check.message == (
        "You have played for 1 h 05 min. Net result this session: -10.50 (wagered 35.00)."
    )
    body = check.to_json()
    assert body["type"] == "reality_check"
    assert body["time_played_s"] == 3900
    assert body["net_result"] == -1_050


def test_acknowledging_when_nothing_is_due_is_refused() -> None:
    session = Session.start(LOGIN, SessionSettings(reality_check_every=HOUR))
    with pytest.raises(SessionError, match="next at 2024-06-01 21:00:00 UTC"):
        session.acknowledge(LOGIN + MINUTE)
    with pytest.raises(SessionError, match="reality checks are off"):
        Session.start(LOGIN).acknowledge(LOGIN + HOUR)


def test_the_session_limit_comes_before_the_reality_check() -> None:
    settings = SessionSettings(time_limit=HOUR, reality_check_every=HOUR)
    refusal = check_session(Session.start(LOGIN, settings), LOGIN + HOUR)
    assert refusal is not None and refusal.code is RefusalCode.SESSION_LIMIT


def test_a_stricter_limit_applies_at_once_a_looser_one_next_session() -> None:
    session = Session.start(LOGIN, SessionSettings(time_limit=2 * HOUR))
    shorter = session.apply(SessionSettings(time_limit=HOUR))
    assert shorter.ends_at == LOGIN + HOUR
    # Chosen after more than the new limit was played: reached at once.
    assert shorter.limit_reached(LOGIN + 90 * MINUTE)
    for looser in (SessionSettings(time_limit=3 * HOUR), SessionSettings()):
        assert session.apply(looser).ends_at == LOGIN + 2 * HOUR
        assert Session.start(LOGIN, looser).ends_at == (
            None if looser.time_limit is None else LOGIN + 3 * HOUR
        )
    # No limit before: any limit is stricter.
    assert Session.start(LOGIN).apply(SessionSettings(time_limit=HOUR)).ends_at == LOGIN + HOUR


def test_a_new_reality_check_interval_applies_at_once() -> None:
    session = Session.start(LOGIN, SessionSettings(reality_check_every=HOUR))
    sooner = session.apply(SessionSettings(reality_check_every=15 * MINUTE))
    assert sooner.reality_check_due_at == LOGIN + 15 * MINUTE
    assert session.apply(SessionSettings()).reality_check_due_at is None


@pytest.mark.parametrize(
    ("field", "value", "allowed"),
    [
        ("time_limit", 5 * MINUTE - SECOND, False),
        ("time_limit", 5 * MINUTE, True),
        ("time_limit", 24 * HOUR, True),
        ("time_limit", 24 * HOUR + SECOND, False),
        ("reality_check_every", 5 * MINUTE - SECOND, False),
        ("reality_check_every", 5 * MINUTE, True),
        ("reality_check_every", 24 * HOUR, True),
        ("reality_check_every", 24 * HOUR + SECOND, False),
        ("time_limit", -HOUR, False),
    ],
)
def test_session_settings_ranges(field: str, value: timedelta, allowed: bool) -> None:
    if allowed:
        assert getattr(SessionSettings(**{field: value}), field) == value
    else:
        with pytest.raises(SessionError, match="must be from 5 min to 24 h 00 min"):
            SessionSettings(**{field: value})


def test_session_and_settings_round_trip_through_json() -> None:
    settings = SessionSettings(time_limit=90 * MINUTE, reality_check_every=20 * MINUTE)
    assert SessionSettings.from_json(settings.to_json()) == settings
    session = Session.start(LOGIN, settings).acknowledge(LOGIN + 20 * MINUTE)
    assert Session.from_json(session.to_json()) == session
    assert session.to_json()["reality_check_due_at"] == "2024-06-01T20:40:00+00:00"


def test_a_naive_start_is_refused() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        Session.start(datetime(2024, 6, 1, 20))
