"""Helpers for the store tests: a migrated database with one table, a shoe and rounds."""

from __future__ import annotations

from sqlalchemy import Connection, update

from baccarat.fair import commitment
from baccarat.rulesets import RuleSet
from baccarat.store import Database, db_now, upgrade
from baccarat.store.players import create_player, new_token
from baccarat.store.rounds import RoundRow, close_round, get_round, open_round
from baccarat.store.schema import rounds
from baccarat.store.seal import SeedVault
from baccarat.store.shoes import ShoeRow, fix_client_seed, get_shoe, register_table, start_shoe

SEED = bytes(range(32))


def migrated(url: str) -> Database:
    database = Database(url)
    upgrade(database)
    return database


def setup_table(database: Database, ruleset: RuleSet, shoe_id: str = "shoe-1") -> ShoeRow:
    """The table ``ruleset.name`` with one open shoe (seed fixed, client seed not yet)."""
    with database.write() as c:
        now = db_now(c)
        register_table(c, ruleset.name, ruleset.name, {"betting_ms": 1000}, now)
        return start_shoe(
            c,
            shoe_id=shoe_id,
            table_id=ruleset.name,
            decks=ruleset.decks,
            ruleset_toml=ruleset.to_toml(),
            server_seed=SEED,
            commitment=commitment(SEED),
            at=now,
            vault=SeedVault.ephemeral(),
        )


def players(database: Database, count: int, credit: int) -> list[str]:
    with database.write() as c:
        return [create_player(c, new_token(), credit, db_now(c)) for _ in range(count)]


def new_round(database: Database, shoe: ShoeRow, number: int) -> RoundRow:
    """A round open for a minute (tests close it early with ``force_close``)."""
    with database.write() as c:
        return open_round(
            c, table_id=shoe.table_id, shoe_id=shoe.id, number=number, betting_ms=60_000
        ).row


def force_close(database: Database, round_id: int) -> RoundRow:
    """Move the deadline to the past, then close the round the normal way."""
    with database.write() as c:
        c.execute(
            update(rounds).where(rounds.c.id == round_id).values(closes_at=rounds.c.opened_at + 1)
        )
        closed = close_round(c, round_id)
        assert not isinstance(closed, int)
        fix_client_seed(c, closed.row.shoe_id)
        return closed.row


def reload(c: Connection, round_id: int) -> RoundRow:
    row = get_round(c, round_id)
    assert row is not None
    return row


def shoe_now(database: Database, shoe_id: str) -> ShoeRow:
    with database.read() as c:
        shoe = get_shoe(c, shoe_id)
        assert shoe is not None
        return shoe
