"""``store.launches``: signatures kept while a copy could pass the clock and then let go, a
launch token stored only as its hash and used once, within its time."""

from __future__ import annotations

from launch_support import T0, database_fixture, db_url_fixture, new_operator, vault_fixture
from sqlalchemy import func, select

from baccarat.store import Database
from baccarat.store.launches import (
    LAUNCH_TTL_MS,
    REQUEST_KEPT_MS,
    Launch,
    Unusable,
    issue_launch,
    record_request,
    redeem_launch,
    request_seen,
    seat_player,
)
from baccarat.store.players import token_hash
from baccarat.store.schema import launch_requests, launch_tokens
from baccarat.store.seal import SeedVault

__all__ = ["database_fixture", "db_url_fixture", "vault_fixture"]


def test_signatures_are_kept_while_a_copy_could_pass(database: Database, vault: SeedVault) -> None:
    new_operator(database, vault)
    with database.write() as c:
        record_request(c, "casino-1", "a" * 64, T0)
    with database.write() as c:
        assert request_seen(c, "casino-1", "a" * 64)
        assert not request_seen(c, "casino-1", "b" * 64)
        assert not request_seen(c, "casino-2", "a" * 64)
        # Still kept at the last moment a copy could pass the clock (received + 600 s) ...
        record_request(c, "casino-1", "b" * 64, T0 + REQUEST_KEPT_MS)
        assert request_seen(c, "casino-1", "a" * 64)
        # ... and let go after.
        record_request(c, "casino-1", "c" * 64, T0 + REQUEST_KEPT_MS + 1)
        assert not request_seen(c, "casino-1", "a" * 64)
        kept = c.scalar(select(func.count()).select_from(launch_requests))
    assert kept == 2


def _seated(database: Database) -> str:
    with database.write() as c:
        return seat_player(
            c,
            operator_id="casino-1",
            external_id="ext-1",
            display_name="Budi",
            currency="USD",
            language="id",
            at=T0,
        )


def test_a_token_is_a_hash_at_rest_and_works_once(database: Database, vault: SeedVault) -> None:
    new_operator(database, vault)
    player = _seated(database)
    with database.write() as c:
        token, expires = issue_launch(
            c, operator_id="casino-1", player_id=player, table_id="ez", language="id", at=T0
        )
    assert expires == T0 + LAUNCH_TTL_MS and len(token) == 43
    with database.read() as c:
        assert c.scalar(select(launch_tokens.c.token_hash)) == token_hash(token)
    with database.write() as c:
        assert redeem_launch(c, token, T0 + 1) == Launch("casino-1", player, "ez", "id")
    with database.write() as c:
        assert redeem_launch(c, token, T0 + 2) == Unusable("used")
        assert redeem_launch(c, "no-such-token", T0 + 2) == Unusable("unknown")


def test_a_token_expires(database: Database, vault: SeedVault) -> None:
    new_operator(database, vault)
    player = _seated(database)
    with database.write() as c:
        token, expires = issue_launch(
            c, operator_id="casino-1", player_id=player, table_id=None, language="en", at=T0
        )
        late, _ = issue_launch(
            c, operator_id="casino-1", player_id=player, table_id=None, language="en", at=T0
        )
    with database.write() as c:
        assert redeem_launch(c, token, expires - 1) == Launch("casino-1", player, None, "en")
        assert redeem_launch(c, late, expires) == Unusable("expired")
    # Rows long past their time are let go when the next token is issued.
    with database.write() as c:
        issue_launch(
            c,
            operator_id="casino-1",
            player_id=player,
            table_id=None,
            language="en",
            at=expires + 25 * 3_600_000,
        )
        left = c.scalar(select(func.count()).select_from(launch_tokens))
    assert left == 1
