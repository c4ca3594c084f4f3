"""Table leases in the store: one holder at a time, epochs that only grow, and the fence.

On PostgreSQL the fence is a lock: a takeover waits for a dealer's write in flight, so the
write either commits before the new epoch exists or is refused after it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from server_support import postgres_reachable, postgres_schema
from serving import services_required
from sqlalchemy import text

from baccarat.store import Database, upgrade
from baccarat.store.leases import (
    FencedError,
    acquire,
    add_leases,
    fence,
    lease_holders,
    release,
    renew,
)


@pytest.fixture
def database(db_url: str) -> Iterator[Database]:
    db = Database(db_url)
    upgrade(db)
    with db.write() as c:
        add_leases(c, ["standard", "ez"])
    yield db
    db.dispose()


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh PostgreSQL schema: the race below needs two writers, which SQLite never has."""
    if not postgres_reachable():
        if services_required():
            pytest.fail("PostgreSQL at 127.0.0.1:5432 is required but unreachable")
        pytest.skip("PostgreSQL at 127.0.0.1:5432 is unreachable")
    with postgres_schema() as url:
        yield url


def expire(database: Database, table_id: str) -> None:
    with database.write() as c:
        c.execute(
            text("UPDATE table_leases SET expires_at = 1 WHERE table_id = :t"), {"t": table_id}
        )


def database_write_fenced(database: Database) -> None:
    """A dealer's write under epoch 1: the fence, then a change that must not survive it."""
    with database.write() as c:
        fence(c, "standard", 1)
        c.execute(text("UPDATE table_leases SET node_id = 'written' WHERE table_id = 'ez'"))


def test_one_holder_at_a_time_and_every_change_of_holder_raises_the_epoch(
    database: Database,
) -> None:
    with database.write() as c:
        assert acquire(c, "standard", "n1", 60_000) == 1
        assert acquire(c, "standard", "n2", 60_000) is None  # held, unexpired
        assert acquire(c, "standard", "n1", 60_000) == 1  # kept by its holder
        assert acquire(c, "nowhere", "n1", 60_000) is None  # not a registered table
        add_leases(c, ["standard", "ez"])  # again: changes nothing
    expire(database, "standard")
    with database.write() as c:
        assert not renew(c, "standard", "n1", 1, 60_000)  # lapsed: renewing is not taking
        assert acquire(c, "standard", "n2", 60_000) == 2
        assert not renew(c, "standard", "n1", 1, 60_000)
        assert renew(c, "standard", "n2", 2, 60_000)
        assert not release(c, "standard", "n1", 2)
        assert release(c, "standard", "n2", 2)
        assert acquire(c, "standard", "n1", 60_000) == 3
        holders = {lease.table_id: lease for lease in lease_holders(c)}
    assert holders["standard"].node_id == "n1" and holders["standard"].epoch == 3
    assert holders["ez"].epoch == 0 and holders["ez"].node_id == ""


def test_a_node_past_its_share_waits_a_lease_before_taking_a_free_table(
    database: Database,
) -> None:
    with database.write() as c:
        assert acquire(c, "ez", "n1", 60_000) == 1
        assert release(c, "ez", "n1", 1)  # free from now
        assert acquire(c, "ez", "n2", 60_000, unheld_ms=60_000) is None
        assert acquire(c, "ez", "n3", 60_000, unheld_ms=0) == 2


def test_the_fence_refuses_a_taken_over_or_lapsed_lease_and_writes_nothing(
    database: Database,
) -> None:
    with database.write() as c:
        epoch = acquire(c, "standard", "n1", 60_000)
        assert epoch == 1
        fence(c, "standard", 1)
    with pytest.raises(FencedError, match="has no lease"), database.write() as c:
        fence(c, "nowhere", 1)
    expire(database, "standard")
    # Lapsed, not yet taken over: the old holder already writes nothing.
    with pytest.raises(FencedError, match="expired"):
        database_write_fenced(database)
    with database.write() as c:
        assert acquire(c, "standard", "n2", 60_000) == 2
    with pytest.raises(FencedError, match="epoch is 2, not 1"), database.write() as c:
        fence(c, "standard", 1)
    with database.read() as c:
        names = {lease.node_id for lease in lease_holders(c)}
    assert "written" not in names  # the fenced transaction was rolled back whole


def test_a_takeover_waits_for_the_write_in_flight_under_the_old_epoch(postgres_url: str) -> None:
    database = Database(postgres_url)
    try:
        upgrade(database)
        with database.write() as c:
            add_leases(c, ["standard"])
            assert acquire(c, "standard", "n1", 400) == 1
        fenced = threading.Event()
        taken: list[int | None] = []

        def take_over() -> None:
            fenced.wait(5)
            with database.write() as c:
                taken.append(acquire(c, "standard", "n2", 60_000))

        thief = threading.Thread(target=take_over)
        thief.start()
        with database.write() as c:
            fence(c, "standard", 1)  # passes: still epoch 1, unexpired
            fenced.set()
            time.sleep(0.8)  # the lease expires meanwhile; the thief must wait for us
            assert not taken
            c.execute(text("UPDATE table_leases SET node_id = 'n1-wrote' WHERE true"))
        thief.join(5)
        # The write committed under epoch 1 first; the takeover came after it.
        assert taken == [2]
        with database.read() as c:
            (lease,) = lease_holders(c)
        assert lease.node_id == "n2" and lease.epoch == 2
    finally:
        database.dispose()
