"""Sessions as rows, players' and staff's alike: a session is live exactly while it is not
ended, not past its expiry and used within the idle timeout; a use never moves back and
never revives an ended session; ending names an owner or a session; only token hashes are
stored; and a token of one kind is nothing to the other kind's look-ups."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from accounts_support import db_url_fixture  # noqa: F401
from sqlalchemy import Connection, select

from baccarat.store import Database, upgrade
from baccarat.store.players import create_player, new_token, token_hash
from baccarat.store.session_rows import SessionRows
from baccarat.store.sessions import (
    PLAYER_SESSIONS,
    confirm_sessions,
    end_sessions,
    live_session,
    live_sessions,
    open_session,
    touch_session,
)
from baccarat.store.staff import (
    STAFF_SESSIONS,
    create_staff,
    disable_staff,
    end_staff_session,
    live_staff_session,
    open_staff_session,
    touch_staff_session,
)

OPENED = 1_000_000
LIFETIME = 600
IDLE = 100


@dataclass(frozen=True)
class Kind:
    """One kind of session through its own public functions."""

    rows: SessionRows
    owner: Callable[[Connection, str], str]
    open: Callable[[Connection, str, int, int], tuple[str, int]]
    live: Callable[[Connection, str, int, int], object | None]
    touch: Callable[[Connection, str, int], None]
    end_one: Callable[[Connection, str, str, int], int]


def _player(c: Connection, name: str) -> str:
    return create_player(c, new_token(), 0, OPENED)


def _staff(c: Connection, name: str) -> str:
    return create_staff(c, name, "operator", "not-a-real-hash", OPENED).id


KINDS = {
    "player": Kind(
        PLAYER_SESSIONS,
        _player,
        open_session,
        live_session,
        touch_session,
        lambda c, owner, token, at: end_sessions(c, owner, at, token=token),
    ),
    "staff": Kind(
        STAFF_SESSIONS,
        _staff,
        open_staff_session,
        live_staff_session,
        touch_staff_session,
        lambda c, owner, token, at: int(end_staff_session(c, token_hash(token), at)),
    ),
}


@pytest.fixture(name="database")
def database_fixture(db_url: str) -> Iterator[Database]:
    database = Database(db_url)
    upgrade(database)
    yield database
    database.dispose()


@pytest.fixture(name="kind", params=sorted(KINDS))
def kind_fixture(request: pytest.FixtureRequest) -> Kind:
    return KINDS[request.param]


def _last_seen(database: Database, kind: Kind, token: str) -> int:
    table = kind.rows.table
    with database.read() as c:
        query = select(table.c.last_seen_at).where(table.c.token_hash == token_hash(token))
        return int(c.execute(query).scalar_one())


def test_a_session_is_live_exactly_inside_its_expiry_and_idle_window(
    database: Database, kind: Kind
) -> None:
    # One token used every 75 ms to the end (its expiry ends it), one used so until
    # 300 ms and then left (the idle timeout ends it).
    last_use = {"kept": OPENED + LIFETIME, "left": OPENED + 300}
    with database.write() as c:
        owner = kind.owner(c, "ann")
        tokens = {name: kind.open(c, owner, OPENED, LIFETIME) for name in last_use}
        seen = dict.fromkeys(last_use, OPENED)
        for now in range(OPENED - 1, OPENED + LIFETIME + IDLE + 2):
            for name, (token, expires) in tokens.items():
                assert expires == OPENED + LIFETIME
                found = kind.live(c, token, now, IDLE)
                live = now < expires and now - seen[name] < IDLE
                assert (found is not None) == live, (name, now)
                if live and (now - OPENED) % 75 == 0 and now <= last_use[name]:
                    kind.touch(c, token_hash(token), now)
                    seen[name] = max(seen[name], now)
    assert seen == {"kept": OPENED + 525, "left": OPENED + 300}
    for name, (token, _) in tokens.items():
        assert _last_seen(database, kind, token) == seen[name]


def test_an_unused_session_idles_out_and_a_use_never_moves_back(
    database: Database, kind: Kind
) -> None:
    with database.write() as c:
        token, _ = kind.open(c, kind.owner(c, "bob"), OPENED, LIFETIME)
        hashed = token_hash(token)
        assert kind.live(c, token, OPENED + IDLE - 1, IDLE) is not None
        assert kind.live(c, token, OPENED + IDLE, IDLE) is None
        kind.touch(c, hashed, OPENED + 50)
        kind.touch(c, hashed, OPENED + 20)  # an older use, recorded late
    assert _last_seen(database, kind, token) == OPENED + 50
    with database.read() as c:
        assert kind.live(c, token, OPENED + 50 + IDLE - 1, IDLE) is not None
        assert kind.live(c, token, OPENED + 50 + IDLE, IDLE) is None


def test_ending_names_one_session_or_an_owner_and_an_ended_one_stays_ended(
    database: Database, kind: Kind
) -> None:
    with database.write() as c:
        owner, other = kind.owner(c, "cid"), kind.owner(c, "dee")
        first, _ = kind.open(c, owner, OPENED, LIFETIME)
        second, _ = kind.open(c, owner, OPENED, LIFETIME)
        theirs, _ = kind.open(c, other, OPENED, LIFETIME)
        assert kind.end_one(c, owner, first, OPENED + 1) == 1
        assert kind.end_one(c, owner, first, OPENED + 2) == 0
        kind.touch(c, token_hash(first), OPENED + 3)  # a use arriving after the end
        assert kind.live(c, first, OPENED + 3, IDLE) is None
        assert kind.live(c, second, OPENED + 3, IDLE) is not None
        assert kind.rows.end(c, OPENED + 4, owner_id=owner) == 1  # the one still live
        assert kind.live(c, second, OPENED + 5, IDLE) is None
        assert kind.live(c, theirs, OPENED + 5, IDLE) is not None
        with pytest.raises(ValueError, match="name the owner or the session"):
            kind.rows.end(c, OPENED + 6)
    assert _last_seen(database, kind, first) == OPENED


def test_only_the_hash_of_a_token_is_stored_and_a_lifetime_must_be_positive(
    database: Database, kind: Kind
) -> None:
    with database.write() as c:
        owner = kind.owner(c, "eli")
        token, _ = kind.open(c, owner, OPENED, LIFETIME)
        for lifetime in (0, -1):
            with pytest.raises(ValueError, match="must be positive"):
                kind.open(c, owner, OPENED, lifetime)
    with database.read() as c:
        [row] = c.execute(select(kind.rows.table)).mappings().all()
    assert row["token_hash"] == token_hash(token)
    assert token not in {str(value) for value in row.values()}


def test_confirm_returns_the_live_hashes_and_touches_only_the_stale_ones(
    database: Database, kind: Kind
) -> None:
    with database.write() as c:
        owner = kind.owner(c, "fay")
        fresh, _ = kind.open(c, owner, OPENED + 40, LIFETIME)
        stale, _ = kind.open(c, owner, OPENED, LIFETIME)
        ended, _ = kind.open(c, owner, OPENED, LIFETIME)
        kind.end_one(c, owner, ended, OPENED + 1)
        hashes = {token_hash(t) for t in (fresh, stale, ended)} | {token_hash("unknown")}
        live = kind.rows.confirm(c, hashes, OPENED + 50, IDLE, touch_ms=20)
        assert live == {token_hash(fresh), token_hash(stale)}
        assert kind.rows.live_hashes(c, set(), OPENED, IDLE) == set()
    assert _last_seen(database, kind, fresh) == OPENED + 40  # 10 ms old: not written
    assert _last_seen(database, kind, stale) == OPENED + 50
    assert _last_seen(database, kind, ended) == OPENED


def test_the_players_wrappers_are_the_player_rows(database: Database) -> None:
    with database.write() as c:
        player = _player(c, "gus")
        token, _ = open_session(c, player, OPENED, LIFETIME)
        hashed = token_hash(token)
        assert live_sessions(c, {hashed}, OPENED + 30, IDLE) == {hashed}
        assert confirm_sessions(c, {hashed}, OPENED + 30, IDLE, 10) == {hashed}
        found = live_session(c, token, OPENED + 31, IDLE)
        assert found is not None
        assert (found.player_id, found.token_hash) == (player, hashed)
        assert (found.expires_at, found.last_seen_at) == (OPENED + LIFETIME, OPENED + 30)


def test_a_token_of_one_kind_is_nothing_to_the_other(database: Database) -> None:
    with database.write() as c:
        player_token, _ = open_session(c, _player(c, "hal"), OPENED, LIFETIME)
        staff_token, _ = open_staff_session(c, _staff(c, "hal"), OPENED, LIFETIME)
        assert live_staff_session(c, player_token, OPENED + 1, IDLE) is None
        assert live_session(c, staff_token, OPENED + 1, IDLE) is None
        assert live_staff_session(c, staff_token, OPENED + 1, IDLE) is not None
        assert live_session(c, player_token, OPENED + 1, IDLE) is not None


def test_a_disabled_members_sessions_end_and_their_member_is_shown(database: Database) -> None:
    with database.write() as c:
        member = create_staff(c, "Ivy", "auditor", "not-a-real-hash", OPENED)
        token, _ = open_staff_session(c, member.id, OPENED, LIFETIME)
        found = live_staff_session(c, token, OPENED + 1, IDLE)
        assert found is not None
        assert (found.staff_id, found.username, found.role) == (member.id, "ivy", "auditor")
        assert (found.token_hash, found.last_seen_at) == (token_hash(token), OPENED)
        assert disable_staff(c, member.id, OPENED + 2)
        assert live_staff_session(c, token, OPENED + 3, IDLE) is None
        assert STAFF_SESSIONS.live_hashes(c, {token_hash(token)}, OPENED + 3, IDLE) == set()
